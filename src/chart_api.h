/* ---- chart part: API ------------------------------------------------------
   A raster chart writer over caller pixels: a canvas with anti-aliased
   drawing and a built-in bitmap font, log/linear axes, roofline, bar and
   scatter charts, an 80x24 text rendering of a roofline, and PNG output
   through stb_image_write (Debian libstb-dev) with its allocations routed
   into a caller arena. Nothing here allocates.
   Compile out with RFL_NO_CHART (everything) or RFL_NO_PNG (PNG only). */
#ifndef RFL_NO_CHART

/* PNG is available when stb_image_write.h can be found and RFL_NO_PNG is
   not defined. Test RFL_HAS_PNG before calling rfl_png_*. */
#if !defined(RFL_NO_PNG) && !defined(RFL_HAS_PNG)
#if defined(__has_include)
#if __has_include(<stb/stb_image_write.h>)
#define RFL_HAS_PNG 1
#define RFL__STB_PATH <stb/stb_image_write.h>
#endif
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- colours -------------------------------------------------------------
   0xAARRGGBB; alpha 0xFF is opaque. In option structs a colour of 0 means
   "default" (a fully transparent black is never useful there). */
typedef uint32_t rfl_color;
#define RFL_RGB(r, g, b) \
    ((rfl_color)0xFF000000u | ((rfl_color)(r) << 16) | ((rfl_color)(g) << 8) | (rfl_color)(b))
#define RFL_RGBA(r, g, b, a)                                                   \
    (((rfl_color)(a) << 24) | ((rfl_color)(r) << 16) | ((rfl_color)(g) << 8) | \
     (rfl_color)(b))

/* ---- canvas ---------------------------------------------------------------
   Pixels are the caller's: channels 3 (RGB) or 4 (RGBA, straight alpha),
   rows stride_bytes apart, top row first. Every drawing call clips to the
   clip rectangle (initially the whole canvas) and never writes outside the
   buffer, whatever the coordinates (NaN, infinities, huge values are
   skipped or clamped). Coordinates are in pixels, y down, pixel centres at
   x + 0.5. A canvas of width or height 0 is valid and draws nothing. */
typedef struct rfl_canvas {
    unsigned char *pixels;
    int width, height;
    int channels;      /* 3 or 4 */
    int stride_bytes;  /* bytes from one row to the next */
    int clip_x0, clip_y0, clip_x1, clip_y1; /* drawing limited to
                                               [x0,x1) x [y0,y1) */
} rfl_canvas;

/* Bytes a canvas of w x h pixels with `channels` needs (tight rows). The
   charts also use up to about 3.5 KB of stack (Cortex-M4, -Os; no frame
   over 1 KiB: tools/size-report.sh). */
#define RFL_CANVAS_BYTES(w, h, channels) ((size_t)(w) * (size_t)(h) * (size_t)(channels))
#define RFL_CANVAS_MAX_SIDE 32768

/* Set up a canvas over caller memory.
   in:  pixels (may be NULL only when w or h is 0), size_bytes of it,
        w, h (0..RFL_CANVAS_MAX_SIDE), channels (0 = 3 = RGB, or 4 = RGBA),
        stride_bytes (0 = w x channels; else >= w x channels).
   out: *c. Pixels are not cleared (see rfl_canvas_clear).
   Returns RFL_ERR_ARG for negative or oversized sides, a bad channel
   count or stride; RFL_ERR_BUFFER when size_bytes is less than
   stride_bytes x (h - 1) + w x channels. */
RFL_API rfl_result rfl_canvas_init(rfl_canvas *c, void *pixels, size_t size_bytes,
                                   int w, int h, int channels, int stride_bytes);
/* Restrict drawing to [x0,x1) x [y0,y1), intersected with the canvas.
   rfl_canvas_unclip restores the whole canvas. */
RFL_API void rfl_canvas_clip(rfl_canvas *c, int x0, int y0, int x1, int y1);
RFL_API void rfl_canvas_unclip(rfl_canvas *c);
/* Fill the clip rectangle with a colour (alpha written as is on RGBA). */
RFL_API void rfl_canvas_clear(rfl_canvas *c, rfl_color color);

