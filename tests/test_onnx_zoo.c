/* The ONNX reader (issue 18) against PyTorch's numbers for the same models.
   The fixtures tests/onnx/zoo/ (.onnx) are torchvision models exported by
   tests/onnx/make_fixtures.py (torch 1.13's TorchScript exporter), their
   weights in deleted external data (squeezenet1_1: inline), resnet18 with
   a dynamic batch axis "batch". Expected values, none from the code under
   test:
   - mac_flops: tests/data/torch-zoo.json, FlopCounterMode's forward count
	 on torchvision (2 x multiply-adds of conv and matmul, no bias), b1 and
	 b2; its backward count too for the models of plain convolutions;
   - params: the exporter folds each BatchNormalization that follows a Conv
	 into it, so the file's float initializers are not torchvision's
	 parameters. Three independent checks:
	   . every file: python-onnx's own count of the float initializer
		 elements (MANIFEST.json, onnx_float_initializer_elements);
	   . no batch norm in the model (bn_channels 0): exactly the zoo's
		 params (torch-zoo.json);
	   . every BN folded (no BatchNormalization op left): the zoo's params
		 minus bn_channels, derived by hand: a folded BN of C channels takes
		 away its scale and shift (2C) and gives the conv before it, which
		 had no bias, a bias (C): -C each.
   - the inline squeezenet read by seeking past the payloads and by pushing
	 every byte (in odd chunks, as from a pipe): the same graph, and the
	 seeking pass reads under a quarter of the file. */
#ifndef RFL_NO_CHART
#define RFL_NO_CHART
#endif
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"
#include <stdlib.h>

#define ZOO_DIR "tests/onnx/zoo/"

/* The integer after "key": within the object that starts at `"model": {`
   (the first occurrence after `from`); 0 when absent. */
static int json_u64(const char *json, const char *model, const char *path, unsigned long long *v) {
	char pat[128];
	const char *p, *q = path;
	snprintf(pat, sizeof pat, "\"%s\": {", model);
	p = strstr(json, pat);
	while (p && q && *q) { /* path "b1.forward": each part in turn */
		const char *dot = strchr(q, '.');
		size_t n = dot ? (size_t)(dot - q) : strlen(q);
		snprintf(pat, sizeof pat, "\"%.*s\": ", (int)n, q);
		p = strstr(p, pat);
		if (p) p += strlen(pat);
		q = dot ? dot + 1 : 0;
	}
	if (!p || *p < '0' || *p > '9') return 0;
	*v = strtoull(p, 0, 10);
	return 1;
}

/* Does the manifest entry of `model` list op type `op`? */
static int manifest_has_op(const char *man, const char *model, const char *op) {
	char pat[128];
	const char *p, *end;
	snprintf(pat, sizeof pat, "\"%s\": {", model);
	p = strstr(man, pat);
	if (!p || !(p = strstr(p, "\"op_types\": ["))) return -1;
	end = strchr(p, ']');
	snprintf(pat, sizeof pat, "\"%s\"", op);
	p = strstr(p, pat);
	return p && p < end;
}

typedef struct loaded {
	rfl_onnx_graph g;
	rfl_onnx_info info;
	rfl_net net;
	rfl_net_cost cost;
	rfl_layer *layers;
	unsigned char *arena;
	size_t need;
	uint64_t pushed;      /* bytes pushed (the rest seeked over) */
	rfl_result r;
} loaded;

/* One pass over f: fread in chunks of `chunk`, seeking past payloads when
   `seek`; arena NULL: count mode. */
static rfl_result pass(FILE *f, int seek, size_t chunk, rfl_onnx_state *st, void *arena,
					   size_t size, rfl_onnx_graph *g, uint64_t *pushed) {
	static unsigned char buf[1 << 16];
	size_t n;
	rewind(f);
	rfl_onnx_init(st, arena, size);
	*pushed = 0;
	while ((n = fread(buf, 1, chunk, f)) > 0) {
		*pushed += n;
		if (rfl_onnx_push(st, buf, n)) break;
		if (seek && st->skip && fseek(f, (long)st->skip, SEEK_CUR) == 0)
			rfl_onnx_skip(st, st->skip);
	}
	if (st->err.code) return st->err.code;
	return rfl_onnx_finish(st, g);
}

/* Read (count pass, then into an arena of exactly st.need), build at
   batch/dims, cost at the batch the build used. */
