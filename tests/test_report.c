/* The join by layer type and a model's report (roofline.h [12] JOIN) on
   the shipped ResNet-18 capture (examples/data, one training step at
   batch 1 on an H100). Expected values come from elsewhere, never from the
   code:
   - records: torchvision's ResNet-18 has 20 convolutions (the stem, 16 in
	 the blocks, 3 downsample 1x1), 20 batch norms and one linear layer;
   - kernels: the capture's names hold 20 cudnn::bn_fw_tr and 20
	 cudnn::bn_bw kernels (40 norms); 237 kernel rows in all (counted in
	 the CSV); every kernel lands in one group;
   - the device: the capture's device__attribute_display_name is "NVIDIA
	 H100 80GB HBM3", the table's h100-sxm. */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"
#include <stdlib.h>

static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
static rfl_reduce_state st;
static rfl_layer recs[RFL_ZOO_MAX_LAYERS];
static char names[RFL_ZOO_NAMES_SIZE];
static rfl_report_model rm;

/* The capture reduced into the report's join; the device as seen at the
   first kernel. */
static char first_device[RFL_REDUCE_DEVICE_MAX];
static void on_kernel(void *user, const rfl_kernel_stat *k) {
	if (!first_device[0]) snprintf(first_device, sizeof first_device, "%s", rfl_reduce_device(&st));
	rfl_join_kernel(user, k);
}

