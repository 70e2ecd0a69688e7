# Host-dispatch micro-benchmarks for the eager-overhead model (issue 38 item 3):
# CPU time per dispatched op, per autograd node, per optimizer parameter, and
# GPU time per tiny kernel in eager and in a CUDA graph. Medians of 7 repeats.
# usage: host_micro.py OUT.json
import json, sys, time
import torch
import torch.nn.functional as F

def log(*a):
    print(time.strftime("%H:%M:%S", time.gmtime()), *a, flush=True)

def med(v):
    v = sorted(v); return v[len(v) // 2]

def host_per_call(fn, n, reps=7):
    """host seconds per call without sync (dispatch), and with the final sync"""
    for _ in range(n // 10 + 3):
        fn()
    torch.cuda.synchronize()
    disp, tot = [], []
    for _ in range(reps):
        t0 = time.perf_counter(); 
        for _ in range(n):
            fn()
        t1 = time.perf_counter(); torch.cuda.synchronize(); t2 = time.perf_counter()
        disp.append((t1 - t0) / n); tot.append((t2 - t0) / n)
    return dict(dispatch_us=med(disp) * 1e6, with_sync_us=med(tot) * 1e6, n=n, reps=reps)

def main():
    out = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__,
           "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "ops": {}}
    dev = "cuda"
    x = torch.ones(1, device=dev); y = torch.ones(1, device=dev)
    a16 = torch.randn(16, 16, device=dev); img = torch.randn(1, 8, 8, 8, device=dev)
    w = torch.randn(8, 8, 3, 3, device=dev); lw = torch.randn(16, 16, device=dev)
    bn = torch.nn.BatchNorm2d(8).to(dev)
    cases = {
        "add_1elem": lambda: torch.add(x, y),
        "add_inplace_1elem": lambda: x.add_(0.0),
        "mul_scalar_1elem": lambda: x * 1.0,
        "relu_1elem": lambda: F.relu(x),
        "mm_16x16": lambda: torch.mm(a16, a16),
        "linear_16": lambda: F.linear(a16, lw),
        "conv2d_1x8x8x8_k3": lambda: F.conv2d(img, w, padding=1),
        "batchnorm2d_train_1x8x8x8": lambda: bn(img),
        "view_no_kernel": lambda: x.view(1, 1),
        "empty_1elem": lambda: torch.empty(1, device=dev),
        "event_record": lambda: torch.cuda.Event().record(),
    }
    with torch.no_grad():
        for k, fn in cases.items():
            out["ops"][k] = host_per_call(fn, 1000)
            log(k, out["ops"][k])
    # autocast adds a cast dispatch per op
    def ac():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            torch.mm(a16, a16)
    with torch.no_grad():
        out["ops"]["mm_16x16_autocast_bf16"] = host_per_call(ac, 1000)
    # forward ops that record autograd graph
    xg = torch.ones(1, device=dev, requires_grad=True)
    out["ops"]["mul_scalar_1elem_requires_grad"] = host_per_call(lambda: xg * 1.0, 1000)
    log("grad mul", out["ops"]["mul_scalar_1elem_requires_grad"])
    # autograd: backward of a chain of N mul nodes
    out["autograd"] = {}
    for N in (100, 1000):
        fw, bw, bws = [], [], []
        for r in range(9):
            xg = torch.ones(1, device=dev, requires_grad=True)
            torch.cuda.synchronize()
            t0 = time.perf_counter(); yv = xg
            for _ in range(N):
                yv = yv * 1.0001
            t1 = time.perf_counter()
            s = yv.sum()
            torch.cuda.synchronize()
            t2 = time.perf_counter(); s.backward(); t3 = time.perf_counter(); torch.cuda.synchronize(); t4 = time.perf_counter()
            if r >= 2:
                fw.append((t1 - t0) / N); bw.append((t3 - t2) / N); bws.append((t4 - t2) / N)
        out["autograd"]["chain_%d" % N] = dict(forward_us_per_op=med(fw) * 1e6, backward_us_per_node=med(bw) * 1e6,
                                               backward_with_sync_us_per_node=med(bws) * 1e6, nodes=N + 2,
                                               note="N MulBackward0 nodes + SumBackward0 + AccumulateGrad")
        log("autograd", N, out["autograd"]["chain_%d" % N])
    # optimizer: SGD momentum over N small params, foreach vs for-loop; zero_grad
    out["optimizer"] = {}
    for N in (10, 100, 1000):
        for fe in (True, False):
            ps = [torch.nn.Parameter(torch.randn(64, device=dev)) for _ in range(N)]
            for q in ps:
                q.grad = torch.randn_like(q)
            opt = torch.optim.SGD(ps, lr=0.01, momentum=0.9, foreach=fe)
            opt.step(); opt.step(); torch.cuda.synchronize()
            st, sts = [], []
            for _ in range(7):
                t0 = time.perf_counter(); opt.step(); t1 = time.perf_counter(); torch.cuda.synchronize(); t2 = time.perf_counter()
                st.append(t1 - t0); sts.append(t2 - t0)
            zg = []
            for _ in range(7):
                for q in ps:
                    q.grad = torch.zeros_like(q)
                torch.cuda.synchronize()
                t0 = time.perf_counter(); opt.zero_grad(set_to_none=True); zg.append(time.perf_counter() - t0)
            key = "sgd_momentum_%s_%d" % ("foreach" if fe else "forloop", N)
            out["optimizer"][key] = dict(step_host_us=med(st) * 1e6, step_with_sync_us=med(sts) * 1e6,
                                         step_host_us_per_param=med(st) * 1e6 / N,
                                         zero_grad_none_us=med(zg) * 1e6, params=N, numel_each=64)
            log(key, out["optimizer"][key])
    # GPU time per tiny kernel: eager (GPU-bound by queueing behind a long kernel) and CUDA graph
    big = torch.randn(8192, 8192, device=dev)
    def gpu_time_eager(n):
        e0 = torch.cuda.Event(enable_timing=True); e1 = torch.cuda.Event(enable_timing=True)
        torch.mm(big, big)  # keeps the GPU busy while the host queues the tiny kernels
        e0.record()
        for _ in range(n):
            x.add_(0.0)
        e1.record(); torch.cuda.synchronize()
        return e0.elapsed_time(e1) * 1e3 / n
    gpu_time_eager(100)
    out["tiny_kernel"] = {"eager_queued_us_per_kernel": med([gpu_time_eager(200) for _ in range(7)])}
    s = torch.cuda.Stream(); s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            x.add_(0.0)
    torch.cuda.current_stream().wait_stream(s); torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(1000):
            x.add_(0.0)
    g.replay(); torch.cuda.synchronize()
    rs, hs = [], []
    for _ in range(7):
        e0 = torch.cuda.Event(enable_timing=True); e1 = torch.cuda.Event(enable_timing=True)
        t0 = time.perf_counter(); e0.record(); g.replay(); e1.record(); t1 = time.perf_counter(); torch.cuda.synchronize()
        rs.append(e0.elapsed_time(e1) * 1e3 / 1000); hs.append((t1 - t0) * 1e6)
    out["tiny_kernel"]["graph_us_per_kernel"] = med(rs)
    out["tiny_kernel"]["graph_replay_host_us_1000_kernels"] = med(hs)
    out["tiny_kernel"]["note"] = "x.add_(0.0) on one float; eager: queued behind an 8192^3 fp32 mm so the host is ahead"
    log("tiny kernel", out["tiny_kernel"])
    json.dump(out, open(sys.argv[1], "w"), indent=1)

if __name__ == "__main__":
    main()
