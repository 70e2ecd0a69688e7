# PyTorch references for the decoder families that --hf-config reads:
#   python3 families_ref.py OUT.json [smoke]
# For each model_type: a small config.json-style dict (every field that changes
# FLOPs, bytes or the cache set on purpose), built with random weights through
# transformers (nothing downloaded), eager attention and eager experts; params,
# FlopCounterMode counts by op for a prefill (LM head on every position, and on
# the last one via logits_to_keep=1) and for one decode token after a cache of
# S tokens (attends to S+1), the cache's bytes per layer after each step.
# Then the parameter count of each family's published config (values copied
# from the config.json at the URL given), instantiated on the meta device.
# The JSON is rewritten after every family, so a failure keeps the rest.
import json, os, sys, time, traceback
import torch
from torch.utils.flop_counter import FlopCounterMode
import transformers as T
from transformers import AutoModelForCausalLM
from transformers.models.auto.configuration_auto import CONFIG_MAPPING

OUT = sys.argv[1]
SMOKE_RUN = "smoke" in sys.argv[2:]
DEV = "cuda" if torch.cuda.is_available() else "cpu"
DT = torch.bfloat16
CASES = [(1, 48)] if SMOKE_RUN else [(1, 48), (1, 128), (2, 200)]
torch.backends.cuda.matmul.allow_tf32 = False

