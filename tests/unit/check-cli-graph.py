#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs `sightline-cli graph` on graphs encoded here.

The GraphProto is encoded in this script, independently of the C code,
and written twice: as a ModelProto in model.pb and as the graph_def event
of a MindSpore summary in the same folder. The JSON must have exactly the
documented keys and the counts worked out by hand below. A TensorFlow
GraphDef, encoded here too, goes into a TensorBoard tfevents file, an
ONNX ModelProto into model.onnx, an Ascend GE ModelDef into model.air and
inside an OM container into model.om, a MindIR ModelProto into net.mindir, a
SavedModel with two meta-graphs and a function library into
saved_model.pb, and a GraphDef in text format into graph.pbtxt.

Usage: check-cli-graph.py   (SL_CLI names the sightline-cli binary)
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

GRAPH_KEYS = {'name', 'nodes', 'parameters', 'consts', 'data_edges', 'control_edges', 'scopes', 'op_types',
              'inputs', 'outputs', 'metadata'}
CHILD_KEYS = {'name', 'kind', 'op_type', 'child_count'}
LAYOUT_KEYS = {'scope', 'width', 'height', 'nodes', 'edges'}
LAYOUT_NODE_KEYS = {'name', 'kind', 'x', 'y', 'width', 'height'}
LAYOUT_EDGE_KEYS = {'from', 'to', 'kind', 'count', 'reversed', 'points'}


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def masked(data):
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def record(payload):
    header = struct.pack('<Q', len(payload))
    return header + struct.pack('<I', masked(header)) + payload + struct.pack('<I', masked(payload))


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


def node(name, op_type, scope, inputs):
    """inputs: (name, is_control) pairs"""
    out = b''
    for input_name, control in inputs:
        out += field(1, 2, field(1, 2, input_name.encode()) + field(2, 0, varint(1 if control else 0)))
    out += field(2, 2, name.encode()) + field(3, 2, op_type.encode()) + field(4, 2, scope.encode())
    out += field(8, 2, f'{scope}/{op_type}-op{name}'.encode())
    return field(1, 2, out)


def graph():
    """net/enc: five MatMul reading w (a group), Add reading MatMul 1 and
    the constant c1; net/dec: Mul reading Add, Mul reading that Mul (data)
    and Add (control). 8 nodes, 9 data edges, 1 control edge, 3 scopes."""
    out = b''
    for i in range(1, 6):
        out += node(str(i), 'MatMul', 'net/enc', [('w', False)])
    out += node('6', 'Add', 'net/enc', [('1', False), ('c1', False)])
    out += node('7', 'Mul', 'net/dec', [('6', False)])
    out += node('8', 'Mul', 'net/dec', [('7', False), ('6', True)])
    out += field(2, 2, b'test_graph')
    out += field(3, 2, field(1, 2, b'w'))
    value = field(1, 0, varint(5)) + field(3, 0, varint(2))
    out += field(5, 2, field(1, 2, b'c1') + field(2, 2, value))
    return out


def tf_node(name, op, inputs=(), attrs=b'', number=1):
    """A NodeDef as field @number (1 in a GraphDef, 3 in a FunctionDef)."""
    out = field(1, 2, name.encode()) + field(2, 2, op.encode())
    for input_name in inputs:
        out += field(3, 2, input_name.encode())
    return field(number, 2, out + attrs)


def graph_def():
    """x feeds net/MatMul with the constant net/w; net/Relu reads it
    (output 0) and x (control); net, a NoOp, waits for net/Relu. 4 ops,
    1 constant, 3 data edges, 2 control edges, 1 scope."""
    tensor = field(1, 0, varint(1)) + field(2, 2, field(2, 2, field(1, 0, varint(2))))
    value = field(5, 2, field(1, 2, b'value') + field(2, 2, field(8, 2, tensor)))
    out = tf_node('x', 'Placeholder')
    out += tf_node('net/w', 'Const', attrs=value)
    out += tf_node('net/MatMul', 'MatMul', ['x', 'net/w'])
    out += tf_node('net/Relu', 'Relu', ['net/MatMul:0', '^x'])
    out += tf_node('net', 'NoOp', ['^net/Relu'])
    return out + field(4, 2, field(1, 0, varint(1087)))


