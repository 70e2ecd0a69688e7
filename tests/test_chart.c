/* Chart part: canvas safety (guard bytes around every canvas), primitives and
   font checked at pixels derived by hand, the roofline's geometry checked at
   pixel positions computed here from the axis mapping, PNG structure, the
   arena rule, the text chart, determinism, and pixel checksums of small
   charts (regression pins, each paired with the structural checks above on
   the same image). */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"
#include <stdlib.h>

/* ---- helpers ---------------------------------------------------------------- */
#define GUARD 256
#define GB 0xA5
static unsigned char big[GUARD + 1024 * 768 * 4 + 4096 + GUARD];

/* canvas inside `big` with guard bytes before, after, and in each row's
   padding (stride = w*ch + pad) */
static rfl_canvas guarded(int w, int h, int ch, int pad) {
	rfl_canvas c;
	size_t stride = (size_t)w * (size_t)ch + (size_t)pad, n = stride * (size_t)(h > 0 ? h : 0);
	memset(big, GB, sizeof big);
	memset(big + GUARD, 255, n);
	if (pad) {
		int y;
		for (y = 0; y < h; y++) memset(big + GUARD + (size_t)y * stride + (size_t)w * (size_t)ch, GB, (size_t)pad);
	}
	rfl_canvas_init(&c, big + GUARD, n, w, h, ch, (int)stride);
	return c;
}
static int guards_ok(const rfl_canvas *c, int pad) {
	size_t stride = (size_t)c->width * (size_t)c->channels + (size_t)pad;
	size_t n = stride * (size_t)c->height, i;
	int y;
	for (i = 0; i < GUARD; i++)
		if (big[i] != GB) return 0;
	for (i = GUARD + n; i < sizeof big; i++)
		if (big[i] != GB) return 0;
	for (y = 0; y < c->height; y++)
		for (i = 0; i < (size_t)pad; i++)
			if (big[GUARD + (size_t)y * stride + (size_t)c->width * (size_t)c->channels + i] != GB) return 0;
	return 1;
}
static const unsigned char *px(const rfl_canvas *c, int x, int y) {
	static const unsigned char none[4] = {1, 2, 3, 4}; /* off the canvas */
	if (x < 0 || y < 0 || x >= c->width || y >= c->height) return none;
	return c->pixels + (size_t)y * (size_t)c->stride_bytes + (size_t)x * (size_t)c->channels;
}
/* darkest channel sum in a (2r+1)^2 window */
static int darkest(const rfl_canvas *c, int x, int y, int r) {
	int best = 999, i, j;
	for (j = y - r; j <= y + r; j++)
		for (i = x - r; i <= x + r; i++) {
			const unsigned char *p;
			int v;
			if (i < 0 || j < 0 || i >= c->width || j >= c->height) continue;
			p = px(c, i, j);
			v = (p[0] + p[1] + p[2]) / 3;
			if (v < best) best = v;
		}
	return best;
}
static unsigned long long fnv(const rfl_canvas *c) {
	unsigned long long h = 1469598103934665603ull;
	int x, y, k;
	for (y = 0; y < c->height; y++)
		for (x = 0; x < c->width; x++)
			for (k = 0; k < c->channels; k++) {
				h ^= px(c, x, y)[k];
				h *= 1099511628211ull;
			}
	return h;
}
/* With RFL_CHART_DUMP=DIR in the environment, the charts checked here are
   also written to DIR as NAME.png and NAME.ppm (raw pixels), so that a
   step can decode the PNG independently (python zlib) and compare, and a
   person can look at them. */
#ifdef RFL_HAS_PNG
static unsigned char dump_arena[RFL_PNG_ARENA_CHART(640, 420, 4)];
#endif
#ifdef RFL_HAS_PNG
static int file_write(void *u, const void *d, size_t n) {
	return fwrite(d, 1, n, (FILE *)u) == n ? 0 : 1;
}
#endif
static void dump(const rfl_canvas *c, const char *name) {
	const char *dir = getenv("RFL_CHART_DUMP");
	char path[512];
	FILE *f;
	int y;
	if (!dir) return;
#ifdef RFL_HAS_PNG
	/* through the callback: rfl_png_save is absent with RFL_NO_STDIO */
	snprintf(path, sizeof path, "%s/%s.png", dir, name);
	f = fopen(path, "wb");
	if (!f || rfl_png_write(c, dump_arena, sizeof dump_arena, file_write, f) != RFL_OK)
		printf("dump %s failed\n", path);
	if (f) fclose(f);
#endif
	snprintf(path, sizeof path, "%s/%s.ppm", dir, name);
	f = fopen(path, "wb");
	if (!f) return;
	fprintf(f, "P6\n%d %d\n255\n", c->width, c->height);
	for (y = 0; y < c->height; y++) {
		int x;
		for (x = 0; x < c->width; x++) fwrite(px(c, x, y), 1, 3, f);
	}
	fclose(f);
}

/* the chart's documented mapping (rfl_chart_area), written out here */
static double map_x(const rfl_chart_area *a, double v) {
	return a->x0 + (log10(v) - log10(a->x_min)) / (log10(a->x_max) - log10(a->x_min)) * (a->x1 - a->x0);
}
static double map_y(const rfl_chart_area *a, double v) {
	return a->y1 - (log10(v) - log10(a->y_min)) / (log10(a->y_max) - log10(a->y_min)) * (a->y1 - a->y0);
}

/* ---- canvas set-up ---------------------------------------------------------- */
static void test_init(void) {
	rfl_canvas c;
	unsigned char b[64];
	RT_EQ_INT(rfl_canvas_init(&c, b, sizeof b, 4, 4, 3, 0), RFL_OK); /* 48 bytes */
	RT_EQ_INT(c.stride_bytes, 12);
	RT_EQ_INT(rfl_canvas_init(&c, b, 47, 4, 4, 3, 0), RFL_ERR_BUFFER);
	RT_EQ_INT(rfl_canvas_init(&c, b, sizeof b, 4, 4, 4, 0), RFL_OK); /* exactly 64 */
	RT_EQ_INT(rfl_canvas_init(&c, b, sizeof b, -1, 4, 3, 0), RFL_ERR_ARG);
	RT_EQ_INT(rfl_canvas_init(&c, b, sizeof b, 4, -4, 3, 0), RFL_ERR_ARG);
	RT_EQ_INT(rfl_canvas_init(&c, b, sizeof b, 4, 4, 2, 0), RFL_ERR_ARG);
	RT_EQ_INT(rfl_canvas_init(&c, b, sizeof b, 4, 4, 3, 11), RFL_ERR_ARG);  /* stride < row */
	RT_EQ_INT(rfl_canvas_init(&c, b, sizeof b, 40000, 1, 3, 0), RFL_ERR_ARG);
	RT_EQ_INT(rfl_canvas_init(&c, 0, 0, 0, 0, 3, 0), RFL_OK);             /* empty is fine */
	RT_EQ_INT(rfl_canvas_init(&c, 0, 0, 4, 4, 3, 0), RFL_ERR_ARG);
	RT_EQ_INT(rfl_canvas_init(&c, b, sizeof b, 3, 3, 0, 0), RFL_OK);     /* 0 channels = RGB */
	RT_EQ_INT(c.channels, 3);
	/* last row needs only w*ch bytes, not a full stride */
	RT_EQ_INT(rfl_canvas_init(&c, b, 2 * 20 + 12, 4, 3, 3, 20), RFL_OK);
	RT_EQ_INT(rfl_canvas_init(&c, b, 2 * 20 + 11, 4, 3, 3, 20), RFL_ERR_BUFFER);
}

