# issue 19: rfl-probe needs pthreads (the pattern rule links -lm only).
build/rfl-probe: tools/rfl-probe.c tools/cli.h $(HDRS) | build
	$(CC) $(WARN) $(CFLAGS) -I. $< -o $@ -lm -lpthread

# make bench, probe part (issue 19, item 5): rfl-probe (default run) against
# an independent STREAM-style triad and hand-unrolled FMA loop, side by side;
# five rounds, each the probe then the independent figures, medians compared.
# -O3 -march=native as STREAM is built: the compiler vectorises the triad.
build/bench-probe: dev/bench/bench-probe.c $(HDRS) | build
	$(CC) $(WARN) $(CFLAGS) -O3 -march=native -I. $< -o $@ -lm -lpthread

.PHONY: bench-probe
bench-probe: build/rfl-probe build/bench-probe
	build/bench-probe --rounds 5 build/rfl-probe --json

bench:: bench-probe
