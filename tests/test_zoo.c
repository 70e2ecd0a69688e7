/* The zoo against PyTorch's own numbers. Expected values come from
   independent sources only:
   - torchvision's published parameter counts (typed in below from its docs
	 and from the issue);
   - tests/data/torch-zoo.json and torch-zoo-modules.json, captured with
	 FlopCounterMode and forward hooks on an H100 (dev/capture/zoo_ref.py,
	 see tests/data/CAPTURES.md), read at run time;
   - hand derivations of the first layers' input gradients, written here. */
#ifndef RFL_NO_CHART /* layers only: independent of the chart and PNG part */
#define RFL_NO_CHART
#endif
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"
#include <stdlib.h>

static rfl_layer rec[RFL_ZOO_MAX_LAYERS];
static char names[RFL_ZOO_NAMES_SIZE];

/* The integer after `"key": ` at or after p (before end when end != 0). */
static int json_u64(const char *p, const char *end, const char *key, unsigned long long *v) {
	char pat[96];
	const char *q;
	snprintf(pat, sizeof pat, "\"%s\": ", key);
	q = strstr(p, pat);
	if (!q || (end && q > end)) return 0;
	*v = strtoull(q + strlen(pat), 0, 10);
	return 1;
}

/* The key "Root.NAME" (pat is ".NAME\": {"): an occurrence preceded by a
   root class name without dots, not a longer path ending in NAME. */
static const char *find_key(const char *p, const char *end, const char *pat) {
	const char *q = p, *b;
	while ((q = strstr(q, pat)) != 0 && q < end) {
		for (b = q - 1; b > p && *b != '"' && *b != '.'; b--) {}
		if (*b == '"') return q;
		q++;
	}
	return 0;
}

static const char *model_section(const char *json, const char *model) {
	char pat[96];
	snprintf(pat, sizeof pat, "\"%s\": {", model);
	return strstr(json, pat);
}

static int build(rfl_net *net, const char *model, uint32_t res) {
	rfl_result r;
	rfl_net_init(net, rec, RFL_ZOO_MAX_LAYERS, names, sizeof names);
	r = rfl_zoo_build(net, model, res);
	if (r != RFL_OK)
		printf("  build %s: %s (%s)\n", model, rfl_result_str(r), net->err.where);
	return r == RFL_OK;
}

/* torchvision's published parameter counts; first-layer input gradients
   (= the first conv's forward mac) derived by hand for 224 x 224:
   2 x Cout x Hout x Wout x Cin x k x k. */
#define G_MB2 (2ull * 32 * 112 * 112 * 3 * 3 * 3)  /* 21,676,032: 3->32 3x3 s2 */
#define G_MB3 (2ull * 16 * 112 * 112 * 3 * 3 * 3)  /* 10,838,016: 3->16 3x3 s2 */
#define G_SH (2ull * 24 * 112 * 112 * 3 * 3 * 3)   /* 16,257,024: 3->24 3x3 s2 */
#define G_RN (2ull * 64 * 112 * 112 * 3 * 7 * 7)   /* 236,027,904: 3->64 7x7 s2 */
#define G_VIT16 (2ull * 768 * 14 * 14 * 3 * 16 * 16) /* 231,211,008 */
#define G_VIT32 (2ull * 768 * 7 * 7 * 3 * 32 * 32)   /* 231,211,008 */
#define G_CNX (2ull * 96 * 56 * 56 * 3 * 4 * 4)    /* 28,901,376: 3->96 4x4 s4 */
#define NZOO 30
static const struct {
	const char *name;
	unsigned long long params;
	unsigned long long first_grad; /* 0: FlopCounterMode's backward is right */
} zoo[NZOO] = {
	{"resnet18", 11689512ull, 0},
	{"resnet34", 21797672ull, 0},
	{"resnet50", 25557032ull, 0},
	{"alexnet", 61100840ull, 0},
	{"vgg16", 138357544ull, 0},
	/* depthwise convs: FlopCounterMode's backward is wrong; rule instead */
	{"mobilenet_v2", 3504872ull, G_MB2},
	{"mobilenet_v3_large", 5483032ull, G_MB3},
	{"squeezenet1_1", 1235496ull, 0},
	{"shufflenet_v2_x1_0", 2278604ull, G_SH},
	{"efficientnet_b0", 5288548ull, G_MB2},
	{"densenet121", 7978856ull, 0},
	/* SDPA: FlopCounterMode counts a recomputation in backward; rule instead */
	{"vit_b_16", 86567656ull, G_VIT16},
	/* more of torchvision's models */
	{"resnet101", 44549160ull, 0},
	{"resnet152", 60192808ull, 0},
	{"wide_resnet50_2", 68883240ull, 0},
	{"resnext50_32x4d", 25028904ull, G_RN},
	{"vgg11", 132863336ull, 0},
	{"vgg19", 143667240ull, 0},
	{"mobilenet_v3_small", 2542856ull, G_MB3},
	{"squeezenet1_0", 1248424ull, 0},
	{"shufflenet_v2_x0_5", 1366792ull, G_SH},
	{"efficientnet_b1", 7794184ull, G_MB2},
	{"densenet169", 14149480ull, 0},
	{"vit_b_32", 88224232ull, G_VIT32},
	{"mnasnet1_0", 4383312ull, G_MB2},
	{"googlenet", 6624904ull, 0},
	{"inception_v3", 23834568ull, 0}, /* at 299 x 299, its default */
	{"regnet_y_400mf", 4344144ull, G_MB2},
	{"convnext_tiny", 28589128ull, G_CNX},
	{"swin_t", 28288354ull, 0},
};

