/* ---- chart part: implementation -------------------------------------------
   Canvas primitives, our own bitmap font, axes, roofline/bar/scatter charts,
   the text rendering of a roofline, and PNG output through stb_image_write
   with its allocations in a caller arena. */
#ifndef RFL_NO_CHART

/* libm through overridable macros (the chart needs log10/pow/sqrt; the
   core does not). */
#ifndef RFL_SQRT
#include <math.h>
#define RFL_SQRT(x) sqrt(x)
#endif
#ifndef RFL_LOG10
#include <math.h>
#define RFL_LOG10(x) log10(x)
#endif
#ifndef RFL_POW
#include <math.h>
#define RFL_POW(x, y) pow(x, y)
#endif
#ifndef RFL_FLOOR
#include <math.h>
#define RFL_FLOOR(x) floor(x)
#endif
#ifndef RFL_CEIL
#include <math.h>
#define RFL_CEIL(x) ceil(x)
#endif

#define RFL__BIG 1e7 /* coordinates beyond this are clamped or skipped */

/* For a helper that holds one of a chart's tables (series, labels,
   legend): called once, it would be inlined and its table added to its
   caller's in one frame past 1 KiB, the budget per function on small
   targets (tools/size-report.sh). */
#if defined(__GNUC__) || defined(__clang__)
#define RFL__NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define RFL__NOINLINE __declspec(noinline)
#else
#define RFL__NOINLINE
#endif

static RFL__UNUSED double rfl__clampd(double v, double lo, double hi) {
    return v < lo ? lo : v > hi ? hi : v;
}
/* floor to int for values already clamped into int range */
static RFL__UNUSED int rfl__ifloor(double v) {
    int i = (int)v;
    return (v < (double)i) ? i - 1 : i;
}
/* a safe double -> int: NaN -> lo, clamped to [lo, hi] */
static RFL__UNUSED int rfl__iclamp(double v, int lo, int hi) {
    if (!(v == v) || v <= (double)lo) return lo;
    if (v >= (double)hi) return hi;
    return rfl__ifloor(v);
}
static RFL__UNUSED double rfl__absd(double v) { return v < 0 ? -v : v; }
static RFL__UNUSED int rfl__imin(int a, int b) { return a < b ? a : b; }
static RFL__UNUSED int rfl__imax(int a, int b) { return a > b ? a : b; }

/* ---- canvas -------------------------------------------------------------- */
RFL_API rfl_result rfl_canvas_init(rfl_canvas *c, void *pixels, size_t size_bytes, int w,
                                   int h, int channels, int stride_bytes) {
    size_t need;
    if (!c) return RFL_ERR_ARG;
    RFL_MEMSET(c, 0, sizeof *c);
    if (channels == 0) channels = 3;
    if (w < 0 || h < 0 || w > RFL_CANVAS_MAX_SIDE || h > RFL_CANVAS_MAX_SIDE) return RFL_ERR_ARG;
    if (channels != 3 && channels != 4) return RFL_ERR_ARG;
    if (stride_bytes == 0) stride_bytes = w * channels;
    if (stride_bytes < w * channels) return RFL_ERR_ARG;
    if (w > 0 && h > 0) {
        if (!pixels) return RFL_ERR_ARG;
        need = (size_t)stride_bytes * (size_t)(h - 1) + (size_t)w * (size_t)channels;
        if (size_bytes < need) return RFL_ERR_BUFFER;
    }
    c->pixels = (unsigned char *)pixels;
    c->width = w;
    c->height = h;
    c->channels = channels;
    c->stride_bytes = stride_bytes;
    c->clip_x1 = w;
    c->clip_y1 = h;
    return RFL_OK;
}

RFL_API void rfl_canvas_unclip(rfl_canvas *c) {
    if (!c) return;
    c->clip_x0 = c->clip_y0 = 0;
    c->clip_x1 = c->width;
    c->clip_y1 = c->height;
}

RFL_API void rfl_canvas_clip(rfl_canvas *c, int x0, int y0, int x1, int y1) {
    if (!c) return;
    c->clip_x0 = rfl__imin(rfl__imax(x0, 0), c->width);
    c->clip_y0 = rfl__imin(rfl__imax(y0, 0), c->height);
    c->clip_x1 = rfl__imin(rfl__imax(x1, c->clip_x0), c->width);
    c->clip_y1 = rfl__imin(rfl__imax(y1, c->clip_y0), c->height);
}

/* true when the canvas can be drawn on at all (defends against a canvas
   struct filled in by hand with a clip outside the buffer) */
static int rfl__canvas_ok(const rfl_canvas *c) {
    return c && c->pixels && c->width > 0 && c->height > 0 &&
           (c->channels == 3 || c->channels == 4) && c->stride_bytes >= c->width * c->channels &&
           c->clip_x0 >= 0 && c->clip_y0 >= 0 && c->clip_x1 <= c->width &&
           c->clip_y1 <= c->height && c->clip_x0 < c->clip_x1 && c->clip_y0 < c->clip_y1;
}

RFL_API void rfl_canvas_clear(rfl_canvas *c, rfl_color color) {
    int x, y;
    unsigned char r = (unsigned char)(color >> 16), g = (unsigned char)(color >> 8),
                  b = (unsigned char)color, a = (unsigned char)(color >> 24);
    if (!rfl__canvas_ok(c)) return;
    for (y = c->clip_y0; y < c->clip_y1; y++) {
        unsigned char *p = c->pixels + (size_t)y * (size_t)c->stride_bytes +
                           (size_t)c->clip_x0 * (size_t)c->channels;
        if (r == g && g == b && (c->channels == 3 || a == r)) { /* grey: one fill */
            RFL_MEMSET(p, r, (size_t)(c->clip_x1 - c->clip_x0) * (size_t)c->channels);
            continue;
        }
        for (x = c->clip_x0; x < c->clip_x1; x++) {
            p[0] = r; p[1] = g; p[2] = b;
            if (c->channels == 4) p[3] = a;
            p += c->channels;
        }
    }
}

/* Blend `color` with weight a (0..256, coverage x alpha) into one pixel. */
static void rfl__blend_at(unsigned char *p, int ch, rfl_color color, int a) {
    int r = (int)((color >> 16) & 255), g = (int)((color >> 8) & 255), b = (int)(color & 255);
    if (a <= 0) return;
    if (a >= 256) {
        p[0] = (unsigned char)r; p[1] = (unsigned char)g; p[2] = (unsigned char)b;
        if (ch == 4) p[3] = 255;
        return;
    }
    if (ch == 3) {
        p[0] = (unsigned char)(p[0] + (((r - p[0]) * a) >> 8));
        p[1] = (unsigned char)(p[1] + (((g - p[1]) * a) >> 8));
        p[2] = (unsigned char)(p[2] + (((b - p[2]) * a) >> 8));
    } else {
        /* straight alpha "over": out_a = a + da (1 - a) */
        int da = p[3] * (256 - a) >> 8, oa = a + da;
        if (oa <= 0) return;
        p[0] = (unsigned char)((r * a + p[0] * da) / oa);
        p[1] = (unsigned char)((g * a + p[1] * da) / oa);
        p[2] = (unsigned char)((b * a + p[2] * da) / oa);
        p[3] = (unsigned char)(oa >= 256 ? 255 : oa);
    }
}

/* weight 0..256 from a coverage 0..1 and the colour's alpha */
static int rfl__weight(rfl_color color, double cov) {
    double a = (double)((color >> 24) & 255) * (256.0 / 255.0) * cov;
    if (!(a > 0)) return 0;
    return a >= 256 ? 256 : (int)(a + 0.5);
}

/* One pixel, coordinates checked against the clip. */
static void rfl__plot(rfl_canvas *c, int x, int y, rfl_color color, double cov) {
    if (x < c->clip_x0 || x >= c->clip_x1 || y < c->clip_y0 || y >= c->clip_y1) return;
    rfl__blend_at(c->pixels + (size_t)y * (size_t)c->stride_bytes + (size_t)x * (size_t)c->channels,
                  c->channels, color, rfl__weight(color, cov));
}

/* A horizontal run [x0, x1) on row y with one weight (clipped). Opaque
   runs (the grid, text, bars) are plain stores. */
static void rfl__hspan(rfl_canvas *c, int y, int x0, int x1, rfl_color color, int a) {
    unsigned char *p, r = (unsigned char)(color >> 16), g = (unsigned char)(color >> 8),
                      b = (unsigned char)color;
    if (y < c->clip_y0 || y >= c->clip_y1 || a <= 0) return;
    if (x0 < c->clip_x0) x0 = c->clip_x0;
    if (x1 > c->clip_x1) x1 = c->clip_x1;
    if (x0 >= x1) return;
    p = c->pixels + (size_t)y * (size_t)c->stride_bytes + (size_t)x0 * (size_t)c->channels;
    if (a >= 256) {
        if (c->channels == 3)
            for (; x0 < x1; x0++, p += 3) { p[0] = r; p[1] = g; p[2] = b; }
        else
            for (; x0 < x1; x0++, p += 4) { p[0] = r; p[1] = g; p[2] = b; p[3] = 255; }
        return;
    }
    for (; x0 < x1; x0++, p += c->channels) rfl__blend_at(p, c->channels, color, a);
}

/* ---- lines ------------------------------------------------------------------
   A segment is a capsule: every pixel whose centre lies within width/2 of the
   segment, with a one-pixel linear ramp for anti-aliasing. Each row only
   visits the x range the capsule can reach, so long diagonals stay cheap. */
static int rfl__finite4(double a, double b, double c2, double d) {
    return rfl__isfinite(a) && rfl__isfinite(b) && rfl__isfinite(c2) && rfl__isfinite(d);
}

/* Liang-Barsky: clip the segment to the rectangle; 0 when outside. */
static int rfl__clip_seg(double *x0, double *y0, double *x1, double *y1, double rx0, double ry0,
                         double rx1, double ry1) {
    double t0 = 0, t1 = 1, dx = *x1 - *x0, dy = *y1 - *y0;
    double p[4], q[4];
    int i;
    p[0] = -dx; q[0] = *x0 - rx0;
    p[1] = dx;  q[1] = rx1 - *x0;
    p[2] = -dy; q[2] = *y0 - ry0;
    p[3] = dy;  q[3] = ry1 - *y0;
    for (i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0) return 0;
        } else {
            double t = q[i] / p[i];
            if (p[i] < 0) { if (t > t1) return 0; if (t > t0) t0 = t; }
            else { if (t < t0) return 0; if (t < t1) t1 = t; }
        }
    }
    *x1 = *x0 + t1 * dx; *y1 = *y0 + t1 * dy;
    *x0 = *x0 + t0 * dx; *y0 = *y0 + t0 * dy;
    return 1;
}

static void rfl__capsule(rfl_canvas *c, double x0, double y0, double x1, double y1, double hw,
                         rfl_color color) {
    double dx, dy, l2, r = hw + 1.0, scale = 1.0;
    int ya, yb, py;
    if (!rfl__canvas_ok(c) || !rfl__finite4(x0, y0, x1, y1)) return;
    if (rfl__absd(x0) > 1e150 || rfl__absd(y0) > 1e150 || rfl__absd(x1) > 1e150 ||
        rfl__absd(y1) > 1e150)
        return; /* beyond any sensible drawing; avoids overflow below */
    if (hw < 0.5) { scale = hw * 2; hw = 0.5; r = 1.5; } /* thin: fainter, not thinner */
    if (!(hw <= RFL__BIG)) return;
    if (hw > 500) { hw = 500; r = 501; } /* widths beyond 1000 px are clamped */
    if (!rfl__clip_seg(&x0, &y0, &x1, &y1, c->clip_x0 - r - 1, c->clip_y0 - r - 1,
                       c->clip_x1 + r + 1, c->clip_y1 + r + 1))
        return;
    dx = x1 - x0;
    dy = y1 - y0;
    l2 = dx * dx + dy * dy;
    ya = rfl__iclamp((y0 < y1 ? y0 : y1) - r, c->clip_y0, c->clip_y1);
    yb = rfl__iclamp((y0 > y1 ? y0 : y1) + r + 1, c->clip_y0, c->clip_y1);
    for (py = ya; py < yb; py++) {
        double cy = py + 0.5, ta = 0, tb = 1, xa, xb;
        int xs, xe, px;
        unsigned char *row = c->pixels + (size_t)py * (size_t)c->stride_bytes;
        if (rfl__absd(dy) > 1e-12) {
            ta = (cy - r - y0) / dy;
            tb = (cy + r - y0) / dy;
            if (ta > tb) { double t = ta; ta = tb; tb = t; }
            if (ta < 0) ta = 0;
            if (tb > 1) tb = 1;
            if (ta > tb) { ta = tb = (cy - y0) / dy < 0 ? 0 : 1; }
        }
        xa = x0 + dx * ta;
        xb = x0 + dx * tb;
        if (xa > xb) { double t = xa; xa = xb; xb = t; }
        xs = rfl__iclamp(xa - r, c->clip_x0, c->clip_x1);
        xe = rfl__iclamp(xb + r + 1, c->clip_x0, c->clip_x1);
        for (px = xs; px < xe; px++) {
            double qx = px + 0.5 - x0, qy = cy - y0, t = 0, ex, ey, d2, cov;
            if (l2 > 0) {
                t = (qx * dx + qy * dy) / l2;
                t = t < 0 ? 0 : t > 1 ? 1 : t;
            }
            ex = qx - t * dx;
            ey = qy - t * dy;
            d2 = ex * ex + ey * ey;
            if (d2 >= (hw + 0.5) * (hw + 0.5)) continue;
            if (d2 <= (hw - 0.5) * (hw - 0.5)) cov = 1;
            else cov = hw + 0.5 - RFL_SQRT(d2);
            rfl__blend_at(row + (size_t)px * (size_t)c->channels, c->channels, color,
                          rfl__weight(color, cov * scale));
        }
    }
}

RFL_API void rfl_draw_line(rfl_canvas *c, double x0, double y0, double x1, double y1,
                           double width, rfl_color color) {
    if (!(width >= 0.1)) width = 0.1; /* also NaN */
    rfl__capsule(c, x0, y0, x1, y1, width * 0.5, color);
}

/* Dashes along one segment starting at pattern phase *phase (pixels into
   the on+off period); returns with *phase advanced. */
static void rfl__dash_seg(rfl_canvas *c, double x0, double y0, double x1, double y1, double hw,
                          double on, double off, double *phase, rfl_color color) {
    double dx = x1 - x0, dy = y1 - y0, len = RFL_SQRT(dx * dx + dy * dy), pos = 0, period;
    int guard = 0;
    if (!(len > 0) || !rfl__isfinite(len)) return;
    if (len > 4 * RFL__BIG) { rfl__capsule(c, x0, y0, x1, y1, hw, color); return; }
    period = on + off;
    while (pos < len && guard++ < 200000) {
        double ph = *phase, seg;
        if (ph < on) { /* inside a dash */
            double a = pos, b;
            seg = on - ph;
            b = pos + seg < len ? pos + seg : len;
            {   /* round caps add hw at each end: shorten the drawn part */
                double sa = a + hw * 0.5, sb = b - hw * 0.5;
                if (sb < sa) sa = sb = (a + b) * 0.5;
                rfl__capsule(c, x0 + dx * sa / len, y0 + dy * sa / len, x0 + dx * sb / len,
                             y0 + dy * sb / len, hw, color);
            }
            *phase += b - a;
            pos = b;
        } else {
            seg = period - ph;
            if (pos + seg > len) { *phase += len - pos; pos = len; }
            else { pos += seg; *phase = 0; }
        }
        if (*phase >= period) *phase = 0;
    }
}

/* Dashes along a segment that may reach far off the canvas: only the
   visible part is walked, the phase advanced over the rest so the pattern
   does not shift. */
static void rfl__dash_clipped(rfl_canvas *c, double x0, double y0, double x1, double y1,
                              double hw, double on, double off, double *phase, rfl_color color) {
    double cx0 = x0, cy0 = y0, cx1 = x1, cy1 = y1, m = hw * 2 + 2, dx, dy, period = on + off;
    double skip, len, tail;
    if (!rfl__canvas_ok(c) || !rfl__finite4(x0, y0, x1, y1) || !(hw <= RFL__BIG)) return;
    if (hw > 500) { hw = 500; m = 1002; }
    if (rfl__absd(x0) > 1e150 || rfl__absd(y0) > 1e150 || rfl__absd(x1) > 1e150 ||
        rfl__absd(y1) > 1e150)
        return;
    dx = x1 - x0;
    dy = y1 - y0;
    len = RFL_SQRT(dx * dx + dy * dy);
    if (!rfl__clip_seg(&cx0, &cy0, &cx1, &cy1, c->clip_x0 - m, c->clip_y0 - m, c->clip_x1 + m,
                       c->clip_y1 + m)) {
        *phase += len - period * RFL_FLOOR(len / period);
        if (*phase >= period) *phase -= period;
        return;
    }
    dx = cx0 - x0;
    dy = cy0 - y0;
    skip = RFL_SQRT(dx * dx + dy * dy);
    *phase += skip - period * RFL_FLOOR(skip / period);
    if (*phase >= period) *phase -= period;
    rfl__dash_seg(c, cx0, cy0, cx1, cy1, hw, on, off, phase, color);
    dx = x1 - cx1;
    dy = y1 - cy1;
    tail = RFL_SQRT(dx * dx + dy * dy);
    *phase += tail - period * RFL_FLOOR(tail / period);
    if (*phase >= period) *phase -= period;
}

RFL_API void rfl_draw_dashed(rfl_canvas *c, double x0, double y0, double x1, double y1,
                             double width, double on, double off, rfl_color color) {
    double phase = 0;
    if (!(width >= 0.1)) width = 0.1;
    if (!(on > 0) || !(off > 0) || !(on + off >= 2) || !(on + off < RFL__BIG)) {
        rfl__capsule(c, x0, y0, x1, y1, width * 0.5, color);
        return;
    }
    if (on < 0.5) on = 0.5;
    rfl__dash_clipped(c, x0, y0, x1, y1, width * 0.5, on, off, &phase, color);
}

RFL_API void rfl_draw_polyline(rfl_canvas *c, const double *xy, int n, double width,
                               double dash_on, double dash_off, rfl_color color) {
    int i;
    double phase = 0;
    if (!xy || n < 2) return;
    if (!(width >= 0.1)) width = 0.1;
    for (i = 0; i + 1 < n; i++) {
        double x0 = xy[2 * i], y0 = xy[2 * i + 1], x1 = xy[2 * i + 2], y1 = xy[2 * i + 3];
        if (!rfl__finite4(x0, y0, x1, y1)) { phase = 0; continue; }
        /* patterns finer than 2 px would only look grey: draw solid */
        if (dash_on > 0 && dash_off > 0 && dash_on + dash_off >= 2 && dash_on + dash_off < RFL__BIG)
            rfl__dash_clipped(c, x0, y0, x1, y1, width * 0.5, dash_on < 0.5 ? 0.5 : dash_on,
                              dash_off, &phase, color);
        else
            rfl__capsule(c, x0, y0, x1, y1, width * 0.5, color);
    }
}

/* ---- rectangles and circles ------------------------------------------------ */
RFL_API void rfl_fill_rect(rfl_canvas *c, double x, double y, double w, double h,
                           rfl_color color) {
    double x1, y1;
    int iy0, iy1, py, xl, xr, in0, in1;
    if (!rfl__canvas_ok(c) || !rfl__finite4(x, y, w, h) || !(w > 0) || !(h > 0)) return;
    x1 = rfl__clampd(x + w, -RFL__BIG, RFL__BIG);
    y1 = rfl__clampd(y + h, -RFL__BIG, RFL__BIG);
    x = rfl__clampd(x, -RFL__BIG, RFL__BIG);
    y = rfl__clampd(y, -RFL__BIG, RFL__BIG);
    iy0 = rfl__iclamp(y, c->clip_y0, c->clip_y1);
    iy1 = rfl__iclamp(RFL_CEIL(y1), c->clip_y0, c->clip_y1);
    xl = rfl__ifloor(x);             /* first touched column */
    xr = rfl__ifloor(RFL_CEIL(x1));  /* one past the last touched column */
    in0 = (double)xl == x ? xl : xl + 1;   /* fully covered columns [in0, in1) */
    in1 = rfl__ifloor(x1);
    for (py = iy0; py < iy1; py++) {
        double cy = (py + 1 < y1 ? py + 1 : y1) - (py > y ? py : y);
        if (cy <= 0) continue;
        if (in1 > in0) rfl__hspan(c, py, in0, in1, color, rfl__weight(color, cy));
        if (xr - xl == 1 && in1 <= in0) { rfl__plot(c, xl, py, color, (x1 - x) * cy); continue; }
        if (in0 != xl) rfl__plot(c, xl, py, color, (xl + 1 - x) * cy);
        if (in1 < xr && in1 >= in0) rfl__plot(c, in1, py, color, (x1 - in1) * cy);
    }
}

RFL_API void rfl_draw_rect(rfl_canvas *c, double x, double y, double w, double h, double width,
                           rfl_color color) {
    if (!(w > 0) || !(h > 0) || !(width > 0)) return;
    if (width * 2 >= w || width * 2 >= h) { rfl_fill_rect(c, x, y, w, h, color); return; }
    rfl_fill_rect(c, x, y, w, width, color);
    rfl_fill_rect(c, x, y + h - width, w, width, color);
    rfl_fill_rect(c, x, y + width, width, h - 2 * width, color);
    rfl_fill_rect(c, x + w - width, y + width, width, h - 2 * width, color);
}