/* ---- primitives (anti-aliased, alpha-blended) ------------------------------ */
/* A straight segment of any width (pixels; below 0.1 treated as 0.1, above
   1000 as 1000) with round ends. */
RFL_API void rfl_draw_line(rfl_canvas *c, double x0, double y0, double x1, double y1,
                           double width, rfl_color color);
/* A dashed segment: dashes of `on` pixels separated by `off` pixels
   (a pattern shorter than 2 px, or on/off <= 0, draws a solid line). */
RFL_API void rfl_draw_dashed(rfl_canvas *c, double x0, double y0, double x1, double y1,
                             double width, double on, double off, rfl_color color);
/* Connected segments through n points xy[2i], xy[2i+1]; non-finite points
   break the line. dash_on <= 0: solid. */
RFL_API void rfl_draw_polyline(rfl_canvas *c, const double *xy, int n, double width,
                               double dash_on, double dash_off, rfl_color color);
/* Rectangles with corner (x, y) and size w x h (negative sizes are empty). */
RFL_API void rfl_fill_rect(rfl_canvas *c, double x, double y, double w, double h,
                           rfl_color color);
RFL_API void rfl_draw_rect(rfl_canvas *c, double x, double y, double w, double h,
                           double width, rfl_color color);
RFL_API void rfl_fill_circle(rfl_canvas *c, double cx, double cy, double r, rfl_color color);
RFL_API void rfl_draw_circle(rfl_canvas *c, double cx, double cy, double r, double width,
                             rfl_color color);
/* A filled polygon (non-zero winding) through n points, anti-aliased, with
   the colour's alpha. At most RFL_POLY_MAX points (more, or xy NULL:
   RFL_ERR_ARG); a NaN or infinite vertex: RFL_ERR_NOT_FINITE, nothing
   drawn. Vertices beyond +-1e7 are clamped. */
#define RFL_POLY_MAX 256
RFL_API rfl_result rfl_fill_polygon(rfl_canvas *c, const double *xy, int n, rfl_color color);

/* Markers: a point's shape. 0 = automatic (by series). */
typedef enum rfl_marker {
    RFL_MARKER_AUTO = 0,
    RFL_MARKER_CIRCLE,
    RFL_MARKER_SQUARE,
    RFL_MARKER_TRIANGLE,
    RFL_MARKER_DIAMOND,
    RFL_MARKER_CROSS,
    RFL_MARKER_PLUS,
    RFL_MARKER_TRIANGLE_DOWN,
    RFL_MARKER_COUNT
} rfl_marker;
/* A marker centred at (cx, cy), `size` pixels across; hollow != 0 draws an
   outline with a white centre (used for estimates). */
RFL_API void rfl_draw_marker(rfl_canvas *c, rfl_marker m, double cx, double cy, double size,
                             int hollow, rfl_color color);

/* ---- text -----------------------------------------------------------------
   The library's own bitmap font (printable ASCII 32..126; other bytes draw
   as '?'): glyphs 5 x 9 pixels in a 6 x 11 cell at scale 1, drawn at integer
   scales 1..8 with smoothed diagonals from scale 2 up. */
enum {
    RFL_TEXT_LEFT = 0, RFL_TEXT_CENTER = 1, RFL_TEXT_RIGHT = 2,   /* horizontal */
    RFL_TEXT_TOP = 0, RFL_TEXT_MIDDLE = 4, RFL_TEXT_BOTTOM = 8,   /* vertical */
    RFL_TEXT_UP = 16  /* rotated 90 degrees counter-clockwise (reads upward);
                         alignment then applies to the rotated box */
};
#define RFL_FONT_W 6  /* advance per character at scale 1 */
#define RFL_FONT_H 11 /* line height at scale 1 */
/* Width in pixels of the first `len` bytes of text (len < 0: up to NUL) at
   `scale` (clamped to 1..8). */
RFL_API int rfl_text_width(const char *text, int len, int scale);
/* Draw text anchored at (x, y) by `flags` (RFL_TEXT_*). A caret followed by
   digits or a minus ("10^-3") draws the exponent raised and smaller.
   Returns the width drawn (along the text direction). NULL text draws
   nothing. */
