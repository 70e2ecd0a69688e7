/* fuzz_chart.c - the chart writer on arbitrary canvases and values.
   Each input sets up one canvas (any size, channels, stride, and an exact
   heap buffer with guard bytes after it) and draws primitives and one
   chart with values taken from the bytes: NaN, infinities, zeros and
   negatives (on log axes too), huge and tiny numbers, out-of-range
   enums, machines with absurd ceilings, labels up to 2,000 bytes of any
   byte. Properties:
   - rfl_canvas_init accepts exactly the documented sizes (sides 0..32768,
	 channels 0/3/4, stride 0 or >= w x channels, enough bytes) and
	 rejects the rest with RFL_ERR_ARG / RFL_ERR_BUFFER;
   - nothing outside the pixels is written: the guard bytes after the
	 buffer and the padding at the end of each row (stride > w x channels)
	 keep their pattern; primitives drawn under a clip rectangle leave
	 every pixel outside it untouched;
   - the ASCII chart writes no byte past `size`, and on success exactly
	 rows lines of cols characters and a NUL;
   - PNG encoding (small canvases, one input in eight) with an arena and an
	 output buffer of any size, each an exact heap block: stb_image_write's
	 allocations stay inside the arena, a short arena or output is
	 RFL_ERR_BUFFER, and a success is a PNG no longer than the buffer;
   - no crash, hang (libFuzzer -timeout) or UB. */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "fuzz_util.h"

#define GUARD 64
#define PAT 0x5A
#define MAX_PIXELS (1u << 20) /* keeps one execution in milliseconds */

static char *label(fz_in *in, char *buf, size_t cap) {
	/* "", a short printable label, or a long one of any bytes */
	uint8_t k = fz_u8(in);
	size_t n, i;
	if ((k & 3) == 0) return NULL;
	if ((k & 3) == 1) n = k % 12;
	else n = (size_t)fz_range(in, cap - 1);
	for (i = 0; i < n; i++) {
		uint8_t b = fz_left(in) ? fz_u8(in) : (uint8_t)('a' + i % 26);
		buf[i] = (char)((k & 4) ? b : (b == 0 ? 'x' : b)); /* embedded NUL sometimes */
	}
	buf[n] = 0;
	return buf;
}

static int any_int(fz_in *in, int lo, int hi) {
	/* usually in [lo, hi], sometimes any int */
	uint8_t k = fz_u8(in);
	if (k == 255) return (int)fz_u32(in);
	return lo + (int)(fz_u32(in) % (uint32_t)(hi - lo + 1));
}

static void check_guard(const unsigned char *px, size_t size, const rfl_canvas *c) {
	size_t i;
	int y;
	for (i = size; i < size + GUARD; i++) FZ_CHECK(px[i] == PAT);
	if (c && c->width > 0 && c->height > 0) {
		size_t row = (size_t)c->width * (size_t)c->channels;
		for (y = 0; y < c->height - 1; y++)
			for (i = row; i < (size_t)c->stride_bytes; i++)
				FZ_CHECK(px[(size_t)y * (size_t)c->stride_bytes + i] == PAT);
	}
}

static rfl_machine fuzz_machine(fz_in *in) {
	rfl_machine m;
	int i;
	const rfl_machine *base = rfl_hw_get(fz_u8(in) % (rfl_hw_count() ? rfl_hw_count() : 1));
	if (base) m = *base;
	else memset(&m, 0, sizeof m);
	if (fz_u8(in) & 1) {
		for (i = 0; i < RFL_PREC_COUNT; i++) m.peak_flops[i] = fz_double(in);
		for (i = 0; i < RFL_LEVEL_COUNT; i++) m.bw_bytes_per_s[i] = fz_double(in);
	}
	return m;
}