/* Disc or ring: coverage from the distance to the centre. ring_hw < 0 fills. */
static void rfl__disc(rfl_canvas *c, double cx, double cy, double r, double ring_hw,
                      rfl_color color) {
    double reach;
    int ya, yb, xa, xb, py, px;
    if (!rfl__canvas_ok(c) || !rfl__finite4(cx, cy, r, 0) || !(r > 0)) return;
    if (rfl__absd(cx) > RFL__BIG || rfl__absd(cy) > RFL__BIG || r > RFL__BIG) return;
    reach = r + (ring_hw > 0 ? ring_hw : 0) + 1;
    ya = rfl__iclamp(cy - reach, c->clip_y0, c->clip_y1);
    yb = rfl__iclamp(cy + reach + 1, c->clip_y0, c->clip_y1);
    xa = rfl__iclamp(cx - reach, c->clip_x0, c->clip_x1);
    xb = rfl__iclamp(cx + reach + 1, c->clip_x0, c->clip_x1);
    for (py = ya; py < yb; py++) {
        double dy = py + 0.5 - cy;
        unsigned char *row = c->pixels + (size_t)py * (size_t)c->stride_bytes;
        for (px = xa; px < xb; px++) {
            double dx = px + 0.5 - cx, d2 = dx * dx + dy * dy, d, cov;
            if (d2 >= reach * reach) continue;
            d = RFL_SQRT(d2);
            if (ring_hw < 0) cov = r + 0.5 - d;
            else cov = ring_hw + 0.5 - rfl__absd(d - r);
            if (cov <= 0) continue;
            if (cov > 1) cov = 1;
            rfl__blend_at(row + (size_t)px * (size_t)c->channels, c->channels, color,
                          rfl__weight(color, cov));
        }
    }
}

RFL_API void rfl_fill_circle(rfl_canvas *c, double cx, double cy, double r, rfl_color color) {
    rfl__disc(c, cx, cy, r, -1, color);
}
RFL_API void rfl_draw_circle(rfl_canvas *c, double cx, double cy, double r, double width,
                             rfl_color color) {
    if (!(width >= 0.1)) width = 0.1;
    rfl__disc(c, cx, cy, r, width * 0.5, color);
}

/* ---- polygons ----------------------------------------------------------------
   Scanline fill, non-zero winding: RFL__SUB sub-scanlines per pixel row,
   exact horizontal coverage, accumulated in a stack row of RFL__TILE
   columns (wider polygons are done in column tiles, left to right; no
   allocation). Each sub-scanline's crossings are found a few at a time
   (RFL__XLOOK per pass over the edges), so that the frame does not grow
   with RFL_POLY_MAX while a convex shape still takes one pass. */
#define RFL__SUB 5
#define RFL__TILE 64
#define RFL__XLOOK 4

/* A sub-scanline: the span in progress starts at xl with winding `wind`;
   x[i..n-1] are the next crossings (distinct, ascending) with their
   summed directions (+1 down, -1 up); `rest`: more lie beyond x[n-1]. */
typedef struct rfl__xing {
    double sy, xl, x[RFL__XLOOK];
    int dir[RFL__XLOOK], i, n, rest, wind;
} rfl__xing;

/* vertex i, clamped as the fill sees it */
static void rfl__poly_pt(const double *xy, int i, double *x, double *y) {
    *x = rfl__clampd(xy[2 * i], -RFL__BIG, RFL__BIG);
    *y = rfl__clampd(xy[2 * i + 1], -RFL__BIG, RFL__BIG);
}

/* One pass over the edges: the RFL__XLOOK leftmost crossings right of
   t->xl. A value that drops out (evicted or never let in) cannot come back,
   so the sums of those kept are complete. */
static void rfl__xing_next(const double *xy, int n, rfl__xing *t) {
    double ax, ay, bx, by;
    int e, j, k;
    t->i = t->n = t->rest = 0;
    rfl__poly_pt(xy, n - 1, &ax, &ay);
    for (e = 0; e < n; e++, ax = bx, ay = by) { /* edge from vertex e - 1 to e */
        double cx;
        int d;
        rfl__poly_pt(xy, e, &bx, &by);
        if (!((ay <= t->sy && by > t->sy) || (by <= t->sy && ay > t->sy))) continue;
        cx = ax + (t->sy - ay) * (bx - ax) / (by - ay);
        d = by > ay ? 1 : -1;
        if (!(cx > t->xl)) continue;
        for (j = 0; j < t->n && t->x[j] < cx; j++) {}
        if (j < t->n && t->x[j] == cx) { t->dir[j] += d; continue; }
        if (j == RFL__XLOOK) { t->rest = 1; continue; }
        if (t->n == RFL__XLOOK) { t->rest = 1; t->n--; }
        for (k = t->n; k > j; k--) { t->x[k] = t->x[k - 1]; t->dir[k] = t->dir[k - 1]; }
        t->x[j] = cx;
        t->dir[j] = d;
        t->n++;
    }
}

RFL_API rfl_result rfl_fill_polygon(rfl_canvas *c, const double *xy, int n, rfl_color color) {
    float acc[RFL__TILE + 1];
    rfl__xing xs[RFL__SUB];
    double minx = RFL__BIG, maxx = -RFL__BIG, miny = RFL__BIG, maxy = -RFL__BIG;
    int i, ya, yb, xa, xb, tx, py, s, k;
    if (!xy || n < 0 || n > RFL_POLY_MAX) return RFL_ERR_ARG;
    if (n < 3 || !rfl__canvas_ok(c)) return RFL_OK;
    for (i = 0; i < n; i++) {
        double x, y;
        if (!rfl__isfinite(xy[2 * i]) || !rfl__isfinite(xy[2 * i + 1])) return RFL_ERR_NOT_FINITE;
        rfl__poly_pt(xy, i, &x, &y);
        if (x < minx) minx = x;
        if (x > maxx) maxx = x;
        if (y < miny) miny = y;
        if (y > maxy) maxy = y;
    }
    ya = rfl__iclamp(miny, c->clip_y0, c->clip_y1);
    yb = rfl__iclamp(maxy + 1, c->clip_y0, c->clip_y1);
    xa = rfl__iclamp(minx, c->clip_x0, c->clip_x1);
    xb = rfl__iclamp(maxx + 1, c->clip_x0, c->clip_x1);
    for (py = ya; py < yb; py++) {
        for (s = 0; s < RFL__SUB; s++) { /* left of every crossing: winding 0 */
            xs[s].sy = py + (s + 0.5) / RFL__SUB;
            xs[s].xl = -1e300;
            xs[s].wind = 0;
            rfl__xing_next(xy, n, &xs[s]);
        }
        for (tx = xa; tx < xb; tx += RFL__TILE) {
            int tw = rfl__imin(RFL__TILE, xb - tx), any = 0;
            for (k = 0; k <= tw; k++) acc[k] = 0;
            for (s = 0; s < RFL__SUB; s++) {
                rfl__xing *t = &xs[s];
                /* spans between neighbouring crossings where the winding
                   is not 0 */
                while (t->i < t->n) {
                    double xr = t->x[t->i];
                    if (t->wind != 0) {
                        double sa = t->xl - tx, sb = xr - tx;
                        const float w = 1.0f / RFL__SUB;
                        if (sa < 0) sa = 0;
                        if (sb > tw) sb = tw;
                        if (sa < sb) {
                            int ia = (int)sa, ib = (int)sb;
                            any = 1;
                            if (ia == ib) {
                                acc[ia] += (float)(sb - sa) * w;
                            } else {
                                acc[ia] += (float)(ia + 1 - sa) * w;
                                for (k = ia + 1; k < ib; k++) acc[k] += w;
                                if (ib < tw) acc[ib] += (float)(sb - ib) * w;
                            }
                        }
                    }
                    if (xr >= tx + tw) break; /* goes on in the next tile */
                    t->xl = xr;
                    t->wind += t->dir[t->i++];
                    if (t->i == t->n && t->rest) rfl__xing_next(xy, n, t);
                }
            }
            if (!any) continue;
            for (k = 0; k < tw; k++) {
                if (acc[k] <= 0.001f) continue;
                if (acc[k] >= 0.999f) {
                    int e = k, a = rfl__weight(color, 1);
                    while (e < tw && acc[e] >= 0.999f) e++;
                    rfl__hspan(c, py, tx + k, tx + e, color, a);
                    k = e - 1;
                    continue;
                }
                rfl__plot(c, tx + k, py, color, acc[k] > 1 ? 1.0 : (double)acc[k]);
            }
        }
    }
    return RFL_OK;
}

/* ---- markers ------------------------------------------------------------------ */
static void rfl__shape(double *xy, rfl_marker m, double cx, double cy, double h, int *n) {
    switch (m) {
    case RFL_MARKER_SQUARE:
        h *= 0.88;
        xy[0] = cx - h; xy[1] = cy - h; xy[2] = cx + h; xy[3] = cy - h;
        xy[4] = cx + h; xy[5] = cy + h; xy[6] = cx - h; xy[7] = cy + h; *n = 4; break;
    case RFL_MARKER_TRIANGLE:
        h *= 1.2;
        xy[0] = cx; xy[1] = cy - h; xy[2] = cx + h * 0.95; xy[3] = cy + h * 0.7;
        xy[4] = cx - h * 0.95; xy[5] = cy + h * 0.7; *n = 3; break;
    case RFL_MARKER_TRIANGLE_DOWN:
        h *= 1.2;
        xy[0] = cx; xy[1] = cy + h; xy[2] = cx - h * 0.95; xy[3] = cy - h * 0.7;
        xy[4] = cx + h * 0.95; xy[5] = cy - h * 0.7; *n = 3; break;
    default: /* diamond */
        h *= 1.2;
        xy[0] = cx; xy[1] = cy - h; xy[2] = cx + h; xy[3] = cy;
        xy[4] = cx; xy[5] = cy + h; xy[6] = cx - h; xy[7] = cy; *n = 4; break;
    }
}

RFL_API void rfl_draw_marker(rfl_canvas *c, rfl_marker m, double cx, double cy, double size,
                             int hollow, rfl_color color) {
    double h, lw, xy[8];
    int n = 0;
    if (!rfl__canvas_ok(c) || !rfl__finite4(cx, cy, size, 0) || !(size > 0)) return;
    if (rfl__absd(cx) > RFL__BIG || rfl__absd(cy) > RFL__BIG) return;
    if (size > 1000) size = 1000;
    h = size * 0.5;
    lw = size / 7 < 1.5 ? 1.5 : size / 7;
    switch (m) {
    case RFL_MARKER_CROSS:
    case RFL_MARKER_PLUS: {
        double k = m == RFL_MARKER_CROSS ? h * 0.8 : h;
        double w = hollow ? lw : lw * 1.6;
        if (m == RFL_MARKER_CROSS) {
            rfl__capsule(c, cx - k, cy - k, cx + k, cy + k, w * 0.5, color);
            rfl__capsule(c, cx - k, cy + k, cx + k, cy - k, w * 0.5, color);
        } else {
            rfl__capsule(c, cx - k, cy, cx + k, cy, w * 0.5, color);
            rfl__capsule(c, cx, cy - k, cx, cy + k, w * 0.5, color);
        }
        return;
    }
    case RFL_MARKER_SQUARE:
    case RFL_MARKER_TRIANGLE:
    case RFL_MARKER_TRIANGLE_DOWN:
    case RFL_MARKER_DIAMOND:
        rfl__shape(xy, m, cx, cy, h, &n);
        if (hollow) {
            double inner[8];
            int ni;
            rfl__shape(inner, m, cx, cy, h - lw * (m == RFL_MARKER_SQUARE ? 1.1 : 1.6), &ni);
            rfl_fill_polygon(c, xy, n, color);
            if (h - lw * 1.6 > 0.5) rfl_fill_polygon(c, inner, ni, RFL_RGB(255, 255, 255));
        } else {
            rfl_fill_polygon(c, xy, n, color);
        }
        return;
    default: /* circle */
        if (hollow) {
            rfl__disc(c, cx, cy, h - lw * 0.5, -1, RFL_RGB(255, 255, 255));
            rfl__disc(c, cx, cy, h - lw * 0.5, lw * 0.5, color);
        } else {
            rfl__disc(c, cx, cy, h, -1, color);
        }
        return;
    }
}

/* ---- text: the library's own bitmap font -----------------------------------
   Designed for this library: 5 x 9 glyph boxes (rows 0..6 cap height, 7..8
   descenders), one byte per row, bit 4 = leftmost column. */
static const unsigned char rfl__font[95][9] = {
    {0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00}, /*   */
    {0x04,0x04,0x04,0x04,0x04,0x00,0x04,0x00,0x00}, /* ! */
    {0x0a,0x0a,0x0a,0x00,0x00,0x00,0x00,0x00,0x00}, /* " */
    {0x0a,0x0a,0x1f,0x0a,0x1f,0x0a,0x0a,0x00,0x00}, /* # */
    {0x04,0x0f,0x14,0x0e,0x05,0x1e,0x04,0x00,0x00}, /* $ */
    {0x18,0x19,0x02,0x04,0x08,0x13,0x03,0x00,0x00}, /* % */
    {0x0c,0x12,0x14,0x08,0x15,0x12,0x0d,0x00,0x00}, /* & */
    {0x04,0x04,0x08,0x00,0x00,0x00,0x00,0x00,0x00}, /* ' */
    {0x02,0x04,0x08,0x08,0x08,0x04,0x02,0x00,0x00}, /* ( */
    {0x08,0x04,0x02,0x02,0x02,0x04,0x08,0x00,0x00}, /* ) */
    {0x00,0x04,0x15,0x0e,0x15,0x04,0x00,0x00,0x00}, /* star */
    {0x00,0x04,0x04,0x1f,0x04,0x04,0x00,0x00,0x00}, /* + */
    {0x00,0x00,0x00,0x00,0x00,0x0c,0x0c,0x04,0x08}, /* , */
    {0x00,0x00,0x00,0x1f,0x00,0x00,0x00,0x00,0x00}, /* - */
    {0x00,0x00,0x00,0x00,0x00,0x0c,0x0c,0x00,0x00}, /* . */
    {0x01,0x01,0x02,0x04,0x08,0x10,0x10,0x00,0x00}, /* / */
    {0x0e,0x11,0x13,0x15,0x19,0x11,0x0e,0x00,0x00}, /* 0 */
    {0x04,0x0c,0x04,0x04,0x04,0x04,0x0e,0x00,0x00}, /* 1 */
    {0x0e,0x11,0x01,0x02,0x04,0x08,0x1f,0x00,0x00}, /* 2 */
    {0x1f,0x02,0x04,0x02,0x01,0x11,0x0e,0x00,0x00}, /* 3 */
    {0x02,0x06,0x0a,0x12,0x1f,0x02,0x02,0x00,0x00}, /* 4 */
    {0x1f,0x10,0x1e,0x01,0x01,0x11,0x0e,0x00,0x00}, /* 5 */
    {0x06,0x08,0x10,0x1e,0x11,0x11,0x0e,0x00,0x00}, /* 6 */
    {0x1f,0x01,0x02,0x04,0x08,0x08,0x08,0x00,0x00}, /* 7 */
    {0x0e,0x11,0x11,0x0e,0x11,0x11,0x0e,0x00,0x00}, /* 8 */
    {0x0e,0x11,0x11,0x0f,0x01,0x02,0x0c,0x00,0x00}, /* 9 */
    {0x00,0x0c,0x0c,0x00,0x0c,0x0c,0x00,0x00,0x00}, /* : */
    {0x00,0x0c,0x0c,0x00,0x0c,0x0c,0x04,0x08,0x00}, /* ; */
    {0x02,0x04,0x08,0x10,0x08,0x04,0x02,0x00,0x00}, /* < */
    {0x00,0x00,0x1f,0x00,0x1f,0x00,0x00,0x00,0x00}, /* = */
    {0x08,0x04,0x02,0x01,0x02,0x04,0x08,0x00,0x00}, /* > */
    {0x0e,0x11,0x01,0x02,0x04,0x00,0x04,0x00,0x00}, /* ? */
    {0x0e,0x11,0x17,0x15,0x17,0x10,0x0f,0x00,0x00}, /* @ */
    {0x0e,0x11,0x11,0x1f,0x11,0x11,0x11,0x00,0x00}, /* A */
    {0x1e,0x11,0x11,0x1e,0x11,0x11,0x1e,0x00,0x00}, /* B */
    {0x0e,0x11,0x10,0x10,0x10,0x11,0x0e,0x00,0x00}, /* C */
    {0x1c,0x12,0x11,0x11,0x11,0x12,0x1c,0x00,0x00}, /* D */
    {0x1f,0x10,0x10,0x1e,0x10,0x10,0x1f,0x00,0x00}, /* E */
    {0x1f,0x10,0x10,0x1e,0x10,0x10,0x10,0x00,0x00}, /* F */
    {0x0e,0x11,0x10,0x17,0x11,0x11,0x0f,0x00,0x00}, /* G */
    {0x11,0x11,0x11,0x1f,0x11,0x11,0x11,0x00,0x00}, /* H */
    {0x0e,0x04,0x04,0x04,0x04,0x04,0x0e,0x00,0x00}, /* I */
    {0x07,0x02,0x02,0x02,0x02,0x12,0x0c,0x00,0x00}, /* J */
    {0x11,0x12,0x14,0x18,0x14,0x12,0x11,0x00,0x00}, /* K */
    {0x10,0x10,0x10,0x10,0x10,0x10,0x1f,0x00,0x00}, /* L */
    {0x11,0x1b,0x15,0x15,0x11,0x11,0x11,0x00,0x00}, /* M */
    {0x11,0x11,0x19,0x15,0x13,0x11,0x11,0x00,0x00}, /* N */
    {0x0e,0x11,0x11,0x11,0x11,0x11,0x0e,0x00,0x00}, /* O */
    {0x1e,0x11,0x11,0x1e,0x10,0x10,0x10,0x00,0x00}, /* P */
    {0x0e,0x11,0x11,0x11,0x15,0x12,0x0d,0x00,0x00}, /* Q */
    {0x1e,0x11,0x11,0x1e,0x14,0x12,0x11,0x00,0x00}, /* R */
    {0x0f,0x10,0x10,0x0e,0x01,0x01,0x1e,0x00,0x00}, /* S */
    {0x1f,0x04,0x04,0x04,0x04,0x04,0x04,0x00,0x00}, /* T */
    {0x11,0x11,0x11,0x11,0x11,0x11,0x0e,0x00,0x00}, /* U */
    {0x11,0x11,0x11,0x11,0x11,0x0a,0x04,0x00,0x00}, /* V */
    {0x11,0x11,0x11,0x15,0x15,0x15,0x0a,0x00,0x00}, /* W */
    {0x11,0x11,0x0a,0x04,0x0a,0x11,0x11,0x00,0x00}, /* X */
    {0x11,0x11,0x0a,0x04,0x04,0x04,0x04,0x00,0x00}, /* Y */
    {0x1f,0x01,0x02,0x04,0x08,0x10,0x1f,0x00,0x00}, /* Z */
    {0x0e,0x08,0x08,0x08,0x08,0x08,0x0e,0x00,0x00}, /* [ */
    {0x10,0x10,0x08,0x04,0x02,0x01,0x01,0x00,0x00}, /* backslash */
    {0x0e,0x02,0x02,0x02,0x02,0x02,0x0e,0x00,0x00}, /* ] */
    {0x04,0x0a,0x11,0x00,0x00,0x00,0x00,0x00,0x00}, /* ^ */
    {0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x1f}, /* _ */
    {0x08,0x04,0x02,0x00,0x00,0x00,0x00,0x00,0x00}, /* ` */
    {0x00,0x00,0x0e,0x01,0x0f,0x11,0x0f,0x00,0x00}, /* a */
    {0x10,0x10,0x16,0x19,0x11,0x11,0x1e,0x00,0x00}, /* b */
    {0x00,0x00,0x0e,0x10,0x10,0x11,0x0e,0x00,0x00}, /* c */
    {0x01,0x01,0x0d,0x13,0x11,0x11,0x0f,0x00,0x00}, /* d */
    {0x00,0x00,0x0e,0x11,0x1f,0x10,0x0e,0x00,0x00}, /* e */
    {0x06,0x09,0x08,0x1c,0x08,0x08,0x08,0x00,0x00}, /* f */
    {0x00,0x00,0x0f,0x11,0x11,0x11,0x0f,0x01,0x0e}, /* g */
    {0x10,0x10,0x16,0x19,0x11,0x11,0x11,0x00,0x00}, /* h */
    {0x04,0x00,0x0c,0x04,0x04,0x04,0x0e,0x00,0x00}, /* i */
    {0x02,0x00,0x06,0x02,0x02,0x02,0x02,0x12,0x0c}, /* j */
    {0x10,0x10,0x12,0x14,0x18,0x14,0x12,0x00,0x00}, /* k */
    {0x0c,0x04,0x04,0x04,0x04,0x04,0x0e,0x00,0x00}, /* l */
    {0x00,0x00,0x1a,0x15,0x15,0x15,0x15,0x00,0x00}, /* m */
    {0x00,0x00,0x16,0x19,0x11,0x11,0x11,0x00,0x00}, /* n */
    {0x00,0x00,0x0e,0x11,0x11,0x11,0x0e,0x00,0x00}, /* o */
    {0x00,0x00,0x16,0x19,0x11,0x11,0x1e,0x10,0x10}, /* p */
    {0x00,0x00,0x0d,0x13,0x11,0x11,0x0f,0x01,0x01}, /* q */
    {0x00,0x00,0x16,0x19,0x10,0x10,0x10,0x00,0x00}, /* r */
    {0x00,0x00,0x0f,0x10,0x0e,0x01,0x1e,0x00,0x00}, /* s */
    {0x08,0x08,0x1e,0x08,0x08,0x09,0x06,0x00,0x00}, /* t */
    {0x00,0x00,0x11,0x11,0x11,0x13,0x0d,0x00,0x00}, /* u */
    {0x00,0x00,0x11,0x11,0x11,0x0a,0x04,0x00,0x00}, /* v */
    {0x00,0x00,0x11,0x11,0x15,0x15,0x0a,0x00,0x00}, /* w */
    {0x00,0x00,0x11,0x0a,0x04,0x0a,0x11,0x00,0x00}, /* x */
    {0x00,0x00,0x11,0x11,0x11,0x11,0x0f,0x01,0x0e}, /* y */
    {0x00,0x00,0x1f,0x02,0x04,0x08,0x1f,0x00,0x00}, /* z */
    {0x03,0x04,0x04,0x08,0x04,0x04,0x03,0x00,0x00}, /* { */
    {0x04,0x04,0x04,0x04,0x04,0x04,0x04,0x04,0x04}, /* | */
    {0x18,0x04,0x04,0x02,0x04,0x04,0x18,0x00,0x00}, /* } */
    {0x00,0x00,0x08,0x15,0x02,0x00,0x00,0x00,0x00}, /* ~ */
};