RFL_API int rfl_draw_text(rfl_canvas *c, double x, double y, const char *text, int scale,
                          int flags, rfl_color color);

/* ---- axes and charts ------------------------------------------------------- */
typedef enum rfl_scale {
    RFL_SCALE_AUTO = 0, /* log when positive data spans more than ~2 decades */
    RFL_SCALE_LINEAR,
    RFL_SCALE_LOG
} rfl_scale;

/* Tick label style. */
typedef enum rfl_ticks {
    RFL_TICKS_AUTO = 0, /* plain numbers in 0.001..99999, else 10^k / SI */
    RFL_TICKS_PLAIN,    /* 0.1, 1, 10, 100 */
    RFL_TICKS_POW10,    /* 10^3 with a raised exponent (log axes) */
    RFL_TICKS_SI        /* 1 k, 10 M, 1 T */
} rfl_ticks;

/* Where the legend goes. AUTO: the plot corner that hides the least data. */
typedef enum rfl_legend {
    RFL_LEGEND_AUTO = 0,
    RFL_LEGEND_NONE,
    RFL_LEGEND_TOP_LEFT,
    RFL_LEGEND_TOP_RIGHT,
    RFL_LEGEND_BOTTOM_LEFT,
    RFL_LEGEND_BOTTOM_RIGHT
} rfl_legend;

/* Where a chart put a plot (out): the plot rectangle in pixels and its
   ranges. A value v maps to px = x0 + t (x1 - x0), py = y1 - u (y1 - y0),
   with t = (log10 v - log10 x_min) / (log10 x_max - log10 x_min) on a log
   axis and (v - x_min) / (x_max - x_min) on a linear one (u likewise). */
typedef struct rfl_chart_area {
    double x0, y0, x1, y1;
    double x_min, x_max, y_min, y_max;
    int x_log, y_log;
} rfl_chart_area;

/* A point on a roofline chart: a model, a layer or a kernel. */
typedef struct rfl_point {
    const char *label;     /* legend entry; points with the same label share
                              one entry, colour and marker (e.g. all kernels
                              of one profile). NULL/"" = not in the legend */
    double ai;             /* arithmetic intensity, FLOP/byte (x) */
    double flops_per_s;    /* achieved (or predicted) FLOP/s (y) */
    rfl_prec prec;         /* precision of the work: its roof is drawn and the
                              point is checked against it */
    int machine;           /* panel index into the machines (0 = first);
                              RFL_ALL_MACHINES: every panel */
    int estimate;          /* nonzero: an estimate (hollow marker) rather than
                              a measurement (filled) */
    int link;              /* nonzero: joined by a thin line to the other
                              points with the same link id (an estimate and a
                              measurement of one model) */
    double weight;         /* marker area weight, e.g. share of time 0..1;
                              0 = the standard size */
    rfl_marker marker;     /* 0 = by label */
    rfl_color color;       /* 0 = by label (a colour-blind-safe palette) */
} rfl_point;
#define RFL_ALL_MACHINES (-1)

/* A roofline chart: one panel per machine, side by side. */
typedef struct rfl_roofline_desc {
    const char *title;                    /* NULL = "Roofline" */
    const rfl_machine *const *machines;   /* one panel each (1..8) */
    int n_machines;
    const rfl_point *points;
    int n_points;
    rfl_prec prec;        /* the roof drawn when no point is on a panel
                             (default RFL_FP32); otherwise one roof per
                             precision of the points on the panel */
    unsigned extra_precs; /* bits (1u << rfl_prec): lighter extra compute
                             ceilings (FP64, tensor, ...) where the machine
                             has them, each labelled with its value */
    unsigned extra_levels;/* bits (1u << rfl_level): lighter extra bandwidth
                             ceilings (L2, L1) where known */
    rfl_level level;      /* bandwidth of the main roof (default DRAM) */
    double x_min, x_max;  /* AI range; 0 = from the data and roofs */
    double y_min, y_max;  /* FLOP/s range; 0 = from the data and roofs */
    rfl_ticks x_ticks, y_ticks; /* default: plain AI, SI FLOP/s */
    rfl_legend legend;
    int font_scale;       /* 0 = from the canvas size */
    int columns;          /* panels per row; 0 = all in one row when the
                             canvas is wider than tall, else one column */
    rfl_chart_area *areas;/* optional out: n_machines entries */
} rfl_roofline_desc;