def check_tfevents(folder):
    wall_time = field(1, 1, struct.pack('<d', 1700000000.0))
    path = os.path.join(folder, 'events.out.tfevents.1700000000.host')
    with open(path, 'wb') as f:
        f.write(record(wall_time + field(3, 2, b'brain.Event:2')))
        f.write(record(wall_time + field(4, 2, graph_def())))
    data = json.loads(run(path, '--json').stdout)
    if set(data) != {'graphs'} or len(data['graphs']) != 1 or set(data['graphs'][0]) != GRAPH_KEYS:
        sys.exit(f'tfevents top level {data}')
    entry = data['graphs'][0]
    want = {'nodes': 4, 'parameters': 0, 'consts': 1, 'data_edges': 3, 'control_edges': 2, 'scopes': 1,
            'op_types': {'MatMul': 1, 'NoOp': 1, 'Placeholder': 1, 'Relu': 1}}
    if {k: entry[k] for k in want} != want:
        sys.exit(f'tfevents graph {entry}, wanted {want}')
    root = json.loads(run(path, '--json', '--scope', 'net').stdout)['graphs'][0]['children']
    names = sorted(child['name'] for child in root)
    if names != ['net/(net)', 'net/MatMul', 'net/Relu']:
        sys.exit(f'children of net {root}')


def check_onnx(folder):
    """ModelProto { ir_version 1, producer_name 2, graph 7 { node 1, name 2,
    initializer 5, input 11, output 12 }, opset_import 8 }: two nodes in
    scope "blk", a weight W that is also listed as an input."""
    def node(name, op_type, inputs, outputs):
        out = b''.join(field(1, 2, i.encode()) for i in inputs)
        out += b''.join(field(2, 2, o.encode()) for o in outputs)
        return field(3, 2, name.encode()) + field(4, 2, op_type.encode()) + out

    graph = field(1, 2, node('/blk/MatMul', 'MatMul', ['x', 'W'], ['h']))
    graph += field(1, 2, node('/blk/Relu', 'Relu', ['h'], ['y']))
    graph += field(2, 2, b'g')
    graph += field(5, 2, field(1, 0, varint(2)) + field(2, 0, varint(1)) + field(8, 2, b'W'))
    graph += field(11, 2, field(1, 2, b'x')) + field(11, 2, field(1, 2, b'W')) + field(12, 2, field(1, 2, b'y'))
    model = field(1, 0, varint(8)) + field(2, 2, b'check') + field(7, 2, graph)
    model += field(8, 2, field(2, 0, varint(17)))
    path = os.path.join(folder, 'model.onnx')
    with open(path, 'wb') as f:
        f.write(model)
    entry = json.loads(run(path, '--json').stdout)['graphs'][0]
    want = {'name': 'g', 'nodes': 2, 'parameters': 1, 'consts': 0, 'data_edges': 4, 'control_edges': 0,
            'scopes': 1, 'op_types': {'MatMul': 1, 'Relu': 1}, 'inputs': ['x'], 'outputs': ['y'],
            'metadata': {'format': 'ONNX', 'ir_version': '8', 'producer_name': 'check', 'opset_import': 'ai.onnx 17'}}
    if entry != want:
        sys.exit(f'onnx graph {entry}, wanted {want}')
    with open(os.path.join(folder, 'text.onnx'), 'wb') as f:
        f.write(b'not a model')
    result = run(os.path.join(folder, 'text.onnx'), expect=1)
    if 'text.onnx' not in result.stderr:
        sys.exit(f'onnx error {result.stderr}')


