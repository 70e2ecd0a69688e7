/* custom_model.c - build your own network with the builder and cost it:
   a stem, a residual block (the ResNet pattern: two 3x3 convolutions and a
   skip connection) and a branch (an Inception-style pair of paths joined by
   concatenation), then the per-layer table, the totals of a training step
   at batch 64 and the predicted time on an A100.
   make && ./build/examples/custom_model */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include <stdio.h>

static rfl_layer rec[64];  /* one record per layer, ours */
static char names[2048];   /* dotted layer names ("block.conv1") */

/* conv -> batchnorm -> relu, named inside the current scope */
static rfl_tensor cbr(rfl_net *n, rfl_tensor x, uint32_t c, uint32_t k, uint32_t s,
					  const char *name) {
	x = rfl_layer_name(n, rfl_conv(n, x, c, k, s, k / 2), name);
	return rfl_act(n, rfl_batchnorm(n, x), RFL_ACT_RELU);
}

int main(void) {
	rfl_net net;
	rfl_tensor x, y, a, b, both[2];
	rfl_cost_desc d = {0};
	rfl_net_cost c;
	rfl_net_prediction p;
	const rfl_machine *a100;
	int i;
	rfl_net_init(&net, rec, 64, names, sizeof names);
	x = rfl_input(&net, 3, 64, 64);             /* per sample: C, H, W */
	x = cbr(&net, x, 32, 3, 2, "stem");         /* 32 x 32 x 32 */

	rfl_scope_push(&net, "block");              /* residual block */
	y = cbr(&net, x, 32, 3, 1, "conv1");
	y = rfl_batchnorm(&net, rfl_layer_name(&net, rfl_conv(&net, y, 32, 3, 1, 1), "conv2"));
	x = rfl_act(&net, rfl_add(&net, y, x), RFL_ACT_RELU);   /* y + x: the skip */
	rfl_scope_pop(&net);

	rfl_scope_push(&net, "branch");             /* two paths, concatenated */
	a = cbr(&net, x, 32, 1, 1, "a1x1");
	b = cbr(&net, cbr(&net, x, 16, 1, 1, "b1x1"), 32, 3, 1, "b3x3");
	both[0] = a;
	both[1] = b;
	x = rfl_concat(&net, both, 2, 0);           /* 64 channels */
	rfl_scope_pop(&net);

	x = rfl_flatten(&net, rfl_adaptive_avgpool(&net, x, 1, 1));
	x = rfl_layer_name(&net, rfl_linear(&net, x, 10, 1), "fc");
	if (net.err.code) {  /* errors are sticky: one check at the end */
		char line[320];      /* "layer 5 (conv2d in layer1): invalid shape" */
		rfl_error_format(&net.err, NULL, line, sizeof line);
		fprintf(stderr, "%s\n", line);
		return 1;
	}

	d.batch = 64;
	d.mode = RFL_MODE_TRAIN;
	if (rfl_net_cost_get(&net, &d, &c) || rfl_hw_find("a100", &a100) ||
		rfl_net_predict(&net, &d, a100, &p)) return 1;
	printf("%-20s %-16s %8s %14s %12s\n", "layer", "op", "params", "fwd FLOPs", "fwd bytes");
	for (i = 0; i < net.count; i++) {
		rfl_layer_cost lc;
		char label[32];
		rfl_layer_cost_get(&net, i, &d, &lc);
		rfl_layer_label(&net, i, label, sizeof label);
		printf("%-20s %-16s %8llu %14llu %12llu\n", rec[i].name ? rec[i].name : label,
			   rfl_op_name((rfl_op)rec[i].op), (unsigned long long)lc.params,
			   (unsigned long long)lc.fwd_flops, (unsigned long long)lc.fwd_bytes);
	}
	printf("\nbatch 64, one training step:\n");
	printf("  params   %llu\n", (unsigned long long)c.params);
	printf("  forward  %.4g GFLOP (conv/linear mac %.4g), %.4g MB\n", c.fwd_flops / 1e9,
		   c.fwd_mac_flops / 1e9, c.fwd_bytes / 1e6);
	printf("  backward %.4g GFLOP (%.3fx forward: no input gradient for the first conv)\n",
		   c.bwd_flops / 1e9, (double)c.bwd_flops / (double)c.fwd_flops);
	printf("  AI %.1f FLOP/B; on the %s: %.3g us (per layer), %d layers memory-bound of %d\n",
		   (double)(c.fwd_flops + c.bwd_flops) / (double)(c.fwd_bytes + c.bwd_bytes), a100->name,
		   p.layers_s * 1e6, p.memory_layers, p.memory_layers + p.compute_layers);
	return 0;
}
