/* rfl-hw: the hardware table, or one machine with its ceilings and ridge
   points. Usage: rfl-hw [NAME | --hw-file FILE | --list] [--json] */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "cli.h"

static const char *usage =
	"usage: rfl-hw [NAME | --hw-file FILE | --list] [--json]\n"
	"  no NAME: the table, one line per machine, grouped by kind: FP64, FP32 and\n"
	"           best dense tensor peak (TFLOP/s), DRAM (GB/s), memory (GiB),\n"
	"           FP32 ridge (FLOP/byte).\n"
	"  NAME:    that machine's ceilings and ridge points (FLOP/byte) for every\n"
	"           precision and memory level, and the datasheet it comes from.\n"
	"           Lookup ignores case, '-', '_', ' ' and '.'. Short names:\n"
	"           v100 = V100 SXM2, a100 = A100 SXM4 40GB, h100 = H100 SXM,\n"
	"           p100 = P100 PCIe; variants by full name (v100-pcie, a100-pcie-80gb).\n"
	"  --hw-file FILE: a machine file (what NAME --json prints, perhaps with a\n"
	"           \"measured\" object from rfl-probe) shown like NAME.\n"
	"  --list:  the machine ids, one a line (for scripts).\n"
	"  --json:  name, aliases, kind, peak_flops{...} (FLOP/s, null where absent),\n"
	"           mem_bw{dram,l2,l1} (bytes/s), mem_bytes, ridge{prec_level}, source,\n"
	"           link{kind, gen, lanes, bw_per_direction, latency_s, gpus_per_node,\n"
	"           source, allreduce{...}} (the GPU-to-GPU link).\n"
	"Peaks are dense (sparse figures halved); GB = 1e9 bytes, GiB = 2^30.\n"
	"Exit status: 0 ok, 1 unknown machine (closest names suggested) or a bad\n"
	"machine file (file:line:col: field: what), 2 bad usage.\n";

enum { OPT_JSON = 1, OPT_LIST };
static const cli_opt opts[] = {{"--json", 0, OPT_JSON}, {"--list", 0, OPT_LIST}, {0, 0, 0}};
static const cli_opt hw_file_opt[] = {{"--hw-file", CLI_HW_FILE_HINT, CLI_HW_FILE}, {0, 0, 0}};
static const cli_opt *const tables[] = {opts, hw_file_opt, 0};

/* One machine as a machine file; a table machine has no "measured". */
static void json_machine(rfl_json_writer *w, const rfl_machine *m, const rfl_machine_file *mf) {
	rfl_machine_file one;
	if (!mf) {
		memset(&one, 0, sizeof one);
		one.machine = *m;
		mf = &one;
	}
	rfl_json_w_obj(w, 0);
	rfl_machine_file_write(w, mf);
	rfl_json_w_end(w);
}
typedef struct one { const rfl_machine *m; const rfl_machine_file *mf; } one;
static void json_one(rfl_json_writer *w, const void *o) {
	json_machine(w, ((const one *)o)->m, ((const one *)o)->mf);
}
static void json_table(rfl_json_writer *w, const void *ctx) {
	int i;
	(void)ctx;
	rfl_json_w_obj(w, 0);
	rfl_json_w_num(w, "count", rfl_hw_count());
	rfl_json_w_arr(w, "machines");
	for (i = 0; i < rfl_hw_count(); i++) json_machine(w, rfl_hw_get(i), 0);
	rfl_json_w_end(w);
	rfl_json_w_end(w);
}

/* Datasheet units for humans: bandwidth in GB/s, memory in GiB (as
   vendors print them), compute in TFLOP/s. */
static const char *gbps(cli *c, double bytes_per_s) {
	char *b = cli_numbuf(c), n[40];
	rfl_fmt_num(n, sizeof n, bytes_per_s / 1e9, 6);
	snprintf(b, 48, "%s GB/s", n);
	return b;
}

