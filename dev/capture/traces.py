# Chrome traces for the trace reader (issue 36): torch.profiler with
# schedule(wait=1, warmup=1, active=3), export_chrome_trace, so each trace holds
# ProfilerStep#2..#4. Every step ends with torch.cuda.synchronize().
# usage: traces.py OUTDIR LLAMA_CONFIG.json [which,...]
# Writes NAME.json (plain), NAME.json.gz (python gzip) and NAME.truth.json, the
# ground truth computed from the trace file itself with json.load.
import contextlib, gzip, json, os, shutil, sys, time
import torch, torchvision
import torch.nn.functional as F
from torch.profiler import profile, ProfilerActivity, schedule

T0 = time.time()
def log(*a):
    print(time.strftime("%H:%M:%S", time.gmtime()), "+%6.1fs" % (time.time() - T0), *a, flush=True)

def capture(path, step, warm=3):
    for _ in range(warm):
        step(); torch.cuda.synchronize()
    def ready(p):
        p.export_chrome_trace(path)
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True,
                 schedule=schedule(wait=1, warmup=1, active=3, repeat=1), on_trace_ready=ready) as prof:
        for _ in range(5):
            step(); torch.cuda.synchronize(); prof.step()

def ns(dur):
    return int(round(float(dur) * 1000.0))

def truth(path):
    d = json.load(open(path))
    ev = d["traceEvents"]
    def tally(sel):
        out = {}
        for cat, key, kns in (("kernel", "kernels", "kernel_ns"), ("gpu_memcpy", "memcpy", "memcpy_ns"),
                              ("gpu_memset", "memset", "memset_ns")):
            es = [e for e in sel if e.get("cat") == cat]
            out[key] = len(es); out[kns] = sum(ns(e["dur"]) for e in es)
        return out
    r = dict(file=os.path.basename(path), bytes=os.path.getsize(path),
             events=len(ev), device=(d.get("deviceProperties") or [{}])[0].get("name"),
             rule="kernel = event with cat == 'kernel'; ns = round(dur * 1000) per event, then summed; "
                  "step window = the CPU event named ProfilerStep#N (cat user_annotation), "
                  "[ts, ts + dur]; a GPU event is in the step when its start ts lies in that window "
                  "(by_start) / when the runtime call with the same args.correlation lies in it (by_launch)")
    r.update(tally(ev))
    rt = {e["args"]["correlation"]: e["ts"] for e in ev
          if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in (e.get("args") or {})}
    steps = sorted((e for e in ev if str(e.get("name", "")).startswith("ProfilerStep#")
                    and e.get("cat") == "user_annotation"), key=lambda e: e["ts"])
    gsteps = {e["name"]: e for e in ev if str(e.get("name", "")).startswith("ProfilerStep#")
              and e.get("cat") == "gpu_user_annotation"}
    r["steps"] = []
    gpu = [e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
    for s in steps:
        a, b = s["ts"], s["ts"] + s["dur"]
        x = dict(name=s["name"], ts_us=s["ts"], dur_us=s["dur"])
        x["by_start"] = tally([e for e in gpu if a <= e["ts"] <= b])
        x["by_launch"] = tally([e for e in gpu if a <= rt.get((e.get("args") or {}).get("correlation"), -1e30) <= b])
        if s["name"] in gsteps:
            g = gsteps[s["name"]]
            x["gpu_user_annotation"] = dict(ts_us=g["ts"], dur_us=g["dur"])
        r["steps"].append(x)
    return r

def zoo_step(name, batch, dtype):
    torch.backends.cudnn.allow_tf32 = True
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.manual_seed(0)
    with torch.device("cuda"):
        m = getattr(torchvision.models, name)(weights=None)
    m.cuda().train()
    x = torch.randn(batch, 3, 224, 224, device="cuda")
    t = torch.randint(0, 1000, (batch,), device="cuda")
    opt = torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9)
    cast = (lambda: torch.autocast("cuda", dtype=torch.bfloat16)) if dtype == "bf16" else contextlib.nullcontext
    def step():
        with cast():
            loss = F.cross_entropy(m(x), t)
        loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
    return step

