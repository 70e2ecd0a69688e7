/* test_onnx.c - the ONNX reader (issue 18) on hand-made graphs: one or
   more per op, written by the tiny protobuf writer in onnx_pb.h. Every
   expected number is derived by hand in the comment beside it (per sample
   unless said). Also: any chunk split gives the same graph, count mode,
   skipping, bad input with its offset or node name. */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"
#include "onnx_pb.h"

static unsigned char arena[1 << 20];
static rfl_layer rec[256];
static rfl_onnx_state st;
static rfl_onnx_graph gr;
static rfl_onnx_info info;
static rfl_net net;

/* Read and build the current graph; returns the build result (or the
   read error). */
static rfl_result build(int opset, uint64_t batch, const char *dims) {
	const pb *m = g_model_bytes(opset);
	rfl_onnx_desc d;
	rfl_result r = rfl_onnx_read_buffer(&st, m->b, m->n, arena, sizeof arena, &gr);
	memset(&info, 0, sizeof info);
	if (r) return r;
	rfl_net_init(&net, rec, 256, 0, 0);
	memset(&d, 0, sizeof d);
	d.batch = batch;
	d.dims = dims;
	return rfl_onnx_build(&gr, &d, &net, &info);
}

/* The record named name (a node name), or NULL. */
static const rfl_layer *find(const char *name) {
	int i;
	for (i = 0; i < net.count; i++)
		if (rec[i].name && strcmp(rec[i].name, name) == 0) return &rec[i];
	return 0;
}
#define REC(name) const rfl_layer *name##_ = find(#name); if (!RT_CHECK(name##_ != 0)) return

static void shape_is(const rfl_layer *L, int rank, unsigned d0, unsigned d1, unsigned d2, unsigned d3) {
	RT_EQ_INT(L->rank, rank);
	RT_EQ_U64(L->shape[0], d0);
	if (rank > 1) RT_EQ_U64(L->shape[1], d1);
	if (rank > 2) RT_EQ_U64(L->shape[2], d2);
	if (rank > 3) RT_EQ_U64(L->shape[3], d3);
}

static void test_conv(void) {
	g_begin();
	g_input("x", "N,3,8,8");
	g_weight("w", "4,3,3,3");
	g_weight("b", "4");
	n_begin("Conv", "c1", "x,w,b", "y");
	a_ints("kernel_shape", "3,3"), a_ints("pads", "1,1,1,1"), a_ints("strides", "1,1");
	n_end();
	/* depthwise, stride 2, no pads: 8 -> (8 - 3) / 2 + 1 = 3 */
	g_weight("wd", "4,1,3,3");
	n_begin("Conv", "c2", "y,wd", "z");
	a_int("group", 4), a_ints("strides", "2,2");
	n_end();
	/* SAME_UPPER, stride 2, dilation 2: ceil(3 / 2) = 2 */
	g_weight("w3", "2,4,1,1");
	n_begin("Conv", "c3", "z,w3", "u");
	a_str("auto_pad", "SAME_UPPER"), a_ints("strides", "2,2");
	n_end();
	g_output("u");
	RT_EQ_INT(build(13, 5, 0), RFL_OK);
	RT_EQ_U64(info.batch, 5);
	{
		REC(c1);
		/* 2 x Cout 4 x Cin 3 x 3 x 3 x 8 x 8 = 13,824; bias 4 x 64 = 256 */
		shape_is(c1_, 3, 4, 8, 8, 0);
		RT_EQ_U64(c1_->mac_flops, 13824);
		RT_EQ_U64(c1_->flops, 13824 + 256);
		RT_EQ_U64(c1_->params, 4 * 3 * 9 + 4);
		RT_EQ_INT(c1_->op, RFL_OP_CONV2D);
		RT_STR(c1_->cls, "Conv");
	}
	{
		REC(c2);
		/* 2 x 4 x (4/4) x 9 x 3 x 3 = 648, no bias */
		shape_is(c2_, 3, 4, 3, 3, 0);
		RT_EQ_U64(c2_->mac_flops, 648);
		RT_EQ_U64(c2_->flops, 648);
		RT_EQ_U64(c2_->arg[3], 4);
	}
	{
		REC(c3);
		/* 2 x 2 x 4 x 1 x 2 x 2 = 64 */
		shape_is(c3_, 3, 2, 2, 2, 0);
		RT_EQ_U64(c3_->mac_flops, 64);
	}
	RT_EQ_INT(rec[0].op, RFL_OP_INPUT);
	shape_is(&rec[0], 3, 3, 8, 8, 0);
}

static void test_convtranspose(void) {
	g_begin();
	g_input("x", "1,4,5,5");
	g_weight("w", "4,2,3,3");
	n_begin("ConvTranspose", "ct", "x,w", "y");
	a_ints("strides", "2,2"), a_ints("pads", "1,1,1,1"), a_ints("output_padding", "1,1");
	n_end();
	g_output("y");
	RT_EQ_INT(build(13, 0, 0), RFL_OK);
	{
		REC(ct);
		/* out = 2 (5 - 1) + 1 + 1 (3 - 1) + 1 - 1 - 1 = 10; mac = 2 x Cin 4 x
		   in 25 x Cout 2 x 9 = 3,600 */
		shape_is(ct_, 3, 2, 10, 10, 0);
		RT_EQ_U64(ct_->mac_flops, 3600);
		RT_EQ_U64(ct_->params, 72);
	}
}

static void test_gemm_matmul(void) {
	g_begin();
	g_input("x", "batch,16");
	g_weight("W", "10,16");
	g_weight("C", "10");
	n_begin("Gemm", "fc", "x,W,C", "y");
	a_int("transB", 1);
	n_end();
	/* x2 (N, 2, 3, 4, 5) @ b (3, 5, 6) broadcast -> (N, 2, 3, 4, 6) */
	g_input("a", "batch,2,3,4,5");
	g_input("b", "3,5,6");
	n_begin("MatMul", "mm", "a,b", "ab");
	n_end();
	/* activation x weight (5, 7): a linear layer */
	g_weight("Wm", "5,7");
	n_begin("MatMul", "lin", "a,Wm", "al");
	n_end();
	g_output("y");
	RT_EQ_INT(build(13, 2, 0), RFL_OK);
	{
		REC(fc);
		/* 2 x 16 x 10 = 320 mac; bias 10; params 160 + 10 */
		RT_EQ_INT(fc_->op, RFL_OP_LINEAR);
		RT_EQ_U64(fc_->mac_flops, 320);
		RT_EQ_U64(fc_->flops, 330);
		RT_EQ_U64(fc_->bias_flops, 10);
		RT_EQ_U64(fc_->params, 170);
		shape_is(fc_, 1, 10, 0, 0, 0);
	}
	{
		REC(mm);
		/* per sample 2 x (2 x 3) x 4 x 6 x 5 = 1,440 */
		RT_EQ_INT(mm_->op, RFL_OP_MATMUL);
		RT_EQ_U64(mm_->mac_flops, 1440);
		shape_is(mm_, 4, 2, 3, 4, 6);
		RT_EQ_U64(mm_->params, 0);
	}
	{
		REC(lin);
		/* 2 x (2 x 3 x 4) x 7 x 5 = 1,680; params 35 */
		RT_EQ_INT(lin_->op, RFL_OP_LINEAR);
		RT_EQ_U64(lin_->mac_flops, 1680);
		RT_EQ_U64(lin_->params, 35);
	}
}

