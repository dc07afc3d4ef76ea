#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs `sightline-cli compare-profiles --json` on pairs of real profiler
folders of the same kind (two MindSpore profiler folders, the Ascend
PyTorch text and SQLite exports) and on each folder against itself.

Checks: exit 0, the documented keys, no NaN, every diff equal to
comparison − base, tables and top regressions sorted by diff, and against
itself every diff 0 and every known ratio 1; the SQLite export against
itself aligns exactly with nothing left over.

Usage: check-datasets-compare.py SIGHTLINE_CLI   (SL_DATASETS_DIR names the datasets)
"""
import csv
import json
from collections import defaultdict
import math
import os
import subprocess
import sys

TOP_KEYS = {'base', 'comparison', 'breakdown', 'op_types', 'kernels', 'alignment', 'top_regressions', 'notes'}
MINDSPORE = ['mindspore-ai__mindinsight/tests/utils/resource/run_2/normal_run/profiler',
             'mindspore-ai__mindinsight/tests/utils/resource/profiler']
ASCEND_PT = ['Ascend__msinsight/test/data/pytorch/text/level1/rank0_ascend_pt',
             'Ascend__msinsight/test/data/pytorch/db/level0/rank0_ascend_pt']
DATABASE = 'Ascend__msinsight/test/data/pytorch/db/level0/rank0_ascend_pt'


def compare(cli, base, comparison, *extra):
    result = subprocess.run([cli, 'compare-profiles', base, comparison, '--json', *extra],
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f'compare-profiles {base} {comparison} exited {result.returncode}: {result.stderr}')
    return json.loads(result.stdout)


def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def check(report, same):
    assert set(report) == TOP_KEYS, set(report) ^ TOP_KEYS
    for key, item in report['breakdown']['average'].items():
        for field in ('base_us', 'comparison_us', 'diff_us', 'ratio'):
            value = item[field]
            assert value is None or not math.isnan(value), (key, field)
        if item['source'] == 'none':
            assert item['reason'], (key, item)
            continue
        assert item['base_us'] >= 0 and item['comparison_us'] >= 0, (key, item)
        assert close(item['diff_us'], item['comparison_us'] - item['base_us']), (key, item)
        if same:
            assert item['diff_us'] == 0 and not item['noise'], (key, item)
            assert item['ratio'] in (None, 1), (key, item)
    for table in ('op_types', 'kernels'):
        rows = report[table]
        diffs = [row['diff_us'] for row in rows]
        assert diffs == sorted(diffs, reverse=True), table
        for row in rows:
            assert row['base_total_us'] >= 0 and row['comparison_total_us'] >= 0, row
            assert close(row['diff_us'], row['comparison_total_us'] - row['base_total_us']), row
            if same:
                assert row['diff_us'] == 0 and row['ratio'] in (None, 1), row
    top = report['top_regressions']
    assert all(r['diff_us'] > 0 for r in top) and [r['diff_us'] for r in top] == sorted(
        [r['diff_us'] for r in top], reverse=True), top
    if same:
        assert top == [], top
    alignment = report['alignment']
    assert ('method' in alignment) != ('reason' in alignment), alignment


def check_communication(cli, root):
    """The level-0 SQLite export against the level-1 text export of the same
    job: both sides' collectives are compared, the text side's from its
    kernel_details.csv HCCL rows (op_statistic.csv lists none), and a
    BroadcastTo on the vector units is not counted as communication."""
    text, database = (os.path.join(root, p) for p in ASCEND_PT)
    if not (os.path.isdir(text) and os.path.isdir(database)):
        return
    hcom = defaultdict(float)
    with open(os.path.join(text, 'ASCEND_PROFILER_OUTPUT', 'kernel_details.csv'), newline='') as f:
        for row in csv.DictReader(f):
            if row['Accelerator Core'] == 'HCCL':
                hcom[row['Type']] += float(row['Duration(us)'])
    assert hcom, 'no HCCL row in kernel_details.csv'
    report = compare(cli, database, text)
    types = {row['type']: row for row in report['op_types']}
    for op_type, total in hcom.items():
        row = types[op_type]
        assert row['comparison_count'] > 0 and close(row['comparison_total_us'], total), (row, total)
    item = report['breakdown']['average']['communication_kernels']
    steps = report['comparison']['steps']
    assert not item['not_comparable'] and item['reason'] is None, item
    assert close(item['comparison_us'], sum(hcom.values()) / steps), (item, sum(hcom.values()))
    assert item['ratio'] > 0.5, item
    broadcast = types.get('BroadcastTo')
    assert broadcast is None or item['comparison_us'] * steps >= sum(hcom.values()) - 0.01, item
    print(f'{database} vs {text}: communication {item["base_us"]:.1f} -> {item["comparison_us"]:.1f} us, '
          f'{", ".join(f"{k} {v:.3f} us" for k, v in hcom.items())}')


def main():
    cli = sys.argv[1]
    root = os.environ.get('SL_DATASETS_DIR', '')
    pairs = [[os.path.join(root, p) for p in pair] for pair in (MINDSPORE, ASCEND_PT)]
    pairs = [pair for pair in pairs if all(os.path.isdir(p) for p in pair)]
    if not pairs:
        print('datasets absent; skipped')
        return 77
    for base, comparison in pairs:
        for by in ((), ('--by', 'kernel')):
            report = compare(cli, base, comparison, *by)
            check(report, same=False)
            check(compare(cli, base, base, *by), same=True)
            check(compare(cli, comparison, comparison, *by), same=True)
        print(f'{base} vs {comparison}: {len(report["op_types"])} op types, '
              f'{len(report["kernels"])} kernels, {len(report["top_regressions"])} regressions, '
              f'alignment {report["alignment"]}')

    check_communication(cli, root)

    database = os.path.join(root, DATABASE)
    if os.path.isdir(database):
        alignment = compare(cli, database, database)['alignment']
        assert alignment.get('method') == 'exact', alignment
        assert alignment['matched'] > 0 and alignment['only_base'] == 0 and alignment['only_comparison'] == 0, alignment
        print(f'{database} against itself: {alignment}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
