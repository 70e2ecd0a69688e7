import torch
a = torch.randn(1 << 24, device="cuda"); b = torch.randn(1 << 24, device="cuda")
torch.backends.cuda.matmul.allow_tf32 = False
A = torch.randn(1024, 1024, device="cuda")
for _ in range(3): c = a + b; d = a * b; e = A @ A
torch.cuda.synchronize()
torch.cuda.profiler.start(); c = a + b; d = a * b; e = A @ A; torch.cuda.synchronize(); torch.cuda.profiler.stop()
