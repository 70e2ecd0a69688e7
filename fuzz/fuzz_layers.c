/* fuzz_layers.c - the layer builder and cost functions on arbitrary
   parameters: shapes up to 2^32-1 (resolutions up to 2^20 most often),
   batches up to 2^31 (sometimes any 64-bit value), every op with handles
   that may name no layer, every dtype / convention / mode (and invalid
   ones), and the zoo at any resolution. Properties:
   - no UB, no out-of-bounds access (ASan/UBSan; this harness also builds
	 with -fsanitize=unsigned-integer-overflow, so a count that silently
	 wraps is a finding even where the result looks plausible);
   - the builder's error is sticky and a failed call returns RFL_NO_TENSOR
	 and adds nothing; count <= cap;
   - costs at a batch equal the per-sample counts x batch computed here in
	 128-bit arithmetic, or the call returns RFL_ERR_OVERFLOW exactly when
	 that product does not fit 64 bits; conv and linear per-sample counts
	 are recomputed here from the parameters passed (independent formula:
	 torch's output size and 2 x cout x cin/groups x kh x kw x oh x ow);
   - the label and shape writers never write past their buffer. */
#define ROOFLINE_IMPLEMENTATION
#define RFL_NO_CHART
#include "roofline.h"
#include "fuzz_util.h"

__extension__ typedef unsigned __int128 u128;
#define U64MAX ((u128)UINT64_MAX)

#define CAP 48
typedef struct conv_note {
	int used, is_linear;
	rfl_conv_desc d;
	uint32_t lin_out;
	int lin_bias;
} conv_note;

static uint32_t dim(fz_in *in) {
	/* mostly image-like sizes up to 2^20, sometimes any 32-bit value */
	return (fz_u8(in) & 15) == 0 ? (uint32_t)fz_range(in, 0xFFFFFFFFu)
								 : (uint32_t)fz_range(in, 1u << 20);
}
static uint32_t small(fz_in *in) {
	return (fz_u8(in) & 7) == 0 ? (uint32_t)fz_range(in, 0xFFFFFFFFu) : (uint32_t)fz_range(in, 16);
}
static rfl_tensor handle(fz_in *in, const rfl_net *net) {
	/* usually a valid layer, sometimes out of range or negative */
	uint8_t k = fz_u8(in);
	if (k == 255) return (rfl_tensor)(int32_t)fz_u32(in);
	if (k == 254) return RFL_NO_TENSOR;
	return net->count ? (rfl_tensor)(k % (net->count + 1)) : 0;
}

/* 128-bit torch conv output size; 0 when invalid */
static u128 conv_out(u128 n, u128 k, u128 s, u128 p, u128 dl) {
	u128 e = dl * (k - 1) + 1;
	if (n + 2 * p < e) return 0;
	return (n + 2 * p - e) / s + 1;
}

static void check_conv(const rfl_net *net, int i, const conv_note *cn) {
	const rfl_layer *L = &net->layers[i], *X = &net->layers[L->in[0]];
	u128 kh, kw, sh, sw, ph, pw, dh, dw, g, oh, ow, mac;
	const rfl_conv_desc *d = &cn->d;
	if (cn->is_linear) {
		u128 inf = X->shape[X->rank - 1], tokens = X->out_numel / X->shape[X->rank - 1];
		mac = 2 * inf * cn->lin_out * tokens;
		FZ_CHECK(mac <= U64MAX && L->mac_flops == (uint64_t)mac);
		FZ_CHECK(L->params == (uint64_t)(inf * cn->lin_out + (cn->lin_bias ? cn->lin_out : 0)));
		return;
	}
	kh = d->kernel_h;
	kw = d->kernel_w ? d->kernel_w : kh;
	sh = d->stride_h ? d->stride_h : 1;
	sw = d->kernel_w ? (d->stride_w ? d->stride_w : sh) : sh;
	dh = d->dilation_h ? d->dilation_h : 1;
	dw = d->kernel_w ? (d->dilation_w ? d->dilation_w : dh) : dh;
	ph = d->pad_h;
	pw = d->kernel_w ? d->pad_w : ph;
	g = d->groups ? d->groups : 1;
	oh = conv_out(X->shape[1], kh, sh, ph, dh);
	ow = conv_out(X->shape[2], kw, sw, pw, dw);
	FZ_CHECK(oh && ow && L->shape[0] == d->out_channels);
	FZ_CHECK(L->shape[1] == (uint32_t)oh && (u128)L->shape[1] == oh);
	FZ_CHECK(L->shape[2] == (uint32_t)ow && (u128)L->shape[2] == ow);
	/* 2 * cout * cin/g * kh * kw * oh * ow can exceed 128 bits in theory
	   (2^32 each): check in steps, saturating */
	mac = (u128)d->out_channels * (X->shape[0] / g);
	mac = mac * kh;
	if (mac > U64MAX) mac = U64MAX + 1;
	mac = mac * kw;
	if (mac > U64MAX) mac = U64MAX + 1;
	mac = mac * oh;
	if (mac > U64MAX) mac = U64MAX + 1;
	mac = mac * ow * 2;
	FZ_CHECK(mac <= U64MAX); /* else the builder must have failed */
	FZ_CHECK(L->mac_flops == (uint64_t)mac);
}

