# The step forecast's terms of roofline.h (rfl_step_forecast, hw_specs.h
# RFL_HW_STEP_FORECASTS), fitted on our measured eager PyTorch steps:
#   python3 dev/capture/fit_step.py [--check hw_specs.h] [--markdown]
# (fixtures: tests/data/step/*.json, the H200 captures of the zoo: wall
# time, summed kernel time and kernel count per step, batch 1/32/256,
# fp32/bf16, train/infer; RFL_ESTIMATE=path picks another build of
# rfl-estimate, which gives every step's kernels exactly as the library
# counts them).
#
# The model (roofline.h, "step forecast"):
#   gpu  = sum over kernels of max(GEMM tiles x waves at tensor_eff (or
#          tf32_eff, simt_eff) of the SM peak, bytes / (dram_frac x DRAM
#          BW); bwd_frac for max pool backward and broadcasts; batch norm:
#          a block a channel at norm_frac of BW / SMs; depthwise: dw_frac of
#          FP32 peak; foreach: a chunk a block) + kernels x kernel_s
#   host = ops x host_op_s + parameter tensors x host_param_s + host_step_s
#   step = max(gpu, host) + overlap x min(gpu, host)
# Fitted on the models outside the held-out third (every third model in
# name order, "held_out" below), all batches, modes and dtypes:
#   tensor_eff ... dw_frac            coordinate search (relative steps),
#                                     minimising the mean
#                                     |log(forecast / measured)| GPU time
#   kernel_s                          for each, the best by golden section
#   host_op_s, host_param_s, host_step_s, overlap
#                                     the same on the wall time, with the
#                                     measured GPU time in place of the
#                                     forecast (the host alone is fitted)
# Prints the terms, the error on the held-out models by batch, mode and
# dtype (GPU and wall time), on the Adam steps (steps-h200-adam*, never
# fitted), the kernel counts beside torch.profiler's, and
# the hw_specs.h row; --check FILE takes FILE's row instead of fitting and
# says whether the errors it states are what its terms give (exit 1 if
# not): a quick check the test suite runs. Standard library only.
import glob, gzip, json, math, os, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
DATA = os.environ.get("RFL_STEP_DATA", os.path.join(ROOT, "tests", "data", "step"))
EST = os.environ.get("RFL_ESTIMATE", os.path.join(ROOT, "build", "rfl-estimate"))
HW = "h200"


def load_cases(files=None):
    """Every measured step: model, batch, mode, dtype, optim, wall_s (median
    of the timed steps), gpu_s (kernels + memsets + memcpys of a profiled
    step, the median), kernels (torch.profiler's, the median); format
    "rfl-steps-1" of dev/capture/step_time.py (branch capture)."""
    cases = []
    for path in sorted(glob.glob(os.path.join(DATA, files or os.environ.get("RFL_STEP_FILES", "steps-h200-run2.json.gz")))):
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
            doc = json.load(f)
        for r in doc["cases"]:
            if r.get("error") or r.get("skipped"):
                continue
            st = r["steps"]
            cases.append({
                "model": r["model"], "batch": int(r["batch"]), "mode": r["mode"],
                "dtype": r["dtype"], "optim": r.get("optim", "sgd"), "wall_s": r["wall_ms"]["median"] / 1e3,
                "host_s": r["host_dispatch_ms"]["median"] / 1e3,
                "gpu_s": statistics.median(s["kernel_ns"] + s["memset_ns"] + s["memcpy_ns"] for s in st) / 1e9,
                "kernels": statistics.median(s["kernels"] for s in st),
                "file": os.path.basename(path),
            })
    return cases


_cache = {}
CACHE = os.environ.get("RFL_FIT_CACHE")  # a file keeping the forecasts between runs
if CACHE and os.path.exists(CACHE):
    with open(CACHE) as f:
        _cache = {tuple(k): v for k, v in json.load(f)}


# What dev/capture/host_op.py measures on the host of the measured steps:
# capture's host-micro-h200-run2.json (the same machine as run 2), autograd
# chain_100: forward 10.55 us an op, backward 19.65 us a node; host_op.py
# averages the two (2 x 100 ops + 3).
HOST_REF_NS = 15100
GPU_TERMS = ("te", "t32", "se", "df", "bf", "nf", "dwf")