static void test_model(const char *json, const char *mods, int k) {
	rfl_net net;
	rfl_net_cost c1, c2, c256;
	rfl_cost_desc d;
	rfl_summary s;
	const char *sec = model_section(json, zoo[k].name), *sum;
	unsigned long long fwd1 = 0, bwd1 = 0, fwd2 = 0, rows = 0, outs = 0, hp = 0, v;
	int i, checked = 0, linears = 0;
	printf("  %s\n", zoo[k].name);
	if (!RT_CHECK(sec != 0)) return;
	RT_CHECK(json_u64(sec, 0, "forward", &fwd1));
	RT_CHECK(json_u64(sec, 0, "backward", &bwd1));
	RT_CHECK(json_u64(strstr(sec, "\"b2\""), 0, "forward", &fwd2));
	sum = strstr(sec, "\"summary\"");
	RT_CHECK(json_u64(sum, 0, "rows", &rows) && json_u64(sum, 0, "total_output_per_sample", &outs) &&
			 json_u64(sum, 0, "hooked_params", &hp));
	RT_CHECK(json_u64(sec, 0, "res", &v));
	if (!RT_CHECK(build(&net, zoo[k].name, (uint32_t)v))) return;
	RT_CHECK(json_u64(sec, 0, "params", &v));
	memset(&d, 0, sizeof d);
	d.batch = 1;
	RT_EQ_INT(rfl_net_cost_get(&net, &d, &c1), RFL_OK);
	d.batch = 2;
	RT_EQ_INT(rfl_net_cost_get(&net, &d, &c2), RFL_OK);
	d.batch = 256;
	RT_EQ_INT(rfl_net_cost_get(&net, &d, &c256), RFL_OK);
	RT_EQ_U64(c1.params, zoo[k].params);
	RT_EQ_U64(c1.params, v);
	RT_EQ_U64(c256.params, zoo[k].params);
	/* forward mac_flops: FlopCounterMode, exactly, and proportional to batch */
	RT_EQ_U64(c1.fwd_mac_flops, fwd1);
	RT_EQ_U64(c2.fwd_mac_flops, fwd2);
	RT_EQ_U64(c256.fwd_mac_flops, 256ull * fwd1);
	/* backward mac = 2 x forward - the first layer's input gradient */
	if (zoo[k].first_grad) {
		RT_EQ_U64(c1.bwd_mac_flops, 2 * fwd1 - zoo[k].first_grad);
		RT_EQ_U64(c256.bwd_mac_flops, 256ull * (2 * fwd1 - zoo[k].first_grad));
		RT_CHECK(bwd1 > c1.bwd_mac_flops); /* the tool overcounts here */
	} else {
		RT_EQ_U64(c1.bwd_mac_flops, bwd1);
		RT_EQ_U64(c256.bwd_mac_flops, 256ull * bwd1);
	}
	/* full FLOPs include the mac ones; backward about 2x forward */
	RT_CHECK(c1.fwd_flops > c1.fwd_mac_flops);
	RT_CHECK(c1.bwd_flops > c1.fwd_flops && c1.bwd_flops < 3 * c1.fwd_flops);
	/* torchsummary-style hooks: rows, outputs per sample, hooked params */
	RT_EQ_INT(rfl_net_summary(&net, &s), RFL_OK);
	RT_EQ_U64((unsigned long long)s.rows, rows);
	RT_EQ_U64(s.params, hp);
	RT_NEAR(s.fwd_bwd_mb, 2.0 * (double)outs * 4 / 1048576.0, 1e-15);
	/* per layer: every named conv's forward count equals FlopCounterMode's
	   count for the module of that name (torch's module paths) */
	{
		const char *msec = model_section(mods, zoo[k].name), *mend;
		mend = msec ? strstr(msec, "\"summary_rows\"") : 0;
		if (!RT_CHECK(msec && mend)) return;
		for (i = 0; i < net.count; i++) {
			const rfl_layer *L = &net.layers[i];
			char pat[160];
			const char *q;
			rfl_layer_cost lc;
			if ((L->op != RFL_OP_CONV2D && L->op != RFL_OP_LINEAR) || !L->name) continue;
			snprintf(pat, sizeof pat, ".%s\": {", L->name);
			q = find_key(msec, mend, pat);
			if (L->op == RFL_OP_LINEAR) {
				/* a Linear module that ran, with a bias: its forward is
				   aten.addmm (its backward counts aten.mm) */
				const char *e = q ? strchr(q, '}') : 0;
				if (!q || !(L->flags & RFL_LF_MODULE) || !(L->flags & RFL_LF_BIAS) ||
					!json_u64(q, e, "aten.addmm", &v))
					continue;
			} else {
				if (!RT_CHECK(q && q < mend)) { printf("     no module %s\n", L->name); continue; }
				if (!RT_CHECK(json_u64(q, strchr(q, '}'), "aten.convolution", &v))) continue;
			}
			RT_EQ_INT(rfl_layer_cost_get(&net, i, 0, &lc), RFL_OK);
			if (lc.fwd_mac_flops != v) printf("     %s\n", L->name);
			RT_EQ_U64(lc.fwd_mac_flops, v);
			checked++;
			if (L->op == RFL_OP_LINEAR) linears++;
		}
		RT_CHECK(checked > 0);
		/* every model but SqueezeNet (a conv classifier) ends in a Linear */
		RT_CHECK(linears > 0 || strncmp(zoo[k].name, "squeezenet", 10) == 0);
		/* torchsummary rows, in hook order: class, output numel, params */
		{
			const char *q = strstr(mend, "[");
			int row = 0, bad = 0;
			for (i = 0; i < net.count && q && !bad; i++) {
				const rfl_layer *L = &net.layers[i];
				char cls[48];
				size_t n;
				unsigned long long numel, params;
				if (!(L->flags & RFL_LF_MODULE)) continue;
				q = strstr(q, "[\"");
				if (!q) { bad = 1; break; }
				q += 2;
				n = strcspn(q, "\"");
				snprintf(cls, sizeof cls, "%.*s", (int)n, q);
				q = strchr(q, ']'); /* end of the shape */
				if (!q || sscanf(q, "], %llu, %llu]", &numel, &params) != 2) { bad = 1; break; }
				if (strcmp(cls, rfl_layer_class(&net, i)) || numel != L->out_numel ||
					params != L->params) {
					printf("     row %d: %s %llu %llu, ours %s %llu %llu\n", row, cls, numel, params,
						   rfl_layer_class(&net, i), (unsigned long long)L->out_numel,
						   (unsigned long long)L->params);
					bad = 1;
				}
				row++;
			}
			RT_CHECK(!bad);
			RT_EQ_U64((unsigned long long)row, rows);
		}
	}
}

