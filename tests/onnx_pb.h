/* onnx_pb.h - a tiny protobuf writer for hand-made ONNX models in tests
   and the fuzz harness (field numbers from onnx.proto). Test code only. */
#ifndef ONNX_PB_H
#define ONNX_PB_H
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#define PB_CAP 65536
#if defined(__GNUC__)
#define PB_UNUSED __attribute__((unused))
#else
#define PB_UNUSED
#endif
typedef struct pb {
	unsigned char b[PB_CAP];
	size_t n;
} pb;

static void pb_reset(pb *p) { p->n = 0; }
static void pb_byte(pb *p, unsigned char c) {
	if (p->n < PB_CAP) p->b[p->n] = c;
	p->n++;
}
static void pb_varint(pb *p, uint64_t v) {
	while (v >= 0x80) pb_byte(p, (unsigned char)(v | 0x80)), v >>= 7;
	pb_byte(p, (unsigned char)v);
}
static void pb_tag(pb *p, int field, int wire) { pb_varint(p, ((uint64_t)field << 3) | (unsigned)wire); }
static void pb_bytes(pb *p, int field, const void *d, size_t n) {
	size_t i;
	pb_tag(p, field, 2);
	pb_varint(p, n);
	for (i = 0; i < n; i++) pb_byte(p, ((const unsigned char *)d)[i]);
}
static void pb_str(pb *p, int field, const char *s) { pb_bytes(p, field, s, strlen(s)); }
static void pb_int(pb *p, int field, int64_t v) { pb_tag(p, field, 0), pb_varint(p, (uint64_t)v); }
static void pb_float(pb *p, int field, float f) {
	uint32_t u;
	int i;
	memcpy(&u, &f, 4);
	pb_tag(p, field, 5);
	for (i = 0; i < 4; i++) pb_byte(p, (unsigned char)(u >> (8 * i)));
}
static void pb_msg(pb *p, int field, const pb *sub) { pb_bytes(p, field, sub->b, sub->n); }

/* A list "a,b,c" or "N,3,8,8": calls fn for each item. */
static int pb_split(const char *list, char items[][64], int max) {
	int n = 0;
	size_t k = 0;
	if (!list || !*list) return 0;
	items[0][0] = 0;
	for (; *list && n < max; list++) {
		if (*list == ',') { items[n][k] = 0; n++, k = 0; continue; }
		if (k < 63) items[n][k++] = *list;
	}
	items[n][k] = 0;
	return n + 1;
}

/* The graph under construction and a node under construction. */
static pb g_graph, g_node, g_tmp, g_tmp2, g_tmp3, g_model;

/* TensorProto: dims "2,3", type, name, int64 data (raw), or `raw` bytes
   of filler (a weight payload the reader must skip). */
static void pb_tensor(pb *t, const char *name, int type, const char *dims, const int64_t *vals,
					  int nvals, size_t filler) {
	char it[16][64];
	int n = pb_split(dims, it, 16), i;
	pb_reset(t);
	for (i = 0; i < n; i++) pb_int(t, 1, strtoll(it[i], 0, 10));
	pb_int(t, 2, type);
	if (name) pb_str(t, 8, name);
	if (nvals) {
		unsigned char raw[8 * 64];
		int k;
		for (i = 0; i < nvals; i++)
			for (k = 0; k < 8; k++) raw[8 * i + k] = (unsigned char)((uint64_t)vals[i] >> (8 * k));
		pb_bytes(t, 9, raw, (size_t)nvals * 8);
	} else if (filler) {
		size_t j;
		pb_tag(t, 9, 2);
		pb_varint(t, filler);
		for (j = 0; j < filler; j++) pb_byte(t, (unsigned char)(j * 7));
	}
}

static void g_begin(void) { pb_reset(&g_graph); }
/* initializer with int64 values */
static void g_init_i64(const char *name, const char *dims, const int64_t *vals, int n) {
	pb_tensor(&g_tmp, name, 7, dims, vals, n, 0);
	pb_msg(&g_graph, 5, &g_tmp);
}
/* a float weight of the given dims; its payload (4 bytes an element) is
   written as raw_data so the reader has something to skip */
static void g_weight(const char *name, const char *dims) {
	char it[16][64];
	int n = pb_split(dims, it, 16), i;
	size_t numel = 1;
	for (i = 0; i < n; i++) numel *= (size_t)strtoll(it[i], 0, 10);
	pb_tensor(&g_tmp, name, 1, dims, 0, 0, numel * 4 > 8192 ? 8192 : numel * 4);
	pb_msg(&g_graph, 5, &g_tmp);
}
/* ValueInfoProto: field 11 input, 12 output, 13 value_info; dims items are
   numbers or symbolic names; type 1 float / 7 int64 */
