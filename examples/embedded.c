/* embedded.c - the estimator running on the microcontroller it estimates
   for: static buffers only, no heap, no libm, no stdio in the library.

   The model is DS-CNN-S, the small depthwise-separable keyword spotter of
   "Hello Edge: Keyword Spotting on Microcontrollers" (Zhang, Suda, Lai,
   Chandra, 2017; arXiv:1711.07128), as its reference code builds it
   (ARM-software/ML-KWS-for-MCU: train_commands.txt, DS_CNN1, model_size_info
   5 64 10 4 2 2 64 3 3 1 1 x 4, 10 MFCCs, 40 ms windows, 20 ms stride;
   models.py, create_ds_cnn_model: SAME padding, batchnorm with relu):
	 input   1 x 49 x 10  MFCC: 49 frames of 40 ms every 20 ms over 1 s,
						  10 coefficients each
	 conv1   64 filters 10 x 4, stride 2 x 2, SAME padding -> 64 x 25 x 5,
			 batchnorm, relu
	 4 x     depthwise 3 x 3 (64 groups) stride 1 SAME, batchnorm, relu,
			 pointwise 1 x 1 64 -> 64, batchnorm, relu
	 avgpool 25 x 5 -> 64, linear 64 -> 12 (10 words, silence, unknown)
   SAME padding of 10 x 4 at stride 2 on 49 x 10 pads 9 rows and 2 columns
   in all; the builder pads symmetrically, so 5 rows and 1 column a side
   give the same 25 x 5 output and the same multiply-adds (a padded tap is
   counted as a multiply-add, as in every FLOP counter).

   MACs by hand (multiply-adds, no bias):
	 conv1       25 x 5 outputs x 64 channels x (10 x 4 x 1) = 320,000
	 depthwise   25 x 5 x 64 x (3 x 3)                       =  72,000
	 pointwise   25 x 5 x 64 x 64                            = 512,000
	 4 DS blocks 4 x (72,000 + 512,000)                      = 2,336,000
	 linear      64 x 12                                     =     768
	 total                                                     2,656,768
   = 5,313,536 FLOPs at 2 per multiply-add; the paper gives 5.4 M
   operations for DS-CNN-S (its count adds the bias, batchnorm and relu
   work). Parameters: conv1 64 x 40 + 64, dw 64 x 9 + 64, pw 64 x 64 + 64,
   fc 64 x 12 + 12, 9 batchnorms of 2 x 64: 2,624 + 4 x (640 + 4,160) + 780
   + 1,152 = 23,756. main returns 5 when the library's counts differ.

   The machine is the caller's own, an STM32F407 at 168 MHz (rfl_machine,
   no hardware table):
	 FP32 peak 168 MFLOP/s: the Cortex-M4 FPU (single precision) issues
	   VADD.F32 and VMUL.F32 in 1 cycle, VFMA.F32 in 3 (Cortex-M4 Technical
	   Reference Manual r0p1, ARM DDI 0439B, table 7-1 "FPU instruction
	   set"): 1 FLOP per cycle x 168 MHz (the STM32F407 datasheet, DS8626:
	   "up to 168 MHz").
	 INT8 peak 672 MOP/s: SMLAD does two 16 x 16 multiply-adds per cycle
	   (TRM table 3-1), 4 operations x 168 MHz; int8 kernels (CMSIS-NN)
	   widen int8 to int16 and use it.
	 bandwidth 672 MB/s: one 32-bit load per cycle (LDM: 1 + N cycles for
	   N words, TRM table 3-1) over the 32-bit AHB bus matrix at 168 MHz
	   (RM0090 section 2.1). Weights in flash are slower when the ART
	   accelerator misses: 128-bit lines with 5 wait states at 168 MHz
	   (RM0090 table 10) give 16 B per 6 cycles = 448 MB/s; the roof uses
	   the bus, an upper bound.

   The report goes into a buffer of REPORT_SIZE bytes (too small: main
   says how many it needs and returns 6) and out through the caller's
   write function: ARM semihosting on the board (tests/arm/startup.c), the
   C library's stdout on a host. Both print the same lines
   (tests/steps/m4.sh compares them).

   Host:   make build/examples/embedded && build/examples/embedded
   Board:  make m4 (qemu-system-arm -M mps2-an386, a Cortex-M4; mk/m4.mk) */
