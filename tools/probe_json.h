/* probe_json.h - the machine file rfl-probe writes (--json, -o): what
   `rfl-hw NAME --json` prints for this machine, the measured ceilings
   under "measured", the raw runs under "_probe" (ignored by readers). */
static void j_levels(tl_json *j, const char *key, const double *v) {
    static const char *names[RFL_PROBE_LEVELS] = {"l1", "l2", "l3", "dram"};
    int l;
    tl_jobj(j, key);
    for (l = 0; l < RFL_PROBE_LEVELS; l++) tl_jnum_if(j, names[l], v[l] > 0, v[l]);
    tl_jclose(j);
}

static void j_run(tl_json *j, const probe_run *run) {
    const rfl_probe_result *r = &run->r;
    double pk[2];
    int k;
    tl_jobj(j, 0);
    tl_jnum(j, "threads", r->threads);
    tl_jnum(j, "seconds", run->wall_s);
    tl_jobj(j, "peak_flops");
    pk[0] = r->peak_flops[RFL_FP64], pk[1] = r->peak_flops[RFL_FP32];
    tl_jnum_if(j, "fp64", pk[0] > 0, pk[0]);
    tl_jnum_if(j, "fp32", pk[1] > 0, pk[1]);
    tl_jclose(j);
    j_levels(j, "read_bw", r->read_bps);
    j_levels(j, "triad_bw", r->triad_bps);
    tl_jarr(j, "sweep");
    for (k = 0; k < r->n_points; k++) {
        tl_jobj(j, 0);
        tl_jnum(j, "bytes", r->sweep[k].bytes);
        tl_jnum(j, "read_bw", r->sweep[k].read_bps);
        tl_jnum(j, "triad_bw", r->sweep[k].triad_bps);
        tl_jclose(j);
    }
    tl_jclose_arr(j);
    tl_jclose(j);
}

/* The machine (tl_json_machine: exactly what rfl-hw NAME --json prints,
   with "measured"), then "_probe" added inside the same object: the
   machine's JSON goes through a memory stream, its closing brace is cut
   and the writer goes on one level down. */
static void write_machine_file(FILE *f, const probe_opts *o, const probe_run *runs, int n,
                               const char *model, const rfl_machine *t) {
    const probe_run *best = &runs[n - 1]; /* every CPU: the machine's roof */
    rfl_machine host = best->r.machine, meas = best->r.machine;
    char src[200], hsrc[260], *text = 0;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    tl_json j;
    int i;
    snprintf(src, sizeof src, "rfl-probe %s: %d thread%s, %s FMA chains, triad bandwidth "
             "(24 bytes an element, STREAM), best of %d%s", rfl_version(), best->r.threads,
             best->r.threads > 1 ? "s" : "", rfl_probe_isa_name(best->r.isa), o->quick ? 5 : 10,
             o->quick ? " (quick)" : "");
    snprintf(hsrc, sizeof hsrc, "measured on this host, no datasheet: %s", src);
    host.id = "host", host.name = model, host.aliases = "", host.source = hsrc;
    host.mem_bytes = phys_bytes();
    meas.source = src;
    if (!mem) tl_input_error(0, 0, 0, "out of memory");
    memset(&j, 0, sizeof j);
    j.f = mem;
    tl_json_machine(&j, 0, t ? t : &host, &meas, best->r.threads);
    fclose(mem);
    while (len > 0 && text[len - 1] == '\n') len--;
    if (len > 0 && text[len - 1] == '}') len--; /* the top level's brace only */
    while (len > 0 && text[len - 1] == '\n') len--;
    fwrite(text, 1, len, f);
    free(text);
    memset(&j, 0, sizeof j);
    j.f = f, j.depth = 1, j.count[1] = 1; /* inside the object, after members */
    tl_jobj(&j, "_probe");
    tl_jstr(&j, "cpu", model);
    tl_jstr(&j, "isa", rfl_probe_isa_name(best->r.isa));
    tl_jbool(&j, "quick", o->quick);
    tl_jstr(&j, "table", t ? t->id : 0);
    tl_jarr(&j, "runs");
    for (i = 0; i < n; i++) j_run(&j, &runs[i]);
    tl_jclose_arr(&j);
    tl_jclose(&j);
    tl_jclose(&j);
}

static int probe_output(const probe_opts *o, const probe_run *runs, int n) {
    char model[256];
    const rfl_machine *t = 0;
    cpu_model(model, sizeof model);
    if (o->hw) t = tl_find_hw(o->hw);
    else t = table_match(model);
    if (o->json) write_machine_file(stdout, o, runs, n, model, t);
    else print_table(o, runs, n, model, t);
    if (o->out) {
        write_machine_file(o->out_f, o, runs, n, model, t);
        if (fclose(o->out_f)) tl_input_error(o->out, 0, 0, "write failed: %s", strerror(errno));
        if (!o->json) printf("wrote %s (use it with --hw-file)\n", o->out);
    }
    return 0;
}
