# The forecast terms of roofline.h (rfl_llm_forecast), fitted on our own
# measurements:
#   python3 dev/capture/fit_forecast.py [--check hw_specs.h] [--json OUT]
# (fixtures: tests/data/forecast/*.json, written by forecast_gpu.py and
# forecast_nccl.py; the records come from build/rfl-estimate --json, so the
# fit sees the step exactly as the library counts it; RFL_ESTIMATE=path
# picks another build).
#
# The model, per step (the implementation it forecasts is the "fused" one of
# forecast_model.py: fused RMSNorm, one rotary pass, residual adds folded
# into the output matmuls, replayed as a CUDA graph; about 20 kernels a
# layer. It was measured on every case; torch.compile's two cases are
# printed beside it as a check):
#   step = sum over the records of max(bytes / (dram_frac x DRAM bandwidth),
#                                      tensor FLOPs / (tensor_frac x peak)
#                                      + other FLOPs / vector peak)
#        + dequantization (int8 / int4 weights: the weight matmuls run at
#          a dequantizing rate, not the tensor peak)
#        (a prefill's linear layers: the compute side is at least the GEMM's
#         time under the tile and wave model, rfl_gemm_tile_time, at
#         tensor_frac x peak shared by the SMs)
#        + kernels x kernel_s (kernels = kernels_per_layer x layers)
#        + all-reduces (rfl_allreduce_time: the link's fitted ring model;
#          2 a layer and the LM head's gather)
# Fitted, each on the fixtures' rows outside their "held_out" rule:
#   dram_frac, kernel_s   least squares (relative error) on the decode steps
#                         (one GPU; the H100 family on the H100 fixture, the
#                         H200 family on the 4 x H200 host's TP 1 steps)
#   tensor_frac (bf16)    the same on the prefills (graph), dram and kernels kept
#   fp16, tf32, fp8       bf16's fraction x (that type's achieved share of its
#                         peak / bf16's), from the large matmuls of h100-peaks
#   int4 dequant rate     the int4 weight-only matmuls (tinygemm) at M = 1, 4, 64
#   int8 dequant rate     the fused int8 weight-only matmuls (W8A16, our Triton
#                         kernel of int8_wo.py; torch's own int8 kernel runs
#                         slower than dequantize-then-bf16) at M = 1, 4, 64
# Prints the fitted values, the error on every held-out case with the term
# that dominates it, median and max error by term, and the rows for
# hw_specs.h; --check FILE says whether FILE holds those rows (exit 1 if not).
# Standard library only.
import json, os, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
DATA = os.path.join(ROOT, "tests", "data", "forecast")
EST = os.environ.get("RFL_ESTIMATE", os.path.join(ROOT, "build", "rfl-estimate"))
HW = os.environ.get("RFL_HW", os.path.join(ROOT, "build", "rfl-hw"))
KERNELS_PER_LAYER = 20   # the fused implementation: kernels_per_step / layers, rounded
TERMS = ("dram", "tensor", "kernels", "allreduce", "dequant")


def load(name):
    with open(os.path.join(DATA, name)) as f:
        return json.load(f)


def machine(hw):
    d = json.loads(subprocess.check_output([HW, hw, "--json"]))
    return d


_cache = {}