static void g_value(int field, const char *name, int type, const char *dims) {
	char it[16][64];
	int n = pb_split(dims, it, 16), i;
	pb_reset(&g_tmp3);           /* TensorShapeProto */
	for (i = 0; i < n; i++) {
		pb_reset(&g_tmp);        /* Dimension */
		if ((it[i][0] >= '0' && it[i][0] <= '9') || it[i][0] == '-') pb_int(&g_tmp, 1, strtoll(it[i], 0, 10));
		else pb_str(&g_tmp, 2, it[i]);
		pb_msg(&g_tmp3, 1, &g_tmp);
	}
	pb_reset(&g_tmp2);           /* TypeProto.Tensor */
	pb_int(&g_tmp2, 1, type);
	if (dims) pb_msg(&g_tmp2, 2, &g_tmp3);
	pb_reset(&g_tmp);            /* TypeProto */
	pb_msg(&g_tmp, 1, &g_tmp2);
	pb_reset(&g_tmp2);           /* ValueInfoProto */
	pb_str(&g_tmp2, 1, name);
	pb_msg(&g_tmp2, 2, &g_tmp);
	pb_msg(&g_graph, field, &g_tmp2);
}
static void g_input(const char *name, const char *dims) { g_value(11, name, 1, dims); }
static void g_output(const char *name) { g_value(12, name, 1, (const char *)0); }

static void n_begin(const char *op, const char *name, const char *ins, const char *outs) {
	char it[16][64];
	int n, i;
	pb_reset(&g_node);
	n = pb_split(ins, it, 16);
	for (i = 0; i < n; i++) pb_str(&g_node, 1, it[i]);
	n = pb_split(outs, it, 16);
	for (i = 0; i < n; i++) pb_str(&g_node, 2, it[i]);
	if (name) pb_str(&g_node, 3, name);
	pb_str(&g_node, 4, op);
}
static void a_int(const char *name, int64_t v) {
	pb_reset(&g_tmp);
	pb_str(&g_tmp, 1, name);
	pb_int(&g_tmp, 3, v);
	pb_int(&g_tmp, 20, 2);
	pb_msg(&g_node, 5, &g_tmp);
}
static PB_UNUSED void a_float(const char *name, float v) {
	pb_reset(&g_tmp);
	pb_str(&g_tmp, 1, name);
	pb_float(&g_tmp, 2, v);
	pb_int(&g_tmp, 20, 1);
	pb_msg(&g_node, 5, &g_tmp);
}
static void a_str(const char *name, const char *s) {
	pb_reset(&g_tmp);
	pb_str(&g_tmp, 1, name);
	pb_str(&g_tmp, 4, s);
	pb_int(&g_tmp, 20, 3);
	pb_msg(&g_node, 5, &g_tmp);
}
/* ints "1,1,1,1", packed */
static void a_ints(const char *name, const char *list) {
	char it[16][64];
	int n = pb_split(list, it, 16), i;
	pb_reset(&g_tmp2);
	for (i = 0; i < n; i++) pb_varint(&g_tmp2, (uint64_t)strtoll(it[i], 0, 10));
	pb_reset(&g_tmp);
	pb_str(&g_tmp, 1, name);
	pb_msg(&g_tmp, 8, &g_tmp2);
	pb_int(&g_tmp, 20, 7);
	pb_msg(&g_node, 5, &g_tmp);
}
/* a tensor attribute (Constant's value) with int64 data */
static void a_tensor_i64(const char *name, const char *dims, const int64_t *vals, int n) {
	pb_tensor(&g_tmp3, (const char *)0, 7, dims, vals, n, 0);
	pb_reset(&g_tmp);
	pb_str(&g_tmp, 1, name);
	pb_msg(&g_tmp, 5, &g_tmp3);
	pb_int(&g_tmp, 20, 4);
	pb_msg(&g_node, 5, &g_tmp);
}
static void n_end(void) { pb_msg(&g_graph, 1, &g_node); }

/* The model around the graph: ir_version 8, a producer (skipped), the
   default opset. */
static const pb *g_model_bytes(int opset) {
	pb_reset(&g_model);
	pb_int(&g_model, 1, 8);
	pb_str(&g_model, 2, "onnx_pb.h");
	pb_msg(&g_model, 7, &g_graph);
	pb_reset(&g_tmp);
	pb_str(&g_tmp, 1, "");
	pb_int(&g_tmp, 2, opset);
	pb_msg(&g_model, 8, &g_tmp);
	return &g_model;
}
#endif
