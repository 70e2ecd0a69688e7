/* embedded.c - the estimator as it would run on a microcontroller: static
   buffers only, no stdio, no heap, no libm.

   A small CNN for 32x32 RGB images goes into a static array of layer
   records; the library counts its FLOPs and bytes, puts the work under the
   roofline of a machine from the built-in table (a Jetson Orin Nano) and
   predicts the time. The answer is left in the global `answer` (read it
   with a debugger, send it over a UART, show it on a display); main
   returns 0 on success and a step number on failure.

   Host:       make build/examples/embedded && ./build/examples/embedded
   Cortex-M4:  arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os -ffreestanding \
                 -ffunction-sections -fdata-sections -Wl,--gc-sections \
                 -nostdlib -I. -T tests/arm/link.ld tests/arm/startup.c \
                 examples/embedded.c -lgcc -o embedded.elf
               (tests/arm/ has a minimal start-up file and linker script;
               `make size` builds this and prints the sizes.)
   The hardware table is about 17 KB of this 26 KB image. A device that
   knows its one machine can fill in an rfl_machine itself (peak_flops,
   bw_bytes_per_s) and define RFL_NO_HW_TABLE: under 10 KB then. */
#define RFL_NO_STDIO   /* no <stdio.h> anywhere in the library */
#define RFL_NO_CHART   /* no chart writer (and no libm) */
#define RFL_NO_ZOO     /* no built-in torchvision models */
#define ROOFLINE_STATIC /* static functions: the unused ones vanish */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"

#define MAX_LAYERS 16
static rfl_layer layers[MAX_LAYERS]; /* 104 bytes each on a 32-bit target */
static rfl_net net;

/* What the device reports. */
struct answer {
    uint64_t mac_flops;     /* forward, 2 per multiply-add of conv/linear */
    uint64_t flops;         /* forward, every FLOP */
    uint64_t bytes;         /* forward DRAM traffic */
    double ai;              /* arithmetic intensity, FLOP per DRAM byte */
    double attainable;      /* FLOP/s the roof allows at that intensity */
    double time_s;          /* predicted time for one image */
    int memory_bound;       /* 1: DRAM bandwidth binds, 0: compute */
} answer;

/* conv-bn-relu twice with 2x2 max pooling, then a linear classifier. */
static rfl_result build(void) {
    rfl_tensor x;
    rfl_result r = rfl_net_init(&net, layers, MAX_LAYERS, NULL, 0);
    if (r != RFL_OK) return r;
    x = rfl_input(&net, 3, 32, 32);
    x = rfl_act(&net, rfl_batchnorm(&net, rfl_conv(&net, x, 16, 3, 1, 1)), RFL_ACT_RELU);
    x = rfl_maxpool(&net, x, 2, 2, 0, 0);
    x = rfl_act(&net, rfl_batchnorm(&net, rfl_conv(&net, x, 32, 3, 1, 1)), RFL_ACT_RELU);
    x = rfl_maxpool(&net, x, 2, 2, 0, 0);
    x = rfl_flatten(&net, rfl_adaptive_avgpool(&net, x, 1, 1));
    rfl_linear(&net, x, 10, 1);
    return net.err; /* builder errors are sticky: one check at the end */
}

int main(void) {
    rfl_cost_desc desc = {0}; /* batch 1, fp32, inference */
    rfl_net_cost cost;
    rfl_net_prediction pred;
    rfl_bound bound;
    const rfl_machine *m;

    if (build() != RFL_OK) return 1;
    if (rfl_net_cost_get(&net, &desc, &cost) != RFL_OK) return 2;
    if (rfl_hw_find("jetson-orin-nano", &m) != RFL_OK) return 3;
    if (rfl_net_predict(&net, &desc, m, &pred) != RFL_OK) return 4;

    answer.mac_flops = cost.fwd_mac_flops;
    answer.flops = cost.fwd_flops;
    answer.bytes = cost.fwd_bytes;
    answer.ai = rfl_work_ai(&cost.forward, RFL_DRAM);
    answer.attainable = rfl_work_attainable(m, &cost.forward, RFL_FP32, &bound);
    answer.time_s = pred.whole.time_s;
    answer.memory_bound = bound.memory;

    /* By hand: conv1 2 x (16 x 32 x 32) outputs x (3 x 3 x 3) = 884,736;
       conv2 2 x (32 x 16 x 16) x (16 x 3 x 3) = 2,359,296; linear
       2 x 32 x 10 = 640. A different count means a broken build. */
    return answer.mac_flops == 884736u + 2359296u + 640u ? 0 : 5;
}