static void load(loaded *L, const char *file, int seek, size_t chunk, uint64_t batch,
				 const char *dims) {
	char path[256];
	rfl_onnx_state st;
	rfl_onnx_desc d;
	rfl_cost_desc cd;
	FILE *f;
	memset(L, 0, sizeof *L);
	snprintf(path, sizeof path, ZOO_DIR "%s", file);
	f = fopen(path, "rb");
	if (!f) { L->r = RFL_ERR_IO; printf("cannot open %s\n", path); return; }
	L->r = pass(f, seek, chunk, &st, 0, 0, &L->g, &L->pushed);
	L->need = st.need;
	if (L->r == RFL_OK) {
		L->arena = (unsigned char *)malloc(L->need);
		L->r = pass(f, seek, chunk, &st, L->arena, L->need, &L->g, &L->pushed);
	}
	fclose(f);
	if (L->r != RFL_OK) { printf("%s: read: %s\n", file, st.err.msg); return; }
	L->layers = (rfl_layer *)malloc((size_t)L->g.record_bound * sizeof(rfl_layer) + 1);
	rfl_net_init(&L->net, L->layers, L->g.record_bound, 0, 0);
	memset(&d, 0, sizeof d);
	d.batch = batch;
	d.dims = dims;
	L->r = rfl_onnx_build(&L->g, &d, &L->net, &L->info);
	if (L->r != RFL_OK) { printf("%s: build: %s\n", file, L->info.err.msg); return; }
	memset(&cd, 0, sizeof cd);
	cd.batch = L->info.batch;
	L->r = rfl_net_cost_get(&L->net, &cd, &L->cost);
}

static void unload(loaded *L) {
	free(L->arena);
	free(L->layers);
}

static const char *const models[] = {
	"alexnet", "convnext_tiny", "densenet121", "efficientnet_b0", "googlenet", "mobilenet_v2",
	"mobilenet_v3_small", "regnet_y_400mf", "resnet18", "resnet50", "shufflenet_v2_x1_0",
	"squeezenet1_1", "vgg11", "vit_b_16"};

static int dense_model(const char *m) {
	static const char *const dense[] = {"alexnet", "densenet121", "googlenet", "resnet18",
										"resnet50", "squeezenet1_1", "vgg11"};
	size_t i;
	for (i = 0; i < sizeof dense / sizeof *dense; i++)
		if (strcmp(m, dense[i]) == 0) return 1;
	return 0;
}

/* One model at batch 1 against the zoo and the manifest. */
static void check_model(const char *zoo, const char *man, const char *m) {
	char file[96];
	unsigned long long fwd = 0, zparams = 0, iparams = 0, bn = 0;
	loaded L;
	int has_bn_op = manifest_has_op(man, m, "BatchNormalization");
	snprintf(file, sizeof file, "%s.onnx", m);
	RT_CHECK(json_u64(zoo, m, "b1.forward", &fwd) && json_u64(zoo, m, "params", &zparams));
	RT_CHECK(json_u64(man, m, "onnx_float_initializer_elements", &iparams) &&
			 json_u64(man, m, "bn_channels", &bn) && has_bn_op >= 0);
	load(&L, file, 1, 1 << 16, 0, 0);
	if (!RT_CHECK(L.r == RFL_OK)) { printf("     in %s: %s\n", m, rfl_result_str(L.r)); unload(&L); return; }
	printf("%-20s mac_flops %14llu zoo %14llu  params %10llu onnx %10llu zoo %10llu bn %6llu%s\n",
		   m, (unsigned long long)L.cost.fwd_mac_flops, fwd, (unsigned long long)L.cost.params,
		   iparams, zparams, bn, has_bn_op ? " (BN left)" : "");
	RT_EQ_U64(L.info.batch, 1);
	RT_EQ_U64(L.cost.fwd_mac_flops, fwd);
	RT_EQ_U64(L.g.params, iparams);
	RT_EQ_U64(L.cost.params, iparams);
	if (bn == 0) RT_EQ_U64(L.cost.params, zparams);
	else if (!has_bn_op) RT_EQ_U64(L.cost.params, zparams - bn);
	RT_EQ_INT(L.info.unknown_ops, 0);
	/* backward: FlopCounterMode's count, for the models of plain (ungrouped)
	   convolutions and linear layers, where it is 2 x forward minus the
	   first layer's input gradient; its grouped-conv and attention
	   backward counts follow other rules (the zoo's own build gives the
	   same numbers as the ONNX path there) */
	if (dense_model(m)) {
		unsigned long long bwd = 0;
		RT_CHECK(json_u64(zoo, m, "b1.backward", &bwd));
		RT_EQ_U64(L.cost.bwd_mac_flops, bwd);
	}
	unload(&L);
}

