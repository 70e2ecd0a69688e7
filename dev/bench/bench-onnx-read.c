/* bench-onnx-read: the ONNX reader alone, for `make bench-onnx`
   (dev/bench/bench-onnx.py times it). Reads FILE as rfl-estimate --onnx does
   (seeking past weight payloads) or, with --stream, pushes every byte as
   from a pipe; builds the records at batch 1 and prints one line of what
   it found, so both ways can be compared.
   Usage: bench-onnx-read [--stream] FILE */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "cli.h"

enum { OPT_STREAM = 1 };
static const cli_opt opts[] = {{"--stream", 0, OPT_STREAM}, {0, 0, 0}};
static const cli_opt *const tables[] = {opts, 0};

/* --stream: every byte pushed, as from a pipe, into an arena of the
   pipe's size; then the records as rfl-estimate builds them. */
static void read_pushed(cli *c, cli_model *m) {
	static unsigned char buf[65536];
	rfl_onnx_state st;
	rfl_result r;
	size_t n;
	FILE *f = fopen(m->onnx, "rb");
	if (!f) cli_input_error(c, m->onnx, 0, 0, "cannot open");
	m->arena_size = CLI_ONNX_PIPE_ARENA;
	rfl_onnx_init(&st, cli_xmalloc(c, m->arena_size), m->arena_size);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0 && rfl_onnx_push(&st, buf, n) == RFL_OK) {}
	fclose(f);
	r = st.err.code ? st.err.code : rfl_onnx_finish(&st, &m->g);
	if (r != RFL_OK) cli_error(c, m->onnx, &st.err);
	cli_model_onnx_build(c, m);
	fprintf(stderr, "%llu bytes pushed, ", (unsigned long long)st.offset);
}

int main(int argc, char **argv) {
	cli c;
	cli_model m;
	rfl_net_cost t;
	int id, stream = 0;
	cli_init(&c, "bench-onnx-read", argc, argv, tables);
	cli_model_init(&m);
	while ((id = cli_next(&c)) != CLI_DONE) {
		if (id == CLI_HELP) { puts("usage: bench-onnx-read [--stream] FILE"); return CLI_OK; }
		if (id == OPT_STREAM) stream = 1;
		else if (m.onnx) cli_usage_error(&c, "one file");
		else m.onnx = c.val;
	}
	if (!m.onnx) cli_usage_error(&c, "no file");
	if (stream) read_pushed(&c, &m);
	else cli_model_load(&c, &m);
	if (rfl_net_cost_get(&m.net, &m.d, &t) != RFL_OK) cli_input_error(&c, m.onnx, 0, 0, "cost failed");
	printf("%d nodes, %d records, %llu params, mac_flops %llu at batch %llu\n", m.g.node_count,
		   m.net.count, (unsigned long long)t.params, (unsigned long long)t.fwd_mac_flops,
		   (unsigned long long)m.d.batch);
	fprintf(stderr, "arena %llu bytes\n", (unsigned long long)m.arena_size);
	return CLI_OK;
}
