# One region of interest between cudaProfilerStart/Stop, after warm-up.
# usage: prof.py MODEL BATCH MODE(train|infer) TF32(0|1)
import os, sys, torch, torchvision
name, batch, mode, tf32 = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
torch.backends.cuda.matmul.allow_tf32 = tf32
torch.backends.cudnn.allow_tf32 = tf32
m = getattr(torchvision.models, name)(weights=None).cuda()
x = torch.randn(batch, 3, 224, 224, device="cuda")
if mode == "train":
    m.train(); opt = torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9)
    lossf = torch.nn.CrossEntropyLoss(); t = torch.randint(0, 1000, (batch,), device="cuda")
    def step():
        opt.zero_grad(set_to_none=True); lossf(m(x), t).backward(); opt.step()
else:
    m.eval()
    def step():
        with torch.no_grad(): m(x)
for _ in range(5): step()
torch.cuda.synchronize()
if os.environ.get("RFL_TIME"):  # CUDA-event latency, median of 50 warm runs
    ts = []
    for _ in range(50):
        a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
        a.record(); step(); b.record(); torch.cuda.synchronize(); ts.append(a.elapsed_time(b))
    ts.sort(); print("LATENCY_MS", name, batch, mode, "tf32" if tf32 else "fp32", ts[len(ts)//2], flush=True)
    sys.exit(0)
torch.cuda.profiler.start(); step(); torch.cuda.synchronize(); torch.cuda.profiler.stop()
