/* tool.h - what the rfl-* tools share: exit codes, error lines, a JSON
   writer and number formatting for tables. Tools only; the library itself
   never prints. Include after roofline.h (with the implementation). */
#ifndef RFL_TOOL_H
#define RFL_TOOL_H
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h> /* mkdir */

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wunused-function" /* each tool uses a subset */
#endif

enum { TL_OK = 0, TL_BAD_INPUT = 1, TL_BAD_USAGE = 2 };

static const char *tl_prog = "rfl";

/* Bad usage: one line, a hint, exit 2. */
static void tl_usage_error(const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "%s: ", tl_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s --help'.\n", tl_prog);
    exit(TL_BAD_USAGE);
}

/* A parser's error (its rfl_error) on bad input: "prog: " and the line
   rfl_error_format writes ("FILE:LINE:COL: where: message"), exit 1. */
static void tl_error(const char *file, const rfl_error *e) {
    size_t n = rfl_error_format(e, file, 0, 0) + 1; /* a long path: never cut */
    char *line = (char *)malloc(n);
    if (line) rfl_error_format(e, file, line, n);
    fprintf(stderr, "%s: %s\n", tl_prog, line ? line : rfl_result_str(e->code));
    exit(TL_BAD_INPUT);
}

/* The tool's own message on bad input: "prog: FILE:LINE:COL: message",
   exit 1 (line/col 0 = none). The place comes from rfl_error_format too. */
static void tl_input_error(const char *file, long line, long col, const char *fmt, ...) {
    rfl_error at;
    char *place;
    size_t n;
    va_list ap;
    memset(&at, 0, sizeof at); /* code RFL_OK, no message: the place alone */
    at.line = line > 0 ? (uint64_t)line : 0;
    at.col = col > 0 ? (uint64_t)col : 0;
    n = rfl_error_format(&at, file, 0, 0) + 1;
    if ((place = (char *)malloc(n)) != 0) rfl_error_format(&at, file, place, n);
    fprintf(stderr, "%s: %s", tl_prog, place ? place : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(TL_BAD_INPUT);
}

/* Unknown machine: the error names the closest ones. */
static const rfl_machine *tl_find_hw(const char *name) {
    const rfl_machine *m;
    char sug[256];
    if (rfl_hw_find(name, &m) == RFL_OK) return m;
    rfl_hw_suggest(name, 4, sug, sizeof sug);
    tl_input_error(0, 0, 0, "unknown machine '%s'; closest: %s (rfl-hw lists all)", name, sug);
    return 0;
}

static int tl_is(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* ---- memory and files (tools may allocate; the library never does) ------ */
static void *tl_xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) tl_input_error(0, 0, 0, "out of memory (%lu bytes)", (unsigned long)n);
    return p;
}

static int tl_file_exists(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f) fclose(f);
    return f != 0;
}

/* The whole of a text file ("-": standard input) in one malloc'd buffer,
   with a NUL after its *len bytes, read by rfl_file_read with the cap
   given (RFL_CAP_*): a regular file gets a buffer of its size, a stream
   one of the cap (at most 64 MiB). Exits 1 naming the file and what is
   wrong: a directory, binary, larger than the cap. */
