#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sightline-cli tensor-pairs --json` on the real msprobe dumps.

Every dump.json under the datasets folder is read here with Python's json
module and its tensor keys built by hand (entry.input|output|parameters.
index, tuples as index.n, kwargs by name); each dump paired with itself
must give one pair a tensor in that order with the same statistics, and
every two dumps side by side must pair exactly the keys both have with
the same number of tensors per call, and list the rest as unmatched.

Usage: check-datasets-msprobe.py SIGHTLINE_CLI   (SL_DATASETS_DIR in the environment)
Exit 77 (skipped) when the datasets folder is absent.
"""
import json
import os
import subprocess
import sys


def is_tensor(record):
    return isinstance(record, dict) and 'dtype' in record and 'shape' in record


def walk(prefix, value, out):
    if is_tensor(value):
        out.append((prefix, value))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            walk(f'{prefix}.{i}', item, out)


def tensors(path):
    with open(path) as f:
        data = json.load(f)['data']
    out = []
    for entry, call in data.items():
        for member, io in (('input', 'input'), ('input_args', 'input'), ('input_kwargs', 'input'),
                           ('output', 'output'), ('parameters', 'parameters')):
            value = call.get(member)
            if isinstance(value, list):
                for i, item in enumerate(value):
                    walk(f'{entry}.{io}.{i}', item, out)
            elif isinstance(value, dict):
                for name, item in value.items():
                    walk(f'{entry}.{io}.{name}', item, out)
    return out


def run(cli, *args):
    result = subprocess.run([cli, 'tensor-pairs', '--json', *args], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def counts(records):
    n = {}
    for key, _ in records:
        n[group_of(key)] = n.get(group_of(key), 0) + 1
    return n


def group_of(key):
    for io in ('.input.', '.output.', '.parameters.'):
        if io in key:
            return key[:key.index(io) + len(io)]
    return key


def main():
    cli = sys.argv[1]
    datasets = os.environ.get('SL_DATASETS_DIR', '')
    if not datasets or not os.path.isdir(datasets):
        print('the datasets folder is absent: skipped')
        sys.exit(77)
    paths = sorted(os.path.join(d, 'dump.json') for d, _, names in os.walk(datasets) if 'dump.json' in names)
    if not paths:
        print('no msprobe dump.json in the datasets folder: skipped')
        sys.exit(77)

    for path in paths:
        expected = tensors(path)
        doc = run(cli, path, path)
        assert doc['npu']['tensors'] == len(expected), (path, doc['npu']['tensors'], len(expected))
        assert doc['npu']['problems'] == [], doc['npu']['problems']
        assert doc['unmatched'] == [], doc['unmatched']
        assert [p['name'] for p in doc['pairs']] == [k for k, _ in expected], path
        for pair, (_, record) in zip(doc['pairs'], expected):
            assert pair['npu_dtype'] == record['dtype'] and pair['npu_shape'] == record['shape'], pair
            values = [record.get(stat) for stat in ('Max', 'Min', 'Mean', 'Norm')]
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
                # A bool tensor's statistics are true and false: not numbers.
                assert pair['statistics'] is None, pair
                continue
            for stat, value in zip(('max', 'min', 'mean', 'norm'), values):
                got = pair['statistics'][stat]
                assert got['npu'] == value and got['diff'] == 0.0, (pair['name'], stat, got, value)
        print(f'{path}: {len(expected)} tensors paired with themselves')

    for npu_path in paths:
        for bench_path in paths:
            if npu_path == bench_path:
                continue
            npu, bench = tensors(npu_path), tensors(bench_path)
            npu_counts, bench_counts = counts(npu), counts(bench)
            bench_by_key = dict(bench)
            want = [k for k, r in npu
                    if k in bench_by_key and npu_counts[group_of(k)] == bench_counts[group_of(k)]
                    and r['shape'] == bench_by_key[k]['shape']]
            doc = run(cli, npu_path, bench_path)
            got = [p['name'] for p in doc['pairs']]
            # Dtype kinds are left to the C tests; here every shared key
            # of equal shape must pair unless its dtype kinds differ.
            refused = {u['name'] for u in doc['unmatched'] if u['reason'] == 'dtype_kind'}
            assert got == [k for k in want if k not in refused], (npu_path, bench_path, got, want)
            assert len(doc['pairs']) * 2 + len(doc['unmatched']) == len(npu) + len(bench)
            print(f'{os.path.basename(os.path.dirname(npu_path))} against '
                  f'{os.path.basename(os.path.dirname(bench_path))}: {len(got)} pairs, '
                  f'{len(doc["unmatched"])} unmatched')


if __name__ == '__main__':
    main()
