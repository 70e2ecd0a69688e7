"""The Python module against the tools: every function returns the
document the CLI prints with --json for the same inputs, byte for byte
(the module's dict written back with the library's own number format is
compared as parsed JSON; the raw bytes are compared through
roofline._last, the text the library wrote). The tools are built at -O0
by tests/steps/python.sh (or `make build/rfl-estimate ...`)."""
import gc
import json
import os
import resource
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import roofline  # noqa: E402

B = os.path.join(ROOT, "build")
D = os.path.join(ROOT, "tests", "data")


def cli(tool, *args, ok=True):
    exe = os.path.join(B, tool)
    if not os.path.exists(exe):
        pytest.skip("%s not built (make build/%s)" % (exe, tool))
    p = subprocess.run([exe] + list(args), capture_output=True, cwd=ROOT)
    if ok:
        assert p.returncode == 0, p.stderr.decode()
    return p


def same(tool, args, got):
    """got (the module's document) is the CLI's, byte for byte: the text
    the library wrote for the module is the text the tool printed."""
    want = cli(tool, *args).stdout
    assert roofline._last() == want
    assert got == json.loads(want)


def test_hw():
    same("rfl-hw", ["a100", "--json"], roofline.hw("a100"))
    same("rfl-hw", ["H100", "--json"], roofline.hw("H100"))
    assert "a100" in [h.lower() for h in roofline.hw_list()] or roofline.hw_list()


def test_estimate_zoo():
    same("rfl-estimate", ["resnet18", "--hw", "a100", "--json"], roofline.estimate("resnet18", hw="a100"))
    same("rfl-estimate", ["resnet50", "--batch", "8", "--dtype", "fp16", "--mode", "train", "--json"],
         roofline.estimate("resnet50", batch=8, dtype="fp16", mode="train"))
    same("rfl-estimate", ["vgg16", "--res", "128", "--conv", "report", "--summary", "--json"],
         roofline.estimate("vgg16", res=128, conv="report", summary=True))


def test_done_when():
    # the line: the CLI's number
    want = json.loads(cli("rfl-estimate", "resnet18", "--hw", "a100", "--json").stdout)["forward"]["flops"]
    assert roofline.estimate("resnet18", hw="a100")["forward"]["flops"] == want == 3642974696


def test_estimate_llm():
    same("rfl-estimate", ["gpt2", "--json"], roofline.estimate("gpt2"))
    same("rfl-estimate", ["llama-3-8b", "--phase", "prefill", "--seq", "512", "--hw", "h100", "--forecast", "--json"],
         roofline.estimate("llama-3-8b", phase="prefill", seq=512, hw="h100", forecast=True))
    same("rfl-estimate", ["llama-3-8b", "--gpus", "2", "--hw", "h100", "--weights", "int4", "--json"],
         roofline.estimate("llama-3-8b", gpus=2, hw="h100", weights="int4"))
    same("rfl-estimate", ["llama-3-8b", "--gpus", "4", "--link", "pcie", "--hw", "h100", "--forecast", "--json"],
         roofline.estimate("llama-3-8b", gpus=4, link="pcie", hw="h100", forecast=True))
    same("rfl-estimate", ["llama-3-8b", "--hw", "h100", "--forecast", "--json"],
         roofline.forecast("llama-3-8b", "h100"))


def test_estimate_hf_config():
    path = os.path.join("tests", "data", "hf", "gemma-2-2b.json")
    same("rfl-estimate", ["--hf-config", path, "--phase", "decode", "--seq", "2048", "--batch", "4", "--json"],
         roofline.estimate_hf_config(path, phase="decode", seq=2048, batch=4))
    with open(os.path.join(ROOT, path)) as f:
        cfg = json.load(f)
    d = roofline.estimate_hf_config(cfg, phase="decode", seq=2048, batch=4, name=path)
    assert d == json.loads(cli("rfl-estimate", "--hf-config", path, "--phase", "decode", "--seq", "2048",
                               "--batch", "4", "--json").stdout)