/* What "units" counts depends on the kind of machine (see hw_specs.h). */
static const char *unit_word(const rfl_machine *m) {
	switch (m->kind) {
	case RFL_KIND_CPU: return "cores";
	case RFL_KIND_TPU: return "TensorCores";
	case RFL_KIND_ACCEL: return "TPCs";
	case RFL_KIND_SOC: return strncmp(m->name, "NVIDIA", 6) == 0 ? "SMs" : "GPU cores";
	case RFL_KIND_GPU: return strncmp(m->name, "AMD", 3) == 0 ? "CUs" : "SMs";
	}
	return "units";
}

/* A --hw-file machine's "measured" ceilings beside the figures above. */
static void print_measured(cli *c, const rfl_machine_file *mf) {
	int i, l;
	if (!mf || !mf->has_measured) return;
	printf("\n  measured");
	if (mf->measured_threads > 0) printf(" (%d threads)", mf->measured_threads);
	printf(":\n");
	for (i = 0; i < RFL_PREC_COUNT; i++) {
		rfl_prec p = rfl_machine_file_prec(i);
		if (mf->measured.peak_flops[p] > 0)
			printf("  %-12s %16s\n", rfl_prec_name(p), cli_si(c, mf->measured.peak_flops[p], "FLOP/s"));
	}
	for (l = 0; l < RFL_LEVEL_COUNT; l++)
		if (mf->measured.bw_bytes_per_s[l] > 0)
			printf("  %-12s %16s\n", rfl_level_name((rfl_level)l), gbps(c, mf->measured.bw_bytes_per_s[l]));
	printf("  source: %s\n", mf->measured.source);
}

/* The GPU-to-GPU link: what it is, then the all-reduce it was fitted
   with (or that it has none: rfl_allreduce_time then takes the datasheet). */
static void print_link(cli *c, const rfl_link *l) {
	const char *sep = ", ";
	if (!l) return;
	if (l->kind == RFL_LINK_UNKNOWN || l->kind == RFL_LINK_NONE) {
		printf("  link:    %s (%s)\n", l->kind == RFL_LINK_NONE ? "none" : "unknown", l->source);
		return;
	}
	printf("  link:    %s", l->kind == RFL_LINK_NVLINK ? "NVLink" : l->kind == RFL_LINK_PCIE ? "PCIe"
							: "Infinity Fabric");
	if (l->gen > 0) printf(" %d", l->gen);
	if (l->lanes > 0 && l->kind == RFL_LINK_PCIE) printf(" x%d", l->lanes);
	else if (l->lanes > 0) printf("%s%d links", sep, l->lanes);
	printf("%s%s each way per GPU", sep, l->bw_bytes_per_s > 0 ? gbps(c, l->bw_bytes_per_s) : "? GB/s");
	if (l->latency_s > 0) printf("%s%s us a ring step", sep, cli_num(c, l->latency_s * 1e6, 3));
	else printf("%sring-step latency unknown", sep);
	if (l->gpus_per_node > 0) printf("%s%d GPUs a node", sep, l->gpus_per_node);
	printf("\n");
	if (l->ar_busbw > 0)
		printf("  all-reduce (ring, fitted on 2 to %d GPUs): %s us + %s us a step, bus %s; "
			   "eager calls %s us more\n", l->ar_gpus, cli_num(c, l->ar_base_s * 1e6, 4),
			   cli_num(c, l->ar_step_s * 1e6, 3), gbps(c, l->ar_busbw), cli_num(c, l->ar_eager_s * 1e6, 4));
	else
		printf("  all-reduce (ring): not measured, the datasheet's figures (a lower bound)\n");
}