static void draw_primitives(rfl_canvas *c, fz_in *in, const unsigned char *px, size_t size) {
	int n = fz_u8(in) % 8, k;
	unsigned char *snap = NULL;
	int clipped = fz_u8(in) & 1;
	int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
	if (clipped) {
		x0 = any_int(in, -10, c->width + 10), y0 = any_int(in, -10, c->height + 10);
		x1 = any_int(in, -10, c->width + 10), y1 = any_int(in, -10, c->height + 10);
		rfl_canvas_clip(c, x0, y0, x1, y1);
		FZ_CHECK(c->clip_x0 >= 0 && c->clip_y0 >= 0 && c->clip_x1 <= c->width &&
				 c->clip_y1 <= c->height);
		snap = (unsigned char *)malloc(size ? size : 1);
		memcpy(snap, px, size);
	}
	for (k = 0; k < n; k++) {
		double a = fz_double(in), b = fz_double(in), cc = fz_double(in), d = fz_double(in);
		double w = fz_double(in);
		rfl_color col = fz_u32(in);
		double xy[2 * 300];
		int np = 0, i;
		char text[2048];
		switch (fz_u8(in) % 12) {
		case 0: rfl_draw_line(c, a, b, cc, d, w, col); break;
		case 1:
			xy[0] = a, xy[1] = b, xy[2] = cc, xy[3] = d;
			rfl_draw_polyline(c, xy, 2, w, fz_double(in), fz_double(in), col);
			break;
		case 2: case 3:
			np = any_int(in, 0, 300);
			if (np < 0 || np > 300) np = 300 + (np & 1); /* a bad count: still only 300 points here */
			for (i = 0; i < 2 * 300; i++) xy[i] = i < 2 * np ? fz_double(in) : 0;
			if (fz_u8(in) & 1) rfl_draw_polyline(c, xy, np < 300 ? np : 300, w, fz_double(in), fz_double(in), col);
			else {
				rfl_result r = rfl_fill_polygon(c, xy, np < 300 ? np : 300, col);
				if ((np < 300 ? np : 300) > RFL_POLY_MAX) FZ_CHECK(r == RFL_ERR_ARG);
			}
			break;
		case 4: rfl_fill_rect(c, a, b, cc, d, col); break;
		case 5: rfl_draw_rect(c, a, b, cc, d, w, col); break;
		case 6: case 7: rfl_draw_marker(c, RFL_MARKER_CIRCLE, a, b, cc, fz_u8(in) & 1, col); break;
		case 8: rfl_draw_marker(c, (rfl_marker)any_int(in, 0, RFL_MARKER_COUNT), a, b, cc, fz_u8(in) & 1, col); break;
		case 9: {
			const char *t = label(in, text, sizeof text);
			int sc = any_int(in, -2, 12);
			int tw = rfl_text_width(t ? t : "", -1, sc);
			FZ_CHECK(tw >= 0);
			rfl_draw_text(c, a, b, t, sc, any_int(in, 0, 31), col);
			break;
		}
		case 10: rfl_canvas_clear(c, col); break;
		default: rfl_canvas_unclip(c); clipped = 0; break;
		}
	}
	if (clipped && snap) {
		/* every byte outside the clip rectangle is unchanged */
		int x, y, ch;
		for (y = 0; y < c->height; y++)
			for (x = 0; x < c->width; x++) {
				if (x >= c->clip_x0 && x < c->clip_x1 && y >= c->clip_y0 && y < c->clip_y1) continue;
				for (ch = 0; ch < c->channels; ch++) {
					size_t o = (size_t)y * (size_t)c->stride_bytes + (size_t)x * (size_t)c->channels + (size_t)ch;
					FZ_CHECK(px[o] == snap[o]);
				}
			}
	}
	free(snap);
	rfl_canvas_unclip(c);
}

