/* Tensor parallelism on one node (rfl_llm_tp_plan, rfl_llm_tp_fit_get,
   rfl_llm_tp_comm_time): every expected value is derived by hand below
   from the published config.json figures (hidden, heads, kv heads,
   head_dim, intermediate, vocab, layers) and Megatron's split: q, k, v
   and the MLP's gate / up by columns, o and down by rows, the embedding
   and the LM head by vocabulary rows, norms replicated. A decode step of
   batch 1 after 128 cached tokens (129 positions), bf16 (2 bytes). */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"

/* The plans' scratch: rfl_llm_tp_plan builds one GPU's step in it. */
static rfl_layer scratch_recs[RFL_LLM_NET_LAYERS(80)];
static rfl_net scratch;

static rfl_llm_step_desc decode128(void) {
	rfl_llm_step_desc d;
	memset(&d, 0, sizeof d);
	d.phase = RFL_LLM_DECODE, d.batch = 1, d.seq = 128, d.math = RFL_DTYPE_BF16;
	return d;
}

static rfl_llm_config model(const char *name) {
	rfl_llm_config c;
	memset(&c, 0, sizeof c);
	RT_CHECK(rfl_llm_find(name, &c) == RFL_OK);
	return c;
}

static const rfl_machine *machine(const char *id) {
	const rfl_machine *m = 0;
	RT_CHECK(rfl_hw_find(id, &m) == RFL_OK && m);
	return m;
}

/* The shard's step built and costed, as rfl-estimate --gpus does. */
static void shard_cost(const rfl_llm_tp *t, const rfl_llm_step_desc *d, rfl_net_cost *out) {
	static rfl_layer recs[RFL_LLM_NET_LAYERS(80)];
	rfl_net net;
	rfl_cost_desc cd;
	memset(out, 0, sizeof *out);
	RT_CHECK(rfl_net_init(&net, recs, RFL_LLM_NET_LAYERS(80), 0, 0) == RFL_OK);
	RT_CHECK(rfl_llm_build(&net, &t->shard, d) == RFL_OK);
	RT_CHECK(rfl_llm_cost_desc(&t->shard, d, &cd) == RFL_OK);
	RT_CHECK(rfl_net_cost_get(&net, &cd, out) == RFL_OK);
}

/* Llama-2-7B (hidden 4096, 32 layers, 32 heads = 32 kv heads of 128,
   intermediate 11008, vocab 32000, untied, RMSNorm) on 2 GPUs. */
