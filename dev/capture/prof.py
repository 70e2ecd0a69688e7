# One region of interest between cudaProfilerStart/Stop, after warm-up.
# usage: prof.py MODEL BATCH MODE(train|infer) PREC(0: FP32, 1: TF32 allowed,
#        fp16|bf16: autocast to that type, TF32 allowed as PyTorch's default)
import contextlib, os, sys, torch, torchvision
name, batch, mode, prec = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
tf32 = prec != "0"
torch.backends.cuda.matmul.allow_tf32 = tf32
torch.backends.cudnn.allow_tf32 = tf32
amp = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(prec)
cast = (lambda: torch.autocast("cuda", dtype=amp)) if amp else contextlib.nullcontext
m = getattr(torchvision.models, name)(weights=None).cuda()
x = torch.randn(batch, 3, 224, 224, device="cuda")
if mode == "train":
    m.train(); opt = torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9)
    lossf = torch.nn.CrossEntropyLoss(); t = torch.randint(0, 1000, (batch,), device="cuda")
    def step():
        opt.zero_grad(set_to_none=True)
        with cast(): loss = lossf(m(x), t)
        loss.backward(); opt.step()
else:
    m.eval()
    def step():
        with torch.no_grad(), cast(): m(x)
for _ in range(5): step()
torch.cuda.synchronize()
if os.environ.get("RFL_TIME"):  # CUDA-event latency, median of 50 warm runs
    ts = []
    for _ in range(50):
        a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
        a.record(); step(); b.record(); torch.cuda.synchronize(); ts.append(a.elapsed_time(b))
    ts.sort(); print("LATENCY_MS", name, batch, mode, {"0": "fp32", "1": "tf32"}.get(prec, prec), ts[len(ts)//2], flush=True)
    sys.exit(0)
torch.cuda.profiler.start(); step(); torch.cuda.synchronize(); torch.cuda.profiler.stop()
