# Several-GPU measurements for the forecast, one process per GPU:
#   NCCL_NVLS_ENABLE=0 torchrun --nproc_per_node=N forecast_nccl.py OUTDIR [smoke]
# N >= 2: NCCL all-reduce of the message sizes tensor parallelism produces
# (hidden x tokens x 2 bytes) and a power-of-two sweep, then a tensor-parallel
# decode step of forecast_model.py's Llama-style models. N = 1: the same decode
# steps on one GPU of that host (the baseline for the speed-up).
# Rank 0 writes OUTDIR/forecast-tpN.json after every case.
import json, os, sys, time, traceback
import torch, torch.distributed as dist
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from forecast_model import MODELS, SMOKE, Llama, graph_time, stats

if os.environ.get("NCCL_NVLS_ENABLE") != "0":
    sys.exit("NCCL_NVLS_ENABLE=0 must be set (NVLink multicast stays off on these machines)")
OUT = sys.argv[1]
SMOKE_RUN = "smoke" in sys.argv[2:]
REPS = 5 if SMOKE_RUN else 30
rank = int(os.environ.get("RANK", "0"))
world = int(os.environ.get("WORLD_SIZE", "1"))
local = int(os.environ.get("LOCAL_RANK", "0"))
torch.cuda.set_device(local)
T0 = time.time()
group = None
if world > 1:
    dist.init_process_group("nccl", device_id=torch.device("cuda", local))
    group = dist.group.WORLD


def log(*a):
    if rank == 0:
        print("[%6.1fs] tp%d" % (time.time() - T0, world), *a, flush=True)


def gather_max(x):
    """Largest value over the ranks (a step is as slow as its slowest GPU)."""
    if world == 1:
        return x
    t = torch.tensor([x], device="cuda", dtype=torch.float64)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    return float(t.item())


