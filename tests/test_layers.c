/* Layer formulas, shapes and errors, each expected value derived by hand in
   the comment beside it. */
#ifndef RFL_NO_CHART /* layers only: independent of the chart and PNG part */
#define RFL_NO_CHART
#endif
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"

static rfl_layer rec[64];

static void test_conv_grouped(void) {
	rfl_net net;
	rfl_conv_desc cd;
	rfl_layer_cost c;
	rfl_cost_desc d;
	rfl_tensor x, y;
	memset(&cd, 0, sizeof cd);
	memset(&d, 0, sizeof d);
	RT_EQ_INT(rfl_net_init(&net, rec, 64, 0, 0), RFL_OK);
	x = rfl_input(&net, 8, 17, 19);
	/* 8 -> 12 channels, 3x3, stride 2, pad 1, dilation 2, 4 groups, bias.
	   extent = 2 (3 - 1) + 1 = 5; H = (17 + 2 - 5) / 2 + 1 = 8;
	   W = (19 + 2 - 5) / 2 + 1 = 9 */
	cd.out_channels = 12, cd.kernel_h = 3, cd.stride_h = 2, cd.pad_h = 1;
	cd.dilation_h = 2, cd.groups = 4, cd.bias = 1;
	y = rfl_conv_ex(&net, x, &cd);
	RT_EQ_INT(y, 1);
	RT_EQ_INT(net.err.code, RFL_OK);
	RT_EQ_INT(net.layers[y].rank, 3);
	RT_EQ_INT(net.layers[y].shape[0], 12);
	RT_EQ_INT(net.layers[y].shape[1], 8);
	RT_EQ_INT(net.layers[y].shape[2], 9);
	RT_EQ_INT(rfl_layer_cost_get(&net, y, &d, &c), RFL_OK);
	/* params = 12 x (8 / 4) x 3 x 3 + 12 = 228 */
	RT_EQ_U64(c.params, 228);
	/* mac = 2 x (12 x 8 x 9 outputs) x (2 x 3 x 3) = 31,104;
	   flops = 31,104 + 864 bias adds = 31,968 */
	RT_EQ_U64(c.fwd_mac_flops, 31104);
	RT_EQ_U64(c.fwd_flops, 31968);
	/* bytes fp32: input 8 x 17 x 19 = 2,584 + weights 228 + output 864 =
	   3,676 elements x 4 = 14,704 */
	RT_EQ_U64(c.fwd_bytes, 14704);
	/* first layer: weight gradient only (31,104) + bias gradient (864) */
	RT_EQ_U64(c.bwd_mac_flops, 31104);
	RT_EQ_U64(c.bwd_flops, 31968);
	/* batch 3, fp16: counts x 3, bytes at 2 per element, weights once:
	   (3 x 2,584 + 228 + 3 x 864) x 2 = 21,144 */
	d.batch = 3, d.dtype = RFL_DTYPE_FP16;
	RT_EQ_INT(rfl_layer_cost_get(&net, y, &d, &c), RFL_OK);
	RT_EQ_U64(c.fwd_mac_flops, 93312);
	RT_EQ_U64(c.fwd_bytes, 21144);
	/* the second conv gets an input gradient too: 2 x its forward mac.
	   12 -> 6, 1x1: 2 x 6 x 72 x 12 = 10,368 forward */
	y = rfl_conv(&net, y, 6, 1, 1, 0);
	memset(&d, 0, sizeof d);
	RT_EQ_INT(rfl_layer_cost_get(&net, y, &d, &c), RFL_OK);
	RT_EQ_U64(c.fwd_mac_flops, 10368);
	RT_EQ_U64(c.bwd_mac_flops, 20736);
	/* a non-square kernel with its own padding: 1x7, pad (0, 3) keeps 8x9 */
	memset(&cd, 0, sizeof cd);
	cd.out_channels = 4, cd.kernel_h = 1, cd.kernel_w = 7, cd.pad_w = 3;
	y = rfl_conv_ex(&net, y, &cd);
	RT_EQ_INT(net.layers[y].shape[1], 8);
	RT_EQ_INT(net.layers[y].shape[2], 9);
	RT_EQ_U64(net.layers[y].params, 4 * 6 * 7);
}

