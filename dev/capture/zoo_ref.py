# PyTorch's own numbers for the zoo: params, FlopCounterMode forward/backward
# (batch 1 and 2), per-module forward counts, torchsummary-style hook totals.
import json, sys, torch, torchvision
from torch.utils.flop_counter import FlopCounterMode
names = ["resnet18","resnet34","resnet50","alexnet","vgg16","mobilenet_v2",
         "mobilenet_v3_large","squeezenet1_1","shufflenet_v2_x1_0","efficientnet_b0",
         "densenet121","vit_b_16","resnet101","resnet152","vgg11","vgg19","mobilenet_v3_small",
         "squeezenet1_0","densenet169","efficientnet_b1","regnet_y_400mf","convnext_tiny",
         "wide_resnet50_2","resnext50_32x4d","googlenet","inception_v3","vit_b_32","swin_t",
         "shufflenet_v2_x0_5","mnasnet1_0"]
dev = "cuda"
out = {"torch": torch.__version__, "torchvision": torchvision.__version__,
       "device": torch.cuda.get_device_name(0), "models": {}}
def summary_totals(m, x):
    rows = []; hooks = []
    def hook(mod, inp, o):
        oo = o[0] if isinstance(o, (list, tuple)) else o
        n = oo.numel() // x.shape[0] if hasattr(oo, "numel") else 0
        p = 0
        if hasattr(mod, "weight") and hasattr(mod.weight, "size"): p += mod.weight.numel()
        if hasattr(mod, "bias") and hasattr(mod.bias, "size"): p += mod.bias.numel()
        rows.append([mod.__class__.__name__, list(oo.shape[1:]) if hasattr(oo,"shape") else [], n, p])
    for mod in m.modules():
        if not isinstance(mod, (torch.nn.Sequential, torch.nn.ModuleList)) and mod is not m:
            hooks.append(mod.register_forward_hook(hook))
    with torch.no_grad(): m(x)
    for h in hooks: h.remove()
    tot_out = sum(r[2] for r in rows); tot_p = sum(r[3] for r in rows)
    return {"rows": rows, "total_output_per_sample": tot_out, "hooked_params": tot_p,
            "fwd_bwd_MB": 2.0 * tot_out * 4 / 2**20}
for name in names:
    try:
        res = 299 if name == "inception_v3" else 224
        kw = {"aux_logits": False, "init_weights": False} if name in ("inception_v3","googlenet") else {}
        m = getattr(torchvision.models, name)(weights=None, **kw).to(dev)
        params = sum(p.numel() for p in m.parameters())
        r = {"res": res, "params": params}
        for b in (1, 2):
            x = torch.randn(b, 3, res, res, device=dev)
            m.train()
            fc = FlopCounterMode(display=False, depth=None)
            with fc:
                y = m(x)
                fwd = fc.get_total_flops()
                y.sum().backward()
            tot = fc.get_total_flops()
            r["b%d" % b] = {"forward": fwd, "backward": tot - fwd}
            if b == 1:
                per = {}
                for mod, d in fc.get_flop_counts().items():
                    per[mod] = {str(k): v for k, v in d.items()}
                r["per_module"] = per
            m.zero_grad(set_to_none=True)
        m.eval()
        s = summary_totals(m, torch.randn(2, 3, res, res, device=dev))
        r["summary"] = s
        out["models"][name] = r
        print(name, params, r["b1"], s["fwd_bwd_MB"], flush=True)
    except Exception as e:
        print("FAILED", name, repr(e), flush=True)
        out["models"][name] = {"error": repr(e)}
json.dump(out, open(sys.argv[1], "w"), indent=1)
