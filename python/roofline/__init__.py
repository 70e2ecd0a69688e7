"""roofline: the roofline.h library from Python (issue 37).

ctypes over build/libroofline.so (`make python`); standard library only.
Every function returns the library's own JSON document, as the tools
print it with --json, parsed into Python objects: the library does the
work, this module converts arguments and results.

    import roofline
    roofline.hw("a100")["peak_flops"]
    roofline.estimate("resnet18", hw="a100")["forward"]["flops"]
    roofline.estimate("llama-3-8b", phase="prefill", seq=512, hw="h100")
    roofline.reduce("profile.csv")
    roofline.chart(hw="a100", estimates=[...])   # PNG bytes

Errors: RooflineError (the library's rfl_error: code, line, column,
offset, where, message); bad arguments: ValueError in the tools' words.
"""
import ctypes
import json
import os
import html
import threading
import warnings

__all__ = ["RooflineError", "RooflineWarning", "hw", "hw_list", "models", "estimate", "estimate_hf_config",
           "estimate_onnx", "reduce", "check", "forecast", "chart", "from_torch", "Doc", "Chart"]

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(os.path.dirname(_HERE))


def _find_lib():
    env = os.environ.get("ROOFLINE_LIB")
    for p in ([env] if env else []) + [os.path.join(_HERE, "libroofline.so"),
                                        os.path.join(_ROOT, "build", "libroofline.so")]:
        if p and os.path.exists(p):
            return p
    raise ImportError("roofline: build/libroofline.so not found: run `make python` "
                      "(or set ROOFLINE_LIB to the shared build)")


_lib = ctypes.CDLL(_find_lib())

# the library's result codes (roofline.h, rfl_result), by rfl_result_str
RFL_OK, RFL_ERR_ARG, RFL_ERR_BUFFER, RFL_ERR_UNKNOWN_NAME, RFL_ERR_MISSING = 0, 1, 2, 3, 19


class _Error(ctypes.Structure):  # rfl_error
    _fields_ = [("code", ctypes.c_int), ("index", ctypes.c_int), ("line", ctypes.c_uint64),
                ("col", ctypes.c_uint64), ("offset", ctypes.c_uint64), ("need", ctypes.c_uint64),
                ("where", ctypes.c_char * 96), ("msg", ctypes.c_char * 160)]


class _Est(ctypes.Structure):  # rflpy_est (python/libroofline.c)
    _fields_ = [("name", ctypes.c_char_p), ("hf_text", ctypes.c_char_p), ("hf_len", ctypes.c_size_t),
                ("hf_name", ctypes.c_char_p), ("strict", ctypes.c_int),
                ("onnx", ctypes.c_char_p), ("onnx_len", ctypes.c_size_t), ("onnx_file", ctypes.c_char_p),
                ("dims", ctypes.c_char_p), ("hw", ctypes.c_char_p),
                ("batch", ctypes.c_uint64), ("seq", ctypes.c_uint64), ("res", ctypes.c_uint32),
                ("dtype", ctypes.c_int), ("weights", ctypes.c_int), ("kv", ctypes.c_int),
                ("mode", ctypes.c_int), ("convention", ctypes.c_int), ("phase", ctypes.c_int),
                ("seq_set", ctypes.c_int), ("logits", ctypes.c_int), ("summary", ctypes.c_int),
                ("forecast", ctypes.c_int), ("link", ctypes.c_int), ("gpus", ctypes.c_uint32)]