/* ---- hostile input never writes outside the buffer ------------------------------ */
static char longlabel[10001];

static void hostile_draws(rfl_canvas *c) {
	const double nan = strtod("nan", 0), inf = strtod("inf", 0);
	double vals[] = {0, 0.5, -3, 1e300, -1e300, 1e9, -1e9, 2147483648.0, 0, 0, 5.5, 1e-300};
	double poly[2 * 6];
	int i, j, k;
	vals[8] = nan;
	vals[9] = inf;
	for (i = 0; i < 12; i++)
		for (j = 0; j < 12; j++) {
			double a = vals[i], b = vals[j];
			rfl_draw_line(c, a, b, b, a, 3, RFL_RGB(0, 0, 0));
			rfl_draw_line(c, -5, a, 5000, b, a, RFL_RGBA(10, 20, 30, 128));
			poly[0] = a, poly[1] = 1, poly[2] = 3, poly[3] = b;
			rfl_draw_polyline(c, poly, 2, 2, a, b, RFL_RGB(1, 2, 3));
			rfl_fill_rect(c, a, b, b, a, RFL_RGB(200, 0, 0));
			rfl_draw_rect(c, a, b, 10, 10, a, RFL_RGB(0, 200, 0));
			for (k = 0; k < RFL_MARKER_COUNT + 2; k++)
				rfl_draw_marker(c, (rfl_marker)k, a, b, b, k & 1, RFL_RGB(9, 9, 9));
			rfl_draw_text(c, a, b, "Hello^-12 world", i % 10 - 1, (j * 7) & 31, RFL_RGB(0, 0, 0));
			poly[0] = a; poly[1] = b; poly[2] = b; poly[3] = 2; poly[4] = -a; poly[5] = a;
			poly[6] = 3; poly[7] = 3; poly[8] = 1e6; poly[9] = -1e6; poly[10] = 0; poly[11] = b;
			rfl_fill_polygon(c, poly, 6, RFL_RGBA(0, 0, 0, 100));
			rfl_draw_polyline(c, poly, 6, a, b, 1, RFL_RGB(5, 5, 5));
		}
	rfl_draw_text(c, 0, 0, longlabel, 2, 0, RFL_RGB(0, 0, 0));
	rfl_draw_text(c, c->width - 1.0, c->height - 1.0, longlabel, 3, RFL_TEXT_UP | RFL_TEXT_RIGHT, RFL_RGB(0, 0, 0));
	rfl_draw_text(c, 0, 0, "", 1, 0, RFL_RGB(0, 0, 0));
	rfl_draw_text(c, 0, 0, "\x01\x7f\xff", 8, 0, RFL_RGB(0, 0, 0));
	rfl_draw_polyline(c, 0, 5, 1, 0, 0, RFL_RGB(0, 0, 0));
	RT_EQ_INT(rfl_fill_polygon(c, poly, RFL_POLY_MAX + 1, RFL_RGB(0, 0, 0)), RFL_ERR_ARG);
	RT_EQ_INT(rfl_fill_polygon(c, 0, 3, RFL_RGB(0, 0, 0)), RFL_ERR_ARG);
}

static void hostile_charts(rfl_canvas *c) {
	const double nan = strtod("nan", 0), inf = strtod("inf", 0);
	const rfl_machine *m[2];
	rfl_point p[8];
	rfl_roofline_desc d;
	rfl_bar_desc b;
	rfl_scatter_desc s;
	rfl_xy xy[4];
	const char *cats[3];
	double v[6];
	int i;
	rfl_hw_find("a100", &m[0]);
	rfl_hw_find("v100", &m[1]);
	memset(p, 0, sizeof p);
	p[0].label = longlabel; p[0].ai = 3; p[0].flops_per_s = 1e12;
	p[1].label = ""; p[1].ai = nan; p[1].flops_per_s = 1e12;
	p[2].label = "x"; p[2].ai = inf; p[2].flops_per_s = inf;
	p[3].label = "zero"; p[3].ai = 0; p[3].flops_per_s = 0;
	p[4].label = "neg"; p[4].ai = -1; p[4].flops_per_s = -5;
	p[5].label = 0; p[5].ai = 1e-300; p[5].flops_per_s = 1e300;  /* above the roof, far */
	p[6].label = "bad prec"; p[6].ai = 10; p[6].flops_per_s = 1e12; p[6].prec = (rfl_prec)99;
	p[7].label = "other machine"; p[7].ai = 10; p[7].flops_per_s = 1e12; p[7].machine = 5;
	p[0].weight = nan; p[2].weight = -1; p[3].weight = 1e300;
	memset(&d, 0, sizeof d);
	d.machines = m; d.n_machines = 2; d.points = p; d.n_points = 8; d.title = longlabel;
	d.extra_precs = ~0u; d.extra_levels = ~0u;
	rfl_chart_roofline(c, &d);
	d.x_min = nan; d.x_max = -1; d.y_min = inf; d.y_max = 0; d.font_scale = 100;
	rfl_chart_roofline(c, &d);
	d.x_min = 1; d.x_max = 1; d.y_min = 5; d.y_max = 5; d.font_scale = 0; d.n_machines = 1;
	rfl_chart_roofline(c, &d);
	{
		static char text[RFL_ASCII_BYTES(80, 24)];
		rfl_chart_roofline_ascii(text, sizeof text, 80, 24, &d);
	}
	cats[0] = longlabel; cats[1] = ""; cats[2] = "x";
	v[0] = nan; v[1] = -1; v[2] = inf; v[3] = 1e300; v[4] = 0; v[5] = 3;
	memset(&b, 0, sizeof b);
	b.categories = cats; b.n_categories = 3; b.values = v; b.n_series = 2; b.title = longlabel;
	b.value_labels = 1;
	for (i = 0; i < 4; i++) {
		b.stacked = i & 1;
		b.orient = (rfl_orient)(i >> 1 ? RFL_ORIENT_HORIZONTAL : RFL_ORIENT_VERTICAL);
		b.scale = (rfl_scale)(i % 3);
		rfl_chart_bars(c, &b);
	}
	memset(xy, 0, sizeof xy);
	xy[0].x = nan; xy[1].x = -1; xy[1].y = 1e300; xy[2].x = 0; xy[2].label = longlabel; xy[3].x = 5; xy[3].y = 5;
	memset(&s, 0, sizeof s);
	s.points = xy; s.n_points = 4; s.point_labels = 1; s.x_scale = RFL_SCALE_LOG; s.y_scale = RFL_SCALE_LOG;
	rfl_chart_scatter(c, &s);
	s.point_labels = 0; s.x_scale = RFL_SCALE_LINEAR;
	rfl_chart_scatter(c, &s);
}