static void test_linear_matmul(void) {
	rfl_net net;
	rfl_layer_cost c;
	rfl_cost_desc d;
	rfl_tensor x, y, a, b;
	memset(&d, 0, sizeof d);
	rfl_net_init(&net, rec, 64, 0, 0);
	x = rfl_input(&net, 5, 64, 0); /* 5 tokens of 64 */
	y = rfl_linear(&net, x, 32, 1);
	RT_EQ_INT(rfl_layer_cost_get(&net, y, &d, &c), RFL_OK);
	/* params 64 x 32 + 32 = 2,080; mac 2 x 5 x 64 x 32 = 20,480;
	   + 5 x 32 bias adds = 20,640 */
	RT_EQ_U64(c.params, 2080);
	RT_EQ_U64(c.fwd_mac_flops, 20480);
	RT_EQ_U64(c.fwd_flops, 20640);
	RT_EQ_INT(net.layers[y].shape[0], 5);
	RT_EQ_INT(net.layers[y].shape[1], 32);
	/* pen and paper: linear = 2 x in x out + out per token */
	d.convention = RFL_CONV_REPORT;
	RT_EQ_INT(rfl_layer_cost_get(&net, y, &d, &c), RFL_OK);
	RT_EQ_U64(c.fwd_mac_flops, 20640);
	d.convention = RFL_CONV_TORCH;

	/* batched matmul (4, 10, 16) x (4, 16, 7) -> (4, 10, 7):
	   2 x 4 x 10 x 7 x 16 = 8,960 */
	rfl_net_init(&net, rec, 64, 0, 0);
	x = rfl_input(&net, 4, 10, 16);
	a = rfl_conv(&net, x, 4, 1, 1, 0); /* (4, 10, 16), needs gradients */
	b = rfl_reshape(&net, a, 4, 16, 10, 0);
	b = rfl_slice(&net, b, 2, 0, 7); /* (4, 16, 7) */
	y = rfl_matmul(&net, a, b);
	RT_EQ_INT(net.err.code, RFL_OK);
	RT_EQ_INT(net.layers[y].shape[0], 4);
	RT_EQ_INT(net.layers[y].shape[1], 10);
	RT_EQ_INT(net.layers[y].shape[2], 7);
	RT_EQ_INT(rfl_layer_cost_get(&net, y, &d, &c), RFL_OK);
	RT_EQ_U64(c.fwd_mac_flops, 8960);
	RT_EQ_U64(c.params, 0);
	RT_EQ_U64(c.bwd_mac_flops, 2 * 8960); /* a gradient for each operand */
	/* bytes: read 4x10x16 + 4x16x7 = 1,088, write 280 -> 1,368 x 4 */
	RT_EQ_U64(c.fwd_bytes, 1368 * 4);

	/* attention, ViT-B/16 sizes: q, k, v (197, 768), 12 heads:
	   2 x 197 x 197 x 768 twice = 119,221,248 */
	rfl_net_init(&net, rec, 64, 0, 0);
	x = rfl_input(&net, 197, 2304, 0);
	a = rfl_slice(&net, x, 1, 0, 768);
	b = rfl_slice(&net, x, 1, 768, 768);
	y = rfl_attention(&net, a, b, rfl_slice(&net, x, 1, 1536, 768), 12);
	RT_EQ_INT(net.err.code, RFL_OK);
	RT_EQ_INT(rfl_layer_cost_get(&net, y, &d, &c), RFL_OK);
	RT_EQ_U64(c.fwd_mac_flops, 119221248ull);
	/* + scale and softmax, 6 per score: 6 x 12 x 197 x 197 = 2,794,248 */
	RT_EQ_U64(c.fwd_flops, 119221248ull + 2794248ull);
	RT_EQ_U64(c.bwd_mac_flops, 0); /* nothing before it has parameters */
}