doc = {"env": {"gpu": torch.cuda.get_device_name(local), "gpus": world,
               "gpus_on_host": torch.cuda.device_count(), "torch": torch.__version__,
               "cuda": torch.version.cuda,
               "nccl": ".".join(map(str, torch.cuda.nccl.version())) if world > 1 else None,
               "NCCL_NVLS_ENABLE": os.environ.get("NCCL_NVLS_ENABLE"),
               "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "smoke": SMOKE_RUN},
       "held_out": {"rule": "all-reduce: messages of 16 decode tokens and of 512 prefill tokens; "
                            "decode: cache length 512 or batch 16", "tokens": [16, 512],
                    "seq": [512], "batch": [16]},
       "allreduce": [], "decode": {}}


def save():
    if rank == 0:
        with open(os.path.join(OUT, "forecast-tp%d.json" % world), "w") as f:
            json.dump(doc, f, indent=1)


def allreduce_part():
    doc["allreduce_what"] = ("torch.distributed.all_reduce (sum, bf16) over all GPUs; eager: CUDA events "
                             "around one call, median of %d after warm-up; graph: 20 calls captured in a "
                             "CUDA graph, replay time / 20; busbw = bytes / time x 2 (n - 1) / n (nccl-tests' "
                             "definition); times are the largest over the ranks" % REPS)
    sizes = []
    hid = [256] if SMOKE_RUN else [2048, 4096]
    toks = [1, 16, 128] if SMOKE_RUN else [1, 4, 16, 64, 128, 256, 512, 1024, 2048]
    for h in hid:
        for t in toks:
            sizes.append(("tp", h, t, h * t * 2))
    for p in ([10, 20] if SMOKE_RUN else range(10, 31, 2)):
        sizes.append(("sweep", None, None, 2 ** p))
    for kind, h, t, nb in sizes:
        row = {"kind": kind, "hidden": h, "tokens": t, "bytes": nb}
        try:
            x = torch.randn(nb // 2, device="cuda", dtype=torch.bfloat16)
            for _ in range(5):
                dist.all_reduce(x)
            torch.cuda.synchronize()
            ts = []
            for _ in range(REPS):
                e0 = torch.cuda.Event(enable_timing=True); e1 = torch.cuda.Event(enable_timing=True)
                e0.record(); dist.all_reduce(x); e1.record(); e1.synchronize()
                ts.append(e0.elapsed_time(e1))
            se = stats(ts)
            sg = graph_time(lambda: dist.all_reduce(x), reps=max(5, REPS // 3), inner=20)
            for s in (se, sg):
                s["median_ms"] = gather_max(s["median_ms"])
            row["eager"] = se
            row["graph"] = sg
            f = 2 * (world - 1) / world
            row["busbw_gb_s_eager"] = nb / (se["median_ms"] * 1e-3) / 1e9 * f
            row["busbw_gb_s_graph"] = nb / (sg["median_ms"] * 1e-3) / 1e9 * f
            log("allreduce", nb, "eager %.1f us graph %.1f us busbw %.1f GB/s" %
                (se["median_ms"] * 1e3, sg["median_ms"] * 1e3, row["busbw_gb_s_graph"]))
            del x
        except Exception as e:
            row["error"] = repr(e)[:300]
            log("allreduce", nb, "FAILED", repr(e)[:200])
        doc["allreduce"].append(row)
        save()


def decode_part(variant="plain"):
    key_doc = "decode" if variant == "plain" else "decode_" + variant
    doc[key_doc] = {}
    ms = SMOKE if SMOKE_RUN else MODELS
    if os.environ.get("TP_MODELS"):
        ms = {k: v for k, v in ms.items() if k in os.environ["TP_MODELS"].split(",")}
    batches = [1, 4] if SMOKE_RUN else [1, 4, 16, 64]
    seqs = [128] if SMOKE_RUN else [128, 512, 2048]
    doc["decode_what"] = ("one decode step after a cache of S tokens, forecast_model.py's Llama-style "
                          "decoder split over the GPUs (heads, KV heads and MLP columns; two all-reduces "
                          "per layer; LM head split by vocabulary and all-gathered), CUDA-graph replays; "
                          "median_ms is the largest over the ranks; decode_fused: the same with "
                          "forecast_model.Llama.forward_fused (fused RMSNorm, one rotary pass)")
    for name, c in ms.items():
        rec = {"config": c, "tp": world, "variant": variant, "cases": {}}
        doc[key_doc][name] = rec
        try:
            m = Llama(c, tp=world, group=group, seed=rank, fused=(variant == "fused"))
            rec["attention"] = m.pick_attention()
            rec["weight_bytes_per_gpu"] = m.weight_bytes()
        except Exception as e:
            rec["error"] = repr(e)[:300]
            save()
            continue
        for B in batches:
            for S in seqs:
                key = "b%d_s%d" % (B, S)
                if m.cache_bytes(B, S + 1) > torch.cuda.mem_get_info()[0] - 4 * 2 ** 30:
                    rec["cases"][key] = {"skipped": "KV cache does not fit", "batch": B, "seq": S}
                    continue
                try:
                    cache = m.new_cache(B, S + 1)
                    ids = torch.randint(0, c["V"], (B, 1), device="cuda")
                    if world > 1:
                        dist.broadcast(ids, 0)
                    cos, sin = m.rope(torch.tensor([S], device="cuda"))
                    with torch.no_grad():
                        t = graph_time(lambda: m.forward(ids, cache, S, cos, sin), reps=REPS)
                    t["median_rank0_ms"] = t["median_ms"]
                    t["median_ms"] = gather_max(t["median_ms"])
                    rec["cases"][key] = dict(t, batch=B, seq=S)
                    log("decode", variant, name, key, "%.4f ms" % t["median_ms"])
                    del cache
                except Exception as e:
                    rec["cases"][key] = {"error": repr(e)[:300]}
                    log("decode", name, key, "FAILED", repr(e)[:200])
                torch.cuda.empty_cache()
                save()
        del m
        torch.cuda.empty_cache()


if __name__ == "__main__":
    if rank == 0:
        os.makedirs(OUT, exist_ok=True)
    parts = ([allreduce_part] if world > 1 else []) + \
        [lambda v=v: decode_part(v) for v in os.environ.get("TP_VARIANTS", "plain").split(",")]
    for p in parts:
        try:
            p()
        except Exception:
            log("PART FAILED")
            traceback.print_exc()
    save()
    if world > 1:
        dist.barrier()
        dist.destroy_process_group()
    log("done")