# Small configs: hidden 256, 4 heads, head_dim 96 where the family has its own
# head_dim (so head_dim != hidden / heads), GQA, vocab 1000, sliding window 64
# (the cases run 48 tokens, under the window, and 128 / 200, over it).
V, W = 1000, 64
SMALL = {
    "qwen3": dict(model_type="qwen3", vocab_size=V, hidden_size=256, intermediate_size=512,
                  num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2, head_dim=96,
                  attention_bias=False, tie_word_embeddings=False, max_position_embeddings=4096,
                  rms_norm_eps=1e-6, rope_theta=1000000.0, use_sliding_window=False),
    "qwen3-tied-bias": dict(model_type="qwen3", vocab_size=V, hidden_size=256, intermediate_size=512,
                  num_hidden_layers=3, num_attention_heads=4, num_key_value_heads=1, head_dim=96,
                  attention_bias=True, tie_word_embeddings=True, max_position_embeddings=4096,
                  rms_norm_eps=1e-6, rope_theta=1000000.0, use_sliding_window=False),
    "qwen3_moe": dict(model_type="qwen3_moe", vocab_size=V, hidden_size=256, intermediate_size=512,
                  moe_intermediate_size=128, num_hidden_layers=4, num_attention_heads=4,
                  num_key_value_heads=2, head_dim=96, num_experts=8, num_experts_per_tok=2,
                  decoder_sparse_step=2, mlp_only_layers=[0], norm_topk_prob=True,
                  attention_bias=False, tie_word_embeddings=False, max_position_embeddings=4096,
                  rms_norm_eps=1e-6, rope_theta=1000000.0, use_sliding_window=False),
    "gemma2": dict(model_type="gemma2", vocab_size=V, hidden_size=256, intermediate_size=512,
                  num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2, head_dim=96,
                  hidden_activation="gelu_pytorch_tanh", query_pre_attn_scalar=96,
                  sliding_window=W, layer_types=["sliding_attention", "full_attention"] * 2,
                  attn_logit_softcapping=50.0, final_logit_softcapping=30.0,
                  tie_word_embeddings=True, max_position_embeddings=4096, rms_norm_eps=1e-6,
                  rope_theta=10000.0, attention_bias=False),
    "gemma3_text": dict(model_type="gemma3_text", vocab_size=V, hidden_size=256, intermediate_size=512,
                  num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=1, head_dim=96,
                  hidden_activation="gelu_pytorch_tanh", query_pre_attn_scalar=96,
                  sliding_window=W,
                  layer_types=["sliding_attention", "sliding_attention", "full_attention", "sliding_attention"],
                  tie_word_embeddings=True, max_position_embeddings=4096, rms_norm_eps=1e-6,
                  rope_theta=1000000.0, rope_local_base_freq=10000.0, attention_bias=False),
    "phi3": dict(model_type="phi3", vocab_size=V, hidden_size=256, intermediate_size=512,
                  num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2,
                  sliding_window=W, tie_word_embeddings=False, max_position_embeddings=4096,
                  original_max_position_embeddings=4096, rms_norm_eps=1e-5, rope_theta=10000.0,
                  hidden_act="silu", partial_rotary_factor=1.0),
    "deepseek_v2": dict(model_type="deepseek_v2", vocab_size=V, hidden_size=256, intermediate_size=512,
                  moe_intermediate_size=96, num_hidden_layers=4, num_attention_heads=4,
                  num_key_value_heads=4, q_lora_rank=None, kv_lora_rank=64, qk_nope_head_dim=32,
                  qk_rope_head_dim=16, v_head_dim=48, n_routed_experts=8, n_shared_experts=2,
                  num_experts_per_tok=2, first_k_dense_replace=1, moe_layer_freq=1,
                  topk_method="greedy", norm_topk_prob=False, routed_scaling_factor=1.0,
                  tie_word_embeddings=False, max_position_embeddings=4096, rms_norm_eps=1e-6,
                  rope_theta=10000.0, attention_bias=False),
    "deepseek_v3": dict(model_type="deepseek_v3", vocab_size=V, hidden_size=256, intermediate_size=512,
                  moe_intermediate_size=96, num_hidden_layers=4, num_attention_heads=4,
                  num_key_value_heads=4, q_lora_rank=80, kv_lora_rank=64, qk_nope_head_dim=32,
                  qk_rope_head_dim=16, v_head_dim=48, n_routed_experts=8, n_shared_experts=1,
                  num_experts_per_tok=2, n_group=2, topk_group=1, first_k_dense_replace=2,
                  norm_topk_prob=True, routed_scaling_factor=2.5, tie_word_embeddings=False,
                  max_position_embeddings=4096, rms_norm_eps=1e-6, rope_theta=10000.0,
                  attention_bias=False),
    "olmo2": dict(model_type="olmo2", vocab_size=V, hidden_size=256, intermediate_size=512,
                  num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2,
                  attention_bias=False, tie_word_embeddings=False, max_position_embeddings=4096,
                  rms_norm_eps=1e-6, rope_theta=500000.0),
    "gpt_oss": dict(model_type="gpt_oss", vocab_size=V, hidden_size=256, intermediate_size=192,
                  num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2, head_dim=96,
                  num_local_experts=8, num_experts_per_tok=2, sliding_window=W,
                  layer_types=["sliding_attention", "full_attention"] * 2, attention_bias=True,
                  tie_word_embeddings=False, max_position_embeddings=4096, rms_norm_eps=1e-5),
    "gpt_neox": dict(model_type="gpt_neox", vocab_size=V, hidden_size=256, intermediate_size=1024,
                  num_hidden_layers=4, num_attention_heads=4, rotary_pct=0.25, rotary_emb_base=10000,
                  use_parallel_residual=True, hidden_act="gelu", tie_word_embeddings=False,
                  max_position_embeddings=2048, layer_norm_eps=1e-5, attention_bias=True),
    "gpt_neox-serial": dict(model_type="gpt_neox", vocab_size=V, hidden_size=256, intermediate_size=1024,
                  num_hidden_layers=2, num_attention_heads=4, rotary_pct=1.0, rotary_emb_base=10000,
                  use_parallel_residual=False, hidden_act="gelu", tie_word_embeddings=True,
                  max_position_embeddings=2048, layer_norm_eps=1e-5, attention_bias=False),
    "llama-3.1-rope": dict(model_type="llama", vocab_size=V, hidden_size=256, intermediate_size=512,
                  num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2, head_dim=96,
                  attention_bias=False, mlp_bias=True, tie_word_embeddings=False,
                  max_position_embeddings=131072, rms_norm_eps=1e-5, rope_theta=500000.0,
                  rope_scaling={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}),
}

