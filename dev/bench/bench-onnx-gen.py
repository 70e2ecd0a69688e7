#!/usr/bin/env python3
"""`make bench`, ONNX part: writes an ONNX file of at least MB megabytes
with every weight inline (a chain of MatMul + Add + Relu over 4096 x 4096
fp32 weights, 64 MiB each, and one small int64 Reshape target that the
reader must keep), for timing the streamed reader against onnx.load.
    python3 dev/bench/bench-onnx-gen.py OUT.onnx [MB]
The protobuf is written by hand (onnx.proto's field numbers), so any
python3 makes it; python-onnx's checker accepts it. Weight bytes are a
pseudo-random pattern. Never committed (build/bench/)."""
import os, struct, sys

out = sys.argv[1]
mb = int(sys.argv[2]) if len(sys.argv) > 2 else 500
D = 4096
layers = max(1, -(-(mb * 1000 * 1000) // (D * D * 4)))  # at least MB


def varint(v):
    b = bytearray()
    while True:
        x = v & 0x7F
        v >>= 7
        b.append(x | (0x80 if v else 0))
        if not v:
            return bytes(b)


def key(field, wire):
    return varint(field << 3 | wire)


def vint(field, v):  # a varint field (negative: two's complement, 10 bytes)
    return key(field, 0) + varint(v & (1 << 64) - 1)


def ld(field, payload):  # a length-delimited field
    if isinstance(payload, str):
        payload = payload.encode()
    return key(field, 2) + varint(len(payload)) + payload


def tensor(name, dims, dtype, raw):  # TensorProto: dims 1, data_type 2, name 8, raw_data 9
    return b''.join(vint(1, d) for d in dims) + vint(2, dtype) + ld(8, name) + ld(9, raw)


def node(op, ins, outs, name):  # NodeProto: input 1, output 2, name 3, op_type 4
    return b''.join(ld(1, i) for i in ins) + b''.join(ld(2, o) for o in outs) + ld(3, name) + ld(4, op)


def value_info(name, dims):  # ValueInfoProto{name 1, type 2{tensor_type 1{elem_type 1, shape 2{dim 1}}}}
    ds = b''.join(ld(1, ld(2, d) if isinstance(d, str) else vint(1, d)) for d in dims or [])
    return ld(1, name) + ld(2, ld(1, vint(1, 1) + (ld(2, ds) if dims is not None else b'')))


# one pseudo-random 64 MiB block per layer (cheap: a 1 MiB random piece,
# each copy xor-ed with the layer number through a different start)
piece = os.urandom(1 << 20)
with open(out, 'wb') as f:
    g = bytearray()
    x = 'x'
    for i in range(layers):
        g += ld(1, node('MatMul', [x, 'w%d' % i], ['m%d' % i], 'matmul_%d' % i))
        g += ld(1, node('Add', ['m%d' % i, 'b%d' % i], ['a%d' % i], 'add_%d' % i))
        g += ld(1, node('Relu', ['a%d' % i], ['r%d' % i], 'relu_%d' % i))
        x = 'r%d' % i
    g += ld(1, node('Reshape', [x, 'shape'], ['y'], 'reshape'))
    g += ld(2, 'bench')
    head = bytearray(g)
    inits = []
    for i in range(layers):
        rot = (i * 4099) % len(piece)
        block = (piece[rot:] + piece[:rot]) * ((D * D * 4) // len(piece))
        inits.append(tensor('w%d' % i, [D, D], 1, block))
        inits.append(tensor('b%d' % i, [D], 1, piece[:D * 4]))
    inits.append(tensor('shape', [3], 7, struct.pack('<3q', -1, 64, 64)))
    tail = ld(11, value_info('x', ['batch', D])) + ld(12, value_info('y', ['batch', 64, 64]))
    body_len = len(head) + sum(len(ld(5, t)) for t in inits) + len(tail)
    # ModelProto: ir_version 1, graph 7, opset_import 8{domain 1, version 2}
    f.write(vint(1, 7) + ld(8, ld(1, '') + vint(2, 14)) + key(7, 2) + varint(body_len))
    f.write(head)
    for t in inits:
        f.write(ld(5, t))
    f.write(tail)
print(out, layers, 'layers')