static void test_guards(void) {
	static const int sizes[][2] = {{1, 1}, {2, 3}, {7, 5}, {64, 48}, {301, 177}, {1, 400}, {400, 1}};
	int i, ch, pad;
	memset(longlabel, 'W', sizeof longlabel - 1);
	for (i = 0; i < (int)(sizeof sizes / sizeof *sizes); i++)
		for (ch = 3; ch <= 4; ch++)
			for (pad = 0; pad <= 5; pad += 5) {
				rfl_canvas c = guarded(sizes[i][0], sizes[i][1], ch, pad);
				hostile_draws(&c);
				RT_CHECK(guards_ok(&c, pad));
				c = guarded(sizes[i][0], sizes[i][1], ch, pad);
				hostile_charts(&c);
				RT_CHECK(guards_ok(&c, pad));
				/* a clip rectangle beyond the canvas is clamped */
				rfl_canvas_clip(&c, -100, -100, 100000, 100000);
				rfl_fill_rect(&c, -1e6, -1e6, 2e6, 2e6, RFL_RGB(1, 1, 1));
				RT_CHECK(guards_ok(&c, pad));
			}
	{   /* 0-size canvases: every call is a no-op */
		rfl_canvas c;
		RT_EQ_INT(rfl_canvas_init(&c, 0, 0, 0, 5, 3, 0), RFL_OK);
		hostile_draws(&c);
		hostile_charts(&c);
		RT_EQ_INT(rfl_canvas_init(&c, 0, 0, 5, 0, 4, 0), RFL_OK);
		hostile_draws(&c);
		RT_CHECK(1);
	}
	{   /* a hand-made canvas struct with a lying clip is refused, not trusted */
		rfl_canvas c = guarded(10, 10, 3, 0);
		c.clip_x1 = 50; c.clip_y1 = 50;
		rfl_fill_rect(&c, 0, 0, 100, 100, RFL_RGB(0, 0, 0));
		rfl_draw_line(&c, 0, 0, 100, 100, 5, RFL_RGB(0, 0, 0));
		RT_CHECK(guards_ok(&c, 0));
	}
}

/* ---- primitives at hand-computed pixels -------------------------------------- */
static void test_primitives(void) {
	rfl_canvas c = guarded(40, 30, 3, 0);
	const unsigned char *p;
	/* rect [2,6) x [3,5): inside black, just outside white */
	rfl_fill_rect(&c, 2, 3, 4, 2, RFL_RGB(0, 0, 0));
	RT_EQ_INT(px(&c, 2, 3)[0], 0);
	RT_EQ_INT(px(&c, 5, 4)[1], 0);
	RT_EQ_INT(px(&c, 6, 4)[0], 255);
	RT_EQ_INT(px(&c, 1, 3)[0], 255);
	RT_EQ_INT(px(&c, 3, 5)[0], 255);
	RT_EQ_INT(px(&c, 3, 2)[2], 255);
	/* half-covered column: x from 10.5 covers half of pixel 10 -> ~50% grey */
	rfl_fill_rect(&c, 10.5, 3, 2, 1, RFL_RGB(0, 0, 0));
	p = px(&c, 10, 3);
	RT_CHECK(p[0] >= 120 && p[0] <= 135);
	RT_EQ_INT(px(&c, 11, 3)[0], 0);
	RT_CHECK(px(&c, 12, 3)[0] >= 120 && px(&c, 12, 3)[0] <= 135);
	/* alpha 50% red over white: (255, ~128, ~128) */
	rfl_fill_rect(&c, 20, 3, 1, 1, RFL_RGBA(255, 0, 0, 128));
	p = px(&c, 20, 3);
	RT_EQ_INT(p[0], 255);
	RT_CHECK(p[1] >= 120 && p[1] <= 135);
	/* horizontal 1-px line through row 10 (centre y = 10.5) */
	rfl_draw_line(&c, 2, 10.5, 30, 10.5, 1, RFL_RGB(0, 0, 0));
	RT_CHECK(px(&c, 15, 10)[0] < 10);
	RT_EQ_INT(px(&c, 15, 8)[0], 255);
	RT_EQ_INT(px(&c, 15, 12)[0], 255);
	RT_EQ_INT(px(&c, 35, 10)[0], 255); /* past the end cap */
	/* disc radius 4 at (20.5, 20.5): centre ink, (20, 26) outside */
	rfl_draw_marker(&c, RFL_MARKER_CIRCLE, 20.5, 20.5, 8, 0, RFL_RGB(0, 0, 255));
	p = px(&c, 20, 20);
	RT_CHECK(p[0] == 0 && p[2] == 255);
	RT_EQ_INT(px(&c, 20, 26)[0], 255);
	RT_EQ_INT(px(&c, 26, 20)[0], 255);
	/* triangle (2,16) (12,16) (2,26): (3,17) in, (11,25) out */
	{
		double t[6] = {2, 16, 12, 16, 2, 26};
		RT_EQ_INT(rfl_fill_polygon(&c, t, 3, RFL_RGB(0, 128, 0)), RFL_OK);
		RT_EQ_INT(px(&c, 3, 17)[1], 128);
		RT_EQ_INT(px(&c, 3, 17)[0], 0);
		RT_EQ_INT(px(&c, 11, 25)[1], 255);
	}
	RT_CHECK(guards_ok(&c, 0));
	/* RGBA canvas: alpha written */
	c = guarded(8, 8, 4, 0);
	rfl_canvas_clear(&c, RFL_RGBA(0, 0, 0, 0));
	rfl_fill_rect(&c, 0, 0, 4, 4, RFL_RGB(10, 20, 30));
	RT_EQ_INT(px(&c, 1, 1)[3], 255);
	RT_EQ_INT(px(&c, 1, 1)[2], 30);
	RT_EQ_INT(px(&c, 6, 6)[3], 0);
	rfl_canvas_clip(&c, 4, 4, 8, 8);
	rfl_fill_rect(&c, 0, 0, 8, 8, RFL_RGB(1, 2, 3));
	RT_EQ_INT(px(&c, 3, 3)[0], 10); /* outside the clip: untouched */
	RT_EQ_INT(px(&c, 4, 4)[0], 1);
}