static void test_resnet18(void) {
	const rfl_machine *hw[RFL_REPORT_MACHINES], *h100;
	rfl_net net;
	rfl_cost_desc d;
	rfl_reduce_desc rd;
	size_t len;
	char *b = rt_load("examples/data", "resnet18-b1-train-seed-raw.csv", &len);
	int n = 1, k;
	uint64_t sum = 0;
	RT_EQ_INT(rfl_hw_find("a100", &hw[0]), RFL_OK);
	RT_EQ_INT(rfl_hw_find("h100-sxm", &h100), RFL_OK);
	memset(&d, 0, sizeof d);
	d.batch = 1, d.mode = RFL_MODE_TRAIN;
	rfl_net_init(&net, recs, RFL_ZOO_MAX_LAYERS, names, sizeof names);
	RT_EQ_INT(rfl_zoo_build(&net, "resnet18", 224), RFL_OK);
	rfl_report_init(&rm, "resnet18", RFL_GROUP_LTYPE);
	RT_STR(rm.disp, "ResNet-18");
	memset(&rd, 0, sizeof rd);
	rd.on_kernel = on_kernel, rd.user = &rm.join;
	RT_EQ_INT(rfl_reduce_init(&st, &rd, scratch, sizeof scratch), RFL_OK);
	RT_EQ_INT(rfl_reduce_push(&st, b, len), RFL_OK);
	RT_STR(first_device, "NVIDIA H100 80GB HBM3"); /* known at the first kernel */
	RT_EQ_INT(rfl_reduce_finish(&st, &rm.res), RFL_OK);
	free(b);
	rm.file = "resnet18-b1-train-seed-raw.csv";
	/* --hw a100: the H100 joins the list, said as device_mismatch */
	rfl_report_place(&rm, first_device, hw, &n, RFL_REPORT_MACHINES, 0);
	RT_EQ_INT(n, 2);
	RT_CHECK(hw[1] == h100);
	RT_EQ_INT(rm.meas_hw, 1);
	RT_EQ_INT(rm.dev_added, 1);
	RT_CHECK(strstr(rm.device_warning.text, "not among --hw") != 0);
	RT_EQ_INT(rfl_report_estimate(&rm, wl_of(&net, &d), hw, n), RFL_OK);
	RT_EQ_INT(rfl_report_compare(&rm, wl_of(&net, &d), hw), RFL_OK);
	/* the estimate's groups: records by layer type */
	RT_EQ_INT(rm.join.rows[RFL_LT_CONV].layers, 20);
	RT_EQ_INT(rm.join.rows[RFL_LT_NORM].layers, 20);
	RT_EQ_INT(rm.join.rows[RFL_LT_MATMUL].layers, 1);
	RT_STR(rfl_report_group_name(&rm.join, RFL_LT_NORM), "normalisation");
	/* the profile's: 40 batch-norm kernels, every kernel in one group */
	RT_EQ_U64(rm.join.rows[RFL_LT_NORM].meas.kernels, 40);
	for (k = 0; k < rm.join.count; k++) sum += rm.join.rows[k].meas.kernels;
	RT_EQ_U64(sum, 237);
	RT_EQ_U64(rm.join.total.meas.kernels, 237);
	RT_NEAR(rm.join.total.meas.work.time_s, rm.res.total.work.time_s, 1e-12);
	{ /* report.json: the placement's warning heads the profile's warnings,
		 an object like every document's (schema 5: no device_warning key) */
		static char doc[1 << 20];
		const rfl_report_model *ms[1];
		rfl_report rep;
		rfl_json_writer w;
		const char *p;
		ms[0] = &rm;
		memset(&rep, 0, sizeof rep);
		rep.d = &d, rep.machines = hw, rep.n_machines = n, rep.models = ms, rep.n_models = 1;
		rep.n_charts = -1;
		rfl_json_w_init(&w, doc, sizeof doc);
		rfl_report_json(&w, &rep);
		RT_EQ_INT(rfl_json_w_finish(&w), RFL_OK);
		p = strstr(doc, "\"profile\"");
		p = p ? strstr(p, "\"warnings\"") : 0;
		p = p ? strstr(p, "\"code\": \"") : 0;
		RT_CHECK(p && !strncmp(p + 9, "device_mismatch\",", 17));
		RT_CHECK(p && strstr(p, "\"text\": \"measured on 'NVIDIA H100 80GB HBM3'") != 0);
		RT_CHECK(!strstr(doc, "device_warning"));
	}
	/* a CNN's join has no LLM warnings; the ratio is measured / estimated */
	RT_EQ_INT(rm.join.warning_count, 0);
	RT_NEAR(rm.ratio, rfl_work_flops(&rm.res.total.work) / rfl_work_flops(&rm.est), 1e-12);
	/* --hw a100,h100: its own machine, no warning; no --hw: its own alone */
	n = 2;
	rfl_report_place(&rm, first_device, hw, &n, RFL_REPORT_MACHINES, 0);
	RT_EQ_INT(n, 2);
	RT_EQ_INT(rm.meas_hw, 1);
	RT_STR(rm.device_warning.text, "");
	n = 0;
	rfl_report_place(&rm, first_device, hw, &n, RFL_REPORT_MACHINES, 0);
	RT_EQ_INT(n, 1);
	RT_CHECK(hw[0] == h100);
	RT_STR(rm.device_warning.text, "");
	/* a device the table lacks: unplaced, said */
	n = 1;
	rfl_report_place(&rm, "Imaginary GPU 9000", hw, &n, RFL_REPORT_MACHINES, 0);
	RT_EQ_INT(rm.meas_hw, -1);
	RT_CHECK(strstr(rm.device_warning.text, "a device the table does not know") != 0);
}

/* The forecast by layer type (rfl_report_forecast_get) on the same step:
   - the rows are a split of the step's GPU time: they sum to it;
   - the bound rows split the step's bound (each record at the roof, as
	 rfl_net_predict), within 0.1% of the join's (which puts forward and
	 backward at the roof apart); the measured rows are the join's kernels,
	 on another machine nothing is measured (-1: null);
   - reduction holds the loss alone (ResNet-18 has no softmax record): the
	 cross-entropy PyTorch runs on the 1000 logits, 2 kernels forward
	 reading and writing 3 x 4 B per logit, 5 backward 4 x 4 B (the step
	 forecast's model of torch's log_softmax/nll, API step forecast): 7
	 fixed costs + 28,000 B at the fitted share of the DRAM bandwidth;
   - inference: no loss, no optimizer. */
