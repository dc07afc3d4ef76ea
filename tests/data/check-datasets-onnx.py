#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sightline-cli graph --json` on every ONNX model of Debian's
libonnx-testdata, against the onnx Python package as the independent
reader: node count and op types (subgraphs of If, Loop and Scan
included), initializers (sparse ones too), the graph's name, the names
of its inputs that are not weights and of its outputs, the IR version,
the producer and the opset imports. Skipped when libonnx-testdata or
python3-onnx is not installed. When the python3 running it has no onnx
module, another python3 on PATH that has it runs the check.

Usage: check-datasets-onnx.py SIGHTLINE_CLI
"""
import collections
import json
import os
import subprocess
import sys


def testdata_models():
    try:
        listing = subprocess.run(['dpkg-query', '-L', 'libonnx-testdata'], capture_output=True, text=True,
                                 check=False).stdout
    except OSError:
        return []
    return sorted(p for p in listing.splitlines() if p.endswith('.onnx') and os.path.isfile(p))


def graphs_of(graph):
    """The graph and every subgraph in its nodes' attributes, recursively."""
    import onnx
    stack = [graph]
    while stack:
        g = stack.pop()
        yield g
        for node in g.node:
            for attr in node.attribute:
                if attr.type == onnx.AttributeProto.GRAPH:
                    stack.append(attr.g)
                elif attr.type == onnx.AttributeProto.GRAPHS:
                    stack.extend(attr.graphs)


def expected(path):
    import onnx
    model = onnx.load(path, load_external_data=False)
    graphs = list(graphs_of(model.graph))
    op_types = collections.Counter(n.op_type for g in graphs for n in g.node)
    weights = {t.name for t in model.graph.initializer} | {t.values.name for t in model.graph.sparse_initializer}
    opsets = ', '.join('%s %d' % (o.domain or 'ai.onnx', o.version) for o in model.opset_import)
    return {
        'name': model.graph.name or os.path.basename(path),
        'nodes': sum(len(g.node) for g in graphs),
        'parameters': sum(len(g.initializer) + len(g.sparse_initializer) for g in graphs),
        'op_types': dict(op_types),
        'inputs': [i.name for i in model.graph.input if i.name not in weights],
        'outputs': [o.name for o in model.graph.output],
        'ir_version': str(model.ir_version),
        'producer_name': model.producer_name,
        'opset_import': opsets,
    }


def interpreter_with_onnx():
    """Another python3 on PATH that imports onnx, for when the one running
    this (a version manager's, say) has not got Debian's python3-onnx."""
    me = os.path.realpath(sys.executable)
    for folder in os.environ.get('PATH', '').split(os.pathsep):
        candidate = os.path.join(folder, 'python3')
        if not os.access(candidate, os.X_OK) or os.path.realpath(candidate) == me:
            continue
        probe = subprocess.run([candidate, '-c', 'import onnx'], capture_output=True, check=False)
        if probe.returncode == 0:
            return candidate
    return None


def main():
    cli = sys.argv[1]
    try:
        import onnx  # noqa: F401
    except ImportError:
        other = None if os.environ.get('SL_ONNX_CHECK_REEXEC') else interpreter_with_onnx()
        if other is None:
            print('python3-onnx is not installed; skipped')
            return 77
        print(f'this python3 has no onnx; running the check with {other}')
        env = dict(os.environ, SL_ONNX_CHECK_REEXEC='1')
        return subprocess.run([other, os.path.abspath(__file__), *sys.argv[1:]], env=env, check=False).returncode
    models = testdata_models()
    if not models:
        print('libonnx-testdata is not installed; skipped')
        return 77
    subgraphs = 0
    for path in models:
        want = expected(path)
        result = subprocess.run([cli, 'graph', path, '--json'], capture_output=True, text=True, check=False)
        assert result.returncode == 0, (path, result.stderr)
        # A valid model reads without a single problem.
        assert result.stderr == '', (path, result.stderr)
        graphs = json.loads(result.stdout)['graphs']
        assert len(graphs) == 1, (path, graphs)
        got = graphs[0]
        for key in ('name', 'nodes', 'parameters', 'op_types', 'inputs', 'outputs'):
            assert got[key] == want[key], (path, key, got[key], want[key])
        meta = got['metadata']
        assert meta['format'] == 'ONNX', (path, meta)
        assert meta['ir_version'] == want['ir_version'], (path, meta, want)
        assert meta.get('producer_name', '') == want['producer_name'], (path, meta, want)
        assert meta.get('opset_import', '') == want['opset_import'], (path, meta, want)
        for key in ('consts', 'data_edges', 'control_edges', 'scopes'):
            assert isinstance(got[key], int), (path, key, got)
        subgraphs += got['scopes'] > 0 and any(t in want['op_types'] for t in ('If', 'Loop', 'Scan'))
    assert subgraphs > 0, 'no model with subgraphs was checked'
    print('%d ONNX models agree with the onnx package (%d with subgraphs)' % (len(models), subgraphs))
    return 0


if __name__ == '__main__':
    sys.exit(main())