/* the font: our glyph for 'I' is .###. / ..#.. x5 / .###. starting one row
   below the cell top; 'L' is #.... x6 / ##### */
static void test_text(void) {
	rfl_canvas c = guarded(60, 40, 3, 0);
	int y;
	RT_EQ_INT(rfl_text_width("abc", -1, 1), 18);
	RT_EQ_INT(rfl_text_width("abc", -1, 2), 36);
	RT_EQ_INT(rfl_text_width("abc", 2, 1), 12);
	RT_EQ_INT(rfl_text_width("10^3", -1, 2), 2 * 12 + 6); /* exponent one scale smaller */
	RT_EQ_INT(rfl_text_width("10^3", -1, 1), 3 * 6);      /* scale 1 stays 1 */
	RT_EQ_INT(rfl_text_width(0, -1, 1), 0);
	RT_EQ_INT(rfl_draw_text(&c, 0, 0, "IL", 1, 0, RFL_RGB(0, 0, 0)), 12);
	/* 'I' row 0 (y = 1): columns 1..3 inked, 0 and 4 not */
	RT_EQ_INT(px(&c, 0, 1)[0], 255);
	RT_EQ_INT(px(&c, 1, 1)[0], 0);
	RT_EQ_INT(px(&c, 3, 1)[0], 0);
	RT_EQ_INT(px(&c, 4, 1)[0], 255);
	for (y = 2; y <= 6; y++) { RT_EQ_INT(px(&c, 2, y)[0], 0); RT_EQ_INT(px(&c, 1, y)[0], 255); }
	RT_EQ_INT(px(&c, 1, 7)[0], 0);
	RT_EQ_INT(px(&c, 2, 0)[0], 255); /* the empty top row */
	/* 'L' at x = 6: column 6 rows 1..7, bottom row 7 columns 6..10 */
	for (y = 1; y <= 7; y++) RT_EQ_INT(px(&c, 6, y)[0], 0);
	RT_EQ_INT(px(&c, 10, 7)[0], 0);
	RT_EQ_INT(px(&c, 10, 6)[0], 255);
	/* rotated (reads upward): 'L' drawn from (20, 30) with its top to the
	   left: the stem runs along x (u -> -y), the foot along y */
	c = guarded(60, 40, 3, 0);
	rfl_draw_text(&c, 20, 30, "L", 1, RFL_TEXT_UP, RFL_RGB(0, 0, 0));
	/* glyph pixel (col, row) lands at (20 + 1 + row, 30 - 1 - col) */
	for (y = 0; y <= 6; y++) RT_EQ_INT(px(&c, 21 + y, 29)[0], 0); /* stem: col 0 */
	RT_EQ_INT(px(&c, 27, 25)[0], 0);  /* foot: row 6, col 4 */
	RT_EQ_INT(px(&c, 26, 25)[0], 255);
	/* centred: "II" at scale 2 centred on x = 30 spans 18..42 */
	c = guarded(60, 40, 3, 0);
	rfl_draw_text(&c, 30, 0, "II", 2, RFL_TEXT_CENTER, RFL_RGB(0, 0, 0));
	RT_EQ_INT(px(&c, 18 + 2, 2)[0], 0);   /* 'I' top bar starts at column 1 -> 2 px */
	RT_EQ_INT(px(&c, 18 + 1, 2)[0], 255);
	RT_EQ_INT(px(&c, 30 + 2, 2)[0], 0);
	RT_CHECK(guards_ok(&c, 0));
}

/* ---- the roofline at hand-computed pixels ------------------------------------ */
static const rfl_machine *a100(void) {
	const rfl_machine *m = 0;
	rfl_hw_find("a100", &m);
	return m;
}

static void test_roofline_geometry(void) {
	rfl_canvas c = guarded(640, 420, 3, 3);
	const rfl_machine *m[1];
	rfl_point p[3];
	rfl_chart_area area;
	rfl_roofline_desc d;
	double x, y, rx, ry;
	const unsigned char *q;
	int k, red = 0;
	m[0] = a100();
	RT_CHECK(m[0] != 0);
	if (!m[0]) return;
	/* datasheet: 19.5 TFLOP/s FP32, 1555 GB/s -> ridge 19.5e12 / 1.555e12 */
	RT_NEAR(rfl_ridge(m[0], RFL_FP32, RFL_DRAM), 12.540192926, 1e-9);
	memset(p, 0, sizeof p);
	p[0].label = "measured"; p[0].ai = 3.17; p[0].flops_per_s = 3.35e11;
	p[1].label = "estimate"; p[1].ai = 34.56; p[1].flops_per_s = 1.0e13; p[1].estimate = 1;
	p[2].label = "bug"; p[2].ai = 1; p[2].flops_per_s = 1e13; /* roof at AI 1 is 1.555e12 */
	memset(&d, 0, sizeof d);
	d.machines = m; d.n_machines = 1; d.points = p; d.n_points = 3;
	d.x_min = 0.1; d.x_max = 1000; d.y_min = 1e11; d.y_max = 1e14; d.font_scale = 1;
	d.areas = &area;
	RT_EQ_INT(rfl_chart_roofline(&c, &d), RFL_OK);
	RT_CHECK(guards_ok(&c, 3));
	RT_NEAR(area.x_min, 0.1, 1e-12);
	RT_NEAR(area.y_max, 1e14, 1e-12);
	RT_CHECK(area.x0 > 0 && area.x1 < 640 && area.y0 > 0 && area.y1 < 420 && area.x_log && area.y_log);
	/* memory slope: AI 1 -> 1.555e12 FLOP/s; AI 0.5 -> 7.775e11 */
	x = map_x(&area, 1); y = map_y(&area, 1.555e12);
	RT_CHECK(darkest(&c, (int)x, (int)y, 1) < 60);
	x = map_x(&area, 0.5); y = map_y(&area, 7.775e11);
	RT_CHECK(darkest(&c, (int)x, (int)y, 1) < 60);
	/* the flat part: AI 300 -> 19.5e12 */
	x = map_x(&area, 300); y = map_y(&area, 19.5e12);
	RT_CHECK(darkest(&c, (int)x, (int)y, 1) < 60);
	/* well above the roof at AI 1 (1e13) away from the point: background */
	x = map_x(&area, 5); y = map_y(&area, 5e13);
	RT_CHECK(darkest(&c, (int)x, (int)y, 0) > 200);
	/* and not a second, horizontal roof at the left: the peak line does not
	   extend left of the ridge (AI 2 at 19.5e12 is empty) */
	x = map_x(&area, 2); y = map_y(&area, 19.5e12);
	RT_CHECK(darkest(&c, (int)x, (int)y, 0) > 200);
	/* the ridge marker: dark ring around a white centre at AI 12.54 */
	rx = map_x(&area, 19.5e12 / 1.555e12); ry = map_y(&area, 19.5e12);
	q = px(&c, (int)rx, (int)ry);
	RT_CHECK(q[0] > 200);                         /* white centre */
	RT_CHECK(darkest(&c, (int)rx - 3, (int)ry, 0) < 60 || darkest(&c, (int)rx + 3, (int)ry, 0) < 60);
	/* one column left of the ridge marker's reach the roof is below the peak */
	RT_CHECK(darkest(&c, (int)(rx - 30), (int)ry, 1) > 150);
	/* the measured point: palette colour 0 (0x1F77B4) at its centre */
	q = px(&c, (int)map_x(&area, 3.17), (int)map_y(&area, 3.35e11));
	RT_CHECK(abs(q[0] - 0x1F) < 12 && abs(q[1] - 0x77) < 12 && abs(q[2] - 0xB4) < 12);
	/* the estimate: hollow (white centre), coloured rim (a square, 2nd marker) */
	x = map_x(&area, 34.56); y = map_y(&area, 1.0e13);
	q = px(&c, (int)x, (int)y);
	RT_CHECK(q[0] > 230 && q[1] > 230 && q[2] > 230);
	RT_CHECK(darkest(&c, (int)x, (int)y, 5) < 200);
	/* the point above the roof: a red warning ring around it */
	x = map_x(&area, 1); y = map_y(&area, 1e13);
	for (k = -14; k <= 14; k++) {
		int i;
		for (i = -14; i <= 14; i++) {
			const unsigned char *r = px(&c, (int)x + i, (int)y + k);
			if (r[0] > 180 && r[1] < 90 && r[2] < 90) red++;
		}
	}
	RT_CHECK(red > 10);
	dump(&c, "geometry");
	/* Regression pin for this exact image: the value was recorded from the
	   code after the structural checks above passed and the image was
	   inspected by eye (build/test/chart/geometry.png); it catches any
	   unintended pixel change, the checks above say what is right. */
	RT_EQ_U64(fnv(&c), 1505071235843041666ull);
}

