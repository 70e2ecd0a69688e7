/* machine_file.h - tools only: --hw-file FILE (a machine file, the JSON
   that `rfl-hw NAME --json` prints, read by rfl_machine_file_parse; the
   library writes it: rfl_machine_file_write), and how --hw and --hw-file together pick the chart
   panels and their measured roofs. Included by tool.h. Tools may allocate:
   a loaded file lives until the tool exits. */
#ifndef RFL_TOOL_MACHINE_FILE_H
#define RFL_TOOL_MACHINE_FILE_H
#ifndef RFL_NO_MACHINE_FILE
#include <errno.h>

/* The --hw-file value: FILE[,FILE...] (set by tl_hw_file_option). */
static const char *tl_hw_files = 0;

/* Every file loaded, so that a machine's measured roof can be found again. */
enum { TL_MAX_FILES = 16 };
static rfl_machine_file *tl_loaded[TL_MAX_FILES];
static int tl_nloaded;

/* Option hook: 1 when opt is --hw-file (its value kept), else 0. */
static int tl_hw_file_option(const char *opt, const char *val) {
    if (strcmp(opt, "--hw-file") != 0) return 0;
    if (!val) tl_usage_error("--hw-file needs a value (a machine file: rfl-hw NAME --json > FILE)");
    tl_hw_files = val;
    return 1;
}

/* Reads a machine file; a bad one exits 1 with "FILE:LINE:COL: field: what". */
static const rfl_machine_file *tl_load_hw_file(const char *path) {
    size_t len;
    char *text = tl_read_file(path, RFL_CAP_MACHINE, &len);
    rfl_machine_file *mf = (rfl_machine_file *)malloc(sizeof *mf);
    char *strs = (char *)malloc(len + 1); /* decoded strings never outgrow the text */
    int ntoks = RFL_MACHINE_FILE_TOKS;
    rfl_json_tok *toks = (rfl_json_tok *)malloc(sizeof *toks * (size_t)ntoks);
    rfl_error e;
    rfl_result r;
    if (!mf || !strs || !toks) tl_input_error(path, 0, 0, "out of memory");
    r = rfl_machine_file_parse(text, len, toks, ntoks, strs, len + 1, mf, &e);
    if (r == RFL_ERR_BUFFER && !strcmp(e.where, "toks")) { /* a file with many '_' extras */
        ntoks = (int)e.need;
        toks = (rfl_json_tok *)realloc(toks, sizeof *toks * (size_t)ntoks);
        if (!toks) tl_input_error(path, 0, 0, "out of memory");
        r = rfl_machine_file_parse(text, len, toks, ntoks, strs, len + 1, mf, &e);
    }
    if (r != RFL_OK) tl_error(path, &e);
    free(toks);
    free(text); /* the machine's strings live in strs */
    if (tl_nloaded < TL_MAX_FILES) tl_loaded[tl_nloaded++] = mf;
    return mf;
}

/* A measured roof worth drawing: one that differs from the machine's own
   (a probe of a host the table lacks writes the same figures twice). */
static int tl_measured_differs(const rfl_machine_file *mf) {
    return mf->has_measured &&
           (memcmp(mf->measured.peak_flops, mf->machine.peak_flops, sizeof mf->machine.peak_flops) ||
            memcmp(mf->measured.bw_bytes_per_s, mf->machine.bw_bytes_per_s,
                   sizeof mf->machine.bw_bytes_per_s));
}

/* The one machine of a tool that takes a single --hw (rfl-hw, rfl-estimate,
   rfl-reduce): --hw NAME or --hw-file FILE, not both. NULL when neither. */
static const rfl_machine *tl_machine(const char *name) {
    if (name && tl_hw_files) tl_usage_error("give --hw NAME or --hw-file FILE, not both");
    if (tl_hw_files) {
        if (strchr(tl_hw_files, ',')) tl_usage_error("one --hw-file here ('%s')", tl_hw_files);
        return &tl_load_hw_file(tl_hw_files)->machine;
    }
    return name ? tl_find_hw(name) : 0;
}

/* Is file machine f the table machine m (by id or name)? */
static int tl_same_machine(const rfl_machine *f, const rfl_machine *m) {
    const rfl_machine *t;
    return rfl_parse_name_eq(f->id, m->id) || rfl_parse_name_eq(f->name, m->name) ||
           (rfl_hw_find(f->id, &t) == RFL_OK && t == m);
}

/* Chart panels from --hw NAME[,NAME...] and tl_hw_files FILE[,FILE...]:
   out[] the machines (table ones first, then files), measured[] the roof
   drawn dashed beside each (NULL: none). A file with a "measured" object
   draws it beside its own figures. A file that is one of the --hw
   machines (same id or name) joins that panel instead: its measured
   object, or else its figures, are drawn dashed beside the table's roof.
   Returns the number of panels (exits 2 past cap). */
static int tl_machines(const char *names, const rfl_machine **out, const rfl_machine **measured,
                       int cap) {
    char buf[1024], *s, *tok;
    int n = 0, ntable, k;
    snprintf(buf, sizeof buf, "%s", names ? names : "");
    for (s = buf; (tok = strtok(s, ",")) != 0; s = 0) {
        if (n >= cap) tl_usage_error("at most %d machines", cap);
        measured[n] = 0;
        out[n++] = tl_find_hw(tok);
    }
    ntable = n;
    snprintf(buf, sizeof buf, "%s", tl_hw_files ? tl_hw_files : "");
    for (s = buf; (tok = strtok(s, ",")) != 0; s = 0) {
        const rfl_machine_file *mf = tl_load_hw_file(tok);
        for (k = 0; k < ntable && !tl_same_machine(&mf->machine, out[k]); k++) {}
        if (k < ntable) {
            measured[k] = mf->has_measured ? &mf->measured : &mf->machine;
            continue;
        }
        if (n >= cap) tl_usage_error("at most %d machines", cap);
        measured[n] = tl_measured_differs(mf) ? &mf->measured : 0;
        out[n++] = &mf->machine;
    }
    return n;
}

/* The file machine m was loaded from (a --hw-file machine), or NULL. */
static const rfl_machine_file *tl_file_of(const rfl_machine *m) {
    int i;
    for (i = 0; i < tl_nloaded; i++)
        if (&tl_loaded[i]->machine == m) return tl_loaded[i];
    return 0;
}

#ifndef RFL_NO_CHART
/* --ceilings l2,l1 on a panel whose machine has no such bandwidth: one
   line on stderr per machine, saying what is missing and how to get it
   (a measured machine file), never a silent gap. */
static void tl_warn_missing_levels(const rfl_roofline_desc *d) {
    int k;
    for (k = 0; k < d->n_machines; k++) {
        unsigned miss = rfl_roofline_missing_levels(d, k);
        const rfl_machine *m = d->machines[k];
        const char *what = miss == ((1u << RFL_L2) | (1u << RFL_L1)) ? "L2 or L1"
                           : miss == (1u << RFL_L2)                ? "L2"
                                                                   : "L1";
        if (!miss) continue;
        fprintf(stderr,
                "%s: %s has no %s bandwidth (none published or measured): %s not drawn. "
                "Measure %s and pass the machine file with --hw-file FILE (a CPU: rfl-probe -o "
                "FILE; an NVIDIA GPU: make gpu-bench, tools/gpu)\n",
                tl_prog, m->id, what, miss & (miss - 1) ? "those roofs are" : "that roof is",
                miss & (miss - 1) ? "them" : "it");
    }
}
#endif
#endif /* RFL_NO_MACHINE_FILE */
#endif
