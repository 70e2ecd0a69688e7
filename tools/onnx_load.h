/* onnx_load.h - the tools' side of the ONNX reader: the library reads
   (rfl_onnx_read_file, weight payloads seeked over; standard input with
   rfl_onnx_read_stream), the tool allocates the arena (sized by a first
   pass in count mode for a file) and the records; the graph built into
   layer records at a batch and symbolic dims. Tools only (malloc is fine
   here; roofline.h itself never allocates). Include after roofline.h and
   tool.h.

       tl_onnx ox;
       tl_onnx_init(&ox, "model.onnx");
       ox.batch = 8; tl_onnx_add_dim(&ox, "seq=128");
       tl_onnx_load(&ox);                  exits 1 with one line on bad input
       ... ox.net: the records, per sample at ox.info.batch ... */
#ifndef RFL_ONNX_LOAD_H
#define RFL_ONNX_LOAD_H
#include <errno.h>

#define TL_ONNX_CHUNK 65536
/* A pipe cannot be read twice, so there is no counting pass: the arena is
   this big (only the pages the graph touches become resident). */
#define TL_ONNX_PIPE_ARENA ((size_t)256 << 20)

typedef struct tl_onnx {
    const char *path;     /* as given; "-" is standard input */
    uint64_t batch;       /* --batch; 0: not given (the file's, or 1) */
    char dims[512];       /* --dim NAME=V, comma-joined for rfl_onnx_desc */
    int no_seek;          /* push every byte, as from a pipe (tests, bench) */
    /* after tl_onnx_load */
    rfl_onnx_graph g;
    rfl_onnx_info info;
    rfl_net net;          /* records in `layers`, names in `arena` */
    rfl_layer *layers;
    unsigned char *arena;
    size_t arena_size;    /* bytes allocated (st.need for a file) */
    uint64_t file_bytes;  /* stream length */
    uint64_t pushed;      /* bytes read and decoded (the rest was seeked over) */
} tl_onnx;

static void tl_onnx_init(tl_onnx *o, const char *path) {
    memset(o, 0, sizeof *o);
    o->path = path;
}

/* --dim NAME=V: NAME non-empty, V a whole number >= 1. Bad usage exits 2. */
static void tl_onnx_add_dim(tl_onnx *o, const char *nv) {
    const char *eq = nv ? strchr(nv, '=') : 0;
    char *end;
    unsigned long long v;
    size_t n;
    if (!eq || eq == nv || !eq[1]) tl_usage_error("--dim wants NAME=VALUE, not '%s'", nv ? nv : "");
    errno = 0;
    v = strtoull(eq + 1, &end, 10);
    if (eq[1] == '-' || *end || errno || v == 0)
        tl_usage_error("--dim %s: the value is not a whole number >= 1", nv);
    n = strlen(o->dims);
    if (n + strlen(nv) + 2 > sizeof o->dims) tl_usage_error("--dim: too many dims");
    snprintf(o->dims + n, sizeof o->dims - n, "%s%s", n ? "," : "", nv);
}

/* The error line of a failed read: "FILE: byte N: what". */
static void tl_onnx_read_error(const tl_onnx *o, const rfl_onnx_state *st, rfl_result r) {
    if (r == RFL_ERR_BUFFER)
        tl_input_error(o->path, 0, 0, "needs %llu bytes of graph arena (have %llu)%s",
                       (unsigned long long)st->need, (unsigned long long)o->arena_size,
                       o->no_seek || tl_is(o->path, "-") ? "; give the file, not a pipe" : "");
    if (r == RFL_ERR_IO && !strcmp(st->err.msg, "cannot open the file"))
        tl_input_error(o->path, 0, 0, "cannot open: %s", strerror(errno));
    {
        rfl_error e = st->err;
        if (!e.code) e.code = r;
        tl_error(o->path, &e);
    }
}

/* Read the graph with the library's reader: a file twice (count, then
   fill), a pipe once into an arena of TL_ONNX_PIPE_ARENA. */
static void tl_onnx_read(tl_onnx *o) {
    rfl_onnx_state st;
    rfl_result r;
    int pipe = o->no_seek || tl_is(o->path, "-");
    FILE *f = tl_is(o->path, "-") ? stdin : 0;
    struct stat sb;
    if (!tl_is(o->path, "-") && stat(o->path, &sb) == 0 && S_ISDIR(sb.st_mode))
        tl_input_error(o->path, 0, 0, "is a directory");
    if (!pipe) {
        r = rfl_onnx_read_file(&st, o->path, 0, 0, &o->g);
        if (r != RFL_OK) tl_onnx_read_error(o, &st, r);
        o->arena_size = st.need ? st.need : 1;
    } else
        o->arena_size = TL_ONNX_PIPE_ARENA;
    o->arena = (unsigned char *)malloc(o->arena_size);
    if (!o->arena) tl_input_error(o->path, 0, 0, "out of memory (%llu bytes of arena)",
                                  (unsigned long long)o->arena_size);
    if (pipe && !f && !(f = fopen(o->path, "rb")))
        tl_input_error(o->path, 0, 0, "cannot open: %s", strerror(errno));
    if (pipe && !tl_is(o->path, "-")) { /* --stream: every byte pushed, as from a pipe */
        static unsigned char buf[TL_ONNX_CHUNK];
        size_t n;
        rfl_onnx_init(&st, o->arena, o->arena_size);
        while ((n = fread(buf, 1, sizeof buf, f)) > 0 && rfl_onnx_push(&st, buf, n) == RFL_OK) {}
        r = st.err.code ? st.err.code : rfl_onnx_finish(&st, &o->g);
    } else if (pipe)
        r = rfl_onnx_read_stream(&st, f, o->arena, o->arena_size, &o->g);
    else
        r = rfl_onnx_read_file(&st, o->path, o->arena, o->arena_size, &o->g);
    if (f && f != stdin) fclose(f);
    o->file_bytes = st.offset;
    o->pushed = st.offset - st.seeked;
    if (r != RFL_OK) tl_onnx_read_error(o, &st, r);
}