/* The extra bandwidth levels of a probed CPU (DRAM 45, L2 113.7, L1 320
   GB/s, FP32 400 GFLOP/s): each label ("L2 113.7 GB/s", "L1 320 GB/s", in
   the level grey 0x6A6A6A) belongs to its own dashed slope, and with both
   levels asked for, both are labelled. Drawn one level at a time, a
   label's pixels have their centroid within 40 px of that level's slope
   (from the left edge up to where it meets the peak) and nearer to it
   than to the other level's. */
static double seg_dist(const rfl_chart_area *a, double bw, double peak, double px, double py) {
	double x0 = a->x0, y0 = map_y(a, a->x_min * bw), x1 = map_x(a, peak / bw), y1 = map_y(a, peak);
	double dx = x1 - x0, dy = y1 - y0, t = ((px - x0) * dx + (py - y0) * dy) / (dx * dx + dy * dy);
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	return sqrt((px - x0 - t * dx) * (px - x0 - t * dx) + (py - y0 - t * dy) * (py - y0 - t * dy));
}

static int level_label_px(int levels, rfl_level on, double *own, double *other) {
	static rfl_machine m;
	const rfl_machine *ms[1];
	rfl_canvas c = guarded(1200, 800, 3, 3);
	rfl_chart_area area;
	rfl_roofline_desc d;
	double sx = 0, sy = 0;
	int x, y, n = 0;
	memset(&m, 0, sizeof m);
	m.id = "host", m.name = "probed host", m.source = "test", m.kind = RFL_KIND_CPU;
	m.peak_flops[RFL_FP32] = 400e9;
	m.bw_bytes_per_s[RFL_DRAM] = 45e9, m.bw_bytes_per_s[RFL_L2] = 113.7e9;
	m.bw_bytes_per_s[RFL_L1] = 320e9;
	ms[0] = &m;
	memset(&d, 0, sizeof d);
	d.machines = ms, d.n_machines = 1, d.areas = &area, d.extra_levels = (unsigned)levels;
	if (rfl_chart_roofline(&c, &d) != RFL_OK) return -1;
	for (y = 0; y < c.height; y++)
		for (x = 0; x < c.width; x++) {
			const unsigned char *q = px(&c, x, y);
			if (q[0] == 0x6A && q[1] == 0x6A && q[2] == 0x6A) sx += x, sy += y, n++;
		}
	if (n > 0 && own) {
		sx /= n, sy /= n;
		*own = seg_dist(&area, m.bw_bytes_per_s[on], 400e9, sx, sy);
		*other = seg_dist(&area, m.bw_bytes_per_s[on == RFL_L2 ? RFL_L1 : RFL_L2], 400e9, sx, sy);
	}
	return n;
}

static void test_level_labels(void) {
	double o2 = 1e9, x2 = 0, o1 = 1e9, x1 = 0;
	int n2 = level_label_px(1 << RFL_L2, RFL_L2, &o2, &x2), n1 = level_label_px(1 << RFL_L1, RFL_L1, &o1, &x1);
	int both = level_label_px((1 << RFL_L2) | (1 << RFL_L1), RFL_L2, 0, 0);
	RT_CHECK(n2 > 100 && n1 > 100);
	if (!RT_CHECK(o2 < 40 && o2 < x2 && o1 < 40 && o1 < x1))
		printf("     L2 label %.1f px from its slope, %.1f from L1's; L1 label %.1f, %.1f\n", o2, x2, o1, x1);
	if (!RT_CHECK(both > 0.9 * (n1 + n2) && both < 1.1 * (n1 + n2)))
		printf("     both levels: %d label pixels, one at a time %d + %d\n", both, n2, n1);
}