static void test_elementwise(void) {
	rfl_net net;
	rfl_layer_cost c;
	rfl_tensor x, y, s, parts[2];
	rfl_net_init(&net, rec, 64, 0, 0);
	x = rfl_input(&net, 2, 7, 7);
	/* adaptive 7 -> 3: windows [0,3) [2,5) [4,7), 3 each: 2 x 9 x 9 = 162 */
	y = rfl_adaptive_avgpool(&net, x, 3, 3);
	RT_EQ_INT(rfl_layer_cost_get(&net, y, 0, &c), RFL_OK);
	RT_EQ_U64(c.fwd_flops, 162);
	/* max pool 3, stride 2, ceil mode on 7: (7 - 3 + 1) / 2 + 1 = 3 ... and
	   on 8: ceil(5 / 2) + 1 = 4, last window starts at 6 < 8: kept */
	y = rfl_maxpool(&net, x, 3, 2, 0, 1);
	RT_EQ_INT(net.layers[y].shape[1], 3);
	y = rfl_conv(&net, x, 4, 2, 1, 1); /* 7 + 2 - 2 + 1 = 8 */
	RT_EQ_INT(net.layers[y].shape[1], 8);
	s = rfl_maxpool(&net, y, 3, 2, 0, 1);
	RT_EQ_INT(net.layers[s].shape[1], 4);
	s = rfl_maxpool(&net, y, 3, 2, 0, 0);
	RT_EQ_INT(net.layers[s].shape[1], 3);
	/* batchnorm 4 per element, 2 params per channel; relu 1; hardswish 5 */
	s = rfl_batchnorm(&net, y);
	RT_EQ_INT(rfl_layer_cost_get(&net, s, 0, &c), RFL_OK);
	RT_EQ_U64(c.params, 8);
	RT_EQ_U64(c.fwd_flops, 4 * 256);
	RT_EQ_U64(c.bwd_flops, 8 * 256);
	s = rfl_act(&net, s, RFL_ACT_HARDSWISH);
	RT_EQ_INT(rfl_layer_cost_get(&net, s, 0, &c), RFL_OK);
	RT_EQ_U64(c.fwd_flops, 5 * 256);
	RT_EQ_U64(c.fwd_mac_flops, 0);
	/* squeeze-excitation: scale (4, 1, 1) broadcasts over (4, 8, 8) */
	x = rfl_adaptive_avgpool(&net, s, 1, 1);
	x = rfl_mul(&net, s, x);
	RT_EQ_INT(net.err.code, RFL_OK);
	RT_EQ_INT(rfl_layer_cost_get(&net, x, 0, &c), RFL_OK);
	RT_EQ_U64(c.fwd_flops, 256);
	/* residual add, concat along channels, shuffle, flatten (a view) */
	y = rfl_add(&net, x, s);
	parts[0] = y, parts[1] = s;
	y = rfl_concat(&net, parts, 2, 0);
	RT_EQ_INT(net.layers[y].shape[0], 8);
	y = rfl_shuffle(&net, y, 2);
	y = rfl_flatten(&net, y);
	RT_EQ_INT(net.layers[y].rank, 1);
	RT_EQ_INT(net.layers[y].shape[0], 512);
	RT_EQ_INT(rfl_layer_cost_get(&net, y, 0, &c), RFL_OK);
	RT_EQ_U64(c.fwd_bytes, 0);
	RT_EQ_INT(rfl_op_ltype(RFL_OP_CONCAT), RFL_LT_DATA);
	RT_STR(rfl_ltype_name(rfl_op_ltype(RFL_OP_CONV2D)), "conv");
	RT_STR(rfl_layer_class(&net, s), "Hardswish");
	/* embedding: 1,000 x 16 table, 12 ids */
	rfl_net_init(&net, rec, 64, 0, 0);
	x = rfl_input(&net, 12, 0, 0);
	y = rfl_embedding(&net, x, 1000, 16);
	y = rfl_layernorm(&net, y);
	y = rfl_softmax(&net, y);
	RT_EQ_INT(net.err.code, RFL_OK);
	RT_EQ_INT(rfl_layer_cost_get(&net, 1, 0, &c), RFL_OK);
	RT_EQ_U64(c.params, 16000);
	RT_EQ_U64(c.fwd_flops, 0);
	RT_EQ_INT(rfl_layer_cost_get(&net, 2, 0, &c), RFL_OK);
	RT_EQ_U64(c.params, 32);
	RT_EQ_U64(c.fwd_flops, 8 * 192);
	RT_EQ_INT(rfl_layer_cost_get(&net, y, 0, &c), RFL_OK);
	RT_EQ_U64(c.fwd_flops, 5 * 192);
}