static void test_norms_acts(void) {
	static const struct { const char *op; unsigned per; } acts[] = {
		{"Relu", 1}, {"Clip", 2}, {"Sigmoid", 4}, {"HardSigmoid", 4}, {"HardSwish", 5},
		{"Erf", 1}, {"Gelu", 5}, {"Softmax", 5}, {"Sqrt", 1}, {"Tanh", 1}};
	int i;
	char in[16], out[16];
	g_begin();
	g_input("x", "N,4,2,2");
	g_weight("s", "4"), g_weight("bb", "4"), g_weight("m", "4"), g_weight("v", "4");
	n_begin("BatchNormalization", "bn", "x,s,bb,m,v", "y");
	n_end();
	g_input("t", "N,3,8");
	g_weight("ls", "8"), g_weight("lb", "8");
	n_begin("LayerNormalization", "ln", "t,ls,lb", "a0");
	a_int("axis", -1);
	n_end();
	for (i = 0; i < 10; i++) {
		sprintf(in, "a%d", i);
		sprintf(out, "a%d", i + 1);
		n_begin(acts[i].op, acts[i].op, in, out);
		n_end();
	}
	RT_EQ_INT(build(17, 1, 0), RFL_OK);
	{
		REC(bn);
		/* 4 per element x 16; params 4 x 4 */
		RT_EQ_U64(bn_->flops, 64);
		RT_EQ_U64(bn_->params, 16);
		RT_EQ_INT(bn_->op, RFL_OP_BATCHNORM);
	}
	{
		REC(ln);
		RT_EQ_U64(ln_->flops, 8 * 24);
		RT_EQ_U64(ln_->params, 16);
	}
	for (i = 0; i < 10; i++) {
		const rfl_layer *L = find(acts[i].op);
		if (!RT_CHECK(L != 0)) continue;
		RT_EQ_U64(L->flops, 24 * acts[i].per); /* 3 x 8 elements */
		shape_is(L, 2, 3, 8, 0, 0);
	}
}

static void test_binary(void) {
	static const char *ops[] = {"Add", "Sub", "Mul", "Div", "Pow"};
	int i;
	g_begin();
	g_input("x", "N,3,1");
	g_input("y", "N,1,4");
	g_weight("c", "4");
	n_begin("Add", "both", "x,y", "s"); /* (3,1) + (1,4) -> (3,4) */
	n_end();
	for (i = 0; i < 5; i++) {
		char out[16];
		sprintf(out, "o%d", i);
		n_begin(ops[i], ops[i], "s,c", out);
		n_end();
	}
	RT_EQ_INT(build(13, 2, 0), RFL_OK);
	{
		REC(both);
		shape_is(both_, 2, 3, 4, 0, 0);
		RT_EQ_U64(both_->flops, 12);
		RT_EQ_U64(both_->in_numel, 3 + 4);
	}
	for (i = 0; i < 5; i++) {
		const rfl_layer *L = find(ops[i]);
		if (!RT_CHECK(L != 0)) continue;
		RT_EQ_U64(L->flops, 12);
		RT_EQ_U64(L->params, i == 0 ? 4 : 0); /* the constant counts once */
	}
	/* shapes that do not broadcast: the node is named */
	g_begin();
	g_input("x", "N,3");
	g_input("y", "N,4");
	n_begin("Add", "bad_add", "x,y", "s");
	n_end();
	RT_EQ_INT(build(13, 1, 0), RFL_ERR_SHAPE);
	RT_STR(info.err.where, "node 'bad_add' (Add)");
	RT_EQ_INT(info.err.index, 0);
	RT_EQ_INT(info.err.code, RFL_ERR_SHAPE);
	RT_EQ_INT(net.err.code, RFL_ERR_SHAPE); /* the net holds the node's error too */
	RT_STR(net.err.where, "node 'bad_add' (Add)");
}

static void test_pools(void) {
	g_begin();
	g_input("x", "N,2,8,8");
	n_begin("MaxPool", "mp", "x", "a");
	a_ints("kernel_shape", "3,3"), a_ints("strides", "2,2"), a_ints("pads", "1,1,1,1");
	n_end();
	n_begin("MaxPool", "mpc", "x", "b");
	a_ints("kernel_shape", "3,3"), a_ints("strides", "2,2"), a_int("ceil_mode", 1);
	n_end();
	n_begin("AveragePool", "ap", "x", "c");
	a_ints("kernel_shape", "2,2"), a_ints("strides", "2,2");
	n_end();
	n_begin("GlobalAveragePool", "gap", "x", "d");
	n_end();
	n_begin("ReduceMean", "rm", "x", "e");
	a_ints("axes", "2,3"), a_int("keepdims", 0);
	n_end();
	RT_EQ_INT(build(13, 1, 0), RFL_OK);
	{
		/* (8 + 2 - 3) / 2 + 1 = 4; 2 x 16 x 9 = 288 */
		REC(mp);
		shape_is(mp_, 3, 2, 4, 4, 0);
		RT_EQ_U64(mp_->flops, 288);
	}
	{
		/* ceil((8 - 3) / 2) + 1 = 4; last window starts at 6 < 8 */
		REC(mpc);
		shape_is(mpc_, 3, 2, 4, 4, 0);
	}
	{
		REC(ap);
		shape_is(ap_, 3, 2, 4, 4, 0);
		RT_EQ_U64(ap_->flops, 2 * 16 * 4);
	}
	{
		REC(gap);
		shape_is(gap_, 3, 2, 1, 1, 0);
		RT_EQ_U64(gap_->flops, 128);
	}
	{
		REC(rm);
		shape_is(rm_, 1, 2, 0, 0, 0);
		RT_EQ_U64(rm_->flops, 128);
	}
}

static void test_data_ops(void) {
	static const int64_t shape_0m1[2] = {0, -1}, split24[2] = {2, 4}, start2[1] = {2},
						 en[1] = {INT64_MAX}, ax1[1] = {1}, step2[1] = {2}, ax0[1] = {0},
						 pads[8] = {0, 0, 1, 1, 0, 0, 1, 1}, idx0 = 0;
	g_begin();
	g_input("x", "N,2,3,4");
	n_begin("Flatten", "fl", "x", "f");
	n_end();
	g_init_i64("shp", "2", shape_0m1, 2);
	n_begin("Reshape", "rs", "x,shp", "r");
	n_end();
	n_begin("Transpose", "tp", "x", "t");
	a_ints("perm", "0,3,1,2");
	n_end();
	n_begin("Concat", "cat", "x,x", "c");
	a_int("axis", 2);
	n_end();
	g_init_i64("spl", "2", split24, 2);
	n_begin("Split", "sp", "c,spl", "s1,s2"); /* axis 2 (6) into 2 + 4 */
	a_int("axis", 2);
	n_end();
	g_init_i64("st", "1", start2, 1), g_init_i64("en", "1", en, 1);
	g_init_i64("ax", "1", ax1, 1), g_init_i64("step", "1", step2, 1);
	n_begin("Slice", "sl", "r,st,en,ax,step", "sl_out"); /* 24: [2::2] -> 11 */
	n_end();
	g_init_i64("ax0", "1", ax0, 1);
	n_begin("Unsqueeze", "us", "f,ax0", "u"); /* (N, 24) -> (1, N, 24) */
	n_end();
	n_begin("Squeeze", "sq", "u,ax0", "q");
	n_end();
	g_init_i64("pads", "8", pads, 8);
	n_begin("Pad", "pad", "x,pads", "p");
	n_end();
	g_init_i64("i0", "", &idx0, 1);
	n_begin("Gather", "ga", "x,i0", "g"); /* axis 0 of (N,...) index 0: (2,3,4) */
	a_int("axis", 1);
	n_end();
	RT_EQ_INT(build(13, 3, 0), RFL_OK);
	if (info.err.msg[0]) printf("     %s\n", info.err.msg);
	{ REC(fl); shape_is(fl_, 1, 24, 0, 0, 0); RT_CHECK(fl_->flags & RFL_LF_VIEW); }
	{ REC(rs); shape_is(rs_, 1, 24, 0, 0, 0); }
	{ REC(tp); shape_is(tp_, 3, 4, 2, 3, 0); RT_EQ_INT(tp_->op, RFL_OP_TRANSPOSE); }
	{ REC(cat); shape_is(cat_, 3, 2, 6, 4, 0); }
	{ REC(s1); shape_is(s1_, 3, 2, 2, 4, 0); }
	{ REC(s2); shape_is(s2_, 3, 2, 4, 4, 0); }
	{ REC(sl); shape_is(sl_, 1, 11, 0, 0, 0); }
	/* (1, N=3, 24): the batch is not the first axis; per sample (1, 24) */
	{ REC(us); RT_EQ_U64(us_->out_numel, 24); shape_is(us_, 2, 1, 24, 0, 0); }
	{ REC(sq); shape_is(sq_, 1, 24, 0, 0, 0); }
	{ REC(pad); shape_is(pad_, 3, 2, 5, 6, 0); }
	{ REC(ga); shape_is(ga_, 2, 3, 4, 0, 0); }
}