static void draw_chart(rfl_canvas *c, fz_in *in) {
	static char labels[8][2048];
	rfl_machine ms[9];
	const rfl_machine *mp[9];
	rfl_point pts[24];
	rfl_chart_area areas[9];
	int nm, np, i;
	uint8_t kind = fz_u8(in) % 4;
	if (kind <= 1) {
		rfl_roofline_desc d;
		memset(&d, 0, sizeof d);
		nm = any_int(in, 0, 9);
		for (i = 0; i < 9; i++) { ms[i] = fuzz_machine(in); mp[i] = &ms[i]; }
		np = any_int(in, 0, 24);
		for (i = 0; i < 24; i++) {
			memset(&pts[i], 0, sizeof pts[i]);
			pts[i].label = label(in, labels[i % 8], sizeof labels[0]);
			pts[i].ai = fz_double(in);
			pts[i].flops_per_s = fz_double(in);
			pts[i].prec = (rfl_prec)any_int(in, 0, RFL_PREC_COUNT - 1);
			pts[i].machine = any_int(in, -1, 9);
			pts[i].estimate = fz_u8(in) & 1;
			pts[i].link = fz_u8(in) % 3;
			pts[i].weight = fz_double(in);
			pts[i].marker = (rfl_marker)any_int(in, 0, RFL_MARKER_COUNT - 1);
			pts[i].color = fz_u32(in);
		}
		d.title = label(in, labels[7], sizeof labels[7]);
		d.machines = nm > 0 && nm <= 9 ? mp : (fz_u8(in) & 1 ? mp : NULL);
		d.n_machines = nm;
		d.points = np > 0 && np <= 24 ? pts : NULL;
		d.n_points = np > 0 && np <= 24 ? np : 0;
		d.prec = (rfl_prec)any_int(in, 0, RFL_PREC_COUNT - 1);
		d.extra_precs = fz_u32(in);
		d.extra_levels = fz_u32(in);
		d.level = (rfl_level)any_int(in, 0, RFL_LEVEL_COUNT - 1);
		d.x_min = fz_double(in), d.x_max = fz_double(in);
		d.y_min = fz_double(in), d.y_max = fz_double(in);
		d.x_ticks = (rfl_ticks)any_int(in, 0, 3), d.y_ticks = (rfl_ticks)any_int(in, 0, 3);
		d.legend = (rfl_legend)any_int(in, 0, 5);
		d.font_scale = any_int(in, 0, 9);
		d.columns = any_int(in, 0, 9);
		d.areas = (nm > 0 && nm <= 9) ? areas : NULL;
		if (kind == 0) {
			rfl_chart_roofline(c, &d);
		} else {
			int cols = any_int(in, 0, 300), rows = any_int(in, 0, 200);
			size_t need = (cols >= 0 && rows >= 0) ? RFL_ASCII_BYTES(cols ? cols : 80, rows ? rows : 24) : 0;
			size_t size = (fz_u8(in) & 1) ? need : (size_t)fz_range(in, need + 8);
			char *buf = (char *)malloc(size + GUARD);
			size_t k;
			rfl_result r;
			memset(buf, PAT, size + GUARD);
			r = rfl_chart_roofline_ascii(size ? buf : NULL, size, cols, rows, &d);
			for (k = size; k < size + GUARD; k++) FZ_CHECK((unsigned char)buf[k] == PAT);
			if (r == RFL_OK && size) {
				int cc = cols ? cols : 80, rr = rows ? rows : 24, y;
				for (y = 0; y < rr; y++) FZ_CHECK(buf[(size_t)y * (size_t)(cc + 1) + (size_t)cc] == '\n');
				FZ_CHECK(buf[(size_t)rr * (size_t)(cc + 1)] == 0);
			}
			free(buf);
		}
	} else if (kind == 2) {
		rfl_bar_desc d;
		const char *cats[40], *series[6];
		double vals[40 * 6];
		rfl_color cols[6];
		rfl_chart_area area;
		int ncat = any_int(in, 0, 40), ns = any_int(in, 0, 6);
		memset(&d, 0, sizeof d);
		for (i = 0; i < 40; i++) cats[i] = label(in, labels[i % 7], sizeof labels[0]);
		for (i = 0; i < 6; i++) { series[i] = (i & 1) ? "bwd" : "fwd"; cols[i] = fz_u32(in); }
		for (i = 0; i < 40 * 6; i++) vals[i] = fz_double(in);
		d.title = label(in, labels[7], sizeof labels[7]);
		d.value_title = "FLOPs (FLOP)";
		d.category_title = (fz_u8(in) & 1) ? "model" : NULL;
		d.categories = cats;
		d.n_categories = (ncat >= 0 && ncat <= 40) ? ncat : 0;
		d.series = (fz_u8(in) & 1) ? series : NULL;
		d.n_series = (ns >= 0 && ns <= 6) ? ns : 1;
		d.values = vals;
		d.stacked = fz_u8(in) & 1;
		d.orient = (rfl_orient)any_int(in, 0, 2);
		d.scale = (rfl_scale)any_int(in, 0, 2);
		d.ticks = (rfl_ticks)any_int(in, 0, 3);
		d.colors = (fz_u8(in) & 1) ? cols : NULL;
		d.legend = (rfl_legend)any_int(in, 0, 5);
		d.font_scale = any_int(in, 0, 9);
		d.value_labels = fz_u8(in) & 1;
		d.area = &area;
		rfl_chart_bars(c, &d);
	} else {
		rfl_scatter_desc d;
		rfl_xy xs[32];
		rfl_chart_area area;
		int n = any_int(in, 0, 32);
		memset(&d, 0, sizeof d);
		for (i = 0; i < 32; i++) {
			memset(&xs[i], 0, sizeof xs[i]);
			xs[i].label = label(in, labels[i % 7], sizeof labels[0]);
			xs[i].x = fz_double(in), xs[i].y = fz_double(in);
			xs[i].link = fz_u8(in) % 3;
			xs[i].weight = fz_double(in);
			xs[i].marker = (rfl_marker)any_int(in, 0, RFL_MARKER_COUNT - 1);
			xs[i].color = fz_u32(in);
			xs[i].hollow = fz_u8(in) & 1;
		}
		d.title = label(in, labels[7], sizeof labels[7]);
		d.x_title = "x (FLOP)", d.y_title = "y (s)";
		d.points = xs;
		d.n_points = (n >= 0 && n <= 32) ? n : 0;
		d.x_scale = (rfl_scale)any_int(in, 0, 2), d.y_scale = (rfl_scale)any_int(in, 0, 2);
		d.x_ticks = (rfl_ticks)any_int(in, 0, 3), d.y_ticks = (rfl_ticks)any_int(in, 0, 3);
		d.x_min = fz_double(in), d.x_max = fz_double(in);
		d.y_min = fz_double(in), d.y_max = fz_double(in);
		d.legend = (rfl_legend)any_int(in, 0, 5);
		d.font_scale = any_int(in, 0, 9);
		d.point_labels = fz_u8(in) & 1;
		d.area = &area;
		rfl_chart_scatter(c, &d);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	fz_in in;
	rfl_canvas c;
	int w, h, ch, stride, row_bytes_ok, small;
	size_t need, bytes;
	unsigned char *px;
	rfl_result r;
	fz_init(&in, data, size);
	small = (fz_u8(&in) & 3) == 0; /* a quarter small enough for PNG */
	w = any_int(&in, 0, small ? 96 : 700);
	h = any_int(&in, 0, small ? 96 : 500);
	ch = (int)(fz_u8(&in) % 6);      /* 0, 3, 4 valid; 1, 2, 5 not */
	stride = (fz_u8(&in) & 3) ? 0 : any_int(&in, 0, 3000);
	/* the documented rule, computed here in 64 bits */
	row_bytes_ok = w >= 0 && h >= 0 && w <= RFL_CANVAS_MAX_SIDE && h <= RFL_CANVAS_MAX_SIDE &&
				   (ch == 0 || ch == 3 || ch == 4) &&
				   (stride == 0 || (stride > 0 && (long long)stride >= (long long)w * (ch ? ch : 3)));
	need = 0;
	if (row_bytes_ok && w > 0 && h > 0) {
		size_t cc = (size_t)(ch ? ch : 3), st = stride ? (size_t)stride : (size_t)w * cc;
		need = st * (size_t)(h - 1) + (size_t)w * cc;
	}
	bytes = (fz_u8(&in) & 7) ? need : (size_t)fz_range(&in, need + 16);
	if (need > MAX_PIXELS * 4u || bytes > MAX_PIXELS * 4u) {
		/* too big to draw quickly: only the argument checks, no pixels */
		r = rfl_canvas_init(&c, NULL, bytes, w, h, ch, stride);
		if (!row_bytes_ok) FZ_CHECK(r == RFL_ERR_ARG);
		else FZ_CHECK(r != RFL_OK); /* NULL pixels with a non-empty canvas */
		return 0;
	}
	px = (unsigned char *)malloc(bytes + GUARD);
	memset(px, PAT, bytes + GUARD);
	r = rfl_canvas_init(&c, px, bytes, w, h, ch, stride);
	if (!row_bytes_ok) {
		FZ_CHECK(r == RFL_ERR_ARG);
	} else if (bytes < need) {
		FZ_CHECK(r == RFL_ERR_BUFFER);
	} else {
		FZ_CHECK(r == RFL_OK);
	}
	if (r == RFL_OK) {
		FZ_CHECK(c.width == w && c.height == h && c.channels == (ch ? ch : 3));
		draw_primitives(&c, &in, px, bytes);
		check_guard(px, bytes, &c);
		draw_chart(&c, &in);
		check_guard(px, bytes, &c);
#ifdef RFL_HAS_PNG
		if ((fz_u8(&in) & 7) == 0 && (size_t)w * (size_t)h <= 96u * 96u) {
			size_t full = rfl_png_arena_size(w, h, c.channels);
			size_t asz = (fz_u8(&in) & 1) == 0 ? full : (size_t)fz_range(&in, full);
			size_t osz = (fz_u8(&in) & 1) == 0 ? (size_t)w * (size_t)h * 4u + 1024u : (size_t)fz_range(&in, 4096);
			unsigned char *arena = (unsigned char *)malloc(asz ? asz : 1);
			unsigned char *out = (unsigned char *)malloc(osz ? osz : 1);
			size_t len = 0;
			r = rfl_png_encode(&c, asz ? arena : NULL, asz, osz ? out : NULL, osz, &len);
			if (w == 0 || h == 0) FZ_CHECK(r != RFL_OK);
			else if (asz >= full && r != RFL_OK) FZ_CHECK(r == RFL_ERR_BUFFER && len > osz); /* only the output */
			if (r == RFL_OK) FZ_CHECK(len > 8 && len <= osz && memcmp(out, "\x89PNG", 4) == 0);
			free(arena);
			free(out);
			check_guard(px, bytes, &c);
		}
#endif
	} else {
		check_guard(px, bytes, NULL);
	}
	free(px);
	return 0;
}