/* precision: FP32 work is never put under the tensor roof */
static void test_roofline_precision(void) {
	rfl_canvas c = guarded(640, 420, 3, 0);
	const rfl_machine *m[1];
	rfl_point p[1];
	rfl_chart_area area;
	rfl_roofline_desc d;
	m[0] = a100();
	if (!m[0]) return;
	memset(p, 0, sizeof p);
	p[0].label = "fp32 work"; p[0].ai = 100; p[0].flops_per_s = 1e13;
	memset(&d, 0, sizeof d);
	d.machines = m; d.n_machines = 1; d.points = p; d.n_points = 1; d.font_scale = 1;
	d.x_min = 0.1; d.x_max = 10000; d.y_min = 1e11; d.y_max = 1e15; d.areas = &area;
	RT_EQ_INT(rfl_chart_roofline(&c, &d), RFL_OK);
	/* FP32 flat at 19.5 T is there; no line at 312 T (FP16 tensor) */
	RT_CHECK(darkest(&c, (int)map_x(&area, 3000), (int)map_y(&area, 19.5e12), 1) < 60);
	RT_CHECK(darkest(&c, (int)map_x(&area, 3000), (int)map_y(&area, 312e12), 1) > 200);
	/* asked for as an extra ceiling, it appears lighter (grey, not black) */
	d.extra_precs = 1u << RFL_FP16_TENSOR;
	rfl_chart_roofline(&c, &d);
	{
		int v = darkest(&c, (int)map_x(&area, 3000), (int)map_y(&area, 312e12), 2);
		RT_CHECK(v > 60 && v < 200);
	}
	/* a machine with no roof of the work's precision is reported */
	p[0].prec = RFL_FP8_TENSOR;
	RT_EQ_INT(rfl_chart_roofline(&c, &d), RFL_ERR_NO_ROOF);
}

/* automatic ranges contain the data and the roof, snapped to decades */
static void test_ranges(void) {
	rfl_canvas c = guarded(800, 500, 3, 0);
	const rfl_machine *m[2];
	rfl_point p[2];
	rfl_chart_area a[2];
	rfl_roofline_desc d;
	m[0] = a100();
	rfl_hw_find("v100", &m[1]);
	if (!m[0] || !m[1]) return;
	memset(p, 0, sizeof p);
	p[0].label = "a"; p[0].ai = 3.17; p[0].flops_per_s = 3.35e11; p[0].machine = RFL_ALL_MACHINES;
	p[1].label = "b"; p[1].ai = 34.56; p[1].flops_per_s = 1.95e13;
	memset(&d, 0, sizeof d);
	d.machines = m; d.n_machines = 2; d.points = p; d.n_points = 2; d.areas = a;
	RT_EQ_INT(rfl_chart_roofline(&c, &d), RFL_OK);
	RT_CHECK(a[0].x_min <= 3.17 / 2 && a[0].x_max >= 34.56 * 2);
	RT_CHECK(a[0].y_min <= 3.35e11 && a[0].y_max >= 19.5e12 * 2);
	RT_NEAR(log10(a[0].x_min), floor(log10(a[0].x_min) + 0.5), 1e-9); /* decades */
	RT_NEAR(log10(a[0].y_max), floor(log10(a[0].y_max) + 0.5), 1e-9);
	/* two panels side by side, same ranges */
	RT_CHECK(a[1].x0 > a[0].x1);
	RT_NEAR(a[1].y_min, a[0].y_min, 1e-12);
}

/* ---- bars and scatter ------------------------------------------------------------ */
static void test_bars(void) {
	rfl_canvas c = guarded(500, 300, 3, 0);
	const char *cats[3] = {"a", "b", "c"};
	double v[3] = {1, 2, 4};
	rfl_bar_desc b;
	rfl_chart_area a;
	double top, x;
	memset(&b, 0, sizeof b);
	b.categories = cats; b.n_categories = 3; b.values = v; b.font_scale = 1; b.area = &a;
	b.orient = RFL_ORIENT_VERTICAL;
	RT_EQ_INT(rfl_chart_bars(&c, &b), RFL_OK);
	RT_CHECK(!a.y_log && a.y_min == 0 && a.y_max >= 4);
	/* bar c: centre of slot 2 of 3; top at value 4 */
	x = a.x0 + (a.x1 - a.x0) * 2.5 / 3;
	top = a.y1 - 4 / a.y_max * (a.y1 - a.y0);
	{
		const unsigned char *in = px(&c, (int)x, (int)(top + 3)), *out = px(&c, (int)x, (int)(top - 3));
		RT_CHECK(abs(in[0] - 0x1F) < 8 && abs(in[2] - 0xB4) < 8);
		RT_CHECK(out[0] > 200 && out[1] > 200);
	}
	/* bar a is a quarter as tall: at half of c's height, a's slot is empty */
	x = a.x0 + (a.x1 - a.x0) * 0.5 / 3;
	RT_CHECK(px(&c, (int)x, (int)(a.y1 - 2 / a.y_max * (a.y1 - a.y0)))[0] > 200);
	RT_CHECK(guards_ok(&c, 0));
	dump(&c, "bars");
	/* long labels switch to horizontal bars */
	{
		const char *lc[3] = {"a rather long category name", "another long category name", "x"};
		b.categories = lc;
		b.orient = RFL_ORIENT_AUTO;
		rfl_chart_bars(&c, &b);
		RT_CHECK(a.x_max >= 4 && a.y_max == 3); /* value axis is x now */
	}
}

/* Parameter counts quoted in the reports (torchsummary / torchvision):
   ResNet-18 11,689,512; AlexNet 61,100,840; ResNet-50 25,557,032; VGG-16
   138,357,544. One series: bar lengths are proportional on a linear axis,
   so VGG-16's bar is 138357544 / 11689512 = 11.8x ResNet-18's. */
static void test_bars_params(void) {
	static unsigned char pix[900 * 420 * 3];
	rfl_canvas c;
	const char *m[4] = {"ResNet-18", "AlexNet", "ResNet-50", "VGG-16"};
	double v[4] = {11689512, 61100840, 25557032, 138357544};
	rfl_bar_desc b;
	rfl_chart_area a;
	int k;
	double len[4];
	rfl_canvas_init(&c, pix, sizeof pix, 900, 420, 3, 0);
	memset(&b, 0, sizeof b);
	b.title = "Parameters per model (torchvision)";
	b.value_title = "Parameters";
	b.categories = m; b.n_categories = 4; b.values = v; b.value_labels = 1;
	b.orient = RFL_ORIENT_HORIZONTAL; b.scale = RFL_SCALE_LINEAR; b.area = &a; b.font_scale = 2;
	RT_EQ_INT(rfl_chart_bars(&c, &b), RFL_OK);
	RT_CHECK(!a.x_log && a.x_min == 0 && a.x_max >= 138357544);
	/* measure each bar's length along its row (category k centred at
	   y0 + (k + 0.5) / 4 of the plot) by walking the bar colour */
	for (k = 0; k < 4; k++) {
		int y = (int)(a.y0 + (a.y1 - a.y0) * (k + 0.5) / 4), x = (int)a.x0 + 2;
		while (x < c.width && abs(px(&c, x, y)[2] - 0xB4) < 10 && abs(px(&c, x, y)[0] - 0x1F) < 10) x++;
		len[k] = x - a.x0;
	}
	RT_NEAR(len[3] / len[0], 138357544.0 / 11689512.0, 0.05);
	RT_NEAR(len[1] / len[2], 61100840.0 / 25557032.0, 0.03);
	RT_NEAR(len[3], (a.x1 - a.x0) * 138357544.0 / a.x_max, 0.01);
	dump(&c, "params");
}