#define RFL__FONT_MAXSCALE 8

static int rfl__is_sup(int ch) { return (ch >= '0' && ch <= '9') || ch == '-' || ch == '+'; }

RFL_API int rfl_text_width(const char *text, int len, int scale) {
    long w = 0;
    int i, sup = 0, ss;
    if (!text) return 0;
    if (scale < 1) scale = 1;
    if (scale > RFL__FONT_MAXSCALE) scale = RFL__FONT_MAXSCALE;
    ss = scale > 1 ? scale - 1 : 1;
    for (i = 0; (len < 0 || i < len) && text[i]; i++) {
        if (text[i] == '^' && rfl__is_sup((unsigned char)text[i + 1]) &&
            (len < 0 || i + 1 < len)) { sup = 1; continue; }
        if (sup && !rfl__is_sup((unsigned char)text[i])) sup = 0;
        w += RFL_FONT_W * (sup ? ss : scale);
        if (w > 1000000000L) break;
    }
    return (int)w;
}

/* Frame of a text run: glyph-local (u along the text, v down the glyph)
   to canvas pixels. */
typedef struct rfl__tframe {
    double ox, oy;
    int up;
} rfl__tframe;

static void rfl__tfill(rfl_canvas *c, const rfl__tframe *f, double u, double v, double du,
                       double dv, rfl_color color) {
    if (f->up) rfl_fill_rect(c, f->ox + v, f->oy - u - du, dv, du, color);
    else rfl_fill_rect(c, f->ox + u, f->oy + v, du, dv, color);
}
static void rfl__ttri(rfl_canvas *c, const rfl__tframe *f, const double *uv, rfl_color color) {
    double xy[6];
    int i;
    for (i = 0; i < 3; i++) {
        double u = uv[2 * i], v = uv[2 * i + 1];
        xy[2 * i] = f->up ? f->ox + v : f->ox + u;
        xy[2 * i + 1] = f->up ? f->oy - u : f->oy + v;
    }
    {   /* vertex 1 is the right angle, the legs run along the axes: exact
           coverage per pixel, far cheaper than the general polygon fill */
        double cx = xy[2], cy = xy[3], h = 0, sx = 1, sy = 1;
        int q, j, n, ix, iy;
        for (q = 0; q < 3; q += 2) {
            double dx = xy[2 * q] - cx, dy = xy[2 * q + 1] - cy;
            if (dx != 0) { sx = dx > 0 ? 1 : -1; h = dx > 0 ? dx : -dx; }
            if (dy != 0) sy = dy > 0 ? 1 : -1;
        }
        if (cx != RFL_FLOOR(cx) || cy != RFL_FLOOR(cy) || h <= 0 || h > 8 ||
            rfl__absd(cx) > RFL__BIG || rfl__absd(cy) > RFL__BIG) {
            rfl_fill_polygon(c, xy, 3, color);
            return;
        }
        n = (int)RFL_CEIL(h);
        ix = (int)cx;
        iy = (int)cy;
        for (j = 0; j < n; j++)
            for (q = 0; q + j < n + 1 && q < n; q++) {
                double t = h - q - j, a;
                if (t <= 0) continue;
                a = t >= 2 ? 1 : t <= 1 ? t * t / 2 : 1 - (2 - t) * (2 - t) / 2;
                rfl__plot(c, sx > 0 ? ix + q : ix - 1 - q, sy > 0 ? iy + j : iy - 1 - j, color, a);
            }
    }
}

static int rfl__glyph_on(const unsigned char *g, int col, int row) {
    if (col < 0 || col > 4 || row < 0 || row > 8) return 0;
    return (g[row] >> (4 - col)) & 1;
}

/* One glyph with its top-left cell corner at local (u, v). From scale 2 up,
   diagonal steps get small bridging triangles so strokes read smoothly. */
static void rfl__glyph(rfl_canvas *c, const rfl__tframe *f, double u, double v, int ch, int s,
                       rfl_color color) {
    const unsigned char *g;
    int row, col;
    if (ch < 32 || ch > 126) ch = '?';
    g = rfl__font[ch - 32];
    v += s; /* one empty row above the glyph in the cell */
    for (row = 0; row < 9; row++) {
        int bits = g[row];
        col = 0;
        while (col < 5) {
            int end;
            if (!((bits >> (4 - col)) & 1)) { col++; continue; }
            end = col;
            while (end < 5 && ((bits >> (4 - end)) & 1)) end++;
            rfl__tfill(c, f, u + col * s, v + row * s, (end - col) * s, s, color);
            col = end;
        }
    }
    if (s < 2) return;
    for (row = 0; row < 8; row++) {
        for (col = -1; col < 5; col++) {
            int a = rfl__glyph_on(g, col, row), b = rfl__glyph_on(g, col + 1, row);
            int cc = rfl__glyph_on(g, col, row + 1), d = rfl__glyph_on(g, col + 1, row + 1);
            double X = u + (col + 1) * s, Y = v + (row + 1) * s, h = s * 0.5, t[6];
            if (a && d && !b && !cc) { /* "\" step */
                t[0] = X; t[1] = Y - h; t[2] = X; t[3] = Y; t[4] = X + h; t[5] = Y;
                rfl__ttri(c, f, t, color);
                t[0] = X - h; t[1] = Y; t[2] = X; t[3] = Y; t[4] = X; t[5] = Y + h;
                rfl__ttri(c, f, t, color);
            } else if (b && cc && !a && !d) { /* "/" step */
                t[0] = X; t[1] = Y - h; t[2] = X; t[3] = Y; t[4] = X - h; t[5] = Y;
                rfl__ttri(c, f, t, color);
                t[0] = X + h; t[1] = Y; t[2] = X; t[3] = Y; t[4] = X; t[5] = Y + h;
                rfl__ttri(c, f, t, color);
            }
        }
    }
}

RFL_API int rfl_draw_text(rfl_canvas *c, double x, double y, const char *text, int scale,
                          int flags, rfl_color color) {
    int w, h, i, sup = 0, ss;
    double u = 0, limit;
    rfl__tframe f;
    if (!text) return 0;
    if (scale < 1) scale = 1;
    if (scale > RFL__FONT_MAXSCALE) scale = RFL__FONT_MAXSCALE;
    ss = scale > 1 ? scale - 1 : 1;
    w = rfl_text_width(text, -1, scale);
    if (!rfl__canvas_ok(c) || !rfl__isfinite(x) || !rfl__isfinite(y)) return w;
    x = rfl__clampd(x, -RFL__BIG, RFL__BIG);
    y = rfl__clampd(y, -RFL__BIG, RFL__BIG);
    h = RFL_FONT_H * scale;
    /* along: offset of the start; across: offset of the top */
    {
        double along = (flags & 3) == RFL_TEXT_CENTER ? -w * 0.5 : (flags & 3) == RFL_TEXT_RIGHT ? -w : 0;
        double across = (flags & 12) == RFL_TEXT_MIDDLE ? -h * 0.5 : (flags & 12) == RFL_TEXT_BOTTOM ? -h : 0;
        f.up = (flags & RFL_TEXT_UP) != 0;
        if (f.up) { f.ox = x + across; f.oy = y - along; }
        else { f.ox = x + along; f.oy = y + across; }
        /* whole pixels keep the glyph blocks crisp */
        f.ox = RFL_FLOOR(f.ox + 0.5);
        f.oy = RFL_FLOOR(f.oy + 0.5);
    }
    /* stop once the pen has left the clip box: long labels cost nothing */
    limit = f.up ? f.oy - c->clip_y0 : c->clip_x1 - f.ox;
    for (i = 0; text[i]; i++) {
        int ch = (unsigned char)text[i];
        if (ch == '^' && rfl__is_sup((unsigned char)text[i + 1])) { sup = 1; continue; }
        if (sup && !rfl__is_sup(ch)) sup = 0;
        if (u > limit) break;
        {   /* skip glyphs wholly before the clip box (centred long text) */
            double adv = RFL_FONT_W * (sup ? ss : scale);
            if (f.up ? f.oy - u - adv > c->clip_y1 : f.ox + u + adv < c->clip_x0) { u += adv; continue; }
        }
        if (sup) rfl__glyph(c, &f, u, -scale * 2.0 + (scale - ss) * 1.0, ch, ss, color);
        else rfl__glyph(c, &f, u, 0, ch, scale, color);
        u += RFL_FONT_W * (sup ? ss : scale);
    }
    return w;
}

/* ---- axes ------------------------------------------------------------------ */
typedef struct rfl__axis {
    double lo, hi;   /* value range */
    int log;
    double p0, p1;   /* pixel positions of lo and hi (rfl__axis_place) */
    double llo, lhi; /* log axes: log10 of lo and hi, kept because the
                        obstacles are mapped again for every score */
    rfl_ticks ticks;
} rfl__axis;

/* Put the range (final by now) at pixels p0..p1. */
static void rfl__axis_place(rfl__axis *a, double p0, double p1) {
    a->p0 = p0;
    a->p1 = p1;
    if (a->log) {
        a->llo = RFL_LOG10(a->lo);
        a->lhi = RFL_LOG10(a->hi);
    }
}
/* value -> pixel on a placed axis; values a log axis cannot show map far
   outside */
static double rfl__amap(const rfl__axis *a, double v) {
    double t;
    if (!rfl__isfinite(v)) return -1e300;
    if (a->log) {
        if (!(v > 0)) return -1e300;
        t = (RFL_LOG10(v) - a->llo) / (a->lhi - a->llo);
    } else {
        t = (v - a->lo) / (a->hi - a->lo);
    }
    if (t > 1e6) t = 1e6; /* far off the plot, still a safe coordinate */
    if (t < -1e6) t = -1e6;
    return a->p0 + t * (a->p1 - a->p0);
}
/* pixel -> value */
static RFL__UNUSED double rfl__aunmap(const rfl__axis *a, double p) {
    double t = (p - a->p0) / (a->p1 - a->p0);
    if (a->log) return RFL_POW(10.0, RFL_LOG10(a->lo) + t * (RFL_LOG10(a->hi) - RFL_LOG10(a->lo)));
    return a->lo + t * (a->hi - a->lo);
}

static double rfl__p10(double k) { return RFL_POW(10.0, k); }

/* 1-2-5 step near span/target */
static double rfl__nice_step(double span, int target) {
    double raw = span / (target > 0 ? target : 1), e, f;
    if (!(raw > 0) || !rfl__isfinite(raw)) return 1;
    e = RFL_FLOOR(RFL_LOG10(raw));
    f = raw / rfl__p10(e);
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * rfl__p10(e);
}

/* Snap a range outward: decades on log axes, 1-2-5 steps on linear ones. */
static void rfl__nice_range(rfl__axis *a, double lo, double hi) {
    if (a->log) {
        if (!(lo > 0) || !rfl__isfinite(lo)) lo = 1;
        if (!(hi > lo) || !rfl__isfinite(hi)) hi = lo * 10;
        a->lo = rfl__p10(RFL_FLOOR(RFL_LOG10(lo) + 1e-9));
        a->hi = rfl__p10(RFL_CEIL(RFL_LOG10(hi) - 1e-9));
        if (!(a->hi > a->lo)) a->hi = a->lo * 10;
    } else {
        double st;
        if (!rfl__isfinite(lo)) lo = 0;
        if (!rfl__isfinite(hi) || !(hi > lo)) hi = lo + 1;
        st = rfl__nice_step(hi - lo, 6);
        a->lo = RFL_FLOOR(lo / st + 1e-9) * st;
        a->hi = RFL_CEIL(hi / st - 1e-9) * st;
        if (!(a->hi > a->lo)) a->hi = a->lo + st;
    }
}

/* Ticks are computed where they are drawn, not kept in arrays (stack).
   Majors 0..nmajor-1 (at most RFL__MAXTICK); minors only on log axes of at
   most 8 decades: candidates 0..nminor-1, m x 10^k for m = 2..9, of which
   rfl__tminor keeps those inside the axis. */
#define RFL__MAXTICK 64
typedef struct rfl__tickset {
    double k0, step; /* log: first decade, decades per tick; linear: first
                        multiple of the step, the step */
    int nmajor, nminor;
} rfl__tickset;

static double rfl__tmajor(const rfl__axis *a, const rfl__tickset *t, int i) {
    double v;
    /* i == 0 apart: k0 may be -inf (lo 0) with an infinite step */
    if (a->log) return rfl__p10(i ? t->k0 + i * t->step : t->k0);
    v = (t->k0 + i) * t->step;
    return rfl__absd(v) < t->step * 1e-9 ? 0 : v;
}
/* minor candidate j; 0 when it lies outside the axis */
static int rfl__tminor(const rfl__axis *a, const rfl__tickset *t, int j, double *v) {
    *v = (j % 8 + 2) * rfl__p10(t->k0 - 1 + j / 8);
    return *v > a->lo * (1 + 1e-9) && *v < a->hi * (1 - 1e-9);
}

static void rfl__make_ticks(const rfl__axis *a, rfl__tickset *t) {
    t->nmajor = t->nminor = 0;
    if (a->log) {
        double k0 = RFL_CEIL(RFL_LOG10(a->lo) - 1e-9), k1 = RFL_FLOOR(RFL_LOG10(a->hi) + 1e-9);
        t->k0 = k0;
        t->step = 1;
        if (k1 - k0 > 12) t->step = RFL_CEIL((k1 - k0) / 10);
        while (t->nmajor < RFL__MAXTICK) {
            int i = t->nmajor;
            if (!((i ? k0 + i * t->step : k0) <= k1 + 1e-9)) break;
            t->nmajor++;
        }
        /* decades k0 - 1 .. k1 */
        if (t->step == 1 && k1 - k0 <= 8 && k1 - k0 >= -1) t->nminor = 8 * ((int)(k1 - k0) + 2);
    } else {
        t->step = rfl__nice_step(a->hi - a->lo, 6);
        t->k0 = RFL_CEIL(a->lo / t->step - 1e-9);
        while (t->nmajor < RFL__MAXTICK &&
               !((t->k0 + t->nmajor) * t->step > a->hi + t->step * 1e-9))
            t->nmajor++;
    }
}

/* Trim trailing blanks left by rfl_fmt_si ("100 " -> "100"). */
static void rfl__rtrim(char *b) {
    size_t n = rfl__strlen(b);
    while (n && b[n - 1] == ' ') b[--n] = 0;
}

static void rfl__tick_label(char *b, size_t size, const rfl__axis *a, double v) {
    double av = rfl__absd(v);
    rfl_ticks st = a->ticks;
    b[0] = 0;
    if (st == RFL_TICKS_AUTO) st = (av == 0 || (av >= 1e-3 && av < 1e5)) ? RFL_TICKS_PLAIN
                                   : a->log ? RFL_TICKS_POW10 : RFL_TICKS_SI;
    if (st == RFL_TICKS_POW10 && a->log && v > 0) {
        double k = RFL_FLOOR(RFL_LOG10(v) + 0.5);
        if (rfl__absd(v / rfl__p10(k) - 1) < 1e-6) {
            b[0] = '1'; b[1] = '0'; b[2] = '^';
            rfl_fmt_num(b + 3, size - 3, k, 4);
            return;
        }
        st = RFL_TICKS_SI;
    }
    if (st == RFL_TICKS_SI && av >= 1e-24) {
        rfl_fmt_si(b, size, v, 3);
        rfl__rtrim(b);
        return;
    }
    rfl_fmt_num(b, size, v, 6);
}

/* ---- layout helpers ---------------------------------------------------------- */
typedef struct rfl__rect {
    double x0, y0, x1, y1;
} rfl__rect;

static int rfl__overlap(const rfl__rect *a, const rfl__rect *b) {
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* Things a legend or a label should not cover, each with a weight: the
   chart's fixed obstacles (points, samples along lines, bars), then the
   labels placed so far. Only the labels' choices are stored (the frames
   stay small): the chart replays its fixed obstacles into an rfl__scan
   for every rectangle it scores, and rebuilds a placed label's box from
   its id and choice. The limits are those of the table of RFL__NOBST
   rectangles that this replaced: the first RFL__NOBST - RFL__NLAB fixed
   obstacles count, then labels while the total is under RFL__NOBST, but
   at most RFL__NLAB labels (a scatter chart; a roofline panel has at most
   RFL__JOBS); beyond that they are ignored, which only affects placement. */
#define RFL__NOBST 768
#define RFL__NLAB 96
typedef struct rfl__scan {
    const rfl__rect *r; /* the rectangle scored; NULL: only count */
    long score;
    int n;              /* fixed obstacles counted so far */
} rfl__scan;
typedef void (*rfl__fixed_fn)(const void *ctx, rfl__scan *sc);
typedef void (*rfl__label_fn)(const void *ctx, int id, int how, rfl__rect *box);
typedef struct rfl__labels { /* the chart's arrays of cap (<= RFL__NLAB) entries */
    int n, cap;
    int *id;            /* which label: the chart's numbering */
    unsigned char *how; /* candidate + 8 x form (1: the short one) */
} rfl__labels;
typedef struct rfl__obst {
    rfl__fixed_fn fixed;
    rfl__label_fn label_box; /* a placed label's box from (id, how) */
    const void *ctx;
    rfl__labels *lab;        /* NULL: the chart places no labels */
    int nfixed;              /* fixed obstacles that count */
} rfl__obst;

static void rfl__scan_add(rfl__scan *sc, double x0, double y0, double x1, double y1, int w) {
    rfl__rect b;
    if (sc->n >= RFL__NOBST - RFL__NLAB || !rfl__finite4(x0, y0, x1, y1)) return;
    sc->n++;
    b.x0 = x0; b.y0 = y0; b.x1 = x1; b.y1 = y1;
    if (sc->r && rfl__overlap(&b, sc->r)) sc->score += w;
}
/* ctx must describe every fixed obstacle already: they are counted here */
static void rfl__obst_init(rfl__obst *o, rfl__fixed_fn fixed, rfl__label_fn label_box,
                           const void *ctx, rfl__labels *lab, int *id, unsigned char *how,
                           int cap) {
    rfl__scan sc;
    o->fixed = fixed;
    o->label_box = label_box;
    o->ctx = ctx;
    o->lab = lab;
    if (lab) {
        lab->n = 0;
        lab->cap = cap;
        lab->id = id;
        lab->how = how;
    }
    sc.r = 0;
    sc.score = 0;
    sc.n = 0;
    fixed(ctx, &sc);
    o->nfixed = sc.n;
}
static long rfl__obst_score(const rfl__obst *o, const rfl__rect *r) {
    rfl__scan sc;
    int i;
    sc.r = r;
    sc.score = 0;
    sc.n = 0;
    o->fixed(o->ctx, &sc);
    for (i = 0; o->lab && i < o->lab->n; i++) {
        rfl__rect b;
        o->label_box(o->ctx, o->lab->id[i], o->lab->how[i], &b);
        if (rfl__overlap(&b, r)) sc.score += 40;
    }
    return sc.score;
}
/* Samples of a pixel polyline every few pixels as small obstacles. */
static void rfl__scan_line(rfl__scan *sc, double x0, double y0, double x1, double y1, double step,
                           int w, const rfl__rect *clip) {
    double dx = x1 - x0, dy = y1 - y0, len = RFL_SQRT(dx * dx + dy * dy), t;
    int k = 0;
    if (!(len > 0) || !rfl__isfinite(len)) return;
    if (len / step > 48) step = len / 48; /* long lines: at most ~48 samples */
    for (t = 0; t <= len && k < 400; t += step, k++) {
        double x = x0 + dx * t / len, y = y0 + dy * t / len;
        /* boxes stretched along the line so that they touch: the whole
           line is covered, but only 2 px to either side of it */
        double hx = rfl__absd(dx) / len * step / 2 + 2, hy = rfl__absd(dy) / len * step / 2 + 2;
        if (x < clip->x0 || x > clip->x1 || y < clip->y0 || y > clip->y1) continue;
        rfl__scan_add(sc, x - hx, y - hy, x + hx, y + hy, w);
    }
}

/* Text box for anchor + flags (horizontal text only). */
static rfl__rect rfl__text_box(double x, double y, const char *s, int scale, int flags) {
    rfl__rect r;
    double w = rfl_text_width(s, -1, scale), h = RFL_FONT_H * scale;
    r.x0 = (flags & 3) == RFL_TEXT_CENTER ? x - w / 2 : (flags & 3) == RFL_TEXT_RIGHT ? x - w : x;
    r.y0 = (flags & 12) == RFL_TEXT_MIDDLE ? y - h / 2 : (flags & 12) == RFL_TEXT_BOTTOM ? y - h : y;
    r.x1 = r.x0 + w;
    r.y1 = r.y0 + h;
    return r;
}

/* Try label anchors in order, first with the full text, then with `alt`
   (a shorter form, may be NULL); draw at the first place that stays inside
   `inside` and covers nothing. Failing that, the least bad place that
   covers no point or label (crossing a few line samples is tolerated);
   failing that, nothing: an unreadable label is worse than none. Records
   the drawn label in o as `id` with its choice (see rfl__label_box).
   Returns 1 when drawn. */
