#!/usr/bin/python3
"""`make bench`, ONNX part: writes an ONNX file of about MB megabytes with
every weight inline (a chain of MatMul + Add + Relu over 4096 x 4096 fp32
weights, 64 MiB each, and one small int64 Reshape target that the reader
must keep), for timing the streamed reader against onnx.load.
    /usr/bin/python3 tools/bench-onnx-gen.py OUT.onnx [MB]
Needs Debian's python3-onnx and numpy; never committed (build/bench/)."""
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

out = sys.argv[1]
mb = int(sys.argv[2]) if len(sys.argv) > 2 else 500
D = 4096
layers = max(1, -(-(mb * 1000 * 1000) // (D * D * 4)))  # at least MB
rng = np.random.default_rng(0)
nodes, inits = [], []
x = "x"
for i in range(layers):
    w = rng.standard_normal((D, D), dtype=np.float32)
    inits.append(numpy_helper.from_array(w, "w%d" % i))
    inits.append(numpy_helper.from_array(rng.standard_normal(D, dtype=np.float32), "b%d" % i))
    nodes.append(helper.make_node("MatMul", [x, "w%d" % i], ["m%d" % i], name="matmul_%d" % i))
    nodes.append(helper.make_node("Add", ["m%d" % i, "b%d" % i], ["a%d" % i], name="add_%d" % i))
    nodes.append(helper.make_node("Relu", ["a%d" % i], ["r%d" % i], name="relu_%d" % i))
    x = "r%d" % i
inits.append(numpy_helper.from_array(np.array([-1, 64, 64], dtype=np.int64), "shape"))
nodes.append(helper.make_node("Reshape", [x, "shape"], ["y"], name="reshape"))
g = helper.make_graph(nodes, "bench", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", D])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], initializer=inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])
onnx.save(m, out)
print(out, layers, "layers")