# Published configs: the fields that change the parameter count, with the
# values published in the config.json at each URL (written here by hand: the
# device machine has no network). Each count this gives matches the model
# card's total; fields that change only the cache or FLOPs (sliding_window,
# rope) are best checked against the file itself before a test relies on them.
HF = "https://huggingface.co/%s/blob/main/config.json"
PUBLISHED = {
    "qwen3-0.6b": (HF % "Qwen/Qwen3-0.6B", dict(model_type="qwen3", vocab_size=151936, hidden_size=1024,
        intermediate_size=3072, num_hidden_layers=28, num_attention_heads=16, num_key_value_heads=8,
        head_dim=128, attention_bias=False, tie_word_embeddings=True, max_position_embeddings=40960,
        rms_norm_eps=1e-6, rope_theta=1000000.0)),
    "qwen3-1.7b": (HF % "Qwen/Qwen3-1.7B", dict(model_type="qwen3", vocab_size=151936, hidden_size=2048,
        intermediate_size=6144, num_hidden_layers=28, num_attention_heads=16, num_key_value_heads=8,
        head_dim=128, attention_bias=False, tie_word_embeddings=True, max_position_embeddings=40960,
        rms_norm_eps=1e-6, rope_theta=1000000.0)),
    "qwen3-4b": (HF % "Qwen/Qwen3-4B", dict(model_type="qwen3", vocab_size=151936, hidden_size=2560,
        intermediate_size=9728, num_hidden_layers=36, num_attention_heads=32, num_key_value_heads=8,
        head_dim=128, attention_bias=False, tie_word_embeddings=True, max_position_embeddings=40960,
        rms_norm_eps=1e-6, rope_theta=1000000.0)),
    "qwen3-8b": (HF % "Qwen/Qwen3-8B", dict(model_type="qwen3", vocab_size=151936, hidden_size=4096,
        intermediate_size=12288, num_hidden_layers=36, num_attention_heads=32, num_key_value_heads=8,
        head_dim=128, attention_bias=False, tie_word_embeddings=False, max_position_embeddings=40960,
        rms_norm_eps=1e-6, rope_theta=1000000.0)),
    "qwen3-30b-a3b": (HF % "Qwen/Qwen3-30B-A3B", dict(model_type="qwen3_moe", vocab_size=151936,
        hidden_size=2048, intermediate_size=6144, moe_intermediate_size=768, num_hidden_layers=48,
        num_attention_heads=32, num_key_value_heads=4, head_dim=128, num_experts=128,
        num_experts_per_tok=8, decoder_sparse_step=1, mlp_only_layers=[], norm_topk_prob=True,
        attention_bias=False, tie_word_embeddings=False, max_position_embeddings=40960,
        rms_norm_eps=1e-6, rope_theta=1000000.0)),
    "gemma-2-2b": (HF % "google/gemma-2-2b", dict(model_type="gemma2", vocab_size=256000, hidden_size=2304,
        intermediate_size=9216, num_hidden_layers=26, num_attention_heads=8, num_key_value_heads=4,
        head_dim=256, hidden_activation="gelu_pytorch_tanh", query_pre_attn_scalar=256,
        sliding_window=4096, attn_logit_softcapping=50.0, final_logit_softcapping=30.0,
        tie_word_embeddings=True, max_position_embeddings=8192, rms_norm_eps=1e-6, rope_theta=10000.0)),
    "gemma-3-1b": (HF % "google/gemma-3-1b-pt", dict(model_type="gemma3_text", vocab_size=262144,
        hidden_size=1152, intermediate_size=6912, num_hidden_layers=26, num_attention_heads=4,
        num_key_value_heads=1, head_dim=256, hidden_activation="gelu_pytorch_tanh",
        query_pre_attn_scalar=256, sliding_window=512, sliding_window_pattern=6,
        tie_word_embeddings=True, max_position_embeddings=32768, rms_norm_eps=1e-6,
        rope_theta=1000000.0, rope_local_base_freq=10000.0)),
    "phi-3-mini": (HF % "microsoft/Phi-3-mini-4k-instruct", dict(model_type="phi3", vocab_size=32064,
        hidden_size=3072, intermediate_size=8192, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=32, sliding_window=2047, tie_word_embeddings=False,
        max_position_embeddings=4096, original_max_position_embeddings=4096, rms_norm_eps=1e-5,
        rope_theta=10000.0, hidden_act="silu")),
    "deepseek-v2-lite": (HF % "deepseek-ai/DeepSeek-V2-Lite", dict(model_type="deepseek_v2",
        vocab_size=102400, hidden_size=2048, intermediate_size=10944, moe_intermediate_size=1408,
        num_hidden_layers=27, num_attention_heads=16, num_key_value_heads=16, q_lora_rank=None,
        kv_lora_rank=512, qk_nope_head_dim=128, qk_rope_head_dim=64, v_head_dim=128,
        n_routed_experts=64, n_shared_experts=2, num_experts_per_tok=6, first_k_dense_replace=1,
        moe_layer_freq=1, topk_method="greedy", norm_topk_prob=False, routed_scaling_factor=1.0,
        tie_word_embeddings=False, max_position_embeddings=163840, rms_norm_eps=1e-6,
        rope_theta=10000.0, attention_bias=False)),
    "olmo-2-7b": (HF % "allenai/OLMo-2-1124-7B", dict(model_type="olmo2", vocab_size=100352,
        hidden_size=4096, intermediate_size=11008, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=32, attention_bias=False, tie_word_embeddings=False,
        max_position_embeddings=4096, rms_norm_eps=1e-6, rope_theta=500000.0)),
    "gpt-oss-20b": (HF % "openai/gpt-oss-20b", dict(model_type="gpt_oss", vocab_size=201088,
        hidden_size=2880, intermediate_size=2880, num_hidden_layers=24, num_attention_heads=64,
        num_key_value_heads=8, head_dim=64, num_local_experts=32, num_experts_per_tok=4,
        sliding_window=128, attention_bias=True, tie_word_embeddings=False,
        max_position_embeddings=131072, rms_norm_eps=1e-5)),
    "pythia-1.4b": (HF % "EleutherAI/pythia-1.4b", dict(model_type="gpt_neox", vocab_size=50304,
        hidden_size=2048, intermediate_size=8192, num_hidden_layers=24, num_attention_heads=16,
        rotary_pct=0.25, rotary_emb_base=10000, use_parallel_residual=True, hidden_act="gelu",
        tie_word_embeddings=False, max_position_embeddings=2048, layer_norm_eps=1e-5)),
    "llama-3.1-8b": (HF % "meta-llama/Llama-3.1-8B", dict(model_type="llama", vocab_size=128256,
        hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=8, head_dim=128, attention_bias=False, mlp_bias=False,
        tie_word_embeddings=False, max_position_embeddings=131072, rms_norm_eps=1e-5,
        rope_theta=500000.0, rope_scaling={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
        "high_freq_factor": 4.0, "original_max_position_embeddings": 8192})),
}

