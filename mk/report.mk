# rfl-report's own helper header (the pattern rule knows only tool.h).
build/rfl-report: tools/report_kinds.h
