#!/usr/bin/python3
"""Makes the ONNX fixtures in tests/onnx/zoo/ (issue 18) from torchvision
models with random weights (weights=None: nothing is downloaded).

Run with Debian's python (python3-torch, python3-torchvision, python3-onnx):
    /usr/bin/python3 tests/onnx/make_fixtures.py

Torch 1.13 (Debian 12) has only the TorchScript exporter (no dynamo, no
onnxscript), which folds each BatchNormalization that follows a Conv into the
Conv in eval mode: that changes the parameter count (the conv gains a bias,
the BN's scale and shift go), not the multiply-adds.

The exporter also merges initializers of equal value; a little noise on
every parameter keeps them apart, so that a model without batch norm has
exactly torchvision's parameter count in float initializers.

Every model but two keeps its weights in external data, and the data file is
deleted: the .onnx alone has every dim (the reader never needs the payload).
Small tensors (< 1 KiB: shape constants, folded biases) stay inline.
  - squeezenet1_1 keeps all weights inline (the reader skips ~5 MB of payload)
  - resnet18 has a dynamic batch axis named "batch"

MANIFEST.json records, per file, what python's onnx counts (independent of
our reader): the float initializer elements (params as the issue defines
them), the opset, the graph's op types, the torch version; beside it the
torchvision model's own parameter count, which must equal the zoo's
(tests/data/torch-zoo.json) for the MAC comparison to mean anything.
"""
import json, os, sys
import torch, torchvision, onnx
from onnx import external_data_helper

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "zoo")
# name -> opset; 17 brings LayerNormalization (vit, convnext), the others get
# the exporter's default (14) or 13, so more than one opset is read
MODELS = {
    "resnet18": 14, "resnet50": 14, "alexnet": 13, "vgg11": 14, "mobilenet_v2": 13,
    "mobilenet_v3_small": 14, "squeezenet1_1": 14, "shufflenet_v2_x1_0": 14,
    "efficientnet_b0": 14, "densenet121": 14, "googlenet": 14, "regnet_y_400mf": 14,
    "convnext_tiny": 17, "vit_b_16": 17,
}
INLINE = {"squeezenet1_1"}
DYNAMIC = {"resnet18"}
FLOAT_TYPES = {onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16, onnx.TensorProto.DOUBLE,
               onnx.TensorProto.BFLOAT16}


def build(name):
    kw = {"weights": None}
    if name == "googlenet":
        kw.update(aux_logits=False, init_weights=True)  # the zoo's googlenet: no aux heads
    torch.manual_seed(0)
    m = getattr(torchvision.models, name)(**kw).eval()
    # the exporter merges initializers with equal values (zero biases, unit
    # norm scales), which would make params depend on the random init: a
    # little noise keeps every parameter its own tensor
    with torch.no_grad():
        for p in m.parameters():
            p.add_(torch.randn_like(p) * 1e-3)
    return m


def float_init_elements(model):
    n = 0
    for t in model.graph.initializer:
        if t.data_type in FLOAT_TYPES:
            k = 1
            for d in t.dims:
                k *= d
            n += k
    return n


def export(name, opset):
    m = build(name)
    path = os.path.join(OUT, name + ".onnx")
    x = torch.randn(1, 3, 224, 224)
    dyn = {"input": {0: "batch"}, "output": {0: "batch"}} if name in DYNAMIC else None
    torch.onnx.export(m, x, path, opset_version=opset, input_names=["input"],
                      output_names=["output"], dynamic_axes=dyn, do_constant_folding=True)
    model = onnx.load(path)
    onnx.checker.check_model(model)
    entry = {
        "file": name + ".onnx", "torchvision_model": name, "opset": opset,
        "torch": torch.__version__, "torchvision": torchvision.__version__,
        "onnx": onnx.__version__, "input": [1, 3, 224, 224],
        "dynamic_batch": name in DYNAMIC, "weights": "inline" if name in INLINE else "external (deleted)",
        "torch_params": sum(p.numel() for p in m.parameters()),
        # channels of every batch norm: a BN folded into the conv before it
        # takes its 2C scale and shift away and gives that conv a C bias
        "bn_channels": sum(b.num_features for b in m.modules()
                           if isinstance(b, torch.nn.modules.batchnorm._BatchNorm)),
        "onnx_float_initializer_elements": float_init_elements(model),
        "nodes": len(model.graph.node),
        "op_types": sorted({n.op_type for n in model.graph.node}),
    }
    if name not in INLINE:
        data = name + ".onnx.data"
        external_data_helper.convert_model_to_external_data(
            model, all_tensors_to_one_file=True, location=data, size_threshold=1024)
        onnx.save_model(model, path)
        os.remove(os.path.join(OUT, data))
    entry["bytes"] = os.path.getsize(path)
    return entry


def main():
    os.makedirs(OUT, exist_ok=True)
    names = sys.argv[1:] or list(MODELS)
    man_path = os.path.join(OUT, "MANIFEST.json")
    manifest = json.load(open(man_path)) if os.path.exists(man_path) else {}
    for n in names:
        manifest[n] = export(n, MODELS[n])
        print(n, manifest[n]["bytes"], "bytes,", manifest[n]["nodes"], "nodes", flush=True)
    with open(man_path, "w") as f:
        json.dump(dict(sorted(manifest.items())), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