typedef struct rfl__cand {
    double x, y;
    int flags;
} rfl__cand;
/* The box a placed label keeps others out of: its text with a margin. */
static void rfl__label_box(const rfl__cand *cand, const char *t, int scale, rfl__rect *box) {
    rfl__rect br = rfl__text_box(cand->x, cand->y, t, scale, cand->flags);
    box->x0 = br.x0 - 4 * scale;
    box->y0 = br.y0 - 2;
    box->x1 = br.x1 + 4 * scale;
    box->y1 = br.y1 + 2;
}
static int rfl__place_label(rfl_canvas *c, rfl__obst *o, const rfl__rect *inside,
                            const rfl__cand *cand, int n, const char *s, const char *alt,
                            int scale, rfl_color color, int id) {
    long best = -1;
    int i, v, bi = 0, bv = 0;
    const char *bs = s;
    rfl__rect br, box;
    rfl__labels *lab = o->lab;
    for (v = 0; v < 2; v++) {
        const char *t = v ? alt : s;
        if (!t) continue;
        for (i = 0; i < n; i++) {
            rfl__rect r = rfl__text_box(cand[i].x, cand[i].y, t, scale, cand[i].flags);
            long sc = rfl__obst_score(o, &r);
            if (r.x0 < inside->x0 || r.x1 > inside->x1 || r.y0 < inside->y0 || r.y1 > inside->y1)
                sc += 1000;
            if (best < 0 || sc < best) { best = sc; bi = i; bs = t; bv = v; }
            if (sc == 0) break;
        }
        if (best == 0) break;
    }
    if (n <= 0 || best < 0 || best >= 30) return 0;
    br = rfl__text_box(cand[bi].x, cand[bi].y, bs, scale, cand[bi].flags);
    /* a white halo keeps a label legible where it crosses grid lines */
    rfl_fill_rect(c, br.x0 - 2, br.y0, br.x1 - br.x0 + 4, br.y1 - br.y0, RFL_RGB(255, 255, 255));
    rfl_draw_text(c, cand[bi].x, cand[bi].y, bs, scale, cand[bi].flags, color);
    rfl__label_box(&cand[bi], bs, scale, &box);
    if (lab && rfl__finite4(box.x0, box.y0, box.x1, box.y1) && o->nfixed + lab->n < RFL__NOBST &&
        lab->n < lab->cap) {
        lab->id[lab->n] = id;
        lab->how[lab->n++] = (unsigned char)(bi + 8 * bv);
    }
    return 1;
}

/* ---- palette and series ------------------------------------------------------ */
static const rfl_color rfl__palette[10] = {
    0xFF1F77B4u, 0xFFE8710Au, 0xFF2CA02Cu, 0xFF8E5CC8u, 0xFF8C564Bu,
    0xFFD6449Fu, 0xFF17A2B8u, 0xFF8A8A14u, 0xFF2B3A8Cu, 0xFF6F6F6Fu};
static const rfl_marker rfl__markers[7] = {RFL_MARKER_CIRCLE, RFL_MARKER_SQUARE,
                                           RFL_MARKER_TRIANGLE, RFL_MARKER_DIAMOND,
                                           RFL_MARKER_TRIANGLE_DOWN, RFL_MARKER_PLUS,
                                           RFL_MARKER_CROSS};
#define RFL__INK 0xFF222222u
#define RFL__GRID 0xFFDADADAu
#define RFL__GRID2 0xFFF0F0F0u
#define RFL__WARN 0xFFD62728u
#define RFL__LIGHT 0xFF8F8F8Fu

static int rfl__streq(const char *a, const char *b) {
    if (a == b) return 1;
    if (!a || !b) return 0;
    while (*a && *a == *b) { a++; b++; }
    return *a == *b;
}
static int rfl__has_label(const char *s) { return s && s[0]; }

/* Mix a colour toward white by t (0..1). */
static RFL__UNUSED rfl_color rfl__tint(rfl_color c, double t) {
    int r = (int)((c >> 16) & 255), g = (int)((c >> 8) & 255), b = (int)(c & 255);
    r = r + (int)((255 - r) * t);
    g = g + (int)((255 - g) * t);
    b = b + (int)((255 - b) * t);
    return RFL_RGB(r, g, b);
}

/* ---- legend ---------------------------------------------------------------- */
#define RFL__MAXLEG 24
/* Entries in small types (the legend lives on the stack): a warning's
   text is followed by rfl__leg_suffix. */
typedef struct rfl__legend {
    const char *text[RFL__MAXLEG];
    rfl_color color[RFL__MAXLEG];
    unsigned char marker[RFL__MAXLEG]; /* rfl_marker */
    unsigned char hollow[RFL__MAXLEG];
    unsigned char kind[RFL__MAXLEG]; /* 0 marker, 1 swatch, 2 warning, 3 note */
    int n, more;
} rfl__legend;

static void rfl__leg_add(rfl__legend *l, const char *text, rfl_marker m, rfl_color col,
                         int hollow, int kind) {
    if (l->n >= RFL__MAXLEG) { l->more++; return; }
    l->text[l->n] = text;
    /* rfl_draw_marker draws every value outside the enum as a circle */
    l->marker[l->n] = (unsigned char)((unsigned)m < RFL_MARKER_COUNT ? m : RFL_MARKER_CIRCLE);
    l->color[l->n] = col;
    l->hollow[l->n] = hollow != 0;
    l->kind[l->n] = (unsigned char)kind;
    l->n++;
}
static const char *rfl__leg_suffix(const rfl__legend *l, int i) {
    return l->kind[i] == 2 ? ": above roof, check units" : 0;
}

#define RFL__LEG_MAXCH 48 /* longer legend texts are cut with ".." */
static int rfl__leg_textw(const rfl__legend *l, int i, int s) {
    int w = rfl_text_width(l->text[i], -1, s);
    if (rfl__leg_suffix(l, i)) w += rfl_text_width(rfl__leg_suffix(l, i), -1, s);
    if (w > RFL__LEG_MAXCH * RFL_FONT_W * s) w = RFL__LEG_MAXCH * RFL_FONT_W * s;
    return w;
}
static void rfl__leg_size(const rfl__legend *l, int s, double *w, double *h) {
    int i, mw = 0;
    for (i = 0; i < l->n; i++) mw = rfl__imax(mw, rfl__leg_textw(l, i, s));
    if (l->more) mw = rfl__imax(mw, 12 * RFL_FONT_W * s);
    *w = mw + 24.0 * s;
    *h = (l->n + (l->more ? 1 : 0)) * (RFL_FONT_H + 3) * s + 6.0 * s;
}

/* Draw text clipped to at most RFL__LEG_MAXCH characters. */
static void rfl__text_cut(rfl_canvas *c, double x, double y, const char *a, const char *b, int s,
                          int flags, rfl_color col) {
    char buf[RFL__LEG_MAXCH + 4];
    int n = 0, i;
    for (i = 0; a && a[i] && n < RFL__LEG_MAXCH; i++) buf[n++] = a[i];
    for (i = 0; b && b[i] && n < RFL__LEG_MAXCH; i++) buf[n++] = b[i];
    if ((a && a[0] && rfl__strlen(a) + (b ? rfl__strlen(b) : 0) > RFL__LEG_MAXCH)) {
        buf[n - 2] = '.';
        buf[n - 1] = '.';
    }
    buf[n] = 0;
    rfl_draw_text(c, x, y, buf, s, flags, col);
}

static void rfl__leg_draw(rfl_canvas *c, const rfl__legend *l, double x, double y, int s) {
    double w, h, rowh = (RFL_FONT_H + 3) * s;
    int i;
    rfl__leg_size(l, s, &w, &h);
    rfl_fill_rect(c, x, y, w, h, RFL_RGB(255, 255, 255)); /* opaque: it sits where no data is */
    rfl_draw_rect(c, x, y, w, h, 1, 0xFFB0B0B0u);
    for (i = 0; i < l->n; i++) {
        double cy = y + 3 * s + rowh * i + rowh / 2, mx = x + 11 * s;
        switch (l->kind[i]) {
        case 1: rfl_fill_rect(c, mx - 5 * s, cy - 4 * s, 10 * s, 8 * s, l->color[i]); break;
        case 2:
            rfl_draw_circle(c, mx, cy, 4.5 * s, 1.5 * s, RFL__WARN);
            rfl_draw_text(c, mx + 0.5, cy, "!", s, RFL_TEXT_CENTER | RFL_TEXT_MIDDLE, RFL__WARN);
            break;
        case 3: break;
        default:
            rfl_draw_marker(c, (rfl_marker)l->marker[i], mx, cy, 6.0 + 3 * s, l->hollow[i], l->color[i]);
        }
        rfl__text_cut(c, x + 20 * s, cy + s, l->text[i], rfl__leg_suffix(l, i), s, RFL_TEXT_MIDDLE,
                      l->kind[i] == 2 ? RFL__WARN : l->kind[i] == 3 ? 0xFF666666u : RFL__INK);
    }
    if (l->more) {
        char b[48] = "... and ";
        size_t k = rfl__strlen(b);
        k += rfl_fmt_num(b + k, sizeof b - k, l->more, 6);
        if (k + 6 < sizeof b) { RFL_MEMCPY(b + k, " more", 6); }
        rfl_draw_text(c, x + 20 * s, y + 3 * s + rowh * l->n + rowh / 2 + s, b, s, RFL_TEXT_MIDDLE,
                      0xFF666666u);
    }
}

/* Put the legend in the corner of `plot` that covers the least; when every
   corner would hide a point or a label at the normal text size, try one
   size smaller before settling for the least bad corner. */
static void rfl__leg_place(rfl_canvas *c, const rfl__legend *l, const rfl__rect *plot,
                           const rfl__obst *o, rfl_legend where, int s) {
    static const int order[4] = {0, 3, 1, 2}; /* ties: TL, BR, TR, BL */
    rfl__rect r;
    long best = -1;
    int i, ls, bi = 0, bs = s;
    double bx = 0, by = 0;
    if (where == RFL_LEGEND_NONE || (l->n == 0 && !l->more)) return;
    for (ls = s; ls >= 1 && ls >= s - 1; ls--) {
        double w, h, pad = 6.0 * ls;
        rfl__leg_size(l, ls, &w, &h);
        for (i = 0; i < 4; i++) {
            int k = order[i];
            long sc;
            if (where >= RFL_LEGEND_TOP_LEFT && where <= RFL_LEGEND_BOTTOM_RIGHT &&
                k != (int)where - (int)RFL_LEGEND_TOP_LEFT)
                continue;
            r.x0 = (k & 1) ? plot->x1 - pad - w : plot->x0 + pad;
            r.y0 = (k & 2) ? plot->y1 - pad - h : plot->y0 + pad;
            r.x1 = r.x0 + w;
            r.y1 = r.y0 + h;
            sc = rfl__obst_score(o, &r);
            if (r.x0 < plot->x0 || r.y0 < plot->y0) sc += 100000; /* does not fit */
            if (best < 0 || sc < best) { best = sc; bi = k; bs = ls; bx = r.x0; by = r.y0; }
        }
        if (best >= 0 && best < 30) break; /* hides no point or label */
    }
    (void)bi;
    rfl__leg_draw(c, l, bx, by, bs);
}

/* ---- frame: axes, grid, ticks, titles ------------------------------------------ */
/* One-pixel grid and tick lines: the pixel column (row) holding x (y),
   from y0 to y1 (x0 to x1). Exact and far cheaper than a round-capped
   anti-aliased segment. */
static void rfl__vline(rfl_canvas *c, double x, double y0, double y1, rfl_color col) {
    rfl_fill_rect(c, RFL_FLOOR(x), y0, 1, y1 - y0, col);
}
static void rfl__hline(rfl_canvas *c, double x0, double x1, double y, rfl_color col) {
    rfl_fill_rect(c, x0, RFL_FLOOR(y), x1 - x0, 1, col);
}

/* Width of the widest y tick label. */
static int rfl__ylabel_w(const rfl__axis *a, int s) {
    rfl__tickset t;
    char b[40];
    int i, w = 0;
    rfl__make_ticks(a, &t);
    for (i = 0; i < t.nmajor; i++) {
        rfl__tick_label(b, sizeof b, a, rfl__tmajor(a, &t, i));
        w = rfl__imax(w, rfl_text_width(b, -1, s));
    }
    return w;
}

/* Margins around a plot for axes with these ranges. */
static rfl__rect rfl__plot_rect(const rfl__rect *panel, const rfl__axis *x, const rfl__axis *y,
                                int s, int has_ytitle) {
    rfl__rect r;
    double lw = rfl__ylabel_w(y, s);
    r.x0 = panel->x0 + 6 * s + (has_ytitle ? (RFL_FONT_H + 4) * s : 0) + lw + 6 * s;
    r.x1 = panel->x1 - 14 * s;
    r.y0 = panel->y0 + 4 * s;
    r.y1 = panel->y1 - (6 * s + RFL_FONT_H * s + 4 * s + (RFL_FONT_H + 4) * s);
    (void)x;
    if (r.x1 < r.x0 + 4) r.x1 = r.x0 + 4;
    if (r.y1 < r.y0 + 4) r.y1 = r.y0 + 4;
    return r;
}

/* axes flags for rfl__draw_frame */
#define RFL__NO_XTICKS 1
#define RFL__NO_YTICKS 2
static void rfl__draw_frame_ex(rfl_canvas *c, const rfl__rect *p, const rfl__axis *x,
                               const rfl__axis *y, const char *xtitle, const char *ytitle, int s,
                               int xgrid, int ygrid, int flags) {
    rfl__tickset t;
    char b[40];
    int i, step;
    double v, last_x1 = -1e300;
    /* grid */
    rfl__make_ticks(x, &t);
    if (flags & RFL__NO_XTICKS) t.nmajor = t.nminor = 0;
    if (xgrid) {
        for (i = 0; i < t.nminor; i++) {
            if (!rfl__tminor(x, &t, i, &v)) continue;
            rfl__vline(c, RFL_FLOOR(rfl__amap(x, v)) + 0.5, p->y0, p->y1, RFL__GRID2);
        }
        for (i = 0; i < t.nmajor; i++) {
            double px = RFL_FLOOR(rfl__amap(x, rfl__tmajor(x, &t, i))) + 0.5;
            rfl__vline(c, px, p->y0, p->y1, RFL__GRID);
        }
    }
    /* x ticks and labels; skip labels that would collide */
    step = 1;
    for (;;) {
        double prev = -1e300;
        int ok = 1;
        for (i = 0; i < t.nmajor; i += step) {
            double px, w;
            v = rfl__tmajor(x, &t, i);
            px = rfl__amap(x, v);
            rfl__tick_label(b, sizeof b, x, v);
            w = rfl_text_width(b, -1, s);
            if (px - w / 2 < prev + 4 * s) { ok = 0; break; }
            prev = px + w / 2;
        }
        if (ok || step > t.nmajor) break;
        step++;
    }
    for (i = 0; i < t.nminor; i++) {
        if (!rfl__tminor(x, &t, i, &v)) continue;
        rfl__vline(c, RFL_FLOOR(rfl__amap(x, v)) + 0.5, p->y1, p->y1 + 3 * s, 0xFF888888u);
    }
    for (i = 0; i < t.nmajor; i++) {
        double px;
        v = rfl__tmajor(x, &t, i);
        px = RFL_FLOOR(rfl__amap(x, v)) + 0.5;
        rfl__vline(c, px, p->y1, p->y1 + 5 * s, 0xFF555555u);
        if (i % step) continue;
        rfl__tick_label(b, sizeof b, x, v);
        rfl_draw_text(c, px, p->y1 + 7 * s, b, s, RFL_TEXT_CENTER, RFL__INK);
        last_x1 = px;
    }
    (void)last_x1;
    /* y */
    rfl__make_ticks(y, &t);
    if (flags & RFL__NO_YTICKS) t.nmajor = t.nminor = 0;
    if (ygrid) {
        for (i = 0; i < t.nminor; i++) {
            if (!rfl__tminor(y, &t, i, &v)) continue;
            rfl__hline(c, p->x0, p->x1, RFL_FLOOR(rfl__amap(y, v)) + 0.5, RFL__GRID2);
        }
        for (i = 0; i < t.nmajor; i++) {
            double py = RFL_FLOOR(rfl__amap(y, rfl__tmajor(y, &t, i))) + 0.5;
            rfl__hline(c, p->x0, p->x1, py, RFL__GRID);
        }
    }
    step = 1;
    if (t.nmajor > 1) {
        double gap = rfl__absd(rfl__amap(y, rfl__tmajor(y, &t, 1)) - rfl__amap(y, rfl__tmajor(y, &t, 0)));
        while (gap * step < (RFL_FONT_H + 2) * s && step < t.nmajor) step++;
    }
    for (i = 0; i < t.nminor; i++) {
        if (!rfl__tminor(y, &t, i, &v)) continue;
        rfl__hline(c, p->x0 - 3 * s, p->x0, RFL_FLOOR(rfl__amap(y, v)) + 0.5, 0xFF888888u);
    }
    for (i = 0; i < t.nmajor; i++) {
        double py;
        v = rfl__tmajor(y, &t, i);
        py = RFL_FLOOR(rfl__amap(y, v)) + 0.5;
        rfl__hline(c, p->x0 - 5 * s, p->x0, py, 0xFF555555u);
        if (i % step) continue;
        rfl__tick_label(b, sizeof b, y, v);
        rfl_draw_text(c, p->x0 - 7 * s, py, b, s, RFL_TEXT_RIGHT | RFL_TEXT_MIDDLE, RFL__INK);
    }
    /* frame */
    rfl_draw_rect(c, RFL_FLOOR(p->x0), RFL_FLOOR(p->y0), RFL_FLOOR(p->x1) - RFL_FLOOR(p->x0) + 1,
                  RFL_FLOOR(p->y1) - RFL_FLOOR(p->y0) + 1, 1, 0xFF555555u);
    /* titles */
    if (xtitle)
        rfl_draw_text(c, (p->x0 + p->x1) / 2, p->y1 + 7 * s + RFL_FONT_H * s + 5 * s, xtitle, s,
                      RFL_TEXT_CENTER, RFL__INK);
    if (ytitle) {
        double lw = (flags & RFL__NO_YTICKS) ? 0 : rfl__ylabel_w(y, s);
        rfl_draw_text(c, p->x0 - 7 * s - lw - 4 * s, (p->y0 + p->y1) / 2, ytitle, s,
                      RFL_TEXT_UP | RFL_TEXT_CENTER | RFL_TEXT_BOTTOM, RFL__INK);
    }
}

static void rfl__draw_frame(rfl_canvas *c, const rfl__rect *p, const rfl__axis *x,
                            const rfl__axis *y, const char *xtitle, const char *ytitle, int s,
                            int xgrid, int ygrid) {
    rfl__draw_frame_ex(c, p, x, y, xtitle, ytitle, s, xgrid, ygrid, 0);
}

/* Font scale from the size of one plot panel: 1 below ~700 x 440 pixels,
   2 up to ~1350 x 840, then 3 and 4 (text stays near 1/50 of the panel). */
static int rfl__auto_font(double w, double h, int fs) {
    double k;
    if (fs > 0) return fs > RFL__FONT_MAXSCALE ? RFL__FONT_MAXSCALE : fs;
    k = w / 560.0 < h / 350.0 ? w / 560.0 : h / 350.0;
    return 1 + (k >= 1.25) + (k >= 2.4) + (k >= 3.6);
}

/* Title band; returns the y below it. A title too wide for the canvas
   drops one size, then is cut with "..". */
static double rfl__title(rfl_canvas *c, const char *title, int s) {
    int ts = s + 1;
    double room = c->width - 8.0 * s;
    if (!title || !title[0]) return 4.0 * s;
    if (rfl_text_width(title, -1, ts) > room) ts = s;
    if (rfl_text_width(title, -1, ts) > room) {
        char b[256];
        int n = (int)(room / (RFL_FONT_W * ts)) - 2, i;
        if (n > (int)sizeof b - 3) n = (int)sizeof b - 3;
        if (n < 1) n = 1;
        for (i = 0; i < n && title[i]; i++) b[i] = title[i];
        b[i++] = '.';
        b[i++] = '.';
        b[i] = 0;
        rfl_draw_text(c, c->width / 2.0, 6.0 * s, b, ts, RFL_TEXT_CENTER, RFL__INK);
    } else {
        rfl_draw_text(c, c->width / 2.0, 6.0 * s, title, ts, RFL_TEXT_CENTER, RFL__INK);
    }
    return 6.0 * s + RFL_FONT_H * ts + 2.0 * s;
}

/* ---- series: colour and marker per label -----------------------------------
   A series is the points that share a label. Only its first point and its
   colour slot are kept (small frames): the label and the link are read
   from that point. Series whose first points share a nonzero link share a
   colour slot. */
#define RFL__MAXSER 64
typedef struct rfl__series {
    const rfl_point *pts; /* roofline points, or */
    const rfl_xy *xys;    /* scatter points */
    int links;            /* 0: links do not share colours (the text chart) */
    int first[RFL__MAXSER];          /* first point of the series */
    unsigned char slot[RFL__MAXSER]; /* colour slot */
    int n, nslots;
} rfl__series;

static void rfl__ser_init(rfl__series *t, const rfl_point *pts, const rfl_xy *xys, int links) {
    t->pts = pts;
    t->xys = xys;
    t->links = links;
    t->n = t->nslots = 0;
}
static const char *rfl__ser_label(const rfl__series *t, int i) {
    return t->pts ? t->pts[t->first[i]].label : t->xys[t->first[i]].label;
}
static int rfl__ser_link(const rfl__series *t, int i) {
    if (!t->links) return 0;
    return t->pts ? t->pts[t->first[i]].link : t->xys[t->first[i]].link;
}
static int rfl__ser_find(const rfl__series *t, const char *label) {
    int i;
    for (i = 0; i < t->n; i++)
        if (rfl__streq(rfl__ser_label(t, i), label)) return i;
    return -1;
}
/* Register point `index`'s label; returns its series index (-1 when the
   table is full or the label empty). */
static int rfl__ser_add(rfl__series *t, int index) {
    int k, link;
    const char *label = t->pts ? t->pts[index].label : t->xys[index].label;
    if (!rfl__has_label(label)) return -1;
    k = rfl__ser_find(t, label);
    if (k >= 0) return k;
    if (t->n >= RFL__MAXSER) return -1;
    t->first[t->n] = index;
    /* a nonzero link takes the slot of the first series with that link */
    link = rfl__ser_link(t, t->n);
    for (k = 0; k < t->n && !(link && rfl__ser_link(t, k) == link); k++) {}
    t->slot[t->n] = (unsigned char)(k < t->n ? t->slot[k] : t->nslots++);
    return t->n++;
}

