# issue 19: rfl-probe needs pthreads (the pattern rule links -lm only).
build/rfl-probe: tools/rfl-probe.c tools/probe_report.h tools/probe_json.h tools/tool.h $(HDRS) | build
	$(CC) $(WARN) $(CFLAGS) -I. $< -o $@ -lm -lpthread