static void test_llama2_7b_on_2(void) {
	rfl_llm_config c = model("llama-2-7b");
	rfl_llm_step_desc d = decode128();
	rfl_llm_tp t;
	rfl_net_cost k;
	RT_EQ_INT(c.hidden, 4096); RT_EQ_INT(c.intermediate, 11008); RT_EQ_INT(c.vocab, 32000);
	RT_CHECK(rfl_llm_tp_plan(&c, &d, 2, &scratch, &t) == RFL_OK);
	RT_EQ_INT(t.shard.heads, 16);
	RT_EQ_INT(t.shard.kv_heads, 16);
	RT_EQ_INT(t.shard.intermediate, 5504);
	RT_EQ_INT(t.shard.vocab, 16000);
	RT_EQ_INT(t.shard.hidden, 4096); /* the residual stream is whole on every GPU */
	/* params per GPU: per layer q, k, v, o 4 x 4096 x 2048 = 33,554,432,
	   gate, up, down 3 x 4096 x 5504 = 67,633,152, two norms 8,192:
	   101,195,776 x 32 = 3,238,264,832; embedding and LM head 2 x 16000 x
	   4096 = 131,072,000; the final norm 4,096 */
	shard_cost(&t, &d, &k);
	RT_EQ_U64(k.params, 3369340928ull);
	RT_EQ_U64(t.weight_bytes, 2 * 3369340928ull);
	RT_EQ_U64(k.param_bytes, t.weight_bytes);
	/* mac FLOPs per GPU: 2 x the matrices' weights a token passes,
	   32 x 2 x (33,554,432 + 67,633,152) + 2 x 65,536,000 (LM head) =
	   6,607,077,376; attention, eager: QK^T and AV, 2 x 2 x 16 heads x
	   128 x 129 positions x 32 layers = 33,816,576; rotary's table: 2 x
	   64 x 1 = 128 */
	RT_EQ_U64(k.fwd_mac_flops, 6607077376ull + 33816576ull + 128);
	/* weight bytes read: the matrices (32 x 101,187,584 + 65,536,000) x 2
	   = 6,607,077,376, the norms (32 x 8,192 + 4,096) x 2 = 532,480, one
	   embedding row 4096 x 2 = 8,192 */
	RT_EQ_U64(k.fwd_weight_bytes, 6607077376ull + 532480 + 8192);
	/* KV cache read: 129 positions x K and V x 16 heads x 128 x 32 layers
	   x 2 bytes = 33,816,576; written: 1 position = 262,144 */
	RT_EQ_U64(k.fwd_kv_read_bytes, 33816576ull);
	RT_EQ_U64(k.fwd_kv_write_bytes, 262144);
	RT_EQ_U64(t.kv_bytes, 33816576ull);
	/* all-reduces: 2 per layer + the vocab-parallel embedding's; each of
	   1 token x 4096 x 2 bytes; the logits gathered: 32000 x 2 bytes */
	RT_EQ_INT(t.allreduces_per_layer, 2);
	RT_EQ_U64(t.allreduces, 2 * 32 + 1);
	RT_EQ_U64(t.allreduce_bytes, 8192);
	RT_EQ_U64(t.gathers, 1);
	RT_EQ_U64(t.gather_bytes, 64000);
	/* activations: the residual 4096 + the widest of q, k, v (16 + 32) x
	   128 = 6144, gate and up 2 x 5504, scores 16 x 129, logits 16000:
	   (4096 + 16000) x 2 bytes */
	RT_EQ_U64(t.act_bytes, (4096 + 16000) * 2);
	/* one GPU: the model itself, nothing to reduce */
	RT_CHECK(rfl_llm_tp_plan(&c, &d, 1, &scratch, &t) == RFL_OK);
	RT_EQ_U64(t.weight_bytes, 2 * 6738415616ull); /* Llama-2-7B: 6,738,415,616 params */
	RT_EQ_U64(t.allreduces, 0);
	RT_EQ_U64(t.gathers, 0);
}

/* Llama-3-70B (hidden 8192, 80 layers, 64 heads, 8 kv heads of 128,
   intermediate 28672, vocab 128256) on 8: one kv head per GPU. */
static void test_llama3_70b_on_8(void) {
	rfl_llm_config c = model("llama-3-70b");
	rfl_llm_step_desc d = decode128();
	rfl_llm_tp t;
	rfl_net_cost k;
	RT_CHECK(rfl_llm_tp_plan(&c, &d, 8, &scratch, &t) == RFL_OK);
	RT_EQ_INT(t.shard.heads, 8);
	RT_EQ_INT(t.shard.kv_heads, 1);
	RT_EQ_INT(t.shard.intermediate, 3584);
	RT_EQ_INT(t.shard.vocab, 16032);
	/* per layer: q 8192 x 1024, k and v 8192 x 128, o 1024 x 8192 =
	   18,874,368; MLP 3 x 8192 x 3584 = 88,080,384; norms 16,384:
	   106,971,136 x 80 = 8,557,690,880; embedding and head 2 x 16032 x
	   8192 = 262,668,288; final norm 8,192 */
	shard_cost(&t, &d, &k);
	RT_EQ_U64(k.params, 8820367360ull);
	RT_EQ_U64(t.weight_bytes, 2 * 8820367360ull);
	/* mac: 2 x 80 x (18,874,368 + 88,080,384) + 2 x 131,334,144 =
	   17,375,428,608; attention 2 x 2 x 8 heads x 128 x 129 x 80 =
	   42,270,720; rotary 128 */
	RT_EQ_U64(k.fwd_mac_flops, 17375428608ull + 42270720ull + 128);
	/* KV: 129 x 2 x 1 x 128 x 80 x 2 bytes */
	RT_EQ_U64(t.kv_bytes, 5283840ull);
	RT_EQ_U64(t.allreduces, 2 * 80 + 1);
	RT_EQ_U64(t.allreduce_bytes, 8192 * 2);
	RT_EQ_U64(t.gather_bytes, 128256ull * 2);
}

