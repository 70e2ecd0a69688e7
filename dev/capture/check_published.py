# The LLM forecast (rfl_llm_forecast, runtime fused) against published
# end-to-end timings on GPUs it was never fitted on
# (tests/data/forecast/published.json; issue 38 item 6):
#   python3 dev/capture/check_published.py [--cases] [--require N [--require50 M]]
#   python3 dev/capture/check_published.py --fit-link [--check hw_specs.h]
# Each case: the prefill of batch x input tokens (--phase prefill) and, for
# latency and throughput, output - 1 decode steps at the mean context
# (input + output / 2: a decode step's time grows linearly with its
# context), on --gpus N of the machine's own link. Prints every case with
# --cases, then the counts within 25% and 50% of the cases marked "check"
# (--require N: exit 1 unless N are within 25% and all, or M, within 50%).
# --fit-link fits the A100 SXM4's NVLink 3 all-reduce on the cases marked
# "fit" (NeMo's batch-1 latencies on 2, 4, 8 GPUs: the engine's own
# all-reduce cost) and says whether hw_specs.h holds it.
# Standard library only; the forecast is build/rfl-estimate's (RFL_ESTIMATE).
import json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
DATA = os.path.join(ROOT, "tests", "data", "forecast")
EST = os.environ.get("RFL_ESTIMATE", os.path.join(ROOT, "build", "rfl-estimate"))


def step_json(c, phase, batch, seq):
    m = c["model"]
    args = [EST] + (["--hf-config", os.path.join(DATA, m)] if m.endswith(".json") else [m])
    args += ["--phase", phase, "--batch", str(batch), "--seq", str(seq), "--dtype", c["dtype"],
             "--hw", c["hw"], "--forecast", "--json"]
    if c["gpus"] > 1:
        args += ["--gpus", str(c["gpus"])]
    return json.loads(subprocess.check_output(args))["forecast"]


def step(c, phase, batch, seq):
    return step_json(c, phase, batch, seq)["step_time_s"]


def forecast(c):
    t = step(c, "prefill", c["batch"], c["input"])
    if c["metric"] == "ttft_ms":
        return 1e3 * t
    t += (c["output"] - 1) * step(c, "decode", c["batch"], c["input"] + c["output"] // 2)
    if c["metric"] == "latency_ms":
        return 1e3 * t
    return c["batch"] * c["output"] / t / (c["gpus"] if c["metric"].endswith("per_gpu") else 1)


def fit_link(doc):
    """The A100 SXM4 NVLink 3 all-reduce (base + 2 (n - 1) step, graph) on
    the cases marked "fit": each step's collectives re-timed, the rest kept."""
    hw = os.environ.get("RFL_HW", os.path.join(ROOT, "build", "rfl-hw"))
    ar = json.loads(subprocess.check_output([hw, "a100-sxm4-80gb", "--json"]))["link"].get("allreduce")
    # the latency the forecast paid (the table's fit, else H100 / H200's, NVLINK4_HGX)
    H100_BASE, H100_STEP = (ar["base_s"], ar["step_s"]) if ar else (8.541e-6, 0.924e-6)
    rows = []
    for c in doc["cases"]:
        if c["use"] != "fit":
            continue
        n, parts = c["gpus"], []
        for ph, b, s, k in (("prefill", c["batch"], c["input"], 1),
                            ("decode", c["batch"], c["input"] + c["output"] // 2, c["output"] - 1)):
            f = step_json(c, ph, b, s)
            cnt = [t["value"] for t in f["terms"] if t["name"] == "allreduce"][0]
            parts.append((k, f["step_time_s"] - cnt * (H100_BASE + 2 * (n - 1) * H100_STEP), cnt))
        rows.append((c, n, parts))
    best = None
    for i in range(0, 400):
        base = i * 0.25e-6
        for j in range(0, 200):
            st = j * 0.1e-6
            e = 0
            for c, n, parts in rows:
                t = sum(k * (rest + cnt * (base + 2 * (n - 1) * st)) for k, rest, cnt in parts)
                e += (1e3 * t / c["value"] - 1) ** 2
            if best is None or e < best[0]:
                best = (e, base, st)
    print("A100 SXM4 NVLink 3 all-reduce fitted on %d published cases: base %.0f ns, step %.0f ns"
          % (len(rows), best[1] * 1e9, best[2] * 1e9))
    row = "  %.0f, %.0f, 183.7, 0, 8," % (best[1] * 1e9, best[2] * 1e9)
    if "--check" in sys.argv:
        path = sys.argv[sys.argv.index("--check") + 1]
        if row not in open(path).read():
            print("%s does not hold the fitted NVLINK3_HGX values:%s" % (path, row))
            sys.exit(1)
        print("%s holds the fitted NVLINK3_HGX values" % path)


def main():
    doc = json.load(open(os.path.join(DATA, "published.json")))
    if "--fit-link" in sys.argv:
        fit_link(doc)
        return
    n = w25 = w50 = 0
    worst = 0.0
    for c in doc["cases"]:
        f = forecast(c)
        e = f / c["value"] - 1
        if "--cases" in sys.argv:
            print("%-13s %-9s %-14s %d GPU %-5s b%-4d %5d/%-5d %-16s published %8.1f forecast %8.1f  %+6.1f%%  %s"
                  % (c["use"], c["engine"][:9], c["hw"], c["gpus"], c["dtype"], c["batch"], c["input"], c["output"],
                     c["metric"], c["value"], f, 100 * e, os.path.basename(c["model"])))
        if c["use"] != "check":
            continue
        n += 1
        w25 += abs(e) <= 0.25
        w50 += abs(e) <= 0.50
        worst = max(worst, abs(e))
    print("published check cases: %d, within 25%%: %d, within 50%%: %d, worst %.1f%%" % (n, w25, w50, 100 * worst))
    need50 = int(sys.argv[sys.argv.index("--require50") + 1]) if "--require50" in sys.argv else n
    if "--require" in sys.argv and (w25 < int(sys.argv[sys.argv.index("--require") + 1]) or w50 < need50):
        sys.exit(1)


if __name__ == "__main__":
    main()