/* torchsummary's printed totals, as the reports show them ("%0.2f"). */
static void test_summary_text(const char *model, const char *want[4], unsigned long long params) {
	rfl_net net;
	rfl_summary s;
	char b[4][32];
	if (!RT_CHECK(build(&net, model, 224))) return;
	RT_EQ_INT(rfl_net_summary(&net, &s), RFL_OK);
	RT_EQ_U64(s.params, params);
	snprintf(b[0], 32, "%0.2f", s.input_mb);
	snprintf(b[1], 32, "%0.2f", s.fwd_bwd_mb);
	snprintf(b[2], 32, "%0.2f", s.params_mb);
	snprintf(b[3], 32, "%0.2f", s.total_mb);
	RT_STR(b[0], want[0]);
	RT_STR(b[1], want[1]);
	RT_STR(b[2], want[2]);
	RT_STR(b[3], want[3]);
}

int main(void) {
	char *json = rt_slurp("tests/data/torch-zoo.json", 0);
	char *mods = rt_slurp("tests/data/torch-zoo-modules.json", 0);
	int k;
	rfl_net net;
	rfl_net_cost c;
	rfl_cost_desc d;
	char lab[64];
	static const char *r18[4] = {"0.57", "62.79", "44.59", "107.96"};
	static const char *alex[4] = {"0.57", "8.38", "233.08", "242.03"};
	if (!RT_CHECK(json && mods)) return rt_done();
	RT_EQ_INT(rfl_zoo_count(), NZOO);
	for (k = 0; k < NZOO; k++) {
		RT_STR(rfl_zoo_name(k), zoo[k].name);
		test_model(json, mods, k);
	}
	RT_CHECK(rfl_zoo_name(NZOO) == 0);

	/* the reports' torchsummary tables */
	test_summary_text("resnet18", r18, 11689512ull);
	test_summary_text("alexnet", alex, 61100840ull);
	/* torchsummary's row labels: ResNet-18's first block row is the 11th */
	RT_CHECK(build(&net, "resnet18", 224));
	{
		int i, row = 0;
		for (i = 0; i < net.count; i++)
			if (net.layers[i].flags & RFL_LF_MODULE && ++row == 11) break;
		rfl_layer_label(&net, i, lab, sizeof lab);
		RT_STR(lab, "BasicBlock-11");
		RT_STR(net.layers[i].name, "layer1.0");
		rfl_layer_shape_str(&net, i, 0, lab, sizeof lab);
		RT_STR(lab, "[-1, 64, 56, 56]");
	}

	/* ResNet-18 first conv input gradient, from the fixture's README */
	memset(&d, 0, sizeof d);
	RT_EQ_INT(rfl_net_cost_get(&net, &d, &c), RFL_OK);
	RT_EQ_U64(2 * c.fwd_mac_flops - c.bwd_mac_flops, 236027904ull);

	/* pen-and-paper convention: AlexNet forward 1,428,386,152 */
	RT_CHECK(build(&net, "alexnet", 224));
	d.convention = RFL_CONV_REPORT;
	RT_EQ_INT(rfl_net_cost_get(&net, &d, &c), RFL_OK);
	RT_EQ_U64(c.fwd_mac_flops, 1428386152ull);

	/* names: case and separators ignored; unknown -> error */
	RT_CHECK(build(&net, "ResNet-18", 224));
	rfl_net_init(&net, rec, RFL_ZOO_MAX_LAYERS, names, sizeof names);
	RT_EQ_INT(rfl_zoo_build(&net, "resnet19", 224), RFL_ERR_UNKNOWN_NAME);
	/* a resolution too small for AlexNet's three max pools */
	rfl_net_init(&net, rec, RFL_ZOO_MAX_LAYERS, names, sizeof names);
	RT_EQ_INT(rfl_zoo_build(&net, "alexnet", 32), RFL_ERR_SHAPE);
	/* ViT needs a multiple of the 16-pixel patch */
	rfl_net_init(&net, rec, RFL_ZOO_MAX_LAYERS, names, sizeof names);
	RT_EQ_INT(rfl_zoo_build(&net, "vit_b_16", 200), RFL_ERR_SHAPE);
	/* another resolution: ResNet-18 at 112, same params; its first conv
	   makes 56 x 56: 2 x 64 x 56 x 56 x 3 x 7 x 7 */
	RT_CHECK(build(&net, "resnet18", 112));
	memset(&d, 0, sizeof d);
	RT_EQ_INT(rfl_net_cost_get(&net, &d, &c), RFL_OK);
	RT_EQ_U64(c.params, 11689512ull);
	{
		rfl_layer_cost lc;
		RT_EQ_INT(rfl_layer_cost_get(&net, 1, &d, &lc), RFL_OK);
		RT_EQ_U64(lc.fwd_mac_flops, 2ull * 64 * 56 * 56 * 3 * 7 * 7);
		RT_EQ_U64(net.layers[net.count - 1].shape[0], 1000);
	}
	/* the zoo is too big for a small array: an error, not an overflow */
	{
		static rfl_layer small[50];
		rfl_net_init(&net, small, 50, 0, 0);
		RT_EQ_INT(rfl_zoo_build(&net, "resnet18", 224), RFL_ERR_BUFFER);
		RT_EQ_INT(net.err.index, 50);
		rfl_net_init(&net, rec, RFL_ZOO_MAX_LAYERS, names, 100);
		RT_EQ_INT(rfl_zoo_build(&net, "resnet18", 224), RFL_ERR_BUFFER);
	}
	free(json);
	free(mods);
	return rt_done();
}