def records(c, tp, phase, batch, seq, weights="bf16"):
    """The step's records (name, op, tensor FLOPs, other FLOPs, bytes,
    weight bytes) from rfl-estimate --json, for one GPU's share under tp."""
    key = (json.dumps(c, sort_keys=True), tp, phase, batch, seq, weights)
    if key in _cache:
        return _cache[key]
    hf = {"model_type": "llama", "hidden_size": c["D"], "num_hidden_layers": c["L"],
          "num_attention_heads": c["H"] // tp, "num_key_value_heads": c["KV"] // tp,
          "head_dim": c["HD"], "intermediate_size": c["I"] // tp,
          "vocab_size": c["V"] // tp, "max_position_embeddings": 131072,
          "tie_word_embeddings": bool(c["tied"]) and tp == 1, "rms_norm_eps": 1e-5,
          "hidden_act": "silu", "torch_dtype": "bfloat16"}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(hf, f)
    try:
        out = subprocess.check_output([EST, "--hf-config", f.name, "--phase", phase, "--batch",
                                       str(batch), "--seq", str(seq), "--dtype", "bf16",
                                       "--weights", weights, "--json"])
    finally:
        os.unlink(f.name)
    d = json.loads(out)
    recs = []
    for l in d["layers"]:
        fl, mac = l["forward_flops"] or 0, l["forward_mac_flops"] or 0
        mma = min(fl, mac) if l["op"] in ("linear", "matmul", "attention") else 0
        mnk = None
        if phase == "prefill" and l["op"] == "linear" and mac > 0:
            N = l["out"][-1]
            M = 1
            for x in l["out"][:-1]:
                M *= x
            mnk = (M, N, mac / (2.0 * M * N))
        recs.append((l["name"], l["op"], mma, fl - mma, l["forward_bytes"] or 0, l["params"] or 0, mnk))
    _cache[key] = (recs, c["L"])
    return _cache[key]


def ceil(x):
    f = float(int(x))
    return f + 1 if f < x else f


def tile_time(M, N, K, sm_flops, sms):
    """rfl_gemm_tile_time (batch 1): the fastest tiling's waves."""
    best = None
    for tm, tn in ((128, 128), (128, 64), (64, 128), (64, 64), (16, 128), (16, 64)):
        nt, split = ceil(M / tm) * ceil(N / tn), 1.0
        if nt < sms:
            split = max(1.0, min(float(int(sms / nt)), ceil(K / 256)))
        wv = ceil(nt * split / sms)
        t = wv * 2 * tm * tn * ceil(K / split) / (
            sm_flops * (0.25 if tm < 64 else tm * tn / (tm + tn) / 64.0))
        if tm < 64 and M > 16:
            continue
        if best is None or t < best:
            best = t
    return best


class Terms:
    def __init__(self, m, dram_frac, kernel_s, tensor_frac=0.6, dq_rate=0):
        self.m, self.dram_frac, self.kernel_s = m, dram_frac, kernel_s
        self.tensor_frac, self.dq_rate = tensor_frac, dq_rate

    def step(self, recs, layers, quant=False, allreduce_s=0.0):
        """Seconds by term: dram, tensor (the records' max, split by which
        side binds), kernels, allreduce, dequant."""
        m = self.m
        bw = m["bw"] * self.dram_frac
        pt = m["bf16_tensor"] * self.tensor_frac
        t = dict.fromkeys(TERMS, 0.0)
        for (_, op, mma, other, byt, params, mnk) in recs:
            mem = byt / bw
            comp = mma / pt + other / m["fp16"]
            if mnk:
                comp = max(comp, tile_time(mnk[0], mnk[1], mnk[2], pt / m["units"], m["units"]))
            rec = max(mem, comp)
            if mem >= comp:
                t["dram"] += mem
            else:
                t["tensor"] += comp
            if quant and params > 0 and mma > 0 and self.dq_rate > 0:
                t["dequant"] += max(0.0, mma / self.dq_rate - rec)
        t["kernels"] = (KERNELS_PER_LAYER * layers) * self.kernel_s
        t["allreduce"] = allreduce_s
        return t


def total(t):
    return sum(t.values())


def dominant(t):
    return max(t, key=t.get)


def lsq2(rows):
    """Least squares of the relative error for t = a x A + b x B (rows of
    (A, B, measured)): minimise sum (a A / y + b B / y - 1)^2."""
    saa = sab = sbb = sa = sb = 0.0
    for A, B, y in rows:
        A, B = A / y, B / y
        saa += A * A; sab += A * B; sbb += B * B; sa += A; sb += B
    det = saa * sbb - sab * sab
    return (sa * sbb - sb * sab) / det, (saa * sb - sab * sa) / det


def held(case, rule):
    return case.get("seq") in rule.get("seq", []) or case.get("batch") in rule.get("batch", [])