def check_air(folder):
    """ge.proto ModelDef { name 1, version 2, graph 7 { name 1, input 4,
    output 5, op 6 } }, OpDef { name 1, type 2, input 5, attr 10,
    output_desc 34 }: a Data op x and a Const W feed blk/MatMul, whose
    output blk/Relu reads; the NetOutput reads the Relu and waits on the
    MatMul (input index -1). Edges: graph input into x, x and W into the
    MatMul, MatMul into Relu, Relu into out, out into the graph output (6).
    The same ModelDef goes into an OM: its 256-byte header ("IMOD"), a
    partition table (model definition, weights) and the partitions."""
    def desc(dtype, dims):
        return field(2, 0, varint(dtype)) + field(3, 2, field(1, 2, b''.join(varint(d) for d in dims)))

    def op(name, op_type, inputs=(), attrs=b'', out=b''):
        fields = field(1, 2, name.encode()) + field(2, 2, op_type.encode())
        fields += b''.join(field(5, 2, i.encode()) for i in inputs) + attrs
        return field(6, 2, fields + (field(34, 2, out) if out else b''))

    weight = field(12, 2, field(1, 2, desc(1, [4, 4])) + field(2, 2, bytes(64)))
    graph = field(1, 2, b'g') + field(4, 2, b'x:0') + field(5, 2, b'out:0')
    graph += op('x', 'Data', out=desc(1, [2, 4]))
    graph += op('W', 'Const', attrs=field(10, 2, field(1, 2, b'value') + field(2, 2, weight)), out=desc(1, [4, 4]))
    graph += op('blk/MatMul', 'MatMul', ['x:0', 'W:0'], out=desc(1, [2, 4]))
    graph += op('blk/Relu', 'Relu', ['blk/MatMul:0'], out=desc(1, [2, 4]))
    graph += op('out', 'NetOutput', ['blk/Relu:0', 'blk/MatMul:-1'])
    model = field(1, 2, b'net') + field(2, 0, varint(1)) + field(7, 2, graph)
    want = {'name': 'net', 'nodes': 4, 'parameters': 1, 'consts': 0, 'data_edges': 6, 'control_edges': 1,
            'scopes': 1, 'op_types': {'Data': 1, 'MatMul': 1, 'NetOutput': 1, 'Relu': 1}, 'inputs': ['x:0'],
            'outputs': ['out:0'], 'metadata': {'format': 'AIR', 'name': 'net', 'version': '1'}}
    path = os.path.join(folder, 'model.air')
    with open(path, 'wb') as f:
        f.write(model)
    entry = json.loads(run(path, '--json').stdout)['graphs'][0]
    if entry != want:
        sys.exit(f'air graph {entry}, wanted {want}')

    header = bytearray(256)
    header[0:4] = b'IMOD'
    struct.pack_into('<II', header, 4, 256, 1)
    header[82] = 1
    header[84:87] = b'net'
    struct.pack_into('<I', header, 116, 5)
    struct.pack_into('<II', header, 152, 9, 1)
    header[160:170] = b'Ascend910B'
    header[180] = 1
    start = 256 + 4 + 2 * 12
    table = struct.pack('<IIIIIII', 2, 0, 0, len(model), 1, len(model), 16)
    path = os.path.join(folder, 'model.om')
    with open(path, 'wb') as f:
        f.write(bytes(header) + table + model + bytes(16))
    entry = json.loads(run(path, '--json').stdout)['graphs'][0]
    want['metadata'] = {'format': 'OM', 'model_name': 'net', 'header_version': '1',
                        'platform_version': 'Ascend910B', 'platform_type': '1', 'op_count': '5', 'ir_version': '9',
                        'model_count': '1', 'model_type': 'standard', 'mode': 'offline', 'checksum': 'no',
                        'partitions': '2', 'partition.model_def': f'{len(model)} bytes at byte {start}',
                        'partition.weights': f'16 bytes at byte {start + len(model)}', 'weights': '16',
                        'name': 'net', 'version': '1'}
    if entry != want:
        sys.exit(f'om graph {entry}, wanted {want}')
    # Cut inside the weights: the model is read, the cut is reported
    with open(os.path.join(folder, 'cut.om'), 'wb') as f:
        f.write(bytes(header) + table + model + bytes(8))
    result = run(os.path.join(folder, 'cut.om'), '--json')
    if json.loads(result.stdout)['graphs'][0]['nodes'] != 4 or 'should end at byte' not in result.stderr:
        sys.exit(f'cut om {result.stdout} {result.stderr}')
    header[80] = 1
    with open(os.path.join(folder, 'secret.om'), 'wb') as f:
        f.write(bytes(header) + table + model + bytes(16))
    if 'encrypted' not in run(os.path.join(folder, 'secret.om'), expect=1).stderr:
        sys.exit('an encrypted OM is not said to be one')


