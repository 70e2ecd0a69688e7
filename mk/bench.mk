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
