/* bench-onnx-read: the ONNX reader alone, for `make bench-onnx`
   (tools/bench-onnx.py times it). Reads FILE as rfl-estimate --onnx does
   (seeking past weight payloads) or, with --stream, pushes every byte as
   from a pipe; builds the records at batch 1 and prints one line of what
   it found, so both ways can be compared.
   Usage: bench-onnx-read [--stream] FILE */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "tool.h"
#include "onnx_load.h"

int main(int argc, char **argv) {
    tl_onnx ox;
    rfl_net_cost c;
    rfl_cost_desc d;
    int a, stream = 0;
    const char *path = 0;
    tl_prog = "bench-onnx-read";
    for (a = 1; a < argc; a++) {
        if (tl_is(argv[a], "--stream")) stream = 1;
        else if (tl_is(argv[a], "--help")) { puts("usage: bench-onnx-read [--stream] FILE"); return 0; }
        else if (!path) path = argv[a];
        else tl_usage_error("one file");
    }
    if (!path) tl_usage_error("no file");
    tl_onnx_init(&ox, path);
    ox.no_seek = stream;
    tl_onnx_load(&ox);
    memset(&d, 0, sizeof d);
    d.batch = ox.info.batch;
    if (rfl_net_cost_get(&ox.net, &d, &c) != RFL_OK) tl_input_error(path, 0, 0, "cost failed");
    printf("%d nodes, %d records, %llu params, mac_flops %llu at batch %llu\n", ox.g.node_count,
           ox.net.count, (unsigned long long)c.params, (unsigned long long)c.fwd_mac_flops,
           (unsigned long long)d.batch);
    fprintf(stderr, "%llu of %llu bytes read, arena %llu bytes\n", (unsigned long long)ox.pushed,
            (unsigned long long)ox.file_bytes, (unsigned long long)ox.arena_size);
    return 0;
}