static void test_errors(void) {
	rfl_net net;
	rfl_tensor x, y, parts[2];
	rfl_conv_desc cd;
	rfl_layer_cost c;
	rfl_cost_desc d;
	/* a kernel larger than the padded input */
	rfl_net_init(&net, rec, 64, 0, 0);
	x = rfl_input(&net, 3, 4, 4);
	y = rfl_conv(&net, x, 8, 7, 1, 1);
	RT_EQ_INT(y, RFL_NO_TENSOR);
	RT_EQ_INT(net.err.code, RFL_ERR_SHAPE);
	RT_EQ_INT(net.err.index, 1);
	RT_STR(net.err.where, "layer 1 (conv2d)"); /* no scope: the op alone */
	/* sticky: later calls do nothing and keep the first error */
	y = rfl_act(&net, x, RFL_ACT_RELU);
	RT_EQ_INT(y, RFL_NO_TENSOR);
	RT_EQ_INT(net.count, 1);
	RT_EQ_INT(net.err.index, 1);
	RT_EQ_INT(rfl_net_cost_get(&net, 0, 0) == RFL_ERR_ARG, 1);
	/* groups that do not divide the channels */
	rfl_net_init(&net, rec, 64, 0, 0);
	x = rfl_input(&net, 6, 8, 8);
	memset(&cd, 0, sizeof cd);
	cd.out_channels = 8, cd.kernel_h = 3, cd.groups = 4;
	RT_EQ_INT(rfl_conv_ex(&net, x, &cd), RFL_NO_TENSOR);
	RT_EQ_INT(net.err.code, RFL_ERR_SHAPE);
	/* add that does not broadcast; concat with different spatial sizes */
	rfl_net_init(&net, rec, 64, 0, 0);
	x = rfl_input(&net, 6, 8, 8);
	y = rfl_maxpool(&net, x, 2, 2, 0, 0);
	RT_EQ_INT(rfl_add(&net, x, y), RFL_NO_TENSOR);
	RT_EQ_INT(net.err.code, RFL_ERR_SHAPE);
	RT_STR(net.err.where, "layer 2 (add)"); /* input 0, maxpool 1 */
	rfl_net_init(&net, rec, 64, 0, 0);
	x = rfl_input(&net, 6, 8, 8);
	parts[0] = x, parts[1] = rfl_maxpool(&net, x, 2, 2, 0, 0);
	RT_EQ_INT(rfl_concat(&net, parts, 2, 0), RFL_NO_TENSOR);
	RT_EQ_INT(net.err.code, RFL_ERR_SHAPE);
	/* a matmul whose inner dims differ; a handle naming no layer */
	rfl_net_init(&net, rec, 64, 0, 0);
	x = rfl_input(&net, 2, 3, 4);
	RT_EQ_INT(rfl_matmul(&net, x, x), RFL_NO_TENSOR);
	RT_EQ_INT(net.err.code, RFL_ERR_SHAPE);
	rfl_net_init(&net, rec, 64, 0, 0);
	x = rfl_input(&net, 2, 3, 4);
	RT_EQ_INT(rfl_act(&net, 5, RFL_ACT_RELU), RFL_NO_TENSOR);
	RT_EQ_INT(net.err.code, RFL_ERR_ARG);
	/* a layer before the input */
	rfl_net_init(&net, rec, 64, 0, 0);
	RT_EQ_INT(rfl_act(&net, 0, RFL_ACT_RELU), RFL_NO_TENSOR);
	RT_EQ_INT(net.err.code, RFL_ERR_ARG);
	/* a full array: cap 3 holds input, conv, relu; the 4th is an error */
	rfl_net_init(&net, rec, 3, 0, 0);
	x = rfl_input(&net, 3, 8, 8);
	x = rfl_conv(&net, x, 4, 3, 1, 1);
	x = rfl_act(&net, x, RFL_ACT_RELU);
	RT_EQ_INT(net.err.code, RFL_OK);
	RT_EQ_INT(rfl_act(&net, x, RFL_ACT_RELU), RFL_NO_TENSOR);
	RT_EQ_INT(net.err.code, RFL_ERR_BUFFER);
	RT_EQ_INT(net.err.index, 3);
	RT_EQ_INT(net.count, 3);
	/* sizes past 64 bits: a (2^32-1)^3 parameter tensor */
	rfl_net_init(&net, rec, 64, 0, 0);
	x = rfl_input(&net, 3, 8, 8);
	RT_EQ_INT(rfl_param(&net, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu), RFL_NO_TENSOR);
	RT_EQ_INT(net.err.code, RFL_ERR_OVERFLOW);
	/* an input of 2^60 elements is fine; a linear to 2^20 outputs per
	   position makes 2^80: overflow */
	rfl_net_init(&net, rec, 64, 0, 0);
	x = rfl_input(&net, 1u << 20, 1u << 20, 1u << 20);
	RT_EQ_INT(net.err.code, RFL_OK);
	RT_EQ_INT(rfl_linear(&net, x, 1u << 20, 0), RFL_NO_TENSOR);
	RT_EQ_INT(net.err.code, RFL_ERR_OVERFLOW);
	RT_STR(net.err.where, "layer 1 (linear)");
	/* a batch that overflows the counts: reported, not wrapped */
	rfl_net_init(&net, rec, 64, 0, 0);
	x = rfl_input(&net, 3, 224, 224);
	x = rfl_conv(&net, x, 64, 7, 2, 3);
	memset(&d, 0, sizeof d);
	d.batch = 1ull << 40;
	RT_EQ_INT(rfl_layer_cost_get(&net, x, &d, &c), RFL_ERR_OVERFLOW);
	/* bad names */
	{
		rfl_dtype dt = RFL_DTYPE_FP32; /* gcc -O1, static: maybe-uninitialized */
		RT_EQ_INT(rfl_dtype_parse("bfloat16", &dt), RFL_OK);
		RT_EQ_INT(dt, RFL_DTYPE_BF16);
		RT_EQ_INT(rfl_dtype_parse("fp64", &dt), RFL_ERR_UNKNOWN_NAME);
		RT_EQ_INT(rfl_dtype_parse("TF32", &dt), RFL_OK);
		RT_EQ_INT(dt, RFL_DTYPE_TF32);
		RT_EQ_INT(rfl_dtype_bits(RFL_DTYPE_INT4), 4);
		RT_EQ_INT(rfl_dtype_bits(RFL_DTYPE_TF32), 32);
		RT_EQ_INT(rfl_dtype_bytes(RFL_DTYPE_INT8), 1);
	}
}

