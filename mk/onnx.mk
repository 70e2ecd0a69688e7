# ONNX part (issue 18): the read benchmark.
#   make bench-onnx   the streamed reader on a ~500 MB ONNX file with inline
#                     weights (build/bench/, never committed) beside onnx.load
# (also run by `make bench`)
ONNX_BENCH = build/bench/onnx-500mb.onnx

build/bench-onnx-read: dev/bench/bench-onnx-read.c tools/cli.h $(HDRS) | build
	$(CC) $(WARN) -O2 -g -I. $< -o $@ -lm

$(ONNX_BENCH): dev/bench/bench-onnx-gen.py
	mkdir -p build/bench
	python3 dev/bench/bench-onnx-gen.py $@ 500 > /dev/null

.PHONY: bench-onnx
bench-onnx: build/bench-onnx-read $(ONNX_BENCH)
	python3 dev/bench/bench-onnx.py build/bench-onnx-read $(ONNX_BENCH) 5

bench:: bench-onnx