_E = ctypes.POINTER(_Error)
_P, _S, _Z = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t
for _name, _res, _args in [
        ("rfl_result_str", _S, [ctypes.c_int]),
        ("rfl_error_format", _Z, [_E, _S, ctypes.c_char_p, _Z]),
        ("rfl_dtype_parse", ctypes.c_int, [_S, ctypes.POINTER(ctypes.c_int)]),
        ("rfl_prec_parse", ctypes.c_int, [_S, ctypes.POINTER(ctypes.c_int)]),
        ("rfl_hw_suggest", ctypes.c_int, [_S, ctypes.c_int, ctypes.c_char_p, _Z]),
        ("rfl_hw_count", ctypes.c_int, []), ("rfl_zoo_count", ctypes.c_int, []),
        ("rfl_llm_count", ctypes.c_int, []), ("rfl_zoo_name", _S, [ctypes.c_int]),
        ("rfl_llm_name", _S, [ctypes.c_int]),
        ("rflpy_hw", ctypes.c_int, [_S, _P, _Z, _E]),
        ("rflpy_hw_id", _S, [ctypes.c_int]),
        ("rflpy_chart_mem", _Z, [ctypes.c_int, ctypes.c_int]),
        ("rflpy_estimate", ctypes.c_int, [ctypes.POINTER(_Est), _P, _Z, _P, _Z, _E]),
        ("rflpy_estimate_warning", _S, [_P, ctypes.POINTER(_S)]),
        ("rflpy_estimate_usage", ctypes.c_int, [_P, ctypes.c_int, ctypes.c_uint32, ctypes.c_int,
                                                ctypes.c_char_p, _Z]),
        ("rflpy_reduce_size", _Z, []),
        ("rflpy_reduce_init", ctypes.c_int, [_P, _S, ctypes.c_int, ctypes.c_int, _S, ctypes.c_int, _E]),
        ("rflpy_reduce_push", ctypes.c_int, [_P, _P, _Z, _E]),
        ("rflpy_reduce_finish", ctypes.c_int, [_P, _P, _Z, _E]),
        ("rflpy_reduce_json", ctypes.c_int, [_P, _P, _Z, _E]),
        ("rflpy_check_size", _Z, []),
        ("rflpy_check_read", ctypes.c_int, [_P, _S, _Z, _E]),
        ("rflpy_check_models", ctypes.c_int, [_P]),
        ("rflpy_check_profile", _S, [_P, ctypes.c_int, ctypes.POINTER(ctypes.c_long)]),
        ("rflpy_check_reduce", ctypes.c_int, [_P, ctypes.c_int, _S, _Z, _E]),
        ("rflpy_check_run", ctypes.c_int, [_P, ctypes.c_double, ctypes.c_int, _P, _Z, _E]),
        ("rflpy_chart", ctypes.c_int, [ctypes.POINTER(_S), ctypes.c_int, ctypes.POINTER(_S),
                                       ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double),
                                       ctypes.POINTER(ctypes.c_int), ctypes.POINTER(_S), ctypes.c_int,
                                       ctypes.c_int, ctypes.c_int,
                                       _S, _P, _Z, _P, _Z, ctypes.POINTER(_Z), _E])]:
    _f = getattr(_lib, _name)
    _f.restype, _f.argtypes = _res, _args


class RooflineWarning(UserWarning):
    """What the library warns of: a config read as a Llama-style decoder."""


class RooflineError(Exception):
    """The library's rfl_error: code (rfl_result), name (its text), line and
    column (1-based, 0: none), offset (bytes), where, message."""

    def __init__(self, err, file=None):
        self.code = err.code
        self.name = _lib.rfl_result_str(err.code).decode()
        self.line, self.column, self.offset = err.line, err.col, err.offset
        self.where = err.where.decode("utf-8", "replace")
        self.message = err.msg.decode("utf-8", "replace") or self.name
        buf = ctypes.create_string_buffer(512)
        _lib.rfl_error_format(ctypes.byref(err), file.encode() if file else None, buf, 512)
        super().__init__(buf.value.decode("utf-8", "replace"))


def _b(s):
    return s.encode() if isinstance(s, str) else s