/* Qwen2.5-1.5B: 12 heads, 2 kv heads, on 4 GPUs: each kv head lives on 2
   GPUs, so every GPU holds one and the cache per GPU is half the model's. */
static void test_replicated_kv(void) {
	rfl_llm_config c = model("qwen2.5-1.5b");
	rfl_llm_step_desc d = decode128();
	rfl_llm_tp t;
	RT_EQ_INT(c.heads, 12); RT_EQ_INT(c.kv_heads, 2); RT_EQ_INT(c.layers, 28); RT_EQ_INT(c.head_dim, 128);
	RT_CHECK(rfl_llm_tp_plan(&c, &d, 4, &scratch, &t) == RFL_OK);
	RT_EQ_INT(t.shard.heads, 3);
	RT_EQ_INT(t.shard.kv_heads, 1);
	/* 129 positions x K and V x 1 head x 128 x 28 layers x 2 bytes */
	RT_EQ_U64(t.kv_bytes, 129ull * 2 * 128 * 28 * 2);
	/* per GPU: q 1536 x 384 + bias 384, k and v 1536 x 128 + 128 each, o
	   384 x 1536: 1,573,504; MLP 3 x 1536 x 2240 = 10,321,920; norms
	   3,072: 11,898,496 x 28 = 333,157,888; the tied table 37984 x 1536 =
	   58,343,424 (once); final norm 1,536 */
	RT_EQ_U64(t.weight_bytes, 2 * 391502848ull);
}

/* Experts keep their count and split their width: Mixtral-8x7B on 2. */
static void test_experts(void) {
	rfl_llm_config c = model("mixtral-8x7b");
	rfl_llm_step_desc d = decode128();
	rfl_llm_tp t;
	RT_CHECK(rfl_llm_tp_plan(&c, &d, 2, &scratch, &t) == RFL_OK);
	RT_EQ_INT(t.shard.experts, 8);
	RT_EQ_INT(t.shard.intermediate, 7168);
	/* per layer: q 4096 x 2048, k and v 4096 x 512, o 2048 x 4096 =
	   20,971,520; router 4096 x 8 = 32,768 (whole); experts 8 x 3 x 4096
	   x 7168 = 704,643,072; norms 8,192: 725,655,552 x 32 =
	   23,220,977,664; embedding and head 2 x 16000 x 4096 = 131,072,000;
	   final norm 4,096 */
	RT_EQ_U64(t.weight_bytes, 2 * 23352053760ull);
}

/* A parallel residual sums attention and MLP before one all-reduce. */
static void test_parallel_residual(void) {
	rfl_llm_config c = model("llama-2-7b");
	rfl_llm_step_desc d = decode128();
	rfl_llm_tp t;
	c.parallel = 1;
	RT_CHECK(rfl_llm_tp_plan(&c, &d, 4, &scratch, &t) == RFL_OK);
	RT_EQ_INT(t.allreduces_per_layer, 1);
	RT_EQ_U64(t.allreduces, 32 + 1);
}

/* A prefill: messages of every token; logits of the last position only,
   or of every one. */