def mach(hw):
    d = machine(hw)
    pk, bw = d["peak_flops"], d["mem_bw"]
    return {"bw": bw["dram"], "bf16_tensor": pk["bf16_tensor"], "fp16": pk["fp16"], "units": d["units"],
            "raw": d}


def decode_rows(doc, part="models", tp=1):
    out = []
    for name, r in doc[part].items():
        for key, c in r["cases"].items():
            if "median_ms" not in c or c["median_ms"] is None:
                continue
            out.append((name, r["config"], c["batch"], c["seq"], c["median_ms"] * 1e-3))
    return out


def fit_decode(m, rows, rule, tp=1):
    """dram_frac and kernel_s from the decode steps outside the rule."""
    lin = []
    for (name, c, B, S, y) in rows:
        if held({"batch": B, "seq": S}, rule):
            continue
        recs, L = records(c, tp, "decode", B, S)
        # the steps at these batches are memory-bound: time = bytes / (f bw) +
        # n kernel_s, linear in 1 / f and kernel_s
        byt = sum(max(r[4] / m["bw"], (r[2] / (0.6 * m["bf16_tensor"]) + r[3] / m["fp16"]) * 0)
                  for r in recs)
        lin.append((byt, KERNELS_PER_LAYER * L, y))
    a, b = lsq2(lin)
    return 1.0 / a, b


def ar_time(link, n, nbytes):
    base, step, busbw = link
    if n == 1:
        return 0.0
    return base + 2 * (n - 1) * step + 2 * (n - 1) / n * nbytes / busbw


def pct(x):
    return "%+.1f%%" % (100 * x)


def report(title, cases):
    """cases: (label, forecast terms, measured s). Prints each and the
    error by dominant term; returns the list of |errors|."""
    print("\n%s" % title)
    by = {}
    errs = []
    for (label, t, y) in cases:
        f = total(t)
        e = f / y - 1
        d = dominant(t)
        by.setdefault(d, []).append(abs(e))
        errs.append(abs(e))
        print("  %-34s measured %8.3f ms  forecast %8.3f ms  %7s  (%s %.0f%%)"
              % (label, y * 1e3, f * 1e3, pct(e), d, 100 * t[d] / f))
    for d in TERMS:
        if d in by:
            v = by[d]
            print("  dominated by %-9s %2d cases: median |error| %.1f%%, max %.1f%%"
                  % (d, len(v), 100 * statistics.median(v), 100 * max(v)))
    if errs:
        print("  all %d: median |error| %.1f%%, max %.1f%%"
              % (len(errs), 100 * statistics.median(errs), 100 * max(errs)))
    return errs