def check_mindir(folder):
    """mind_ir ModelProto { ir_version 1, producer_name 2, graph 7 { node 1,
    name 2, parameter 3, input 5, output 6 }, functions 8, primitives 12 }:
    two nodes in scope "Default/blk" by their full names (NodeProto domain
    7), the first a "REF::" primitive; a function "f" whose node uses the
    main graph's output y twice. Edges: x, W into MatMul, h into ReLU, y
    into the graph output and twice into Add (6); scopes: Default,
    Default/blk, f, f/Default."""
    def node(name, op_type, domain, inputs, outputs):
        out = b''.join(field(1, 2, i.encode()) for i in inputs)
        out += b''.join(field(2, 2, o.encode()) for o in outputs)
        return out + field(3, 2, name.encode()) + field(4, 2, op_type.encode()) + field(7, 2, domain.encode())

    graph = field(1, 2, node('MatMul-op0', 'REF::MatMul_p', 'Default/blk/MatMul-op0', ['x', 'W'], ['h']))
    graph += field(1, 2, node('ReLU-op1', 'ReLU', 'Default/blk/ReLU-op1', ['h'], ['y']))
    graph += field(2, 2, b'g')
    graph += field(3, 2, field(1, 0, varint(2)) + field(1, 0, varint(2)) + field(2, 0, varint(1)) + field(7, 2, b'W'))
    graph += field(5, 2, field(1, 2, b'x')) + field(6, 2, field(1, 2, b'y'))
    function = field(1, 2, node('Add-op0', 'Add', 'Default/Add-op0', ['y', 'y'], ['z'])) + field(2, 2, b'f')
    primitive = field(1, 2, b'MatMul_p') + field(2, 2, b'MatMul')
    model = field(1, 2, b'0.1.1') + field(2, 2, b'MindSpore') + field(7, 2, graph)
    model += field(8, 2, function) + field(12, 2, primitive)
    path = os.path.join(folder, 'net.mindir')
    with open(path, 'wb') as f:
        f.write(model)
    entry = json.loads(run(path, '--json').stdout)['graphs'][0]
    want = {'name': 'g', 'nodes': 3, 'parameters': 1, 'consts': 0, 'data_edges': 6, 'control_edges': 0,
            'scopes': 4, 'op_types': {'Add': 1, 'MatMul': 1, 'ReLU': 1}, 'inputs': ['x'], 'outputs': ['y'],
            'metadata': {'format': 'MindIR', 'ir_version': '0.1.1', 'producer_name': 'MindSpore', 'functions': 'f'}}
    if entry != want:
        sys.exit(f'mindir graph {entry}, wanted {want}')
    with open(os.path.join(folder, 'text.mindir'), 'wb') as f:
        f.write(b'not a model')
    result = run(os.path.join(folder, 'text.mindir'), expect=1)
    if 'text.mindir' not in result.stderr:
        sys.exit(f'mindir error {result.stderr}')