static void test_prefill_messages(void) {
	rfl_llm_config c = model("llama-2-7b");
	rfl_llm_step_desc d = decode128();
	rfl_llm_tp t;
	d.phase = RFL_LLM_PREFILL, d.batch = 4, d.seq = 512;
	RT_CHECK(rfl_llm_tp_plan(&c, &d, 2, &scratch, &t) == RFL_OK);
	RT_EQ_U64(t.allreduce_bytes, 4ull * 512 * 4096 * 2);
	RT_EQ_U64(t.gather_bytes, 4ull * 1 * 32000 * 2);
	d.logits_all = 1;
	RT_CHECK(rfl_llm_tp_plan(&c, &d, 2, &scratch, &t) == RFL_OK);
	RT_EQ_U64(t.gather_bytes, 4ull * 512 * 32000 * 2);
}

/* 70B in bf16 (70,553,706,496 params: 141.1 GB) does not fit one 80 GB
   card; on an H100 SXM (80 GiB = 85,899,345,920 bytes, 90% usable) two
   cards hold it. */
static void test_fit(void) {
	rfl_llm_config c = model("llama-3-70b");
	rfl_llm_step_desc d = decode128();
	rfl_llm_tp_fit f;
	const rfl_machine *h100 = machine("h100-sxm"), *a100 = machine("a100-sxm4-80gb"), *rtx = machine("rtx-4090");
	double mem = 85899345920.0;
	RT_CHECK(rfl_llm_tp_fit_get(&c, &d, h100, 0, &scratch, &f) == RFL_OK);
	RT_NEAR(f.mem_fraction, 0.9, 0);
	RT_NEAR(f.mem_bytes, mem, 0);
	RT_EQ_INT(f.rows[0].gpus, 1); RT_EQ_INT(f.rows[3].gpus, 8);
	RT_CHECK(!f.rows[0].fits);
	RT_CHECK(f.rows[0].bytes >= 141107412992ull); /* 2 x 70,553,706,496 of weights alone */
	RT_EQ_U64(f.rows[0].max_batch_in_memory, 0);
	RT_CHECK(f.rows[1].fits);
	RT_EQ_INT(f.smallest_gpus, 2);
	/* N = 2: per layer (855,654,400 - 16,384 norms) / 2 + 16,384 =
	   427,835,392 x 80 + 2 x 64128 x 8192 + 8192 = 35,277,512,704 params,
	   x 2 bytes; one sequence's cache 129 x 2 x 4 x 128 x 80 x 2 =
	   21,135,360: (85,899,345,920 - 70,555,025,408) / 21,135,360 = 726.002 */
	RT_EQ_U64(f.rows[1].max_batch_in_memory, 726);
	/* all of the memory does not hold it on one card either; 45% of it
	   (38.7 GB) holds a quarter (35.3 GB of weights) but not a half */
	RT_CHECK(rfl_llm_tp_fit_get(&c, &d, h100, 1.0, &scratch, &f) == RFL_OK && f.smallest_gpus == 2);
	RT_CHECK(rfl_llm_tp_fit_get(&c, &d, h100, 0.45, &scratch, &f) == RFL_OK && f.smallest_gpus == 4);
	/* a 4-GPU workstation: 8 is beyond its node; 24 GB cards never hold 70B */
	RT_CHECK(rfl_llm_tp_fit_get(&c, &d, rtx, 0, &scratch, &f) == RFL_OK);
	RT_EQ_INT(f.rows[3].split, RFL_ERR_ARG);
	RT_EQ_INT(f.smallest_gpus, 0);
	/* Llama-2-7B on one A100 80GB: (85,899,345,920 - 13,476,831,232) /
	   (129 x 2 x 32 x 128 x 32 x 2 = 67,633,152) = 1070.8; the same rule as
	   rfl_llm_step_figures (rfl_llm_figures.max_batch_in_memory) */
	c = model("llama-2-7b");
	RT_CHECK(rfl_llm_tp_fit_get(&c, &d, a100, 0, &scratch, &f) == RFL_OK);
	RT_EQ_INT(f.smallest_gpus, 1);
	RT_EQ_U64(f.rows[0].max_batch_in_memory, 1070);
	/* qwen2.5-7b's 28 heads do not split over 8 */
	c = model("qwen2.5-7b");
	RT_CHECK(rfl_llm_tp_fit_get(&c, &d, h100, 0, &scratch, &f) == RFL_OK);
	RT_EQ_INT(f.rows[3].split, RFL_ERR_SHAPE);
	RT_CHECK(!f.rows[3].fits);
	RT_CHECK(rfl_llm_tp_fit_get(&c, &d, h100, 1.5, &scratch, &f) == RFL_ERR_ARG);
}

