# The LLM forecast's "eager" and "graphs" runtimes (rfl_llm_forecast, issue 38
# item 5): transformers' own decode step (bf16, SDPA, StaticCache), fitted on
# Llama-3.1-8B and checked on Qwen3-8B, both runs of
# tests/data/step/llm-steps-h200-run{1,2}.json.gz:
#   python3 dev/capture/fit_hf_steps.py [--check hw_specs.h]
# The model (what roofline.h computes):
#   graphs = the fused forecast's records at the achieved DRAM bandwidth (t2)
#          + kernels x kernel_s, kernels = layers x (38 + 8 a norm) + 27
#            (transformers' eager RMSNorm is 8 kernels: 2 a layer, 2 more
#            with qk_norm; counted in the profiles)
#          + the static cache: repeat_kv copies every K and V to all heads
#            (read kv, write heads/kv_heads x kv) and SDPA reads the copies,
#            over the whole cache (cached + 128 positions, masked), at
#            att_frac of the DRAM bandwidth, less the cache read t2 holds
#   eager  = max(graphs, host) + 0.064 x min (the step terms' overlap),
#            host = host_op x ops, ops = layers x (kernels a layer + 10) + 15
# Fitted on Llama (least squares, relative): kernel_s and att_frac on the
# graph replays, host_op on the eager walls. Standard library only.
import gzip, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
EST = os.environ.get("RFL_ESTIMATE", os.path.join(ROOT, "build", "rfl-estimate"))
BW = 4.8e12          # H200 SXM DRAM, hw_specs.h
DRAM_FRAC = 0.662    # RFL_HW_FORECASTS' H200 row
OVERLAP = 0.064      # RFL_HW_STEP_FORECASTS' H200 row
CFG = {"llama-3.1-8b": (32, 32, 8, 128, 0), "qwen3-8b": (36, 32, 8, 128, 1)}


def t2(model, b, s):
    out = subprocess.check_output([EST, "--hf-config", os.path.join(ROOT, "tests/data/hf/%s.json" % model),
                                   "--phase", "decode", "--batch", str(b), "--seq", str(s),
                                   "--hw", "h200", "--forecast", "--runtime", "fused", "--json"])
    f = json.loads(out)["forecast"]
    return f["step_time_s"] - sum(t["seconds"] for t in f["terms"] if t["name"] == "kernels")


def parts(model, b, s):
    L, H, KV, HD, qkn = CFG[model]
    kpl = 38 + 8 * (2 + 2 * qkn)
    kernels = L * kpl + 27
    ops = L * (kpl + 10) + 15
    kv = b * KV * (s + 128) * HD * 2.0
    rep = H / KV
    att = 2 * L * kv * ((1 + 2 * rep) if rep > 1 else 1)
    seqread = 2 * L * b * KV * s * HD * 2.0 / (BW * DRAM_FRAC)
    return t2(model, b, s), kernels, ops, att, seqread


def graphs(p, k, fa):
    return p[0] + p[1] * k + p[3] / (BW * fa) - p[4]


def eager(p, k, fa, h):
    g, host = graphs(p, k, fa), p[2] * h
    return max(g, host) + OVERLAP * min(g, host)


def main():
    cases = []
    for run in (1, 2):
        d = json.load(gzip.open(os.path.join(ROOT, "tests/data/step/llm-steps-h200-run%d.json.gz" % run)))
        for c in d["cases"]:
            cases.append((c["model"], c["batch"], c["cached"], run,
                          c["graph_ms"]["median"] * 1e-3, c["eager_ms"]["median"] * 1e-3))
    P = {(m, b, s): parts(m, b, s) for (m, b, s, _, _, _) in cases}
    fit = [c for c in cases if c[0] == "llama-3.1-8b"]

    def err_g(k, fa, cs):
        return sum((graphs(P[c[:3]], k, fa) / c[4] - 1) ** 2 for c in cs)
    best = None
    for i in range(1, 400):
        k = i * 0.02e-6
        for j in range(5, 100):
            fa = j * 0.005
            e = err_g(k, fa, fit)
            if best is None or e < best[0]:
                best = (e, k, fa)
    _, k, fa = best
    bh = None
    for i in range(1, 600):
        h = i * 0.1e-6
        e = sum((eager(P[c[:3]], k, fa, h) / c[5] - 1) ** 2 for c in fit)
        if bh is None or e < bh[0]:
            bh = (e, h)
    h = bh[1]
    print("fitted on llama-3.1-8b (both runs): kernel_s %.2f us, att_frac %.3f, host_op %.1f us" % (k * 1e6, fa, h * 1e6))
    print("| runtime | model | batch | context | run | measured ms | forecast ms | error |")
    print("|---|---|---|---|---|---|---|---|")
    errs = {}
    for rt in ("graphs", "eager"):
        for c in cases:
            y = c[4] if rt == "graphs" else c[5]
            f = graphs(P[c[:3]], k, fa) if rt == "graphs" else eager(P[c[:3]], k, fa, h)
            e = f / y - 1
            errs.setdefault((rt, c[0]), []).append(abs(e))
            print("| %s | %s | %d | %d | %d | %.2f | %.2f | %+.1f%% |" % (rt, c[0], c[1], c[2], c[3], y * 1e3, f * 1e3, 100 * e))
    for key, v in sorted(errs.items()):
        v.sort()
        print("%s %s: median |error| %.1f%%, max %.1f%%" % (key[0], key[1], 100 * v[len(v) // 2], 100 * v[-1]))
    row = 'H(HOPPER_H200, "Hopper H200", "h200-sxm", %.0f, %.3f, %.0f)' % (k * 1e9, fa, h * 1e9)
    print("\nrow for hw_specs.h (RFL_HW_HF_FORECASTS):\n" + row)
    if "--check" in sys.argv:
        path = sys.argv[sys.argv.index("--check") + 1]
        if row not in open(path).read():
            print("%s does not hold the fitted row" % path)
            sys.exit(1)
        print("%s holds the fitted row" % path)


if __name__ == "__main__":
    main()