def forecast(c, p):
    """gpu time without kernel costs, kernels, host ops, parameter tensors."""
    key = (c["model"], c["batch"], c["mode"], c["dtype"], c.get("optim", "sgd")) + tuple(round(p[k], 4) for k in GPU_TERMS)
    if key not in _cache:
        out = subprocess.check_output([
            EST, c["model"], "--batch", str(c["batch"]), "--mode", c["mode"], "--dtype", c["dtype"],
            "--hw", HW, "--forecast", "--runtime", "eager", "--optim", c.get("optim", "sgd"),
            "--step-terms", "0,%s,0,0,0,0,0" % ",".join("%g" % p[k] for k in GPU_TERMS), "--json"])
        f = json.loads(out)["forecast"]
        _cache[key] = (f["gpu_time_s"], f["kernels"], f["host_ops"], f["param_tensors"], f["bound_s"])
    return _cache[key]


def golden(fn, lo, hi, it=40):
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = fn(c), fn(d)
    for _ in range(it):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = fn(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = fn(d)
    return (a + b) / 2


def loss(pred, meas):
    return statistics.mean(abs(math.log(p / m)) for p, m in zip(pred, meas))


def fit_gpu(cases):
    def kfit(p):
        rows = [forecast(c, p) for c in cases]
        meas = [c["gpu_s"] for c in cases]
        fn = lambda k: loss([g + n * k for g, n, *_ in rows], meas)
        k = golden(fn, 0, 20e-6)
        return fn(k), k
    p = {"te": 0.6, "t32": 1.0, "se": 0.69, "df": 0.8, "bf": 0.3, "nf": 0.12, "dwf": 0.028}
    best, k = kfit(p)
    for step in (0.2, 0.1, 0.05, 0.02, 0.01):  # relative steps
        improved = True
        while improved:
            improved = False
            for name in GPU_TERMS:
                for sgn in (1, -1):
                    q = dict(p)
                    q[name] = round(q[name] * (1 + sgn * step), 4)
                    if not 0.001 <= q[name] <= (1.0 if name in ("te", "t32", "se", "df", "bf") else 3.0):
                        continue
                    l, kk = kfit(q)
                    if l < best - 1e-7:
                        best, k, p, improved = l, kk, q, True
    return p, k


def host_time(h, n_ops, n_kern, n_par):
    return n_ops * h[0] + n_kern * h[1] + n_par * h[2] + h[3]


def step_time(gpu, host, ov):
    return max(gpu, host) + ov * min(gpu, host)


def fit_host(cases, rows):
    """The host's terms on the measured host dispatch time; then the
    overlap on the wall time, with the measured GPU time."""
    meas = [c["host_s"] for c in cases]
    def fn(h):
        return loss([host_time(h, r[2], r[1], r[3]) for r in rows], meas)
    h = [10e-6, 5e-6, 3e-6, 100e-6, 0.1]
    best = fn(h)
    for rnd in range(6):
        for i in range(4):
            hi = {0: 100e-6, 1: 50e-6, 2: 100e-6, 3: 5e-3}[i]
            def f1(v, i=i):
                q = list(h)
                q[i] = v
                return fn(q)
            v = golden(f1, 0, hi)
            if f1(v) < best:
                best, h[i] = f1(v), v
    walls = [c["wall_s"] for c in cases]
    def fo(ov):
        return loss([step_time(c["gpu_s"], host_time(h, r[2], r[1], r[3]), ov) for c, r in zip(cases, rows)], walls)
    h[4] = golden(fo, 0, 1)
    return h


def pct(x):
    return "%.1f%%" % (100 * x)


def summary(errs):
    a = sorted(abs(e) for e in errs)
    return statistics.median(a), sum(1 for e in a if e <= 0.25) / len(a), len(a)


def table_terms(path):
    """The S(HOPPER_H200, ...) row of hw_specs.h."""
    import re
    with open(path) as f:
        m = re.search(r'S\(HOPPER_H200, "Hopper H200", "h200-sxm", ([^"]*)\\\n', f.read())
    v = [float(x) for x in m.group(1).replace(" ", "").strip(",").split(",")]
    p = dict(zip(GPU_TERMS, v[1:8]))
    return p, v[0] * 1e-9, [v[8] * 1e-9, v[9] * 1e-9, v[10] * 1e-9, v[11] * 1e-6, v[12]]


def main():
    cases = load_cases()
    if not cases:
        sys.exit("no fixtures in %s" % DATA)
    models = sorted(set(c["model"] for c in cases))
    held_models = set(models[2::3])
    fit_cases = [c for c in cases if c["model"] not in held_models]
    if "--check" in sys.argv:  # the table's terms, not a new fit: fast
        p, k, h = table_terms(sys.argv[sys.argv.index("--check") + 1])
    else:
        p, k = fit_gpu(fit_cases)
    if CACHE:
        with open(CACHE, "w") as f:
            json.dump([[list(k_), v] for k_, v in _cache.items()], f)
    if "--check" not in sys.argv:
        rows_fit = [forecast(c, p) for c in fit_cases]
        h = fit_host(fit_cases, rows_fit)
    print("fitted on %d steps of %d models (%d steps of %d models held out: %s)" % (
        len(fit_cases), len(models) - len(held_models), len(cases) - len(fit_cases), len(held_models),
        ", ".join(sorted(held_models))))
    print("tensor_eff %.3f tf32_eff %.3f simt_eff %.3f dram_frac %.3f bwd_frac %.3f norm_frac %.3f dw_frac %.3f kernel %.0f ns"
          % (p["te"], p["t32"], p["se"], p["df"], p["bf"], p["nf"], p["dwf"], k * 1e9))
    print("host %.0f ns/op, %.0f ns/kernel, %.0f ns/param, %.1f us/step, overlap %.3f"
          % (h[0] * 1e9, h[1] * 1e9, h[2] * 1e9, h[3] * 1e6, h[4]))
    res = []
    for c in cases:
        g, n, ops, par, bound = forecast(c, p)
        gpu = g + n * k
        host = host_time(h, ops, n, par)
        res.append(dict(c, f_gpu=gpu, f_host=host, f_wall=step_time(gpu, host, h[4]), f_kernels=n, bound=bound,
                        held=c["model"] in held_models))
    md = "--markdown" in sys.argv
    files0 = sorted(set(c["file"] for c in cases))
    for label, sel in (("held-out", True), ("fitted", False)):
        rs = [r for r in res if r["held"] == sel]
        print("\n%s models: error of the forecast (median |error|, share within 25%%, steps)" % label)
        if md:
            print("| steps | GPU median | GPU within 25% | wall median | wall within 25% | n |\n|---|---|---|---|---|---|")
        groups = [("all", lambda r: True)]
        groups += [("batch %d" % b, (lambda b: lambda r: r["batch"] == b)(b)) for b in sorted(set(r["batch"] for r in rs))]
        groups += [(m, (lambda m: lambda r: r["mode"] == m)(m)) for m in ("train", "infer")]
        groups += [(d, (lambda d: lambda r: r["dtype"] == d)(d)) for d in sorted(set(r["dtype"] for r in rs))]
        for name, f in groups:
            sub = [r for r in rs if f(r)]
            if not sub:
                continue
            gm, g25, n = summary([r["f_gpu"] / r["gpu_s"] - 1 for r in sub])
            hm, h25, _ = summary([r["f_host"] / r["host_s"] - 1 for r in sub])
            wm, w25, _ = summary([r["f_wall"] / r["wall_s"] - 1 for r in sub])
            if md:
                print("| %s | %s | %s | %s | %s | %d |" % (name, pct(gm), pct(g25), pct(wm), pct(w25), n))
            else:
                print("  %-10s GPU %6s %6s   wall %6s %6s   host %6s %6s  (%d)" % (name, pct(gm), pct(g25), pct(wm), pct(w25), pct(hm), pct(h25), n))
    # Adam (tests/data/step/steps-h200-adam*.json.gz): never fitted, every model
    adam = []
    for c in load_cases("steps-h200-adam*.json.gz"):
        g, n, ops, par, bound = forecast(c, p)
        gpu = g + n * k
        host = host_time(h, ops, n, par)
        adam.append(dict(c, f_gpu=gpu, f_host=host, f_wall=step_time(gpu, host, h[4]), f_kernels=n, bound=bound,
                         held=c["model"] in held_models))
    if adam:
        print("\nAdam training steps (never fitted): error of the forecast")
        for name, f in (("all", lambda r: True), ("held-out", lambda r: r["held"])) + tuple(
                ("batch %d" % b, (lambda b: lambda r: r["batch"] == b)(b)) for b in sorted(set(r["batch"] for r in adam))) + tuple(
                (d, (lambda d: lambda r: r["dtype"] == d)(d)) for d in sorted(set(r["dtype"] for r in adam))):
            sub = [r for r in adam if f(r)]
            gm, g25, n = summary([r["f_gpu"] / r["gpu_s"] - 1 for r in sub])
            wm, w25, _ = summary([r["f_wall"] / r["wall_s"] - 1 for r in sub])
            if md:
                print("| %s | %s | %s | %s | %s | %d |" % (name, pct(gm), pct(g25), pct(wm), pct(w25), n))
            else:
                print("  %-10s GPU %6s %6s   wall %6s %6s  (%d)" % (name, pct(gm), pct(g25), pct(wm), pct(w25), n))
        x = [r["f_kernels"] / r["kernels"] for r in adam]
        print("  kernels a step, forecast / torch.profiler: median %.3f, within 10%%: %d of %d" % (
            statistics.median(x), sum(1 for v in x if abs(v - 1) <= 0.1), len(x)))
    kr = [r["f_kernels"] / r["kernels"] for r in res if r.get("kernels")]
    if kr:
        print("\nkernels a step, forecast / torch.profiler: median %.3f, within 10%%: %d of %d" % (
            statistics.median(kr), sum(1 for x in kr if abs(x - 1) <= 0.1), len(kr)))
        for m in ("train", "infer"):
            for d in sorted(set(r["dtype"] for r in res)):
                x = [r["f_kernels"] / r["kernels"] for r in res if r.get("kernels") and r["mode"] == m and r["dtype"] == d]
                if x:
                    print("  %s %s: median %.3f, range %.2f-%.2f" % (m, d, statistics.median(x), min(x), max(x)))
    if "--cases" in sys.argv:
        for r in res + adam:
            print("  %-20s b%-4d %-5s %-4s gpu %9.3f ms / %9.3f  wall %9.3f / %9.3f  kernels %5d / %s %s" % (
                r["model"], r["batch"], r["mode"], r["dtype"], r["f_gpu"] * 1e3, r["gpu_s"] * 1e3,
                r["f_wall"] * 1e3, r["wall_s"] * 1e3, r["f_kernels"], r.get("kernels"), "held" if r["held"] else ""))
    if "--csv" in sys.argv:  # the measurements the unit test checks the table's forecast on
        with open(sys.argv[sys.argv.index("--csv") + 1], "w") as f:
            f.write("# model,batch,mode,dtype,gpu_s,wall_s,kernels,held: measured (median) on one H200 SXM;\n"
                    "# from tests/data/step/%s by dev/capture/fit_step.py --csv; held: not fitted\n" % ",".join(files0))
            f.write("# a 9th column \"adam\": torch.optim.Adam (tests/data/step/steps-h200-adam*.json.gz), never fitted\n")
            for r in res + adam:
                f.write("%s,%d,%s,%s,%.6g,%.6g,%g,%d%s\n" % (r["model"], r["batch"], r["mode"], r["dtype"],
                                                         r["gpu_s"], r["wall_s"], r["kernels"], r["held"],
                                                         ",adam" if r.get("optim") == "adam" else ""))
    hg = summary([r["f_gpu"] / r["gpu_s"] - 1 for r in res if r["held"]])
    hw = summary([r["f_wall"] / r["wall_s"] - 1 for r in res if r["held"]])
    files = sorted(set(c["file"] for c in cases))
    row = ('S(HOPPER_H200, "Hopper H200", "h200-sxm", %.0f, %.3f, %.3f, %.3f, %.3f, %.3f, %.4f, %.4f, %.0f, %.0f, %.0f, %.1f, %.3f, %.0f, \\\n'
           '  "fitted by dev/capture/fit_step.py on tests/data/step/%s (eager PyTorch steps of the zoo on one H200 SXM); '
           'held-out models: GPU time median error %s, %s within 25%%; wall time median %s, %s within 25%%; host_ref: capture\'s host-micro-h200-run2.json, autograd chain_100 (forward 10.5 us an op, backward 19.7 us a node), averaged as host_op.py does")' % (
               k * 1e9, p["te"], p["t32"], p["se"], p["df"], p["bf"], p["nf"], p["dwf"],
               h[0] * 1e9, h[1] * 1e9, h[2] * 1e9, h[3] * 1e6, h[4], HOST_REF_NS,
               files[0] if len(files) == 1 else "{" + ",".join(files) + "}",
               pct(hg[0]), pct(hg[1]), pct(hw[0]), pct(hw[1])))
    print("\nhw_specs.h row:\n" + row)
    if "--check" in sys.argv:
        with open(sys.argv[sys.argv.index("--check") + 1]) as f:
            if row not in f.read():
                print("--check: the file does not hold this row")
                sys.exit(1)
        print("--check: the file holds this row")


if __name__ == "__main__":
    main()
