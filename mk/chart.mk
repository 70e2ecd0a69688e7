# make bench, chart part (issue 5): the whole rfl-plot process drawing a
# 1600x1000 roofline (2 machines side by side, 6 ceilings each: DRAM slope,
# FP32 roof, FP64, FP16, TF32 and FP16 tensor; 50 points) and encoding the
# PNG, run CHART_RUNS times; prints the mean wall time per run.
# Target: under 30 ms (matplotlib takes about 590 ms for a simpler chart).
CHART_RUNS ?= 30
CHART_ARGS = build/bench/chart-points.args

$(CHART_ARGS):
	mkdir -p build/bench
	awk 'BEGIN { srand(7); split("ResNet-18 AlexNet VGG-16 ResNet-50 MobileNetV2", m, " "); \
	  for (i = 0; i < 50; i++) { ai = 10 ^ (rand() * 3 - 0.5); f = ai * 1.5e12 * (0.05 + 0.6 * rand()); \
	    if (f > 1.9e13) f = 1.9e13 * (0.3 + 0.5 * rand()); \
	    printf "--point\n%s layer %d:%g:%g\n", m[i % 5 + 1], i, ai, f } }' > $@

.PHONY: bench-chart
bench-chart: build/rfl-plot $(CHART_ARGS)
	@set -e; out=build/bench/chart.png; \
	run() { xargs -d '\n' build/rfl-plot --hw a100,h100 --ceilings fp64,fp16,tensor \
	        --width 1600 --height 1000 --title "bench" -o $$out < $(CHART_ARGS); }; \
	run; run; \
	times > build/bench/times0; t0=$$(date +%s%N); \
	i=0; while [ $$i -lt $(CHART_RUNS) ]; do run; i=$$((i + 1)); done; \
	t1=$$(date +%s%N); times > build/bench/times1; \
	ms=$$(( (t1 - t0) / $(CHART_RUNS) / 1000 )); \
	cpu=$$(tail -q -n 1 build/bench/times0 build/bench/times1 | awk '{ s = 0; for (k = 1; k <= 2; k++) { split($$k, p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2] } v[NR] = s } END { printf "%.1f", (v[2] - v[1]) * 1000 / $(CHART_RUNS) }'); \
	printf 'chart: rfl-plot 1600x1000, 2 machines x 6 ceilings, 50 points, render + PNG (%s bytes):\n' "$$(wc -c < $$out)"; \
	printf '  %d.%03d ms wall, %s ms CPU per process (mean of %d; target < 30 ms; matplotlib ~590 ms)\n' \
	  $$((ms / 1000)) $$((ms % 1000)) "$$cpu" $(CHART_RUNS); \
	load=$$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?); \
	printf '  (load average %s: on a busy machine wall time includes waiting for a core)\n' "$$load"

bench:: bench-chart