/* ---- the roofline chart ------------------------------------------------------- */
static const char *rfl__prec_title(rfl_prec p) {
    static const char *const n[RFL_PREC_COUNT] = {"FP32", "FP64", "FP16", "FP64 tensor",
                                                 "TF32 tensor", "FP16 tensor", "BF16 tensor",
                                                 "FP8 tensor", "INT8 tensor"};
    return (unsigned)p < RFL_PREC_COUNT ? n[p] : "?";
}
static const char *rfl__level_title(rfl_level l) {
    static const char *const n[RFL_LEVEL_COUNT] = {"DRAM", "L2", "L1"};
    return (unsigned)l < RFL_LEVEL_COUNT ? n[l] : "?";
}

/* "19.5 TFLOP/s": value with SI prefix and unit appended. */
static void rfl__fmt_unit(char *b, size_t size, const char *pre, double v, const char *unit) {
    size_t n = 0, k;
    b[0] = 0;
    for (k = 0; pre && pre[k] && n + 1 < size; k++) b[n++] = pre[k];
    n += rfl_fmt_si(b + n, size - n, v, 4);
    for (k = 0; unit && unit[k] && n + 1 < size; k++) b[n++] = unit[k];
    b[n] = 0;
}

static int rfl__point_ok(const rfl_point *p) {
    return rfl__isfinite(p->ai) && p->ai > 0 && rfl__isfinite(p->flops_per_s) && p->flops_per_s > 0;
}
static int rfl__on_panel(const rfl_point *p, int k, int n) {
    return p->machine == RFL_ALL_MACHINES ? 1 : (p->machine == k && k < n);
}

/* Precisions drawn as main roofs on panel k (bit mask). */
static unsigned rfl__panel_precs(const rfl_roofline_desc *d, int k) {
    unsigned m = 0;
    int i;
    for (i = 0; i < d->n_points; i++) {
        const rfl_point *p = &d->points[i];
        if (rfl__point_ok(p) && rfl__on_panel(p, k, d->n_machines) && (unsigned)p->prec < RFL_PREC_COUNT)
            m |= 1u << p->prec;
    }
    if (!m) m = 1u << ((unsigned)d->prec < RFL_PREC_COUNT ? d->prec : RFL_FP32);
    return m;
}

/* roof of prec at ai on machine m (main level); 0 when absent */
static double rfl__roof(const rfl_machine *m, rfl_prec p, rfl_level l, double ai) {
    double peak = m->peak_flops[p], bw = m->bw_bytes_per_s[l];
    if (!(peak > 0)) return 0;
    if (!(bw > 0)) return peak;
    return ai * bw < peak ? ai * bw : peak;
}

static double rfl__marker_size(const rfl_point *p, int s) {
    double base = 6.0 + 4.0 * s, k;
    if (!(p->weight > 0) || !rfl__isfinite(p->weight)) return base;
    k = RFL_SQRT(p->weight > 1 ? 1 : p->weight) * 2.6;
    return base * (k < 0.45 ? 0.45 : k > 2.6 ? 2.6 : k);
}

static void rfl__ranges(const rfl_roofline_desc *d, rfl__axis *x, rfl__axis *y) {
    double xlo = 1e300, xhi = -1e300, ylo = 1e300, yhi = -1e300, ymin_roof = 1e300;
    double plo = 1e300;
    int k, i, p;
    rfl_level lv = (unsigned)d->level < RFL_LEVEL_COUNT ? d->level : RFL_DRAM;
    for (k = 0; k < d->n_machines; k++) {
        const rfl_machine *m = d->machines[k];
        unsigned precs = rfl__panel_precs(d, k) | d->extra_precs;
        double bw = m->bw_bytes_per_s[lv], mainpeak = 0;
        for (p = 0; p < RFL_PREC_COUNT; p++) {
            double pk = m->peak_flops[p];
            if (!((precs >> p) & 1) || !(pk > 0)) continue;
            if ((rfl__panel_precs(d, k) >> p) & 1 && pk > mainpeak) mainpeak = pk;
            /* room above a main roof for its label; extra ceilings less */
            if (pk * ((rfl__panel_precs(d, k) >> p) & 1 ? 3 : 1.6) > yhi)
                yhi = pk * ((rfl__panel_precs(d, k) >> p) & 1 ? 3 : 1.6);
            if (pk / 10 < ylo) ylo = pk / 10;
            if (bw > 0) {
                double r = pk / bw;
                if (r / 30 < xlo) xlo = r / 30;
                if (r * 30 > xhi) xhi = r * 30;
            }
        }
        for (i = 0; i < RFL_LEVEL_COUNT; i++) {
            double b2 = m->bw_bytes_per_s[i];
            if (!((d->extra_levels >> i) & 1) || !(b2 > 0) || !(mainpeak > 0)) continue;
            if (mainpeak / b2 / 10 < xlo) xlo = mainpeak / b2 / 10;
        }
    }
    for (i = 0; i < d->n_points; i++) {
        const rfl_point *pt = &d->points[i];
        if (!rfl__point_ok(pt)) continue;
        if (pt->ai / 3 < xlo) xlo = pt->ai / 3;
        if (pt->ai * 3 > xhi) xhi = pt->ai * 3;
        if (pt->flops_per_s / 3 < plo) plo = pt->flops_per_s / 3;
        if (pt->flops_per_s * 3 > yhi) yhi = pt->flops_per_s * 3;
    }
    if (!(xhi > xlo)) { xlo = 0.1; xhi = 1000; }
    /* the roof should enter from the left edge rather than the bottom */
    for (k = 0; k < d->n_machines; k++) {
        const rfl_machine *m = d->machines[k];
        unsigned precs = rfl__panel_precs(d, k);
        for (p = 0; p < RFL_PREC_COUNT; p++) {
            double r;
            if (!((precs >> p) & 1)) continue;
            r = rfl__roof(m, (rfl_prec)p, lv, rfl__p10(RFL_FLOOR(RFL_LOG10(xlo) + 1e-9)));
            if (r > 0 && r < ymin_roof) ymin_roof = r;
        }
    }
    if (ymin_roof < ylo) ylo = ymin_roof;
    if (!(yhi > 0) || yhi < -1e299) yhi = 1e15;
    if (ylo > yhi / 100) ylo = yhi / 100;
    if (ylo < yhi / 1e7) ylo = yhi / 1e7; /* keep the roof readable ... */
    if (plo < ylo) ylo = plo;             /* ... unless a point needs more */
    if (d->x_min > 0 && rfl__isfinite(d->x_min)) xlo = d->x_min;
    if (d->x_max > 0 && rfl__isfinite(d->x_max)) xhi = d->x_max;
    if (d->y_min > 0 && rfl__isfinite(d->y_min)) ylo = d->y_min;
    if (d->y_max > 0 && rfl__isfinite(d->y_max)) yhi = d->y_max;
    x->log = y->log = 1;
    if (d->x_min > 0 && d->x_max > d->x_min && rfl__isfinite(d->x_max)) { x->lo = xlo; x->hi = xhi; }
    else rfl__nice_range(x, xlo, xhi);
    if (d->y_min > 0 && d->y_max > d->y_min && rfl__isfinite(d->y_max)) { y->lo = ylo; y->hi = yhi; }
    else rfl__nice_range(y, ylo, yhi);
}

/* Geometry of one roof in pixels: left end, ridge, right end. */
typedef struct rfl__roofpx {
    double xy[6];
    int n;
    double rx, ry; /* ridge, when 0 < ridge within range */
    int has_ridge;
} rfl__roofpx;

static void rfl__roof_px(const rfl__axis *x, const rfl__axis *y, double peak, double bw,
                         rfl__roofpx *r) {
    double ridge = bw > 0 ? peak / bw : 0;
    r->n = 0;
    r->has_ridge = 0;
    if (!(peak > 0)) return;
    if (!(bw > 0) || ridge <= x->lo) { /* flat only */
        r->xy[0] = rfl__amap(x, x->lo); r->xy[1] = rfl__amap(y, peak);
        r->xy[2] = rfl__amap(x, x->hi); r->xy[3] = r->xy[1];
        r->n = 2;
        return;
    }
    r->xy[0] = rfl__amap(x, x->lo);
    r->xy[1] = rfl__amap(y, x->lo * bw);
    if (ridge >= x->hi) {
        r->xy[2] = rfl__amap(x, x->hi);
        r->xy[3] = rfl__amap(y, x->hi * bw);
        r->n = 2;
        return;
    }
    r->rx = r->xy[2] = rfl__amap(x, ridge);
    r->ry = r->xy[3] = rfl__amap(y, peak);
    r->xy[4] = rfl__amap(x, x->hi);
    r->xy[5] = r->xy[3];
    r->n = 3;
    r->has_ridge = 1;
}

static void rfl__scan_poly(rfl__scan *sc, const double *xy, int n, int w, const rfl__rect *clip) {
    int i;
    for (i = 0; i + 1 < n; i++)
        rfl__scan_line(sc, xy[2 * i], xy[2 * i + 1], xy[2 * i + 2], xy[2 * i + 3], 8, w, clip);
}

/* The visible part of the slope: the mid point (for its label). */
static int rfl__slope_mid(const rfl__roofpx *r, const rfl__rect *p, double *mx, double *my) {
    double x0 = r->xy[0], y0 = r->xy[1], x1 = r->xy[2], y1 = r->xy[3];
    if (r->n < 2 || !(r->has_ridge || r->n == 2) || y0 == y1) return 0;
    if (!rfl__clip_seg(&x0, &y0, &x1, &y1, p->x0, p->y0, p->x1, p->y1)) return 0;
    *mx = (x0 + x1) / 2;
    *my = (y0 + y1) / 2;
    return (x1 - x0) + (y0 - y1) > 40;
}

/* 1 when a label on panel k already says "estim" (no need for a note) */
static int rfl__any_says_estimate(const rfl_roofline_desc *d, int k) {
    int i;
    for (i = 0; i < d->n_points; i++) {
        const char *l = d->points[i].label;
        if (!d->points[i].estimate || !rfl__on_panel(&d->points[i], k, d->n_machines) || !l) continue;
        for (; *l; l++)
            if (rfl__lower(l[0]) == 'e' && rfl__lower(l[1]) == 's' && rfl__lower(l[2]) == 't') break;
        if (!*l) return 0;
    }
    return 1;
}

/* The visible part of the slope (clipped to the plot). */
static int rfl__slope_seg(const rfl__roofpx *r, const rfl__rect *p, double *x0, double *y0,
                          double *x1, double *y1) {
    *x0 = r->xy[0]; *y0 = r->xy[1]; *x1 = r->xy[2]; *y1 = r->xy[3];
    if (r->n < 2 || *y0 == *y1) return 0;
    return rfl__clip_seg(x0, y0, x1, y1, p->x0, p->y0, p->x1, p->y1);
}

/* An extra compute ceiling is drawn unless it is a main roof, has the
   same peak as one (the line is already there), or repeats the peak of an
   earlier extra ceiling (then that one's label names both). */
static int rfl__extra_shown(const rfl_machine *m, unsigned extra, unsigned precs, int p) {
    double pk = m->peak_flops[p];
    int q;
    if (!((extra >> p) & 1) || ((precs >> p) & 1) || !(pk > 0)) return 0;
    for (q = 0; q < RFL_PREC_COUNT; q++) {
        double o = m->peak_flops[q];
        int main_q = (precs >> q) & 1, extra_q = ((extra >> q) & 1) && q < p;
        if (q == p || !(o > 0) || !(main_q || extra_q)) continue;
        if (rfl__absd(o - pk) <= pk * 1e-3) return 0;
    }
    return 1;
}

/* One panel: what its drawing, its obstacles and its labels share. */
typedef struct rfl__panel {
    const rfl_roofline_desc *d;
    const rfl_machine *m;
    int k, s;
    rfl_level lv;
    unsigned precs; /* the main roofs */
    double bw, mainpeak;
    rfl__axis x, y;
    rfl__rect plot, inner; /* inner: 3 px inside the plot, for labels */
} rfl__panel;

/* Main roof p in pixels; 0 when p has none here. */
static int rfl__main_px(const rfl__panel *P, int p, rfl__roofpx *r) {
    if (!((P->precs >> p) & 1) || !(P->m->peak_flops[p] > 0)) return 0;
    rfl__roof_px(&P->x, &P->y, P->m->peak_flops[p], P->bw, r);
    return 1;
}
/* Extra compute ceiling p in pixels; 0 when not shown. */
static int rfl__extra_px(const rfl__panel *P, int p, rfl__roofpx *r) {
    double pk = P->m->peak_flops[p];
    if (!rfl__extra_shown(P->m, P->d->extra_precs, P->precs, p)) return 0;
    rfl__roof_px(&P->x, &P->y, pk, P->bw, r);
    if (r->n == 3 && pk < P->mainpeak) { /* only the flat part shows below the roof */
        r->xy[0] = r->xy[2]; r->xy[1] = r->xy[3]; r->xy[2] = r->xy[4]; r->xy[3] = r->xy[5]; r->n = 2;
    }
    return 1;
}
/* Extra bandwidth ceiling i in pixels: the slope up to the main peak; 0
   when not shown. */
static int rfl__level_px(const rfl__panel *P, int i, rfl__roofpx *r) {
    double b2 = P->m->bw_bytes_per_s[i];
    if (!((P->d->extra_levels >> i) & 1) || i == (int)P->lv || !(b2 > 0) || !(P->mainpeak > 0))
        return 0;
    rfl__roof_px(&P->x, &P->y, P->mainpeak, b2, r);
    if (r->n == 3) r->n = 2; /* has_ridge stays: rfl__slope_mid still takes it */
    return 1;
}

/* The panel's fixed obstacles, in the order they count: main roofs,
   points, extra compute ceilings, extra bandwidths. */
static void rfl__roof_fixed(const void *ctx, rfl__scan *sc) {
    const rfl__panel *P = (const rfl__panel *)ctx;
    const rfl_roofline_desc *d = P->d;
    rfl__roofpx r;
    int p, i;
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl__main_px(P, p, &r)) rfl__scan_poly(sc, r.xy, r.n, 6, &P->plot);
    for (i = 0; i < d->n_points; i++) {
        const rfl_point *pt = &d->points[i];
        double px, py, h;
        if (!rfl__point_ok(pt) || !rfl__on_panel(pt, P->k, d->n_machines)) continue;
        px = rfl__amap(&P->x, pt->ai);
        py = rfl__amap(&P->y, pt->flops_per_s);
        h = rfl__marker_size(pt, P->s) / 2 + 3 * P->s;
        rfl__scan_add(sc, px - h, py - h, px + h, py + h, 30);
    }
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl__extra_px(P, p, &r)) rfl__scan_poly(sc, r.xy, r.n, 4, &P->plot);
    for (i = 0; i < RFL_LEVEL_COUNT; i++)
        if (rfl__level_px(P, i, &r)) rfl__scan_poly(sc, r.xy, r.n, 4, &P->plot);
}

/* A label's candidates and text: the long form `full`, and `alt` (NULL or
   a shorter form); n 0 when there is no such label. */
typedef struct rfl__label {
    rfl__cand cd[6];
    int n;
    const char *full, *alt;
    rfl_color color;
    char text[96], buf[64];
} rfl__label;

/* The panel's labels by number, in the order they are placed (the first
   get the best places): per main roof p its ridge, peak and slope (3p,
   3p + 1, 3p + 2), then the extra compute ceilings (RFL__JOB_EXTRA + p)
   and the extra bandwidths (RFL__JOB_LEVEL + i). */
#define RFL__JOB_EXTRA (3 * RFL_PREC_COUNT)
#define RFL__JOB_LEVEL (RFL__JOB_EXTRA + RFL_PREC_COUNT)
#define RFL__JOBS (RFL__JOB_LEVEL + RFL_LEVEL_COUNT)
static void rfl__roof_label(const rfl__panel *P, int job, rfl__label *L) {
    const rfl_machine *m = P->m;
    const rfl__rect *plot = &P->plot;
    double bw = P->bw;
    rfl__roofpx r;
    int s = P->s, p = job / 3;
    size_t n = 0, q;
    L->n = 0;
    L->alt = 0;
    L->color = RFL__INK;
    if (job < RFL__JOB_EXTRA && !rfl__main_px(P, p, &r)) return;
    if (job < RFL__JOB_EXTRA && job % 3 == 0) { /* ridge: "ridge 12.54 FLOP/B", or without the unit */
        if (!r.has_ridge) return;
        RFL_MEMCPY(L->buf, "ridge ", 6);
        n = 6;
        n += rfl_fmt_num(L->buf + n, sizeof L->buf - n, m->peak_flops[p] / bw, 4);
        L->buf[n] = 0;
        RFL_MEMCPY(L->text, L->buf, n);
        RFL_MEMCPY(L->text + n, " FLOP/B", 8);
        L->full = L->text;
        L->alt = L->buf;
        L->cd[0].x = r.rx + 8 * s; L->cd[0].y = r.ry + 5 * s; L->cd[0].flags = RFL_TEXT_LEFT;
        L->cd[1].x = r.rx - 8 * s; L->cd[1].y = r.ry - 5 * s; L->cd[1].flags = RFL_TEXT_RIGHT | RFL_TEXT_BOTTOM;
        L->cd[2].x = r.rx + 8 * s; L->cd[2].y = r.ry + 20 * s; L->cd[2].flags = RFL_TEXT_LEFT;
        L->cd[3].x = r.rx + 4 * s; L->cd[3].y = r.ry - 5 * s; L->cd[3].flags = RFL_TEXT_LEFT | RFL_TEXT_BOTTOM;
        L->n = 4;
    } else if (job < RFL__JOB_EXTRA && job % 3 == 1) {
        /* flat: "FP32 peak 19.5 TFLOP/s", or the value alone, above the line at the right */
        const char *pn = rfl__prec_title((rfl_prec)p);
        double fy = r.xy[2 * r.n - 1], lh = (RFL_FONT_H + 2) * s;
        if (!(r.n == 3 || !(bw > 0) || r.xy[1] == r.xy[3])) return;
        rfl__fmt_unit(L->buf, sizeof L->buf, "", m->peak_flops[p], p == RFL_INT8_TENSOR ? "OP/s" : "FLOP/s");
        for (q = 0; pn[q]; q++) L->text[n++] = pn[q];
        L->text[n++] = ' ';
        L->text[n++] = 'p'; L->text[n++] = 'e'; L->text[n++] = 'a'; L->text[n++] = 'k'; L->text[n++] = ' ';
        for (q = 0; L->buf[q] && n + 1 < sizeof L->text; q++) L->text[n++] = L->buf[q];
        L->text[n] = 0;
        L->full = L->text;
        L->alt = L->text + rfl__strlen(pn) + 6;
        L->cd[0].x = plot->x1 - 6 * s; L->cd[0].y = fy - 4 * s; L->cd[0].flags = RFL_TEXT_RIGHT | RFL_TEXT_BOTTOM;
        L->cd[1] = L->cd[0]; L->cd[1].y = fy + 4 * s; L->cd[1].flags = RFL_TEXT_RIGHT;
        L->cd[2] = L->cd[0]; L->cd[2].y = fy - 4 * s - lh;
        L->cd[3] = L->cd[1]; L->cd[3].y = fy + 4 * s + lh;
        L->cd[4] = L->cd[0]; L->cd[4].x = (r.has_ridge ? r.rx : plot->x0) + 10 * s;
        L->cd[4].flags = RFL_TEXT_LEFT | RFL_TEXT_BOTTOM;
        L->n = 5;
    } else if (job < RFL__JOB_EXTRA) {
        /* slope: "DRAM 1.555 TB/s", or the value alone, left of the line's visible middle */
        static const double fr[3] = {0.5, 0.75, 0.3}; /* middle, higher, lower */
        const char *ln = rfl__level_title(P->lv);
        double mx, my, sx0, sy0, sx1, sy1;
        int q2;
        if (!(bw > 0 && rfl__slope_seg(&r, plot, &sx0, &sy0, &sx1, &sy1) &&
              rfl__slope_mid(&r, plot, &mx, &my)))
            return;
        /* the panel's roofs share one memory slope: labelled once, on the
           roof of the highest peak (its slope is the longest) */
        for (q2 = 0; q2 < RFL_PREC_COUNT; q2++) {
            double pq = m->peak_flops[q2], pp = m->peak_flops[p];
            if (q2 != p && ((P->precs >> q2) & 1) && pq > 0 && (pq > pp || (pq == pp && q2 < p)))
                return;
        }
        for (q = 0; ln[q]; q++) L->buf[n++] = ln[q];
        L->buf[n++] = ' ';
        rfl_fmt_si(L->buf + n, sizeof L->buf - n, bw, 4);
        n = rfl__strlen(L->buf);
        L->buf[n++] = 'B'; L->buf[n++] = '/'; L->buf[n++] = 's'; L->buf[n] = 0;
        L->full = L->buf;
        L->alt = L->buf + rfl__strlen(ln) + 1;
        for (q2 = 0; q2 < 3; q2++) {
            double ax = sx0 + (sx1 - sx0) * fr[q2], ay = sy0 + (sy1 - sy0) * fr[q2];
            /* above-left of the line first (empty: above the roof),
               below-right only when that fails */
            L->cd[q2].x = ax - 6 * s; L->cd[q2].y = ay - 6 * s;
            L->cd[q2].flags = RFL_TEXT_RIGHT | RFL_TEXT_BOTTOM;
            L->cd[3 + q2].x = ax + 8 * s; L->cd[3 + q2].y = ay + 6 * s;
            L->cd[3 + q2].flags = RFL_TEXT_LEFT | RFL_TEXT_TOP;
        }
        L->n = 6;
    } else if (job < RFL__JOB_LEVEL) {
        /* extra compute ceiling: "FP64 9.7 TFLOP/s"; later extra ceilings
           with this peak share the label */
        const char *pn;
        double pk, py, rx;
        int q2, all_int;
        p = job - RFL__JOB_EXTRA;
        pk = m->peak_flops[p];
        pn = rfl__prec_title((rfl_prec)p);
        all_int = p == RFL_INT8_TENSOR;
        if (!rfl__extra_shown(m, P->d->extra_precs, P->precs, p)) return;
        for (q = 0; pn[q]; q++) L->text[n++] = pn[q];
        for (q2 = p + 1; q2 < RFL_PREC_COUNT; q2++) {
            const char *on = rfl__prec_title((rfl_prec)q2);
            if (!((P->d->extra_precs >> q2) & 1) || ((P->precs >> q2) & 1) ||
                !(rfl__absd(m->peak_flops[q2] - pk) <= pk * 1e-3) || n + 16 > 60)
                continue;
            L->text[n++] = '/';
            for (q = 0; on[q]; q++) L->text[n++] = on[q];
            if (q2 != RFL_INT8_TENSOR) all_int = 0;
        }
        L->text[n++] = ' ';
        L->text[n] = 0;
        rfl__fmt_unit(L->text + n, sizeof L->text - n, "", pk, all_int ? "OP/s" : "FLOP/s");
        L->full = L->text;
        L->color = 0xFF6A6A6Au;
        py = rfl__amap(&P->y, pk);
        rx = bw > 0 ? rfl__amap(&P->x, pk / bw) : plot->x0;
        if (rx < plot->x0) rx = plot->x0;
        L->cd[0].x = plot->x1 - 6 * s; L->cd[0].y = py - 3 * s; L->cd[0].flags = RFL_TEXT_RIGHT | RFL_TEXT_BOTTOM;
        L->cd[1].x = plot->x1 - 6 * s; L->cd[1].y = py + 3 * s; L->cd[1].flags = RFL_TEXT_RIGHT;
        L->cd[2].x = rx + 10 * s; L->cd[2].y = py - 3 * s; L->cd[2].flags = RFL_TEXT_LEFT | RFL_TEXT_BOTTOM;
        L->n = 3;
    } else { /* extra bandwidth: "L2 5.5 TB/s" at the middle of its slope */
        int i = job - RFL__JOB_LEVEL;
        const char *ln = rfl__level_title((rfl_level)i);
        double mx, my;
        if (!rfl__level_px(P, i, &r) || !rfl__slope_mid(&r, plot, &mx, &my)) return;
        while (*ln) L->buf[n++] = *ln++;
        L->buf[n++] = ' ';
        rfl_fmt_si(L->buf + n, sizeof L->buf - n, m->bw_bytes_per_s[i], 4);
        n = rfl__strlen(L->buf);
        L->buf[n++] = 'B'; L->buf[n++] = '/'; L->buf[n++] = 's'; L->buf[n] = 0;
        L->full = L->buf;
        L->color = 0xFF6A6A6Au;
        L->cd[0].x = mx - 6 * s; L->cd[0].y = my - 6 * s; L->cd[0].flags = RFL_TEXT_RIGHT | RFL_TEXT_BOTTOM;
        L->cd[1].x = mx + 6 * s; L->cd[1].y = my + 6 * s; L->cd[1].flags = RFL_TEXT_LEFT | RFL_TEXT_TOP;
        L->n = 2;
    }
}
static void rfl__roof_label_box(const void *ctx, int job, int how, rfl__rect *box) {
    const rfl__panel *P = (const rfl__panel *)ctx;
    rfl__label L;
    rfl__roof_label(P, job, &L);
    rfl__label_box(&L.cd[how & 7], how >> 3 ? L.alt : L.full, P->s, box);
}
static void rfl__roof_place(rfl_canvas *c, const rfl__panel *P, rfl__obst *o, int job) {
    rfl__label L;
    rfl__roof_label(P, job, &L);
    if (L.n) rfl__place_label(c, o, &P->inner, L.cd, L.n, L.full, L.alt, P->s, L.color, job);
}

