# issue 19: machine files (--hw-file): the library reads and writes them;
# the tools take --hw-file through tools/cli.h.
