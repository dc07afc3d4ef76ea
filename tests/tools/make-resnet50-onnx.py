#!/usr/bin/env python3
"""make-resnet50-onnx.py: writes ResNet-50 (v1.5) as an ONNX model whose
weights are external data, for screenshots and manual runs of the graph
view without a 100 MB download.

Usage: make-resnet50-onnx.py OUT.onnx

The graph is the torchvision ResNet-50's (a 7×7 stem, four stages of
3, 4, 6 and 3 bottlenecks, global average pooling, a 1000-way Gemm),
batch normalisation kept as BatchNormalization nodes. Every initializer
names OUT.onnx.weights as its external data (offset and length as a real
export lays them out), which the graph view names and never loads; the
weights file itself is not written. Needs the onnx Python package.
"""
import os
import sys

from onnx import TensorProto, helper, save

OUT = sys.argv[1] if len(sys.argv) == 2 else None
if OUT is None:
    sys.exit("Usage: make-resnet50-onnx.py OUT.onnx")

WEIGHTS = os.path.basename(OUT) + ".weights"
nodes, inits = [], []
offset = [0]


def weight(name, dims):
    t = TensorProto()
    t.name = name
    t.data_type = TensorProto.FLOAT
    t.dims.extend(dims)
    length = 4
    for d in dims:
        length *= d
    t.data_location = TensorProto.EXTERNAL
    for key, value in (("location", WEIGHTS), ("offset", str(offset[0])), ("length", str(length))):
        entry = t.external_data.add()
        entry.key, entry.value = key, value
    offset[0] += length
    inits.append(t)
    return name


def scope(prefix):
    """torch.onnx's node scope for a module path: layer1.0.conv1 is
    /layer1/layer1.0/conv1."""
    parts = prefix.split(".")
    return "".join("/" + ".".join(parts[:i + 1]) if i == 1 and parts[0].startswith("layer") else "/" + part
                   for i, part in enumerate(parts))


def conv_bn(x, prefix, cin, cout, k, stride, relu=True):
    w = weight(prefix + ".conv.weight", [cout, cin, k, k])
    y = prefix + ".conv"
    nodes.append(helper.make_node("Conv", [x, w], [y], name=scope(prefix) + "/Conv",
                                  kernel_shape=[k, k], strides=[stride, stride],
                                  pads=[k // 2] * 4))
    bn = [weight(prefix + ".bn." + p, [cout]) for p in ("weight", "bias", "running_mean", "running_var")]
    z = prefix + ".bn"
    nodes.append(helper.make_node("BatchNormalization", [y] + bn, [z], name=scope(prefix) + "/BatchNormalization",
                                  epsilon=1e-5))
    if not relu:
        return z
    r = prefix + ".relu"
    nodes.append(helper.make_node("Relu", [z], [r], name=scope(prefix) + "/Relu"))
    return r


def bottleneck(x, prefix, cin, width, stride, downsample):
    out = width * 4
    y = conv_bn(x, prefix + ".conv1", cin, width, 1, 1)
    y = conv_bn(y, prefix + ".conv2", width, width, 3, stride)
    y = conv_bn(y, prefix + ".conv3", width, out, 1, 1, relu=False)
    shortcut = conv_bn(x, prefix + ".downsample", cin, out, 1, stride, relu=False) if downsample else x
    s = prefix + ".add"
    nodes.append(helper.make_node("Add", [y, shortcut], [s], name=scope(prefix) + "/Add"))
    r = prefix + ".out"
    nodes.append(helper.make_node("Relu", [s], [r], name=scope(prefix) + "/Relu"))
    return r


x = conv_bn("input", "stem", 3, 64, 7, 2)
nodes.append(helper.make_node("MaxPool", [x], ["stem.pool"], name="/maxpool/MaxPool",
                              kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]))
x, cin = "stem.pool", 64
for stage, (blocks, width) in enumerate(((3, 64), (4, 128), (6, 256), (3, 512)), start=1):
    for b in range(blocks):
        stride = 2 if b == 0 and stage > 1 else 1
        x = bottleneck(x, "layer%d.%d" % (stage, b), cin, width, stride, b == 0)
        cin = width * 4
nodes.append(helper.make_node("GlobalAveragePool", [x], ["pool"], name="/avgpool/GlobalAveragePool"))
nodes.append(helper.make_node("Flatten", ["pool"], ["flat"], name="/Flatten", axis=1))
nodes.append(helper.make_node("Gemm", ["flat", weight("fc.weight", [1000, 2048]), weight("fc.bias", [1000])],
                              ["logits"], name="/fc/Gemm", transB=1))

graph = helper.make_graph(nodes, "resnet50",
                          [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 224, 224])],
                          [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 1000])],
                          initializer=inits)
model = helper.make_model(graph, producer_name="make-resnet50-onnx", opset_imports=[helper.make_opsetid("", 13)])
save(model, OUT)
print("%s: %d nodes, %d initializers, %.1f MB of weights named in %s"
      % (OUT, len(nodes), len(inits), offset[0] / 1e6, WEIGHTS))
