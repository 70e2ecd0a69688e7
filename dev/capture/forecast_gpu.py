# One-GPU measurements for the forecast (decode steps, prefills, weight-only
# int8/int4 matmuls, achieved matmul rates, DRAM bandwidth, per-kernel cost).
#   python3 forecast_gpu.py OUTDIR [smoke] [parts=decode,prefill,quant,peaks]
# Each part writes OUTDIR/forecast-PART.json after every case, so a failure or a
# time-out keeps what came before. Timings: CUDA events around CUDA-graph
# replays (median of >= 20 after warm-up), random data, nothing from disk.
import json, math, os, sys, time, traceback
import torch, torch.nn.functional as F
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from forecast_model import MODELS, SMOKE, Llama, graph_time, eager_time, count_kernels

OUT = sys.argv[1]
SMOKE_RUN = "smoke" in sys.argv[2:]
PARTS = ["decode", "prefill", "quant", "peaks"]
VARIANTS = {"plain": "", "fused": "-fused", "compiled": "-compiled"}
for a in sys.argv[2:]:
    if a.startswith("parts="):
        PARTS = a[6:].split(",")
REPS = 5 if SMOKE_RUN else 30
DT = torch.bfloat16
T0 = time.time()


def env():
    p = torch.cuda.get_device_properties(0)
    return {"gpu": torch.cuda.get_device_name(0), "sms": p.multi_processor_count,
            "gpu_mem_bytes": p.total_memory, "torch": torch.__version__,
            "cuda": torch.version.cuda, "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "smoke": SMOKE_RUN}


def save(name, doc):
    with open(os.path.join(OUT, "forecast-%s.json" % name), "w") as f:
        json.dump(doc, f, indent=1)


def log(*a):
    print("[%6.1fs]" % (time.time() - T0), *a, flush=True)


def models():
    return SMOKE if SMOKE_RUN else MODELS


# ---------------------------------------------------------------- decode
def make_step(m, variant, ids, cache, start, cos, sin):
    if variant == "compiled":
        torch._dynamo.reset()
        f = torch.compile(m.forward_fused)
        return lambda: f(ids, cache, start, cos, sin)
    return lambda: m.forward(ids, cache, start, cos, sin)


VARIANT_WHAT = {
    "plain": "op by op as written in forecast_model.Llama.forward (about 40 kernels a layer)",
    "fused": "forecast_model.Llama.forward_fused: fused RMSNorm, one rotary pass for q and k, "
             "residual adds folded into the output matmuls (about 16 kernels a layer)",
    "compiled": "torch.compile (inductor, default mode) of forecast_model.Llama.forward_fused, "
                "captured in a CUDA graph by this script",
}


def part_decode(variant="plain"):
    batches = [1, 4] if SMOKE_RUN else [1, 4, 16, 64]
    seqs = [128] if SMOKE_RUN else [128, 512, 2048]
    fname = "decode" + VARIANTS[variant]
    mods = models()
    if variant == "compiled":      # one compile per case: a few cases only
        batches, seqs = ([1], [128]) if SMOKE_RUN else ([1], [512])
        mods = {k: v for k, v in mods.items() if k != "llama-2-7b"}
    doc = {"env": env(), "dtype": "bfloat16", "variant": variant,
           "variant_what": VARIANT_WHAT[variant],
           "what": "one decode step (one new token per sequence after a cache of S tokens; "
                   "attends to S+1) of a plain-PyTorch Llama-style decoder (forecast_model.py), "
                   "replayed as a CUDA graph; median of CUDA-event times of single replays",
           "held_out": {"rule": "cache length 512 or batch 16", "seq": [512], "batch": [16]},
           "models": {}}
    for name, c in mods.items():
        rec = {"config": c, "cases": {}}
        doc["models"][name] = rec
        try:
            m = Llama(c, dt=DT, fused=(variant != "plain"))
            rec["attention"] = m.pick_attention()
            rec["weight_bytes"] = m.weight_bytes()
            rec["params_matmul"] = m.weight_bytes() // 2
        except Exception as e:
            rec["error"] = repr(e)[:500]
            log("decode build", name, "FAILED", repr(e)[:300])
            save(fname, doc)
            continue
        for B in batches:
            for S in seqs:
                key = "b%d_s%d" % (B, S)
                free = torch.cuda.mem_get_info()[0]
                if m.cache_bytes(B, S + 1) > free - 4 * 2 ** 30:
                    rec["cases"][key] = {"skipped": "KV cache of %d bytes does not fit beside the weights"
                                         % m.cache_bytes(B, S + 1), "batch": B, "seq": S}
                    log("decode", name, key, "skipped (does not fit)")
                    continue
                try:
                    cache = m.new_cache(B, S + 1)
                    ids = torch.randint(0, c["V"], (B, 1), device="cuda")
                    cos, sin = m.rope(torch.tensor([S], device="cuda"))
                    step = make_step(m, variant, ids, cache, S, cos, sin)
                    with torch.no_grad():
                        t = graph_time(step, reps=REPS)
                        if B == 1 and S == seqs[0] and variant != "compiled":
                            n, top = count_kernels(step)
                            rec["kernels_per_step"] = n
                            rec["kernel_names"] = top
                            rec["eager_b1"] = eager_time(step, reps=REPS)
                    kv_bytes = sum(k.numel() + v.numel() for k, v in cache) * 2
                    rec["cases"][key] = dict(t, batch=B, seq=S, kv_cache_bytes=kv_bytes)
                    log("decode", name, key, "%.4f ms" % t["median_ms"])
                    del cache
                except Exception as e:
                    rec["cases"][key] = {"error": repr(e)[:500]}
                    log("decode", name, key, "FAILED", repr(e)[:300])
                torch.cuda.empty_cache()
                save(fname, doc)
        del m
        torch.cuda.empty_cache()
    save(fname, doc)


# ---------------------------------------------------------------- prefill
def part_prefill(variant="plain"):
    seqs = [128, 256] if SMOKE_RUN else [128, 256, 512, 1024, 2048]
    fname = "prefill" + VARIANTS[variant]
    doc = {"env": env(), "dtype": "bfloat16", "variant": variant,
           "variant_what": VARIANT_WHAT[variant],
           "what": "one prefill of S tokens, batch 1 (writes the KV cache, causal SDPA over "
                   "its own tokens, LM head on the last position only), plain-PyTorch "
                   "Llama-style decoder (forecast_model.py); graph: CUDA-graph replays; "
                   "eager: the same call launched op by op",
           "held_out": {"rule": "512 tokens", "seq": [512]},
           "models": {}}
    for name, c in models().items():
        rec = {"config": c, "cases": {}}
        doc["models"][name] = rec
        try:
            m = Llama(c, dt=DT, fused=(variant != "plain"))
            rec["attention"] = m.pick_attention()
            rec["weight_bytes"] = m.weight_bytes()
        except Exception as e:
            rec["error"] = repr(e)[:500]
            save(fname, doc)
            continue
        for S in seqs:
            key = "b1_s%d" % S
            try:
                cache = m.new_cache(1, S)
                ids = torch.randint(0, c["V"], (1, S), device="cuda")
                cos, sin = m.rope(torch.arange(S, device="cuda"))
                step = make_step(m, variant, ids, cache, 0, cos, sin)
                with torch.no_grad():
                    tg = graph_time(step, reps=REPS)
                    te = eager_time(step, reps=REPS)
                    if S == seqs[0] and variant != "compiled":
                        n, top = count_kernels(step)
                        rec["kernels_per_prefill"] = n
                rec["cases"][key] = {"batch": 1, "seq": S, "graph": tg, "eager": te}
                log("prefill", name, key, "graph %.3f ms eager %.3f ms" % (tg["median_ms"], te["median_ms"]))
                del cache
            except Exception as e:
                rec["cases"][key] = {"error": repr(e)[:500]}
                log("prefill", name, key, "FAILED", repr(e)[:300])
            torch.cuda.empty_cache()
            save(fname, doc)
        del m
        torch.cuda.empty_cache()


# ---------------------------------------------------------------- helpers
L2_ROTATE_BYTES = 200 * 2 ** 20   # rotate among copies so repeats do not hit the 50 MB L2


def rotate_copies(nbytes):
    return max(1, min(32, math.ceil(L2_ROTATE_BYTES / max(nbytes, 1))))


def time_rotated(make, nbytes, reps=None):
    """make(i) -> zero-arg callable on the i-th copy of the inputs. One graph
    calls every copy once; time per call = replay time / copies."""
    n = rotate_copies(nbytes)
    fns = [make(i) for i in range(n)]
    inner = max(1, 32 // n) if nbytes < 64 * 2 ** 20 else 1

    def all_once():
        for f in fns:
            f()
    t = graph_time(all_once, reps=reps or REPS, inner=inner)
    for k in ("median_ms", "min_ms", "p10_ms", "p90_ms"):
        t[k] /= n
    t["copies"] = n
    t["calls_per_replay"] = n * inner
    return t


def decode_shapes():
    sh = []
    for name, c in models().items():
        D, H, KV, HD, I, V = c["D"], c["H"], c["KV"], c["HD"], c["I"], c["V"]
        sh += [(name, "qkv", D, (H + 2 * KV) * HD), (name, "o", H * HD, D),
               (name, "gate_up", D, 2 * I), (name, "down", I, D), (name, "lm_head", D, V)]
    return sh


# ---------------------------------------------------------------- quant
def part_quant():
    Ms = [1, 16] if SMOKE_RUN else [1, 4, 16, 64]
    doc = {"env": env(),
           "what": "y = x @ W^T at the decode shapes of the models (x: M x K bf16 activations, "
                   "W: N x K weights); per-call time from CUDA-graph replays that rotate over "
                   "enough weight copies to miss the L2; bf16 torch.nn.functional.linear vs "
                   "weight-only int8 (torch._weight_int8pack_mm, per-channel scales), weight-only "
                   "int4 (torch._convert_weight_to_int4pack + torch._weight_int4pack_mm, group "
                   "size g, bf16 scales and zeros), naive dequantize-then-matmul (int8 -> bf16 "
                   "multiply, then linear) and int8 x int8 torch._int_mm (W8A8, int32 out)",
           "held_out": {"rule": "M = 16 (batch 16)", "M": [16]},
           "checks": {}, "cases": []}
    ops_present = {k: hasattr(torch, k) for k in ("_weight_int8pack_mm", "_weight_int4pack_mm",
                                                   "_convert_weight_to_int4pack", "_int_mm",
                                                   "_scaled_mm")}
    doc["ops_present"] = ops_present
    checked = False
    for (mname, proj, K, N) in decode_shapes():
        for M in Ms:
            row = {"model": mname, "proj": proj, "M": M, "K": K, "N": N}
            doc["cases"].append(row)
            with torch.no_grad():
                # bf16 baseline
                try:
                    def mk(i, K=K, N=N, M=M):
                        w = torch.randn(N, K, device="cuda", dtype=DT)
                        x = torch.randn(M, K, device="cuda", dtype=DT)
                        return lambda: F.linear(x, w)
                    row["bf16"] = time_rotated(mk, N * K * 2)
                except Exception as e:
                    row["bf16"] = {"error": repr(e)[:300]}
                # int8 weight-only
                try:
                    def mk8(i, K=K, N=N, M=M):
                        w = torch.randint(-128, 127, (N, K), device="cuda", dtype=torch.int8)
                        s = torch.rand(N, device="cuda", dtype=DT) * 0.01 + 0.001
                        x = torch.randn(M, K, device="cuda", dtype=DT)
                        return lambda: torch._weight_int8pack_mm(x, w, s)
                    if not checked:
                        w = torch.randint(-128, 127, (N, K), device="cuda", dtype=torch.int8)
                        s = torch.rand(N, device="cuda", dtype=DT) * 0.01 + 0.001
                        x = torch.randn(M, K, device="cuda", dtype=DT)
                        y = torch._weight_int8pack_mm(x, w, s).float()
                        ref = (x.float() @ (w.float() * s.float()[:, None]).t())
                        doc["checks"]["int8pack_rel_err"] = float((y - ref).norm() / ref.norm())
                    row["int8_wo"] = time_rotated(mk8, N * K)
                except Exception as e:
                    row["int8_wo"] = {"error": repr(e)[:300]}
                # naive dequantize then matmul
                try:
                    def mkdq(i, K=K, N=N, M=M):
                        w = torch.randint(-128, 127, (N, K), device="cuda", dtype=torch.int8)
                        s = torch.rand(N, 1, device="cuda", dtype=DT) * 0.01 + 0.001
                        x = torch.randn(M, K, device="cuda", dtype=DT)
                        return lambda: F.linear(x, w.to(DT) * s)
                    row["int8_dequant_then_bf16"] = time_rotated(mkdq, N * K)
                except Exception as e:
                    row["int8_dequant_then_bf16"] = {"error": repr(e)[:300]}
                # int4 weight-only, several group sizes
                for gsz in (32, 128):
                    key = "int4_wo_g%d" % gsz
                    try:
                        def mk4(i, K=K, N=N, M=M, gsz=gsz):
                            q = torch.randint(0, 16, (N, K), device="cuda", dtype=torch.int32)
                            packed_u8 = ((q[:, ::2] << 4) | q[:, 1::2]).to(torch.uint8)
                            wp = torch._convert_weight_to_int4pack(packed_u8, 8)
                            sz = torch.empty(K // gsz, N, 2, device="cuda", dtype=DT)
                            sz[..., 0] = torch.rand(K // gsz, N, device="cuda", dtype=DT) * 0.01 + 0.001
                            sz[..., 1] = 0
                            x = torch.randn(M, K, device="cuda", dtype=DT)
                            if i == 0 and ("int4_rel_err_g%d" % gsz) not in doc["checks"]:
                                y = torch._weight_int4pack_mm(x, wp, gsz, sz).float()
                                sc = sz[..., 0].float().t().repeat_interleave(gsz, dim=1)  # (N, K)
                                wd = (q.float() - 8.0) * sc
                                ref = x.float() @ wd.t()
                                doc["checks"]["int4_rel_err_g%d" % gsz] = float((y - ref).norm() / ref.norm())
                            return lambda: torch._weight_int4pack_mm(x, wp, gsz, sz)
                        row[key] = time_rotated(mk4, N * K // 2)
                    except Exception as e:
                        row[key] = {"error": repr(e)[:300]}
                # W8A8 int8 x int8 -> int32
                try:
                    def mki(i, K=K, N=N, M=M):
                        w = torch.randint(-128, 127, (K, N), device="cuda", dtype=torch.int8)
                        x = torch.randint(-128, 127, (max(M, 32), K), device="cuda", dtype=torch.int8)
                        return lambda: torch._int_mm(x, w)
                    row["int8_int_mm_M_padded_to_32"] = time_rotated(mki, N * K)
                except Exception as e:
                    row["int8_int_mm_M_padded_to_32"] = {"error": repr(e)[:300]}
            checked = True
            torch.cuda.empty_cache()
            log("quant", mname, proj, M, {k: (v.get("median_ms") if isinstance(v, dict) else v)
                                          for k, v in row.items() if isinstance(v, dict)})
            save("quant", doc)


# ---------------------------------------------------------------- peaks
def part_peaks():
    doc = {"env": env(),
           "what": "achieved rates: dense matmuls (random data; large shapes timed as CUDA-graph "
                   "replays of one call, decode-like shapes rotating weight copies to miss the L2); "
                   "DRAM: copy (bytes read + written), read (sum of a float32 tensor: bytes read), "
                   "write (fill_); per-kernel cost: a CUDA graph of N one-element add_ kernels, and "
                   "the same launched eagerly",
           "held_out": {"rule": "matmul shape 4096 x 4096 x 4096 and decode-like M = 16", "note": "fit on the rest"},
           "matmul": [], "dram": [], "kernel_cost": {}}
    big = [(512, 512, 512)] if SMOKE_RUN else [(8192, 8192, 8192), (4096, 4096, 4096), (2048, 4096, 14336),
                                              (2048, 14336, 4096), (16384, 4096, 4096), (1024, 4096, 4096),
                                              (512, 4096, 4096), (256, 4096, 4096), (128, 4096, 4096)]
    dec = [(1, 4096, 14336), (16, 4096, 14336)] if SMOKE_RUN else \
        [(M, K, N) for M in (1, 16, 64) for (K, N) in ((4096, 14336), (14336, 4096), (4096, 4096))]
    dts = [("fp16", torch.float16), ("bf16", torch.bfloat16), ("tf32", torch.float32),
           ("fp32", torch.float32), ("fp8_e4m3", torch.float8_e4m3fn)]
    for (M, K, N) in big + dec:
        for dname, dt in dts:
            if dname == "fp32" and (M, K, N) not in ((8192, 8192, 8192), (4096, 4096, 4096), (512, 512, 512)):
                continue
            row = {"M": M, "K": K, "N": N, "dtype": dname, "flops": 2 * M * K * N}
            try:
                torch.set_float32_matmul_precision("high" if dname == "tf32" else "highest")
                esz = torch.tensor([], dtype=dt).element_size()

                def mk(i, M=M, K=K, N=N, dt=dt, dname=dname):
                    if dname.startswith("fp8"):
                        Mp = max(16, (M + 15) // 16 * 16)
                        a = torch.randn(Mp, K, device="cuda").to(dt)
                        b = torch.randn(N, K, device="cuda").to(dt).t()       # column-major K x N
                        one = torch.tensor(1.0, device="cuda")
                        return lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
                    a = torch.randn(M, K, device="cuda", dtype=dt)
                    b = torch.randn(K, N, device="cuda", dtype=dt)
                    return lambda: torch.mm(a, b)
                if M >= 128:
                    fn = mk(0)
                    t = graph_time(fn, reps=REPS, inner=3 if M * N * K < 2 ** 33 else 1)
                else:
                    t = time_rotated(mk, K * N * esz)
                if dname.startswith("fp8") and M % 16:
                    row["M_padded"] = max(16, (M + 15) // 16 * 16)
                row.update(t)
                row["tflops"] = row["flops"] / (t["median_ms"] * 1e-3) / 1e12
                log("mm", M, K, N, dname, "%.1f TFLOP/s" % row["tflops"])
            except Exception as e:
                row["error"] = repr(e)[:300]
                log("mm", M, K, N, dname, "FAILED", repr(e)[:200])
            doc["matmul"].append(row)
            torch.set_float32_matmul_precision("highest")
            torch.cuda.empty_cache()
        save("peaks", doc)
    # DRAM
    sizes = [2 ** 20, 2 ** 24] if SMOKE_RUN else [2 ** p for p in range(20, 33, 2)]
    for nb in sizes:
        for kind in ("copy", "read", "write"):
            row = {"kind": kind, "bytes_per_tensor": nb}
            try:
                n = nb // 4
                src = torch.rand(n, device="cuda")
                dst = torch.empty_like(src)
                if kind == "copy":
                    fn, moved = (lambda: dst.copy_(src)), 2 * nb
                elif kind == "read":
                    fn, moved = (lambda: torch.sum(src)), nb
                else:
                    fn, moved = (lambda: dst.fill_(1.5)), nb
                inner = max(1, min(50, (2 ** 28) // nb))
                t = graph_time(fn, reps=REPS, inner=inner)
                row.update(t, bytes_moved=moved, gb_per_s=moved / (t["median_ms"] * 1e-3) / 1e9)
                log("dram", kind, nb, "%.0f GB/s" % row["gb_per_s"])
                del src, dst
            except Exception as e:
                row["error"] = repr(e)[:300]
            doc["dram"].append(row)
            torch.cuda.empty_cache()
        save("peaks", doc)
    # fixed per-kernel cost
    try:
        x = torch.zeros(1, device="cuda")
        N = 200 if SMOKE_RUN else 2000
        t = graph_time(lambda: x.add_(1.0), reps=REPS, inner=N)
        te = eager_time(lambda: [x.add_(1.0) for _ in range(N)], reps=max(5, REPS // 3))
        y = torch.zeros(2 ** 20, device="cuda")        # 4 MB: a small kernel that does some work
        t2 = graph_time(lambda: y.add_(1.0), reps=REPS, inner=N // 4)
        doc["kernel_cost"] = {"graph_tiny_add_us": t["median_ms"] * 1e3, "n_in_graph": N,
                              "eager_tiny_add_us": te["median_ms"] * 1e3 / N,
                              "graph_add_4MB_us": t2["median_ms"] * 1e3}
        log("kernel cost", doc["kernel_cost"])
    except Exception as e:
        doc["kernel_cost"] = {"error": repr(e)[:300]}
    save("peaks", doc)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    torch.set_float32_matmul_precision("highest")
    log(env())
    for p in PARTS:
        try:
            if "-" in p:
                globals()["part_" + p.split("-")[0]](p.split("-")[1])
            else:
                globals()["part_" + p]()
        except Exception:
            log("PART", p, "FAILED")
            traceback.print_exc()
        log("part", p, "done")
