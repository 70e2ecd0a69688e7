/* json_read.h - a tiny JSON reader for the rfl-* tools: the whole document
   into a caller array of tokens (no allocation), then lookups by key.
   Tools only; include after roofline.h (numbers go through rfl_parse_num). */
#ifndef RFL_JSON_READ_H
#define RFL_JSON_READ_H
#include <string.h>

typedef enum jr_type { JR_OBJ, JR_ARR, JR_STR, JR_NUM, JR_TRUE, JR_FALSE, JR_NULL } jr_type;

typedef struct jr_tok {
    jr_type type;
    size_t start, end; /* bytes of the value (strings: inside the quotes) */
    int after;         /* index of the first token after this subtree */
} jr_tok;

typedef struct jr_doc {
    const char *src;
    size_t len, pos;
    jr_tok *t;
    int n, cap, depth;
    const char *err; /* NULL when fine */
    long line, col;  /* of the error */
} jr_doc;

static void jr__ws(jr_doc *d) {
    while (d->pos < d->len && (d->src[d->pos] == ' ' || d->src[d->pos] == '\t' ||
                               d->src[d->pos] == '\n' || d->src[d->pos] == '\r'))
        d->pos++;
}

static int jr__fail(jr_doc *d, const char *msg) {
    size_t i;
    if (d->err) return -1;
    d->err = msg;
    d->line = 1;
    d->col = 1;
    for (i = 0; i < d->pos && i < d->len; i++) {
        if (d->src[i] == '\n') { d->line++; d->col = 1; }
        else d->col++;
    }
    return -1;
}

static int jr__value(jr_doc *d);

static int jr__new(jr_doc *d, jr_type type, size_t start) {
    if (d->n >= d->cap) return jr__fail(d, "document too large for the token table");
    d->t[d->n].type = type;
    d->t[d->n].start = start;
    d->t[d->n].end = start;
    d->t[d->n].after = d->n + 1;
    return d->n++;
}

static int jr__string(jr_doc *d) {
    int k;
    size_t start = ++d->pos;
    while (d->pos < d->len && d->src[d->pos] != '"') {
        if ((unsigned char)d->src[d->pos] < 0x20) return jr__fail(d, "control character in a string");
        if (d->src[d->pos] == '\\') d->pos++;
        d->pos++;
    }
    if (d->pos >= d->len) return jr__fail(d, "unterminated string");
    k = jr__new(d, JR_STR, start);
    if (k < 0) return -1;
    d->t[k].end = d->pos++;
    return k;
}

static int jr__value(jr_doc *d) {
    int k;
    char c;
    jr__ws(d);
    if (d->pos >= d->len) return jr__fail(d, "unexpected end of input");
    c = d->src[d->pos];
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        if (++d->depth > 64) return jr__fail(d, "nesting deeper than 64");
        k = jr__new(d, c == '{' ? JR_OBJ : JR_ARR, d->pos);
        if (k < 0) return -1;
        d->pos++;
        jr__ws(d);
        if (d->pos < d->len && d->src[d->pos] == close) {
            d->pos++;
        } else {
            for (;;) {
                jr__ws(d);
                if (c == '{') {
                    if (d->pos >= d->len || d->src[d->pos] != '"') return jr__fail(d, "expected a key string");
                    if (jr__string(d) < 0) return -1;
                    jr__ws(d);
                    if (d->pos >= d->len || d->src[d->pos] != ':') return jr__fail(d, "expected ':'");
                    d->pos++;
                }
                if (jr__value(d) < 0) return -1;
                jr__ws(d);
                if (d->pos < d->len && d->src[d->pos] == ',') { d->pos++; continue; }
                if (d->pos < d->len && d->src[d->pos] == close) { d->pos++; break; }
                return jr__fail(d, c == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
            }
        }
        d->depth--;
        d->t[k].end = d->pos;
        d->t[k].after = d->n;
        return k;
    }
    if (c == '"') return jr__string(d);
    {
        size_t start = d->pos;
        jr_type type = JR_NUM;
        while (d->pos < d->len && strchr("+-.0123456789eEtruefalsn", d->src[d->pos])) d->pos++;
        if (d->pos == start) return jr__fail(d, "unexpected character");
        if (d->pos - start == 4 && !memcmp(d->src + start, "true", 4)) type = JR_TRUE;
        else if (d->pos - start == 5 && !memcmp(d->src + start, "false", 5)) type = JR_FALSE;
        else if (d->pos - start == 4 && !memcmp(d->src + start, "null", 4)) type = JR_NULL;
        else {
            double v;
            if (rfl_parse_num(d->src + start, d->pos - start, &v) != RFL_OK) {
                d->pos = start;
                return jr__fail(d, "invalid number or literal");
            }
        }
        k = jr__new(d, type, start);
        if (k < 0) return -1;
        d->t[k].end = d->pos;
        return k;
    }
}