/* The all-reduces on a machine typed here: a ring of N GPUs makes 2 (N - 1)
   steps of the link's latency and moves 2 (N - 1) / N of the message. */
static void test_comm(void) {
	rfl_llm_config c = model("llama-2-7b");
	rfl_llm_step_desc d = decode128();
	rfl_llm_tp t;
	rfl_llm_tp_comm cm;
	rfl_link l;
	rfl_machine m;
	memset(&l, 0, sizeof l);
	memset(&m, 0, sizeof m);
	l.kind = RFL_LINK_NVLINK, l.gen = 3, l.gpus_per_node = 8, l.bw_bytes_per_s = 100e9, l.latency_s = 1e-6;
	m.id = "typed", m.link = &l, m.mem_bytes = 80e9;
	RT_CHECK(rfl_llm_tp_plan(&c, &d, 2, &scratch, &t) == RFL_OK);
	RT_CHECK(rfl_llm_tp_comm_time(&t, &m, RFL_LINK_UNKNOWN, 0, &cm) == RFL_OK);
	RT_CHECK(cm.link == &l && !cm.link_from_table);
	RT_STR(cm.allreduce.algorithm, "ring");
	RT_EQ_INT(cm.allreduce.basis, RFL_AR_DATASHEET);
	/* 2 steps x 1 us + 8192 bytes / 100 GB/s; the logits: 64000 bytes */
	RT_NEAR(cm.allreduce.time_s, 2e-6 + 8192 / 100e9, 1e-12);
	RT_NEAR(cm.gather.time_s, 2e-6 + 64000 / 100e9, 1e-12);
	RT_NEAR(cm.comm_s, 65 * (2e-6 + 8192 / 100e9) + 2e-6 + 64000 / 100e9, 1e-12);
	/* on 8: 14 steps, 14 / 8 of the message */
	RT_CHECK(rfl_llm_tp_plan(&c, &d, 8, &scratch, &t) == RFL_OK);
	RT_CHECK(rfl_llm_tp_comm_time(&t, &m, RFL_LINK_UNKNOWN, 0, &cm) == RFL_OK);
	RT_NEAR(cm.allreduce.time_s, 14e-6 + 14.0 / 8 * 8192 / 100e9, 1e-12);
	/* one node only: 8 GPUs on a node of 4 */
	l.gpus_per_node = 4;
	RT_EQ_INT(rfl_llm_tp_comm_time(&t, &m, RFL_LINK_UNKNOWN, 0, &cm), RFL_ERR_ARG);
	/* no link known */
	m.link = 0;
	RT_EQ_INT(rfl_llm_tp_comm_time(&t, &m, RFL_LINK_UNKNOWN, 0, &cm), RFL_ERR_NO_DATA);
}