static void test_work_predict(void) {
	rfl_net net;
	rfl_tensor x;
	rfl_work f, b;
	rfl_cost_desc d;
	rfl_prediction p;
	rfl_net_prediction np;
	rfl_net_cost c;
	const rfl_machine *a100;
	char nm[64];
	static rfl_layer big[8];
	static char arena[256];
	memset(&d, 0, sizeof d);
	rfl_net_init(&net, big, 8, arena, sizeof arena);
	x = rfl_input(&net, 4096, 0, 0);
	rfl_scope_push(&net, "head");
	x = rfl_layer_name(&net, rfl_linear(&net, x, 4096, 1), "fc");
	rfl_scope_pop(&net);
	RT_STR(net.layers[x].name, "head.fc");
	x = rfl_act(&net, x, RFL_ACT_RELU);
	RT_EQ_INT(net.err.code, RFL_OK);
	/* fp16: the mac part goes to the FP16 tensor roof, the bias to FP16 */
	d.dtype = RFL_DTYPE_FP16;
	RT_EQ_INT(rfl_layer_work(&net, 1, &d, &f, &b), RFL_OK);
	RT_NEAR(f.flops[RFL_FP16_TENSOR], 2.0 * 4096 * 4096, 0);
	RT_NEAR(f.flops[RFL_FP16], 4096, 0);
	RT_NEAR(f.flops[RFL_FP32], 0, 0);
	/* bytes: (4096 in + 4096 x 4097 weights + 4096 out) x 2 */
	RT_NEAR(f.bytes[RFL_DRAM], (4096.0 + 4096.0 * 4097 + 4096) * 2, 0);
	RT_CHECK(!rfl_work_known(&f, RFL_UNKNOWN_BYTES(RFL_L2)));
	/* on an A100 (datasheet: 312 TFLOP/s FP16 tensor, 1555 GB/s) the
	   layer is memory bound: 33.6 MB / 1555 GB/s = 21.6 us */
	if (rfl_hw_find("a100", &a100) == RFL_OK) {
		double bytes = (4096.0 + 4096.0 * 4097 + 4096) * 2;
		RT_EQ_INT(rfl_layer_predict(&net, 1, &d, a100, &p), RFL_OK);
		RT_NEAR(p.time_s, bytes / 1555e9, 1e-12);
		RT_CHECK(p.bound.memory);
		/* fp32, batch 4096: 2 x 4096^3 / 19.5e12 = 7.05 ms, compute bound */
		d.dtype = RFL_DTYPE_FP32;
		d.batch = 4096;
		RT_EQ_INT(rfl_layer_predict(&net, 1, &d, a100, &p), RFL_OK);
		RT_NEAR(p.time_s, (2.0 * 4096 * 4096 * 4096 + 4096.0 * 4096) / 19.5e12, 1e-12);
		RT_CHECK(!p.bound.memory);
		RT_EQ_INT(rfl_net_predict(&net, &d, a100, &np), RFL_OK);
		RT_CHECK(np.layers_s >= np.whole.time_s);
		RT_EQ_INT(np.compute_layers, 1);
		RT_EQ_INT(np.memory_layers, 1); /* the relu */
		/* bf16 on a V100 (no BF16 tensor roof): an error, not a guess */
		d.dtype = RFL_DTYPE_BF16;
		if (rfl_hw_find("v100", &a100) == RFL_OK)
			RT_EQ_INT(rfl_layer_predict(&net, 1, &d, a100, &p), RFL_ERR_NO_ROOF);
	}
	/* training footprint: params 4096 x 4097 = 16,781,312 at 4 bytes:
	   weights + grads + momentum = 3 x 67,125,248, + activations */
	memset(&d, 0, sizeof d);
	RT_EQ_INT(rfl_net_cost_get(&net, &d, &c), RFL_OK);
	RT_EQ_U64(c.params, 16781312ull);
	RT_EQ_U64(c.param_bytes, 67125248ull);
	RT_EQ_U64(c.activation_bytes, 3 * 4096 * 4);
	RT_EQ_U64(c.train_sgd_bytes, 3 * 67125248ull + 3 * 4096 * 4);
	RT_EQ_U64(c.train_adam_bytes, 4 * 67125248ull + 3 * 4096 * 4);
	RT_EQ_U64(c.input_bytes, 4096 * 4);
	rfl_layer_label(&net, 1, nm, sizeof nm);
	RT_STR(nm, "Linear-1");
	rfl_layer_shape_str(&net, 1, 8, nm, sizeof nm);
	RT_STR(nm, "[8, 4096]");
	RT_EQ_INT(rfl_layer_label(&net, 1, nm, 4), 0); /* does not fit */
}

