#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs `sightline-cli compare-profiles` on two Ascend PyTorch profiler
folders written here, the second with every Add 5 µs slower.

The JSON must have exactly the documented keys, Add as the top regression
by 15 µs (three executions), by type and with --by kernel; the CSV its
header and one row per op type; bad paths exit 1 and bad usage 2.

Usage: check-cli-compare-profiles.py SIGHTLINE_CLI
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

TOP_KEYS = {'base', 'comparison', 'breakdown', 'op_types', 'kernels', 'alignment', 'top_regressions', 'notes'}
SIDE_KEYS = {'path', 'rank', 'label', 'layout', 'steps'}
BREAKDOWN_KEYS = {'noise_mads', 'min_noise_steps', 'average', 'steps', 'not_computed'}
ITEM_KEYS = {'base_us', 'comparison_us', 'diff_us', 'ratio', 'source', 'noise_checked', 'noise', 'mad_us', 'reason',
             'not_comparable'}
ITEMS = {'e2e', 'computing', 'cube', 'vector', 'communication_kernels', 'other_kernels',
         'uncovered_communication', 'free', 'data_wait', 'fp_bp', 'tail'}
ROW_KEYS = {'type', 'core_type', 'base_count', 'comparison_count', 'base_total_us', 'comparison_total_us',
            'diff_us', 'ratio', 'base_avg_us', 'comparison_avg_us', 'base_min_us', 'comparison_min_us',
            'base_max_us', 'comparison_max_us'}
REGRESSION_KEYS = {'name', 'type', 'base_us', 'comparison_us', 'diff_us', 'ratio'}

KERNEL_HEADER = 'Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Input Shapes\n'
STEP_HEADER = ('Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,'
               'Communication(Not Overlapped and Exclude Receive),Preparing\n')


def write_profile(root, name, add_us):
    output = os.path.join(root, name, 'ASCEND_PROFILER_OUTPUT')
    os.makedirs(output)
    rows = []
    start = 0.0
    for step in (1, 2, 3):
        rows.append(f'{step},MatMul{step},MatMul,AI_CORE,{start},40,0,20,"2,3;3,4"\n')
        rows.append(f'{step},Add{step},Add,AI_VECTOR_CORE,{start + 50},{10 + add_us},0,40,"2,4"\n')
        start += 1000
    with open(os.path.join(output, 'kernel_details.csv'), 'w') as f:
        f.write(KERNEL_HEADER + ''.join(rows))
    with open(os.path.join(output, 'step_trace_time.csv'), 'w') as f:
        f.write(STEP_HEADER)
        for step in (1, 2, 3):
            f.write(f'{step},{50 + add_us},0,0,0,{950 - add_us},0,0,0,0\n')
    return os.path.join(root, name)


def run(cli, *args):
    return subprocess.run([cli, 'compare-profiles', *args], capture_output=True, text=True)


def check_json(report):
    assert set(report) == TOP_KEYS, set(report) ^ TOP_KEYS
    for side in ('base', 'comparison'):
        assert set(report[side]) == SIDE_KEYS, set(report[side]) ^ SIDE_KEYS
        assert report[side]['steps'] == 3
    breakdown = report['breakdown']
    assert set(breakdown) == BREAKDOWN_KEYS, set(breakdown) ^ BREAKDOWN_KEYS
    assert set(breakdown['average']) == ITEMS, set(breakdown['average']) ^ ITEMS
    for key, item in breakdown['average'].items():
        assert set(item) == ITEM_KEYS, (key, set(item) ^ ITEM_KEYS)
        assert (item['reason'] is None) == (item['source'] != 'none'), (key, item)
    assert len(breakdown['steps']) == 3
    for table in ('op_types', 'kernels'):
        for row in report[table]:
            keys = ROW_KEYS | ({'input_shapes'} if table == 'kernels' else set())
            assert set(row) == keys, (table, set(row) ^ keys)
    alignment = report['alignment']
    assert {'matched', 'only_base', 'only_comparison'} <= set(alignment)
    assert ('method' in alignment) != ('reason' in alignment), alignment
    for row in report['top_regressions']:
        assert set(row) == REGRESSION_KEYS, set(row) ^ REGRESSION_KEYS
    diffs = [r['diff_us'] for r in report['top_regressions']]
    assert diffs == sorted(diffs, reverse=True) and all(d > 0 for d in diffs), diffs


