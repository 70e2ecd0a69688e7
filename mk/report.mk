# rfl-report's own parts (the pattern rule knows only tool.h).
build/rfl-report: $(wildcard tools/report_*.h)
