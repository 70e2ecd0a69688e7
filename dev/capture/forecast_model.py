# A Llama-style decoder written with plain PyTorch ops (random weights), the way a
# fused serving runtime runs it: fused QKV and gate/up projections, rotary
# embedding, a KV cache of exactly the tokens attended, SDPA attention, and the LM
# head on the last position only. Used by forecast_gpu.py (one GPU) and
# forecast_nccl.py (tensor parallel: heads and MLP columns split as Megatron
# does, one all-reduce after the attention output and one after the MLP, the LM
# head split by vocabulary and gathered).
import torch, torch.nn.functional as F

MODELS = {
    # https://huggingface.co/meta-llama/Llama-3.2-1B/blob/main/config.json
    "llama-3.2-1b": dict(D=2048, L=16, H=32, KV=8, HD=64, I=8192, V=128256, tied=True),
    # https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json
    "llama-3-8b": dict(D=4096, L=32, H=32, KV=8, HD=128, I=14336, V=128256, tied=False),
    # https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json (no GQA)
    "llama-2-7b": dict(D=4096, L=32, H=32, KV=32, HD=128, I=11008, V=32000, tied=False),
}
SMOKE = {"tiny": dict(D=256, L=2, H=4, KV=2, HD=64, I=512, V=1024, tied=True)}


def _rms(x, g):
    return x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-5).to(x.dtype) * g


def _rot(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


class Llama:
    def __init__(self, c, tp=1, group=None, dt=torch.bfloat16, dev="cuda", seed=0, fused=False):
        assert c["H"] % tp == 0 and c["KV"] % tp == 0 and c["I"] % tp == 0 and c["V"] % tp == 0
        self.c, self.tp, self.group, self.dt, self.dev = c, tp, group, dt, dev
        self.fused = fused     # fewer kernels: F.rms_norm, one rotary pass for q and k, addmm residuals
        D, HD = c["D"], c["HD"]
        self.H, self.KV, self.I, self.V = c["H"] // tp, c["KV"] // tp, c["I"] // tp, c["V"] // tp
        g = torch.Generator(device=dev).manual_seed(seed)

        def w(o, i):
            return torch.randn(o, i, device=dev, dtype=dt, generator=g) * (i ** -0.5)
        one = torch.ones(D, device=dev, dtype=dt)
        self.layers = [dict(qkv=w((self.H + 2 * self.KV) * HD, D), o=w(D, self.H * HD),
                            gu=w(2 * self.I, D), down=w(D, self.I), n1=one, n2=one)
                       for _ in range(c["L"])]
        self.emb = w(c["V"], D)
        self.head = self.emb if (c["tied"] and tp == 1) else w(self.V, D)
        self.normf = one
        inv = 1.0 / (500000.0 ** (torch.arange(0, HD, 2, device=dev).float() / HD))
        self.inv_freq = inv
        self.attn_ctx = None   # SDPA backend context, chosen by pick_attention()

    def weight_bytes(self):
        n = sum(t.numel() for l in self.layers for k, t in l.items() if k in ("qkv", "o", "gu", "down"))
        n += self.head.numel()
        return n * self.head.element_size()

    def rope(self, pos):           # pos: 1-D tensor of positions -> cos, sin (1, 1, T, HD)
        f = pos.float()[:, None] * self.inv_freq[None, :]
        e = torch.cat((f, f), dim=-1)
        return e.cos().to(self.dt)[None, None], e.sin().to(self.dt)[None, None]

    def cache_bytes(self, B, T):
        return 2 * len(self.layers) * B * self.KV * T * self.c["HD"] * self.head.element_size()

    def new_cache(self, B, T):
        shp = (B, self.KV, T, self.c["HD"])
        return [(torch.randn(shp, device=self.dev, dtype=self.dt),
                 torch.randn(shp, device=self.dev, dtype=self.dt)) for _ in self.layers]

    def _allreduce(self, x):
        if self.tp > 1:
            torch.distributed.all_reduce(x, group=self.group)
        return x

    def _sdpa(self, q, k, v, causal):
        if self.attn_ctx is None:
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
        with self.attn_ctx():
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)

    def forward(self, ids, cache, start, cos, sin):
        """ids (B, T) at positions start..start+T-1; cache holds start+T positions;
        T > 1 is a prefill (causal over its own tokens, start must be 0)."""
        if self.fused:
            return self.forward_fused(ids, cache, start, cos, sin)
        B, T = ids.shape
        HD, H, KV = self.c["HD"], self.H, self.KV
        x = F.embedding(ids, self.emb)
        for l, (kc, vc) in zip(self.layers, cache):
            h = F.linear(_rms(x, l["n1"]), l["qkv"])
            q = h[..., :H * HD].view(B, T, H, HD).transpose(1, 2)
            k = h[..., H * HD:(H + KV) * HD].view(B, T, KV, HD).transpose(1, 2)
            v = h[..., (H + KV) * HD:].view(B, T, KV, HD).transpose(1, 2)
            q = q * cos + _rot(q) * sin
            k = k * cos + _rot(k) * sin
            kc[:, :, start:start + T].copy_(k)
            vc[:, :, start:start + T].copy_(v)
            if T == 1:
                a = self._sdpa(q, kc, vc, False)
            else:
                a = self._sdpa(q, k, v, True)
            x = x + self._allreduce(F.linear(a.transpose(1, 2).reshape(B, T, H * HD), l["o"]))
            gg, u = F.linear(_rms(x, l["n2"]), l["gu"]).chunk(2, dim=-1)
            x = x + self._allreduce(F.linear(F.silu(gg) * u, l["down"]))
        return self._head(_rms(x[:, -1], self.normf))

    def _head(self, xn):
        logits = F.linear(xn, self.head)       # (B, V/tp)
        if self.tp > 1:
            full = torch.empty(self.tp, *logits.shape, device=self.dev, dtype=self.dt)
            torch.distributed.all_gather_into_tensor(full, logits.contiguous(), group=self.group)
            logits = full
        return logits

    def forward_fused(self, ids, cache, start, cos, sin):
        """The same arithmetic in fewer kernels: fused RMSNorm, the rotary
        embedding applied to q and k in one pass (addcmul), the residual adds
        folded into the output matmuls (addmm) on one GPU."""
        B, T = ids.shape
        D, HD, H, KV = self.c["D"], self.c["HD"], self.H, self.KV
        cos2, sin2 = cos.transpose(1, 2), sin.transpose(1, 2)        # (1, T, 1, HD)
        x = F.embedding(ids, self.emb).view(B * T, D)
        for l, (kc, vc) in zip(self.layers, cache):
            h = F.linear(F.rms_norm(x, (D,), l["n1"], 1e-5), l["qkv"])
            qk = h[:, :(H + KV) * HD].view(B, T, H + KV, HD)
            qk = torch.addcmul(qk * cos2, _rot(qk), sin2)
            q = qk[:, :, :H].transpose(1, 2)
            k = qk[:, :, H:].transpose(1, 2)
            v = h[:, (H + KV) * HD:].view(B, T, KV, HD).transpose(1, 2)
            kc[:, :, start:start + T].copy_(k)
            vc[:, :, start:start + T].copy_(v)
            a = self._sdpa(q, kc, vc, False) if T == 1 else self._sdpa(q, k, v, True)
            a = a.transpose(1, 2).reshape(B * T, H * HD)
            if self.tp == 1:
                x = torch.addmm(x, a, l["o"].t())
            else:
                x = x + self._allreduce(F.linear(a, l["o"]))
            gg, u = F.linear(F.rms_norm(x, (D,), l["n2"], 1e-5), l["gu"]).chunk(2, dim=-1)
            y = F.silu(gg) * u
            if self.tp == 1:
                x = torch.addmm(x, y, l["down"].t())
            else:
                x = x + self._allreduce(F.linear(y, l["down"]))
        x = x.view(B, T, D)[:, -1]
        return self._head(F.rms_norm(x, (D,), self.normf, 1e-5))

    def pick_attention(self):
        """Use the flash backend where it takes these shapes (it does GQA without
        copying K/V); otherwise SDPA's own choice. Returns what was chosen."""
        from torch.nn.attention import sdpa_kernel, SDPBackend
        HD = self.c["HD"]
        try:
            q = torch.randn(1, self.H, 1, HD, device=self.dev, dtype=self.dt)
            k = torch.randn(1, self.KV, 9, HD, device=self.dev, dtype=self.dt)
            q2 = torch.randn(1, self.H, 8, HD, device=self.dev, dtype=self.dt)
            with sdpa_kernel([SDPBackend.FLASH_ATTENTION]):
                F.scaled_dot_product_attention(q, k, k, enable_gqa=True)
                F.scaled_dot_product_attention(q2, k[:, :, :8], k[:, :, :8], is_causal=True, enable_gqa=True)
            self.attn_ctx = lambda: sdpa_kernel([SDPBackend.FLASH_ATTENTION])
            return "flash"
        except Exception as e:
            self.attn_ctx = None
            return "sdpa default (flash refused: %s)" % repr(e)[:200]