/* The manual's LAYERS example: conv 3->16 3x3 on 32x32: 2 x 16 x 1024 x 27
   = 884,736; the 1x1 shortcut: 2 x 16 x 1024 x 3 = 98,304; linear 16->10:
   320; per sample 983,360, at batch 256: 251,740,160. */
static void test_manual_example(void) {
	rfl_layer r[32];
	rfl_net net;
	rfl_tensor x, y;
	rfl_cost_desc d;
	rfl_net_cost c;
	rfl_net_init(&net, r, 32, NULL, 0);
	x = rfl_input(&net, 3, 32, 32);
	y = rfl_act(&net, rfl_batchnorm(&net, rfl_conv(&net, x, 16, 3, 1, 1)), RFL_ACT_RELU);
	y = rfl_add(&net, y, rfl_conv(&net, x, 16, 1, 1, 0));
	y = rfl_flatten(&net, rfl_adaptive_avgpool(&net, y, 1, 1));
	y = rfl_linear(&net, y, 10, 1);
	memset(&d, 0, sizeof d);
	d.batch = 256;
	RT_EQ_INT(net.err.code, RFL_OK);
	RT_EQ_INT(rfl_net_cost_get(&net, &d, &c), RFL_OK);
	RT_EQ_U64(c.fwd_mac_flops, 251740160ull);
	/* params: 16 x 27 + 32 (bn) + 16 x 3 + 16 x 10 + 10 = 682 */
	RT_EQ_U64(c.params, 682);
	/* both convs read the input: no input gradient for either */
	RT_EQ_U64(c.bwd_mac_flops, 256ull * (884736 + 98304 + 2 * 320));
}

