#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""sightline-cli conversion on models written here.

An ONNX source model (Conv, BatchNormalization, Relu, Identity, MatMul,
Softmax) and an ONNX model standing in for what ATC writes: the three
first fused into one op carrying GE's `_datadump_original_op_names`
(a list of strings), a TransData and a Cast inserted, the MatMul renamed
with a multi-batch suffix, the Identity gone. The same pair again as
GraphDef text. Then the errors: a missing model, a model without ops,
the wrong number of paths.
"""
import json
import os
import subprocess
import sys
import tempfile

KEYS = {'source', 'converted', 'ops', 'removed', 'counts'}
OP_KEYS = {'name', 'type', 'status', 'source_ops'}


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number, wire_type, payload):
    key = varint((number << 3) | wire_type)
    if wire_type == 2:
        return key + varint(len(payload)) + payload
    return key + payload


def strings_attribute(name, values):
    """AttributeProto { name 1, strings 9, type 20 = STRINGS (8) }"""
    out = field(1, 2, name.encode())
    out += b''.join(field(9, 2, v.encode()) for v in values)
    return out + field(20, 0, varint(8))


def node(name, op_type, inputs, outputs, original=None):
    """NodeProto { input 1, output 2, name 3, op_type 4, attribute 5 }"""
    out = b''.join(field(1, 2, i.encode()) for i in inputs)
    out += b''.join(field(2, 2, o.encode()) for o in outputs)
    out += field(3, 2, name.encode()) + field(4, 2, op_type.encode())
    if original is not None:
        out += field(5, 2, strings_attribute('_datadump_original_op_names', original))
    return out


def model(nodes):
    graph = b''.join(field(1, 2, n) for n in nodes) + field(2, 2, b'g')
    graph += field(5, 2, field(1, 0, varint(2)) + field(2, 0, varint(1)) + field(8, 2, b'W'))
    graph += field(11, 2, field(1, 2, b'x')) + field(12, 2, field(1, 2, b'y'))
    out = field(1, 0, varint(8)) + field(2, 2, b'check') + field(7, 2, graph)
    return out + field(8, 2, field(2, 0, varint(17)))


SOURCE = model([
    node('conv', 'Conv', ['x'], ['c']),
    node('bn', 'BatchNormalization', ['c'], ['b']),
    node('relu', 'Relu', ['b'], ['r']),
    node('id', 'Identity', ['r'], ['i']),
    node('fc', 'MatMul', ['i', 'W'], ['f']),
    node('softmax', 'Softmax', ['f'], ['y']),
])

CONVERTED = model([
    node('trans_TransData_0', 'TransData', ['x'], ['t']),
    node('conv_fused', 'Conv2D', ['t'], ['h'], original=['conv', 'bn', 'relu']),
    node('trans_Cast_0', 'Cast', ['h'], ['h2']),
    node('fc_ascend_mbatch_batch_0', 'MatMulV2', ['h2', 'W'], ['f']),
    node('softmax', 'SoftmaxV2', ['f'], ['y']),
])

SOURCE_PBTXT = b"""node { name: "x" op: "Placeholder" }
node { name: "conv" op: "Conv2D" input: "x" }
node { name: "bn" op: "FusedBatchNorm" input: "conv" }
node { name: "relu" op: "Relu" input: "bn" }
node { name: "id" op: "Identity" input: "relu" }
node { name: "fc" op: "MatMul" input: "id" }
node { name: "softmax" op: "Softmax" input: "fc" }
"""

CONVERTED_PBTXT = b"""node { name: "x" op: "Data" }
node { name: "trans_TransData_0" op: "TransData" input: "x" }
node { name: "conv_fused" op: "Conv2D" input: "trans_TransData_0"
  attr { key: "_datadump_original_op_names" value { list { s: "conv" s: "bn" s: "relu" } } } }
node { name: "trans_Cast_0" op: "Cast" input: "conv_fused" }
node { name: "fc_ascend_mbatch_batch_0" op: "MatMulV2" input: "trans_Cast_0" }
node { name: "softmax" op: "SoftmaxV2" input: "fc_ascend_mbatch_batch_0" }
"""


def run(*args, expect=0):
    result = subprocess.run([os.environ['SL_CLI'], 'conversion', *args], capture_output=True, text=True)
    if result.returncode != expect:
        sys.exit(f'conversion {args}: exit {result.returncode}, wanted {expect}\n{result.stdout}\n{result.stderr}')
    return result


def check_pair(source, converted, extra_kept):
    data = json.loads(run(source, converted, '--json').stdout)
    if set(data) != KEYS or any(set(op) != OP_KEYS for op in data['ops']):
        sys.exit(f'keys {data}')
    ops = {op['name']: (op['status'], op['source_ops']) for op in data['ops']}
    want = {
        'trans_TransData_0': ('inserted', []),
        'conv_fused': ('fused', ['conv', 'bn', 'relu']),
        'trans_Cast_0': ('inserted', []),
        'fc_ascend_mbatch_batch_0': ('kept', ['fc']),
        'softmax': ('kept', ['softmax']),
    }
    want.update(extra_kept)
    if ops != want:
        sys.exit(f'ops {ops}, wanted {want}')
    counts = {'kept': 2 + len(extra_kept), 'fused': 1, 'inserted': 2, 'removed': 1}
    if data['counts'] != counts:
        sys.exit(f'counts {data["counts"]}, wanted {counts}')
    if data['removed'] != [{'name': 'id', 'type': 'Identity'}]:
        sys.exit(f'removed {data["removed"]}')
    text = run(source, converted).stdout
    if not text.startswith(f'{counts["kept"]} kept, 1 fused, 2 inserted, 1 removed') or 'conv, bn, relu' not in text:
        sys.exit(f'text {text}')


def main():
    with tempfile.TemporaryDirectory() as folder:
        paths = {}
        for name, data in (('source.onnx', SOURCE), ('converted.onnx', CONVERTED),
                           ('source.pbtxt', SOURCE_PBTXT), ('converted.pbtxt', CONVERTED_PBTXT)):
            paths[name] = os.path.join(folder, name)
            with open(paths[name], 'wb') as f:
                f.write(data)
        check_pair(paths['source.onnx'], paths['converted.onnx'], {})
        check_pair(paths['source.pbtxt'], paths['converted.pbtxt'], {'x': ('kept', ['x'])})

        missing = os.path.join(folder, 'model.om')
        result = run(paths['source.onnx'], missing, expect=1)
        if 'model.om' not in result.stderr:
            sys.exit(f'missing model: {result.stderr}')
        empty = os.path.join(folder, 'empty.pbtxt')
        with open(empty, 'wb') as f:
            f.write(b'versions { producer: 1 }\n')
        result = run(empty, paths['converted.onnx'], expect=1)
        if 'empty.pbtxt' not in result.stderr:
            sys.exit(f'model without ops: {result.stderr}')
        run(paths['source.onnx'], expect=2)
        run(paths['source.onnx'], paths['converted.onnx'], missing, expect=2)


if __name__ == '__main__':
    main()