/* The transformer export pattern: Shape -> Gather -> Unsqueeze -> Concat ->
   Reshape, and batch-sized constants (ConstantOfShape, Expand, Range). */
static void test_shape_arith(void) {
	static const int64_t zero = 0, m1[1] = {-1}, ax0[1] = {0}, one = 1;
	g_begin();
	g_input("x", "batch,seq,6");
	n_begin("Shape", "shape", "x", "s");
	n_end();
	g_init_i64("zero", "", &zero, 1);
	n_begin("Gather", "g0", "s,zero", "b");
	n_end();
	g_init_i64("ax0", "1", ax0, 1);
	n_begin("Unsqueeze", "u0", "b,ax0", "bu");
	n_end();
	n_begin("Constant", "k", "", "m1");
	a_tensor_i64("value", "1", m1, 1);
	n_end();
	n_begin("Concat", "c0", "bu,m1", "target");
	a_int("axis", 0);
	n_end();
	n_begin("Reshape", "rs", "x,target", "r"); /* (B, seq x 6) */
	n_end();
	n_begin("ConstantOfShape", "mask", "s", "ms"); /* (B, seq, 6) of zeros */
	n_end();
	n_begin("Cast", "cast", "ms", "mc");
	a_int("to", 7);
	n_end();
	n_begin("Equal", "eq", "mc,zero", "e");
	n_end();
	n_begin("Where", "wh", "e,x,x", "w");
	n_end();
	g_init_i64("one", "", &one, 1);
	n_begin("Gather", "g1", "s,one", "L");
	n_end();
	n_begin("Range", "pos", "zero,L,one", "ids"); /* 0..seq-1 */
	n_end();
	n_begin("Expand", "ex", "ids,target", "ide"); /* (seq) to (B, -1)?: see below */
	n_end();
	n_begin("Identity", "id", "w", "wi");
	n_end();
	n_begin("Dropout", "dr", "wi", "dd");
	n_end();
	g_output("dd");
	/* Expand(ids (seq), (B, -1)): -1 is not a valid broadcast dim: the node
	   is named in the error */
	RT_EQ_INT(build(13, 3, "seq=10"), RFL_ERR_SHAPE);
	RT_CHECK(strstr(info.err.where, "'ex'") != 0);
	/* the same without the bad Expand */
	g_begin();
	g_input("x", "batch,seq,6");
	n_begin("Shape", "shape", "x", "s");
	n_end();
	g_init_i64("zero", "", &zero, 1);
	n_begin("Gather", "g0", "s,zero", "b");
	n_end();
	g_init_i64("ax0", "1", ax0, 1);
	n_begin("Unsqueeze", "u0", "b,ax0", "bu");
	n_end();
	n_begin("Constant", "k", "", "m1");
	a_tensor_i64("value", "1", m1, 1);
	n_end();
	n_begin("Concat", "c0", "bu,m1", "target");
	a_int("axis", 0);
	n_end();
	n_begin("Reshape", "rs", "x,target", "r");
	n_end();
	n_begin("ConstantOfShape", "mask", "s", "ms");
	n_end();
	n_begin("Where", "wh", "ms,x,x", "w");
	n_end();
	RT_EQ_INT(build(13, 3, "seq=10"), RFL_OK);
	RT_EQ_U64(info.batch, 3);
	{ REC(rs); shape_is(rs_, 1, 60, 0, 0, 0); }
	/* folded: no records for the shape arithmetic */
	RT_CHECK(find("g0") == 0 && find("c0") == 0 && find("shape") == 0);
	{ REC(mask); shape_is(mask_, 2, 10, 6, 0, 0); RT_EQ_U64(mask_->out_numel, 60); }
	{ REC(wh); RT_EQ_U64(wh_->flops, 60); }
	/* a symbolic dim without a value: RFL_ERR_MISSING naming it */
	RT_EQ_INT(build(13, 3, 0), RFL_ERR_MISSING);
	RT_CHECK(strstr(info.err.msg, "seq") != 0);
}

/* Swin's padding to a window multiple, as torch exports it: the pads list
   is computed from Shape, reversed by a Slice with step -1 over a (4, 2)
   view, transposed and flattened. x (N, 5, 5, 4), window 4: W gets
   (4 - 5 % 4) % 4 = 3 at its end, H a fixed 1. Also Range and a
   batch-sized Expand, an external-data weight, a node without a name. */