static void test_modes_and_dtypes(void) {
	rfl_net net;
	rfl_tensor x, y;
	rfl_cost_desc d;
	rfl_layer_cost c;
	rfl_work f, b;
	rfl_summary s;
	rfl_layer r[8];
	char longpart[120];
	memset(&d, 0, sizeof d);
	rfl_net_init(&net, r, 8, 0, 0);
	x = rfl_input(&net, 8, 4, 4);
	y = rfl_conv(&net, x, 8, 1, 1, 0); /* 2 x 8 x 16 x 8 = 2,048 mac */
	y = rfl_dropout(&net, y);
	/* dropout: free in inference, reads and writes 128 elements in training */
	RT_EQ_INT(rfl_layer_cost_get(&net, y, &d, &c), RFL_OK);
	RT_EQ_U64(c.fwd_bytes, 0);
	d.mode = RFL_MODE_TRAIN;
	RT_EQ_INT(rfl_layer_cost_get(&net, y, &d, &c), RFL_OK);
	RT_EQ_U64(c.fwd_bytes, 2 * 128 * 4);
	RT_EQ_U64(c.fwd_flops, 0);
	/* bf16: conv mac under the BF16 tensor roof; int8 under INT8 tensor */
	d.dtype = RFL_DTYPE_BF16;
	RT_EQ_INT(rfl_layer_work(&net, 1, &d, &f, &b), RFL_OK);
	RT_NEAR(f.flops[RFL_BF16_TENSOR], 2048, 0);
	RT_NEAR(b.flops[RFL_BF16_TENSOR], 2048, 0); /* weight gradient only */
	RT_NEAR(f.bytes[RFL_DRAM], (128 + 64 + 128) * 2, 0);
	d.dtype = RFL_DTYPE_INT8;
	RT_EQ_INT(rfl_layer_work(&net, 1, &d, &f, 0), RFL_OK);
	RT_NEAR(f.flops[RFL_INT8_TENSOR], 2048, 0);
	RT_NEAR(f.bytes[RFL_DRAM], 128 + 64 + 128, 0);
	/* tf32: fp32 bytes (4 per element), the 2048 mac FLOPs on TF32 tensor
	   cores; fp8: 1 byte, FP8 tensor; int4 stores, it has no math */
	d.dtype = RFL_DTYPE_TF32;
	RT_EQ_INT(rfl_layer_work(&net, 1, &d, &f, 0), RFL_OK);
	RT_NEAR(f.flops[RFL_TF32_TENSOR], 2048, 0);
	RT_NEAR(f.flops[RFL_FP32], 0, 0);
	RT_NEAR(f.bytes[RFL_DRAM], (128 + 64 + 128) * 4, 0);
	d.dtype = RFL_DTYPE_FP8;
	RT_EQ_INT(rfl_layer_work(&net, 1, &d, &f, 0), RFL_OK);
	RT_NEAR(f.flops[RFL_FP8_TENSOR], 2048, 0);
	RT_NEAR(f.bytes[RFL_DRAM], 128 + 64 + 128, 0);
	d.dtype = RFL_DTYPE_INT4;
	RT_EQ_INT(rfl_layer_cost_get(&net, 1, &d, &c), RFL_ERR_ARG);
	d.dtype = (rfl_dtype)9;
	RT_EQ_INT(rfl_layer_cost_get(&net, 1, &d, &c), RFL_ERR_ARG);
	RT_EQ_INT(rfl_layer_cost_get(&net, 7, 0, &c), RFL_ERR_ARG);
	/* transpose swaps, costs a copy */
	y = rfl_transpose(&net, y, 0, 2);
	RT_EQ_INT(net.layers[y].shape[0], 4);
	RT_EQ_INT(net.layers[y].shape[2], 8);
	RT_EQ_INT(rfl_layer_cost_get(&net, y, 0, &c), RFL_OK);
	RT_EQ_U64(c.fwd_bytes, 2 * 128 * 4);
	/* a torchsummary of a net with an error is refused */
	RT_EQ_INT(rfl_net_summary(&net, &s), RFL_OK);
	RT_EQ_INT(s.rows, 2); /* Conv2d, Dropout */
	rfl_reshape(&net, y, 3, 0, 0, 0);
	RT_EQ_INT(net.err.code, RFL_ERR_SHAPE);
	RT_EQ_INT(rfl_net_summary(&net, &s), RFL_ERR_STATE);
	/* a scope deeper than 95 bytes is an error, not an overflow */
	rfl_net_init(&net, r, 8, 0, 0);
	memset(longpart, 'a', sizeof longpart - 1);
	longpart[sizeof longpart - 1] = 0;
	rfl_scope_push(&net, longpart);
	RT_EQ_INT(net.err.code, RFL_ERR_BUFFER);
	RT_EQ_INT(rfl_net_init(&net, 0, 8, 0, 0), RFL_ERR_ARG);
	RT_EQ_INT(rfl_net_init(&net, r, 0, 0, 0), RFL_ERR_ARG);
	RT_EQ_INT(rfl_input(&net, 3, 8, 8), RFL_NO_TENSOR);
}

/* Random builder calls with random handles and sizes: never a crash, every
   layer within the array, every error one of the documented ones, and the
   cost of every built layer either computed or an overflow. */