def llama_step(cfgpath, S=512):
    from transformers import LlamaConfig, LlamaForCausalLM
    conf = json.load(open(cfgpath))
    cfg = LlamaConfig(**conf)
    torch.manual_seed(0)
    with torch.device("cuda"):
        model = LlamaForCausalLM(cfg)
    model = model.to(torch.bfloat16).cuda().eval()
    log("llama impl", getattr(model.config, "_attn_implementation", None),
        "params", sum(p.numel() for p in model.parameters()))
    ids = torch.randint(0, cfg.vocab_size, (1, S), device="cuda")
    with torch.no_grad():
        out = model(ids, use_cache=True)
    cache = out.past_key_values
    nxt = out.logits[:, -1:].argmax(-1)
    info = dict(cache=type(cache).__name__, crop=True)
    def step():
        with torch.no_grad():
            model(nxt, past_key_values=cache, use_cache=True)
        if info["crop"]:
            try:
                cache.crop(S)
            except Exception as e:
                info["crop"] = False; info["crop_error"] = repr(e)
    return step, info, cache

def main():
    outd, cfgpath = sys.argv[1], sys.argv[2]
    which = sys.argv[3].split(",") if len(sys.argv) > 3 else ["resnet18-b1-train-fp32", "resnet50-b32-train-bf16", "llama-3.2-1b-decode-b1-s512-bf16"]
    os.makedirs(outd, exist_ok=True)
    meta = dict(torch=torch.__version__, torchvision=torchvision.__version__, cudnn=torch.backends.cudnn.version(),
                device=torch.cuda.get_device_name(0), date_utc=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                traces={})
    for w in which:
        try:
            info = {}
            if w.startswith("resnet18"):
                step = zoo_step("resnet18", 1, "fp32")
            elif w.startswith("resnet50"):
                step = zoo_step("resnet50", 32, "bf16")
            else:
                import transformers
                meta["transformers"] = transformers.__version__
                step, info, cache = llama_step(cfgpath)
            p = os.path.join(outd, w + ".json")
            capture(p, step)
            if w.startswith("llama"):
                info["cache_len_after"] = cache.get_seq_length()
            tr = truth(p)
            tr["case"] = w; tr.update(info)
            with open(p, "rb") as fi, gzip.open(p + ".gz", "wb", compresslevel=9) as fo:
                shutil.copyfileobj(fi, fo)
            tr["gz_bytes"] = os.path.getsize(p + ".gz")
            json.dump(tr, open(os.path.join(outd, w + ".truth.json"), "w"), indent=1)
            meta["traces"][w] = {k: tr[k] for k in ("kernels", "kernel_ns", "memcpy", "memset", "bytes", "gz_bytes")}
            log(w, "kernels", tr["kernels"], "kernel_ns", tr["kernel_ns"], "bytes", tr["bytes"], "gz", tr["gz_bytes"],
                "steps", [(s["name"], s["by_launch"]["kernels"], s["by_start"]["kernels"]) for s in tr["steps"]], info)
            del step
            torch.cuda.empty_cache()
        except Exception as e:
            import traceback; traceback.print_exc()
            meta["traces"][w] = dict(error=repr(e))
    # keep one plain .json, the smallest; the others travel gzipped only
    plain = sorted((os.path.getsize(os.path.join(outd, w + ".json")), w) for w in which
                   if os.path.exists(os.path.join(outd, w + ".json")))
    for _, w in plain[1:]:
        os.remove(os.path.join(outd, w + ".json"))
    meta["plain_json_kept"] = plain[0][1] + ".json" if plain else None
    json.dump(meta, open(os.path.join(outd, "traces-meta.json"), "w"), indent=1)

if __name__ == "__main__":
    main()