def test_estimate_onnx():
    path = os.path.join("tests", "onnx", "zoo", "resnet18.onnx")
    same("rfl-estimate", ["--onnx", path, "--batch", "2", "--hw", "a100", "--json"],
         roofline.estimate_onnx(os.path.join(ROOT, path), batch=2, hw="a100", name=path))
    with open(os.path.join(ROOT, path), "rb") as f:
        data = f.read()
    assert roofline.estimate_onnx(data, batch=2, hw="a100", name=path) == \
        json.loads(cli("rfl-estimate", "--onnx", path, "--batch", "2", "--hw", "a100", "--json").stdout)


def test_estimate_onnx_dims():
    path = os.path.join("tests", "onnx", "bad", "seq-dim.onnx")
    same("rfl-estimate", ["--onnx", path, "--dim", "seq=128", "--json"],
         roofline.estimate_onnx(os.path.join(ROOT, path), dims={"seq": 128}, name=path))
    with pytest.raises(roofline.RooflineError, match="symbolic dim 'seq' has no value .give it with dims="):
        roofline.estimate_onnx(os.path.join(ROOT, path), name=path)
    with pytest.raises(ValueError, match="--dim wants NAME=V"):
        roofline.estimate_onnx(os.path.join(ROOT, path), dims={"seq": 0})


def test_hf_config_warning():
    # an unknown model_type: read as Llama-style with the library's
    # warning, as rfl-estimate says on stderr; strict refuses it
    cfg = {"model_type": "mystery", "hidden_size": 256, "num_hidden_layers": 2, "num_attention_heads": 4,
           "intermediate_size": 512, "vocab_size": 1000, "max_position_embeddings": 2048}
    with pytest.warns(roofline.RooflineWarning, match="assumed_llama_like"):
        d = roofline.estimate_hf_config(cfg, name="mystery.json")
    assert d["params"] > 0
    with pytest.raises(roofline.RooflineError):
        roofline.estimate_hf_config(cfg, name="mystery.json", strict=True)


def test_reduce():
    for name, args in [("resnet50-b8-infer-full-raw.csv", ["--hw", "a100"]),
                       ("nvprof-metrics.csv", []), ("alexnet-b1-train-full-raw.csv", ["--by-name"])]:
        path = os.path.join("tests", "data", name)
        kw = {"hw": "a100"} if args[:1] == ["--hw"] else {}
        kw["by_name"] = "--by-name" in args
        same("rfl-reduce", [path, "--json"] + args, roofline.reduce(os.path.join(ROOT, path), **kw))
        # streamed: an open file and small chunks give the same document
        with open(os.path.join(ROOT, path), "rb") as f:
            data = f.read()
        chunks = (data[i:i + 1000] for i in range(0, len(data), 1000))
        assert roofline.reduce(chunks, **kw) == json.loads(roofline._last())


def test_reduce_options():
    path = os.path.join("tests", "data", "resnet50-b8-infer-full-raw.csv")
    full = os.path.join(ROOT, path)
    same("rfl-reduce", [path, "--top", "3", "--json"], roofline.reduce(full, top=3))
    same("rfl-reduce", [path, "--top", "0", "--json"], roofline.reduce(full, top=0))
    same("rfl-reduce", [path, "--filter", "gemm", "--locale", "us", "--json"],
         roofline.reduce(full, filter="gemm", locale="us"))
    with pytest.raises(ValueError, match="--locale takes us or eu, not 'fr'"):
        roofline.reduce(full, locale="fr")


def test_check():
    for name in ["correct.json", "mac_not_flop.json", "measured_partial.json"]:
        path = os.path.join("tests", "data", "check", name)
        same("rfl-check", [path, "--json"], roofline.check(os.path.join(ROOT, path)))