/* --link: the table's row of the kind asked nearest the machine's own. */
static void test_link_override(void) {
	rfl_llm_config c = model("llama-2-7b");
	rfl_llm_step_desc d = decode128();
	rfl_llm_tp t;
	rfl_llm_tp_comm cm;
	const rfl_machine *a100 = machine("a100-sxm4-80gb"), *h100p = machine("h100-pcie"),
					  *v100p = machine("v100-pcie"), *mi300 = machine("mi300x");
	RT_CHECK(rfl_llm_tp_plan(&c, &d, 2, &scratch, &t) == RFL_OK);
	/* A100 SXM's NVLink 3 -> PCIe 4 (A100's host bus), 32 GB/s each way */
	RT_CHECK(rfl_llm_tp_comm_time(&t, a100, RFL_LINK_PCIE, 0, &cm) == RFL_OK);
	RT_CHECK(cm.link_from_table && cm.link->kind == RFL_LINK_PCIE && cm.link->gen == 4);
	RT_EQ_INT(cm.link->gpus_per_node, 8);
	RT_NEAR(cm.allreduce.time_s, 2 * 1.0e-6 + 8192 / 32e9, 1e-12);
	/* asking for its own kind keeps its own */
	RT_CHECK(rfl_llm_tp_comm_time(&t, a100, RFL_LINK_NVLINK, 0, &cm) == RFL_OK);
	RT_CHECK(!cm.link_from_table && cm.link == a100->link);
	/* H100 PCIe (PCIe 5) -> NVLink 4 on an 8-GPU board (not the NVL pair) */
	RT_CHECK(rfl_llm_tp_comm_time(&t, h100p, RFL_LINK_NVLINK, 0, &cm) == RFL_OK);
	RT_CHECK(cm.link->gen == 4 && cm.link->gpus_per_node == 8);
	/* V100 PCIe (PCIe 3) -> NVLink 2 */
	RT_CHECK(rfl_llm_tp_comm_time(&t, v100p, RFL_LINK_NVLINK, 0, &cm) == RFL_OK);
	RT_EQ_INT(cm.link->gen, 2);
	/* Infinity Fabric has no generation to match a PCIe row to */
	RT_EQ_INT(rfl_llm_tp_comm_time(&t, mi300, RFL_LINK_PCIE, 0, &cm), RFL_ERR_NO_DATA);
}

/* The plan's weights are those of one GPU's step as built on its own
   (rfl_net_cost.param_bytes), and the plan leaves that step in its net,
   for every built-in model
   on 1 and 2 GPUs, at bf16 and with int4 weights, and for variants:
   experts with dense layers among them, biases, a tied table, a parallel
   residual. */
static void weights_as_built(const rfl_llm_config *c, const rfl_llm_step_desc *d, uint32_t n) {
	static rfl_layer recs[RFL_LLM_NET_LAYERS(80)];
	rfl_llm_tp t;
	rfl_net net;
	rfl_cost_desc cd;
	rfl_net_cost k;
	if (!RT_CHECK(RFL_LLM_NET_LAYERS(c->layers) <= RFL_LLM_NET_LAYERS(80))) return;
	if (rfl_llm_tp_plan(c, d, n, &scratch, &t) != RFL_OK) return; /* gpt2-xl: 25 heads */
	RT_CHECK(rfl_net_init(&net, recs, RFL_LLM_NET_LAYERS(80), 0, 0) == RFL_OK);
	RT_CHECK(rfl_llm_build(&net, &t.shard, d) == RFL_OK);
	RT_CHECK(rfl_llm_cost_desc(&t.shard, d, &cd) == RFL_OK);
	RT_CHECK(rfl_net_cost_get(&net, &cd, &k) == RFL_OK);
	RT_EQ_U64(t.weight_bytes, k.param_bytes);
	RT_EQ_INT(scratch.count, net.count); /* the plan left the shard's step in its net */
}