for _d in SMALL.values():
    _d.update(bos_token_id=1, eos_token_id=2, pad_token_id=None)
T0 = time.time()


def log(*a):
    print("[%6.1fs]" % (time.time() - T0), *a, flush=True)


def make_config(d):
    d = dict(d)
    cls = CONFIG_MAPPING[d["model_type"]]
    return cls.from_dict(d)


def build(cfg, device, dtype):
    kw = dict(dtype=dtype, attn_implementation="eager")
    with torch.device(device):
        try:
            m = AutoModelForCausalLM.from_config(cfg, experts_implementation="eager", **kw)
        except (TypeError, ValueError) as e:
            log("  experts_implementation refused:", repr(e)[:200])
            m = AutoModelForCausalLM.from_config(cfg, **kw)
    return m.eval()


def flops(fn):
    fc = FlopCounterMode(display=False, depth=None)
    with fc:
        out = fn()
    by = {str(k): int(v) for k, v in fc.get_flop_counts().get("Global", {}).items()}
    return int(fc.get_total_flops()), by, fc, out


def module_flops(fc, maxdepth=5):
    res = {}
    for mod, d in fc.get_flop_counts().items():
        if mod == "Global" or mod.count(".") >= maxdepth:
            continue
        res[mod] = {str(k): int(v) for k, v in d.items()}
    return res