/* Parse src[0..len) into toks (cap of them). Returns 0, or -1 with d->err,
   d->line and d->col set. */
static int jr_parse(jr_doc *d, const char *src, size_t len, jr_tok *toks, int cap) {
    memset(d, 0, sizeof *d);
    d->src = src;
    d->len = len;
    d->t = toks;
    d->cap = cap;
    if (jr__value(d) < 0) return -1;
    jr__ws(d);
    if (d->pos != d->len) return jr__fail(d, "trailing characters after the document");
    return 0;
}

/* Value token of `key` in object token obj, or -1. */
static int jr_get(const jr_doc *d, int obj, const char *key) {
    int i;
    size_t kl = strlen(key);
    if (obj < 0 || obj >= d->n || d->t[obj].type != JR_OBJ) return -1;
    for (i = obj + 1; i < d->t[obj].after; i = d->t[i + 1].after) {
        const jr_tok *k = &d->t[i];
        if (k->end - k->start == kl && !memcmp(d->src + k->start, key, kl)) return i + 1;
    }
    return -1;
}

/* Number of token tok: 1 when it is a number (stored in *out), else 0. */
static int jr_num(const jr_doc *d, int tok, double *out) {
    if (tok < 0 || d->t[tok].type != JR_NUM) return 0;
    return rfl_parse_num(d->src + d->t[tok].start, d->t[tok].end - d->t[tok].start, out) == RFL_OK;
}

/* String of token tok into buf (escapes \" \\ \/ \n \t kept simple; others
   copied). 1 when tok is a string. */
static int jr_str(const jr_doc *d, int tok, char *buf, size_t size) {
    size_t i, n = 0;
    if (!size) return 0;
    buf[0] = 0;
    if (tok < 0 || d->t[tok].type != JR_STR) return 0;
    for (i = d->t[tok].start; i < d->t[tok].end && n + 1 < size; i++) {
        char c = d->src[i];
        if (c == '\\' && i + 1 < d->t[tok].end) {
            c = d->src[++i];
            if (c == 'n') c = ' ';
            else if (c == 't') c = ' ';
        }
        buf[n++] = c;
    }
    buf[n] = 0;
    return 1;
}

/* Value at a dotted path of object keys ("forward.flops"), or -1. */
static int jr_path(const jr_doc *d, int obj, const char *path) {
    char key[64];
    while (*path && obj >= 0) {
        size_t n = 0;
        while (*path && *path != '.' && n + 1 < sizeof key) key[n++] = *path++;
        key[n] = 0;
        if (*path == '.') path++;
        obj = jr_get(d, obj, key);
    }
    return obj;
}

/* Line of the token's first byte (for error messages). */
static long jr_line(const jr_doc *d, int tok) {
    long line = 1;
    size_t i;
    if (tok < 0) return 0;
    for (i = 0; i < d->t[tok].start && i < d->len; i++) line += d->src[i] == '\n';
    return line;
}
#endif