def saved_model():
    """Meta-graph "serve": x (Placeholder) and the constant w feed mm
    (MatMul); call (PartitionedCall of fn) reads mm and waits for init
    (NoOp). fn: argument a, relu = Relu(a), neg = Neg(relu), returns neg
    as y. 8 ops (x, mm, call, init, fn/a, fn/relu, fn/neg, fn/y_retval),
    1 constant, data edges x, w -> mm, mm -> call, a -> relu -> neg ->
    y_retval (6), 1 control edge, scope fn. Meta-graph "train,gpu": a
    feeds b (Relu). A signature serving_default maps x and y."""
    tensor = field(1, 0, varint(1)) + field(2, 2, field(2, 2, field(1, 0, varint(3))) +
                                            field(2, 2, field(1, 0, varint(1))))
    value = field(5, 2, field(1, 2, b'value') + field(2, 2, field(8, 2, tensor)))
    func = field(5, 2, field(1, 2, b'f') + field(2, 2, field(10, 2, field(1, 2, b'fn'))))
    nodes = tf_node('x', 'Placeholder') + tf_node('w', 'Const', attrs=value)
    nodes += tf_node('mm', 'MatMul', ['x', 'w:0']) + tf_node('init', 'NoOp')
    nodes += tf_node('call', 'PartitionedCall', ['mm', '^init'], attrs=func)
    signature = field(1, 2, b'fn') + field(2, 2, field(1, 2, b'a') + field(3, 0, varint(1)))
    signature += field(3, 2, field(1, 2, b'y') + field(3, 0, varint(1)))
    function = field(1, 2, signature) + tf_node('relu', 'Relu', ['a'], number=3)
    function += tf_node('neg', 'Neg', ['relu:activations:0'], number=3)
    function += field(4, 2, field(1, 2, b'y') + field(2, 2, b'neg:y:0'))
    library = field(1, 2, function)
    graph1 = nodes + field(2, 2, library) + field(4, 2, field(1, 0, varint(1087)))
    shape = field(2, 2, field(1, 0, varint(2**64 - 1))) + field(2, 2, field(1, 0, varint(3)))
    x_info = field(1, 2, b'x:0') + field(2, 0, varint(1)) + field(3, 2, shape)
    y_info = field(1, 2, b'call:0') + field(2, 0, varint(1))
    sig = field(1, 2, field(1, 2, b'x') + field(2, 2, x_info)) + field(2, 2, field(1, 2, b'y') + field(2, 2, y_info))
    sig += field(3, 2, b'tensorflow/serving/predict')
    meta1 = field(1, 2, field(4, 2, b'serve') + field(5, 2, b'2.15.0')) + field(2, 2, graph1)
    meta1 += field(5, 2, field(1, 2, b'serving_default') + field(2, 2, sig))
    graph2 = tf_node('a', 'Placeholder') + tf_node('b', 'Relu', ['a'])
    meta2 = field(1, 2, field(4, 2, b'train') + field(4, 2, b'gpu')) + field(2, 2, graph2)
    return field(1, 0, varint(1)) + field(2, 2, meta1) + field(2, 2, meta2)