def cache_info(pkv, cfg):
    """Bytes of every tensor the cache object holds, per layer."""
    layers = []
    lt = getattr(cfg, "layer_types", None)
    objs = getattr(pkv, "layers", None)
    if objs is None:
        return {"error": "cache has no .layers: %s" % type(pkv).__name__}
    for i, lay in enumerate(objs):
        ts = {k: v for k, v in vars(lay).items() if torch.is_tensor(v)}
        layers.append({"class": type(lay).__name__,
                       "layer_type": lt[i] if lt and i < len(lt) else None,
                       "tensors": {k: [list(v.shape), str(v.dtype)] for k, v in ts.items()},
                       "bytes": int(sum(v.numel() * v.element_size() for v in ts.values()))})
    by_type = {}
    for l in layers:
        k = l["layer_type"] or l["class"]
        by_type[k] = by_type.get(k, 0) + l["bytes"]
    return {"class": type(pkv).__name__, "total_bytes": sum(l["bytes"] for l in layers),
            "by_layer_type": by_type, "layers": layers}


def layer_summary(m, cfg):
    L = cfg.num_hidden_layers
    for name, mod in m.named_modules():
        if isinstance(mod, torch.nn.ModuleList) and len(mod) == L:
            out = []
            for lay in mod:
                out.append({n: [type(c).__name__, int(sum(p.numel() for p in c.parameters()))]
                            for n, c in lay.named_children()})
            return {"path": name, "layers": out}
    return None


def param_table(m):
    return {n: list(p.shape) for n, p in m.named_parameters()}


def family(name, d):
    rec = {"config_json": d}
    cfg = make_config(d)
    rec["config"] = cfg.to_dict()
    m = build(cfg, DEV, DT)
    rec["model_class"] = type(m).__name__
    rec["attn_implementation"] = getattr(m.config, "_attn_implementation", None)
    rec["experts_implementation"] = getattr(m.config, "_experts_implementation", None)
    rec["params"] = int(sum(p.numel() for p in m.parameters()))
    rec["embedding_params"] = int(m.get_input_embeddings().weight.numel())
    oe = m.get_output_embeddings()
    rec["lm_head_tied"] = bool(oe is not None and oe.weight is m.get_input_embeddings().weight)
    rec["param_shapes"] = param_table(m)
    rec["layers"] = layer_summary(m, m.config)
    rec["dtype"] = str(DT)
    has_experts = any("experts" in n for n, _ in m.named_modules())
    rec["cases"] = {}
    for b, S in CASES:
        key = "b%d_s%d" % (b, S)
        c = {}
        rec["cases"][key] = c
        g = torch.Generator(device="cpu").manual_seed(b * 1000 + S)
        ids = torch.randint(0, cfg.vocab_size, (b, S), generator=g).to(DEV)
        nxt = torch.randint(0, cfg.vocab_size, (b, 1), generator=g).to(DEV)
        with torch.no_grad():
            try:
                c["prefill_flops"], c["prefill_by_op"], fc, _ = flops(lambda: m(ids, use_cache=True))
                if key == "b1_s128" or SMOKE_RUN:
                    c["prefill_by_module"] = module_flops(fc)
            except Exception as e:
                c["prefill_error"] = repr(e)[:1000]
            try:
                c["prefill_flops_last_logits"], c["prefill_last_by_op"], _, o1 = \
                    flops(lambda: m(ids, use_cache=True, logits_to_keep=1))
                c["last_logits_shape"] = list(o1.logits.shape)
            except Exception as e:
                c["prefill_last_error"] = repr(e)[:1000]
            try:
                o = m(ids, use_cache=True)
                pkv = o.past_key_values
                c["cache_after_prefill"] = cache_info(pkv, m.config)
                c["decode_flops"], c["decode_by_op"], fc, _ = \
                    flops(lambda: m(nxt, past_key_values=pkv, use_cache=True))
                if key == "b1_s128" or SMOKE_RUN:
                    c["decode_by_module"] = module_flops(fc)
                c["cache_after_decode"] = cache_info(pkv, m.config)
                del o, pkv
            except Exception as e:
                c["decode_error"] = repr(e)[:1000]
                traceback.print_exc()
        log("  ", name, key, "prefill", c.get("prefill_flops"), "last", c.get("prefill_flops_last_logits"),
            "decode", c.get("decode_flops"),
            "cache", c.get("cache_after_prefill", {}).get("total_bytes"),
            "->", c.get("cache_after_decode", {}).get("total_bytes"))
    # The experts' matmuls under transformers' default experts implementation, for comparison.
    if has_experts:
        try:
            m2 = None
            with torch.device(DEV):
                m2 = AutoModelForCausalLM.from_config(make_config(d), dtype=DT, attn_implementation="eager").eval()
            b, S = CASES[0]
            ids = torch.randint(0, cfg.vocab_size, (b, S)).to(DEV)
            with torch.no_grad():
                tot, by, _, _ = flops(lambda: m2(ids, use_cache=True))
            rec["default_experts"] = {"experts_implementation": getattr(m2.config, "_experts_implementation", None),
                                      "case": "b%d_s%d" % (b, S), "prefill_flops": tot, "prefill_by_op": by}
            del m2
        except Exception as e:
            rec["default_experts"] = {"error": repr(e)[:500]}
    del m
    if DEV == "cuda":
        torch.cuda.empty_cache()
    return rec


