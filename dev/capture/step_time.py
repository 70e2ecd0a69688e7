# Eager PyTorch steps of the 30 zoo models (issue 38): wall time with CUDA
# events and per-step kernel statistics from torch.profiler, random weights.
# usage: step_time.py OUT.jsonl --batches 1,32 [--models a,b] [--deadline S]
#        [--optim sgd|adam]  (training's optimizer; adam: torch.optim.Adam, foreach)
# Writes a header line, then one JSON line per case (flushed), so a run cut by
# `timeout` keeps every finished case; pack_steps.py turns it into .json.gz.
import argparse, contextlib, gc, json, os, signal, subprocess, sys, time
import torch, torchvision
import torch.nn.functional as F
from torch.profiler import profile, ProfilerActivity, schedule
import tracestat

NAMES = ["resnet18","resnet34","resnet50","alexnet","vgg16","mobilenet_v2",
         "mobilenet_v3_large","squeezenet1_1","shufflenet_v2_x1_0","efficientnet_b0",
         "densenet121","vit_b_16","resnet101","resnet152","vgg11","vgg19","mobilenet_v3_small",
         "squeezenet1_0","densenet169","efficientnet_b1","regnet_y_400mf","convnext_tiny",
         "wide_resnet50_2","resnext50_32x4d","googlenet","inception_v3","vit_b_32","swin_t",
         "shufflenet_v2_x0_5","mnasnet1_0"]
T0 = time.time()
def log(*a):
    print(time.strftime("%H:%M:%S", time.gmtime()), "+%6.1fs" % (time.time() - T0), *a, flush=True)

def smi():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.sm,clocks.mem,"
                               "clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu",
                               "--format=csv"], capture_output=True, text=True, timeout=20).stdout
    except Exception as e:
        return repr(e)

def build(name):
    res = 299 if name == "inception_v3" else 224
    kw = {"aux_logits": False, "init_weights": False} if name in ("inception_v3", "googlenet") else {}
    torch.manual_seed(0)
    with torch.device("cuda"):
        m = getattr(torchvision.models, name)(weights=None, **kw)
    return m.cuda(), res

def pct(v, q):
    v = sorted(v); i = (len(v) - 1) * q; lo = int(i); hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (i - lo)

