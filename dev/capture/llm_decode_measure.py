# Measure a Llama-3-8B-shaped decode step (batch 1, 2048 cached tokens, bf16,
# random weights) on the GPU with plain torch ops in a CUDA graph: the bytes a
# decode step must move, at the speed a fused runtime gets; compared with
# rfl-estimate's prediction (dev/capture/llm_decode_measure.py).
import sys, time, torch, torch.nn.functional as F
torch.manual_seed(0)
dev = "cuda"; dt = torch.bfloat16
D, L, H, KV, HD, I, V, S = 4096, 32, 32, 8, 128, 14336, 128256, 2048
B = int(sys.argv[1]) if len(sys.argv) > 1 else 1
def w(*s): return torch.randn(*s, device=dev, dtype=dt) * 0.02
layers = [dict(qkv=w(D, (H + 2 * KV) * HD), o=w(H * HD, D), gu=w(D, 2 * I), down=w(I, D),
               n1=torch.ones(D, device=dev, dtype=dt), n2=torch.ones(D, device=dev, dtype=dt),
               k=w(B, KV, S + 1, HD), v=w(B, KV, S + 1, HD)) for _ in range(L)]
emb = w(V, D); head = w(D, V); normf = torch.ones(D, device=dev, dtype=dt)
ids = torch.zeros(B, 1, dtype=torch.long, device=dev)
def rms(x, g): return x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-5).to(x.dtype) * g
def step():
    x = emb[ids]                       # (B, 1, D)
    for l in layers:
        h = rms(x, l["n1"]) @ l["qkv"]
        q = h[..., :H * HD].view(B, 1, H, HD).transpose(1, 2)
        knew = h[..., H * HD:(H + KV) * HD].view(B, 1, KV, HD).transpose(1, 2)
        vnew = h[..., (H + KV) * HD:].view(B, 1, KV, HD).transpose(1, 2)
        l["k"][:, :, S:S + 1].copy_(knew); l["v"][:, :, S:S + 1].copy_(vnew)
        a = F.scaled_dot_product_attention(q, l["k"], l["v"], enable_gqa=True)
        x = x + a.transpose(1, 2).reshape(B, 1, H * HD) @ l["o"]
        g, u = (rms(x, l["n2"]) @ l["gu"]).chunk(2, dim=-1)
        x = x + (F.silu(g) * u) @ l["down"]
    return rms(x, normf)[:, -1] @ head
with torch.no_grad():
    for _ in range(3): step()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g): out = step()
    for _ in range(5): g.replay()
    torch.cuda.synchronize()
    ts = []
    for _ in range(50):
        e0 = torch.cuda.Event(enable_timing=True); e1 = torch.cuda.Event(enable_timing=True)
        e0.record(); g.replay(); e1.record(); torch.cuda.synchronize(); ts.append(e0.elapsed_time(e1))
    ts.sort()
    print(f"{torch.cuda.get_device_name()} torch {torch.__version__} batch {B}: decode step median {ts[len(ts)//2]:.3f} ms, min {ts[0]:.3f} ms")