#define RFL_NO_STDIO    /* the core configuration: no <stdio.h> ...  */
#define RFL_NO_HW_TABLE /* ... our own machine, not the table ... */
#define RFL_NO_ZOO      /* ... no torchvision models ... */
#define RFL_NO_REDUCE   /* ... no profile reader ... */
#define RFL_NO_CHART    /* ... no chart, no PNG, no libm */
#define RFL_NO_LLM
#define RFL_NO_ONNX
#define RFL_NO_MACHINE_FILE
#define RFL_NO_PROBE
#define ROOFLINE_STATIC /* static functions: the unused ones vanish */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"

/* The board: bare-metal ARM (arm-none-eabi) unless told otherwise. */
#if !defined(EMB_HOST) && (defined(EMB_BOARD) || (defined(__arm__) && !defined(__linux__)))
void rfl_board_write(const char *s, size_t n); /* tests/arm/startup.c */
#define EMB_WRITE rfl_board_write
#else
#include <stdio.h>
static void host_write(const char *s, size_t n) {
	fwrite(s, 1, n, stdout);
	fflush(stdout);
}
#define EMB_WRITE host_write
#endif

#ifndef REPORT_SIZE
#define REPORT_SIZE 3072 /* the report below needs 2,687 bytes */
#endif
#define MAX_LAYERS 40    /* DS-CNN-S has 32 records */
#define DS_CNN_S_MACS 2656768u /* derived by hand above */
#define DS_CNN_S_PARAMS 23756u

static rfl_layer layers[MAX_LAYERS];
static rfl_net net;
static char report[REPORT_SIZE];

/* ---- the model ---------------------------------------------------------- */
static rfl_tensor conv_bn_relu(rfl_tensor x, const rfl_conv_desc *d, const char *name) {
	x = rfl_layer_name(&net, rfl_conv_ex(&net, x, d), name);
	return rfl_act(&net, rfl_batchnorm(&net, x), RFL_ACT_RELU);
}

static rfl_result build_ds_cnn_s(void) {
	static const char *const dw_names[4] = {"dw1", "dw2", "dw3", "dw4"};
	static const char *const pw_names[4] = {"pw1", "pw2", "pw3", "pw4"};
	rfl_conv_desc d;
	rfl_tensor x;
	int i;
	rfl_result r = rfl_net_init(&net, layers, MAX_LAYERS, NULL, 0);
	if (r != RFL_OK) return r;
	x = rfl_input(&net, 1, 49, 10);
	RFL_MEMSET(&d, 0, sizeof d);
	d.out_channels = 64, d.kernel_h = 10, d.kernel_w = 4;
	d.stride_h = 2, d.stride_w = 2, d.pad_h = 5, d.pad_w = 1, d.bias = 1;
	x = conv_bn_relu(x, &d, "conv1");
	for (i = 0; i < 4; i++) {
		RFL_MEMSET(&d, 0, sizeof d);
		d.out_channels = 64, d.kernel_h = 3, d.kernel_w = 3, d.pad_h = 1, d.pad_w = 1;
		d.groups = 64, d.bias = 1;
		x = conv_bn_relu(x, &d, dw_names[i]);
		d.kernel_h = 1, d.kernel_w = 1, d.pad_h = 0, d.pad_w = 0, d.groups = 1;
		x = conv_bn_relu(x, &d, pw_names[i]);
	}
	x = rfl_flatten(&net, rfl_adaptive_avgpool(&net, x, 1, 1));
	rfl_layer_name(&net, rfl_linear(&net, x, 12, 1), "fc");
	return net.err.code; /* builder errors are sticky: one check at the end */
}