static void test_fold_chain(void) {
	static const int64_t two = 2, four = 4, eight[1] = {8}, zero = 0, one = 1, c000[3] = {0, 0, 0},
						 c0[1] = {0}, c1[1] = {1}, ax0[1] = {0}, m1_2[2] = {-1, 2}, m1[1] = {-1},
						 sst[1] = {-1}, sen[1] = {-9223372036854775807LL}, sst1[1] = {-1}, five[1] = {5};
	g_begin();
	g_input("x", "N,5,5,4");
	n_begin("Shape", "s", "x", "s");
	n_end();
	g_init_i64("two", "", &two, 1), g_init_i64("four", "", &four, 1);
	n_begin("Gather", "gw", "s,two", "w"); /* 5 */
	n_end();
	n_begin("Mod", "m", "w,four", "m"); /* 1 */
	n_end();
	n_begin("Sub", "sub", "four,m", "p"); /* 3 */
	n_end();
	n_begin("Mod", "m2", "p,four", "p2"); /* 3 */
	n_end();
	g_init_i64("ax0", "1", ax0, 1);
	n_begin("Unsqueeze", "pu", "p2,ax0", "pu"); /* [3] */
	n_end();
	g_init_i64("c000", "3", c000, 3), g_init_i64("c0", "1", c0, 1), g_init_i64("c1", "1", c1, 1);
	n_begin("Concat", "c6", "c000,pu,c0,c1", "c6"); /* [0,0,0,3,0,1]: (W: 0,3) (H: 0,1) */
	a_int("axis", 0);
	n_end();
	n_begin("Shape", "n6", "c6", "n6"); /* [6] */
	n_end();
	g_init_i64("eight", "1", eight, 1);
	n_begin("Sub", "k", "eight,n6", "k"); /* [2] */
	n_end();
	n_begin("ConstantOfShape", "z", "k", "z"); /* [0,0] */
	a_tensor_i64("value", "1", &zero, 1);
	n_end();
	n_begin("Concat", "c8", "c6,z", "c8");
	a_int("axis", 0);
	n_end();
	g_init_i64("m1_2", "2", m1_2, 2);
	n_begin("Reshape", "r42", "c8,m1_2", "r42"); /* [[0,0],[0,3],[0,1],[0,0]] */
	n_end();
	g_init_i64("sst", "1", sst, 1), g_init_i64("sen", "1", sen, 1), g_init_i64("sst1", "1", sst1, 1);
	n_begin("Slice", "rev", "r42,sst,sen,ax0,sst1", "rev"); /* rows reversed */
	n_end();
	n_begin("Transpose", "tr", "rev", "tr"); /* [[0,0,0,0],[0,1,3,0]] */
	a_ints("perm", "1,0");
	n_end();
	g_init_i64("m1", "1", m1, 1);
	n_begin("Reshape", "flat", "tr,m1", "pads");
	n_end();
	n_begin("Pad", "pad", "x,pads", "xp"); /* ends (0, 1, 3, 0): (N, 6, 8, 4) */
	n_end();
	/* Range over a shape value, broadcast to the batch */
	g_init_i64("zero", "", &zero, 1), g_init_i64("one", "", &one, 1);
	n_begin("Gather", "gl", "s,one", "L"); /* 5 */
	n_end();
	n_begin("Range", "ids", "zero,L,one", "ids"); /* [0..4] */
	n_end();
	n_begin("Gather", "gb", "s,zero", "b");
	n_end();
	n_begin("Unsqueeze", "bu", "b,ax0", "bu");
	n_end();
	g_init_i64("five", "1", five, 1);
	n_begin("Concat", "bshape", "bu,five", "bshape"); /* [N, 5] */
	a_int("axis", 0);
	n_end();
	n_begin("Expand", "pos", "ids,bshape", "pos"); /* (N, 5), sized by the batch */
	n_end();
	/* a weight kept in an external file: only its dims are here */
	pb_reset(&g_tmp);
	pb_int(&g_tmp, 1, 4), pb_int(&g_tmp, 1, 6), pb_int(&g_tmp, 2, 1), pb_str(&g_tmp, 8, "ext");
	pb_reset(&g_tmp2);
	pb_str(&g_tmp2, 1, "location"), pb_str(&g_tmp2, 2, "weights.bin");
	pb_msg(&g_tmp, 13, &g_tmp2);
	pb_int(&g_tmp, 14, 1);
	pb_msg(&g_graph, 5, &g_tmp);
	n_begin("MatMul", (const char *)0, "xp,ext", "unnamed_out"); /* (N, 6, 8, 6) */
	n_end();
	RT_EQ_INT(build(13, 2, 0), RFL_OK);
	if (info.err.msg[0]) printf("     %s\n", info.err.msg);
	RT_EQ_U64(gr.params, 24);
	{ REC(pad); shape_is(pad_, 3, 6, 8, 4, 0); }
	{ REC(pos); shape_is(pos_, 1, 5, 0, 0, 0); RT_EQ_U64(pos_->out_numel, 5); }
	{
		REC(unnamed_out);
		/* 2 x (6 x 8) x 6 x 4 = 2,304; the external weight's 24 params */
		RT_EQ_U64(unnamed_out_->mac_flops, 2304);
		RT_EQ_U64(unnamed_out_->params, 24);
		RT_EQ_INT(unnamed_out_->op, RFL_OP_LINEAR);
	}
	RT_CHECK(find("rev") == 0 && find("tr") == 0 && find("ids") == 0); /* folded */
}

/* Position ids of a transformer: Range(0, seq) is sized by the sequence,
   not the batch (no record); its Expand to (batch, seq) is per sample. */
static void test_position_ids(void) {
	static const int64_t zero = 0, one = 1, ax0[1] = {0};
	g_begin();
	g_input("ids", "batch,seq");
	n_begin("Shape", "s", "ids", "s");
	n_end();
	g_init_i64("zero", "", &zero, 1), g_init_i64("one", "", &one, 1);
	n_begin("Gather", "gl", "s,one", "L");
	n_end();
	n_begin("Range", "range", "zero,L,one", "pos");
	n_end();
	n_begin("Gather", "gb", "s,zero", "b");
	n_end();
	g_init_i64("ax0", "1", ax0, 1);
	n_begin("Unsqueeze", "bu", "b,ax0", "bu");
	n_end();
	n_begin("Unsqueeze", "lu", "L,ax0", "lu");
	n_end();
	n_begin("Concat", "shp", "bu,lu", "shp"); /* (batch, seq) */
	a_int("axis", 0);
	n_end();
	n_begin("Expand", "expand", "pos,shp", "posb");
	n_end();
	g_weight("table", "64,8");
	n_begin("Gather", "emb", "table,posb", "e"); /* an embedding: 64 x 8 params */
	n_end();
	RT_EQ_INT(build(13, 3, "seq=12"), RFL_OK);
	RT_CHECK(find("range") == 0);
	{ REC(expand); shape_is(expand_, 1, 12, 0, 0, 0); RT_EQ_U64(expand_->out_numel, 12); }
	{ REC(emb); RT_EQ_INT(emb_->op, RFL_OP_EMBEDDING); RT_EQ_U64(emb_->params, 512); shape_is(emb_, 2, 12, 8, 0, 0); }
}

/* Equal, Where, Cast, Identity, Dropout on activations; Constant's
   value_ints feeding a Reshape. */
static void test_misc_ops(void) {
	g_begin();
	g_input("x", "N,6");
	n_begin("Equal", "eq", "x,x", "e"); /* 6 compares */
	n_end();
	n_begin("Cast", "cast", "x", "c");
	a_int("to", 10);
	n_end();
	n_begin("Identity", "id", "c", "i"); /* the same tensor: no record */
	n_end();
	n_begin("Dropout", "drop", "i", "d");
	n_end();
	n_begin("Where", "where", "e,x,d", "w"); /* 6 selects */
	n_end();
	n_begin("Constant", "k", "", "shape");
	a_ints("value_ints", "0,2,3");
	n_end();
	n_begin("Reshape", "rs", "w,shape", "r");
	n_end();
	RT_EQ_INT(build(13, 4, 0), RFL_OK);
	{ REC(eq); RT_EQ_U64(eq_->flops, 6); }
	{ REC(cast); RT_EQ_U64(cast_->flops, 0); RT_EQ_U64(cast_->in_numel, 6); }
	RT_CHECK(find("id") == 0);
	{
		REC(drop);
		const rfl_layer *c = find("cast");
		RT_EQ_INT(drop_->op, RFL_OP_DROPOUT);
		RT_CHECK(c && drop_->in[0] == (int)(c - rec)); /* through the Identity */
	}
	{ REC(where); RT_EQ_U64(where_->flops, 6); RT_EQ_U64(where_->in_numel, 18); }
	{ REC(rs); shape_is(rs_, 2, 2, 3, 0, 0); }
	/* Tile (2, 3) by (1, 2) -> (2, 6), a copy */
	g_begin();
	g_input("x", "N,2,3");
	{
		static const int64_t reps[3] = {1, 1, 2};
		g_init_i64("reps", "3", reps, 3);
	}
	n_begin("Tile", "tile", "x,reps", "t");
	n_end();
	RT_EQ_INT(build(13, 1, 0), RFL_OK);
	{ REC(tile); shape_is(tile_, 2, 2, 6, 0, 0); RT_EQ_U64(tile_->flops, 0); }
}