static void check_costs(const rfl_net *net, const rfl_cost_desc *d, fz_in *in) {
	int i;
	u128 B = d->batch ? d->batch : 1, sum_fwd = 0;
	int all_ok = 1;
	rfl_net_cost nc;
	rfl_result r;
	for (i = 0; i < net->count; i++) {
		const rfl_layer *L = &net->layers[i];
		rfl_layer_cost c;
		rfl_work fw, bw;
		u128 fm, ff, ext;
		char buf[80 + 16];
		size_t sz = fz_u8(in) % 80, len, k;
		r = rfl_layer_cost_get(net, i, d, &c);
		if ((unsigned)d->dtype >= RFL_DTYPE_COUNT || d->dtype == RFL_DTYPE_INT4) {
			FZ_CHECK(r == RFL_ERR_ARG);
			all_ok = 0;
			continue;
		}
		fm = (u128)L->mac_flops * B;
		ff = (u128)L->flops * B;
		ext = d->convention == RFL_CONV_REPORT ? (u128)L->bias_flops * B : 0;
		if (L->op == RFL_OP_MARK || L->op == RFL_OP_PARAM) {
			FZ_CHECK(r == RFL_OK && c.fwd_flops == 0);
		} else if (fm > U64MAX || ff > U64MAX || ext > U64MAX) {
			FZ_CHECK(r == RFL_ERR_OVERFLOW);
		} else if (r == RFL_OK) {
			FZ_CHECK(c.fwd_mac_flops == (uint64_t)(fm + ext) && fm + ext <= U64MAX);
			FZ_CHECK(c.fwd_flops == (uint64_t)ff);
			/* backward FLOPs are at most 2 x (forward + ext) + output:
			   a wrapped count would be far off */
			FZ_CHECK((u128)c.bwd_flops <= 2 * (ff + ext) + (u128)L->out_numel * B);
			if ((L->op == RFL_OP_CONV2D || L->op == RFL_OP_LINEAR) && L->needs_grad) {
				u128 bm = fm * ((L->flags & RFL_LF_NOGRAD) ? 1 : 2) + ext;
				FZ_CHECK(bm <= U64MAX && c.bwd_mac_flops == (uint64_t)bm);
			}
			if ((L->op == RFL_OP_MATMUL || L->op == RFL_OP_ATTENTION) && L->needs_grad)
				FZ_CHECK(c.bwd_mac_flops == (uint64_t)(2 * fm) && 2 * fm <= U64MAX);
		} else {
			FZ_CHECK(r == RFL_ERR_OVERFLOW);
		}
		if (r != RFL_OK) all_ok = 0;
		else sum_fwd += c.fwd_flops;
		r = rfl_layer_work(net, i, d, &fw, &bw);
		if (r == RFL_OK) FZ_CHECK(fw.flops[0] == fw.flops[0]); /* not NaN */
		memset(buf, 0xA5, sizeof buf);
		len = rfl_layer_label(net, i, buf, sz);
		for (k = sz; k < sizeof buf; k++) FZ_CHECK((unsigned char)buf[k] == 0xA5);
		FZ_CHECK(len == 0 || (len < sz && strlen(buf) == len));
		memset(buf, 0xA5, sizeof buf);
		len = rfl_layer_shape_str(net, i, d->batch, buf, sz);
		for (k = sz; k < sizeof buf; k++) FZ_CHECK((unsigned char)buf[k] == 0xA5);
		FZ_CHECK(len == 0 || (len < sz && strlen(buf) == len));
		FZ_CHECK(rfl_layer_class(net, i) != NULL);
	}
	r = rfl_net_cost_get(net, d, &nc);
	if (net->err.code) FZ_CHECK(r == RFL_ERR_STATE);
	else if (r == RFL_OK) {
		FZ_CHECK(all_ok);
		FZ_CHECK(sum_fwd <= U64MAX && nc.fwd_flops == (uint64_t)sum_fwd);
	} else if (all_ok && sum_fwd <= U64MAX && net->count > 0) {
		FZ_CHECK(r == RFL_ERR_OVERFLOW); /* a sum or a byte count too big */
	}
	if (!net->err.code) {
		const rfl_machine *m = rfl_hw_get(fz_u8(in) % (rfl_hw_count() + 1));
		rfl_net_prediction np;
		rfl_summary s;
		if (m) {
			r = rfl_net_predict(net, d, m, &np);
			if (r == RFL_OK) FZ_CHECK(np.whole.time_s >= 0 && np.layers_s >= 0);
		}
		if (rfl_net_summary(net, &s) == RFL_OK) FZ_CHECK(s.total_mb >= 0);
	}
}