static void test_forecast_types(void) {
	static rfl_report_forecast f;
	static rfl_layer s[RFL_ZOO_MAX_LAYERS];
	const rfl_machine *hw[2];
	rfl_step_terms t;
	rfl_net net;
	rfl_cost_desc d;
	double sum = 0, bsum = 0, loss;
	int k;
	RT_EQ_INT(rfl_hw_find("h100-sxm", &hw[0]), RFL_OK); /* the profile's (test_resnet18) */
	RT_EQ_INT(rfl_hw_find("a100", &hw[1]), RFL_OK);
	memset(&d, 0, sizeof d);
	d.batch = 1, d.mode = RFL_MODE_TRAIN;
	rfl_net_init(&net, recs, RFL_ZOO_MAX_LAYERS, names, sizeof names);
	RT_EQ_INT(rfl_zoo_build(&net, "resnet18", 224), RFL_OK);
	rm.meas_hw = 0;
	RT_EQ_INT(rfl_report_compare(&rm, wl_of(&net, &d), hw), RFL_OK);
	RT_EQ_INT(rfl_report_forecast_get(&f, &rm, wl_of(&net, &d), hw, 0, 0, s, net.count), RFL_OK);
	RT_EQ_INT(f.by_type, 1);
	RT_STR(f.step.runtime, "eager");
	for (k = 0; k < rm.join.count; k++) {
		const rfl_join_row *x = &rm.join.rows[k];
		RT_CHECK(f.forecast_s[k] >= 0);
		sum += f.forecast_s[k], bsum += f.bound_s[k];
		RT_NEAR(f.bound_s[k], x->fwd_time_s + x->bwd_time_s, 1e-3);
		RT_NEAR(f.measured_s[k], x->meas.work.time_s, 1e-15);
	}
	RT_NEAR(sum, f.step.gpu_time_s, 1e-9);
	RT_NEAR(bsum, f.step.bound_s, 1e-9);
	RT_CHECK(f.forecast_s[RFL_LT_CONV] > f.forecast_s[RFL_LT_NORM]); /* the convolutions dominate */
	RT_EQ_INT(rfl_step_terms_find(hw[0], &t, 0), RFL_OK);
	loss = 7 * t.kernel_s + 28000 / (t.dram_frac * hw[0]->bw_bytes_per_s[RFL_DRAM]);
	RT_NEAR(f.forecast_s[RFL_LT_REDUCTION], loss, 1e-9);
	RT_EQ_INT(rfl_report_forecast_get(&f, &rm, wl_of(&net, &d), hw, 1, 0, s, net.count), RFL_OK);
	RT_CHECK(f.measured_s[RFL_LT_CONV] < 0); /* measured on the H100 only */
	/* no scratch for the split: the step alone */
	RT_EQ_INT(rfl_report_forecast_get(&f, &rm, wl_of(&net, &d), hw, 0, 0, s, net.count - 1), RFL_ERR_BUFFER);
	RT_EQ_INT(f.by_type, 0);
	RT_CHECK(f.step.gpu_time_s > 0);
	/* inference: nothing in reduction (no loss), the rows still a split */
	d.mode = RFL_MODE_INFER, sum = 0;
	RT_EQ_INT(rfl_report_compare(&rm, wl_of(&net, &d), hw), RFL_OK);
	RT_EQ_INT(rfl_report_forecast_get(&f, &rm, wl_of(&net, &d), hw, 0, 0, s, net.count), RFL_OK);
	RT_NEAR(f.forecast_s[RFL_LT_REDUCTION], 0, 1e-15);
	for (k = 0; k < rm.join.count; k++) sum += f.forecast_s[k];
	RT_NEAR(sum, f.step.gpu_time_s, 1e-9);
	/* a CPU: no forecast terms, said */
	RT_EQ_INT(rfl_hw_find("epyc-9654", &hw[1]), RFL_OK);
	RT_EQ_INT(rfl_report_forecast_get(&f, &rm, wl_of(&net, &d), hw, 1, 0, s, net.count), RFL_ERR_NO_DATA);
	RT_EQ_INT(f.by_type, 0);
}

int main(void) {
	test_resnet18();
	test_forecast_types();
	return rt_done();
}
