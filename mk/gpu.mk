# make gpu-bench: dev/gpu/rfl-gpu-bench.cu, the measured ceilings of this
# host's NVIDIA GPU as a machine file. Needs nvcc and cuBLAS; never part of
# `make`, `make test` or CI. Without nvcc it says so and does nothing.
NVCC ?= $(shell command -v nvcc 2> /dev/null || ls /usr/local/cuda/bin/nvcc 2> /dev/null)
GPU_ARCH ?= -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90

.PHONY: gpu-bench
ifeq ($(strip $(NVCC)),)
gpu-bench:
	@echo "gpu-bench: no nvcc here (CUDA toolkit not found): nothing built"
else
gpu-bench: build/rfl-gpu-bench build/rfl-hw
	@echo "run: build/rfl-hw NAME --json > t.json; build/rfl-gpu-bench --table t.json > NAME.json"

build/rfl-gpu-bench: dev/gpu/rfl-gpu-bench.cu | build
	$(NVCC) -O3 -std=c++14 $(GPU_ARCH) $< -o $@ -lcublasLt -lcublas
endif