def _call_json(fn, *args, file=None, size=1 << 16):
    """fn(*args, out, out_size, err) into a buffer grown to what it asks."""
    while True:
        out, err = ctypes.create_string_buffer(size), _Error()
        r = fn(*args, out, size, ctypes.byref(err))
        if r == RFL_ERR_BUFFER and err.need > size and err.msg == b"output buffer":
            size = int(err.need)
            continue
        if r != RFL_OK:
            raise RooflineError(err, file)
        return out.value


class Doc(dict):
    """A document of the library (a dict); in a notebook an estimate shows
    as a table of its totals (_repr_html_)."""

    def _repr_html_(self):
        e = lambda v: html.escape(str(v), quote=True)
        rows = []
        for k, v in self.items():
            if isinstance(v, (list,)):
                v = "[%d]" % len(v)
            elif isinstance(v, dict):
                v = ", ".join("%s: %s" % (a, json.dumps(b)) for a, b in v.items()
                              if not isinstance(b, (dict, list)))
            else:
                v = json.dumps(v)
            rows.append("<tr><th style='text-align:left'>%s</th><td style='text-align:left'>%s</td></tr>"
                        % (e(k), e(v)))
        return "<table>%s</table>" % "".join(rows)


_last_text = [b""]


def _last():
    """The bytes of the last document the library wrote (for the tests)."""
    return _last_text[0]


def _doc(text):
    _last_text[0] = text
    return json.loads(text.decode("utf-8"), object_pairs_hook=Doc)


# ---- names ---------------------------------------------------------------------
def models():
    """The zoo's models and the built-in LLMs (rfl-estimate --list)."""
    return [_lib.rfl_zoo_name(i).decode() for i in range(_lib.rfl_zoo_count())] + \
           [_lib.rfl_llm_name(i).decode() for i in range(_lib.rfl_llm_count())]


def _unknown_hw(name):
    buf = ctypes.create_string_buffer(256)
    _lib.rfl_hw_suggest(_b(name), 4, buf, 256)
    return ValueError("unknown machine '%s'; closest: %s (rfl-hw lists all)" % (name, buf.value.decode()))


def hw(name):
    """The machine of the table as rfl-hw NAME --json writes it."""
    if not isinstance(name, str):
        raise ValueError("hw: a machine name (rfl-hw lists them)")
    try:
        return _doc(_call_json(_lib.rflpy_hw, _b(name)))
    except RooflineError as e:
        if e.code == RFL_ERR_UNKNOWN_NAME:
            raise _unknown_hw(name) from None
        raise


def hw_list():
    """The table's machine ids."""
    return [_lib.rflpy_hw_id(i).decode() for i in range(_lib.rfl_hw_count())]


# ---- estimate ------------------------------------------------------------------
def _dtype(opt, v, storage=False):
    if v is None:
        return 0
    t = ctypes.c_int()
    if _lib.rfl_dtype_parse(_b(str(v)), ctypes.byref(t)) != RFL_OK or (str(v).lower() == "int4" and not storage):
        raise ValueError("%s: unknown type '%s' (fp32, tf32, fp16, bf16, fp8, int8%s)"
                         % (opt, v, ", int4" if storage else ""))
    return t.value


def _pick(opt, v, a, b, alias=None):
    if v is None:
        return 0
    if v == a or (alias and v == alias):
        return 1
    if v == b:
        return 2
    raise ValueError("%s is %s or %s, not '%s'" % (opt, a, b, v))


def _whole(opt, v, lo, hi):
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError("%s: a whole number in %d..%d, not '%s'" % (opt, lo, hi, v))
    return v


