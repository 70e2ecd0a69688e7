/* make_ops.c - writes the ONNX fixtures of tests/onnx/ops/ with the tiny
   protobuf writer of tests/onnx_pb.h (no onnx package needed):
	 lstm.onnx    an LSTM as torch exports nn.LSTM(8, 16) for a sequence of
				  10 and a batch of 1: X [10, 1, 8] fixed, then a MatMul of
				  Y_h by a [16, 4] weight. The batch is axis 1 of X.
	 gru-dyn.onnx a GRU over X [seq, batch, 8] with both axes symbolic
	 einsum.onnx  "bij,bjk->bik" of two inputs [batch, 3, 4] and [batch, 4, 5]
   Hand counts: tests/steps/onnx-tools.sh.
	   cc -I. -Wno-unused-function tests/onnx/make_ops.c -o build/make_ops
	   build/make_ops   (from the repository root) */
#include <stdio.h>
#include "tests/onnx_pb.h"

static int save(const char *path) {
	const pb *m = g_model_bytes(14);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(m->b, 1, m->n, f) != m->n || fclose(f)) {
		fprintf(stderr, "make_ops: cannot write %s\n", path);
		return 1;
	}
	return 0;
}

int main(void) {
	int bad = 0;
	g_begin();
	g_input("X", "10,1,8");
	g_weight("W", "1,64,8"), g_weight("R", "1,64,16"), g_weight("B", "1,128");
	n_begin("LSTM", "lstm", "X,W,R,B", "Y,Y_h,Y_c");
	a_int("hidden_size", 16);
	n_end();
	g_weight("head", "16,4");
	n_begin("MatMul", "head", "Y_h,head", "logits");
	n_end();
	g_output("logits");
	bad |= save("tests/onnx/ops/lstm.onnx");

	g_begin();
	g_input("X", "seq,batch,8");
	g_weight("W", "1,48,8"), g_weight("R", "1,48,16");
	n_begin("GRU", "gru", "X,W,R", "Y,Y_h");
	a_int("hidden_size", 16);
	n_end();
	g_output("Y_h");
	bad |= save("tests/onnx/ops/gru-dyn.onnx");

	g_begin();
	g_input("a", "batch,3,4");
	g_input("b", "batch,4,5");
	n_begin("Einsum", "bmm", "a,b", "c");
	a_str("equation", "bij,bjk->bik");
	n_end();
	g_output("c");
	bad |= save("tests/onnx/ops/einsum.onnx");
	return bad;
}
