# One file (issue 15): what mk/*.mk builds with stb_image_write waits for
# it too (see PNG_USERS in the Makefile): the chart fuzzer encodes PNGs.
build/fuzz/fuzz_chart: | $(STB_H)