class _Buffers:
    """The estimate's memory and output, kept between calls (grown to what
    the largest asked); one call at a time (a lock)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.mem = ctypes.create_string_buffer(1 << 22)
        self.out = ctypes.create_string_buffer(1 << 18)


_buf = _Buffers()


def _estimate(o, hw, file=None, step_given=False):
    if o.link and hw is None:
        raise ValueError("link needs a machine (hw=NAME)")
    if hw is not None:
        o.hw = _b(hw)
    with _buf.lock:
        err = _Error()
        while True:
            mem, out = _buf.mem, _buf.out
            r = _lib.rflpy_estimate(ctypes.byref(o), mem, len(mem), out, len(out), ctypes.byref(err))
            if r == RFL_ERR_BUFFER and err.msg == b"output buffer":
                _buf.out = ctypes.create_string_buffer(int(err.need))
            elif r == RFL_ERR_BUFFER and err.msg == b"memory":
                _buf.mem = ctypes.create_string_buffer(int(err.need))
            else:
                break
        text = out.value
        msg = ctypes.create_string_buffer(200)
        usage = r in (RFL_OK, RFL_ERR_ARG) and _lib.rflpy_estimate_usage(mem, int(step_given), o.gpus, o.forecast, msg, 200)
        code = _S()
        warn = _lib.rflpy_estimate_warning(mem, ctypes.byref(code)) if o.hf_text and r == RFL_OK else b""
    if warn:  # as rfl-estimate says it on stderr
        warnings.warn("%s: %s: %s (strict=True refuses it)" % (file, code.value.decode(), warn.decode()),
                      RooflineWarning, stacklevel=3)
    if usage:
        raise ValueError(msg.value.decode())
    if r == RFL_ERR_UNKNOWN_NAME and err.msg == b"machine":
        raise _unknown_hw(hw)
    if r == RFL_ERR_UNKNOWN_NAME and o.name:
        raise ValueError("unknown model '%s'; the zoo: %s" % (o.name.decode(), ", ".join(models())))
    if r == RFL_ERR_MISSING and o.onnx:  # the tool's hint, in this module's words
        err.msg = (err.msg + b" (give it with dims={'NAME': V})")[:159]
    if r != RFL_OK:
        raise RooflineError(err, file)
    return _doc(text)


def _opts(batch, res, dtype, weights, kv, mode, conv, phase, seq, logits, summary, gpus, link, forecast):
    o = _Est()
    if batch is not None:
        o.batch = _whole("batch", batch, 1, 1 << 40)
    if res is not None:
        o.res = _whole("res", res, 1, 65536)
    o.dtype, o.weights, o.kv = _dtype("dtype", dtype), _dtype("weights", weights, True), _dtype("kv", kv, True)
    o.mode = {0: 0, 1: 0, 2: 1}[_pick("mode", mode, "infer", "train", "inference")]
    o.convention = {0: 0, 1: 0, 2: 1}[_pick("conv", conv, "torch", "report")]
    o.phase = _pick("phase", phase, "prefill", "decode")  # RFL_WL_PREFILL 1, RFL_WL_DECODE 2
    if seq is not None:
        o.seq, o.seq_set = _whole("seq", seq, 0, 1 << 40), 1
    o.logits = _pick("logits", logits, "last", "all")  # RFL_WL_LOGITS_LAST 1, _ALL 2
    o.summary, o.forecast = int(bool(summary)), int(bool(forecast))
    if gpus is not None:
        o.gpus = _whole("gpus", gpus, 1, 1024)
    # rfl_link_kind: 0 the machine's, RFL_LINK_NVLINK 2, RFL_LINK_PCIE 3
    o.link = {0: 0, 1: 2, 2: 3}[_pick("link", link, "nvlink", "pcie")]
    if link is not None and not gpus:
        raise ValueError("link goes with gpus=N")
    return o


def estimate(model, batch=None, mode=None, dtype=None, hw=None, res=None, weights=None, kv=None,
             conv=None, phase=None, seq=None, logits=None, summary=False, gpus=None, link=None,
             forecast=False):
    """rfl-estimate MODEL --json: a zoo model or a built-in LLM (models()).
    batch, res, dtype (fp32, tf32, fp16, bf16, fp8, int8), mode (infer,
    train), hw (a machine name), conv (torch, report); an LLM's step:
    phase (prefill, decode), seq, logits (last, all), weights and kv
    storage types (also int4), gpus (tensor parallel) and link (nvlink,
    pcie), forecast (with hw). Returns the document (docs/schema.md)."""
    if not isinstance(model, str):
        raise ValueError("estimate: a model name (roofline.models()); for a config use "
                         "estimate_hf_config, for ONNX estimate_onnx")
    o = _opts(batch, res, dtype, weights, kv, mode, conv, phase, seq, logits, summary, gpus, link, forecast)
    o.name = _b(model)
    return _estimate(o, hw, step_given=phase is not None or seq is not None or logits is not None)


def forecast(model, hw, **kw):
    """An LLM step's forecast on hw (rfl-estimate --forecast --json):
    the estimate's document with its "forecast" member."""
    return estimate(model, hw=hw, forecast=True, **kw)