static char *tl_read_file(const char *path, size_t cap, size_t *len) {
    struct stat sb;
    size_t size = cap < ((size_t)64 << 20) ? cap : ((size_t)64 << 20);
    const char *why = "";
    char *buf;
    rfl_result r;
    if (strcmp(path, "-") && stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
        size = (unsigned long long)sb.st_size + 2 < (unsigned long long)cap
                   ? (size_t)sb.st_size + 2 /* one byte more shows a file that grew */
                   : cap;
    buf = (char *)tl_xmalloc(size + 1);
    r = rfl_file_read(path, buf, size + 1, 1, len, &why);
    if (r == RFL_ERR_IO && tl_is(why, "cannot be opened"))
        tl_input_error(path, 0, 0, "cannot open: %s", strerror(errno));
    if (r == RFL_ERR_BUFFER && size < cap)
        tl_input_error(path, 0, 0, "more than %lu MiB from a stream: give it as a file",
                       (unsigned long)(size >> 20));
    if (r == RFL_ERR_BUFFER)
        tl_input_error(path, 0, 0, "larger than %lu KiB, the cap for this input: not the file "
                       "meant here?", (unsigned long)(cap >> 10));
    if (r == RFL_ERR_FORMAT)
        tl_input_error(path, 0, 0, "byte %lu: binary (a NUL byte), not a text file", (unsigned long)*len);
    if (r != RFL_OK) tl_input_error(path, 0, 0, "%s", why);
    return buf;
}

/* ---- numbers for humans -------------------------------------------------- */
/* SI-prefixed number with unit: "19.5 TFLOP/s". Rotating buffers so that a
   printf can take several. */
static const char *tl_si(double v, const char *unit) {
    static char bufs[8][48];
    static int k;
    char *b = bufs[k++ & 7];
    size_t n = rfl_fmt_si(b, 32, v, 4);
    snprintf(b + n, 48 - n, "%s", unit);
    return b;
}
static const char *tl_num(double v, int sig) {
    static char bufs[8][40];
    static int k;
    char *b = bufs[k++ & 7];
    rfl_fmt_num(b, 40, v, sig);
    return b;
}
/* 1234567 -> "1,234,567" */
static const char *tl_commas(double v) {
    static char bufs[8][40];
    static int k;
    char *b = bufs[k++ & 7], t[32];
    size_t n = rfl_fmt_num(t, sizeof t, v, 17), i, j = 0, start = (t[0] == '-');
    size_t intlen = n;
    for (i = 0; i < n; i++) if (t[i] == '.' || t[i] == 'e') { intlen = i; break; }
    for (i = 0; i < n && j + 2 < 40; i++) {
        if (i > start && i < intlen && (intlen - i) % 3 == 0) b[j++] = ',';
        b[j++] = t[i];
    }
    b[j] = 0;
    return b;
}

/* ---- a small JSON writer ---------------------------------------------------
   Keys in insertion order, two-space indent, numbers through rfl_fmt_num so
   that output is identical on every architecture. */
typedef struct tl_json {
    FILE *f;
    int depth;
    int count[64]; /* members written at each depth */
} tl_json;

static void tl_j_sep(tl_json *j, const char *key) {
    int i;
    if (j->depth > 0) {
        if (j->count[j->depth]++) fputc(',', j->f);
        fputc('\n', j->f);
        for (i = 0; i < j->depth; i++) fputs("  ", j->f);
    }
    if (key) {
        fputc('"', j->f);
        fputs(key, j->f);
        fputs("\": ", j->f);
    }
}
static void tl_j_open(tl_json *j, const char *key, char c) {
    tl_j_sep(j, key);
    fputc(c, j->f);
    if (j->depth < 63) j->count[++j->depth] = 0;
}
static void tl_jobj(tl_json *j, const char *key) { tl_j_open(j, key, '{'); }
static void tl_jarr(tl_json *j, const char *key) { tl_j_open(j, key, '['); }
static void tl_jend(tl_json *j, char c) {
    int i, had = j->count[j->depth];
    j->depth--;
    if (had) {
        fputc('\n', j->f);
        for (i = 0; i < j->depth; i++) fputs("  ", j->f);
    }
    fputc(c, j->f);
    if (j->depth == 0) fputc('\n', j->f);
}
static void tl_jclose(tl_json *j) { tl_jend(j, '}'); }
static void tl_jclose_arr(tl_json *j) { tl_jend(j, ']'); }
static void tl_jnull(tl_json *j, const char *key) { tl_j_sep(j, key); fputs("null", j->f); }
/* A number, or null when not finite (unknown). */
static void tl_jnum(tl_json *j, const char *key, double v) {
    char b[40];
    tl_j_sep(j, key);
    if (v != v || v - v != 0.0) { fputs("null", j->f); return; }
    rfl_fmt_num(b, sizeof b, v, 15);
    fputs(b, j->f);
}
/* A number when known is true, else null. */
static void tl_jnum_if(tl_json *j, const char *key, int known, double v) {
    if (known) tl_jnum(j, key, v);
    else tl_jnull(j, key);
}
static void tl_jbool(tl_json *j, const char *key, int v) {
    tl_j_sep(j, key);
    fputs(v ? "true" : "false", j->f);
}
static void tl_jstr(tl_json *j, const char *key, const char *s) {
    tl_j_sep(j, key);
    if (!s) { fputs("null", j->f); return; }
    fputc('"', j->f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') { fputc('\\', j->f); fputc(c, j->f); }
        else if (c == '\n') fputs("\\n", j->f);
        else if (c == '\t') fputs("\\t", j->f);
        else if (c < 0x20) fprintf(j->f, "\\u%04x", c);
        else fputc(c, j->f);
    }
    fputc('"', j->f);
}

/* mkdir -p: dir and every folder above it (exit 1 when one cannot be made). */
static void tl_make_dir(const char *dir) {
    char p[512];
    size_t i, n = strlen(dir);
    if (n >= sizeof p) tl_usage_error("-o: path too long");
    memcpy(p, dir, n + 1);
    for (i = 1; i <= n; i++) {
        if (p[i] == '/' || p[i] == 0) {
            char c = p[i];
            p[i] = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST)
                tl_input_error(p, 0, 0, "cannot create the output directory: %s", strerror(errno));
            p[i] = c;
        }
    }
}