static void test_resize_unknown(void) {
	g_begin();
	g_input("x", "N,2,4,4");
	{
		/* scales as a float initializer (1, 1, 2, 2) */
		float sc[4] = {1, 1, 2, 2};
		pb_reset(&g_tmp);
		pb_int(&g_tmp, 1, 4), pb_int(&g_tmp, 2, 1), pb_str(&g_tmp, 8, "scales");
		pb_bytes(&g_tmp, 9, sc, 16);
		pb_msg(&g_graph, 5, &g_tmp);
	}
	n_begin("Resize", "up", "x,,scales", "y");
	a_str("mode", "nearest");
	n_end();
	n_begin("Resize", "upl", "x,,scales", "yl");
	a_str("mode", "linear");
	n_end();
	/* an op without a rule, its output shape in value_info: continues */
	n_begin("MyOp", "custom", "y", "z");
	n_end();
	g_value(13, "z", 1, "N,2,8,8");
	n_begin("Relu", "after", "z", "zr");
	n_end();
	RT_EQ_INT(build(13, 1, 0), RFL_OK);
	{ REC(up); shape_is(up_, 3, 2, 8, 8, 0); RT_EQ_U64(up_->flops, 0); }
	/* linear over 2 resized axes: 2^3 - 1 = 7 FLOPs per output */
	{ REC(upl); RT_EQ_U64(upl_->flops, 7 * 128); }
	{ REC(custom); RT_CHECK(custom_->flags & RFL_LF_UNKNOWN_FLOPS); RT_STR(custom_->cls, "MyOp"); }
	{ REC(after); RT_EQ_U64(after_->flops, 128); }
	RT_EQ_INT(info.unknown_ops, 1);
	RT_STR(info.unknown_op, "MyOp");
	{
		/* the totals say they are the known part only: a lower bound */
		rfl_net_cost c;
		rfl_net_prediction p;
		rfl_cost_desc cd;
		const rfl_machine *m;
		memset(&cd, 0, sizeof cd);
		RT_EQ_INT(rfl_net_cost_get(&net, &cd, &c), RFL_OK);
		RT_EQ_INT(c.unknown_layers, 1);
		RT_EQ_U64(c.fwd_flops, 7 * 128 + 128); /* upl and after; up and custom 0 */
		if (rfl_hw_find("h100", &m) == RFL_OK) {
			RT_EQ_INT(rfl_net_predict(&net, &cd, m, &p), RFL_OK);
			RT_EQ_INT(p.unknown_layers, 1);
		}
	}
	/* without the value_info: an error naming the node */
	g_begin();
	g_input("x", "N,2,4,4");
	n_begin("MyOp", "custom", "x", "z");
	n_end();
	RT_EQ_INT(build(13, 1, 0), RFL_ERR_UNSUPPORTED);
	RT_STR(info.err.where, "node 'custom' (MyOp)");
}

/* LSTM, GRU, RNN: the ONNX operator spec's equations, counted per time
   step, direction and sequence as the rule's comment says: mac 2 G H
   (I + H); adds G H (x W + h R), + 2 G H with a bias B; then LSTM 18 H
   (+ 6 H peepholes), GRU 14 H, RNN H. */
static void test_recurrent(void) {
	static const int64_t lens[2] = {4, 6};
	g_begin();
	/* LSTM, X [S 5, N, I 3] in the default layout: the batch is axis 1 */
	g_input("x", "5,N,3");
	g_weight("W", "1,16,3"), g_weight("R", "1,16,4"), g_weight("Bb", "1,32");
	n_begin("LSTM", "lstm", "x,W,R,Bb", "Y,Y_h,Y_c");
	a_int("hidden_size", 4);
	n_end();
	g_output("Y_h");
	RT_EQ_INT(build(14, 2, 0), RFL_OK);
	RT_EQ_U64(info.batch, 2);
	RT_EQ_INT(info.batch_axis, 1);
	{
		/* G H = 16; mac 2 x 16 x (3 + 4) = 224 a step, 5 x 2 steps: 2,240,
		   1,120 a sample; elementwise 16 x 3 (sum, two biases) + 18 x 4 =
		   120 a step: 1,200; flops (2,240 + 1,200) / 2 = 1,720 */
		REC(Y);
		RT_EQ_U64(Y_->mac_flops, 1120);
		RT_EQ_U64(Y_->flops, 1720);
		RT_EQ_U64(Y_->params, 48 + 64 + 32);
		RT_EQ_INT(Y_->op, RFL_OP_LINEAR);
		RT_STR(Y_->cls, "LSTM");
		shape_is(Y_, 3, 5, 1, 4, 0); /* Y [5, 1, N, 4] per sample */
	}
	{
		REC(Y_h); /* [1, N, 4]: no second cost */
		RT_EQ_U64(Y_h_->flops, 0);
		RT_EQ_U64(Y_h_->out_numel, 4);
		RT_CHECK(!(Y_h_->flags & RFL_LF_UNKNOWN_FLOPS));
	}
	/* bidirectional LSTM with peepholes, no bias: S 2, N 1, I 1, H 1 */
	g_begin();
	g_input("x", "2,1,1");
	g_weight("W", "2,4,1"), g_weight("R", "2,4,1"), g_weight("P", "2,3");
	n_begin("LSTM", "bi", "x,W,R,,,,,P", "Y");
	a_int("hidden_size", 1), a_str("direction", "bidirectional");
	n_end();
	RT_EQ_INT(build(14, 0, 0), RFL_OK);
	{
		/* mac 2 x 4 x (1 + 1) = 16 a step, 2 steps, 2 directions: 64;
		   elementwise 4 + 18 + 6 = 28 a step: 112; flops 176 */
		REC(bi); /* one output: the record has the node's name */
		RT_EQ_U64(bi_->mac_flops, 64);
		RT_EQ_U64(bi_->flops, 176);
		shape_is(bi_, 3, 2, 2, 1, 0); /* [S 2, D 2, N 1, H 1]: the batch axis goes */
	}
	/* GRU, layout 1 (X [N, S 6, I 5]), bidirectional, H 3, no bias,
	   constant sequence_lens {4, 6}; Y omitted */
	g_begin();
	g_input("x", "N,6,5");
	g_weight("W", "2,9,5"), g_weight("R", "2,9,3");
	g_init_i64("lens", "2", lens, 2);
	n_begin("GRU", "gru", "x,W,R,,lens", ",hn");
	a_int("hidden_size", 3), a_str("direction", "bidirectional"), a_int("layout", 1);
	a_int("linear_before_reset", 1);
	n_end();
	RT_EQ_INT(build(14, 2, 0), RFL_OK);
	RT_EQ_INT(info.batch_axis, 0);
	{
		/* steps 4 + 6 = 10, 2 directions; mac 2 x 9 x (5 + 3) = 144 a step:
		   2,880, 1,440 a sample; elementwise 9 + 14 x 3 = 51 a step: 1,020;
		   flops (2,880 + 1,020) / 2 = 1,950; on Y_h, the first output */
		REC(hn);
		RT_EQ_U64(hn_->mac_flops, 1440);
		RT_EQ_U64(hn_->flops, 1950);
		RT_EQ_U64(hn_->params, 90 + 54);
		shape_is(hn_, 2, 2, 3, 0, 0); /* [N, D 2, H 3] */
	}
	/* RNN: X [7, N, 2], H 3, bias; batch 1 */
	g_begin();
	g_input("x", "7,N,2");
	g_weight("W", "1,3,2"), g_weight("R", "1,3,3"), g_weight("Bb", "1,6");
	n_begin("RNN", "rnn", "x,W,R,Bb", "Y");
	a_int("hidden_size", 3);
	n_end();
	RT_EQ_INT(build(14, 0, 0), RFL_OK);
	{
		/* mac 2 x 3 x (2 + 3) = 30 a step, 7 steps: 210; elementwise
		   3 x 3 + 3 = 12 a step: 84; flops 294 */
		REC(rnn);
		RT_EQ_U64(rnn_->mac_flops, 210);
		RT_EQ_U64(rnn_->flops, 294);
	}
	/* an embedding first: ids [S 7, N] -> Gather -> [7, N, 2] -> RNN; the
	   batch is still axis 1 of the graph input */
	g_begin();
	g_input("ids", "7,N");
	g_weight("E", "50,2"), g_weight("W", "1,3,2"), g_weight("R", "1,3,3");
	n_begin("Gather", "emb", "E,ids", "x");
	n_end();
	n_begin("RNN", "rnn", "x,W,R", "Y");
	a_int("hidden_size", 3);
	n_end();
	RT_EQ_INT(build(14, 4, 0), RFL_OK);
	RT_EQ_INT(info.batch_axis, 1);
	RT_EQ_U64(info.batch, 4);
	{
		/* per sample, 7 steps: mac 2 x 3 x (2 + 3) = 30 a step, 210;
		   no bias: elementwise 3 (the two products) + 3 (tanh) = 6 a
		   step, 42; flops 252 */
		REC(rnn);
		RT_EQ_U64(rnn_->mac_flops, 210);
		RT_EQ_U64(rnn_->flops, 252);
	}
	/* W that does not match hidden_size: an error naming the node */
	g_begin();
	g_input("x", "7,N,2");
	g_weight("W", "1,5,2"), g_weight("R", "1,3,3");
	n_begin("RNN", "bad_rnn", "x,W,R", "Y");
	a_int("hidden_size", 3);
	n_end();
	RT_EQ_INT(build(14, 0, 0), RFL_ERR_SHAPE);
	RT_CHECK(strstr(info.err.where, "bad_rnn") != 0);
}