static void test_weights_as_built(void) {
	rfl_llm_step_desc d = decode128(), q = decode128();
	rfl_llm_config c;
	uint32_t n;
	int i;
	q.weights = RFL_DTYPE_INT4;
	for (i = 0; i < rfl_llm_count(); i++)
		for (n = 1; n <= 2; n++) {
			c = model(rfl_llm_name(i));
			weights_as_built(&c, &d, n);
			weights_as_built(&c, &q, n);
		}
	c = model("mixtral-8x7b");
	c.layer_dense[0] = 0x21; /* layers 0 and 5 */
	weights_as_built(&c, &d, 2);
	weights_as_built(&c, &q, 2);
	c = model("llama-3.2-1b");
	c.qkv_bias = c.o_bias = c.mlp_bias = 1, c.tied = 0, c.parallel = 1;
	weights_as_built(&c, &d, 4);
	weights_as_built(&c, &q, 4);
}

static void test_errors(void) {
	rfl_llm_config c = model("qwen2.5-7b");
	rfl_llm_step_desc d = decode128();
	rfl_llm_tp t;
	/* 28 heads over 8 */
	RT_EQ_INT(rfl_llm_tp_plan(&c, &d, 8, &scratch, &t), RFL_ERR_SHAPE);
	RT_STR(t.err.where, "num_attention_heads");
#ifndef RFL_NO_ERROR_STRINGS
	RT_CHECK(strstr(t.err.msg, "28") && strstr(t.err.msg, "8 GPUs"));
#endif
	/* 48 heads, 12 kv heads over 8: 12 neither splits over 8 nor divides it */
	c = model("llama-2-7b");
	c.heads = 48, c.kv_heads = 12;
	RT_EQ_INT(rfl_llm_tp_plan(&c, &d, 8, &scratch, &t), RFL_ERR_SHAPE);
	RT_STR(t.err.where, "num_key_value_heads");
	/* a width of 11004 over 8 */
	c = model("llama-2-7b");
	c.intermediate = 11004;
	RT_EQ_INT(rfl_llm_tp_plan(&c, &d, 8, &scratch, &t), RFL_ERR_SHAPE);
	RT_STR(t.err.where, "intermediate_size");
	RT_EQ_INT(rfl_llm_tp_plan(&c, &d, 4, &scratch, &t), RFL_OK); /* 11004 = 4 x 2751 */
	c = model("mixtral-8x7b");
	c.moe_intermediate = 1404;
	RT_EQ_INT(rfl_llm_tp_plan(&c, &d, 8, &scratch, &t), RFL_ERR_SHAPE);
	RT_STR(t.err.where, "moe_intermediate_size");
	/* GPT-2 names its fields its way: 12 heads over 8 */
	c = model("gpt2");
	RT_EQ_INT(rfl_llm_tp_plan(&c, &d, 8, &scratch, &t), RFL_ERR_SHAPE);
	RT_STR(t.err.where, "n_head");
	/* its vocabulary of 50257 does not split: padded to 25129 a GPU */
	RT_EQ_INT(rfl_llm_tp_plan(&c, &d, 2, &scratch, &t), RFL_OK);
	RT_EQ_INT(t.shard.vocab, 25129);
	RT_EQ_U64(t.gather_bytes, 2 * 25129 * 2);
	/* no GPUs, no config */
	RT_EQ_INT(rfl_llm_tp_plan(&c, &d, 0, &scratch, &t), RFL_ERR_ARG);
	RT_EQ_INT(rfl_llm_tp_plan(0, &d, 2, &scratch, &t), RFL_ERR_ARG);
	RT_EQ_INT(rfl_llm_tp_plan(&c, &d, 2, &scratch, 0), RFL_ERR_ARG);
	RT_EQ_INT(rfl_llm_tp_plan(&c, &d, 2, 0, &t), RFL_ERR_ARG); /* no records to build in */
}

int main(void) {
	rfl_net_init(&scratch, scratch_recs, RFL_LLM_NET_LAYERS(80), 0, 0);
	test_llama2_7b_on_2();
	test_llama3_70b_on_8();
	test_replicated_kv();
	test_experts();
	test_parallel_residual();
	test_prefill_messages();
	test_fit();
	test_comm();
	test_link_override();
	test_weights_as_built();
	test_errors();
	return rt_done();
}