def check_saved_model(folder):
    model = saved_model()
    os.makedirs(os.path.join(folder, 'variables'))
    path = os.path.join(folder, 'saved_model.pb')
    with open(path, 'wb') as f:
        f.write(model)
    # fingerprint.pb: FingerprintDef { saved_model_checksum 1, ... }, no graph
    with open(os.path.join(folder, 'fingerprint.pb'), 'wb') as f:
        f.write(field(1, 0, varint(12345)) + field(2, 0, varint(678)))
    want_serve = {'name': 'serve', 'nodes': 8, 'parameters': 0, 'consts': 1, 'data_edges': 6,
                  'control_edges': 1, 'scopes': 1,
                  'op_types': {'Placeholder': 1, 'MatMul': 1, 'NoOp': 1, 'PartitionedCall': 1, '_Arg': 1,
                               'Relu': 1, 'Neg': 1, '_Retval': 1},
                  'inputs': [], 'outputs': [],
                  'metadata': {'format': 'TensorFlow SavedModel', 'saved_model_schema_version': '1',
                               'tensorflow_version': '2.15.0', 'tags': 'serve', 'functions': 'fn',
                               'signature_def.serving_default':
                                   'method tensorflow/serving/predict; inputs: x = x:0 float32[?,3]; '
                                   'outputs: y = call:0 float32'}}
    want_train = {'name': 'train,gpu', 'nodes': 2, 'parameters': 0, 'consts': 0, 'data_edges': 1,
                  'control_edges': 0, 'scopes': 0, 'op_types': {'Placeholder': 1, 'Relu': 1},
                  'inputs': [], 'outputs': [],
                  'metadata': {'format': 'TensorFlow SavedModel', 'saved_model_schema_version': '1',
                               'tags': 'train,gpu'}}
    for target in (path, folder):
        data = json.loads(run(target, '--json').stdout)
        if data['graphs'] != [want_serve, want_train]:
            sys.exit(f'saved model {target}: {data["graphs"]}, wanted {[want_serve, want_train]}')
    # Cut inside the first meta-graph's function library: the nodes before stay.
    cut = model[:model.index(b'neg:y:0')]
    with open(path, 'wb') as f:
        f.write(cut)
    result = run(path, '--json')
    entry = json.loads(result.stdout)['graphs'][0]
    if entry['name'] != 'serve' or entry['nodes'] < 5:
        sys.exit(f'cut saved model {entry}')
    # No node at all: an error naming the file, never an empty graph.
    with open(path, 'wb') as f:
        f.write(field(1, 0, varint(1)) + field(2, 2, field(1, 2, field(4, 2, b'serve'))))
    result = run(path, expect=1)
    if 'saved_model.pb' not in result.stderr:
        sys.exit(f'empty saved model error {result.stderr}')


PBTXT = b"""# written by tf.io.write_graph(as_text=True)
node {
  name: "x"
  op: "Placeholder"
  attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: -1 } dim { size: 3 } } } }
}
node {
  name: "net/w"
  op: "Const"
  attr {
    key: "value"
    value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } } float_val: [1.5, 2, -3e1] } }
  }
}
node { name: "net/MatMul" op: "MatMul" input: "x" input: "net/w:0" device: "/device:CPU:0"
       attr { key: "transpose_a" value { b: false } } }
node { name: "net/Relu" op: "Relu" input: "net/MatMul" input: "^x"
       attr { key: "_class" value { list { s: "loc:@x" s: 'tab\there' } } } }
versions { producer: 1087 }
"""


def check_pbtxt(folder):
    """The text form of graph_def()'s graph, less the NoOp: 3 ops, 1
    constant, 3 data edges, 1 control edge, scope net."""
    path = os.path.join(folder, 'graph.pbtxt')
    with open(path, 'wb') as f:
        f.write(PBTXT)
    entry = json.loads(run(path, '--json').stdout)['graphs'][0]
    want = {'nodes': 3, 'parameters': 0, 'consts': 1, 'data_edges': 3, 'control_edges': 1, 'scopes': 1,
            'op_types': {'Placeholder': 1, 'MatMul': 1, 'Relu': 1}}
    got = {key: entry[key] for key in want}
    if set(entry) != GRAPH_KEYS or got != want:
        sys.exit(f'pbtxt graph {entry}, wanted {want}')
    # Cut inside the last node: the whole ones stay, the problem says where.
    cut = PBTXT[:PBTXT.index(b'"net/Relu"') + 4]
    with open(path, 'wb') as f:
        f.write(cut)
    result = run(path, '--json')
    entry = json.loads(result.stdout)['graphs'][0]
    if entry['nodes'] != 2 or entry['consts'] != 1:
        sys.exit(f'cut pbtxt graph {entry}')
    with open(path, 'wb') as f:
        f.write(b'node { name: "x" op: \x01 }')
    result = run(path, expect=1)
    if 'graph.pbtxt' not in result.stderr or 'byte 21' not in result.stderr:
        sys.exit(f'pbtxt error {result.stderr}')