/* Draw a roofline chart filling the canvas (cleared to white first).
   Roof per machine and precision: the one polyline min(peak, AI x BW),
   the ridge marked and labelled, extra ceilings lighter and labelled,
   points with markers and a legend; a point above its roof gets a warning
   mark and a legend entry "above roof: check units".
   Returns RFL_ERR_ARG for NULL or no machines; RFL_ERR_NO_ROOF when a
   machine lacks the roof of a point's precision or of desc->prec (the
   rest is still drawn). A canvas too small for axes draws what fits. */
RFL_API rfl_result rfl_chart_roofline(rfl_canvas *c, const rfl_roofline_desc *d);

/* The same roofline as text: `rows` lines of `cols` characters, each ended
   by '\n', then a NUL; buf needs RFL_ASCII_BYTES(cols, rows) bytes (size
   too small: RFL_ERR_BUFFER). cols/rows 0 = 80 x 24; minimum 20 x 8.
   Only the first machine is drawn (rfl-plot --ascii draws one per
   machine). Roof '/' and '_', ridge '+', points by letter (A, B, ...; '!'
   above the roof) with a key under the plot. RFL_ERR_NO_ROOF as for
   rfl_chart_roofline (the chart is still written). */
#define RFL_ASCII_BYTES(cols, rows) ((size_t)((cols) + 1) * (size_t)(rows) + 1u)
RFL_API rfl_result rfl_chart_roofline_ascii(char *buf, size_t size, int cols, int rows,
                                            const rfl_roofline_desc *d);

/* Bar chart: categories (models, layer types) x series (e.g. forward and
   backward, or FLOPs per model on two machines). */
typedef enum rfl_orient {
    RFL_ORIENT_AUTO = 0, /* horizontal when category labels are long */
    RFL_ORIENT_VERTICAL,
    RFL_ORIENT_HORIZONTAL
} rfl_orient;
typedef struct rfl_bar_desc {
    const char *title;
    const char *value_title;    /* value axis title with unit, e.g.
                                   "Forward FLOPs (FLOP)" */
    const char *category_title; /* optional */
    const char *const *categories;
    int n_categories;
    const char *const *series;  /* legend names; NULL with one series */
    int n_series;               /* 0 = 1 */
    const double *values;       /* [category][series], n_categories x
                                   n_series; non-finite or negative = none */
    int stacked;                /* 0 grouped, nonzero stacked */
    rfl_orient orient;
    rfl_scale scale;            /* AUTO: linear for stacked, log when grouped
                                   values span > 2.5 decades */
    rfl_ticks ticks;            /* default SI */
    const rfl_color *colors;    /* per series; NULL = palette */
    rfl_legend legend;
    int font_scale;             /* 0 = from the canvas size */
    int value_labels;           /* nonzero: print each bar's value (SI) */
    rfl_chart_area *area;       /* optional out (x = categories 0..n) */
} rfl_bar_desc;
/* Draw a bar chart filling the canvas (cleared to white first): value axis
   from 0 (linear) or decades (log), 1-2-5 or decade ticks, a legend with
   one swatch per series when there are several. In: c, d. Out: pixels,
   d->area. Returns RFL_ERR_ARG for NULL d or inconsistent counts; a
   canvas too small for a plot draws only what fits. See rfl_bar_desc. */
RFL_API rfl_result rfl_chart_bars(rfl_canvas *c, const rfl_bar_desc *d);

