#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sightline-cli compare-tensors` on the real msprobe dumps.

The dumps of the datasets folder are statistics-only (task "statistics"),
so the comparison is of Max, Min, Mean and Norm. Python reads every
dump.json here, builds the tensor keys and computes each statistic's
difference and relative difference (|npu - bench| / |bench|) itself;
each dump against itself must give zero differences, every pair passing
(a pair without numeric statistics, as bool tensors have, a warning),
nothing unmatched and exit 0; every two dumps side by side must give the
values Python computes, a warning exactly where a relative difference is
above msprobe's 0.5, and the CSV must carry the same numbers under
msprobe's summary columns.

Usage: check-datasets-compare-msprobe.py SIGHTLINE_CLI   (SL_DATASETS_DIR in the environment)
Exit 77 (skipped) when the datasets folder or its dumps are absent.
"""
import csv
import io
import json
import math
import os
import subprocess
import sys

STATS = ('Max', 'Min', 'Mean', 'Norm')
SUMMARY_COLUMNS = ['NPU Name', 'Bench Name', 'NPU Dtype', 'Bench Dtype', 'NPU Tensor Shape', 'Bench Tensor Shape',
                   'Max diff', 'Min diff', 'Mean diff', 'L2norm diff', 'MaxRelativeErr', 'MinRelativeErr',
                   'MeanRelativeErr', 'NormRelativeErr', 'NPU max', 'NPU min', 'NPU mean', 'NPU l2norm',
                   'Bench max', 'Bench min', 'Bench mean', 'Bench l2norm', 'Result', 'Err_message', 'NPU_Stack_Info']


def is_tensor(record):
    return isinstance(record, dict) and 'dtype' in record and 'shape' in record


def walk(prefix, value, out):
    if is_tensor(value):
        out[prefix] = value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            walk(f'{prefix}.{i}', item, out)


def tensors(path):
    with open(path) as f:
        data = json.load(f)['data']
    out = {}
    for entry, call in data.items():
        for member, io_name in (('input', 'input'), ('input_args', 'input'), ('input_kwargs', 'input'),
                                ('output', 'output'), ('parameters', 'parameters')):
            value = call.get(member)
            if isinstance(value, list):
                for i, item in enumerate(value):
                    walk(f'{entry}.{io_name}.{i}', item, out)
            elif isinstance(value, dict):
                for name, item in value.items():
                    walk(f'{entry}.{io_name}.{name}', item, out)
    return out


def numeric_stats(record):
    values = [record.get(s) for s in STATS]
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return [float(v) for v in values]
    return None


def expected_diff(npu, bench):
    diff = npu - bench
    if bench != 0:
        relative = abs(diff) / abs(bench)
    else:
        relative = 0.0 if diff == 0 else None
    return diff, relative


def close(actual, expected):
    if expected is None or (isinstance(expected, float) and not math.isfinite(expected)):
        return actual is None
    return actual is not None and abs(actual - expected) <= 1e-12 * max(1.0, abs(expected))


def run(cli, *args):
    return subprocess.run([cli, 'compare-tensors', *args], capture_output=True, text=True)


def check_pair(pair, npu_record, bench_record):
    npu_stats, bench_stats = numeric_stats(npu_record), numeric_stats(bench_record)
    assert pair['mode'] == 'stats' and pair['cosine'] is None, pair
    assert pair['npu_dtype'] == npu_record['dtype'] and pair['bench_dtype'] == bench_record['dtype'], pair
    if npu_stats is None or bench_stats is None:
        assert pair['statistics'] is None and pair['verdict'] == 'warning', pair
        return
    warn = False
    for name, n, b in zip(('max', 'min', 'mean', 'norm'), npu_stats, bench_stats):
        diff, relative = expected_diff(n, b)
        got = pair['statistics'][name]
        assert close(got['npu'], n) and close(got['bench'], b), (pair['name'], name, got)
        assert close(got['diff'], diff) and close(got['relative'], relative), (pair['name'], name, got, diff, relative)
        warn |= relative is None or relative > 0.5
    assert pair['verdict'] == ('warning' if warn else 'pass'), (pair['name'], pair['verdict'], pair['reason'])


def check_csv(cli, npu, bench, report):
    result = run(cli, npu, bench, '--csv')
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == SUMMARY_COLUMNS, rows[0]
    assert len(rows) == len(report['pairs']) + 1, (len(rows), len(report['pairs']))
    for row, pair in zip(rows[1:], report['pairs']):
        fields = dict(zip(rows[0], row))
        assert fields['NPU Name'] == pair['name'] and fields['Result'] == pair['verdict'], (fields, pair)
        if pair['statistics'] is None:
            assert fields['Max diff'] == 'N/A', fields
            continue
        for column, stat, key in (('Mean diff', 'mean', 'diff'), ('NormRelativeErr', 'norm', 'relative'),
                                  ('Bench max', 'max', 'bench'), ('NPU l2norm', 'norm', 'npu')):
            want = pair['statistics'][stat][key]
            if want is None:
                assert fields[column] in ('nan', 'inf', '-inf'), (column, fields)
            else:
                assert close(float(fields[column]), want), (column, fields[column], want)


def check_coverage(cli, npu, bench, npu_records, bench_records, report):
    """The verdict line says what was compared of what there was: a pass of
    4 pairs among 32 tensors is no all clear, nor is a pass with a warning."""
    compared = len(report['pairs'])
    coverage = report['coverage']
    assert coverage == {'compared': compared, 'npu_tensors': len(npu_records),
                        'npu_unmatched': len(npu_records) - compared, 'bench_tensors': len(bench_records),
                        'bench_unmatched': len(bench_records) - compared}, coverage
    first_warning = next((p['name'] for p in report['pairs'] if p['verdict'] == 'warning'), None)
    assert (report['first_warning'] or {}).get('name') == first_warning, report['first_warning']
    text = run(cli, os.path.dirname(npu), os.path.dirname(bench)).stdout
    headline = report['headline']
    assert headline in text, (headline, text[-400:])
    if report['first_divergence'] is None:
        assert 'follows its benchmark' not in headline or (first_warning is None and not report['unmatched']), headline
        assert f'{compared} of {len(npu_records)} NPU tensors compared' in headline, headline
        if first_warning is not None:
            assert first_warning in headline, headline
        if report['unmatched']:
            assert f'{len(npu_records) - compared} unmatched' in headline, headline


def main():
    cli = sys.argv[1]
    datasets = os.environ.get('SL_DATASETS_DIR', '')
    if not datasets or not os.path.isdir(datasets):
        print('the datasets folder is absent: skipped')
        return 77
    paths = sorted(os.path.join(d, 'dump.json') for d, _, names in os.walk(datasets) if 'dump.json' in names)
    if not paths:
        print('no msprobe dump.json in the datasets folder: skipped')
        return 77

    for path in paths:
        records = tensors(path)
        folder = os.path.dirname(path)
        result = run(cli, folder, folder, '--json')
        assert result.returncode == 0, result.stderr
        report = json.loads(result.stdout)
        assert report['input'] == 'msprobe_dump' and report['mode'] == 'stats', report['mode']
        assert report['unmatched'] == [] and report['first_divergence'] is None, path
        check_coverage(cli, path, path, records, records, report)
        assert [p['name'] for p in report['pairs']] == list(records), path
        for pair in report['pairs']:
            check_pair(pair, records[pair['name']], records[pair['name']])
            if pair['statistics'] is not None:
                assert all(pair['statistics'][s]['diff'] == 0 for s in ('max', 'min', 'mean', 'norm')), pair
        check_csv(cli, folder, folder, report)
        print(f'{path}: {len(report["pairs"])} pairs against itself')

    for npu in paths:
        for bench in paths:
            if npu == bench:
                continue
            npu_records, bench_records = tensors(npu), tensors(bench)
            result = run(cli, os.path.dirname(npu), os.path.dirname(bench), '--json')
            report = json.loads(result.stdout)
            assert result.returncode == (1 if report['first_divergence'] else 0), result
            matched = set()
            for pair in report['pairs']:
                assert pair['name'] in npu_records and pair['bench_name'] in bench_records, pair['name']
                check_pair(pair, npu_records[pair['name']], bench_records[pair['bench_name']])
                matched.add(pair['name'])
            unmatched_npu = {u['name'] for u in report['unmatched'] if u['side'] == 'npu'}
            assert unmatched_npu == set(npu_records) - matched, (npu, bench)
            assert all(u['reason'] and u['reason_code'] for u in report['unmatched'])
            check_csv(cli, os.path.dirname(npu), os.path.dirname(bench), report)
            check_coverage(cli, npu, bench, npu_records, bench_records, report)
            warnings = sum(p['verdict'] == 'warning' for p in report['pairs'])
            print(f'{npu} vs {bench}: {len(report["pairs"])} pairs, {warnings} warnings, '
                  f'{len(report["unmatched"])} unmatched')
    return 0


if __name__ == '__main__':
    sys.exit(main())