/* ---- the machine ---------------------------------------------------------- */
static void stm32f407(rfl_machine *m) {
	RFL_MEMSET(m, 0, sizeof *m);
	m->id = "stm32f407";
	m->name = "STM32F407 (Cortex-M4F, 168 MHz)";
	m->aliases = "";
	m->kind = RFL_KIND_CPU;
	m->peak_flops[RFL_FP32] = 168e6;      /* 1 FLOP/cycle (VADD, VMUL) */
	m->peak_flops[RFL_INT8_TENSOR] = 672e6; /* SMLAD: 4 ops/cycle */
	m->bw_bytes_per_s[RFL_DRAM] = 672e6;  /* 4 bytes/cycle, 32-bit bus */
	m->mem_bytes = 192.0 * 1024;          /* SRAM */
	m->units = 1;
	m->boost_mhz = 168;
	m->source = "Cortex-M4 TRM (DDI 0439B) tables 3-1, 7-1; STM32F407 DS8626; RM0090";
}

/* ---- a report in a caller buffer ------------------------------------------ */
typedef struct out_buf {
	char *p;
	size_t size, len; /* len counts what did not fit too: the size needed */
} out_buf;

static void put(out_buf *o, const char *s) {
	for (; *s; s++, o->len++)
		if (o->len + 1 < o->size) o->p[o->len] = *s;
	if (o->size) o->p[o->len + 1 < o->size ? o->len : o->size - 1] = 0;
}
/* s right-aligned (width > 0) or left-aligned (width < 0) in |width| */
static void put_col(out_buf *o, const char *s, int width) {
	int n = (int)rfl__strlen(s), w = width < 0 ? -width : width;
	if (width > 0) for (; n < w; n++) put(o, " ");
	put(o, s);
	if (width < 0) for (; n < w; n++) put(o, " ");
}
static void put_u64(out_buf *o, uint64_t v, int width) {
	char b[24];
	rfl_fmt_u64(b, sizeof b, v);
	put_col(o, b, width);
}
static void put_num(out_buf *o, double v, int sig, int width) {
	char b[32];
	rfl_fmt_num(b, sizeof b, v, sig);
	put_col(o, b, width);
}

static const char *op_label(unsigned op) {
	switch (op) {
	case RFL_OP_ACT: return "relu"; /* the only activation here */
	case RFL_OP_ADAPTIVE_AVGPOOL: return "avgpool";
	default: return rfl_op_name((rfl_op)op);
	}
}

/* One row per layer that computes or moves something. */
static rfl_result put_layers(out_buf *o, const rfl_cost_desc *desc, const rfl_machine *m) {
	int i;
	put(o, "layer     op               FLOPs      bytes  FLOP/B  bound     time_us\n");
	for (i = 0; i < net.count; i++) {
		rfl_layer_cost c;
		rfl_work w;
		rfl_prediction p;
		rfl_result r = rfl_layer_cost_get(&net, i, desc, &c);
		if (r == RFL_OK) r = rfl_layer_work(&net, i, desc, &w, NULL);
		if (r == RFL_OK) r = rfl_layer_predict(&net, i, desc, m, &p);
		if (r != RFL_OK) return r;
		if (c.fwd_flops == 0 && c.fwd_bytes == 0) continue; /* input, views */
		put_col(o, net.layers[i].name ? net.layers[i].name : "", -9);
		put(o, " ");
		put_col(o, op_label(net.layers[i].op), -10);
		put_u64(o, c.fwd_flops, 11);
		put_u64(o, c.fwd_bytes, 11);
		put_num(o, rfl_work_ai(&w, RFL_DRAM), 3, 8);
		put(o, p.bound.memory ? "  memory " : "  compute");
		put_num(o, p.time_s * 1e6, 4, 12);
		put(o, "\n");
	}
	return RFL_OK;
}