/* Shapes and records at the batch and dims asked for. */
static void tl_onnx_build(tl_onnx *o) {
    rfl_onnx_desc d;
    rfl_result r;
    int cap = o->g.record_bound > 0 ? o->g.record_bound : 1;
    memset(&d, 0, sizeof d);
    d.batch = o->batch;
    d.dims = o->dims[0] ? o->dims : 0;
    o->layers = (rfl_layer *)malloc((size_t)cap * sizeof(rfl_layer));
    if (!o->layers) tl_input_error(o->path, 0, 0, "out of memory (%d records)", cap);
    rfl_net_init(&o->net, o->layers, cap, 0, 0);
    r = rfl_onnx_build(&o->g, &d, &o->net, &o->info);
    if (r != RFL_OK) {
        rfl_error e = o->info.err;
        if (r == RFL_ERR_MISSING) /* the tool's hint after the library's message */
            strncat(e.msg, " (give it with --dim NAME=V)", sizeof e.msg - strlen(e.msg) - 1);
        tl_error(o->path, &e);
    }
    if (o->batch && o->info.batch != o->batch)
        tl_input_error(o->path, 0, 0, "the batch axis (axis %d of input '%s') is fixed at %llu in "
                       "the file; --batch %llu cannot change it (export with a dynamic batch axis)",
                       o->info.batch_axis, o->g.input_count > 0 ? o->g.values[o->g.inputs[0]].name : "?",
                       (unsigned long long)o->info.batch, (unsigned long long)o->batch);
}

static void tl_onnx_load(tl_onnx *o) {
    tl_onnx_read(o);
    tl_onnx_build(o);
}

/* "resnet18" from "dir/resnet18.onnx" (into buf). */
static const char *tl_onnx_model_name(const char *path, char *buf, size_t size) {
    const char *b = strrchr(path, '/');
    size_t n;
    b = b ? b + 1 : path;
    n = strlen(b);
    if (n > 5 && tl_is(b + n - 5, ".onnx")) n -= 5;
    if (tl_is(path, "-")) b = "stdin", n = 5; /* also a chart file name */
    snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), b);
    return buf;
}

/* Dim i of the first graph input as the build saw it (-1: unknown). */
static int64_t tl_onnx_dim(const tl_onnx *o, const rfl_onnx_value *v, int i) {
    rfl_onnx_desc d;
    (void)v;
    memset(&d, 0, sizeof d);
    d.dims = o->dims;
    return rfl_onnx_input_dim(&o->g, &d, &o->info, 0, i);
}

/* The first graph input's dims at the batch, "[8, 3, 224, 224]". */
static const char *tl_onnx_input_str(const tl_onnx *o, char *buf, size_t size) {
    const rfl_onnx_value *v;
    size_t k = 0;
    int i;
    buf[0] = 0;
    if (o->g.input_count < 1) return buf;
    v = &o->g.values[o->g.inputs[0]];
    k += (size_t)snprintf(buf + k, size - k, "'%s' [", v->name);
    for (i = 0; i < v->rank && k < size; i++) {
        int64_t x = tl_onnx_dim(o, v, i);
        if (x < 0) k += (size_t)snprintf(buf + k, size - k, "%s%s", i ? ", " : "",
                                         v->dims[i].param ? v->dims[i].param : "?");
        else k += (size_t)snprintf(buf + k, size - k, "%s%lld", i ? ", " : "", (long long)x);
    }
    if (k < size) snprintf(buf + k, size - k, "]%s", o->info.batch_axis ? " (batch: axis 1, an RNN's X)" : "");
    return buf;
}

/* The dims of graph input `name` as built, "[10, 1, 8]"; NULL when no
   graph input has that name. */
static const char *tl_onnx_shape_of(const tl_onnx *o, const char *name, char *buf, size_t size) {
    int i, k;
    size_t n = 0;
    for (i = 0; i < o->g.input_count; i++) {
        const rfl_onnx_value *v = &o->g.values[o->g.inputs[i]];
        if (!name || strcmp(v->name, name)) continue;
        n += (size_t)snprintf(buf, size, "[");
        for (k = 0; k < v->rank && n < size; k++) {
            int64_t x = tl_onnx_dim(o, v, k);
            n += (size_t)snprintf(buf + n, size - n, "%s%lld", k ? ", " : "", (long long)x);
        }
        if (n < size) snprintf(buf + n, size - n, "]");
        return buf;
    }
    return 0;
}