/* The legend of a panel: its series, then warnings, then a note. */
static void rfl__roof_legend(rfl_canvas *c, const rfl__panel *P, const rfl__series *ser,
                             const rfl__obst *o) {
    const rfl_roofline_desc *d = P->d;
    rfl__legend leg;
    int i, k = P->k, any_est = 0;
    leg.n = leg.more = 0;
    for (i = 0; i < ser->n; i++) {
        int j, on = 0, est = 0, hollow_all = 1;
        for (j = ser->first[i]; j < d->n_points; j++) {
            const rfl_point *pt = &d->points[j];
            if (!rfl__point_ok(pt) || !rfl__on_panel(pt, k, d->n_machines)) continue;
            if (!rfl__streq(pt->label, rfl__ser_label(ser, i))) continue;
            on = 1;
            est |= pt->estimate;
            if (!pt->estimate) hollow_all = 0;
        }
        if (!on) continue;
        {
            const rfl_point *f = &d->points[ser->first[i]];
            rfl__leg_add(&leg, rfl__ser_label(ser, i),
                         f->marker ? f->marker : rfl__markers[i % 7],
                         f->color ? f->color : rfl__palette[ser->slot[i] % 10], est && hollow_all, 0);
        }
    }
    for (i = 0; i < d->n_points; i++) {
        const rfl_point *pt = &d->points[i];
        double roof;
        if (!rfl__point_ok(pt) || !rfl__on_panel(pt, k, d->n_machines)) continue;
        if (pt->estimate) any_est = 1;
        roof = (unsigned)pt->prec < RFL_PREC_COUNT ? rfl__roof(P->m, pt->prec, P->lv, pt->ai) : 0;
        if (roof > 0 && pt->flops_per_s > roof * 1.02)
            rfl__leg_add(&leg, rfl__has_label(pt->label) ? pt->label : "a point",
                         RFL_MARKER_CIRCLE, RFL__WARN, 0, 2);
    }
    if (any_est && !rfl__any_says_estimate(d, k)) rfl__leg_add(&leg, "hollow = estimate", RFL_MARKER_CIRCLE, 0, 0, 3);
    rfl__leg_place(c, &leg, &P->plot, o, d->legend, P->s);
}

/* The panel's title, plot rectangle (into P) and axes. */
static void rfl__panel_frame(rfl_canvas *c, rfl__panel *P, const rfl__rect *panel) {
    const rfl_roofline_desc *d = P->d;
    rfl__rect area;
    char xt[64];
    int s = P->s;
    /* panel title: the machine */
    rfl_draw_text(c, (panel->x0 + panel->x1) / 2, panel->y0, P->m->name ? P->m->name : P->m->id, s,
                  RFL_TEXT_CENTER, RFL__INK);
    area = *panel;
    area.y0 += (RFL_FONT_H + 3) * s;
    P->plot = rfl__plot_rect(&area, &P->x, &P->y, s, 1);
    rfl__axis_place(&P->x, P->plot.x0, P->plot.x1);
    rfl__axis_place(&P->y, P->plot.y1, P->plot.y0);
    P->inner = P->plot;
    P->inner.x0 += 3; P->inner.y0 += 3; P->inner.x1 -= 3; P->inner.y1 -= 3;
    if (d->areas) {
        rfl_chart_area *a = &d->areas[P->k];
        a->x0 = P->plot.x0; a->y0 = P->plot.y0; a->x1 = P->plot.x1; a->y1 = P->plot.y1;
        a->x_min = P->x.lo; a->x_max = P->x.hi; a->y_min = P->y.lo; a->y_max = P->y.hi;
        a->x_log = a->y_log = 1;
    }
    xt[0] = 0;
    {
        const char *t1 = "Arithmetic intensity (FLOP/byte of ", *t2 = rfl__level_title(P->lv);
        size_t n = 0;
        while (*t1 && n < 60) xt[n++] = *t1++;
        while (*t2 && n < 60) xt[n++] = *t2++;
        xt[n++] = ')';
        xt[n] = 0;
    }
    rfl__draw_frame(c, &P->plot, &P->x, &P->y, xt, "Performance (FLOP/s)", s, 1, 1);
}

/* Extra ceilings (lighter, under everything else), ridge drop lines, the
   roofs and their ridge marks. */
static void rfl__panel_roofs(rfl_canvas *c, const rfl__panel *P) {
    rfl__roofpx r;
    int p, i, s = P->s;
    double lw = 1.0 + 1.25 * s;
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl__extra_px(P, p, &r))
            rfl_draw_polyline(c, r.xy, r.n, 0.6 + 0.7 * s, 6.0 * s, 4.0 * s, RFL__LIGHT);
    for (i = 0; i < RFL_LEVEL_COUNT; i++)
        if (rfl__level_px(P, i, &r))
            rfl_draw_polyline(c, r.xy, r.n, 0.6 + 0.7 * s, 6.0 * s, 4.0 * s, RFL__LIGHT);
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl__main_px(P, p, &r) && r.has_ridge)
            rfl_draw_dashed(c, r.rx, r.ry, r.rx, P->plot.y1, 1, 2.0 * s, 3.0 * s, 0xFFB8B8B8u);
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl__main_px(P, p, &r)) rfl_draw_polyline(c, r.xy, r.n, lw, 0, 0, RFL__INK);
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl__main_px(P, p, &r) && r.has_ridge) {
            rfl_fill_circle(c, r.rx, r.ry, 2.5 * s + 1, RFL__INK);
            rfl_fill_circle(c, r.rx, r.ry, 1.2 * s, RFL_RGB(255, 255, 255));
        }
}

/* Links between an estimate and a measurement (thin dashed lines), then
   the points: weighted (kernels) first so that model points stay on top. */
static void rfl__panel_points(rfl_canvas *c, const rfl__panel *P, const rfl__series *ser) {
    const rfl_roofline_desc *d = P->d;
    int i, pass, k = P->k, s = P->s;
    for (i = 0; i < d->n_points; i++) {
        const rfl_point *a = &d->points[i];
        int j;
        if (!a->link || !rfl__point_ok(a) || !rfl__on_panel(a, k, d->n_machines)) continue;
        for (j = i + 1; j < d->n_points; j++) {
            const rfl_point *bp = &d->points[j];
            if (bp->link != a->link || !rfl__point_ok(bp) || !rfl__on_panel(bp, k, d->n_machines)) continue;
            rfl_draw_dashed(c, rfl__amap(&P->x, a->ai), rfl__amap(&P->y, a->flops_per_s),
                            rfl__amap(&P->x, bp->ai), rfl__amap(&P->y, bp->flops_per_s), 0.5 + 0.5 * s,
                            4.0 * s, 3.0 * s, 0xFF9A9A9Au);
            break; /* a chain: each point to the next of its link */
        }
    }
    for (pass = 0; pass < 2; pass++) {
        for (i = 0; i < d->n_points; i++) {
            const rfl_point *pt = &d->points[i];
            int si, weighted = pt->weight > 0;
            rfl_color col;
            rfl_marker mk;
            double px, py, sz, roof;
            if (weighted != (pass == 0)) continue;
            if (!rfl__point_ok(pt) || !rfl__on_panel(pt, k, d->n_machines)) continue;
            si = rfl__ser_find(ser, pt->label);
            col = pt->color ? pt->color : si >= 0 ? rfl__palette[ser->slot[si] % 10] : 0xFF555555u;
            mk = pt->marker ? pt->marker : si >= 0 ? rfl__markers[si % 7] : RFL_MARKER_CIRCLE;
            px = rfl__amap(&P->x, pt->ai);
            py = rfl__amap(&P->y, pt->flops_per_s);
            sz = rfl__marker_size(pt, s);
            if (!pt->estimate && mk != RFL_MARKER_CROSS && mk != RFL_MARKER_PLUS)
                rfl_draw_marker(c, mk, px, py, sz + 2.5 * s, 0, RFL_RGB(255, 255, 255));
            rfl_draw_marker(c, mk, px, py, sz, pt->estimate, weighted ? (col & 0x00FFFFFFu) | 0xD0000000u : col);
            roof = (unsigned)pt->prec < RFL_PREC_COUNT ? rfl__roof(P->m, pt->prec, P->lv, pt->ai) : 0;
            if (roof > 0 && pt->flops_per_s > roof * 1.02) {
                rfl_draw_circle(c, px, py, sz / 2 + 4 * s, 1.5 * s, RFL__WARN);
                rfl_draw_text(c, px + sz / 2 + 5 * s, py - sz / 2 - 3 * s, "!", s + 1,
                              RFL_TEXT_LEFT | RFL_TEXT_BOTTOM, RFL__WARN);
            }
        }
    }
}

static RFL__NOINLINE rfl_result rfl__roof_panel(rfl_canvas *c, const rfl_roofline_desc *d, int k,
                                                const rfl__rect *panel, const rfl__axis *x,
                                                const rfl__axis *y, int s, const rfl__series *ser) {
    rfl__panel P;
    rfl__obst o;
    rfl__labels lab;
    int lab_id[RFL__JOBS]; /* each label once at most */
    unsigned char lab_how[RFL__JOBS];
    rfl_result res = RFL_OK;
    int p, i;

    P.d = d;
    P.m = d->machines[k];
    P.k = k;
    P.s = s;
    P.lv = (unsigned)d->level < RFL_LEVEL_COUNT ? d->level : RFL_DRAM;
    P.precs = rfl__panel_precs(d, k);
    P.bw = P.m->bw_bytes_per_s[P.lv];
    P.x = *x;
    P.y = *y;
    rfl__panel_frame(c, &P, panel);
    P.mainpeak = 0;
    for (p = 0; p < RFL_PREC_COUNT; p++) {
        if (!((P.precs >> p) & 1)) continue;
        if (!(P.m->peak_flops[p] > 0)) { res = RFL_ERR_NO_ROOF; continue; }
        if (P.m->peak_flops[p] > P.mainpeak) P.mainpeak = P.m->peak_flops[p];
    }
    rfl__obst_init(&o, rfl__roof_fixed, rfl__roof_label_box, &P, &lab, lab_id, lab_how, RFL__JOBS);
    rfl_canvas_clip(c, (int)P.plot.x0 + 1, (int)P.plot.y0 + 1, (int)P.plot.x1, (int)P.plot.y1);
    rfl__panel_roofs(c, &P);
    for (i = 0; i < RFL__JOBS; i++) rfl__roof_place(c, &P, &o, i); /* labels inside the plot */
    rfl__panel_points(c, &P, ser);
    rfl_canvas_unclip(c);
    rfl__roof_legend(c, &P, ser, &o);
    return res;
}

RFL_API rfl_result rfl_chart_roofline(rfl_canvas *c, const rfl_roofline_desc *d) {
    rfl__axis x, y;
    rfl__series ser;
    rfl_result res = RFL_OK;
    int s, cols, rows, k, i;
    double top, pw, ph, gap;
    if (!c || !d || !d->machines || d->n_machines < 1 || d->n_machines > 8 || d->n_points < 0 ||
        (d->n_points > 0 && !d->points))
        return RFL_ERR_ARG;
    for (k = 0; k < d->n_machines; k++)
        if (!d->machines[k]) return RFL_ERR_ARG;
    if (!rfl__canvas_ok(c)) return RFL_OK; /* nothing to draw on */
    rfl_canvas_unclip(c);
    rfl_canvas_clear(c, RFL_RGB(255, 255, 255));
    RFL_MEMSET(&x, 0, sizeof x);
    RFL_MEMSET(&y, 0, sizeof y);
    x.ticks = d->x_ticks;
    y.ticks = d->y_ticks ? d->y_ticks : RFL_TICKS_SI;
    rfl__ranges(d, &x, &y);
    rfl__ser_init(&ser, d->points, 0, 1);
    for (i = 0; i < d->n_points; i++)
        if (rfl__point_ok(&d->points[i])) rfl__ser_add(&ser, i);
    cols = d->columns > 0 ? d->columns
           : c->width >= c->height ? (d->n_machines <= 3 ? d->n_machines : (d->n_machines + 1) / 2)
                                   : (d->n_machines <= 2 ? 1 : 2);
    if (cols > d->n_machines) cols = d->n_machines;
    rows = (d->n_machines + cols - 1) / cols;
    s = rfl__auto_font((double)c->width / cols, (double)c->height / rows, d->font_scale);
    top = rfl__title(c, d->title ? d->title : "Roofline", s);
    gap = 8.0 * s;
    pw = (c->width - gap) / cols;
    ph = (c->height - top - 4.0 * s) / rows;
    for (k = 0; k < d->n_machines; k++) {
        rfl__rect panel;
        rfl_result r;
        panel.x0 = gap + (k % cols) * pw;
        panel.x1 = panel.x0 + pw - gap;
        panel.y0 = top + (k / cols) * ph;
        panel.y1 = panel.y0 + ph - 2.0 * s;
        r = rfl__roof_panel(c, d, k, &panel, &x, &y, s, &ser);
        if (r != RFL_OK) res = r;
    }
    return res;
}

/* ---- bar charts --------------------------------------------------------------- */
static double rfl__bar_val(const rfl_bar_desc *d, int cat, int ser, int nser) {
    double v = d->values[(size_t)cat * (size_t)nser + (size_t)ser];
    return rfl__isfinite(v) && v > 0 ? v : 0;
}

/* A bar chart's layout: what its drawing and its obstacles share. */
typedef struct rfl__bars {
    const rfl_bar_desc *d;
    rfl__axis va;
    rfl__rect plot;
    double slot; /* pixels per category */
    int horiz, nser, ncat, s;
} rfl__bars;

/* The bars in order with their category and value labels: drawn when c
   is given, else counted and scored as obstacles into sc (one walk, so
   that both see the same geometry). */
static void rfl__bars_walk(const rfl__bars *B, rfl_canvas *c, rfl__scan *sc) {
    const rfl_bar_desc *d = B->d;
    const rfl__axis *va = &B->va;
    const rfl__rect *plot = &B->plot;
    int i, j, s = B->s, nser = B->nser, horiz = B->horiz;
    double slot = B->slot;
    char b[48];
    for (i = 0; i < B->ncat; i++) {
        double base = (horiz ? plot->y0 : plot->x0) + slot * i, acc = 0;
        double gw = slot * 0.78, bw = d->stacked ? gw : gw / nser;
        double start = base + (slot - gw) / 2;
        double lo_px = rfl__amap(va, va->lo);
        if (sc && sc->n >= RFL__NOBST - RFL__NLAB) return; /* no more count */
        /* category label */
        if (c && horiz)
            rfl__text_cut(c, plot->x0 - 7 * s, base + slot / 2 + s, d->categories[i], 0, s,
                          RFL_TEXT_RIGHT | RFL_TEXT_MIDDLE, RFL__INK);
        else if (c)
            rfl__text_cut(c, base + slot / 2, plot->y1 + 7 * s, d->categories[i], 0, s,
                          RFL_TEXT_CENTER, RFL__INK);
        for (j = 0; j < nser; j++) {
            double v = rfl__bar_val(d, i, j, nser), a0, a1, p0, p1, q0, q1;
            rfl_color col = d->colors && d->colors[j] ? d->colors[j] : rfl__palette[j % 10];
            if (!(v > 0)) continue;
            if (d->stacked) { a0 = acc; a1 = acc + v; acc = a1; }
            else { a0 = va->log ? va->lo : 0; a1 = v; }
            p0 = a0 > 0 || !va->log ? rfl__amap(va, a0 > 0 || !va->log ? a0 : va->lo) : lo_px;
            if (va->log && !(a0 > 0)) p0 = lo_px;
            p1 = rfl__amap(va, a1);
            q0 = d->stacked ? start : start + bw * j;
            q1 = q0 + bw - (nser > 1 && !d->stacked ? 1 : 0);
            if (c && horiz) rfl_fill_rect(c, p0, q0, p1 - p0, q1 - q0, col);
            else if (c) rfl_fill_rect(c, q0, p1, q1 - q0, p0 - p1, col);
            else if (horiz) rfl__scan_add(sc, p0, q0, p1 + 2, q1, 20);
            else rfl__scan_add(sc, q0, p1 - 2, q1, p0, 20);
            if (d->value_labels && (!d->stacked || j == nser - 1)) {
                double shown = d->stacked ? acc : v;
                rfl_fmt_si(b, sizeof b, shown, 3);
                rfl__rtrim(b);
                if (horiz) {
                    if (c) rfl_draw_text(c, p1 + 4 * s, (q0 + q1) / 2 + s, b, s, RFL_TEXT_LEFT | RFL_TEXT_MIDDLE, RFL__INK);
                    else rfl__scan_add(sc, p1, q0, p1 + 6 * s + rfl_text_width(b, -1, s), q1, 20);
                } else if (rfl_text_width(b, -1, s) <= (q1 - q0) + 6 * s || nser == 1 || d->stacked) {
                    if (c) rfl_draw_text(c, (q0 + q1) / 2, p1 - 3 * s, b, s, RFL_TEXT_CENTER | RFL_TEXT_BOTTOM, RFL__INK);
                    else rfl__scan_add(sc, q0, p1 - (RFL_FONT_H + 3) * s, q1, p1, 20);
                }
            }
        }
    }
}
static void rfl__bars_fixed(const void *ctx, rfl__scan *sc) {
    rfl__bars_walk((const rfl__bars *)ctx, 0, sc);
}