static unsigned long long rng_state = 88172645463325252ull;
static uint32_t rnd(uint32_t n) {
	rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
	return n ? (uint32_t)(rng_state % n) : 0;
}
static uint32_t rsize(void) {
	static const uint32_t big[4] = {0, 1, 0xFFFFFFFFu, 65536};
	return rnd(8) ? rnd(40) : big[rnd(4)];
}
static void test_random_builds(void) {
	static rfl_layer r[24];
	static char arena[200];
	int round, k, bad = 0, costs = 0;
	for (round = 0; round < 3000; round++) {
		rfl_net net;
		rfl_cost_desc d;
		rfl_layer_cost c;
		rfl_net_init(&net, r, 1 + (int)rnd(24), rnd(2) ? arena : 0, rnd(2) ? sizeof arena : 0);
		rfl_input(&net, rsize(), rsize(), rsize());
		for (k = 0; k < 30; k++) {
			rfl_tensor a = (rfl_tensor)rnd(30) - 3, b = (rfl_tensor)rnd(30) - 3, xs[3];
			rfl_conv_desc cd;
			memset(&cd, 0, sizeof cd);
			switch (rnd(22)) {
			case 0: rfl_conv(&net, a, rsize(), rsize(), rsize(), rsize()); break;
			case 1:
				cd.out_channels = rsize(), cd.kernel_h = rsize(), cd.kernel_w = rsize();
				cd.stride_h = rsize(), cd.pad_h = rsize(), cd.pad_w = rsize();
				cd.dilation_h = rsize(), cd.groups = rsize(), cd.bias = (int)rnd(2);
				rfl_conv_ex(&net, a, &cd);
				break;
			case 2: rfl_linear(&net, a, rsize(), (int)rnd(2)); break;
			case 3: rfl_matmul(&net, a, b); break;
			case 4: rfl_attention(&net, a, b, (rfl_tensor)rnd(30) - 3, rsize()); break;
			case 5: rfl_batchnorm(&net, a); break;
			case 6: rfl_layernorm(&net, a); break;
			case 7: rfl_act(&net, a, (rfl_act_kind)rnd(10)); break;
			case 8: rfl_softmax(&net, a); break;
			case 9: rfl_maxpool(&net, a, rsize(), rsize(), rsize(), (int)rnd(2)); break;
			case 10: rfl_avgpool(&net, a, rsize(), rsize(), rsize(), (int)rnd(2)); break;
			case 11: rfl_adaptive_avgpool(&net, a, rsize(), rsize()); break;
			case 12: rfl_add(&net, a, b); break;
			case 13: rfl_mul(&net, a, b); break;
			case 14:
				xs[0] = a, xs[1] = b, xs[2] = (rfl_tensor)rnd(30) - 3;
				rfl_concat(&net, xs, (int)rnd(4), (int)rnd(5) - 1);
				break;
			case 15: rfl_shuffle(&net, a, rsize()); break;
			case 16: rfl_flatten(&net, a); break;
			case 17: rfl_reshape(&net, a, rsize(), rsize(), rsize(), rsize()); break;
			case 18: rfl_transpose(&net, a, (int)rnd(6) - 1, (int)rnd(6) - 1); break;
			case 19: rfl_slice(&net, a, (int)rnd(6) - 1, rsize(), rsize()); break;
			case 20: rfl_embedding(&net, a, rsize(), rsize()); break;
			default:
				rfl_scope_push(&net, "s");
				rfl_layer_name(&net, a, "n");
				rfl_mark(&net, a, "M");
				rfl_scope_pop(&net);
				break;
			}
		}
		if (net.count > net.cap || net.count < 0) bad++;
		if (net.err.code != RFL_OK && net.err.code != RFL_ERR_SHAPE && net.err.code != RFL_ERR_ARG &&
			net.err.code != RFL_ERR_BUFFER && net.err.code != RFL_ERR_OVERFLOW)
			bad++;
		memset(&d, 0, sizeof d);
		d.batch = 1 + rnd(1000);
		for (k = 0; k < net.count; k++) {
			rfl_result e = rfl_layer_cost_get(&net, k, &d, &c);
			if (e != RFL_OK && e != RFL_ERR_OVERFLOW) bad++;
			if (e == RFL_OK) {
				costs++;
				if (c.fwd_flops < c.fwd_mac_flops) bad++;
				if (net.layers[k].rank < 1 || net.layers[k].rank > RFL_MAX_RANK) bad++;
			}
		}
	}
	RT_EQ_INT(bad, 0);
	RT_CHECK(costs > 1000);
}

int main(void) {
	test_manual_example();
	test_random_builds();
	test_modes_and_dtypes();
	test_conv_grouped();
	test_linear_matmul();
	test_elementwise();
	test_errors();
	test_work_predict();
	return rt_done();
}