static void build_random(rfl_net *net, fz_in *in, conv_note *notes) {
	int steps = 0;
	rfl_input(net, dim(in), dim(in), dim(in));
	while (fz_left(in) > 0 && steps++ < 64) {
		uint8_t op = fz_u8(in) % 24;
		int before = net->count, had_err = net->err.code != RFL_OK;
		rfl_tensor x = handle(in, net), y = RFL_NO_TENSOR, t;
		conv_note cn;
		memset(&cn, 0, sizeof cn);
		switch (op) {
		case 0: case 1:
			cn.used = 1;
			cn.d.out_channels = small(in) ? dim(in) : 0;
			cn.d.kernel_h = small(in);
			cn.d.kernel_w = (fz_u8(in) & 3) ? 0 : small(in);
			cn.d.stride_h = small(in);
			cn.d.stride_w = small(in);
			cn.d.pad_h = small(in);
			cn.d.pad_w = small(in);
			cn.d.dilation_h = small(in);
			cn.d.dilation_w = small(in);
			cn.d.groups = small(in);
			cn.d.bias = fz_u8(in) & 1;
			y = rfl_conv_ex(net, x, &cn.d);
			break;
		case 2:
			cn.used = cn.is_linear = 1;
			cn.lin_out = dim(in);
			cn.lin_bias = fz_u8(in) & 1;
			y = rfl_linear(net, x, cn.lin_out, cn.lin_bias);
			break;
		case 3: y = rfl_matmul(net, x, handle(in, net)); break;
		case 4: t = handle(in, net); y = rfl_attention(net, x, t, handle(in, net), small(in)); break;
		case 5: y = rfl_batchnorm(net, x); break;
		case 6: y = rfl_layernorm(net, x); break;
		case 7: y = rfl_act(net, x, (rfl_act_kind)(fz_u8(in) % (RFL_ACT_COUNT + 1))); break;
		case 8: y = rfl_softmax(net, x); break;
		case 9: {
			uint32_t k = small(in), s = small(in), p = small(in);
			y = rfl_maxpool(net, x, k, s, p, fz_u8(in) & 1);
			break;
		}
		case 10: {
			uint32_t k = small(in), s = small(in), p = small(in);
			y = rfl_avgpool(net, x, k, s, p, fz_u8(in) & 1);
			break;
		}
		case 11: { uint32_t h = dim(in); y = rfl_adaptive_avgpool(net, x, h, dim(in)); break; }
		case 12: y = rfl_add(net, x, handle(in, net)); break;
		case 13: y = rfl_mul(net, x, handle(in, net)); break;
		case 14: {
			rfl_tensor xs[4];
			int n = fz_u8(in) % 5, k;
			for (k = 0; k < 4; k++) xs[k] = handle(in, net);
			y = rfl_concat(net, n ? xs : NULL, n, (int)(fz_u8(in) % 5) - 1);
			break;
		}
		case 15: y = rfl_shuffle(net, x, small(in)); break;
		case 16: y = rfl_flatten(net, x); break;
		case 17: {
			uint32_t a = dim(in), b = dim(in), c = dim(in);
			y = rfl_reshape(net, x, a, b, c, dim(in));
			break;
		}
		case 18: { int a = (int)(fz_u8(in) % 6) - 1; y = rfl_transpose(net, x, a, (int)(fz_u8(in) % 6) - 1); break; }
		case 19: { int dd = (int)(fz_u8(in) % 6) - 1; uint32_t s = dim(in); y = rfl_slice(net, x, dd, s, dim(in)); break; }
		case 20: y = rfl_dropout(net, x); break;
		case 21: { uint32_t v = dim(in); y = rfl_embedding(net, x, v, dim(in)); break; }
		case 22: y = rfl_mark(net, x, "Block"); break;
		default: { uint32_t a = dim(in), b = dim(in); y = rfl_param(net, a, b, dim(in)); break; }
		}
		/* sticky errors: a failed call adds nothing and reports */
		if (y == RFL_NO_TENSOR) {
			FZ_CHECK(net->err.code != RFL_OK && net->count == before);
		} else {
			FZ_CHECK(!had_err && y == before && net->count == before + 1);
			if (cn.used) notes[y] = cn;
		}
		if (had_err) FZ_CHECK(y == RFL_NO_TENSOR);
		FZ_CHECK(net->count <= net->cap);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	static rfl_layer rec[RFL_ZOO_MAX_LAYERS];
	static char names[RFL_ZOO_NAMES_SIZE];
	conv_note notes[CAP];
	rfl_net net;
	rfl_cost_desc d;
	fz_in in;
	int i, cap;
	uint8_t mode;
	fz_init(&in, data, size);
	memset(&d, 0, sizeof d);
	memset(notes, 0, sizeof notes);
	mode = fz_u8(&in);
	d.batch = (mode & 0x80) ? fz_u64(&in) : fz_range(&in, (uint64_t)1 << 31);
	d.dtype = (rfl_dtype)(fz_u8(&in) % (RFL_DTYPE_COUNT + 1));
	d.convention = (rfl_flop_conv)(fz_u8(&in) & 1);
	d.mode = (rfl_mode)(fz_u8(&in) & 1);
	if (mode & 1) {
		/* a zoo model at any resolution */
		const char *name = rfl_zoo_name(fz_u8(&in) % rfl_zoo_count());
		uint32_t res = (fz_u8(&in) & 3) ? (uint32_t)fz_range(&in, 1u << 20) : fz_u32(&in);
		size_t nsz = (fz_u8(&in) & 1) ? sizeof names : fz_range(&in, sizeof names);
		cap = (fz_u8(&in) & 1) ? RFL_ZOO_MAX_LAYERS : (int)fz_range(&in, RFL_ZOO_MAX_LAYERS);
		if (rfl_net_init(&net, rec, cap, names, nsz) != RFL_OK) {
			FZ_CHECK(cap < 1);
			return 0;
		}
		if (rfl_zoo_build(&net, name, res) != RFL_OK) FZ_CHECK(net.err.code != RFL_OK || 1);
		FZ_CHECK(net.count <= cap && net.names_used <= nsz);
	} else {
		cap = 1 + fz_u8(&in) % CAP;
		FZ_CHECK(rfl_net_init(&net, rec, cap, (fz_u8(&in) & 1) ? names : NULL,
							  fz_range(&in, 256)) == RFL_OK);
		build_random(&net, &in, notes);
		for (i = 0; i < net.count && i < CAP; i++)
			if (notes[i].used) check_conv(&net, i, &notes[i]);
	}
	check_costs(&net, &d, &in);
	return 0;
}