RFL_API rfl_result rfl_chart_bars(rfl_canvas *c, const rfl_bar_desc *d) {
    rfl__axis va, dummy;
    rfl__rect plot;
    rfl__obst o;
    rfl__legend leg;
    rfl__bars B;
    int nser, ncat, s, i, j, horiz, maxlw = 0, logv;
    double vmax = 0, vminpos = 1e300, top;
    if (!c || !d || d->n_categories < 0 || d->n_categories > 100000 || d->n_series < 0 ||
        d->n_series > 64 || (d->n_categories > 0 && (!d->values || !d->categories)))
        return RFL_ERR_ARG;
    if (!rfl__canvas_ok(c)) return RFL_OK;
    nser = d->n_series ? d->n_series : 1;
    ncat = d->n_categories;
    rfl_canvas_unclip(c);
    rfl_canvas_clear(c, RFL_RGB(255, 255, 255));
    s = rfl__auto_font(c->width, c->height, d->font_scale);
    top = rfl__title(c, d->title, s);
    for (i = 0; i < ncat; i++) {
        double sum = 0;
        int w = rfl_text_width(d->categories[i], -1, s);
        if (w > RFL__LEG_MAXCH * RFL_FONT_W * s) w = RFL__LEG_MAXCH * RFL_FONT_W * s;
        if (w > maxlw) maxlw = w;
        for (j = 0; j < nser; j++) {
            double v = rfl__bar_val(d, i, j, nser);
            sum += v;
            if (v > 0 && v < vminpos) vminpos = v;
            if (!d->stacked && v > vmax) vmax = v;
        }
        if (d->stacked && sum > vmax) vmax = sum;
    }
    if (!(vmax > 0)) { vmax = 1; vminpos = 1; }
    logv = d->scale == RFL_SCALE_LOG ||
           (d->scale == RFL_SCALE_AUTO && !d->stacked && vmax / vminpos > 316.0);
    RFL_MEMSET(&va, 0, sizeof va);
    RFL_MEMSET(&dummy, 0, sizeof dummy);
    va.log = logv;
    va.ticks = d->ticks ? d->ticks : RFL_TICKS_SI;
    if (logv) rfl__nice_range(&va, vminpos / 2, vmax * 1.5);
    else rfl__nice_range(&va, 0, vmax * 1.08);
    dummy.lo = 0;
    dummy.hi = ncat > 0 ? ncat : 1;
    /* orientation: horizontal when labels would not fit under their bars */
    {
        double avail = (c->width - 120.0 * s) / (ncat > 0 ? ncat : 1);
        horiz = d->orient == RFL_ORIENT_HORIZONTAL ||
                (d->orient == RFL_ORIENT_AUTO && (maxlw > avail * 0.92 || ncat > 24));
    }
    if (horiz) {
        plot.x0 = 8.0 * s + maxlw + 8 * s + (d->category_title ? (RFL_FONT_H + 4) * s : 0);
        plot.x1 = c->width - 18.0 * s;
        plot.y0 = top + 4.0 * s;
        plot.y1 = c->height - (6.0 * s + RFL_FONT_H * s + 4 * s + (RFL_FONT_H + 4) * s);
        rfl__axis_place(&va, plot.x0, plot.x1);
        rfl__axis_place(&dummy, plot.y0, plot.y1);
    } else {
        rfl__rect panel;
        panel.x0 = 4.0 * s; panel.x1 = c->width - 4.0 * s;
        panel.y0 = top; panel.y1 = c->height - 2.0 * s;
        plot = rfl__plot_rect(&panel, &dummy, &va, s, d->value_title != 0);
        rfl__axis_place(&va, plot.y1, plot.y0);
        rfl__axis_place(&dummy, plot.x0, plot.x1);
    }
    if (plot.x1 <= plot.x0 + 4 || plot.y1 <= plot.y0 + 4) return RFL_OK; /* too small */
    if (d->area) {
        d->area->x0 = plot.x0; d->area->y0 = plot.y0; d->area->x1 = plot.x1; d->area->y1 = plot.y1;
        if (horiz) {
            d->area->x_min = va.lo; d->area->x_max = va.hi; d->area->x_log = logv;
            d->area->y_min = 0; d->area->y_max = dummy.hi; d->area->y_log = 0;
        } else {
            d->area->y_min = va.lo; d->area->y_max = va.hi; d->area->y_log = logv;
            d->area->x_min = 0; d->area->x_max = dummy.hi; d->area->x_log = 0;
        }
    }
    if (horiz)
        rfl__draw_frame_ex(c, &plot, &va, &dummy, d->value_title, 0, s, 1, 0, RFL__NO_YTICKS);
    else
        rfl__draw_frame_ex(c, &plot, &dummy, &va, 0, d->value_title, s, 0, 1, RFL__NO_XTICKS);
    B.d = d;
    B.va = va;
    B.plot = plot;
    B.slot = ((horiz ? plot.y1 - plot.y0 : plot.x1 - plot.x0)) / (ncat > 0 ? ncat : 1);
    B.horiz = horiz;
    B.nser = nser;
    B.ncat = ncat;
    B.s = s;
    rfl__bars_walk(&B, c, 0);
    if (d->category_title) {
        if (horiz)
            rfl_draw_text(c, 6.0 * s, (plot.y0 + plot.y1) / 2, d->category_title, s,
                          RFL_TEXT_UP | RFL_TEXT_CENTER | RFL_TEXT_TOP, RFL__INK);
        else
            rfl_draw_text(c, (plot.x0 + plot.x1) / 2, plot.y1 + 7 * s + RFL_FONT_H * s + 5 * s,
                          d->category_title, s, RFL_TEXT_CENTER, RFL__INK);
    }
    leg.n = leg.more = 0;
    if (nser > 1 && d->series)
        for (j = 0; j < nser; j++)
            rfl__leg_add(&leg, d->series[j] ? d->series[j] : "", RFL_MARKER_SQUARE,
                         d->colors && d->colors[j] ? d->colors[j] : rfl__palette[j % 10], 0, 1);
    rfl__obst_init(&o, rfl__bars_fixed, 0, &B, 0, 0, 0, 0);
    rfl__leg_place(c, &leg, &plot, &o, d->legend, s);
    return RFL_OK;
}

/* ---- scatter ---------------------------------------------------------------------- */
static int rfl__xy_ok(const rfl_xy *p, int xlog, int ylog) {
    return rfl__isfinite(p->x) && rfl__isfinite(p->y) && (!xlog || p->x > 0) && (!ylog || p->y > 0);
}

/* A scatter chart's plot: what its drawing, obstacles and labels share. */
typedef struct rfl__xyplot {
    const rfl_scatter_desc *d;
    rfl__axis x, y;
    rfl__rect plot;
    int s;
} rfl__xyplot;

static double rfl__xy_size(const rfl_xy *p, int s) {
    rfl_point tmp;
    RFL_MEMSET(&tmp, 0, sizeof tmp);
    tmp.weight = p->weight;
    return rfl__marker_size(&tmp, s);
}
/* the points, the chart's fixed obstacles */
static void rfl__xy_fixed(const void *ctx, rfl__scan *sc) {
    const rfl__xyplot *S = (const rfl__xyplot *)ctx;
    int i;
    for (i = 0; i < S->d->n_points; i++) {
        const rfl_xy *p = &S->d->points[i];
        double px, py, h;
        if (!rfl__xy_ok(p, S->x.log, S->y.log)) continue;
        px = rfl__amap(&S->x, p->x);
        py = rfl__amap(&S->y, p->y);
        h = rfl__xy_size(p, S->s) / 2 + 3 * S->s;
        rfl__scan_add(sc, px - h, py - h, px + h, py + h, 30);
    }
}
/* where point i's label may go: right, left, above, below */
static void rfl__xy_cands(const rfl__xyplot *S, int i, rfl__cand *cd) {
    const rfl_xy *p = &S->d->points[i];
    double px = rfl__amap(&S->x, p->x), py = rfl__amap(&S->y, p->y);
    int s = S->s;
    cd[0].x = px + 8 * s; cd[0].y = py; cd[0].flags = RFL_TEXT_LEFT | RFL_TEXT_MIDDLE;
    cd[1].x = px - 8 * s; cd[1].y = py; cd[1].flags = RFL_TEXT_RIGHT | RFL_TEXT_MIDDLE;
    cd[2].x = px; cd[2].y = py - 8 * s; cd[2].flags = RFL_TEXT_CENTER | RFL_TEXT_BOTTOM;
    cd[3].x = px; cd[3].y = py + 8 * s; cd[3].flags = RFL_TEXT_CENTER | RFL_TEXT_TOP;
}
static void rfl__xy_label_box(const void *ctx, int i, int how, rfl__rect *box) {
    const rfl__xyplot *S = (const rfl__xyplot *)ctx;
    rfl__cand cd[4];
    rfl__xy_cands(S, i, cd);
    rfl__label_box(&cd[how & 7], S->d->points[i].label, S->s, box);
}
/* Labels beside the points, or the legend, placed around the points and
   each other; unclips the canvas before the legend. */
static RFL__NOINLINE void rfl__xy_annotate(rfl_canvas *c, const rfl__xyplot *S, const rfl__series *ser) {
    const rfl_scatter_desc *d = S->d;
    rfl__obst o;
    rfl__labels lab;
    int lab_id[RFL__NLAB];
    unsigned char lab_how[RFL__NLAB];
    rfl__legend leg;
    int i;
    rfl__obst_init(&o, rfl__xy_fixed, rfl__xy_label_box, S, &lab, lab_id, lab_how, RFL__NLAB);
    leg.n = leg.more = 0;
    if (d->point_labels) {
        for (i = 0; i < d->n_points; i++) {
            const rfl_xy *p = &d->points[i];
            rfl__cand cd[4];
            if (!rfl__xy_ok(p, S->x.log, S->y.log) || !rfl__has_label(p->label)) continue;
            rfl__xy_cands(S, i, cd);
            rfl__place_label(c, &o, &S->plot, cd, 4, p->label, 0, S->s, 0xFF444444u, i);
        }
    } else {
        for (i = 0; i < ser->n; i++) {
            const rfl_xy *f = &d->points[ser->first[i]];
            rfl__leg_add(&leg, rfl__ser_label(ser, i), f->marker ? f->marker : rfl__markers[i % 7],
                         f->color ? f->color : rfl__palette[ser->slot[i] % 10], f->hollow, 0);
        }
    }
    rfl_canvas_unclip(c);
    rfl__leg_place(c, &leg, &S->plot, &o, d->legend, S->s);
}

RFL_API rfl_result rfl_chart_scatter(rfl_canvas *c, const rfl_scatter_desc *d) {
    rfl__xyplot S;
    rfl__rect panel;
    rfl__series ser;
    int s, i, k;
    double top, xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300, xpos = 1e300, ypos = 1e300;
    if (!c || !d || d->n_points < 0 || (d->n_points > 0 && !d->points)) return RFL_ERR_ARG;
    if (!rfl__canvas_ok(c)) return RFL_OK;
    rfl_canvas_unclip(c);
    rfl_canvas_clear(c, RFL_RGB(255, 255, 255));
    s = rfl__auto_font(c->width, c->height, d->font_scale);
    S.d = d;
    S.s = s;
    top = rfl__title(c, d->title, s);
    for (i = 0; i < d->n_points; i++) {
        const rfl_xy *p = &d->points[i];
        if (!rfl__xy_ok(p, 0, 0)) continue;
        if (p->x < xmin) xmin = p->x;
        if (p->x > xmax) xmax = p->x;
        if (p->y < ymin) ymin = p->y;
        if (p->y > ymax) ymax = p->y;
        if (p->x > 0 && p->x < xpos) xpos = p->x;
        if (p->y > 0 && p->y < ypos) ypos = p->y;
    }
    if (xmin > xmax) { xmin = 0; xmax = 1; xpos = 1; }
    if (ymin > ymax) { ymin = 0; ymax = 1; ypos = 1; }
    RFL_MEMSET(&S.x, 0, sizeof S.x);
    RFL_MEMSET(&S.y, 0, sizeof S.y);
    S.x.log = d->x_scale == RFL_SCALE_LOG || (d->x_scale == RFL_SCALE_AUTO && xmin > 0 && xmax / xmin > 100);
    S.y.log = d->y_scale == RFL_SCALE_LOG || (d->y_scale == RFL_SCALE_AUTO && ymin > 0 && ymax / ymin > 100);
    S.x.ticks = d->x_ticks;
    S.y.ticks = d->y_ticks;
    if (S.x.log) rfl__nice_range(&S.x, xpos / 1.5, xmax * 1.5);
    else rfl__nice_range(&S.x, xmin >= 0 && xmin < (xmax - xmin) ? 0 : xmin - (xmax - xmin) * 0.05, xmax + (xmax - xmin) * 0.08 + (xmax == xmin));
    if (S.y.log) rfl__nice_range(&S.y, ypos / 1.5, ymax * 1.5);
    else rfl__nice_range(&S.y, ymin >= 0 && ymin < (ymax - ymin) ? 0 : ymin - (ymax - ymin) * 0.05, ymax + (ymax - ymin) * 0.08 + (ymax == ymin));
    if (d->x_min != 0 || d->x_max != 0) {
        if (rfl__isfinite(d->x_min) && rfl__isfinite(d->x_max) && d->x_max > d->x_min && (!S.x.log || d->x_min > 0)) { S.x.lo = d->x_min; S.x.hi = d->x_max; }
    }
    if (d->y_min != 0 || d->y_max != 0) {
        if (rfl__isfinite(d->y_min) && rfl__isfinite(d->y_max) && d->y_max > d->y_min && (!S.y.log || d->y_min > 0)) { S.y.lo = d->y_min; S.y.hi = d->y_max; }
    }
    panel.x0 = 4.0 * s; panel.x1 = c->width - 4.0 * s;
    panel.y0 = top; panel.y1 = c->height - 2.0 * s;
    S.plot = rfl__plot_rect(&panel, &S.x, &S.y, s, d->y_title != 0);
    rfl__axis_place(&S.x, S.plot.x0, S.plot.x1);
    rfl__axis_place(&S.y, S.plot.y1, S.plot.y0);
    if (d->area) {
        d->area->x0 = S.plot.x0; d->area->y0 = S.plot.y0; d->area->x1 = S.plot.x1; d->area->y1 = S.plot.y1;
        d->area->x_min = S.x.lo; d->area->x_max = S.x.hi; d->area->y_min = S.y.lo; d->area->y_max = S.y.hi;
        d->area->x_log = S.x.log; d->area->y_log = S.y.log;
    }
    rfl__draw_frame(c, &S.plot, &S.x, &S.y, d->x_title, d->y_title, s, 1, 1);
    rfl__ser_init(&ser, 0, d->points, 1);
    for (i = 0; i < d->n_points; i++)
        if (rfl__xy_ok(&d->points[i], S.x.log, S.y.log)) rfl__ser_add(&ser, i);
    rfl_canvas_clip(c, (int)S.plot.x0 + 1, (int)S.plot.y0 + 1, (int)S.plot.x1, (int)S.plot.y1);
    for (i = 0; i < d->n_points; i++) {
        const rfl_xy *a = &d->points[i];
        if (!a->link || !rfl__xy_ok(a, S.x.log, S.y.log)) continue;
        for (k = i + 1; k < d->n_points; k++) {
            const rfl_xy *bp = &d->points[k];
            if (bp->link != a->link || !rfl__xy_ok(bp, S.x.log, S.y.log)) continue;
            rfl_draw_dashed(c, rfl__amap(&S.x, a->x), rfl__amap(&S.y, a->y), rfl__amap(&S.x, bp->x),
                            rfl__amap(&S.y, bp->y), 0.5 + 0.5 * s, 4.0 * s, 3.0 * s, 0xFF9A9A9Au);
            break;
        }
    }
    for (i = 0; i < d->n_points; i++) {
        const rfl_xy *p = &d->points[i];
        double px, py, sz;
        int si;
        rfl_color col;
        rfl_marker mk;
        if (!rfl__xy_ok(p, S.x.log, S.y.log)) continue;
        si = rfl__ser_find(&ser, p->label);
        col = p->color ? p->color : si >= 0 ? rfl__palette[ser.slot[si] % 10] : 0xFF555555u;
        mk = p->marker ? p->marker : si >= 0 ? rfl__markers[si % 7] : RFL_MARKER_CIRCLE;
        px = rfl__amap(&S.x, p->x);
        py = rfl__amap(&S.y, p->y);
        sz = rfl__xy_size(p, s);
        if (!p->hollow && mk != RFL_MARKER_CROSS && mk != RFL_MARKER_PLUS)
            rfl_draw_marker(c, mk, px, py, sz + 2.5 * s, 0, RFL_RGB(255, 255, 255));
        rfl_draw_marker(c, mk, px, py, sz, p->hollow, col);
    }
    rfl__xy_annotate(c, &S, &ser);
    return RFL_OK;
}

/* ---- the roofline as text ---------------------------------------------------- */
typedef struct rfl__grid {
    char *b;
    int cols, rows;
} rfl__grid;
static void rfl__gput(rfl__grid *g, int r, int c, char ch) {
    if (r < 0 || r >= g->rows || c < 0 || c >= g->cols) return;
    g->b[(size_t)r * (size_t)(g->cols + 1) + (size_t)c] = ch;
}
static char rfl__gget(const rfl__grid *g, int r, int c) {
    if (r < 0 || r >= g->rows || c < 0 || c >= g->cols) return 0;
    return g->b[(size_t)r * (size_t)(g->cols + 1) + (size_t)c];
}
static void rfl__gstr(rfl__grid *g, int r, int c, const char *s) {
    for (; s && *s; s++, c++) {
        char ch = *s;
        if ((unsigned char)ch < 32 || (unsigned char)ch > 126) ch = '?';
        rfl__gput(g, r, c, ch);
    }
}
/* row (0 = top of the plot area) of a value on the log y axis */
static int rfl__grow(const rfl__axis *y, double v, int top, int h) {
    double t = (RFL_LOG10(v) - RFL_LOG10(y->lo)) / (RFL_LOG10(y->hi) - RFL_LOG10(y->lo));
    if (!(t == t)) return -1000;
    t = rfl__clampd(t, -10, 10);
    return top + h - 1 - rfl__ifloor(t * (h - 1) + 0.5);
}
static int rfl__gcol(const rfl__axis *x, double v, int left, int w) {
    double t = (RFL_LOG10(v) - RFL_LOG10(x->lo)) / (RFL_LOG10(x->hi) - RFL_LOG10(x->lo));
    if (!(t == t)) return -1000;
    t = rfl__clampd(t, -10, 10);
    return left + rfl__ifloor(t * (w - 1) + 0.5);
}