/* Einsum: P = the product of every label's size; two operands with a
   summed label 2 P; no summed label (k - 1) P; one operand: P for a sum,
   0 for a transpose or diagonal. */
static void test_einsum(void) {
	g_begin();
	g_input("x", "N,3,4");
	g_input("y", "N,4,5");
	g_input("z", "N,2,3,4");
	g_weight("W", "4,7");
	n_begin("Einsum", "bmm", "x,y", "a");
	a_str("equation", "bij,bjk->bik");
	n_end();
	n_begin("Einsum", "implicit", "x,W", "b"); /* "bij,jk": b, i, k used once */
	a_str("equation", "bij,jk");
	n_end();
	n_begin("Einsum", "ell", "z,W", "c");
	a_str("equation", "...ij , jk -> ...ik");
	n_end();
	n_begin("Einsum", "diag", "x", "d");
	a_str("equation", "bij->bji");
	n_end();
	n_begin("Einsum", "red", "x", "e");
	a_str("equation", "bij->b");
	n_end();
	n_begin("Einsum", "had", "x,x", "f");
	a_str("equation", "bij,bij->bij");
	n_end();
	RT_EQ_INT(build(13, 2, 0), RFL_OK);
	{
		/* b 2, i 3, j 4, k 5: P = 120, 2 P = 240, 120 a sample */
		REC(bmm);
		RT_EQ_U64(bmm_->mac_flops, 120);
		RT_EQ_U64(bmm_->flops, 120);
		RT_EQ_INT(bmm_->op, RFL_OP_MATMUL);
		shape_is(bmm_, 2, 3, 5, 0, 0);
	}
	{
		/* P = 2 x 3 x 4 x 7 = 168, 2 P = 336: 168 a sample; out [b, i, k] */
		REC(implicit);
		RT_EQ_U64(implicit_->mac_flops, 168);
		shape_is(implicit_, 2, 3, 7, 0, 0);
		RT_EQ_U64(implicit_->params, 28);
	}
	{
		/* "..." = (N, 2): P = 2 x 2 x 3 x 4 x 7 = 336, 2 P / 2 = 336 */
		REC(ell);
		RT_EQ_U64(ell_->mac_flops, 336);
		shape_is(ell_, 3, 2, 3, 7, 0);
	}
	{ REC(diag); RT_EQ_U64(diag_->flops, 0); RT_EQ_INT(diag_->op, RFL_OP_TRANSPOSE); shape_is(diag_, 2, 4, 3, 0, 0); }
	{ REC(red); RT_EQ_U64(red_->flops, 12); RT_EQ_U64(red_->mac_flops, 0); } /* 3 x 4 summed */
	{ REC(had); RT_EQ_U64(had_->flops, 12); RT_EQ_U64(had_->mac_flops, 0); RT_EQ_INT(had_->op, RFL_OP_MUL); }
	/* an output label no operand has */
	g_begin();
	g_input("x", "N,3");
	n_begin("Einsum", "bad_ein", "x", "y");
	a_str("equation", "bi->bk");
	n_end();
	RT_EQ_INT(build(13, 1, 0), RFL_ERR_SHAPE);
	RT_CHECK(strstr(info.err.where, "bad_ein") != 0);
}

/* com.microsoft Attention and MultiHeadAttention; scores as rfl_attention
   counts them: 2 S T D + 2 S T Dv mac, 6 per score and head. */
static void test_ms_attention(void) {
	g_begin();
	g_input("x", "N,4,8");
	g_weight("Wqkv", "8,24"), g_weight("bqkv", "24");
	n_begin("Attention", "attn", "x,Wqkv,bqkv", "o,present");
	pb_str(&g_node, 7, "com.microsoft");
	a_int("num_heads", 2);
	n_end();
	g_input("q", "N,4,8"), g_input("k", "N,6,8"), g_input("v", "N,6,4"), g_input("pk", "N,2,3,4");
	n_begin("MultiHeadAttention", "mha", "q,k,v,,,,pk", "mo,pkey,pval");
	pb_str(&g_node, 7, "com.microsoft");
	a_int("num_heads", 2);
	n_end();
	RT_EQ_INT(build(13, 1, 0), RFL_OK);
	{
		/* projection 2 x S 4 x I 8 x 24 = 1,536; S = T = 4, D = Dv = 8:
		   2 x 16 x 8 x 2 = 512; mac 2,048; scale + softmax 16 x 2 heads x
		   6 = 192; bias 4 x 24 = 96: flops 2,336 */
		REC(o);
		RT_EQ_U64(o_->mac_flops, 2048);
		RT_EQ_U64(o_->flops, 2336);
		RT_EQ_U64(o_->params, 8 * 24 + 24);
		RT_EQ_INT(o_->op, RFL_OP_ATTENTION);
		shape_is(o_, 2, 4, 8, 0, 0);
	}
	{ REC(present); shape_is(present_, 4, 2, 2, 4, 4); } /* [2, N, 2, T 4, 4] */
	{
		/* T = 6 + 3 past = 9, S 4: 36 scores; 2 x 36 x 8 + 2 x 36 x 4 =
		   864 mac; 36 x 2 x 6 = 432: flops 1,296 */
		REC(mo);
		RT_EQ_U64(mo_->mac_flops, 864);
		RT_EQ_U64(mo_->flops, 1296);
		shape_is(mo_, 2, 4, 4, 0, 0);
	}
	{ REC(pval); shape_is(pval_, 3, 2, 9, 2, 0); }
}

/* Sum, Max, Min, Mean: one input is that input; k inputs k - 1 FLOPs an
   element (Mean k). */