def run(*args, expect=0):
    result = subprocess.run([os.environ['SL_CLI'], 'graph', *args], capture_output=True, text=True)
    if result.returncode != expect:
        sys.exit(f'graph {args}: exit {result.returncode}, wanted {expect}\n{result.stdout}\n{result.stderr}')
    return result


def check_graph(entry):
    if set(entry) != GRAPH_KEYS:
        sys.exit(f'graph keys {sorted(entry)}')
    want = {'name': 'test_graph', 'nodes': 8, 'parameters': 1, 'consts': 1, 'data_edges': 9,
            'control_edges': 1, 'scopes': 3, 'op_types': {'Add': 1, 'MatMul': 5, 'Mul': 2},
            'inputs': [], 'outputs': [], 'metadata': {}}
    if entry != want:
        sys.exit(f'graph {entry}, wanted {want}')


def check_layout(data):
    """net/dec laid out: Mul-op7 above Mul-op8 inside the frame, one data
    edge between them going down; the control edge from net/enc is lifted
    to net and is not net/dec's."""
    layout = data['graphs'][0]['layout']
    if set(layout) != LAYOUT_KEYS:
        sys.exit(f'layout keys {sorted(layout)}')
    nodes = {n['name']: n for n in layout['nodes']}
    if sorted(nodes) != ['net/dec/Mul-op7', 'net/dec/Mul-op8']:
        sys.exit(f'layout nodes {sorted(nodes)}')
    for n in layout['nodes']:
        if set(n) != LAYOUT_NODE_KEYS or n['kind'] != 'node':
            sys.exit(f'layout node {n}')
        if n['x'] < 0 or n['y'] < 0 or n['x'] + n['width'] > layout['width'] or n['y'] + n['height'] > layout['height']:
            sys.exit(f'layout node {n} outside {layout["width"]} x {layout["height"]}')
    upper, lower = nodes['net/dec/Mul-op7'], nodes['net/dec/Mul-op8']
    if upper['y'] + upper['height'] >= lower['y']:
        sys.exit(f'layout ranks {upper} {lower}')
    edges = layout['edges']
    if len(edges) != 1 or set(edges[0]) != LAYOUT_EDGE_KEYS:
        sys.exit(f'layout edges {edges}')
    edge = edges[0]
    if (edge['from'], edge['to'], edge['kind'], edge['count'], edge['reversed']) != \
            ('net/dec/Mul-op7', 'net/dec/Mul-op8', 'data', 1, False):
        sys.exit(f'layout edge {edge}')
    if edge['points'][0][1] != upper['y'] + upper['height'] or edge['points'][-1][1] != lower['y']:
        sys.exit(f'edge route {edge["points"]} does not join {upper} to {lower}')