static void test_scatter(void) {
	rfl_canvas c = guarded(500, 300, 3, 0);
	rfl_xy p[3];
	rfl_scatter_desc s;
	rfl_chart_area a;
	const unsigned char *q;
	memset(p, 0, sizeof p);
	p[0].label = "m1"; p[0].x = 1e9; p[0].y = 1e-3;
	p[1].label = "m2"; p[1].x = 3e11; p[1].y = 2e-1;
	p[2].label = "m3"; p[2].x = 1e10; p[2].y = 1e-2; p[2].color = RFL_RGB(200, 0, 0);
	memset(&s, 0, sizeof s);
	s.points = p; s.n_points = 3; s.area = &a; s.font_scale = 1;
	RT_EQ_INT(rfl_chart_scatter(&c, &s), RFL_OK);
	RT_CHECK(a.x_log && a.y_log); /* 2 decades or more: log chosen */
	q = px(&c, (int)map_x(&a, 1e10), (int)map_y(&a, 1e-2));
	RT_CHECK(q[0] > 180 && q[1] < 30 && q[2] < 30);
	dump(&c, "scatter");
	s.x_scale = RFL_SCALE_LINEAR; s.y_scale = RFL_SCALE_LINEAR;
	rfl_chart_scatter(&c, &s);
	RT_CHECK(!a.x_log && a.x_min <= 1e9 && a.x_max >= 1e11);
}

/* ---- text chart ----------------------------------------------------------------- */
static void test_ascii(void) {
	static char t[RFL_ASCII_BYTES(80, 24)];
	const rfl_machine *m[1];
	rfl_point p[2];
	rfl_roofline_desc d;
	int lines = 0, i, col = -1, row = -1;
	const char *s;
	m[0] = a100();
	if (!m[0]) return;
	memset(p, 0, sizeof p);
	p[0].label = "ResNet18 measured"; p[0].ai = 3.17; p[0].flops_per_s = 3.35e11;
	p[1].label = "ResNet18 estimate"; p[1].ai = 34.56; p[1].flops_per_s = 1.95e13;
	memset(&d, 0, sizeof d);
	d.machines = m; d.n_machines = 1; d.points = p; d.n_points = 2;
	RT_EQ_INT(rfl_chart_roofline_ascii(t, sizeof t - 1, 80, 24, &d), RFL_ERR_BUFFER);
	RT_EQ_INT(rfl_chart_roofline_ascii(t, sizeof t, 80, 24, &d), RFL_OK);
	RT_EQ_INT(strlen(t), 81 * 24);
	for (i = 0; t[i]; i++) lines += t[i] == '\n';
	RT_EQ_INT(lines, 24);
	for (i = 0; i < 81 * 24; i++)
		if (t[i] == '+' && (i % 81) > 7 && i / 81 < 18 && t[i - 1] != '-') { col = i % 81; row = i / 81; break; }
	/* plot columns 7..78 span 0.1..1000 (4 decades) on a log scale, so the
	   ridge (12.54) sits at 7 + round((log10(12.54) + 1) / 4 * 71) = 44 */
	RT_EQ_INT(col, 44);
	RT_CHECK(row > 0);
	RT_CHECK(strstr(t, "ridge (+) 12.54 FLOP/B") != 0);
	RT_CHECK(strstr(t, "A ResNet18 measured") != 0);
	s = strchr(t + 81, 'A'); /* row 0 is the machine's name */
	RT_CHECK(s != 0 && (s - t) / 81 > row); /* the measured point lies below the roof's top */
	RT_EQ_INT(rfl_chart_roofline_ascii(t, sizeof t, 10, 5, &d), RFL_ERR_ARG);
}

/* The x labels of a text chart: the line above the axis title. */
static void ascii_xlabels(const char *t, char *out, size_t n) {
	const char *e = strstr(t, "arithmetic intensity"), *b;
	out[0] = 0;
	if (!e) return;
	while (e > t && e[-1] != '\n') e--; /* start of the title's line */
	if (e == t) return;
	b = e - 1;
	while (b > t && b[-1] != '\n') b--;
	snprintf(out, n, "%.*s", (int)(e - 1 - b), b);
}

/* One label style per axis: an axis of 0.1..1000 reads plain, one that
   reaches 10^5 reads 10^k throughout (once "1000, 10000, 10^5"); in text
   10^k is written 1ek (not "10ek", which reads ten times too big). */
static void test_tick_style(void) {
	static char t[RFL_ASCII_BYTES(80, 24)];
	char lab[96];
	const rfl_machine *m[1];
	rfl_point p[1];
	rfl_roofline_desc d;
	m[0] = a100();
	if (!m[0]) return;
	memset(p, 0, sizeof p);
	p[0].label = "x"; p[0].ai = 30; p[0].flops_per_s = 1e13;
	memset(&d, 0, sizeof d);
	d.machines = m; d.n_machines = 1; d.points = p; d.n_points = 1;
	RT_EQ_INT(rfl_chart_roofline_ascii(t, sizeof t, 80, 24, &d), RFL_OK);
	ascii_xlabels(t, lab, sizeof lab);
	RT_CHECK(strstr(lab, " 0.1 ") && strstr(lab, " 1000") && !strchr(lab, 'e'));
	p[0].ai = 3e4; /* the axis now runs to 10^5 */
	RT_EQ_INT(rfl_chart_roofline_ascii(t, sizeof t, 80, 24, &d), RFL_OK);
	ascii_xlabels(t, lab, sizeof lab);
	if (!RT_CHECK(strstr(lab, "1e-1") && strstr(lab, "1e3") && strstr(lab, "1e5") &&
				  !strstr(lab, "1000") && !strstr(lab, "0.1") && !strstr(lab, "10e")))
		printf("     labels: '%s'\n", lab);
}

/* ---- determinism ------------------------------------------------------------------ */
static unsigned char img2[320 * 200 * 3];
static void test_determinism(void) {
	rfl_canvas a = guarded(320, 200, 3, 0), b;
	const rfl_machine *m[1];
	rfl_point p[1];
	rfl_roofline_desc d;
	m[0] = a100();
	if (!m[0]) return;
	memset(p, 0, sizeof p);
	p[0].label = "x"; p[0].ai = 5; p[0].flops_per_s = 1e12;
	memset(&d, 0, sizeof d);
	d.machines = m; d.n_machines = 1; d.points = p; d.n_points = 1;
	rfl_chart_roofline(&a, &d);
	rfl_canvas_init(&b, img2, sizeof img2, 320, 200, 3, 0);
	rfl_canvas_clear(&b, RFL_RGB(1, 2, 3)); /* different starting content */
	rfl_chart_roofline(&b, &d);
	RT_CHECK(memcmp(a.pixels, b.pixels, sizeof img2) == 0);
	dump(&b, "small");
	/* regression pin (recorded as above; build/test/chart/small.png) for a
	   320x200 default roofline: automatic ranges, font and label fallback */
	RT_EQ_U64(fnv(&b), 8270406222322542376ull);
}

