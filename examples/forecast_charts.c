/* forecast_charts.c - the forecast (rfl_llm_forecast) beside the roofline
   bound, as two charts:
	 OUTDIR/forecast-gpus.png  decode tokens/s of Llama-3-70B against the
							   GPUs of one node (1, 2, 4, 8; tensor
							   parallel) on H100 SXM and A100 SXM4 80GB
	 OUTDIR/forecast-ttft.png  time to first token of Llama-3-8B against
							   the prompt's length, on the same two
   make && ./build/examples/forecast_charts [OUTDIR]   (default: .)
   The forecast's terms come from the table (fitted on our H100 and H200
   measurements; the A100 takes the nearest family's, "assumed from"). */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include <stdio.h>
#include <stdlib.h>

#define W 900
#define H 560

static rfl_layer rec[RFL_LLM_NET_LAYERS(80)];
static char names[RFL_LLM_NET_NAMES(80)];

/* Bound and forecast of the step d of cfg on gpus GPUs of m (tokens/s or
   seconds: *bound and *fc are the step times). 0 when it cannot be done. */
static int step_times(const rfl_llm_config *cfg, const rfl_llm_step_desc *d, const rfl_machine *m,
					  uint32_t gpus, double *bound, double *fc) {
	rfl_llm_tp tp;
	rfl_net net;
	rfl_cost_desc cd;
	rfl_forecast_desc fd;
	rfl_forecast f;
	rfl_net_init(&net, rec, RFL_LLM_NET_LAYERS(80), names, sizeof names);
	/* the plan leaves one GPU's step built in net */
	if (rfl_llm_tp_plan(cfg, d, gpus, &net, &tp) != RFL_OK) return 0;
	if (m->mem_bytes > 0 && (double)(tp.weight_bytes + tp.kv_bytes + tp.act_bytes) > m->mem_bytes) {
		printf("  %-16s %u GPU%s  does not fit: %.0f GB a GPU\n", m->name, gpus, gpus > 1 ? "s" : " ",
			   (double)(tp.weight_bytes + tp.kv_bytes + tp.act_bytes) / 1e9);
		return 0;
	}
	if (rfl_llm_cost_desc(&tp.shard, d, &cd) != RFL_OK) return 0;
	memset(&fd, 0, sizeof fd);
	fd.tp = &tp;
	if (rfl_llm_forecast(&net, &cd, &tp.shard, d, m, &fd, &f) != RFL_OK) return 0;
	*bound = f.bound_s; /* the roofline bound of one GPU's share, no all-reduces */
	*fc = f.step_time_s;
	return 1;
}

#ifdef RFL_HAS_PNG
static int save(rfl_canvas *c, const char *dir, const char *name, void *arena, size_t an) {
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (rfl_png_save(c, path, arena, an) != RFL_OK) {
		fprintf(stderr, "forecast_charts: cannot write %s\n", path);
		return 1;
	}
	printf("wrote %s\n", path);
	return 0;
}
#endif