def run_case(m, res, batch, dtype, mode, tmp, optim="sgd"):
    torch.backends.cudnn.allow_tf32 = True          # PyTorch defaults, stated
    torch.backends.cuda.matmul.allow_tf32 = False
    x = torch.randn(batch, 3, res, res, device="cuda")
    t = torch.randint(0, 1000, (batch,), device="cuda")
    cast = (lambda: torch.autocast("cuda", dtype=torch.bfloat16)) if dtype == "bf16" else contextlib.nullcontext
    opt = None
    if mode == "train":
        m.train()
        if optim == "adam":
            opt = torch.optim.Adam(m.parameters(), lr=1e-3)
        else:
            opt = torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9)
        def step():
            with cast():
                loss = F.cross_entropy(m(x), t)
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
    else:
        m.eval()
        def step():
            with torch.no_grad(), cast():
                m(x)
    torch.cuda.reset_peak_memory_stats()
    tw = []
    for _ in range(3):
        h0 = time.perf_counter(); step(); torch.cuda.synchronize(); tw.append(time.perf_counter() - h0)
    w = tw[-1]
    if w > 2.0:
        return dict(skipped="step %.2f s > 2 s" % w, warmup_s=tw)
    n = 20 if w <= 0.025 else (10 if w <= 0.15 else 5)
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(n)]
    disp, hwall = [], []
    for a, b in ev:
        h0 = time.perf_counter_ns(); a.record(); step(); b.record(); h1 = time.perf_counter_ns()
        torch.cuda.synchronize(); h2 = time.perf_counter_ns()
        disp.append((h1 - h0) / 1e6); hwall.append((h2 - h0) / 1e6)
    ms = [a.elapsed_time(b) for a, b in ev]
    r = dict(n_timed=n, n_warmup=3, warmup_s=tw,
             wall_ms=dict(median=pct(ms, .5), p10=pct(ms, .1), p90=pct(ms, .9), min=min(ms), all=ms),
             host_dispatch_ms=dict(median=pct(disp, .5), p10=pct(disp, .1), p90=pct(disp, .9)),
             host_wall_ms=dict(median=pct(hwall, .5), p10=pct(hwall, .1), p90=pct(hwall, .9)),
             peak_mem_bytes=torch.cuda.max_memory_allocated())
    # profiled steps: 1 profiler warm-up step, then P active, each ending in a sync
    P = 3 if w <= 0.15 else 2
    done = {}
    def ready(p):
        p.export_chrome_trace(tmp); done["t"] = time.time()
    t_p = time.time()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True,
                 schedule=schedule(wait=0, warmup=1, active=P), on_trace_ready=ready) as prof:
        for _ in range(1 + P):
            step(); torch.cuda.synchronize(); prof.step()
    t_e = time.time()
    st = tracestat.analyze(tmp)
    os.remove(tmp)
    r.update(prof_steps=P, steps=st["steps"], kernel_rows=st["kernel_rows"],
             unassigned_gpu_events=st["unassigned_gpu_events"],
             prof_s=dict(run_export=round(t_e - t_p, 3), parse=round(time.time() - t_e, 3)))
    del opt
    return r

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out"); ap.add_argument("--batches", default="1,32,256")
    ap.add_argument("--models", default=",".join(NAMES)); ap.add_argument("--deadline", type=float, default=1e9)
    ap.add_argument("--dtypes", default="fp32,bf16"); ap.add_argument("--modes", default="train,infer")
    ap.add_argument("--optim", default="sgd", choices=["sgd", "adam"])
    a = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: (log("SIGTERM: stopping"), sys.exit(3)))
    f = open(a.out, "a")
    p = torch.cuda.get_device_properties(0)
    hdr = dict(kind="header", date_utc=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               device=torch.cuda.get_device_name(0), sm_count=p.multi_processor_count,
               l2_bytes=getattr(p, "L2_cache_size", None), mem_bytes=p.total_memory,
               torch=torch.__version__, torchvision=torchvision.__version__, cuda=torch.version.cuda,
               cudnn=torch.backends.cudnn.version(), python=sys.version.split()[0],
               cudnn_allow_tf32=True, matmul_allow_tf32=False, cudnn_benchmark=torch.backends.cudnn.benchmark,
               nvidia_smi_start=smi(), kernel_columns=tracestat.KERNEL_COLUMNS)
    f.write(json.dumps(hdr) + "\n"); f.flush()
    log(hdr["device"], "SMs", hdr["sm_count"], "torch", hdr["torch"], "cudnn", hdr["cudnn"])
    models = {}
    tmp = "/dev/shm/rfl-step-trace.json"
    est = 0.0
    for b in [int(v) for v in a.batches.split(",")]:
        for name in a.models.split(","):
            for dtype in a.dtypes.split(","):
                for mode in a.modes.split(","):
                    if time.time() - T0 + est > a.deadline:
                        log("deadline: not run", name, b, dtype, mode)
                        f.write(json.dumps(dict(kind="case", model=name, batch=b, dtype=dtype, mode=mode,
                                                skipped="out of time in this run")) + "\n"); f.flush()
                        continue
                    c0 = time.time()
                    rec = dict(kind="case", model=name, batch=b, dtype=dtype, mode=mode)
                    if mode == "train":
                        rec["optim"] = a.optim
                    try:
                        if name not in models:
                            models[name] = build(name)
                        m, res = models[name]
                        rec["res"] = res
                        rec["params"] = sum(q.numel() for q in m.parameters())
                        rec.update(run_case(m, res, b, dtype, mode, tmp, a.optim))
                    except torch.OutOfMemoryError as e:
                        rec["error"] = "OOM: " + str(e)[:300]
                    except Exception as e:
                        rec["error"] = repr(e)[:500]
                    if name in models:
                        for q in models[name][0].parameters():
                            q.grad = None
                    gc.collect(); torch.cuda.empty_cache()
                    rec["case_s"] = round(time.time() - c0, 3)
                    est = max(est * 0.5, rec["case_s"])
                    f.write(json.dumps(rec) + "\n"); f.flush()
                    if "steps" in rec:
                        s = rec["steps"][-1]
                        log("%-20s b%-3d %s %-5s wall %8.3f ms  kern %8.3f ms %5d k  aten %5d  nodes %4d  (%.1fs, prof %s)" % (
                            name, b, dtype, mode, rec["wall_ms"]["median"], s["kernel_ns"] / 1e6, s["kernels"],
                            s["aten_top"], s["autograd_nodes"], rec["case_s"], rec["prof_s"]))
                    else:
                        log("%-20s b%-3d %s %-5s %s" % (name, b, dtype, mode, rec.get("error") or rec.get("skipped")))
    f.write(json.dumps(dict(kind="footer", nvidia_smi_end=smi(), total_s=round(time.time() - T0, 1))) + "\n")
    f.close()
    log("done")

if __name__ == "__main__":
    main()
