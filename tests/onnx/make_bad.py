#!/usr/bin/python3
"""Makes the bad ONNX files in tests/onnx/bad/ (issue 18, item 5): each has
one defect, and tests/onnx/bad/EXPECTED.txt says what the error line must
name (a byte offset or a node / tensor name). A few good ones sit beside
them for tests/steps/onnx-tools.sh: good.onnx (their base),
unknown-op-shaped.onnx (an op without a FLOP rule whose output shape is
known), seq-dim.onnx (a symbolic dim besides the batch). Small graphs built with
python-onnx's helpers, no checker (they are meant to be wrong); the
truncated one is a prefix of a real fixture.
    /usr/bin/python3 tests/onnx/make_bad.py
"""
import os
import onnx
from onnx import helper, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
BAD = os.path.join(HERE, "bad")


def conv_graph(nodes, in_dims=(1, 3, 8, 8), extra_inits=()):
    w = helper.make_tensor("w", TensorProto.FLOAT, [4, 3, 3, 3], [0.0] * 108)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, list(in_dims))
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    g = helper.make_graph(nodes, "bad", [x], [y], initializer=[w, *extra_inits])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])


def save(name, model_or_bytes):
    data = model_or_bytes if isinstance(model_or_bytes, bytes) else model_or_bytes.SerializeToString()
    with open(os.path.join(BAD, name), "wb") as f:
        f.write(data)
    return len(data)


def main():
    os.makedirs(BAD, exist_ok=True)
    conv = lambda i, o, n: helper.make_node("Conv", [i, "w"], [o], name=n, pads=[1, 1, 1, 1])
    relu = lambda i, o, n: helper.make_node("Relu", [i], [o], name=n)
    ok = conv_graph([conv("x", "c", "conv_1"), relu("c", "y", "relu_1")])
    save("good.onnx", ok)
    # text: the first byte is not a protobuf field ONNX has
    save("not-onnx.onnx", b"this is not an ONNX file, just text\n")
    # a real model cut in the middle of its graph
    whole = open(os.path.join(HERE, "zoo", "resnet18.onnx"), "rb").read()
    save("truncated.onnx", whole[:len(whole) // 2])
    # a graph input dim of -3
    save("negative-dim.onnx", conv_graph([conv("x", "c", "conv_1"), relu("c", "y", "relu_1")],
                                         in_dims=(1, 3, -3, 8)))
    # dims whose product overflows 64 bits
    save("overflow-dim.onnx", conv_graph([conv("x", "c", "conv_1"), relu("c", "y", "relu_1")],
                                         in_dims=(1, 3, 1 << 40, 1 << 40)))
    # relu_a reads relu_b's output and relu_b reads relu_a's
    cyc = [conv("x", "c", "conv_1"), helper.make_node("Add", ["c", "b"], ["a"], name="add_a"),
           relu("a", "b", "relu_b"), relu("b", "y", "relu_out")]
    save("cycle.onnx", conv_graph(cyc))
    # a node reads a tensor that nothing produces
    save("unknown-input.onnx", conv_graph([conv("x", "c", "conv_1"),
                                           helper.make_node("Add", ["c", "ghost"], ["y"],
                                                            name="add_ghost")]))
    # an op with no rule: with the output's shape in value_info the count
    # goes on (its FLOPs unknown, named); without it, exit 1 naming the node
    odd = helper.make_node("FancyNorm", ["c"], ["f"], name="fancy_1", domain="com.example")
    shaped = conv_graph([conv("x", "c", "conv_1"), odd, relu("f", "y", "relu_1")])
    shaped.graph.value_info.append(helper.make_tensor_value_info("f", TensorProto.FLOAT, [1, 4, 8, 8]))
    shaped.opset_import.append(helper.make_opsetid("com.example", 1))
    save("unknown-op-shaped.onnx", shaped)
    unshaped = conv_graph([conv("x", "c", "conv_1"), odd, relu("f", "y", "relu_1")])
    unshaped.opset_import.append(helper.make_opsetid("com.example", 1))
    save("unknown-op.onnx", unshaped)
    # a symbolic dim besides the batch: x [batch, seq, 64] @ w [64, 32]
    wm = helper.make_tensor("wm", TensorProto.FLOAT, [64, 32], [0.0] * 2048)
    xs = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", 64])
    ys = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    g = helper.make_graph([helper.make_node("MatMul", ["x", "wm"], ["y"], name="proj")], "seq",
                          [xs], [ys], initializer=[wm])
    save("seq-dim.onnx", helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)]))


if __name__ == "__main__":
    main()
