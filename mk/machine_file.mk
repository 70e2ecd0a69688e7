# issue 19: machine files (--hw-file): the library reads and writes them;
# the tools on tools/tool.h take --hw-file through tools/machine_file.h.
build/rfl-report: tools/machine_file.h