RFL_API rfl_result rfl_chart_roofline_ascii(char *buf, size_t size, int cols, int rows,
                                            const rfl_roofline_desc *d) {
    rfl__grid g;
    rfl__axis x, y;
    rfl__series ser;
    rfl__tickset t;
    const rfl_machine *m;
    rfl_level lv;
    rfl_result res = RFL_OK;
    unsigned precs;
    int r, c, i, p, left = 7, top = 1, key, ph, pw, line;
    char lab[96];
    if (cols == 0 && rows == 0) { cols = 80; rows = 24; }
    if (!buf || !d || !d->machines || d->n_machines < 1 || !d->machines[0] || d->n_points < 0 ||
        (d->n_points > 0 && !d->points) || cols < 20 || rows < 8 || cols > 1000 || rows > 1000)
        return RFL_ERR_ARG;
    if (size < RFL_ASCII_BYTES(cols, rows)) {
        if (size) buf[0] = 0;
        return RFL_ERR_BUFFER;
    }
    g.b = buf;
    g.cols = cols;
    g.rows = rows;
    for (r = 0; r < rows; r++) {
        RFL_MEMSET(buf + (size_t)r * (size_t)(cols + 1), ' ', (size_t)cols);
        buf[(size_t)r * (size_t)(cols + 1) + (size_t)cols] = '\n';
    }
    buf[(size_t)rows * (size_t)(cols + 1)] = 0;
    m = d->machines[0];
    lv = (unsigned)d->level < RFL_LEVEL_COUNT ? d->level : RFL_DRAM;
    RFL_MEMSET(&x, 0, sizeof x);
    RFL_MEMSET(&y, 0, sizeof y);
    {   /* ranges as the picture has them, for this machine alone */
        rfl_roofline_desc one = *d;
        one.n_machines = 1;
        one.extra_precs = 0;
        one.extra_levels = 0;
        rfl__ranges(&one, &x, &y);
    }
    rfl__ser_init(&ser, d->points, 0, 0); /* links do not show in text */
    for (i = 0; i < d->n_points; i++)
        if (rfl__point_ok(&d->points[i]) && rfl__on_panel(&d->points[i], 0, 1)) rfl__ser_add(&ser, i);
    key = ser.n + 1;
    if (key > rows / 4) key = rows / 4;
    ph = rows - top - 3 - key;
    pw = cols - left - 1;
    if (ph < 3) ph = 3;
    /* title: the machine */
    {
        const char *name = m->name ? m->name : m->id;
        int n = (int)rfl__strlen(name);
        rfl__gstr(&g, 0, n < cols ? (cols - n) / 2 : 0, name);
    }
    /* axes */
    for (r = top; r < top + ph; r++) rfl__gput(&g, r, left - 1, '|');
    rfl__gput(&g, top + ph, left - 1, '+');
    for (c = left; c < left + pw; c++) rfl__gput(&g, top + ph, c, '-');
    x.ticks = d->x_ticks;
    y.ticks = d->y_ticks ? d->y_ticks : RFL_TICKS_SI;
    rfl__make_ticks(&y, &t);
    for (i = 0; i < t.nmajor; i++) {
        double v = rfl__tmajor(&y, &t, i);
        int rr = rfl__grow(&y, v, top, ph), n;
        rfl__tick_label(lab, sizeof lab, &y, v);
        for (n = 0; lab[n]; n++) if (lab[n] == ' ') { int q = n; while (lab[q]) { lab[q] = lab[q + 1]; q++; } }
        n = (int)rfl__strlen(lab);
        rfl__gstr(&g, rr, left - 1 - n, lab);
    }
    rfl__make_ticks(&x, &t);
    {
        int last = -100;
        for (i = 0; i < t.nmajor; i++) {
            double v = rfl__tmajor(&x, &t, i);
            int cc = rfl__gcol(&x, v, left, pw), n;
            rfl__tick_label(lab, sizeof lab, &x, v);
            if (lab[2] == '^') { lab[2] = 'e'; } /* 10^3 reads as 10e3 in text */
            n = (int)rfl__strlen(lab);
            rfl__gput(&g, top + ph, cc, '+');
            if (cc - n / 2 > last + 1) { rfl__gstr(&g, top + ph + 1, cc - n / 2, lab); last = cc - n / 2 + n; }
        }
    }
    rfl__gstr(&g, top + ph + 2, left + (pw - 36 > 0 ? (pw - 36) / 2 : 0),
              "arithmetic intensity (FLOP/byte) ->");
    rfl__gstr(&g, 0, 0, "FLOP/s");
    /* roofs */
    precs = rfl__panel_precs(d, 0);
    for (p = 0; p < RFL_PREC_COUNT; p++) {
        double pk = m->peak_flops[p], bw = m->bw_bytes_per_s[lv];
        int prev = -1000;
        if (!((precs >> p) & 1)) continue;
        if (!(pk > 0)) { res = RFL_ERR_NO_ROOF; continue; }
        for (c = left; c < left + pw; c++) {
            double ai = RFL_POW(10.0, RFL_LOG10(x.lo) + (double)(c - left) / (pw - 1) *
                                                          (RFL_LOG10(x.hi) - RFL_LOG10(x.lo)));
            double v = rfl__roof(m, (rfl_prec)p, lv, ai);
            int rr = rfl__grow(&y, v, top, ph), q;
            int flat = !(bw > 0) || ai * bw >= pk;
            if (rr >= top && rr < top + ph) rfl__gput(&g, rr, c, flat ? '_' : '/');
            /* steep in text: fill the rows skipped since the last column */
            if (!flat && prev > -1000)
                for (q = prev - 1; q > rr; q--)
                    if (q >= top && q < top + ph) rfl__gput(&g, q, c, '/');
            prev = rr;
        }
        if (bw > 0) {
            double ridge = pk / bw;
            int rc = rfl__gcol(&x, ridge, left, pw), rr = rfl__grow(&y, pk, top, ph);
            if (rc >= left && rc < left + pw && rr >= top && rr < top + ph) rfl__gput(&g, rr, rc, '+');
        }
    }
    /* points: a letter per series, '!' above the roof */
    for (i = 0; i < d->n_points; i++) {
        const rfl_point *pt = &d->points[i];
        int si, rr, cc;
        double roof;
        if (!rfl__point_ok(pt) || !rfl__on_panel(pt, 0, 1)) continue;
        si = rfl__ser_find(&ser, pt->label);
        rr = rfl__grow(&y, pt->flops_per_s, top, ph);
        cc = rfl__gcol(&x, pt->ai, left, pw);
        roof = (unsigned)pt->prec < RFL_PREC_COUNT ? rfl__roof(m, pt->prec, lv, pt->ai) : 0;
        if (rr < top || rr >= top + ph || cc < left || cc >= left + pw) continue;
        rfl__gput(&g, rr, cc, roof > 0 && pt->flops_per_s > roof * 1.02 ? '!'
                              : si >= 0 && si < 26 ? (char)('A' + si) : '*');
    }
    /* key */
    line = top + ph + 3;
    for (p = 0; p < RFL_PREC_COUNT && line < rows; p++) {
        double pk = m->peak_flops[p], bw = m->bw_bytes_per_s[lv];
        size_t n = 0;
        if (!((precs >> p) & 1) || !(pk > 0)) continue;
        {
            const char *s1 = rfl__prec_title((rfl_prec)p);
            while (*s1 && n < 40) lab[n++] = *s1++;
        }
        lab[n++] = ' ';
        lab[n] = 0;
        rfl__fmt_unit(lab + n, sizeof lab - n, "", pk, "FLOP/s");
        n = rfl__strlen(lab);
        if (bw > 0 && n + 40 < sizeof lab) {
            const char *s2 = ", ridge (+) ";
            while (*s2) lab[n++] = *s2++;
            n += rfl_fmt_num(lab + n, sizeof lab - n, pk / bw, 4);
            s2 = " FLOP/B, ";
            while (*s2) lab[n++] = *s2++;
            s2 = rfl__level_title(lv);
            while (*s2) lab[n++] = *s2++;
            lab[n++] = ' ';
            lab[n] = 0;
            rfl__fmt_unit(lab + n, sizeof lab - n, "", bw, "B/s");
        }
        rfl__gstr(&g, line++, 1, lab);
        break; /* one line for the roof */
    }
    for (i = 0; i < ser.n && line < rows; i++) {
        const rfl_point *pt = &d->points[ser.first[i]];
        size_t n = 0;
        double roof = (unsigned)pt->prec < RFL_PREC_COUNT ? rfl__roof(m, pt->prec, lv, pt->ai) : 0;
        if (line == rows - 1 && i + 1 < ser.n) { rfl__gstr(&g, line++, 1, "..."); break; }
        lab[n++] = i < 26 ? (char)('A' + i) : '*';
        lab[n++] = ' ';
        {
            const char *s1 = rfl__ser_label(&ser, i);
            while (*s1 && n < 40) lab[n++] = *s1++;
        }
        lab[n++] = ':';
        lab[n++] = ' ';
        n += rfl_fmt_num(lab + n, sizeof lab - n, pt->ai, 3);
        lab[n++] = ' ';
        lab[n] = 0;
        {
            const char *s2 = "FLOP/B, ";
            while (*s2) lab[n++] = *s2++;
            lab[n] = 0;
        }
        rfl__fmt_unit(lab + n, sizeof lab - n, "", pt->flops_per_s, "FLOP/s");
        n = rfl__strlen(lab);
        if (roof > 0 && pt->flops_per_s > roof * 1.02 && n + 30 < sizeof lab) {
            const char *s3 = " (!) above roof: check units";
            while (*s3) lab[n++] = *s3++;
            lab[n] = 0;
        }
        rfl__gstr(&g, line++, 1, lab);
    }
    (void)rfl__gget;
    return res;
}

/* ---- PNG through stb_image_write ---------------------------------------------
   stb's allocation macros take no context, so a static pointer names the
   arena of the call in progress: the one sanctioned mutable static, which
   makes this path non-reentrant (documented in the API). When the arena
   runs out, the allocator longjmps back to rfl_png_write: stb does not
   check every allocation, so returning NULL would not be safe. */
#ifdef RFL_HAS_PNG
#include <setjmp.h>
#include <string.h> /* memcpy: 8-byte compares in rfl__zlib (stb needs it too) */

typedef struct rfl__arena {
    unsigned char *base;
    size_t size, used, top; /* top: offset of the last block's header */
    size_t peak;
    jmp_buf fail;
    rfl_write_fn write;
    void *user;
    int write_failed;
} rfl__arena;

static rfl__arena *rfl__png_arena; /* see above: set only during a call */

#define RFL__AHDR 16u /* block header: previous top offset, block size */
static void *rfl__arena_alloc(size_t n) {
    rfl__arena *a = rfl__png_arena;
    size_t start = (a->used + 15u) & ~(size_t)15u, need;
    if (n > a->size || start > a->size) longjmp(a->fail, 1);
    need = RFL__AHDR + ((n + 15u) & ~(size_t)15u);
    if (need > a->size - start) longjmp(a->fail, 1);
    ((size_t *)(void *)(a->base + start))[0] = a->top;
    ((size_t *)(void *)(a->base + start))[1] = n;
    a->top = start;
    a->used = start + need;
    if (a->used > a->peak) a->peak = a->used;
    return a->base + start + RFL__AHDR;
}
static void rfl__arena_free(void *p) {
    rfl__arena *a = rfl__png_arena;
    size_t off;
    if (!p) return;
    off = (size_t)((unsigned char *)p - a->base) - RFL__AHDR;
    if (off == a->top && a->used > 0) { /* last block: give it back */
        a->used = off;
        a->top = ((size_t *)(void *)(a->base + off))[0];
    }
}
static void *rfl__arena_realloc(void *p, size_t oldsz, size_t n) {
    rfl__arena *a = rfl__png_arena;
    unsigned char *q;
    size_t off;
    if (!p) return rfl__arena_alloc(n);
    off = (size_t)((unsigned char *)p - a->base) - RFL__AHDR;
    if (off == a->top) { /* grow the last block in place */
        size_t need = RFL__AHDR + ((n + 15u) & ~(size_t)15u);
        if (n > a->size || need > a->size - off) longjmp(a->fail, 1);
        ((size_t *)(void *)(a->base + off))[1] = n;
        a->used = off + need;
        if (a->used > a->peak) a->peak = a->used;
        return p;
    }
    q = (unsigned char *)rfl__arena_alloc(n);
    RFL_MEMCPY(q, p, oldsz < n ? oldsz : n);
    return q;
}

/* Our own zlib stream (RFC 1950/1951) for stb's PNG writer, through its
   STBIW_ZLIB_COMPRESS hook: greedy LZ77 with one hash probe per position
   and the fixed Huffman code. Charts are mostly flat colour, so long
   matches dominate; this runs several times faster than stb's built-in
   compressor (which compares against up to 2 x quality candidates per
   byte) at a similar size, and keeps a 1600x1000 chart within the time
   budget. Output buffer and hash table come from the arena. */
#define RFL__ZHBITS 13
typedef struct rfl__zout {
    unsigned char *p;
    size_t n, cap, max;
    uint32_t bits;
    int nbits;
} rfl__zout;

static void rfl__zreserve(rfl__zout *z) {
    if (z->n + 16 <= z->cap) return;
    {
        size_t nc = z->cap * 2 > z->max ? z->max : z->cap * 2;
        if (nc < z->n + 16) nc = z->n + 16;
        z->p = (unsigned char *)rfl__arena_realloc(z->p, z->cap, nc);
        z->cap = nc;
    }
}
static void rfl__zput(rfl__zout *z, uint32_t v, int n) {
    z->bits |= v << z->nbits;
    z->nbits += n;
    while (z->nbits >= 8) {
        z->p[z->n++] = (unsigned char)z->bits;
        z->bits >>= 8;
        z->nbits -= 8;
    }
}
static uint32_t rfl__zrev(uint32_t v, int n) {
    uint32_t r = 0;
    while (n--) { r = (r << 1) | (v & 1u); v >>= 1; }
    return r;
}
/* Per-call code tables (a few hundred entries, built in microseconds):
   fixed Huffman literal/length codes bit-reversed for the LSB-first
   stream (RFC 1951 3.2.6), and length/distance -> code index. */
typedef struct rfl__ztab {
    uint16_t lit[288];
    unsigned char litn[288];
    unsigned char lcode[259];  /* length 3..258 -> 0..28 */
    unsigned char dlo[257];    /* distance 1..256 -> 0..15 */
    unsigned char dhi[256];    /* (distance - 1) >> 7 for 257..32768 */
} rfl__ztab;
/* length and distance bases and extra bits: RFC 1951 section 3.2.5 */
static const unsigned short rfl__zlbase[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27,
                                               31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
                                               227, 258};
static const unsigned char rfl__zlext[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                             2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const unsigned short rfl__zdbase[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97,
                                               129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
                                               3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const unsigned char rfl__zdext[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                             6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static void rfl__ztab_init(rfl__ztab *t) {
    int i, k;
    for (i = 0; i < 288; i++) {
        uint32_t code;
        int n;
        if (i < 144) { code = 0x30u + (uint32_t)i; n = 8; }
        else if (i < 256) { code = 0x190u + (uint32_t)(i - 144); n = 9; }
        else if (i < 280) { code = (uint32_t)(i - 256); n = 7; }
        else { code = 0xC0u + (uint32_t)(i - 280); n = 8; }
        t->lit[i] = (uint16_t)rfl__zrev(code, n);
        t->litn[i] = (unsigned char)n;
    }
    for (i = 3, k = 0; i <= 258; i++) {
        while (k < 28 && rfl__zlbase[k + 1] <= i) k++;
        t->lcode[i] = (unsigned char)k;
    }
    for (i = 1, k = 0; i <= 256; i++) {
        while (k < 29 && rfl__zdbase[k + 1] <= i) k++;
        t->dlo[i] = (unsigned char)k;
    }
    for (i = 2; i < 256; i++) { /* distances 257..32768 share a code per 128 */
        int d = i * 128 + 1;
        k = 29;
        while (rfl__zdbase[k] > d) k--;
        t->dhi[i] = (unsigned char)k;
    }
}
static void rfl__zsym(rfl__zout *z, const rfl__ztab *t, int sym) {
    rfl__zput(z, t->lit[sym], t->litn[sym]);
}
static void rfl__zmatch(rfl__zout *z, const rfl__ztab *t, int len, int dist) {
    int i = t->lcode[len], k = dist <= 256 ? t->dlo[dist] : t->dhi[(dist - 1) >> 7];
    rfl__zsym(z, t, 257 + i);
    if (rfl__zlext[i]) rfl__zput(z, (uint32_t)(len - rfl__zlbase[i]), rfl__zlext[i]);
    rfl__zput(z, rfl__zrev((uint32_t)k, 5), 5);
    if (rfl__zdext[k]) rfl__zput(z, (uint32_t)(dist - rfl__zdbase[k]), rfl__zdext[k]);
}

static unsigned char *rfl__zlib(unsigned char *data, int data_len, int *out_len, int quality) {
    uint32_t *head, a = 1, b = 0;
    rfl__zout z;
    rfl__ztab tab;
    size_t i = 0, n = data_len > 0 ? (size_t)data_len : 0, k;
    (void)quality;
    rfl__ztab_init(&tab);
    head = (uint32_t *)rfl__arena_alloc(sizeof(uint32_t) << RFL__ZHBITS);
    RFL_MEMSET(head, 0, sizeof(uint32_t) << RFL__ZHBITS);
    z.max = n + n / 8 + 64; /* fixed codes: at most 9 bits per byte */
    z.cap = n / 32 + 1024 < z.max ? n / 32 + 1024 : z.max;
    z.p = (unsigned char *)rfl__arena_alloc(z.cap); /* last block: grows in place */
    z.n = 0;
    z.bits = 0;
    z.nbits = 0;
    z.p[z.n++] = 0x78; /* deflate, 32K window */
    z.p[z.n++] = 0x01; /* (0x7801 % 31 == 0), no dictionary, fastest */
    rfl__zput(&z, 1, 1); /* final block */
    rfl__zput(&z, 1, 2); /* fixed Huffman codes */
    while (i < n) {
        rfl__zreserve(&z);
        if (i + 4 <= n) {
            uint32_t v = (uint32_t)data[i] | (uint32_t)data[i + 1] << 8 |
                         (uint32_t)data[i + 2] << 16 | (uint32_t)data[i + 3] << 24;
            uint32_t h = (v * 2654435761u) >> (32 - RFL__ZHBITS);
            size_t cand = head[h];
            head[h] = (uint32_t)(i + 1);
            if (cand && i - (cand - 1) <= 32768) {
                const unsigned char *p = data + cand - 1, *q = data + i;
                size_t lim = n - i < 258 ? n - i : 258, len = 0;
                while (len + 8 <= lim) { /* eight bytes at a time */
                    uint64_t u, w;
                    memcpy(&u, p + len, 8);
                    memcpy(&w, q + len, 8);
                    if (u != w) break;
                    len += 8;
                }
                while (len < lim && p[len] == q[len]) len++;
                if (len >= 4) {
                    rfl__zmatch(&z, &tab, (int)len, (int)(i - (cand - 1)));
                    i += len;
                    continue;
                }
            }
        }
        rfl__zsym(&z, &tab, data[i]);
        i++;
    }
    rfl__zreserve(&z);
    rfl__zsym(&z, &tab, 256);             /* end of block */
    if (z.nbits) rfl__zput(&z, 0, 8 - z.nbits);
    for (k = 0; k < n; ) { /* Adler-32; runs of zero bytes (most of a
                              filtered chart) only add a to b */
        size_t end = k + 5552 < n ? k + 5552 : n;
        while (k < end) {
            uint64_t w = 1;
            if (k + 8 <= end) memcpy(&w, data + k, 8);
            if (w == 0) { b += 8u * a; k += 8; continue; }
            { size_t e = k + 8 < end ? k + 8 : end; for (; k < e; k++) { a += data[k]; b += a; } }
        }
        a %= 65521u;
        b %= 65521u;
    }
    z.p[z.n++] = (unsigned char)(b >> 8);
    z.p[z.n++] = (unsigned char)b;
    z.p[z.n++] = (unsigned char)(a >> 8);
    z.p[z.n++] = (unsigned char)a;
    *out_len = (int)z.n;
    return z.p;
}

#define STBIW_MALLOC(sz) rfl__arena_alloc(sz)
#define STBIW_ZLIB_COMPRESS(d, n, o, q) rfl__zlib(d, n, o, q)
#define STBIW_REALLOC_SIZED(p, oldsz, newsz) rfl__arena_realloc(p, oldsz, newsz)
#define STBIW_FREE(p) rfl__arena_free(p)
#define STBIW_ASSERT(x) ((void)0)
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO /* files go through our own callback */
/* stb is not warning-clean under our flags: silence it, and only it. */
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wcomma"
#pragma clang diagnostic ignored "-Wextra-semi-stmt"
#pragma clang diagnostic ignored "-Wimplicit-int-conversion"
#pragma clang diagnostic ignored "-Wshorten-64-to-32"
#endif
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wclobbered"
#endif
#ifdef __cplusplus
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wzero-as-null-pointer-constant"
#endif
#endif
#include RFL__STB_PATH
/* With STBI_WRITE_NO_STDIO stb declares its HDR callback writer but only
   defines it with stdio; an unused stub keeps -Wunused-function quiet. */
static RFL__UNUSED int stbi_write_hdr_to_func(stbi_write_func *func, void *context, int w, int h,
                                              int comp, const float *data) {
    (void)func; (void)context; (void)w; (void)h; (void)comp; (void)data;
    return 0;
}
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
#ifdef __clang__
#pragma clang diagnostic pop
#endif

RFL_API size_t rfl_png_arena_size(int w, int h, int channels) {
    if (w <= 0 || h <= 0) return 0;
    if (channels != 4) channels = 3;
    return RFL_PNG_ARENA_BYTES(w, h, channels);
}


static void rfl__png_sink(void *ctx, void *data, int size) {
    rfl__arena *a = (rfl__arena *)ctx;
    if (a->write_failed || size < 0) return;
    if (a->write(a->user, data, (size_t)size) != 0) a->write_failed = 1;
}

/* setjmp here, around a call stb cannot see through: the volatile pointer
   keeps stb's encoder out of line, so none of its locals live across the
   setjmp (-Wclobbered). Returns stb's result, or 0 when the arena ran out. */
typedef int (*rfl__png_fn)(stbi_write_func *, void *, int, int, int, const void *, int);
static int rfl__png_guarded(rfl__arena *a, const rfl_canvas *c) {
    rfl__png_fn volatile fn = stbi_write_png_to_func;
    if (setjmp(a->fail)) return 0;
    return fn(rfl__png_sink, a, c->width, c->height, c->channels, c->pixels, c->stride_bytes);
}

RFL_API rfl_result rfl_png_write(const rfl_canvas *c, void *arena, size_t arena_size,
                                 rfl_write_fn write, void *user) {
    rfl__arena a;
    int ok;
    if (!c || !write || !c->pixels || c->width <= 0 || c->height <= 0 ||
        (c->channels != 3 && c->channels != 4) || c->stride_bytes < c->width * c->channels)
        return RFL_ERR_ARG;
    if (!arena) return RFL_ERR_BUFFER;
    if ((size_t)c->width * (size_t)c->channels + 1u > (size_t)0x7FFFFFFF / (size_t)c->height)
        return RFL_ERR_OVERFLOW; /* stb counts bytes in int */
    RFL_MEMSET(&a, 0, sizeof a);
    a.base = (unsigned char *)arena;
    a.size = arena_size;
    a.write = write;
    a.user = user;
    rfl__png_arena = &a;
    /* stb's settings are statics of this unit only (STB_IMAGE_WRITE_STATIC):
       set on every call so that output depends on nothing else. Filter 2
       ("up") for every row: stb's per-row choice among five filters costs
       more than the whole rest of the encode, and "up" turns a chart's
       repeated rows into zeros that our compressor (rfl__zlib) packs
       into long matches. The compression level is unused by rfl__zlib. */
    stbi_write_force_png_filter = 2;
    stbi__flip_vertically_on_write = 0;
    ok = rfl__png_guarded(&a, c);
    rfl__png_arena = 0;
    if (!ok) return RFL_ERR_BUFFER;
    return a.write_failed ? RFL_ERR_IO : RFL_OK;
}

typedef struct rfl__membuf {
    unsigned char *out;
    size_t size, len;
} rfl__membuf;
static int rfl__mem_write(void *user, const void *data, size_t len) {
    rfl__membuf *m = (rfl__membuf *)user;
    if (m->len + len <= m->size && m->out) RFL_MEMCPY(m->out + m->len, data, len);
    m->len += len;
    return 0;
}

RFL_API rfl_result rfl_png_encode(const rfl_canvas *c, void *arena, size_t arena_size, void *out,
                                  size_t size, size_t *len) {
    rfl__membuf m;
    rfl_result r;
    m.out = (unsigned char *)out;
    m.size = out ? size : 0;
    m.len = 0;
    r = rfl_png_write(c, arena, arena_size, rfl__mem_write, &m);
    if (len) *len = m.len;
    if (r == RFL_OK && m.len > m.size) r = RFL_ERR_BUFFER;
    return r;
}

#ifndef RFL_NO_STDIO
#include <stdio.h>
static int rfl__file_write(void *user, const void *data, size_t len) {
    return fwrite(data, 1, len, (FILE *)user) == len ? 0 : 1;
}
RFL_API rfl_result rfl_png_save(const rfl_canvas *c, const char *path, void *arena,
                                size_t arena_size) {
    FILE *f;
    rfl_result r;
    if (!path) return RFL_ERR_ARG;
    f = fopen(path, "wb");
    if (!f) return RFL_ERR_IO;
    r = rfl_png_write(c, arena, arena_size, rfl__file_write, f);
    if (fclose(f) != 0 && r == RFL_OK) r = RFL_ERR_IO;
    return r;
}
#endif
#endif /* RFL_HAS_PNG */
#endif