def estimate_hf_config(config, phase=None, seq=None, batch=None, dtype=None, hw=None, mode=None,
                       weights=None, kv=None, logits=None, strict=False, gpus=None, link=None,
                       forecast=False, summary=False, name=None):
    """rfl-estimate --hf-config FILE --json: a Hugging Face config.json, as
    a path, its text (bytes) or a dict."""
    if isinstance(config, dict):
        text, name = json.dumps(config).encode(), name or "config.json"
    elif isinstance(config, (bytes, bytearray)):
        text, name = bytes(config), name or "config.json"
    else:
        with open(config, "rb") as f:
            text = f.read()
        name = name or str(config)
    o = _opts(batch, None, dtype, weights, kv, mode, None, phase, seq, logits, summary, gpus, link, forecast)
    o.hf_text, o.hf_len, o.hf_name, o.strict = text, len(text), _b(name), int(bool(strict))
    return _estimate(o, hw, file=name)


def estimate_onnx(model, dims=None, batch=None, dtype=None, hw=None, mode=None, conv=None,
                  summary=False, name=None):
    """rfl-estimate --onnx FILE --json: an ONNX model as a path or its
    bytes; dims: {"seq": 128} for symbolic input dims."""
    if isinstance(model, (bytes, bytearray, memoryview)):
        data, name = bytes(model), name or "model.onnx"
    else:
        with open(model, "rb") as f:
            data = f.read()
        name = name or str(model)
    if dims:
        for k, v in dims.items():
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ValueError("--dim wants NAME=V, V a whole number >= 1, not '%s=%s'" % (k, v))
    o = _opts(batch, None, dtype, None, None, mode, conv, None, None, None, summary, None, None, False)
    o.onnx, o.onnx_len, o.onnx_file = data, len(data), _b(name)
    o.dims = _b(",".join("%s=%d" % kv for kv in dims.items())) if dims else None
    return _estimate(o, hw, file=name)


def from_torch(model, example_input, **kw):
    """A PyTorch module estimated through the ONNX reader: torch.onnx.export
    to memory, then estimate_onnx. Needs torch (ImportError otherwise)."""
    import io
    import torch  # noqa: F401  (only here: the module itself needs no torch)
    buf = io.BytesIO()
    torch.onnx.export(model, example_input, buf)
    kw.setdefault("name", type(model).__name__ + ".onnx")
    return estimate_onnx(buf.getvalue(), **kw)


# ---- reduce --------------------------------------------------------------------
_CHUNK = 256 * 1024


def _chunks(src):
    if isinstance(src, (bytes, bytearray, memoryview)):
        src = bytes(src)
        for i in range(0, len(src), _CHUNK):
            yield src[i:i + _CHUNK]
        return
    if isinstance(src, (str, os.PathLike)):
        with open(src, "rb") as f:
            while True:
                b = f.read(_CHUNK)
                if not b:
                    return
                yield b
    elif hasattr(src, "read"):
        while True:
            b = src.read(_CHUNK)
            if not b:
                return
            yield b if isinstance(b, bytes) else b.encode()
    else:
        for b in src:
            yield b if isinstance(b, bytes) else b.encode()