def main():
    with tempfile.TemporaryDirectory() as folder:
        model = field(1, 0, varint(1)) + field(4, 2, graph())
        with open(os.path.join(folder, 'model.pb'), 'wb') as f:
            f.write(model)
        event = field(1, 1, struct.pack('<d', 1700000000.0)) + field(4, 2, graph())
        with open(os.path.join(folder, 'events.out.events.summary.1700000000.host_MS'), 'wb') as f:
            f.write(record(event))

        data = json.loads(run(folder, '--json').stdout)
        if set(data) != {'graphs'} or len(data['graphs']) != 2:
            sys.exit(f'top level {data}')
        for entry in data['graphs']:
            check_graph(entry)

        scoped = json.loads(run(os.path.join(folder, 'model.pb'), '--json', '--scope', 'net/enc').stdout)
        children = scoped['graphs'][0].pop('children')
        check_graph(scoped['graphs'][0])
        for child in children:
            if set(child) != CHILD_KEYS:
                sys.exit(f'child keys {sorted(child)}')
        want = [
            {'name': 'net/enc/MatMul[5]', 'kind': 'group', 'op_type': 'MatMul', 'child_count': 5},
            {'name': 'net/enc/Add-op6', 'kind': 'node', 'op_type': 'Add', 'child_count': 1},
            {'name': 'net/enc/w', 'kind': 'node', 'op_type': 'Parameter', 'child_count': 0},
        ]
        if children != want:
            sys.exit(f'children of net/enc {children}')

        root = json.loads(run(os.path.join(folder, 'model.pb'), '--json', '--scope', '').stdout)
        if root['graphs'][0]['children'] != [{'name': 'net', 'kind': 'scope', 'op_type': '', 'child_count': 2}]:
            sys.exit(f'children of the root {root["graphs"][0]["children"]}')

        text = run(os.path.join(folder, 'model.pb'), '--scope', 'net/dec').stdout
        if 'test_graph' not in text or 'net/dec/Mul-op8' not in text:
            sys.exit(f'text output {text}')

        check_layout(json.loads(run(os.path.join(folder, 'model.pb'), '--json', '--scope', 'net/dec', '--layout').stdout))
        top = json.loads(run(os.path.join(folder, 'model.pb'), '--json', '--layout').stdout)['graphs'][0]['layout']
        if top['scope'] != '' or [n['name'] for n in top['nodes']] != ['net'] or top['edges']:
            sys.exit(f'top-level layout {top}')
        if 'layout' not in run(os.path.join(folder, 'model.pb'), '--layout').stdout:
            sys.exit('text layout missing')

        with tempfile.TemporaryDirectory() as tb_folder:
            check_tfevents(tb_folder)
        with tempfile.TemporaryDirectory() as onnx_folder:
            check_onnx(onnx_folder)
        with tempfile.TemporaryDirectory() as air_folder:
            check_air(air_folder)
        with tempfile.TemporaryDirectory() as mindir_folder:
            check_mindir(mindir_folder)
        with tempfile.TemporaryDirectory() as saved_model_folder:
            check_saved_model(saved_model_folder)
        with tempfile.TemporaryDirectory() as pbtxt_folder:
            check_pbtxt(pbtxt_folder)

        run(folder, '--scope', 'no/such/scope', expect=1)
        run(os.path.join(folder, 'missing.pb'), expect=1)
        run(expect=2)
        with open(os.path.join(folder, 'junk.pb'), 'wb') as f:
            f.write(b'\xff' * 16)
        run(os.path.join(folder, 'junk.pb'), expect=1)

        # A profiler's XSpace is no graph: said once, naming what is read
        plane = field(2, 2, b'/device:TPU:0') + field(3, 2, field(1, 0, varint(1)) + field(2, 2, b'XLA Ops'))
        with open(os.path.join(folder, 'host.xplane.pb'), 'wb') as f:
            f.write(field(1, 2, plane) + field(4, 2, b'worker-0'))
        result = run(os.path.join(folder, 'host.xplane.pb'), expect=1)
        for words in ('not a model or graph Sightline reads', 'MindSpore', 'TensorFlow GraphDef', 'AIR', 'OM'):
            if words not in result.stderr:
                sys.exit(f'xplane.pb message {result.stderr}')
        # A TensorFlow GraphDef on its own opens
        with open(os.path.join(folder, 'frozen.pb'), 'wb') as f:
            f.write(graph_def())
        run(os.path.join(folder, 'frozen.pb'))
        # An empty .pb decodes as a graph without nodes: an error, not 0 nodes.
        with open(os.path.join(folder, 'empty.pb'), 'wb') as f:
            pass
        if 'empty.pb' not in run(os.path.join(folder, 'empty.pb'), expect=1).stderr:
            sys.exit('empty.pb: the error does not name the file')
    print('sightline-cli graph: keys and counts as expected')


main()