def main():
    args = sys.argv[1:]
    summary = {}
    # ---------------------------------------------------------------- H100
    h100 = mach("h100")
    dec = load("h100-decode-fused.json")
    rule = dec["held_out"]
    rows = decode_rows(dec)
    f_bw, k_s = fit_decode(h100, rows, rule)
    peaks = load("h100-peaks.json")
    kc = peaks["kernel_cost"]
    # prefill: tensor_frac for bf16, dram and kernels kept
    pre = load("h100-prefill-fused.json")
    prule = pre["held_out"]
    pcases = []
    for name, r in pre["models"].items():
        for key, c in r["cases"].items():
            if "graph" in c:
                pcases.append((name, r["config"], c["seq"], c["graph"]["median_ms"] * 1e-3))
    best = None
    for i in range(300, 1000):
        tf = i / 1000.0
        T = Terms(h100, f_bw, k_s, tf)
        err = 0.0
        for (name, c, S, y) in pcases:
            if S in prule["seq"]:
                continue
            recs, L = records(c, 1, "prefill", 1, S)
            err += (total(T.step(recs, L)) / y - 1) ** 2
        if best is None or err < best[0]:
            best = (err, tf)
    tf_bf16 = best[1]
    # the other types: bf16's fraction x their share of peak over bf16's
    big = [r for r in peaks["matmul"] if r["M"] >= 2048 and "tflops" in r
           and (r["M"], r["K"], r["N"]) != (4096, 4096, 4096)]
    pk = h100["raw"]["peak_flops"]
    share = {}
    for dt, key in (("bf16", "bf16_tensor"), ("fp16", "fp16_tensor"), ("tf32", "tf32_tensor"),
                    ("fp8_e4m3", "fp8_tensor")):
        v = [r["tflops"] for r in big if r["dtype"] == dt]
        share[dt] = statistics.median(v) * 1e12 / pk[key]
    frac = {dt: tf_bf16 * share[dt] / share["bf16"] for dt in share}
    # int4: the dequantizing rate of the weight-only kernel (tinygemm)
    q = load("h100-quant-matmul.json")
    qrule = q["held_out"]
    T = Terms(h100, f_bw, k_s, tf_bf16)

    def mm_time(M, K, N, wbytes, rate):
        mem = (wbytes + 2 * M * K + 2 * M * N) / (h100["bw"] * f_bw)
        comp = 2.0 * M * K * N / (rate if rate else h100["bf16_tensor"] * tf_bf16)
        return max(mem, comp) + k_s, mem, comp

    def fit_rate(doc, key, wbytes, top):
        """The dequantizing rate (0.1 TFLOP/s steps up to top) of least
        relative squared error on doc's cases outside its held-out rule."""
        best = None
        for i in range(50, top):
            rate = i * 0.1e12
            err = 0.0
            for r in doc["cases"]:
                if r["M"] in doc["held_out"]["M"] or "median_ms" not in r.get(key, {}):
                    continue
                t, _, _ = mm_time(r["M"], r["K"], r["N"], wbytes(r), rate)
                err += (t / (r[key]["median_ms"] * 1e-3) - 1) ** 2
            if best is None or err < best[0]:
                best = (err, rate)
        if best[1] >= (top - 1) * 0.1e12:
            sys.exit("fit_forecast: the %s rate sits at the grid's top" % key)
        return best[1]

    dq_rate = fit_rate(q, "int4_wo_g128", lambda r: r["N"] * r["K"] // 2, 2000)
    T.dq_rate = dq_rate
    # int8: our fused W8A16 kernel (dev/capture/int8_wo.py), bf16 beside it
    q8 = load("h100-int8-wo.json")
    dq8_rate = fit_rate(q8, "int8_w8a16", lambda r: r["N"] * r["K"], 10000)

    print("H100 SXM (fixtures h100-decode-fused, h100-prefill-fused, h100-peaks, h100-quant-matmul, h100-int8-wo)")
    print("  dram_frac          %.3f   (achieved %.0f GB/s of %.0f)" % (f_bw, f_bw * h100["bw"] / 1e9, h100["bw"] / 1e9))
    print("  kernel_s           %.2f us (a fused graph's kernel; an empty kernel in a graph: %.2f us, eager %.2f us)"
          % (k_s * 1e6, kc["graph_tiny_add_us"], kc["eager_tiny_add_us"]))
    print("  kernels_per_layer  %d     (fused: %s)" % (KERNELS_PER_LAYER, ", ".join(
        "%s %d/%d" % (n, r.get("kernels_per_step", 0), r["config"]["L"]) for n, r in dec["models"].items())))
    print("  tensor_frac        bf16 %.3f  fp16 %.3f  tf32 %.3f  fp8 %.3f (int8: fp8's, assumed)"
          % (frac["bf16"], frac["fp16"], frac["tf32"], frac["fp8_e4m3"]))
    print("    large matmuls' share of peak: " + ", ".join("%s %.3f" % kv for kv in share.items()))
    print("  dequant rate       int4 %.1f TFLOP/s (tinygemm, fitted); int8 %.1f TFLOP/s (fused W8A16, fitted)"
          % (dq_rate / 1e12, dq8_rate / 1e12))

    # ---------------------------------------------------------------- H100 held out
    cases = []
    for (name, c, B, S, y) in rows:
        if not held({"batch": B, "seq": S}, rule):
            continue
        recs, L = records(c, 1, "decode", B, S)
        cases.append(("decode %s b%d s%d" % (name, B, S), T.step(recs, L), y))
    for (name, c, S, y) in pcases:
        if S not in prule["seq"]:
            continue
        recs, L = records(c, 1, "prefill", 1, S)
        cases.append(("prefill %s s%d" % (name, S), T.step(recs, L), y))
    for r in q["cases"]:
        if r["M"] not in qrule["M"] or "median_ms" not in r.get("int4_wo_g128", {}):
            continue
        t, mem, comp = mm_time(r["M"], r["K"], r["N"], r["N"] * r["K"] // 2, dq_rate)
        tt = dict.fromkeys(TERMS, 0.0)
        tt["dram"] = mem
        tt["dequant"] = max(0.0, comp - mem)
        tt["kernels"] = k_s
        cases.append(("int4 %s %s M%d" % (r["model"], r["proj"], r["M"]), tt,
                      r["int4_wo_g128"]["median_ms"] * 1e-3))
    for r in q8["cases"]:
        if r["M"] not in q8["held_out"]["M"] or "median_ms" not in r.get("int8_w8a16", {}):
            continue
        t, mem, comp = mm_time(r["M"], r["K"], r["N"], r["N"] * r["K"], dq8_rate)
        tt = dict.fromkeys(TERMS, 0.0)
        tt["dram"] = mem
        tt["dequant"] = max(0.0, comp - mem)
        tt["kernels"] = k_s
        cases.append(("int8 %s %s M%d" % (r["model"], r["proj"], r["M"]), tt,
                      r["int8_w8a16"]["median_ms"] * 1e-3))
    e1 = report("H100 held-out cases (decode: cache 512 or batch 16; prefill: 512 tokens; int4, int8: M = 16)", cases)
    fit_cases = []
    for (name, c, B, S, y) in rows:
        if held({"batch": B, "seq": S}, rule):
            continue
        recs, L = records(c, 1, "decode", B, S)
        fit_cases.append(("decode %s b%d s%d" % (name, B, S), T.step(recs, L), y))
    report("H100 fitted cases (decode, for comparison)", fit_cases)
    q8fit = []
    for r in q8["cases"]:
        if r["M"] in q8["held_out"]["M"] or "median_ms" not in r.get("int8_w8a16", {}):
            continue
        t, mem, comp = mm_time(r["M"], r["K"], r["N"], r["N"] * r["K"], dq8_rate)
        tt = dict.fromkeys(TERMS, 0.0)
        tt["dram"], tt["dequant"], tt["kernels"] = mem, max(0.0, comp - mem), k_s
        q8fit.append(("int8 %s %s M%d" % (r["model"], r["proj"], r["M"]), tt,
                      r["int8_w8a16"]["median_ms"] * 1e-3))
    report("H100 int8 fitted cases (M = 1, 4, 64, for comparison)", q8fit)
    comp = load("h100-decode-compiled.json")
    cc = []
    for (name, c, B, S, y) in decode_rows(comp):
        recs, L = records(c, 1, "decode", B, S)
        cc.append(("compiled %s b%d s%d" % (name, B, S), T.step(recs, L), y))
    report("torch.compile (not the implementation forecast: a faster runtime)", cc)

    # ---------------------------------------------------------------- H200
    h200 = mach("h200")
    tp1 = load("h200x4-tp1.json")
    r2 = tp1["held_out"]
    rows2 = decode_rows(tp1, "decode_fused")
    g_bw, g_k = fit_decode(h200, rows2, r2)
    T2 = Terms(h200, g_bw, g_k, tf_bf16, dq_rate)
    link = h200["raw"].get("link", {}).get("allreduce", {})
    ar = (link["base_s"], link["step_s"], link["busbw"]) if "base_s" in link else None
    print("\nH200 SXM (fixture h200x4-tp1, decode_fused; tensor and dequant (int4, int8) assumed from H100)")
    print("  dram_frac          %.3f   (achieved %.0f GB/s of %.0f)" % (g_bw, g_bw * h200["bw"] / 1e9, h200["bw"] / 1e9))
    print("  kernel_s           %.2f us" % (g_k * 1e6))
    cases2 = []
    for (name, c, B, S, y) in rows2:
        if not held({"batch": B, "seq": S}, r2):
            continue
        recs, L = records(c, 1, "decode", B, S)
        cases2.append(("tp1 %s b%d s%d" % (name, B, S), T2.step(recs, L), y))
    tpc_held, tpc_all = [], []
    for n in (2, 4):
        d = load("h200x4-tp%d.json" % n)
        for (name, c, B, S, y) in decode_rows(d, "decode_fused"):
            recs, L = records(c, n, "decode", B, S)
            nb = B * c["D"] * 2
            # rfl_llm_tp_plan's collectives: 2 a layer and the vocab-parallel
            # embedding's, and the logits' gather timed as an all-reduce
            a = ((2 * L + 1) * ar_time(ar, n, nb) + ar_time(ar, n, B * c["V"] * 2)) if ar else 0.0
            row = ("tp%d %s b%d s%d" % (n, name, B, S), T2.step(recs, L, allreduce_s=a), y)
            tpc_all.append(row)
            if held({"batch": B, "seq": S}, d["held_out"]):
                tpc_held.append(row)
    fit2 = []
    for (name, c, B, S, y) in rows2:
        if held({"batch": B, "seq": S}, r2):
            continue
        recs, L = records(c, 1, "decode", B, S)
        fit2.append(("tp1 %s b%d s%d" % (name, B, S), T2.step(recs, L), y))
    report("H200 fitted cases (one GPU, for comparison)", fit2)
    e2 = report("H200 held-out cases, one GPU (cache 512 or batch 16)", cases2)
    e3 = report("H200 tensor parallel, held-out rule (cache 512 or batch 16; TP steps never fitted)", tpc_held)
    e4 = report("H200 tensor parallel, every case (TP steps never fitted)", tpc_all)
    allh = e1 + e2 + e3
    print("\nevery held-out case: %d, median |error| %.1f%%, max %.1f%%"
          % (len(allh), 100 * statistics.median(allh), 100 * max(allh)))

    rows_h = [
        ("HOPPER_H100", "Hopper H100", "h100-sxm", f_bw, k_s, frac, dq_rate, dq8_rate,
         "fitted by dev/capture/fit_forecast.py on tests/data/forecast/h100-{decode-fused,prefill-fused,peaks,quant-matmul,int8-wo}.json (H100 SXM, bf16, torch 2.11, CUDA graphs)"),
        ("HOPPER_H200", "Hopper H200", "h200-sxm", g_bw, g_k, frac, dq_rate, dq8_rate,
         "fitted by dev/capture/fit_forecast.py on tests/data/forecast/h200x4-tp1.json (decode_fused, one H200 SXM of a 4-GPU host); tensor fractions and dequantization (int4, int8) assumed from the H100 row"),
    ]
    lines = []
    for (rid, fam, ref, bwf, ks, fr, dq, dq8, src) in rows_h:
        lines.append('F(%s, "%s", "%s", %.3f, %.0f, %d, %.3f, %.3f, %.3f, %.3f, %.1f, %.1f, \\\n  "%s")'
                     % (rid, fam, ref, bwf, ks * 1e9, KERNELS_PER_LAYER, fr["tf32"], fr["fp16"], fr["bf16"],
                        fr["fp8_e4m3"], dq / 1e12, dq8 / 1e12, src))
    print("\nrows for hw_specs.h (RFL_HW_FORECASTS):")
    for l in lines:
        print(l)
    if "--check" in args:
        path = args[args.index("--check") + 1]
        text = open(path).read()
        missing = [l for l in lines if l not in text]
        if missing:
            print("\n%s does not hold the fitted rows:" % path)
            for l in missing:
                print(l)
            sys.exit(1)
        print("\n%s holds the fitted rows" % path)


if __name__ == "__main__":
    main()
