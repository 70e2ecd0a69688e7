# issue 19: machine files (--hw-file). Every tool includes tools/machine_file.h
# through tools/tool.h.
$(TOOLS): tools/machine_file.h