def published(name, url, d):
    rec = {"url": url, "config_json": d}
    cfg = make_config(d)
    with torch.device("meta"):
        m = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16)
    rec["model_class"] = type(m).__name__
    rec["params"] = int(sum(p.numel() for p in m.parameters()))
    rec["embedding_params"] = int(m.get_input_embeddings().weight.numel())
    oe = m.get_output_embeddings()
    rec["lm_head_tied"] = bool(oe is not None and oe.weight is m.get_input_embeddings().weight)
    rec["layer_types"] = getattr(m.config, "layer_types", None)
    rec["config"] = m.config.to_dict()
    return rec


def main():
    res = {"_conventions": __doc__.strip() if __doc__ else "",
           "note": ("Random weights; bf16; eager attention (scores and context as matmuls over the "
                    "positions each layer attends to); experts_implementation='eager' where the model "
                    "accepts it (a loop of per-expert matmuls over the tokens routed to each). prefill_flops: "
                    "one forward over S tokens with use_cache=True, LM head on every position; "
                    "prefill_flops_last_logits: logits_to_keep=1; decode_flops: one new token per sequence "
                    "after the prefill's cache (attends to S+1). Cache bytes: sum of numel x element size "
                    "of every tensor each cache layer object holds."),
           "torch": torch.__version__, "transformers": T.__version__,
           "device": torch.cuda.get_device_name(0) if DEV == "cuda" else "cpu",
           "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "smoke": SMOKE_RUN, "cases": ["b%d_s%d" % c for c in CASES],
           "model_types_known": sorted(k for k in CONFIG_MAPPING.keys()
                                       if k in {"qwen3", "qwen3_moe", "gemma2", "gemma3_text", "phi3",
                                                "deepseek_v2", "deepseek_v3", "olmo2", "gpt_oss",
                                                "gpt_neox", "llama"}),
           "families": {}, "published": {}}
    for name, d in SMALL.items():
        if d["model_type"] not in CONFIG_MAPPING:
            res["families"][name] = {"error": "transformers %s has no model_type %s" % (T.__version__, d["model_type"])}
            continue
        log("family", name)
        try:
            res["families"][name] = family(name, d)
        except Exception as e:
            traceback.print_exc()
            res["families"][name] = {"config_json": d, "error": repr(e)[:2000]}
        json.dump(res, open(OUT, "w"), indent=1)
    for name, (url, d) in PUBLISHED.items():
        try:
            res["published"][name] = published(name, url, d)
            log("published", name, res["published"][name]["params"])
        except Exception as e:
            traceback.print_exc()
            res["published"][name] = {"url": url, "config_json": d, "error": repr(e)[:2000]}
        json.dump(res, open(OUT, "w"), indent=1)
    log("done")


if __name__ == "__main__":
    main()