/* The whole model at a dtype: totals, the binding ceiling, the time. */
static rfl_result put_total(out_buf *o, const rfl_cost_desc *desc, const rfl_machine *m,
							const char *label) {
	rfl_net_cost cost;
	rfl_net_prediction pred;
	rfl_bound bound;
	rfl_prec prec;
	double att;
	rfl_result r = rfl_net_cost_get(&net, desc, &cost);
	if (r == RFL_OK) r = rfl_net_predict(&net, desc, m, &pred);
	if (r != RFL_OK) return r;
	prec = rfl_work_main_prec(&cost.forward);
	att = rfl_work_attainable(m, &cost.forward, prec, &bound);
	put(o, label);
	put(o, ": ");
	put_u64(o, cost.fwd_flops, 0);
	put(o, " FLOP, ");
	put_u64(o, cost.fwd_bytes, 0);
	put(o, " B, AI ");
	put_num(o, rfl_work_ai(&cost.forward, RFL_DRAM), 3, 0);
	put(o, " FLOP/B (ridge ");
	put_num(o, rfl_ridge(m, prec, RFL_DRAM), 3, 0);
	put(o, "), ");
	put(o, bound.memory ? "memory" : "compute");
	put(o, "-bound at ");
	put_num(o, att / 1e6, 4, 0);
	put(o, " MFLOP/s of ");
	put(o, rfl_prec_name(prec));
	put(o, "\n  predicted ");
	put_num(o, pred.whole.time_s * 1e3, 4, 0);
	put(o, " ms as one piece, ");
	put_num(o, pred.layers_s * 1e3, 4, 0);
	put(o, " ms layer by layer (");
	put_u64(o, (uint64_t)pred.compute_layers, 0);
	put(o, " compute-bound, ");
	put_u64(o, (uint64_t)pred.memory_layers, 0);
	put(o, " memory-bound layers)\n");
	return RFL_OK;
}

static rfl_result put_report(out_buf *o, const rfl_machine *m, uint64_t *macs,
							 uint64_t *params) {
	rfl_cost_desc desc; /* batch 1, fp32, inference */
	rfl_net_cost cost;
	rfl_result r;
	RFL_MEMSET(&desc, 0, sizeof desc);
	if ((r = rfl_net_cost_get(&net, &desc, &cost)) != RFL_OK) return r;
	*macs = cost.fwd_mac_flops / 2;
	*params = cost.params;
	put(o, "DS-CNN-S keyword spotter (Hello Edge) on ");
	put(o, m->name);
	put(o, "\nparams ");
	put_u64(o, cost.params, 0);
	put(o, ", multiply-adds ");
	put_u64(o, *macs, 0);
	put(o, " (by hand ");
	put_u64(o, DS_CNN_S_MACS, 0);
	put(o, ")\n");
	if ((r = put_layers(o, &desc, m)) != RFL_OK) return r;
	if ((r = put_total(o, &desc, m, "fp32")) != RFL_OK) return r;
	desc.dtype = RFL_DTYPE_INT8; /* the same model quantised (CMSIS-NN) */
	return put_total(o, &desc, m, "int8");
}

static void say(const char *s) { EMB_WRITE(s, rfl__strlen(s)); }

int main(void) {
	rfl_machine m;
	out_buf o;
	uint64_t macs = 0, params = 0;
	char need[24];

	if (build_ds_cnn_s() != RFL_OK) { say("build failed\n"); return 1; }
	stm32f407(&m);
	o.p = report, o.size = sizeof report, o.len = 0;
	if (put_report(&o, &m, &macs, &params) != RFL_OK) { say("estimate failed\n"); return 2; }
	if (o.len + 1 > o.size) {
		rfl_fmt_u64(need, sizeof need, (uint64_t)(o.len + 1));
		say("REPORT_SIZE too small: the report needs ");
		say(need);
		say(" bytes\n");
		return 6;
	}
	EMB_WRITE(report, o.len);
	if (macs != DS_CNN_S_MACS || params != DS_CNN_S_PARAMS) {
		say("MISMATCH: multiply-adds or parameters differ from the hand count\n");
		return 5;
	}
	return 0;
}