def graph_time(fn, reps=30, warm=3, inner=1):
    """Capture fn (called `inner` times) in a CUDA graph after warm-up on a side
    stream; time `reps` replays with CUDA events. Returns ms per fn call stats."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(warm):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(inner):
            fn()
    for _ in range(3):
        g.replay()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        e0 = torch.cuda.Event(enable_timing=True)
        e1 = torch.cuda.Event(enable_timing=True)
        e0.record()
        g.replay()
        e1.record()
        e1.synchronize()
        ts.append(e0.elapsed_time(e1) / inner)
    del g
    return stats(ts)


def eager_time(fn, reps=30, warm=3):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        e0 = torch.cuda.Event(enable_timing=True)
        e1 = torch.cuda.Event(enable_timing=True)
        e0.record()
        fn()
        e1.record()
        e1.synchronize()
        ts.append(e0.elapsed_time(e1))
    return stats(ts)


def stats(ts):
    ts = sorted(ts)
    n = len(ts)
    return {"median_ms": ts[n // 2], "min_ms": ts[0], "p10_ms": ts[n // 10],
            "p90_ms": ts[(9 * n) // 10], "n": n}


def count_kernels(fn):
    """Kernels one eager call launches (torch.profiler, CUDA activity)."""
    from torch.profiler import profile, ProfilerActivity
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        fn()
        torch.cuda.synchronize()
    n = 0
    names = {}
    for e in p.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            n += 1
            key = e.name[:60]
            names[key] = names.get(key, 0) + 1
    top = sorted(names.items(), key=lambda kv: -kv[1])[:12]
    return n, dict(top)
