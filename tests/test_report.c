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

/* The test's records under its cost desc as one value (the join and the
   report take a workload). */
static const rfl_workload *wl_of(const rfl_net *n, const rfl_cost_desc *c) {
    static rfl_workload w;
    if (!n) return 0;
    rfl_workload_of_net(&w, n, c);
    return &w;
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

int main(void) {
    test_resnet18();
    return rt_done();
}
