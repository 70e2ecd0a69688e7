# Summary of two packed step runs: per case wall / kernel medians, and the
# run-to-run spread (|run2/run1 - 1|) by batch. usage: steps_summary.py R1 R2
import gzip, json, sys, statistics as st
def load(p):
    d = json.load(gzip.open(p))
    return d, {(c["model"], c["batch"], c["dtype"], c["mode"]): c for c in d["cases"]}
d1, a = load(sys.argv[1]); d2, b = load(sys.argv[2])
def kern(c):
    return st.median(s["kernel_ns"] for s in c["steps"]) / 1e6
print("cases", len(a), len(b), "measured", sum("wall_ms" in c for c in a.values()), sum("wall_ms" in c for c in b.values()),
      "errors", [k for k, c in a.items() if "wall_ms" not in c] + [k for k, c in b.items() if "wall_ms" not in c])
for B in (1, 32, 256):
    ks = [k for k in a if k[1] == B and k in b and "wall_ms" in a[k] and "wall_ms" in b[k]]
    dw = sorted(abs(b[k]["wall_ms"]["median"] / a[k]["wall_ms"]["median"] - 1) for k in ks)
    dk = sorted(abs(kern(b[k]) / kern(a[k]) - 1) for k in ks)
    cnt = sum(a[k]["steps"][-1]["kernels"] != b[k]["steps"][-1]["kernels"] for k in ks)
    ratio = sorted(a[k]["wall_ms"]["median"] / kern(a[k]) for k in ks)
    print("batch %3d: %d cases; run-to-run |d| wall median %.1f%% p90 %.1f%% max %.1f%%; kernel time median %.2f%% p90 %.2f%% max %.1f%%; "
          "kernel-count differs in %d; wall/kernel-time median %.2f (min %.2f max %.2f)" % (
          B, len(ks), 100 * st.median(dw), 100 * dw[int(.9 * len(dw))], 100 * dw[-1],
          100 * st.median(dk), 100 * dk[int(.9 * len(dk))], 100 * dk[-1], cnt, st.median(ratio), ratio[0], ratio[-1]))
for k in [("resnet18", 1, "fp32", "train"), ("resnet18", 1, "fp32", "infer"), ("resnet50", 32, "bf16", "train"),
          ("resnet50", 256, "bf16", "train"), ("vgg16", 256, "fp32", "train"), ("densenet121", 1, "fp32", "train")]:
    for nm, r in (("run1", a), ("run2", b)):
        c = r[k]; s = c["steps"][-1]
        print("%-12s b%-3d %s %s %s: wall %.3f ms (p10 %.3f p90 %.3f, n %d), host dispatch %.3f ms, kernels %.3f ms x %d, "
              "aten %d, nodes %d, launches %d" % (k + (nm, c["wall_ms"]["median"], c["wall_ms"]["p10"], c["wall_ms"]["p90"], c["n_timed"],
              c["host_dispatch_ms"]["median"], kern(c), s["kernels"], s["aten_top"], s["autograd_nodes"], s["launches"])))