static void print_one(cli *c, const rfl_machine *m, const rfl_machine_file *mf) {
	int i, l;
	printf("%s  (%s, %s)\n", m->name, m->id, rfl_kind_name(m->kind));
	if (m->aliases && *m->aliases) printf("  aliases: %s\n", m->aliases);
	printf("  memory:  ");
	if (m->mem_bytes > 0) printf("%s GiB, ", cli_num(c, m->mem_bytes / 1073741824.0, 4));
	printf("DRAM %s", gbps(c, m->bw_bytes_per_s[RFL_DRAM]));
	for (l = 1; l < RFL_LEVEL_COUNT; l++)
		if (m->bw_bytes_per_s[l] > 0)
			printf(", %s %s", rfl_level_name((rfl_level)l), gbps(c, m->bw_bytes_per_s[l]));
	if (m->l2_bytes > 0)
		printf("; last-level cache %s MiB", cli_num(c, m->l2_bytes / 1048576.0, 4));
	printf("\n");
	if (m->units > 0 || m->boost_mhz > 0 || m->tdp_w > 0) {
		const char *sep = "";
		printf("  chip:    ");
		if (m->units > 0) printf("%d %s", m->units, unit_word(m)), sep = ", ";
		if (m->boost_mhz > 0)
			printf("%s%s %s MHz", sep, m->kind == RFL_KIND_CPU ? "clock" : "boost",
				   cli_num(c, m->boost_mhz, 6)), sep = ", ";
		if (m->tdp_w > 0) printf("%sTDP %s W", sep, cli_num(c, m->tdp_w, 6));
		printf("\n");
	}
	print_link(c, m->link);
	printf("\n  %-12s %16s", "precision", "peak (dense)");
	for (l = 0; l < RFL_LEVEL_COUNT; l++)
		if (m->bw_bytes_per_s[l] > 0) printf("  ridge %-4s", rfl_level_name((rfl_level)l));
	printf("\n");
	for (i = 0; i < RFL_PREC_COUNT; i++) {
		rfl_prec p = rfl_machine_file_prec(i);
		if (!(m->peak_flops[p] > 0)) continue;
		printf("  %-12s %16s", rfl_prec_name(p),
			   cli_si(c, m->peak_flops[p], p == RFL_INT8_TENSOR ? "OP/s" : "FLOP/s"));
		for (l = 0; l < RFL_LEVEL_COUNT; l++)
			if (m->bw_bytes_per_s[l] > 0) printf("  %10s", cli_num(c, rfl_ridge(m, p, (rfl_level)l), 4));
		printf("\n");
	}
	if (!(m->peak_flops[RFL_FP32] > 0))
		printf("  (no FP32 figure: the vendor publishes none for this machine)\n");
	printf("  (ridge = peak / bandwidth in FLOP/byte: below it a kernel is memory-bound)\n");
	printf("\n  source: %s\n", m->source);
	if (m->link && m->link->kind != RFL_LINK_UNKNOWN && m->link->kind != RFL_LINK_NONE)
		printf("  link source: %s\n", m->link->source);
	if (m->link && m->link->ar_busbw > 0) printf("  all-reduce source: %s\n", m->link->ar_source);
	print_measured(c, mf);
}

/* The largest dense FLOP/s of the matrix units (INT8 is ops, left out), and
   its precision's short name ("bf16", "fp8", ...). */
static double best_tensor(const rfl_machine *m, const char **which) {
	static const rfl_prec order[] = {RFL_FP64_TENSOR, RFL_TF32_TENSOR, RFL_FP16_TENSOR,
									 RFL_BF16_TENSOR, RFL_FP8_TENSOR};
	static const char *const names[] = {"fp64", "tf32", "fp16", "bf16", "fp8"};
	double best = 0;
	size_t i;
	*which = "";
	for (i = 0; i < sizeof order / sizeof order[0]; i++)
		if (m->peak_flops[order[i]] > best) {
			best = m->peak_flops[order[i]];
			*which = names[i];
		}
	return best;
}

static const char *tflops(cli *c, double v) { return v > 0 ? cli_num(c, v / 1e12, 4) : "-"; }

