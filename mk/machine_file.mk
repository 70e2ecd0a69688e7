# issue 19: machine files (--hw-file). Every tool includes tools/machine_file.h
# through tools/tool.h.
$(TOOLS): tools/machine_file.h
# the machine-file fuzz harness writes files back with the tools' writer
build/fuzz/fuzz_machine_file: tools/tool.h tools/machine_file.h
