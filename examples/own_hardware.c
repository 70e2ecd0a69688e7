/* own_hardware.c - describe your own CPU or board by its parts, and draw its
   roofline with a model on it.

   peak FP32 = sockets x cores x GHz x SIMD lanes x FMA pipes x 2
   bandwidth = sockets x memory channels x MT/s x bytes per transfer
   The reports' server: 2x Xeon E5-2697 v2 (12 cores, 2.7 GHz, AVX: 8 FP32
   lanes, separate add and mul pipes; 4 channels of DDR3-1866 per socket):
   2 x 12 x 2.7 x 8 x 2 = 1036.8 GFLOP/s and 2 x 4 x 1866 x 8 = 119.4 GB/s.
   And a Raspberry Pi 5 (4 Cortex-A76 at 2.4 GHz, 128-bit NEON, 2 FMA pipes;
   one 32-bit LPDDR4X-4267 interface).

   make && ./build/examples/own_hardware [OUT.png]   (default own_hardware.png) */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rfl_layer layers[RFL_ZOO_MAX_LAYERS];

int main(int argc, char **argv) {
	rfl_cpu_desc xeon = {0}, pi = {0};
	rfl_machine m[2];
	const rfl_machine *panels[2] = {&m[0], &m[1]};
	rfl_net net;
	rfl_net_cost cost;
	rfl_cost_desc d = {0}; /* ResNet-18, batch 1, FP32 inference */
	rfl_point pts[2];
	int i;

	xeon.name = "2x Xeon E5-2697 v2";
	xeon.sockets = 2;
	xeon.cores = 12;
	xeon.ghz = 2.7;
	xeon.simd_bits = 256;       /* AVX: 8 FP32 lanes */
	xeon.fma_pipes = 1;         /* one add pipe + one mul pipe ... */
	xeon.fma = 1;               /* ... counted like one FMA pipe: 2 FLOPs per lane */
	xeon.mem_channels = 4;
	xeon.mts = 1866;            /* DDR3-1866, 8 bytes per transfer (the default) */

	pi.name = "Raspberry Pi 5";
	pi.cores = 4;
	pi.ghz = 2.4;
	pi.simd_bits = 128;         /* NEON: 4 FP32 lanes */
	pi.fma_pipes = 2;
	pi.mem_channels = 1;
	pi.mts = 4267;              /* LPDDR4X-4267 ... */
	pi.bytes_per_transfer = 4;  /* ... on a 32-bit bus */

	if (rfl_machine_from_cpu(&xeon, &m[0]) || rfl_machine_from_cpu(&pi, &m[1])) return 1;
	rfl_net_init(&net, layers, RFL_ZOO_MAX_LAYERS, NULL, 0);
	if (rfl_zoo_build(&net, "resnet18", 224) || rfl_net_cost_get(&net, &d, &cost)) return 1;

	memset(pts, 0, sizeof pts);
	for (i = 0; i < 2; i++) {
		rfl_prediction p;
		rfl_predict(&m[i], &cost.forward, &p);
		printf("%-20s %7.1f GFLOP/s FP32, %6.1f GB/s, ridge %5.2f FLOP/B: ResNet-18 forward "
			   "%.1f ms, %s-bound\n", m[i].name, m[i].peak_flops[RFL_FP32] / 1e9,
			   m[i].bw_bytes_per_s[RFL_DRAM] / 1e9, rfl_ridge(&m[i], RFL_FP32, RFL_DRAM),
			   p.time_s * 1e3, p.bound.memory ? "memory" : "compute");
		pts[i].label = "ResNet-18 forward (predicted)";
		pts[i].ai = rfl_work_ai(&cost.forward, RFL_DRAM);
		pts[i].flops_per_s = rfl_work_flops(&cost.forward) / p.time_s;
		pts[i].machine = i;
		pts[i].estimate = 1;
	}
#ifdef RFL_HAS_PNG
	{
		const char *out = argc > 1 ? argv[1] : "own_hardware.png";
		enum { W = 1400, H = 600 };
		size_t an = RFL_PNG_ARENA_BYTES(W, H, 3);
		unsigned char *px = (unsigned char *)malloc(RFL_CANVAS_BYTES(W, H, 3));
		void *arena = malloc(an);
		rfl_canvas c;
		rfl_roofline_desc rd;
		memset(&rd, 0, sizeof rd);
		rd.title = "Your own hardware: ResNet-18 inference, batch 1, FP32";
		rd.machines = panels;
		rd.n_machines = 2;
		rd.points = pts;
		rd.n_points = 2;
		rd.extra_precs = 1u << RFL_FP64; /* the FP64 ceiling too, lighter */
		if (!px || !arena || rfl_canvas_init(&c, px, RFL_CANVAS_BYTES(W, H, 3), W, H, 3, 0) ||
			rfl_chart_roofline(&c, &rd) || rfl_png_save(&c, out, arena, an)) {
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
#endif
	return 0;
}