static void test_variadic(void) {
	g_begin();
	g_input("x", "N,6");
	n_begin("Sum", "sum1", "x", "s");
	n_end();
	n_begin("Max", "max1", "s", "m");
	n_end();
	n_begin("Min", "min1", "m", "n");
	n_end();
	n_begin("Sum", "sum3", "x,n,x", "t");
	n_end();
	n_begin("Mean", "mean2", "t,x", "u");
	n_end();
	RT_EQ_INT(build(13, 1, 0), RFL_OK);
	RT_CHECK(find("sum1") == 0 && find("s") == 0 && find("m") == 0 && find("n") == 0);
	{ REC(sum3); RT_EQ_U64(sum3_->flops, 12); RT_EQ_INT(sum3_->in[0], 0); }
	{ REC(mean2); RT_EQ_U64(mean2_->flops, 12); }
	RT_EQ_INT(info.unknown_ops, 0);
}

/* A small conv net used by the stream tests. */
static const pb *small_model(void) {
	g_begin();
	g_input("x", "N,3,16,16");
	g_weight("w", "8,3,3,3");
	n_begin("Conv", "conv", "x,w", "y");
	a_ints("pads", "1,1,1,1");
	n_end();
	n_begin("Relu", "relu", "y", "r");
	n_end();
	n_begin("GlobalAveragePool", "gap", "r", "p");
	n_end();
	n_begin("Flatten", "flat", "p", "f");
	n_end();
	g_weight("fw", "10,8");
	g_weight("fb", "10");
	n_begin("Gemm", "fc", "f,fw,fb", "out");
	a_int("transB", 1);
	n_end();
	g_output("out");
	return g_model_bytes(13);
}

static uint32_t rng = 12345;
static uint32_t next_rand(void) {
	rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
	return rng;
}

/* Same graph for every split of the stream. */
static void test_chunks(void) {
	static unsigned char a2[1 << 16];
	const pb *m = small_model();
	rfl_onnx_graph g2;
	rfl_onnx_state s2;
	size_t i, trial;
	RT_EQ_INT(rfl_onnx_read_buffer(&st, m->b, m->n, arena, sizeof arena, &gr), RFL_OK);
	RT_EQ_INT(gr.node_count, 5);
	RT_EQ_U64(gr.params, 8 * 27 + 80 + 10);
	for (trial = 0; trial < 41; trial++) {
		int ok = 1, k;
		rfl_onnx_init(&s2, a2, sizeof a2);
		for (i = 0; i < m->n;) {
			size_t n = trial == 0 ? 1 : 1 + next_rand() % (trial < 20 ? 7 : 300);
			if (n > m->n - i) n = m->n - i;
			if (rfl_onnx_push(&s2, m->b + i, n)) break;
			i += n;
		}
		RT_EQ_INT(rfl_onnx_finish(&s2, &g2), RFL_OK);
		RT_EQ_U64(s2.need, st.need);
		ok = g2.node_count == gr.node_count && g2.value_count == gr.value_count &&
			 g2.params == gr.params;
		for (k = 0; ok && k < g2.node_count; k++)
			ok = strcmp(g2.nodes[k].name, gr.nodes[k].name) == 0 &&
				 strcmp(g2.nodes[k].op_type, gr.nodes[k].op_type) == 0 &&
				 g2.nodes[k].n_attrs == gr.nodes[k].n_attrs &&
				 g2.nodes[k].n_inputs == gr.nodes[k].n_inputs;
		for (k = 0; ok && k < g2.value_count; k++)
			ok = strcmp(g2.values[k].name, gr.values[k].name) == 0 && g2.values[k].rank == gr.values[k].rank;
		RT_CHECK(ok);
	}
}

/* Count mode, a too small arena, skipping by seeking. */
static void test_arena_skip(void) {
	const pb *m = small_model();
	size_t need, i;
	RT_EQ_INT(rfl_onnx_read_buffer(&st, m->b, m->n, 0, 0, &gr), RFL_OK);
	need = st.need;
	RT_CHECK(need > 0);
	RT_EQ_INT(rfl_onnx_read_buffer(&st, m->b, m->n, arena, need - 1, &gr), RFL_ERR_BUFFER);
	RT_EQ_U64(st.need, need);
	RT_CHECK(strstr(st.err.msg, "bytes needed") != 0);
	RT_EQ_INT(rfl_onnx_read_buffer(&st, m->b, m->n, arena, need, &gr), RFL_OK);
	/* push 40 bytes at a time; when the reader says it skips, jump */
	rfl_onnx_init(&st, arena, sizeof arena);
	for (i = 0; i < m->n;) {
		size_t n = m->n - i < 40 ? m->n - i : 40;
		RT_EQ_INT(rfl_onnx_push(&st, m->b + i, n), RFL_OK);
		i += n;
		if (st.skip) {
			/* the weights' raw_data: 8 x 27 x 4 = 864 bytes, 320, 40 */
			RT_CHECK(st.skip <= 864);
			i += (size_t)st.skip;
			RT_EQ_INT(rfl_onnx_skip(&st, st.skip), RFL_OK);
		}
	}
	RT_EQ_INT(rfl_onnx_finish(&st, &gr), RFL_OK);
	RT_EQ_U64(gr.params, 8 * 27 + 80 + 10);
	RT_EQ_U64(st.offset, m->n);
}