/* The names of the records whose FLOPs are unknown, as a JSON array. */
static void tl_onnx_json_unknown(tl_json *j, const rfl_net *net) {
    int i;
    tl_jarr(j, "unknown_nodes");
    for (i = 0; i < net->count; i++)
        if (net->layers[i].flags & RFL_LF_UNKNOWN_FLOPS) tl_jstr(j, 0, net->layers[i].name);
    tl_jclose_arr(j);
}

/* A table cell of FLOPs: "?" for a record whose op has no FLOP rule. */
static const char *tl_onnx_flops_cell(const rfl_layer *L, uint64_t flops) {
    return (L->flags & RFL_LF_UNKNOWN_FLOPS) ? "?" : tl_si((double)flops, "");
}

/* Ops whose FLOPs are unknown (no cost rule), one line for humans. */
static void tl_onnx_unknown_note(const tl_onnx *o, FILE *f) {
    if (o->info.unknown_ops > 0)
        fprintf(f, "note: %d node%s without a FLOP rule (first: %s): their FLOPs are unknown, so "
                   "FLOP totals and times are lower bounds\n", o->info.unknown_ops, o->info.unknown_ops > 1 ? "s" : "",
                o->info.unknown_op ? o->info.unknown_op : "?");
}

/* What rfl-estimate --json adds for an ONNX model. */
static void tl_onnx_json(tl_json *j, const tl_onnx *o) {
    const rfl_onnx_value *v = o->g.input_count > 0 ? &o->g.values[o->g.inputs[0]] : 0;
    int i;
    tl_jarr(j, "input"); /* the first input's dims as built; unknown: null */
    for (i = 0; v && i < v->rank; i++) {
        int64_t x = tl_onnx_dim(o, v, i);
        if (x >= 0) tl_jnum(j, 0, (double)x);
        else tl_jnull(j, 0);
    }
    tl_jclose_arr(j);
    tl_jstr(j, "onnx_file", o->path);
    tl_jnum(j, "opset", (double)o->g.opset);
    tl_jnum(j, "batch_axis", o->info.batch_axis);
    tl_jnum(j, "onnx_nodes", o->g.node_count);
    tl_jnum(j, "unknown_flops_nodes", o->info.unknown_ops);
    if (o->info.unknown_op) tl_jstr(j, "unknown_flops_op", o->info.unknown_op);
    else tl_jnull(j, "unknown_flops_op");
}

/* ---- rfl-report: --onnx FILE adds a model named after the file ---------- */
#define TL_ONNX_MAX_FILES 8
static tl_onnx *tl_onnx_files[TL_ONNX_MAX_FILES];
static tl_onnx tl_onnx_report_dims; /* --dim NAME=V: for every --onnx file */
static int tl_onnx_nfiles;
static char tl_onnx_names[TL_ONNX_MAX_FILES][64];

static void tl_onnx_report_add(const char *path) {
    tl_onnx *o;
    int i;
    if (tl_onnx_nfiles >= TL_ONNX_MAX_FILES) tl_usage_error("at most %d --onnx files", TL_ONNX_MAX_FILES);
    o = (tl_onnx *)malloc(sizeof *o);
    if (!o) tl_input_error(path, 0, 0, "out of memory");
    tl_onnx_init(o, path);
    tl_onnx_model_name(path, tl_onnx_names[tl_onnx_nfiles], sizeof tl_onnx_names[0]);
    for (i = 0; i < tl_onnx_nfiles; i++) /* models are named after their files */
        if (tl_is(tl_onnx_names[i], tl_onnx_names[tl_onnx_nfiles]))
            tl_usage_error("--onnx %s and %s: two models named %s", tl_onnx_files[i]->path, path,
                           tl_onnx_names[i]);
    tl_onnx_files[tl_onnx_nfiles++] = o;
}

/* Append the files' model names to the comma-separated --model list. */
static void tl_onnx_report_names(char *list, size_t size) {
    int i;
    for (i = 0; i < tl_onnx_nfiles; i++) {
        size_t n = strlen(list);
        if (n + strlen(tl_onnx_names[i]) + 2 > size) tl_usage_error("too many models");
        snprintf(list + n, size - n, "%s%s", n ? "," : "", tl_onnx_names[i]);
    }
}

/* The records of model `name` when it came from --onnx (1), else 0. The
   batch is the report's (a file with a fixed other batch is an error). */
static int tl_onnx_report_net(const char *name, const rfl_cost_desc *cd, rfl_net *net) {
    int i;
    for (i = 0; i < tl_onnx_nfiles; i++) {
        tl_onnx *o = tl_onnx_files[i];
        if (!tl_is(name, tl_onnx_names[i])) continue;
        o->batch = cd->batch ? cd->batch : 1;
        memcpy(o->dims, tl_onnx_report_dims.dims, sizeof o->dims);
        tl_onnx_load(o);
        *net = o->net;
        return 1;
    }
    return 0;
}
#endif