/* ---- PNG ---------------------------------------------------------------------- */
#ifdef RFL_HAS_PNG
static unsigned char arena[RFL_PNG_ARENA_BYTES(320, 200, 4)];
static unsigned char png1[400000], png2[400000];

/* CRC-32 (IEEE) written from the definition, for checking chunks */
static unsigned long crc32_of(const unsigned char *p, size_t n) {
	unsigned long c = 0xFFFFFFFFul;
	size_t i;
	int k;
	for (i = 0; i < n; i++) {
		c ^= p[i];
		for (k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320ul & (0ul - (c & 1ul)));
	}
	return c ^ 0xFFFFFFFFul;
}
static unsigned long be32(const unsigned char *p) {
	return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}
static int fail_write(void *u, const void *d, size_t n) { (void)u; (void)d; (void)n; return 1; }

static void test_png(void) {
	rfl_canvas c = guarded(320, 200, 3, 0);
	const rfl_machine *m[1];
	rfl_roofline_desc d;
	size_t n1 = 0, n2 = 0, pos;
	int chunks = 0, ihdr = 0, iend = 0;
	m[0] = a100();
	if (!m[0]) return;
	memset(&d, 0, sizeof d);
	d.machines = m; d.n_machines = 1;
	rfl_chart_roofline(&c, &d);
	RT_EQ_INT(rfl_png_encode(&c, arena, sizeof arena, png1, sizeof png1, &n1), RFL_OK);
	RT_EQ_INT(rfl_png_encode(&c, arena, sizeof arena, png2, sizeof png2, &n2), RFL_OK);
	RT_CHECK(n1 > 100 && n1 == n2 && memcmp(png1, png2, n1) == 0); /* deterministic */
	RT_CHECK(memcmp(png1, "\x89PNG\r\n\x1a\n", 8) == 0);
	for (pos = 8; pos + 12 <= n1;) {
		unsigned long len = be32(png1 + pos);
		if (pos + 12 + len > n1) break;
		RT_EQ_U64(crc32_of(png1 + pos + 4, len + 4), be32(png1 + pos + 8 + len));
		if (!memcmp(png1 + pos + 4, "IHDR", 4)) {
			ihdr = 1;
			RT_EQ_U64(be32(png1 + pos + 8), 320);
			RT_EQ_U64(be32(png1 + pos + 12), 200);
			RT_EQ_INT(png1[pos + 16], 8); /* bit depth */
			RT_EQ_INT(png1[pos + 17], 2); /* colour type RGB */
		}
		if (!memcmp(png1 + pos + 4, "IDAT", 4)) {
			/* zlib header: deflate, and (CMF*256 + FLG) % 31 == 0 */
			RT_EQ_INT(png1[pos + 8] & 15, 8);
			RT_EQ_INT((png1[pos + 8] * 256 + png1[pos + 9]) % 31, 0);
		}
		if (!memcmp(png1 + pos + 4, "IEND", 4)) iend = 1;
		pos += 12 + len;
		chunks++;
	}
	RT_CHECK(ihdr && iend && pos == n1 && chunks >= 3);
	/* arena rules */
	RT_EQ_INT(rfl_png_encode(&c, arena, 0, png1, sizeof png1, &n1), RFL_ERR_BUFFER);
	RT_EQ_INT(rfl_png_encode(&c, arena, 1000, png1, sizeof png1, &n1), RFL_ERR_BUFFER);
	RT_EQ_INT(rfl_png_encode(&c, arena, 320 * 200 * 3 / 2, png1, sizeof png1, &n1), RFL_ERR_BUFFER);
	RT_EQ_INT(rfl_png_encode(&c, 0, 1 << 20, png1, sizeof png1, &n1), RFL_ERR_BUFFER);
	RT_EQ_INT(rfl_png_encode(&c, arena, RFL_PNG_ARENA_CHART(320, 200, 3), png1, sizeof png1, &n1), RFL_OK);
	RT_EQ_INT(rfl_png_encode(&c, arena, sizeof arena, png1, 50, &n1), RFL_ERR_BUFFER);
	RT_EQ_U64(n1, n2); /* the size needed is reported */
	RT_EQ_INT(rfl_png_write(&c, arena, sizeof arena, fail_write, 0), RFL_ERR_IO);
	RT_EQ_U64(rfl_png_arena_size(320, 200, 3), RFL_PNG_ARENA_BYTES(320, 200, 3));
	/* incompressible pixels: the worst-case size still suffices */
	{
		unsigned long s = 12345;
		size_t i;
		for (i = 0; i < 320u * 200u * 3u; i++) {
			s = s * 1103515245ul + 12345ul;
			c.pixels[i] = (unsigned char)(s >> 16);
		}
		RT_EQ_INT(rfl_png_encode(&c, arena, RFL_PNG_ARENA_BYTES(320, 200, 3), png1, sizeof png1, &n1), RFL_OK);
		RT_EQ_INT(rfl_png_encode(&c, arena, RFL_PNG_ARENA_CHART(320, 200, 3), png1, sizeof png1, &n1), RFL_ERR_BUFFER);
	}
	RT_CHECK(guards_ok(&c, 0));
	{   /* RGBA */
		rfl_canvas c4 = guarded(320, 200, 4, 0);
		rfl_chart_roofline(&c4, &d);
		RT_EQ_INT(rfl_png_encode(&c4, arena, sizeof arena, png1, sizeof png1, &n1), RFL_OK);
		RT_EQ_INT(png1[8 + 8 + 9], 6); /* colour type RGBA */
	}
	{   /* empty canvas: an argument error, not a crash */
		rfl_canvas e;
		rfl_canvas_init(&e, 0, 0, 0, 0, 3, 0);
		RT_EQ_INT(rfl_png_encode(&e, arena, sizeof arena, png1, sizeof png1, &n1), RFL_ERR_ARG);
	}
}
#endif

int main(void) {
	test_init();
	test_guards();
	test_primitives();
	test_text();
	test_roofline_geometry();
	test_roofline_precision();
	test_level_labels();
	test_ranges();
	test_bars();
	test_bars_params();
	test_scatter();
	test_ascii();
	test_tick_style();
	test_determinism();
#ifdef RFL_HAS_PNG
	test_png();
#endif
	return rt_done();
}
