# make bench, reducer part (issue 4): rfl-reduce on a ~200 MB ncu raw export
# generated from a fixture (build/bench/, never committed), against the
# pandas method. Other parts add their own `bench::` rules.
BENCH_CSV = build/bench/ncu-raw-200mb.csv

$(BENCH_CSV): dev/bench/bench-gen.py tests/data/alexnet-b1-train-full-raw.csv
	mkdir -p build/bench
	python3 dev/bench/bench-gen.py tests/data/alexnet-b1-train-full-raw.csv $@ 200 > /dev/null

.PHONY: bench
bench:: build/rfl-reduce $(BENCH_CSV)
	python3 dev/bench/bench-reduce.py build/rfl-reduce $(BENCH_CSV) 7

# trace part (issue 36): a ~1 GB PyTorch profiler trace (the H200 ResNet-18 trace repeated), plain and gzip,
# against Python's json.load (on a 100 MB cut: it holds the whole document)
BENCH_TRACE = build/bench/trace-1gb.json
$(BENCH_TRACE): dev/bench/bench-trace-gen.py tests/data/trace/resnet18-b1-train-fp32.json.gz
	mkdir -p build/bench
	python3 dev/bench/bench-trace-gen.py tests/data/trace/resnet18-b1-train-fp32.json.gz $@ 1000 > /dev/null
$(BENCH_TRACE).gz: $(BENCH_TRACE)
	gzip -1 -c $< > $@
build/bench/trace-100mb.json: dev/bench/bench-trace-gen.py tests/data/trace/resnet18-b1-train-fp32.json.gz
	mkdir -p build/bench
	python3 dev/bench/bench-trace-gen.py tests/data/trace/resnet18-b1-train-fp32.json.gz $@ 100 > /dev/null
bench:: build/rfl-reduce $(BENCH_TRACE) $(BENCH_TRACE).gz build/bench/trace-100mb.json
	python3 dev/bench/bench-trace.py build/rfl-reduce $(BENCH_TRACE) $(BENCH_TRACE).gz build/bench/trace-100mb.json 3
