#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sightline-cli dataset-graph --json` on the six generated lineage runs,
checked against an independent reading of the same bytes: the record
framing and the DatasetGraph wire format are decoded here by hand, and a
few answers read off the files are checked as they are.

Usage: check-datasets-lineage.py SIGHTLINE_CLI   (SL_DATASETS_DIR in the environment)
Exit 77 (skipped) when the datasets folder is absent.
"""
import json
import os
import struct
import subprocess
import sys

FOLDER = 'generated__mindinsight-writers/run_lineage'
RUNS = ['run_01', 'run_02', 'run_03', 'run_04', 'run_05', 'run_06']
# Read off the files: BatchDataset's batch_size and RandomSampler's
# num_samples, the two parameters in which the runs differ.
BATCH_SIZES = [32, 64, 32, 64, 32, 64]
NUM_SAMPLES = [200, 200, 100, 200, 200, 200]
CHAIN = ['BatchDataset', 'ShuffleDataset', 'MapDataset', 'MapDataset', 'MnistDataset', 'RandomSampler']


def varint(data, pos):
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7f) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def fields(data):
    """(field, wire type, value) of one message; bytes for length-delimited."""
    pos = 0
    while pos < len(data):
        key, pos = varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(data, pos)
        elif wire == 1:
            value, pos = data[pos:pos + 8], pos + 8
        elif wire == 5:
            value, pos = data[pos:pos + 4], pos + 4
        elif wire == 2:
            length, pos = varint(data, pos)
            value, pos = data[pos:pos + length], pos + length
        else:
            raise ValueError(f'wire type {wire}')
        yield number, wire, value


def records(path):
    with open(path, 'rb') as f:
        data = f.read()
    pos = 0
    while pos + 12 <= len(data):
        (length,) = struct.unpack_from('<Q', data, pos)
        yield data[pos + 12:pos + 12 + length]
        pos += 12 + length + 4


def int32(value):
    value &= 0xffffffff
    return value - (1 << 32) if value >= 1 << 31 else value


def parameters(data):
    """OperationParameter's maps as the CLI prints them ("None" is null)."""
    out = {}
    for number, _, entry in fields(data):
        key, value = None, None
        for n, w, v in fields(entry):
            if n == 1:
                key = v.decode()
            elif n == 2:
                if number == 1:
                    value = None if v.decode() == 'None' else v.decode()
                elif number == 2:
                    value = [s.decode() for _, _, s in fields(v)]
                elif number == 3:
                    value = bool(v)
                elif number == 4:
                    value = int32(v)
                else:
                    value = struct.unpack('<d', v)[0]
        out[key] = value
    return out


def operation(data):
    params, name = {}, None
    for number, _, value in fields(data):
        if number == 1:
            params.update(parameters(value))
    name = params.get('tensor_op_name')
    return name, params


def decode_graph(data):
    """Pre-order nodes: a node's children, then its sampler, are its children."""
    nodes = []

    def visit(graph, kind):
        node = {'kind': kind, 'parameters': {}, 'operations': [], 'children': []}
        index = len(nodes)
        nodes.append(node)
        if kind == 'sampler':
            node['parameters'] = operation(graph)[1]
            return index
        sampler = None
        for number, _, value in fields(graph):
            if number == 1:
                node['children'].append(visit(value, 'operation'))
            elif number == 2:
                node['parameters'].update(parameters(value))
            elif number == 3:
                node['operations'].append(operation(value)[0])
            elif number == 4:
                sampler = value
        if sampler is not None:
            node['children'].append(visit(sampler, 'sampler'))
        return index

    visit(data, 'operation')
    for node in nodes:
        key = 'sampler_name' if node['kind'] == 'sampler' else 'op_type'
        node['op_type'] = node['parameters'].get(key)
    return nodes


def read_run(folder):
    (name,) = [n for n in os.listdir(folder) if n.endswith('_lineage')]
    graph = None
    for payload in records(os.path.join(folder, name)):
        for number, _, value in fields(payload):
            if number == 9:
                graph = value
    return decode_graph(graph)


