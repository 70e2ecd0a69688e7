# LLM decode steps as a student runs them in transformers (issue 38 item 5):
# Llama-3.1-8B and Qwen3-8B from their configs (tests/data/hf), random bf16
# weights built on the GPU, SDPA, StaticCache, one-token decode at batch 1 and
# 32 after 512 and 2048 cached tokens: eager forward (wall, kernel time/count
# from torch.profiler) and the same step captured in a CUDA graph (replay).
# usage: llm_steps.py OUT.json [models] ; configs are read from the cwd.
import gc, json, sys, time
import torch
import transformers
from transformers import AutoConfig, AutoModelForCausalLM, StaticCache
from torch.profiler import profile, ProfilerActivity, schedule
import tracestat

T0 = time.time()
def log(*a):
    print(time.strftime("%H:%M:%S", time.gmtime()), "+%6.1fs" % (time.time() - T0), *a, flush=True)

def pct(v, q):
    v = sorted(v); i = (len(v) - 1) * q; lo = int(i); hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (i - lo)

def timed(fn, n):
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(n)]
    for a, b in ev:
        a.record(); fn(); b.record(); torch.cuda.synchronize()
    ms = [a.elapsed_time(b) for a, b in ev]
    return dict(median=pct(ms, .5), p10=pct(ms, .1), p90=pct(ms, .9), min=min(ms), n=n)

def build(path):
    d = json.load(open(path))
    mt = d.pop("model_type")
    d.pop("torch_dtype", None)
    cfg = AutoConfig.for_model(mt, **d)
    torch.manual_seed(0)
    with torch.device("cuda"):
        try:
            m = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16, attn_implementation="sdpa")
        except TypeError:
            m = AutoModelForCausalLM.from_config(cfg, torch_dtype=torch.bfloat16, attn_implementation="sdpa")
    return m.to(torch.bfloat16).cuda().eval(), cfg

def make_cache(cfg, B, L):
    try:
        return StaticCache(config=cfg, max_cache_len=L)
    except TypeError:
        return StaticCache(config=cfg, max_batch_size=B, max_cache_len=L, device="cuda", dtype=torch.bfloat16)

def fill_cache(cache):
    n = 0
    for l in getattr(cache, "layers", []):
        for k in ("keys", "values"):
            t = getattr(l, k, None)
            if isinstance(t, torch.Tensor):
                t.normal_(); n += 1
    for lst in (getattr(cache, "key_cache", None), getattr(cache, "value_cache", None)):
        for t in lst or []:
            if isinstance(t, torch.Tensor):
                t.normal_(); n += 1
    return n

def main():
    out = sys.argv[1]
    models = sys.argv[2].split(",") if len(sys.argv) > 2 else ["llama-3.1-8b", "qwen3-8b"]
    p = torch.cuda.get_device_properties(0)
    doc = dict(format="rfl-llm-steps-1", device=torch.cuda.get_device_name(0), sm_count=p.multi_processor_count,
               torch=torch.__version__, transformers=transformers.__version__,
               date_utc=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               note="decode of one token per sequence at position S (cache_position=[S]); StaticCache of "
                    "max_cache_len = S + 128 (SDPA attends over the whole static cache, masked); cache "
                    "filled with random values, not a prefill; the same input every step",
               cases=[])
    for name in models:
        try:
            t0 = time.time()
            m, cfg = build(name + ".json")
            log(name, "built in %.1fs" % (time.time() - t0), "params", sum(q.numel() for q in m.parameters()),
                "attn", getattr(m.config, "_attn_implementation", None))
        except Exception as e:
            import traceback; traceback.print_exc()
            doc["cases"].append(dict(model=name, error="build: " + repr(e)[:400])); continue
        for B in (1, 32):
            for S in (512, 2048):
                c = dict(model=name, batch=B, cached=S, max_cache_len=S + 128, dtype="bf16", attn="sdpa")
                cache = g = None
                try:
                    cache = make_cache(cfg, B, S + 128)
                    c["cache"] = type(cache).__name__
                    ids = torch.randint(0, cfg.vocab_size, (B, 1), device="cuda")
                    cp = torch.tensor([S], device="cuda")
                    pos = torch.full((B, 1), S, device="cuda", dtype=torch.long)
                    def step():
                        with torch.no_grad():
                            return m(input_ids=ids, past_key_values=cache, cache_position=cp,
                                     position_ids=pos, use_cache=True)
                    step(); torch.cuda.synchronize()
                    c["cache_tensors_filled"] = fill_cache(cache)
                    for _ in range(2):
                        step()
                    torch.cuda.synchronize()
                    c["eager_ms"] = timed(step, 15)
                    tmp = "/dev/shm/rfl-llm-trace.json"
                    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True,
                                 schedule=schedule(wait=0, warmup=1, active=2),
                                 on_trace_ready=lambda pr: pr.export_chrome_trace(tmp)) as prof:
                        for _ in range(3):
                            step(); torch.cuda.synchronize(); prof.step()
                    st = tracestat.analyze(tmp)
                    c["eager_steps"] = st["steps"]
                    c["eager_kernel_rows"] = st["kernel_rows"][:60]
                    c["kernel_columns"] = tracestat.KERNEL_COLUMNS
                    s = torch.cuda.Stream(); s.wait_stream(torch.cuda.current_stream())
                    with torch.cuda.stream(s):
                        for _ in range(3):
                            step()
                    torch.cuda.current_stream().wait_stream(s); torch.cuda.synchronize()
                    g = torch.cuda.CUDAGraph()
                    with torch.cuda.graph(g):
                        step()
                    for _ in range(3):
                        g.replay()
                    torch.cuda.synchronize()
                    c["graph_ms"] = timed(g.replay, 20)
                    log("%-13s b%-2d S%-4d eager %8.3f ms (kern %7.3f ms, %4d k)  graph %7.3f ms" % (
                        name, B, S, c["eager_ms"]["median"], st["steps"][-1]["kernel_ns"] / 1e6,
                        st["steps"][-1]["kernels"], c["graph_ms"]["median"]))
                except Exception as e:
                    import traceback; traceback.print_exc()
                    c["error"] = repr(e)[:500]
                    log(name, B, S, "ERROR", c["error"][:200])
                doc["cases"].append(c)
                json.dump(doc, open(out, "w"), indent=None)
                del g, cache
                gc.collect(); torch.cuda.empty_cache()
        del m
        gc.collect(); torch.cuda.empty_cache()
    json.dump(doc, open(out, "w"), indent=None)
    log("done")

if __name__ == "__main__":
    main()