def reduce(profile, hw=None, by_name=False, top=None, filter=None, locale=None):
    """rfl-reduce FILE --json: an ncu / nvprof CSV (a path, bytes, a binary
    file, or an iterable of byte chunks), pushed through the library's
    reducer in pieces. hw: a machine name; top: --top N; locale: us, eu."""
    if top is not None:
        _whole("top", top, 0, 1000)
    loc = {None: 0, "us": 1, "eu": 2}
    if locale not in loc:
        raise ValueError("--locale takes us or eu, not '%s'" % locale)
    file = str(profile) if isinstance(profile, (str, os.PathLike)) else None
    mem = ctypes.create_string_buffer(_lib.rflpy_reduce_size())
    err = _Error()
    r = _lib.rflpy_reduce_init(mem, _b(hw), int(bool(by_name)), -1 if top is None else top, _b(filter),
                               loc[locale], ctypes.byref(err))
    if r == RFL_ERR_UNKNOWN_NAME:
        raise _unknown_hw(hw)
    if r != RFL_OK:
        raise RooflineError(err, file)
    for b in _chunks(profile):
        if _lib.rflpy_reduce_push(mem, b, len(b), ctypes.byref(err)) != RFL_OK:
            raise RooflineError(err, file)
    size = 1 << 16
    out = ctypes.create_string_buffer(size)
    r = _lib.rflpy_reduce_finish(mem, out, size, ctypes.byref(err))
    if r == RFL_ERR_BUFFER and err.msg == b"output buffer":
        return _doc(_call_json(_lib.rflpy_reduce_json, mem, file=file, size=int(err.need)))
    if r != RFL_OK:
        raise RooflineError(err, file)
    return _doc(out.value)


# ---- check ---------------------------------------------------------------------
def check(answers, tol=None, carry_credit=False):
    """rfl-check ANSWERS --json: grade an answer file (a path, its text, or
    a dict); a model's "measured.profile" is read relative to the file."""
    if isinstance(answers, dict):
        text, path = json.dumps(answers).encode(), None
    elif isinstance(answers, (bytes, bytearray)):
        text, path = bytes(answers), None
    else:
        path = str(answers)
        with open(path, "rb") as f:
            text = f.read()
    if tol is not None and not (isinstance(tol, (int, float)) and tol > 0):
        raise ValueError("--tol takes a number > 0, not '%s'" % tol)
    mem = ctypes.create_string_buffer(_lib.rflpy_check_size())
    err = _Error()
    if _lib.rflpy_check_read(mem, text, len(text), ctypes.byref(err)) != RFL_OK:
        raise RooflineError(err, path)
    for i in range(_lib.rflpy_check_models(mem)):
        line = ctypes.c_long()
        rel = _lib.rflpy_check_profile(mem, i, ctypes.byref(line)).decode()
        if not rel:
            continue
        p = rel if os.path.isabs(rel) or not path else os.path.join(os.path.dirname(path), rel)
        try:
            with open(p, "rb") as f:
                prof = f.read()
        except OSError:
            raise ValueError("%s:%d: measured.profile: cannot open %s" % (path or "<answers>", line.value, p))
        if _lib.rflpy_check_reduce(mem, i, prof, len(prof), ctypes.byref(err)) != RFL_OK:
            raise RooflineError(err, p)
    return _doc(_call_json(_lib.rflpy_check_run, mem, float(tol or 0), int(bool(carry_credit)), file=path))


# ---- chart ---------------------------------------------------------------------
class Chart(bytes):
    """PNG bytes; a notebook shows them inline (_repr_png_)."""

    def _repr_png_(self):
        return bytes(self)

    def __repr__(self):
        return "<roofline chart: PNG %dx%d, %d bytes>" % (int.from_bytes(self[16:20], "big"),
                                                         int.from_bytes(self[20:24], "big"), len(self))

    def save(self, path):
        with open(path, "wb") as f:
            f.write(self)