def main():
    cli = sys.argv[1]
    with tempfile.TemporaryDirectory() as root:
        base = write_profile(root, 'base_ascend_pt', 0)
        slower = write_profile(root, 'slower_ascend_pt', 5)

        same = run(cli, base, base, '--json')
        assert same.returncode == 0, same.stderr
        report = json.loads(same.stdout)
        check_json(report)
        assert report['top_regressions'] == [], report['top_regressions']
        for row in report['op_types'] + report['kernels']:
            assert row['diff_us'] == 0 and row['ratio'] == 1, row
        for key, item in report['breakdown']['average'].items():
            if item['source'] != 'none':
                assert item['diff_us'] == 0 and item['ratio'] == 1, (key, item)
        assert 'reason' in report['alignment'], report['alignment']

        result = run(cli, base, slower, '--json')
        assert result.returncode == 0, result.stderr
        report = json.loads(result.stdout)
        check_json(report)
        top = report['top_regressions']
        assert len(top) == 1 and top[0]['type'] == 'Add', top
        assert abs(top[0]['diff_us'] - 15.0) < 1e-9 and abs(top[0]['base_us'] - 30.0) < 1e-9, top
        assert abs(top[0]['ratio'] - 1.5) < 1e-9, top
        computing = report['breakdown']['average']['computing']
        assert computing['source'] == 'steps' and abs(computing['diff_us'] - 5.0) < 1e-9, computing
        assert computing['noise_checked'] and not computing['noise'], computing
        assert abs(report['breakdown']['average']['free']['diff_us'] + 5.0) < 1e-9
        # torch_npu's table has Free, not a data wait, and no forward+backward or tail.
        for key in ('data_wait', 'fp_bp', 'tail'):
            assert report['breakdown']['average'][key]['source'] == 'none', (key, report['breakdown']['average'][key])

        by_kernel = json.loads(run(cli, base, slower, '--json', '--by', 'kernel').stdout)
        check_json(by_kernel)
        top = by_kernel['top_regressions']
        assert len(top) == 1 and top[0]['name'] == 'Add [2,4]' and abs(top[0]['diff_us'] - 15.0) < 1e-9, top

        table = run(cli, base, slower, '--csv')
        assert table.returncode == 0, table.stderr
        rows = list(csv.DictReader(io.StringIO(table.stdout)))
        assert [r['type'] for r in rows] == ['Add', 'MatMul'], rows
        assert float(rows[0]['diff_us']) == 15.0 and float(rows[1]['diff_us']) == 0.0, rows
        kernels = list(csv.DictReader(io.StringIO(run(cli, base, slower, '--csv', '--by', 'kernel').stdout)))
        assert kernels[0]['input_shapes'] == '2,4' and kernels[1]['input_shapes'] == '2,3;3,4', kernels

        text = run(cli, base, slower)
        assert text.returncode == 0 and 'Add' in text.stdout, text

        missing = os.path.join(root, 'missing')
        for args, code in (((base, missing), 1), ((missing, base), 1), ((base, base, '--rank-typo'), 2),
                           ((base,), 2), ((base, base, base), 2), ((base, base, '--json', '--csv'), 2),
                           ((base, base, '--by', 'layer'), 2), ((base, base, '--comparison-rank', '4'), 1)):
            result = run(cli, *args)
            assert result.returncode == code, (args, result.returncode, result.stderr)
            assert result.stderr, args
    print('compare-profiles: keys, regressions, CSV and exit codes as expected')
    return 0


if __name__ == '__main__':
    sys.exit(main())