/* Scatter chart (latency against FLOPs, ...). */
typedef struct rfl_xy {
    const char *label;  /* legend entry, shared as for rfl_point */
    double x, y;
    int link;           /* joins points with the same nonzero id */
    double weight;      /* marker area weight; 0 = standard */
    rfl_marker marker;
    rfl_color color;
    int hollow;
} rfl_xy;
typedef struct rfl_scatter_desc {
    const char *title;
    const char *x_title, *y_title; /* with units: "Forward FLOPs (FLOP)" */
    const rfl_xy *points;
    int n_points;
    rfl_scale x_scale, y_scale;
    rfl_ticks x_ticks, y_ticks;
    double x_min, x_max, y_min, y_max; /* 0 = from the data */
    rfl_legend legend;
    int font_scale;
    int point_labels;   /* nonzero: write each label beside its point */
    rfl_chart_area *area; /* optional out */
} rfl_scatter_desc;
/* Draw a scatter chart filling the canvas (cleared to white first):
   points that a log axis cannot show (<= 0, NaN) are skipped; each label
   gets a colour and marker; with point_labels the labels go beside the
   points (where they cover nothing), else in a legend. Returns
   RFL_ERR_ARG for NULL d or a bad count. See rfl_scatter_desc. */
RFL_API rfl_result rfl_chart_scatter(rfl_canvas *c, const rfl_scatter_desc *d);

/* ---- PNG (stb_image_write, optional) ---------------------------------------
   stb_image_write allocates inside its encoder; here every allocation comes
   from `arena`, a caller buffer used as a bump allocator, so nothing is
   allocated outside caller memory. While encoding, a static pointer holds
   the arena (stb's allocation macros take no context): the PNG functions
   are not re-entrant; do not call them from two threads at once.
   Output is deterministic: the same pixels give the same bytes. */
#ifdef RFL_HAS_PNG
/* Arena bytes for encoding a w x h canvas of `channels`. With F the
   filtered image size (w x channels + 1) x h, the encoder holds F, a 32 KiB
   hash table, the compressed stream and the PNG file at once:
   RFL_PNG_ARENA_BYTES always suffices, even for noise (3.25 F + 140 kB);
   RFL_PNG_ARENA_CHART suffices for charts, which compress 25-50x
   (measured: a 1600x1000 RGB chart needs 5.31 MB = 1.11 F; 1200x800
   needs 1.06 F; 320x200 needs 1.31 F). Too small an arena is
   RFL_ERR_BUFFER, never a crash. rfl_png_arena_size returns
   RFL_PNG_ARENA_BYTES. */
#define RFL__PNG_F(w, h, ch) (((size_t)(w) * (size_t)(ch) + 1u) * (size_t)(h))
#define RFL_PNG_ARENA_BYTES(w, h, channels) \
    (RFL__PNG_F(w, h, channels) * 13u / 4u + (size_t)140000u)
#define RFL_PNG_ARENA_CHART(w, h, channels) \
    (RFL__PNG_F(w, h, channels) * 9u / 8u + (size_t)262144u)
RFL_API size_t rfl_png_arena_size(int w, int h, int channels);
/* Receives the whole PNG file in one or more calls; return nonzero to fail
   (then RFL_ERR_IO). */
typedef int (*rfl_write_fn)(void *user, const void *data, size_t len);
/* Encode the canvas as PNG and hand the bytes to `write`.
   Returns RFL_ERR_ARG (NULL, empty canvas), RFL_ERR_BUFFER (arena too
   small: nothing written), RFL_ERR_IO (write returned nonzero). */
RFL_API rfl_result rfl_png_write(const rfl_canvas *c, void *arena, size_t arena_size,
                                 rfl_write_fn write, void *user);
/* Encode into a caller buffer `out` of `size` bytes; *len gets the PNG size.
   RFL_ERR_BUFFER when either the arena or out is too small. */
RFL_API rfl_result rfl_png_encode(const rfl_canvas *c, void *arena, size_t arena_size,
                                  void *out, size_t size, size_t *len);
#ifndef RFL_NO_STDIO
/* Write the canvas to a PNG file. RFL_ERR_IO when the file cannot be
   written. */
RFL_API rfl_result rfl_png_save(const rfl_canvas *c, const char *path, void *arena,
                                size_t arena_size);
#endif
#endif /* RFL_HAS_PNG */

#ifdef __cplusplus
}
#endif
#endif /* RFL_NO_CHART */