static void print_table(cli *c) {
	/* grouped by kind, table order within a kind (vendor, then age) */
	static const rfl_kind groups[] = {RFL_KIND_GPU, RFL_KIND_SOC, RFL_KIND_ACCEL,
									  RFL_KIND_TPU, RFL_KIND_CPU};
	static const char *const titles[] = {"GPUs", "Systems on a chip (GPU / Neural Engine peaks)",
										 "Accelerators", "TPUs (per chip)", "CPUs"};
	int i, g, n = rfl_hw_count();
	printf("%-24s %8s %8s %15s %9s %7s %7s\n", "", "FP64", "FP32", "best tensor", "DRAM",
		   "memory", "ridge");
	printf("%-24s %8s %8s %15s %9s %7s %7s\n", "id", "TFLOP/s", "TFLOP/s", "TFLOP/s (prec)",
		   "GB/s", "GiB", "FP32");
	for (g = 0; g < (int)(sizeof groups / sizeof groups[0]); g++) {
		int shown = 0;
		for (i = 0; i < n; i++) {
			const rfl_machine *m = rfl_hw_get(i);
			const char *which;
			double tc, r;
			char tcol[32];
			if (m->kind != groups[g]) continue;
			if (!shown++) printf("\n%s\n", titles[g]);
			tc = best_tensor(m, &which);
			if (tc > 0) snprintf(tcol, sizeof tcol, "%s %-4s", cli_num(c, tc / 1e12, 5), which);
			else snprintf(tcol, sizeof tcol, "-     ");
			r = rfl_ridge(m, RFL_FP32, RFL_DRAM);
			printf("  %-22s %8s %8s %15s %9s %7s %7s\n", m->id, tflops(c, m->peak_flops[RFL_FP64]),
				   tflops(c, m->peak_flops[RFL_FP32]), tcol,
				   cli_num(c, m->bw_bytes_per_s[RFL_DRAM] / 1e9, 5),
				   m->mem_bytes > 0 ? cli_num(c, m->mem_bytes / 1073741824.0, 4) : "-",
				   r > 0 ? cli_num(c, r, 4) : "-");
		}
	}
	printf("\n%d machines. Peaks are dense (sparse figures halved); GB = 1e9 bytes; "
		   "ridge = FP32 peak / DRAM bandwidth (FLOP/byte).\n"
		   "'rfl-hw NAME' shows one machine with every ridge point and its source.\n", n);
}

/* The ids, one a line: what scripts loop over. */
static void print_list(void) {
	int i;
	for (i = 0; i < rfl_hw_count(); i++) printf("%s\n", rfl_hw_get(i)->id);
}

int main(int argc, char **argv) {
	cli c;
	one o = {0, 0};
	const char *name = 0;
	int json = 0, list = 0, id;
	cli_init(&c, "rfl-hw", argc, argv, tables);
	while ((id = cli_next(&c)) != CLI_DONE) {
		if (id == CLI_HELP) { fputs(usage, stdout); return CLI_OK; }
		else if (id == OPT_JSON) json = 1;
		else if (id == OPT_LIST) list = 1;
		else if (id == CLI_ARG && name)
			cli_usage_error(&c, "one machine name at most (got '%s' and '%s')", name, c.val);
		else if (id == CLI_ARG) name = c.val;
	}
	if (list && (name || c.hw_files || json)) cli_usage_error(&c, "--list takes nothing else");
	c.hw = name;
	if (list) print_list();
	else if (name || c.hw_files) {
		o.m = cli_machine(&c); /* exits 1 when unknown */
		o.mf = cli_file_of(&c, o.m);
		if (json) cli_json_out(&c, stdout, json_one, &o);
		else print_one(&c, o.m, o.mf);
	} else if (json) cli_json_out(&c, stdout, json_table, 0);
	else print_table(&c);
	return CLI_OK;
}
