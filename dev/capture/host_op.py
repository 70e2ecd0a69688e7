# The host's CPU time per op in eager PyTorch, measured on your own machine,
# for rfl_step_forecast (rfl-estimate --forecast --runtime eager):
#   python3 dev/capture/host_op.py                     prints the "host" object
#   python3 dev/capture/host_op.py --hw-file m.json    adds it to a machine file
#                                                      (rfl-hw NAME --json > m.json)
# then: rfl-estimate resnet18 --hw-file m.json --forecast
# How: a chain of 100 tiny multiplies on the GPU and its backward (100 ops,
# 100 autograd nodes), timed on the host with one synchronisation per step;
# the kernels are tiny, so the host sets the pace and the step's time over
# 200 is what one op (forward op or autograd node) costs the CPU. Median of
# 50 steps after 20 of warm-up. Needs torch with CUDA.
import argparse, json, platform, statistics, time

import torch


def measure(n=100, steps=50, warm=20):
    x = torch.randn(64, device="cuda", requires_grad=True)
    times = []
    for i in range(warm + steps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        y = x
        for _ in range(n):
            y = y * 1.0001
        y.sum().backward()
        x.grad = None
        torch.cuda.synchronize()
        if i >= warm:
            times.append(time.perf_counter() - t0)
    return statistics.median(times) / (2 * n + 3)  # + sum, its node, the seed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hw-file", help="a machine file to add the host object to")
    ap.add_argument("-o", "--out", help="where to write it (default: standard output)")
    a = ap.parse_args()
    op = measure()
    host = {"op_s": op, "source": "dev/capture/host_op.py on %s (%s), torch %s, %s" % (
        platform.node(), platform.processor() or platform.machine(), torch.__version__,
        torch.cuda.get_device_name(0))}
    doc = {"host": host}
    if a.hw_file:
        with open(a.hw_file) as f:
            doc = json.load(f)
        doc["host"] = host
    text = json.dumps(doc, indent=2) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