int main(int argc, char **argv) {
	static const char *const hw[2] = {"h100-sxm", "a100-80gb"};
	static const char *const hw_label[2] = {"H100 SXM", "A100 SXM4 80GB"};
	static const uint32_t gpus[4] = {1, 2, 4, 8};
	static const uint64_t prompts[6] = {128, 256, 512, 1024, 2048, 4096};
	static char labels[8][64];
	rfl_xy pts[80];
	int n = 0, h, i;
	rfl_llm_config c70, c8;
	rfl_llm_step_desc d;
	const char *dir = argc > 1 ? argv[1] : ".";
	if (rfl_llm_find("llama-3-70b", &c70) != RFL_OK || rfl_llm_find("llama-3-8b", &c8) != RFL_OK) return 1;
	memset(&d, 0, sizeof d);
	memset(pts, 0, sizeof pts);

	/* tokens/s against GPUs: decode, batch 1, 1024 tokens cached, bf16 */
	d.phase = RFL_LLM_DECODE, d.batch = 1, d.seq = 1024, d.math = RFL_DTYPE_BF16;
	printf("Llama-3-70B decode (batch 1, 1024 cached, bf16): tokens/s, bound and forecast\n");
	for (h = 0; h < 2; h++) {
		const rfl_machine *m = 0;
		if (rfl_hw_find(hw[h], &m) != RFL_OK) return 1;
		snprintf(labels[2 * h], sizeof labels[0], "%s bound", hw_label[h]);
		snprintf(labels[2 * h + 1], sizeof labels[0], "%s forecast", hw_label[h]);
		for (i = 0; i < 4; i++) {
			double b, f;
			if (!step_times(&c70, &d, m, gpus[i], &b, &f)) continue;
			printf("  %-16s %u GPU%s  bound %7.1f  forecast %7.1f tokens/s\n", hw_label[h], gpus[i],
				   gpus[i] > 1 ? "s" : " ", 1 / b, 1 / f);
			pts[n].label = labels[2 * h], pts[n].x = gpus[i], pts[n].y = 1 / b;
			pts[n].link = 1 + 2 * h, pts[n].hollow = 1;
			pts[n].marker = h ? RFL_MARKER_SQUARE : RFL_MARKER_CIRCLE, n++;
			pts[n].label = labels[2 * h + 1], pts[n].x = gpus[i], pts[n].y = 1 / f;
			pts[n].link = 2 + 2 * h;
			pts[n].marker = h ? RFL_MARKER_SQUARE : RFL_MARKER_CIRCLE, n++;
		}
	}
#ifdef RFL_HAS_PNG
	{
		size_t an = RFL_PNG_ARENA_CHART(W, H, 3);
		unsigned char *px = (unsigned char *)malloc(RFL_CANVAS_BYTES(W, H, 3));
		void *arena = malloc(an);
		rfl_canvas cv;
		rfl_scatter_desc s;
		int bad = 0;
		if (!px || !arena || rfl_canvas_init(&cv, px, RFL_CANVAS_BYTES(W, H, 3), W, H, 3, 0)) return 1;
		memset(&s, 0, sizeof s);
		s.title = "Llama-3-70B decode, batch 1, bf16 (141 GB: one GPU cannot hold it)";
		s.x_title = "GPUs of one node, tensor parallel";
		s.y_title = "tokens/s (all GPUs together)";
		s.points = pts, s.n_points = n;
		s.x_scale = RFL_SCALE_LINEAR, s.y_scale = RFL_SCALE_LINEAR;
		s.x_ticks = RFL_TICKS_PLAIN, s.y_ticks = RFL_TICKS_PLAIN;
		s.x_min = 1, s.x_max = 9;
		s.legend = RFL_LEGEND_TOP_LEFT;
		bad |= rfl_chart_scatter(&cv, &s) != RFL_OK || save(&cv, dir, "forecast-gpus.png", arena, an);

		/* time to first token against the prompt */
		n = 0;
		d.phase = RFL_LLM_PREFILL;
		printf("Llama-3-8B prefill (batch 1, bf16, one GPU): time to first token, bound and forecast\n");
		for (h = 0; h < 2; h++) {
			const rfl_machine *m = 0;
			rfl_hw_find(hw[h], &m);
			for (i = 0; i < 6; i++) {
				double b, f;
				d.seq = prompts[i];
				if (!step_times(&c8, &d, m, 1, &b, &f)) continue;
				printf("  %-16s %5llu tokens  bound %7.2f  forecast %7.2f ms\n", hw_label[h],
					   (unsigned long long)prompts[i], 1e3 * b, 1e3 * f);
				pts[n].label = labels[2 * h], pts[n].x = (double)prompts[i], pts[n].y = 1e3 * b;
				pts[n].link = 1 + 2 * h, pts[n].hollow = 1;
				pts[n].marker = h ? RFL_MARKER_SQUARE : RFL_MARKER_CIRCLE, n++;
				pts[n].label = labels[2 * h + 1], pts[n].x = (double)prompts[i], pts[n].y = 1e3 * f;
				pts[n].link = 2 + 2 * h;
				pts[n].marker = h ? RFL_MARKER_SQUARE : RFL_MARKER_CIRCLE, n++;
			}
		}
		/* what we measured (tests/data/forecast/h100-prefill-fused.json,
		   llama-3-8b, CUDA-graph medians): the forecast's check */
		for (i = 0; i < 5; i++) {
			static const double ms[5] = {8.517, 10.082, 15.069, 28.436, 57.329};
			pts[n].label = "H100 SXM measured", pts[n].x = (double)prompts[i], pts[n].y = ms[i];
			pts[n].marker = RFL_MARKER_CROSS, n++;
		}
		memset(&s, 0, sizeof s);
		s.title = "Llama-3-8B prefill, batch 1, bf16, one GPU: bound vs forecast";
		s.x_title = "prompt length (tokens)";
		s.x_min = 100, s.x_max = 5000;
		s.y_title = "time to first token (ms)";
		s.points = pts, s.n_points = n;
		s.x_scale = RFL_SCALE_LOG, s.y_scale = RFL_SCALE_LOG;
		s.x_ticks = RFL_TICKS_PLAIN, s.y_ticks = RFL_TICKS_PLAIN;
		s.legend = RFL_LEGEND_TOP_LEFT;
		bad |= rfl_chart_scatter(&cv, &s) != RFL_OK || save(&cv, dir, "forecast-ttft.png", arena, an);
		free(px);
		free(arena);
		return bad;
	}
#else
	printf("(no PNG: stb_image_write.h not found; the figures above are the charts' points)\n");
	return 0;
#endif
}