def paths(nodes):
    out = [None] * len(nodes)
    out[0] = nodes[0]['op_type']
    for index, node in enumerate(nodes):
        for position, child in enumerate(node['children']):
            label = nodes[child]['op_type']
            out[child] = out[index] + '/' + (label if position == 0 else f'{label}#{position}')
    return out


def run_cli(cli, *args):
    env = dict(os.environ, LC_ALL='C.UTF-8', LANGUAGE='C')
    result = subprocess.run([cli, 'dataset-graph', '--json', *args], capture_output=True, text=True,
                            timeout=120, env=env)
    assert result.returncode == 0, (args, result.returncode, result.stderr)
    return json.loads(result.stdout)


def same_value(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return a == b or (a != a and b != b)
    return a == b


def check_run(cli_run, expected):
    assert len(cli_run['nodes']) == len(expected), (cli_run['name'], len(cli_run['nodes']))
    for got, want in zip(cli_run['nodes'], expected):
        assert got['kind'] == want['kind'], (got, want)
        assert got['op_type'] == want['op_type'], (got, want)
        assert got['children'] == want['children'], (got, want)
        assert set(got['parameters']) == set(want['parameters']), (got['parameters'], want['parameters'])
        for key, value in want['parameters'].items():
            assert same_value(got['parameters'][key], value), (cli_run['name'], key, got['parameters'][key], value)
        assert [o['name'] for o in got['operations']] == want['operations'], (got['operations'], want)
    assert cli_run['problems'] == [], cli_run['problems']


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    cli = sys.argv[1]
    datasets = os.environ.get('SL_DATASETS_DIR', '')
    root = os.path.join(datasets, FOLDER)
    if not datasets or not os.path.isdir(root):
        print('the datasets folder is absent: skipped')
        return 77

    folders = [os.path.join(root, r) for r in RUNS]
    expected = [read_run(f) for f in folders]

    # The known answers, on the independent reading first.
    for nodes, batch, samples in zip(expected, BATCH_SIZES, NUM_SAMPLES):
        assert [n['op_type'] for n in nodes] == CHAIN, [n['op_type'] for n in nodes]
        assert nodes[0]['parameters']['batch_size'] == batch
        assert nodes[5]['kind'] == 'sampler' and nodes[5]['parameters']['num_samples'] == samples
        assert nodes[4]['children'] == [5]

    # All six side by side: the parent folder, then the folders one by one.
    for doc in (run_cli(cli, root), run_cli(cli, *folders)):
        assert [r['name'] for r in doc['runs']] == RUNS, [r['name'] for r in doc['runs']]
        all_paths = [paths(nodes) for nodes in expected]
        for index, (cli_run, nodes) in enumerate(zip(doc['runs'], expected)):
            check_run(cli_run, nodes)
            for n, node in enumerate(nodes):
                differs = set()
                for other, other_nodes in enumerate(expected):
                    if other == index:
                        continue
                    try:
                        match = other_nodes[all_paths[other].index(all_paths[index][n])]
                    except ValueError:
                        differs |= set(node['parameters']) | ({'operations'} if node['operations'] else set())
                        continue
                    for key in set(node['parameters']) | set(match['parameters']):
                        if key not in node['parameters'] or key not in match['parameters'] or \
                                not same_value(node['parameters'][key], match['parameters'][key]):
                            differs.add(key)
                    if node['operations'] != match['operations']:
                        differs.add('operations')
                assert set(cli_run['nodes'][n]['differs']) == differs, \
                    (cli_run['name'], n, cli_run['nodes'][n]['differs'], differs)
            assert cli_run['nodes'][0]['differs'] == ['batch_size']
            assert cli_run['nodes'][5]['differs'] == ['num_samples']
            assert all(cli_run['nodes'][i]['differs'] == [] for i in range(1, 5))
            assert cli_run['nodes'][0]['parameters']['batch_size'] == BATCH_SIZES[index]

    # One run alone differs from nothing.
    doc = run_cli(cli, folders[2])
    assert len(doc['runs']) == 1
    check_run(doc['runs'][0], expected[2])
    assert all(not node.get('differs') for node in doc['runs'][0]['nodes'])
    print(f'{len(RUNS)} runs, {sum(len(n) for n in expected)} nodes checked')
    return 0


if __name__ == '__main__':
    sys.exit(main())
