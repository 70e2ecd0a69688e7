/* homework.c - the reports' exercise end to end through the library API:
   estimate ResNet-18 and AlexNet (batch 1, one training step, FP32), reduce
   their Nsight Compute profiles, place both on the H100's roofline, print
   the comparison and write the chart.

   make && ./build/examples/homework [OUT.png]     (default homework.png)
   Profiles: the two CSV files in examples/data/, captured on an H100 with
   ncu --profile-from-start off --metrics ... --csv --page raw (README). */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const models[2] = {"resnet18", "alexnet"};
static const char *const profiles[2] = {"examples/data/resnet18-b1-train-seed-raw.csv",
										"examples/data/alexnet-b1-train-full-raw.csv"};

/* Big buffers are static: the library allocates nothing. */
static rfl_layer layers[RFL_ZOO_MAX_LAYERS];
static rfl_reduce_state st;
static rfl_reduce_result res;
static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
static char chunk[1 << 16];

/* 1. the estimate: forward + backward work of a zoo model, and its time on
   m summed layer by layer (where the chart places an estimate) */
static int estimate(const char *model, const rfl_machine *m, rfl_work *w, double *layers_s) {
	rfl_net net;
	rfl_net_cost c;
	rfl_net_prediction p;
	rfl_cost_desc d = {0};
	d.batch = 1;
	d.mode = RFL_MODE_TRAIN;
	rfl_net_init(&net, layers, RFL_ZOO_MAX_LAYERS, NULL, 0);
	if (rfl_zoo_build(&net, model, 224) || rfl_net_cost_get(&net, &d, &c) ||
		rfl_net_predict(&net, &d, m, &p))
		return 1;
	*w = c.forward;
	rfl_work_add(w, &c.backward); /* one training step */
	*layers_s = p.layers_s;
	return 0;
}

/* 2. the measurement: stream the CSV through the reducer */
static int measure(const char *path, rfl_work *w) {
	FILE *f = fopen(path, "rb");
	size_t n;
	if (!f) { perror(path); return 1; }
	rfl_reduce_init(&st, NULL, scratch, sizeof scratch);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		if (rfl_reduce_push(&st, chunk, n) != RFL_OK) break;
	fclose(f);
	if (st.err.code == RFL_OK) rfl_reduce_finish(&st, &res);
	if (st.err.code != RFL_OK) { /* "FILE:LINE:COL: message" */
		char line[320];
		rfl_error_format(&st.err, path, line, sizeof line);
		fprintf(stderr, "%s\n", line);
		return 1;
	}
	*w = res.total.work; /* FLOPs per precision, bytes per level, time */
	return 0;
}

int main(int argc, char **argv) {
	const rfl_machine *h100;
	rfl_point pts[4];
	char labels[4][64];
	int i, n = 0;
	if (rfl_hw_find("h100", &h100)) return 1;
	printf("%-10s %12s %12s %8s %12s %12s %8s %9s\n", "model", "est FLOPs", "meas FLOPs",
		   "ratio", "est AI", "meas AI", "% roof", "bound");
	for (i = 0; i < 2; i++) {
		rfl_work est, meas;
		rfl_prediction p;
		rfl_bound b;
		double achieved, att, frac = 0, layers_s = 0;
		if (estimate(models[i], h100, &est, &layers_s) || measure(profiles[i], &meas)) return 1;
		/* 3. the roofline: predicted time, attainable and achieved FLOP/s */
		rfl_predict(h100, &est, &p);
		achieved = rfl_work_flops(&meas) / meas.time_s;
		att = rfl_work_attainable(h100, &meas, RFL_FP32, &b);
		rfl_roof_fraction(h100, &meas, RFL_FP32, &frac);
		printf("%-10s %12.4g %12.4g %8.3f %12.2f %12.2f %7.1f%% %9s\n", models[i],
			   rfl_work_flops(&est), rfl_work_flops(&meas),
			   rfl_work_flops(&meas) / rfl_work_flops(&est), rfl_work_ai(&est, RFL_DRAM),
			   rfl_work_ai(&meas, RFL_DRAM), 100 * frac, b.memory ? rfl_level_label(b.level) : "compute");
		printf("%-10s predicted %.3g ms (whole step at the roof), measured %.3g ms "
			   "(sum of kernels), achieved %.3g of %.3g TFLOP/s\n", "", p.time_s * 1e3,
			   meas.time_s * 1e3, achieved / 1e12, att / 1e12);
		/* 4. two points per model, joined: estimate (hollow) and measurement */
		/* the library's one rule: FLOPs over the time summed layer by layer */
		snprintf(labels[n], 64, "%s estimate (%s)", models[i], RFL_ESTIMATE_NOTE);
		memset(&pts[n], 0, sizeof pts[n]);
		pts[n].label = labels[n];
		pts[n].ai = rfl_work_ai(&est, RFL_DRAM);
		pts[n].flops_per_s = rfl_estimate_flops_per_s(rfl_work_flops(&est), layers_s);
		pts[n].estimate = 1;
		pts[n].link = i + 1;
		n++;
		memset(&pts[n], 0, sizeof pts[n]);
		pts[n].level = b.memory ? b.level : RFL_DRAM; /* at the AI of the level that binds */
		snprintf(labels[n], 64, "%s measured (%s AI)", models[i], rfl_level_label(pts[n].level));
		pts[n].label = labels[n];
		pts[n].ai = rfl_work_ai(&meas, pts[n].level);
		pts[n].flops_per_s = achieved;
		pts[n].link = i + 1;
		n++;
	}
#ifdef RFL_HAS_PNG
	{ /* 5. the chart: pixels and the PNG encoder's arena are ours too */
		const char *out = argc > 1 ? argv[1] : "homework.png";
		enum { W = 1000, H = 700 };
		size_t arena_n = RFL_PNG_ARENA_BYTES(W, H, 3);
		unsigned char *px = (unsigned char *)malloc(RFL_CANVAS_BYTES(W, H, 3));
		void *arena = malloc(arena_n);
		rfl_canvas c;
		rfl_roofline_desc d;
		memset(&d, 0, sizeof d);
		d.title = "ResNet-18 and AlexNet, batch 1 training step, FP32";
		d.machines = &h100;
		d.n_machines = 1;
		d.points = pts;
		d.n_points = n;
		if (!px || !arena || rfl_canvas_init(&c, px, RFL_CANVAS_BYTES(W, H, 3), W, H, 3, 0) ||
			rfl_chart_roofline(&c, &d) || rfl_png_save(&c, out, arena, arena_n)) {
			fprintf(stderr, "cannot draw %s\n", out);
			return 1;
		}
		free(px);
		free(arena);
		printf("wrote %s\n", out);
	}
#else
	(void)argc;
	(void)argv;
	printf("(no PNG: built without stb_image_write.h or with RFL_NO_PNG)\n");
#endif
	return 0;
}