def test_errors():
    # the library's error with its place: a config that is not JSON
    with pytest.raises(roofline.RooflineError) as e:
        roofline.estimate_hf_config(b'{"model_type": "llama",\n  "hidden_size": }', name="bad.json")
    assert e.value.line == 2 and e.value.column > 0 and e.value.message
    p = cli("rfl-estimate", "--onnx", "tests/onnx/bad/truncated.onnx", "--json", ok=False)
    with pytest.raises(roofline.RooflineError) as e:
        roofline.estimate_onnx(os.path.join(ROOT, "tests/onnx/bad/truncated.onnx"),
                               name="tests/onnx/bad/truncated.onnx")
    assert p.returncode == 1 and str(e.value) in p.stderr.decode()
    with pytest.raises(roofline.RooflineError) as e:
        roofline.reduce(b"this is not a profile\n")
    assert e.value.name
    # bad arguments: ValueError in the tool's words
    for call, words in [(lambda: roofline.estimate("resnet18", dtype="fp7"), "unknown type 'fp7'"),
                        (lambda: roofline.estimate("resnet18", mode="fly"), "mode is infer or train"),
                        (lambda: roofline.estimate("resnet18", hw="a1000"), "unknown machine 'a1000'"),
                        (lambda: roofline.estimate("resnet19"), "unknown model 'resnet19'"),
                        (lambda: roofline.estimate("resnet18", phase="decode"), "are for decoder LLMs"),
                        (lambda: roofline.estimate("gpt2", mode="train", phase="decode"), "is a prefill"),
                        (lambda: roofline.estimate("resnet18", batch=0), "batch"),
                        (lambda: roofline.estimate("resnet18", gpus=2), "gpus is for decoder LLMs"),
                        (lambda: roofline.estimate("gpt2", gpus=2, mode="train"), "not training"),
                        (lambda: roofline.estimate("gpt2", forecast=True), "forecast is for"),
                        (lambda: roofline.estimate("gpt2", gpus=2, link="pcie"), "link needs a machine"),
                        (lambda: roofline.hw("nope"), "closest")]:
        with pytest.raises(ValueError, match=words):
            call()
    assert "closest" in cli("rfl-hw", "a1000", ok=False).stderr.decode()


def test_chart():
    png = roofline.chart(["a100", "h100"], [roofline.estimate("resnet18", hw="a100"),
                                            roofline.reduce(os.path.join(D, "resnet50-b8-infer-full-raw.csv"))])
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png._repr_png_() == bytes(png)
    w = int.from_bytes(png[16:20], "big")
    h = int.from_bytes(png[20:24], "big")
    assert (w, h) == (800, 500)
    out = os.environ.get("RFL_PY_CHART")
    if out:
        png.save(out)


def test_repr_html_escapes():
    d = roofline.estimate("resnet18")
    d["model"] = "<script>alert(1)</script>"
    h = d._repr_html_()
    assert "<script>" not in h and "&lt;script&gt;" in h


def test_from_torch():
    torch = pytest.importorskip("torch", reason="torch is not installed: from_torch not tested")
    m = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 10))
    d = roofline.from_torch(m, torch.zeros(1, 64))
    assert d["forward"]["mac_flops"] == 2 * (64 * 32 + 32 * 10)  # 2 x multiply-adds, by hand


def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_no_leak():
    """10,000 calls of every kind that fills a buffer: RSS does not grow."""
    if not os.path.exists("/proc/self/status"):
        pytest.skip("no /proc: RSS unknown")
    csv = os.path.join(D, "nvprof-metrics.csv")
    answers = os.path.join(D, "check", "correct.json")
    calls = [lambda: roofline.estimate("resnet18", hw="a100"), lambda: roofline.hw("a100"),
             lambda: roofline.estimate("gpt2", phase="prefill", seq=64), lambda: roofline.reduce(csv),
             lambda: roofline.check(answers)]
    for c in calls * 20:  # warm up: the largest buffers once
        c()
    gc.collect()
    before = rss_kb()
    for i in range(10000):
        calls[i % len(calls)]()
        if i % 1000 == 0:
            try:
                roofline.estimate("resnet18", dtype="fp7")
            except ValueError:
                pass
    for _ in range(20):
        roofline.chart("a100", [("x", 10.0, 1e12)])
    gc.collect()
    after = rss_kb()
    assert after - before < 8 * 1024, (before, after)  # KB; one buffer leaked a call would be ~1 GB


def test_notebook():
    nb = os.path.join(ROOT, "examples", "roofline.ipynb")
    assert os.path.exists(nb)
    with open(nb) as f:
        json.load(f)
    if shutil.which("jupyter") is None:
        pytest.skip("nbconvert (jupyter) not installed: the notebook was not executed")
    p = subprocess.run(["jupyter", "nbconvert", "--to", "notebook", "--execute", "--stdout", nb],
                       capture_output=True, cwd=os.path.join(ROOT, "examples"))
    assert p.returncode == 0, p.stderr.decode()[-2000:]
