/* make_onnx_seeds.c - writes fuzz/seeds/onnx/{cnn,shape_arith}: two small models
   from tests/onnx_pb.h, each after fuzz_onnx.c's 3 config bytes. Run from the
   repository root:
	   cc -Itests fuzz/seeds/make_onnx_seeds.c -o /tmp/mk && /tmp/mk */
#include <stdio.h>
#include "onnx_pb.h"
static void save(const char *path, const pb *m, const char *cfg) {
	FILE *f = fopen(path, "wb");
	fwrite(cfg, 1, 3, f); fwrite(m->b, 1, m->n, f); fclose(f);
}
int main(void) {
	static const int64_t zero = 0, ax0[1] = {0}, m1[1] = {-1}, pads[8] = {0,0,1,1,0,0,1,1};
	g_begin();
	g_input("x", "N,3,16,16");
	g_weight("w", "8,3,3,3");
	n_begin("Conv", "conv", "x,w", "y"); a_ints("pads", "1,1,1,1"); n_end();
	n_begin("Relu", "relu", "y", "r"); n_end();
	n_begin("MaxPool", "mp", "r", "q"); a_ints("kernel_shape", "2,2"); a_ints("strides", "2,2"); n_end();
	n_begin("GlobalAveragePool", "gap", "q", "p"); n_end();
	n_begin("Flatten", "flat", "p", "f"); n_end();
	g_weight("fw", "10,8"); g_weight("fb", "10");
	n_begin("Gemm", "fc", "f,fw,fb", "out"); a_int("transB", 1); n_end();
	g_output("out");
	save("fuzz/seeds/onnx/cnn", g_model_bytes(13), "\001\002\001");
	g_begin();
	g_input("x", "batch,seq,6");
	n_begin("Shape", "shape", "x", "s"); n_end();
	g_init_i64("zero", "", &zero, 1);
	n_begin("Gather", "g0", "s,zero", "b"); n_end();
	g_init_i64("ax0", "1", ax0, 1);
	n_begin("Unsqueeze", "u0", "b,ax0", "bu"); n_end();
	n_begin("Constant", "k", "", "m1"); a_tensor_i64("value", "1", m1, 1); n_end();
	n_begin("Concat", "c0", "bu,m1", "target"); a_int("axis", 0); n_end();
	n_begin("Reshape", "rs", "x,target", "r"); n_end();
	g_weight("W", "42,8");
	n_begin("MatMul", "mm", "r,W", "h"); n_end();
	n_begin("Softmax", "sm", "h", "p"); n_end();
	g_init_i64("pads", "8", pads, 8);
	g_output("p");
	save("fuzz/seeds/onnx/shape_arith", g_model_bytes(13), "\000\003\002");
	return 0;
}