#ifndef RFL_NO_CHART
/* A white RGB canvas of w x h over pixels kept for the next call (grown
   when a larger one is asked for). */
static void tl_canvas(rfl_canvas *cv, int w, int h) {
    static unsigned char *px;
    static size_t pxn;
    size_t need = RFL_CANVAS_BYTES(w, h, 3);
    if (need > pxn) {
        free(px);
        px = (unsigned char *)tl_xmalloc(need);
        pxn = need;
    }
    rfl_canvas_init(cv, px, need, w, h, 3, 0);
    rfl_canvas_clear(cv, RFL_RGB(255, 255, 255));
}

/* A roofline of n machines (measured: their measured ceilings, or NULL)
   with npts points under the roofs of prec; every other option 0, the
   default. */
static void tl_roofline_desc(rfl_roofline_desc *d, const char *title,
                             const rfl_machine *const *machines,
                             const rfl_machine *const *measured, int n,
                             const rfl_point *pts, int npts, rfl_prec prec) {
    memset(d, 0, sizeof *d);
    d->title = title;
    d->machines = machines;
    d->measured = measured;
    d->n_machines = n;
    d->points = pts;
    d->n_points = npts;
    d->prec = prec;
}

#if defined(RFL_HAS_PNG) && !defined(RFL_NO_STDIO) /* rfl_png_save writes a file */
/* The canvas as a PNG file (exit 1 when it cannot be written); the
   encoder's arena is kept for the next call. */
static void tl_png_save(const rfl_canvas *cv, const char *path) {
    static unsigned char *arena;
    static size_t arena_n;
    size_t need = rfl_png_arena_size(cv->width, cv->height, 3);
    rfl_result r;
    if (need > arena_n) {
        free(arena);
        arena = (unsigned char *)tl_xmalloc(need);
        arena_n = need;
    }
    r = rfl_png_save(cv, path, arena, arena_n);
    if (r != RFL_OK) tl_input_error(path, 0, 0, "cannot write the PNG: %s", rfl_result_str(r));
}
#endif
#endif /* RFL_NO_CHART */

#include "machine_file.h" /* --hw-file: machine files */
#endif