static void test_bad(void) {
	static const char text[] = "hello, this is not a model\n";
	const pb *m = small_model();
	/* text: 'h' = field 13 varint, 'e' its value, 'l' = field 13 wire 4 */
	RT_EQ_INT(rfl_onnx_read_buffer(&st, text, sizeof text - 1, arena, sizeof arena, &gr), RFL_ERR_FORMAT);
	RT_EQ_U64(st.err.offset, 2);
	RT_CHECK(strstr(st.err.msg, "byte 2") != 0);
	/* truncated: the stream ends inside the graph */
	RT_EQ_INT(rfl_onnx_read_buffer(&st, m->b, m->n / 2, arena, sizeof arena, &gr), RFL_ERR_TRUNCATED);
	RT_EQ_U64(st.err.offset, m->n / 2);
	RT_EQ_INT(rfl_onnx_read_buffer(&st, "", 0, arena, sizeof arena, &gr), RFL_ERR_EMPTY);
	/* graph field 7 of length 100, holding a name of 5 bytes cut after 2 */
	{
		static const unsigned char bad[] = {0x08, 0x08, 0x3A, 100, 0x12, 0x05, 'a', 'b'};
		RT_EQ_INT(rfl_onnx_read_buffer(&st, bad, sizeof bad, arena, sizeof arena, &gr), RFL_ERR_TRUNCATED);
		RT_EQ_U64(st.err.offset, 8);
	}
	{
		/* inner length runs past the outer message: graph (len 3) holding a node of len 9 */
		static const unsigned char bad[] = {0x3A, 0x03, 0x0A, 0x09, 0x00, 0x00};
		RT_EQ_INT(rfl_onnx_read_buffer(&st, bad, sizeof bad, arena, sizeof arena, &gr), RFL_ERR_FORMAT);
		RT_EQ_U64(st.err.offset, 2);
	}
	/* negative dim in an initializer: named */
	g_begin();
	g_input("x", "N,4");
	g_init_i64("w", "-3,4", 0, 0);
	n_begin("MatMul", "mm", "x,w", "y");
	n_end();
	RT_EQ_INT(build(13, 1, 0), RFL_ERR_FORMAT);
	RT_STR(st.err.where, "tensor 'w'");
	RT_STR(st.err.msg, "negative dim");
	/* negative dim in an input's type */
	g_begin();
	g_input("x", "N,-5");
	RT_EQ_INT(build(13, 1, 0), RFL_ERR_FORMAT);
	RT_STR(st.err.where, "tensor 'x'");
	/* overflowing dims: 2^40 x 2^40 elements */
	g_begin();
	g_input("x", "N,4");
	g_init_i64("big", "1099511627776,1099511627776", 0, 0);
	RT_EQ_INT(build(13, 1, 0), RFL_ERR_OVERFLOW);
	RT_STR(st.err.where, "tensor 'big'");
	g_begin();
	g_input("x", "N,4294967296,4294967296");
	RT_EQ_INT(build(13, 1, 0), RFL_ERR_OVERFLOW);
	RT_CHECK(strstr(info.err.msg, "x") != 0);
	/* an input and no node: a model that computes nothing is refused, not
	   a point at 0 FLOPs and 0 bytes */
	g_begin();
	g_input("x", "N,4");
	RT_EQ_INT(build(13, 1, 0), RFL_ERR_EMPTY);
	RT_STR(info.err.msg, "the graph has no nodes: nothing to estimate");
	/* no input, one node on a constant: folded, no record */
	g_begin();
	g_init_i64("w", "2,2", 0, 0);
	n_begin("Shape", "s", "w", "y");
	n_end();
	RT_EQ_INT(build(13, 1, 0), RFL_ERR_EMPTY);
	RT_STR(info.err.msg, "the graph's nodes do no work: nothing to estimate");
	RT_STR(info.err.where, "");
	/* unknown input name */
	g_begin();
	g_input("x", "N,4");
	n_begin("Relu", "r1", "nosuch", "y");
	n_end();
	RT_EQ_INT(build(13, 1, 0), RFL_ERR_GRAPH);
	RT_STR(st.err.where, "node 'r1'");
	RT_STR(st.err.msg, "unknown input name nosuch");
	/* a cycle: a -> b -> a */
	g_begin();
	g_input("x", "N,4");
	n_begin("Add", "first", "x,b", "a");
	n_end();
	n_begin("Relu", "second", "a", "b");
	n_end();
	RT_EQ_INT(build(13, 1, 0), RFL_ERR_GRAPH);
	RT_CHECK(strstr(info.err.msg, "cycle") != 0 && strstr(info.err.where, "'first'") != 0);
	/* an output produced twice */
	g_begin();
	g_input("x", "N,4");
	n_begin("Relu", "r1", "x", "y");
	n_end();
	n_begin("Relu", "r2", "x", "y");
	n_end();
	RT_EQ_INT(build(13, 1, 0), RFL_ERR_GRAPH);
	RT_STR(st.err.where, "node 'r2'");
	/* push after finish */
	m = small_model();
	RT_EQ_INT(rfl_onnx_read_buffer(&st, m->b, m->n, arena, sizeof arena, &gr), RFL_OK);
	RT_EQ_INT(rfl_onnx_push(&st, m->b, 1), RFL_ERR_STATE);
}

/* Unsorted nodes are fine (sorted by their inputs); counts at any batch
   scale; the cost functions take the records. */
static void test_unsorted_costs(void) {
	rfl_net_cost c;
	rfl_cost_desc d;
	g_begin();
	g_input("x", "N,4");
	g_weight("w", "4,4");
	n_begin("Relu", "second", "a", "b");
	n_end();
	n_begin("MatMul", "first", "x,w", "a");
	n_end();
	RT_EQ_INT(build(13, 7, 0), RFL_OK);
	RT_EQ_INT(net.count, 3);
	memset(&d, 0, sizeof d);
	d.batch = info.batch;
	RT_EQ_INT(rfl_net_cost_get(&net, &d, &c), RFL_OK);
	RT_EQ_U64(c.fwd_mac_flops, 7 * 2 * 16); /* 7 rows x 2 x 4 x 4 */
	RT_EQ_U64(c.params, 16);
	RT_EQ_U64(c.fwd_flops, 7 * 32 + 7 * 4);
}

/* rfl_onnx_read_file seeks over payloads, and sees a file cut inside one. */
#ifndef RFL_NO_STDIO
static void test_file(void) {
	const pb *m = small_model();
	const char *path = "build/test/test_onnx_tmp.onnx";
	FILE *f = fopen(path, "wb");
	if (!RT_CHECK(f != 0)) return;
	fwrite(m->b, 1, m->n, f);
	fclose(f);
	RT_EQ_INT(rfl_onnx_read_file(&st, path, arena, sizeof arena, &gr), RFL_OK);
	RT_EQ_U64(gr.params, 8 * 27 + 80 + 10);
	RT_EQ_U64(st.offset, m->n);
	/* cut inside the first weight's payload (it starts after byte 100) */
	f = fopen(path, "wb");
	fwrite(m->b, 1, 300, f);
	fclose(f);
	RT_EQ_INT(rfl_onnx_read_file(&st, path, arena, sizeof arena, &gr), RFL_ERR_TRUNCATED);
	RT_EQ_U64(st.err.offset, 300);
	remove(path);
	RT_EQ_INT(rfl_onnx_read_file(&st, path, arena, sizeof arena, &gr), RFL_ERR_IO);
}

/* rfl_file_read: the cap, a NUL byte, a directory, a missing file */
static void test_file_read(void) {
	static char buf[64];
	const char *path = "build/test/test_onnx_read.txt", *why = "";
	size_t len = 99;
	FILE *f = fopen(path, "wb");
	if (!RT_CHECK(f != 0)) return;
	fputs("{\"a\": 1}", f); /* 8 bytes */
	fclose(f);
	RT_EQ_INT(rfl_file_read(path, buf, sizeof buf, 1, &len, &why), RFL_OK);
	RT_EQ_U64(len, 8);
	RT_STR(buf, "{\"a\": 1}");
	RT_STR(why, "");
	/* cap 9: 8 bytes and the NUL fit; cap 8: one byte over */
	RT_EQ_INT(rfl_file_read(path, buf, 9, 1, &len, &why), RFL_OK);
	RT_EQ_INT(rfl_file_read(path, buf, 8, 1, &len, &why), RFL_ERR_BUFFER);
	RT_EQ_U64(len, 7);
	RT_STR(why, "larger than the cap");
	f = fopen(path, "wb");
	fwrite("ab\0cd", 1, 5, f);
	fclose(f);
	RT_EQ_INT(rfl_file_read(path, buf, sizeof buf, 1, &len, &why), RFL_ERR_FORMAT);
	RT_EQ_U64(len, 2); /* the NUL's offset */
	RT_EQ_INT(rfl_file_read(path, buf, sizeof buf, 0, &len, &why), RFL_OK); /* not text: kept */
	RT_EQ_U64(len, 5);
	remove(path);
	RT_EQ_INT(rfl_file_read(path, buf, sizeof buf, 1, &len, &why), RFL_ERR_IO);
	RT_STR(why, "cannot be opened");
	RT_EQ_INT(rfl_file_read("build/test", buf, sizeof buf, 1, &len, &why), RFL_ERR_IO);
#ifdef EISDIR
	RT_STR(why, "is a directory");
#endif
}
#endif

int main(void) {
	test_conv();
	test_convtranspose();
	test_gemm_matmul();
	test_norms_acts();
	test_binary();
	test_pools();
	test_data_ops();
	test_shape_arith();
	test_fold_chain();
	test_position_ids();
	test_misc_ops();
	test_resize_unknown();
	test_recurrent();
	test_einsum();
	test_ms_attention();
	test_variadic();
	test_chunks();
	test_arena_skip();
	test_bad();
	test_unsorted_costs();
#ifndef RFL_NO_STDIO
	test_file();
	test_file_read();
#endif
	return rt_done();
}
