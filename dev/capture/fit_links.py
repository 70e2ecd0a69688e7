# The all-reduce time model of roofline.h (rfl_allreduce_time), fitted on
# our NCCL measurements:
#   python3 dev/capture/fit_links.py [FIXTURE.json ...]
# (default: tests/data/forecast/h200x4-tp{2,4}{,-run1}.json, written by
# forecast_nccl.py: torch.distributed.all_reduce, bf16, 2 and 4 GPUs of one
# 4 x H200 host, NVLink multicast off, eager and in a CUDA graph).
#
# The model is NCCL's own ring cost (src/graph/tuning.cc: a base latency,
# plus nsteps x a per-step latency, plus bytes over the bus bandwidth):
#   t(n, bytes) = base + 2 (n - 1) x step + 2 (n - 1) / n x bytes / busbw
# busbw is the achieved bus bandwidth (nccl-tests' definition). It is fitted
# on the CUDA-graph medians (what a decode step replayed as a graph pays):
# least squares on the relative error, which is linear in base, step and
# 1 / busbw, every size weighing the same. A call launched eagerly pays a
# further fixed cost: eager = the same model + eager_extra, fitted the same
# way on the eager medians with step and busbw kept.
# Rows named by a fixture's held_out rule (messages of 16 and 512 tokens)
# stay out of the fit; the errors on them are printed apart.
# Prints the fitted values, the error on every row, the error by size band,
# and the line for hw_specs.h (ns and GB/s). Standard library only.
import json, os, statistics, sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "tests", "data", "forecast")
DEFAULT = ["h200x4-tp2.json", "h200x4-tp4.json", "h200x4-tp2-run1.json", "h200x4-tp4-run1.json"]


def load(paths):
    rows = []
    for p in paths:
        with open(p) as f:
            d = json.load(f)
        n = d["env"]["gpus"]
        held_tokens = d.get("held_out", {}).get("tokens", [])
        for r in d.get("allreduce", []):
            if "error" in r:
                continue
            held = r["kind"] == "tp" and r["tokens"] in held_tokens
            rows.append({"file": os.path.basename(p), "n": n, "bytes": r["bytes"],
                         "graph": r["graph"]["median_ms"] * 1e-3,
                         "eager": r["eager"]["median_ms"] * 1e-3, "held": held,
                         "what": "%s %s x %s" % (r["kind"], r["hidden"], r["tokens"])
                         if r["kind"] == "tp" else "sweep"})
    return rows


def feats(r):
    n = r["n"]
    return [1.0, 2.0 * (n - 1), 2.0 * (n - 1) / n * r["bytes"]]


def solve(a, b):
    """Gauss-Jordan with partial pivoting (a is small and well scaled)."""
    k = len(b)
    m = [a[i][:] + [b[i]] for i in range(k)]
    for i in range(k):
        p = max(range(i, k), key=lambda j: abs(m[j][i]))
        m[i], m[p] = m[p], m[i]
        for j in range(k):
            if j != i:
                f = m[j][i] / m[i][i]
                m[j] = [x - f * y for x, y in zip(m[j], m[i])]
    return [m[i][k] / m[i][i] for i in range(k)]


def fit_graph(rows):
    """min sum ((base + s step + x / busbw) / t - 1)^2: linear least squares
    in (base, step, 1 / busbw) with weights 1 / t^2."""
    k = 3
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for r in rows:
        t, x = r["graph"], feats(r)
        w = 1.0 / (t * t)
        for i in range(k):
            b[i] += w * x[i] * t
            for j in range(k):
                a[i][j] += w * x[i] * x[j]
    base, step, inv_bw = solve(a, b)
    return base, step, 1.0 / inv_bw


def model(p, r, eager_extra=0.0):
    base, step, busbw = p
    x = feats(r)
    return base + x[1] * step + x[2] / busbw + eager_extra


def fit_eager(rows, p):
    """The one constant e minimising sum ((model + e) / t - 1)^2."""
    num = sum((r["eager"] - model(p, r)) / r["eager"] ** 2 for r in rows)
    den = sum(1.0 / r["eager"] ** 2 for r in rows)
    return num / den


def errors(rows, p, col, extra=0.0):
    return [model(p, r, extra) / r[col] - 1.0 for r in rows]


def summary(errs):
    a = [abs(e) for e in errs]
    return "n %3d  median |err| %5.1f%%  max |err| %5.1f%%" % (
        len(a), 100 * statistics.median(a), 100 * max(a))


BANDS = [(0, 1 << 20, "< 1 MiB"), (1 << 20, 1 << 25, "1-32 MiB"), (1 << 25, 1 << 62, ">= 32 MiB")]


def main():
    paths = sys.argv[1:] or [os.path.join(DATA, f) for f in DEFAULT]
    rows = load(paths)
    fit = [r for r in rows if not r["held"]]
    held = [r for r in rows if r["held"]]
    p = fit_graph(fit)
    e = fit_eager(fit, p)
    base, step, busbw = p
    print("all-reduce, ring: t = base + 2 (n - 1) step + 2 (n - 1) / n bytes / busbw")
    print("fitted on %d rows (graph medians), %d held out; fixtures: %s" %
          (len(fit), len(held), ", ".join(os.path.basename(x) for x in paths)))
    print("  base   %8.3f us" % (base * 1e6))
    print("  step   %8.3f us" % (step * 1e6))
    print("  busbw  %8.1f GB/s" % (busbw / 1e9))
    print("  eager  %8.3f us more per call outside a CUDA graph" % (e * 1e6))
    print("\nerrors (model / measured - 1):")
    for col, extra in (("graph", 0.0), ("eager", e)):
        print("  %-5s fit:      %s" % (col, summary(errors(fit, p, col, extra))))
        print("  %-5s held-out: %s" % (col, summary(errors(held, p, col, extra))))
        for lo, hi, name in BANDS:
            sel = [r for r in rows if lo <= r["bytes"] < hi]
            print("  %-5s %-9s (fit and held): %s" % (col, name, summary(errors(sel, p, col, extra))))
    print("\nrow by row (graph; H = held out):")
    for r in sorted(rows, key=lambda r: (r["n"], r["bytes"], r["file"])):
        m = model(p, r)
        print("  n=%d %11d B %-16s %-20s %9.1f us  model %9.1f us  %+6.1f%% %s" % (
            r["n"], r["bytes"], r["what"], r["file"], r["graph"] * 1e6, m * 1e6,
            100 * (m / r["graph"] - 1), "H" if r["held"] else ""))
    print("\nhw_specs.h (ns, ns, GB/s, ns, GPUs measured):")
    print("  %d, %d, %.1f, %d, %d" % (round(base * 1e9), round(step * 1e9), busbw / 1e9,
                                     round(e * 1e9), max(r["n"] for r in rows)))


if __name__ == "__main__":
    main()