def _prec(name):
    t = ctypes.c_int()
    if _lib.rfl_prec_parse(_b(name), ctypes.byref(t)) != RFL_OK:
        return 0
    return t.value


def _point(d):
    """(label, ai, FLOP/s or 0, precision) of a document: a reduction's
    totals (ai.dram, flops_per_s: measured), an estimate's forward (+
    backward in training) FLOPs over bytes, placed at the roof as rfl-plot
    does, or a (label, ai, flops_per_s) tuple."""
    if isinstance(d, (tuple, list)):
        return str(d[0]), float(d[1]), float(d[2]), _prec(d[3] if len(d) > 3 else "fp32"), None
    if "forward" in d:
        f, b = d["forward"]["flops"], d["forward"]["bytes"]
        if d.get("mode") == "train":
            f, b = f + d["backward"]["flops"], b + d["backward"]["bytes"]
        if not f or not b:
            raise ValueError("chart: an estimate whose flops or bytes are unknown has no point")
        return ("%s estimate (at the roof)" % d.get("model", "?"), f / b, 0.0,
                _prec(d.get("prec") or d.get("dtype") or "fp32"), None)
    ai, fps = (d.get("ai") or {}).get("dram"), d.get("flops_per_s")
    if not ai or not fps:
        raise ValueError("chart: a reduction needs ai.dram and flops_per_s (null: the profile lacked them)")
    return ("%s measured" % d.get("label", d.get("model", "profile")), ai, fps,
            _prec(d.get("dtype") or "fp32"), _b(d.get("device") or d["hw"]) if isinstance(d.get("device") or d.get("hw"), str) else None)


def chart(hw, estimates=(), width=800, height=500, title=None, labels=None):
    """The roofline of one or more machines (names) with the estimates'
    points (documents of estimate() or reduce(), or (label, ai,
    flops_per_s[, prec]) tuples), as PNG bytes; labels: the legend's
    names of the documents, in order (default: "MODEL estimate",
    "profile measured"). The library draws (rfl_chart_roofline) and
    encodes (rfl_png_encode)."""
    names = [hw] if isinstance(hw, str) else list(hw)
    if not names:
        raise ValueError("chart: at least one machine")
    _whole("width", width, 200, 4096), _whole("height", height, 150, 4096)
    arr = (_S * len(names))(*[_b(n) for n in names])
    pts = [_point(e) for e in estimates]
    if labels is not None:
        if len(labels) != len(pts):
            raise ValueError("chart: one label per estimate (%d labels, %d estimates)" % (len(labels), len(pts)))
        pts = [(str(lab),) + p[1:] for lab, p in zip(labels, pts)]
    n = len(pts)
    labels = (_S * max(n, 1))(*[_b(p[0]) for p in pts])
    ai = (ctypes.c_double * max(n, 1))(*[p[1] for p in pts])
    fps = (ctypes.c_double * max(n, 1))(*[p[2] for p in pts])
    prec = (ctypes.c_int * max(n, 1))(*[p[3] for p in pts])
    on = (_S * max(n, 1))(*[p[4] for p in pts])
    px = ctypes.create_string_buffer(_lib.rflpy_chart_mem(width, height))
    size = width * height * 4 + (1 << 16)
    while True:
        png, ln, err = ctypes.create_string_buffer(size), _Z(), _Error()
        r = _lib.rflpy_chart(arr, len(names), labels, ai, fps, prec, on, n, width, height, _b(title), px, len(px), png, size,
                             ctypes.byref(ln), ctypes.byref(err))
        if r == RFL_ERR_BUFFER and err.need > size:
            size = int(err.need)
            continue
        break
    if r == RFL_ERR_UNKNOWN_NAME:
        raise _unknown_hw(err.where.decode())
    if r != RFL_OK:
        raise RooflineError(err)
    return Chart(png.raw[:ln.value])
