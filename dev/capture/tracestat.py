# Per-step statistics of a torch.profiler chrome trace (Kineto JSON), read with
# json.load: used by step_time.py on every case it profiles.
#
# A GPU event (kernel, memcpy, memset) belongs to the ProfilerStep#N window that
# holds the CPU runtime call which launched it (args.correlation); the steps
# end with a synchronize, so it also runs inside that window.
# A kernel's op is the innermost cpu_op whose "External id" the kernel carries;
# top is the outermost aten:: op around that op; phase is fwd, bwd (inside an
# autograd::engine::evaluate_function node), opt (inside Optimizer.step#...) or
# zero (inside Optimizer.zero_grad#...).
import json

def _ns(x):
    return int(round(float(x) * 1000.0))

LAUNCH = ("cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
          "cudaLaunchCooperativeKernel", "cudaGraphLaunch")

def analyze(path, shapes_cap=600):
    with open(path) as f:
        d = json.load(f)
    evs = [e for e in d.get("traceEvents", []) if e.get("ph") == "X"]
    steps = sorted((e for e in evs if str(e.get("name", "")).startswith("ProfilerStep#")
                    and not str(e.get("cat", "")).startswith("gpu")), key=lambda e: e["ts"])
    win = [(_ns(e["ts"]), _ns(e["ts"]) + _ns(e["dur"]), e["name"]) for e in steps]
    def step_of(t):
        for i, (a, b, _) in enumerate(win):
            if a <= t <= b:
                return i
        return -1
    # CPU nesting per thread: cpu_op and user_annotation events
    cpu = [e for e in evs if e.get("cat") in ("cpu_op", "user_annotation")
           and not str(e.get("name", "")).startswith("ProfilerStep#")]
    bytid = {}
    for e in cpu:
        bytid.setdefault((e.get("pid"), e.get("tid")), []).append(e)
    info = {}  # External id -> (name, shapes, top, phase, node)
    per = [dict(aten_top=0, aten_all=0, autograd_nodes=0, cpu_ops=0) for _ in win]
    for lst in bytid.values():
        lst.sort(key=lambda e: (_ns(e["ts"]), -_ns(e["dur"])))
        stack = []  # (end_ns, top, phase, node)
        for e in lst:
            t0 = _ns(e["ts"]); t1 = t0 + _ns(e["dur"])
            while stack and stack[-1][0] <= t0:
                stack.pop()
            top, phase, node = (stack[-1][1], stack[-1][2], stack[-1][3]) if stack else (None, "fwd", "")
            name = e["name"]
            is_aten = name.startswith("aten::")
            si = step_of(t0)
            if si >= 0:
                p = per[si]
                if e.get("cat") == "cpu_op":
                    p["cpu_ops"] += 1
                if is_aten:
                    p["aten_all"] += 1
                    if top is None:
                        p["aten_top"] += 1
                if name.startswith("autograd::engine::evaluate_function:"):
                    p["autograd_nodes"] += 1
            if name.startswith("autograd::engine::evaluate_function:"):
                phase, node = "bwd", name.split(":", 4)[-1].strip()
            elif name.startswith("Optimizer.step#"):
                phase, node = "opt", name
            elif name.startswith("Optimizer.zero_grad#"):
                phase, node = "zero", name
            if is_aten and top is None:
                top = name
            xid = (e.get("args") or {}).get("External id")
            if xid is not None and e.get("cat") == "cpu_op":
                dims = (e.get("args") or {}).get("Input Dims")
                s = json.dumps(dims, separators=(",", ":")) if dims is not None else ""
                if len(s) > shapes_cap:
                    s = s[:shapes_cap] + "...(%d chars)" % len(s)
                info[xid] = (name, s, top or "", phase, node)
            stack.append((t1, top, phase, node))
    rt = {}
    launches = [0] * len(win)
    for e in evs:
        if e.get("cat") in ("cuda_runtime", "cuda_driver"):
            a = e.get("args") or {}
            t = _ns(e["ts"])
            if "correlation" in a:
                rt[a["correlation"]] = (t, a.get("External id"))
            if e["name"] in LAUNCH:
                si = step_of(t)
                if si >= 0:
                    launches[si] += 1
    out = []
    for i, (a, b, nm) in enumerate(win):
        out.append(dict(name=nm, cpu_ns=b - a, kernels=0, kernel_ns=0, memcpy=0, memcpy_ns=0,
                        memset=0, memset_ns=0, launches=launches[i], phase={},
                        _iv=[], **per[i]))
    rows = {}
    unassigned = 0
    for e in evs:
        c = e.get("cat")
        if c not in ("kernel", "gpu_memcpy", "gpu_memset"):
            continue
        a = e.get("args") or {}
        t0 = _ns(e["ts"]); dn = _ns(e["dur"])
        r = rt.get(a.get("correlation"))
        si = step_of(r[0]) if r else step_of(t0)
        if si < 0:
            unassigned += 1
            continue
        s = out[si]
        s["_iv"].append((t0, t0 + dn))
        if c == "kernel":
            s["kernels"] += 1; s["kernel_ns"] += dn
            xid = a.get("External id")
            if xid is None and r:
                xid = r[1]
            op, shp, top, phase, node = info.get(xid, ("", "", "", "?", ""))
            ph = s["phase"].setdefault(phase, [0, 0]); ph[0] += 1; ph[1] += dn
            key = (e["name"], json.dumps(a.get("grid")), json.dumps(a.get("block")), op, shp, top, phase)
            row = rows.get(key)
            if row is None:
                rows[key] = row = [0, 0, dn, dn]
            row[0] += 1; row[1] += dn; row[2] = min(row[2], dn); row[3] = max(row[3], dn)
        elif c == "gpu_memcpy":
            s["memcpy"] += 1; s["memcpy_ns"] += dn
        else:
            s["memset"] += 1; s["memset_ns"] += dn
    for s in out:
        iv = sorted(s.pop("_iv"))
        busy = 0; cur = None
        for x0, x1 in iv:
            if cur is None or x0 > cur[1]:
                if cur:
                    busy += cur[1] - cur[0]
                cur = [x0, x1]
            else:
                cur[1] = max(cur[1], x1)
        if cur:
            busy += cur[1] - cur[0]
        s["gpu_busy_ns"] = busy
        s["gpu_span_ns"] = (iv[-1][1] - iv[0][0]) if iv else None
    krows = [[k[0], json.loads(k[1]), json.loads(k[2]), k[3], k[4], k[5], k[6]] + v
             for k, v in sorted(rows.items(), key=lambda kv: -kv[1][1])]
    dev = (d.get("deviceProperties") or [{}])[0].get("name")
    return dict(steps=out, kernel_rows=krows, unassigned_gpu_events=unassigned, device=dev)

KERNEL_COLUMNS = ["name", "grid", "block", "op", "op_input_dims", "top_op", "phase",
                  "count", "total_ns", "min_ns", "max_ns"]
