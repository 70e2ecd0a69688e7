/* minimal.c - ResNet-18's arithmetic intensity and bound on an A100.
   make && ./build/examples/minimal */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include <stdio.h>

static rfl_layer layers[RFL_ZOO_MAX_LAYERS]; /* the network lives here */

int main(void) {
	rfl_net net; rfl_net_cost cost; rfl_cost_desc d = {0}; /* batch 1, fp32, forward */
	const rfl_machine *a100; rfl_bound b;
	rfl_net_init(&net, layers, RFL_ZOO_MAX_LAYERS, NULL, 0);
	if (rfl_zoo_build(&net, "resnet18", 224) || rfl_net_cost_get(&net, &d, &cost) ||
		rfl_hw_find("a100", &a100)) return 1;
	double ai = rfl_work_ai(&cost.forward, RFL_DRAM);
	double att = rfl_work_attainable(a100, &cost.forward, RFL_FP32, &b);
	printf("ResNet-18 forward: %.3f GFLOP, %.1f MB, AI %.1f FLOP/B: %s-bound on the %s, "
		   "at most %.1f TFLOP/s\n", rfl_work_flops(&cost.forward) / 1e9,
		   cost.forward.bytes[RFL_DRAM] / 1e6, ai, b.memory ? "memory" : "compute", a100->name,
		   att / 1e12);
	return 0;
}