/* resnet18's batch axis is symbolic: --batch 2 gives the zoo's b2, 8 gives
   8 x b1, and the dim's name ("batch=4") works as well. */
static void check_dynamic_batch(const char *zoo) {
	unsigned long long b1 = 0, b2 = 0;
	loaded L;
	RT_CHECK(json_u64(zoo, "resnet18", "b1.forward", &b1) &&
			 json_u64(zoo, "resnet18", "b2.forward", &b2));
	load(&L, "resnet18.onnx", 1, 1 << 16, 2, 0);
	RT_CHECK(L.r == RFL_OK);
	RT_EQ_U64(L.info.batch, 2);
	RT_EQ_U64(L.cost.fwd_mac_flops, b2);
	unload(&L);
	load(&L, "resnet18.onnx", 1, 1 << 16, 8, 0);
	RT_CHECK(L.r == RFL_OK);
	RT_EQ_U64(L.info.batch, 8);
	RT_EQ_U64(L.cost.fwd_mac_flops, 8 * b1);
	unload(&L);
	load(&L, "resnet18.onnx", 1, 1 << 16, 0, "batch=4");
	RT_CHECK(L.r == RFL_OK);
	RT_EQ_U64(L.info.batch, 4);
	RT_EQ_U64(L.cost.fwd_mac_flops, 4 * b1);
	unload(&L);
	/* a fixed batch stays what the file says (alexnet was exported at 1) */
	load(&L, "alexnet.onnx", 1, 1 << 16, 0, 0);
	RT_EQ_U64(L.info.batch, 1);
	unload(&L);
}

/* squeezenet1_1 holds its 1.2 M weights inline (4.9 MB): seeking reads a
   small part of the file; pushing every byte in chunks of 4093 (a pipe)
   gives the same graph and the same counts. (Seeking still reads the rest
   of each 64 KiB chunk a payload starts in: many of squeezenet's tensors
   are smaller than that, so about a fifth of the file is read.) */
static void check_inline(const char *zoo) {
	unsigned long long fwd = 0;
	loaded S, P;
	FILE *f = fopen(ZOO_DIR "squeezenet1_1.onnx", "rb");
	long size = 0;
	if (f) { fseek(f, 0, SEEK_END); size = ftell(f); fclose(f); }
	RT_CHECK(size > 4000000); /* the weights are in the file */
	RT_CHECK(json_u64(zoo, "squeezenet1_1", "b1.forward", &fwd));
	load(&S, "squeezenet1_1.onnx", 1, 1 << 16, 0, 0);
	load(&P, "squeezenet1_1.onnx", 0, 4093, 0, 0);
	RT_CHECK(S.r == RFL_OK && P.r == RFL_OK);
	printf("squeezenet1_1 inline: %ld bytes, seeking pushed %llu, streaming pushed %llu; "
		   "arena %lu bytes\n", size, (unsigned long long)S.pushed, (unsigned long long)P.pushed,
		   (unsigned long)S.need);
	RT_CHECK(S.pushed * 4 < (uint64_t)size); /* 64 KiB reads: the rest of a chunk is read */
	RT_EQ_U64(P.pushed, (uint64_t)size);
	RT_EQ_U64(S.need, P.need);
	RT_EQ_INT(S.g.node_count, P.g.node_count);
	RT_EQ_INT(S.net.count, P.net.count);
	RT_EQ_U64(S.cost.fwd_mac_flops, fwd);
	RT_EQ_U64(P.cost.fwd_mac_flops, fwd);
	RT_EQ_U64(P.cost.fwd_flops, S.cost.fwd_flops);
	RT_EQ_U64(P.cost.fwd_bytes, S.cost.fwd_bytes);
	RT_EQ_U64(P.cost.params, S.cost.params);
	unload(&S);
	unload(&P);
}

int main(void) {
	char *zoo = rt_slurp("tests/data/torch-zoo.json", 0);
	char *man = rt_slurp(ZOO_DIR "MANIFEST.json", 0);
	size_t i;
	if (!RT_CHECK(zoo && man)) return rt_done();
	for (i = 0; i < sizeof models / sizeof *models; i++) check_model(zoo, man, models[i]);
	check_dynamic_batch(zoo);
	check_inline(zoo);
	free(zoo);
	free(man);
	return rt_done();
}
