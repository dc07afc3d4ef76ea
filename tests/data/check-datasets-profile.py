#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sightline-cli profile --json` on the real profiler folders, checked against
an independent reading of the same files: Python's csv module with exact
decimals for the CSV tables, Python's sqlite3 for the SQLite export.

Usage: check-datasets-profile.py SIGHTLINE_CLI   (SL_DATASETS_DIR in the environment)
Exit 77 (skipped) when the datasets folder is absent.
"""
import csv
import json
import os
import re
import sqlite3
import subprocess
import sys
from collections import defaultdict
from decimal import Decimal, ROUND_HALF_UP

FOLDERS = [
    'mindspore-ai__mindinsight/tests/utils/resource/profiler',
    'mindspore-ai__mindinsight/tests/utils/resource/run_2/normal_run/profiler',
    'mindspore-ai__mindinsight/tests/utils/resource/cluster_propose',
    'Ascend__msinsight/test/data/pytorch',
    'Ascend__msprof-analyze/test/ut/advisor/advisor_backend/compute_advice',
    'Ascend__msprof-analyze/test/resource/advisor/cluster_analysis_output',
    'Ascend__msinsight/server/src/test/test_data/test_kernel_parse',
]


def rows(path):
    with open(path, newline='', encoding='utf-8-sig') as f:
        return list(csv.DictReader(f))


def ns(text, scale):
    return int((Decimal(text.strip()) * (10 ** scale)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def check_ms_step_trace(rank, path):
    table = rows(path)
    steps = [r for r in table if r['step_num'].strip() != '-']
    if steps and steps[-1]['step_num'] == '0' and steps[-1]['start_point'] == '0':
        steps = steps[:-1]
    got = rank['steps']['steps']
    assert len(got) == len(steps), (path, len(got), len(steps))
    for index, (mine, theirs) in enumerate(zip(got, steps)):
        assert mine['total_ns'] == int(theirs['total']) * 10, (path, mine, theirs)
        assert mine['fp_bp_ns'] == int(theirs['fp_and_bp']) * 10
        if index == 0 and int(theirs['iteration_interval']) == 0 and theirs['fp_point'] == theirs['start_point']:
            # The first step starts at its forward pass: its interval of 0
            # is no measured wait, and is unknown.
            assert mine['data_wait_ns'] is None, (path, mine)
        else:
            assert mine['data_wait_ns'] == int(theirs['iteration_interval']) * 10
        assert mine['tail_ns'] == int(theirs['tail']) * 10
    assert [p['key'] for p in rank['steps']['phases']] == ['data_wait', 'fp_bp', 'tail'], rank['steps']['phases']
    check_ms_communication(rank, table, steps, path)


COMM_OP = re.compile(r'^stream_\d+_(?:parallel_\d+|\d+_.+)_start_point$')


def check_ms_communication(rank, table, steps, path):
    """The communication ops' columns (start and end points in ticks) give
    each step's communication: the union of the ops' spans in the step."""
    ops = [name[:-len('_start_point')] for name in (table[0].keys() if table else []) if COMM_OP.match(name)]
    ops = [op for op in ops if op + '_end_point' in table[0]]
    columns = rank['steps']['extra_columns']
    if not ops:
        assert 'Communication' not in columns, (path, columns)
        return
    index = columns.index('Communication')
    for mine, theirs in zip(rank['steps']['steps'], steps):
        start, end = int(theirs['start_point']), int(theirs['end_point'])
        spans = sorted((min(max(int(theirs[op + '_start_point']), start), end),
                        min(max(int(theirs[op + '_end_point']), start), end))
                       for op in ops
                       if int(theirs[op + '_start_point'] or 0) > 0
                       and int(theirs[op + '_end_point'] or 0) >= int(theirs[op + '_start_point']))
        total, reach = 0, None
        for lo, hi in spans:
            if reach is not None and hi <= reach:
                continue
            total += hi - (lo if reach is None else max(lo, reach))
            reach = hi
        want = total * 10 if spans else None
        assert mine['extra_ns'][index] == want, (path, mine['step'], mine['extra_ns'][index], want)


PT_PHASES = [('computing', 'Computing'), ('communication_not_overlapped', 'Communication(Not Overlapped)'),
             ('free', 'Free')]


def check_pt_step_trace(rank, path):
    """torch_npu's step_trace_time.csv (and msprof-analyze's cluster table,
    one rank's rows): Computing, Communication(Not Overlapped) and Free
    under their own names, never as a data wait, FP+BP or tail."""
    table = rows(path)
    if 'Index' in table[0]:
        table = [r for r in table if f"{r['Type'].strip()} {r['Index'].strip()}".strip() == rank['label']]
    steps = rank['steps']
    assert [(p['key'], p['name']) for p in steps['phases']] == PT_PHASES, (path, steps['phases'])
    assert len(steps['steps']) == len(table), (path, len(steps['steps']), len(table))
    for mine, theirs in zip(steps['steps'], table):
        for key, column in PT_PHASES:
            assert mine[f'{key}_ns'] == ns(theirs[column], 3), (path, key, mine, theirs)
        assert mine['total_ns'] == sum(ns(theirs[column], 3) for _, column in PT_PHASES), (path, mine)
        assert mine['data_wait_ns'] is None and mine['fp_bp_ns'] is None and mine['tail_ns'] is None, mine
        for column in ('Overlapped', 'Bubble', 'Stage', 'Preparing'):
            if theirs.get(column, '').strip():
                assert mine[column.lower() + '_ns'] == ns(theirs[column], 3), (path, column, mine)


def check_pt_text(cli, path):
    """The text table of rank0_ascend_pt: its 101.963 ms of exposed
    communication under the name torch_npu gives it."""
    proc = subprocess.run([cli, 'profile', path], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, LC_ALL='C.UTF-8'))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    heading = next(line for line in lines if 'Total (ms)' in line)
    row = next(line for line in lines if line.split()[:1] == ['50'])
    names = ['Computing (ms)', 'Communication(Not Overlapped) (ms)', 'Free (ms)']
    assert all(name in heading for name in names), heading
    assert row.split()[1:5] == ['136.581', '8.874', '101.963', '25.744'], row
    # Right-aligned under its heading.
    end = heading.index('Communication(Not Overlapped) (ms)') + len('Communication(Not Overlapped) (ms)')
    assert row[:end].endswith('101.963'), (heading, row)
    for word in ('Tail', 'Data wait', 'FP+BP'):
        assert word not in proc.stdout, word


def check_op_rows(rank, path):
    table = rows(path)
    name_key = 'Op Name' if 'Op Name' in table[0] else 'Name'
    type_key = 'OP Type' if 'OP Type' in table[0] else 'Type'
    dur_key = 'Task Duration(us)' if 'Task Duration(us)' in table[0] else 'Duration(us)'
    totals = defaultdict(int)
    counts = defaultdict(int)
    for r in table:
        if r.get(dur_key) is None:
            continue
        totals[r[name_key]] += ns(r[dur_key], 3)
        counts[r[name_key]] += 1
    instances = {i['name']: i for i in rank['op_instances']}
    assert set(instances) == set(totals), (path, set(instances) ^ set(totals))
    for name, total in totals.items():
        assert instances[name]['total_ns'] == total, (path, name, instances[name]['total_ns'], total)
        assert instances[name]['count'] == counts[name]
    return table, type_key, dur_key


def check_op_statistic(rank, path):
    table = rows(path)
    types = {(t['name'], t['core_type']): t for t in rank['op_types']}
    assert len(types) == len(table), (path, len(types), len(table))
    for r in table:
        mine = types[(r['OP Type'], r['Core Type'])]
        assert mine['total_ns'] == ns(r['Total Time(us)'], 3), (path, r)
        assert mine['count'] == int(r['Count'])
        # The ratio is the file's, a share of its model's op time, and says so.
        if r.get('Ratio(%)') not in (None, '', 'N/A'):
            assert abs(mine['ratio'] - float(r['Ratio(%)'])) < 1e-9, (path, r, mine['ratio'])
            assert mine['ratio_share_of'] == 'model_op_time', (path, mine)
    assert all(i['ratio_share_of'] == 'op_time' for i in rank['op_instances']), path


def check_ms_type(rank, path):
    table = rows(path)
    key = 'kernel_type' if 'kernel_type' in table[0] else 'op_type'
    time_key = 'total_time' if 'total_time' in table[0] else 'execution_time'
    types = {t['name']: t for t in rank['op_types'] if t['core_type'] == 'AI_CORE'}
    assert len(types) == len(table), (path, len(types), len(table))
    for r in table:
        assert types[r[key]]['total_ns'] == ns(r[time_key], 6), (path, r)
        # MindSpore's percent is a share of the AI Core ops' time only.
        if r.get('percent') not in (None, ''):
            assert types[r[key]]['ratio_share_of'] == 'aicore_time', (path, types[r[key]])


def check_api_statistic(rank, path):
    """apis[] against api_statistic.csv: every row, totals exact to the
    nanosecond, the average within the rounding of the file's 3 decimals."""
    table = rows(path)
    apis = {(a['level'], a['name']): a for a in rank['apis']}
    assert len(apis) == len(table), (path, len(apis), len(table))
    for r in table:
        mine = apis[(r['Level'], r['API Name'])]
        assert round(mine['total_us'] * 1000) == ns(r['Time(us)'], 3), (path, r, mine)
        assert mine['count'] == int(r['Count']), (path, r, mine)
        assert round(mine['min_us'] * 1000) == ns(r['Min(us)'], 3), (path, r, mine)
        assert round(mine['max_us'] * 1000) == ns(r['Max(us)'], 3), (path, r, mine)
        assert abs(mine['avg_us'] - float(r['Avg(us)'])) <= 0.0015, (path, r, mine)


def check_database_apis(rank, db, tables):
    """apis[] against CANN_API summed by name and type, levels named by
    ENUM_API_TYPE."""
    if 'CANN_API' not in tables:
        return
    levels = dict(db.execute('SELECT id, name FROM ENUM_API_TYPE')) if 'ENUM_API_TYPE' in tables else {}
    names = dict(db.execute('SELECT id, value FROM STRING_IDS'))
    expected = {}
    for name, kind, count, total, low, high in db.execute(
            'SELECT name, type, count(*), sum(max(endNs - startNs, 0)), min(max(endNs - startNs, 0)),'
            ' max(max(endNs - startNs, 0)) FROM CANN_API GROUP BY name, type'):
        expected[(levels.get(kind, str(kind)), names.get(name, ''))] = (count, total, low, high)
    if 'PYTORCH_API' in tables and 'op' in levels.values():
        for name, count, total, low, high in db.execute(
                "SELECT name, count(*), sum(max(CAST(endNs AS INTEGER) - CAST(startNs AS INTEGER), 0)),"
                " min(max(CAST(endNs AS INTEGER) - CAST(startNs AS INTEGER), 0)),"
                " max(max(CAST(endNs AS INTEGER) - CAST(startNs AS INTEGER), 0)) FROM PYTORCH_API"
                " WHERE type IN (SELECT id FROM ENUM_API_TYPE WHERE name = 'op') GROUP BY name"):
            if not names.get(name, '').startswith('ProfilerStep#'):
                expected[('framework', names.get(name, ''))] = (count, total, low, high)
    apis = {(a['level'], a['name']): a for a in rank['apis']}
    assert set(apis) == set(expected), set(apis) ^ set(expected)
    for key, (count, total, low, high) in expected.items():
        mine = apis[key]
        assert mine['count'] == count, (key, mine)
        assert round(mine['total_us'] * 1000) == total, (key, mine, total)
        assert round(mine['min_us'] * 1000) == low and round(mine['max_us'] * 1000) == high, (key, mine)
        assert round(mine['avg_us'] * 1000) == total // count, (key, mine)


def check_database(rank, path):
    db = sqlite3.connect(f'file:{path}?mode=ro&immutable=1', uri=True)
    tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    expected = sum(db.execute(f'SELECT count(*) FROM {t}').fetchone()[0]
                   for t in ('TASK', 'CANN_API', 'COMMUNICATION_OP') if t in tables)
    if 'PYTORCH_API' in tables and 'ENUM_API_TYPE' in tables:
        expected += db.execute("SELECT count(*) FROM PYTORCH_API WHERE type IN (SELECT id FROM ENUM_API_TYPE"
                               " WHERE name = 'op') AND startNs IS NOT NULL AND endNs IS NOT NULL"
                               " AND name IS NOT NULL").fetchone()[0]
    assert rank['trace'] is not None and rank['trace']['slices'] == expected, (rank['trace'], expected)
    compute = db.execute('SELECT count(*) FROM TASK t JOIN COMPUTE_TASK_INFO c ON c.globalTaskId = t.globalTaskId').fetchone()[0]
    comm = db.execute('SELECT count(*) FROM COMMUNICATION_OP').fetchone()[0] if 'COMMUNICATION_OP' in tables else 0
    assert rank['summary']['op_executions'] == compute + comm
    check_database_apis(rank, db, tables)


def main():
    cli = sys.argv[1]
    root = os.environ.get('SL_DATASETS_DIR')
    if not root or not os.path.isdir(root):
        print('SL_DATASETS_DIR is not set or is not a folder; skipped')
        return 77

    checked = defaultdict(int)
    for folder in FOLDERS:
        path = os.path.join(root, folder)
        if not os.path.exists(path):
            continue
        proc = subprocess.run([cli, 'profile', path, '--json'], capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, LC_ALL='C.UTF-8'))
        assert proc.returncode == 0, (folder, proc.stderr)
        data = json.loads(proc.stdout)
        for rank in data['ranks']:
            names = {os.path.basename(f): f for f in rank['files']}
            for name, file in names.items():
                if name.startswith('step_trace_raw_'):
                    check_ms_step_trace(rank, file)
                elif name == 'step_trace_time.csv':
                    check_pt_step_trace(rank, file)
                elif name == 'cluster_step_trace_time.csv':
                    check_pt_step_trace(rank, file)
                    checked['cluster-steps'] += 1
                    continue
                elif name.startswith('aicore_intermediate_') and name.endswith('_type.csv'):
                    check_ms_type(rank, file)
                elif name.startswith(('kernel_details', 'op_summary')):
                    check_op_rows(rank, file)
                elif name.startswith('op_statistic'):
                    check_op_statistic(rank, file)
                elif name.startswith('api_statistic'):
                    check_api_statistic(rank, file)
                elif name.endswith('.db'):
                    check_database(rank, file)
                else:
                    continue
                checked[name.split('_')[0]] += 1
            if rank['layout'] == 'cluster':
                checked['cluster'] += 1
        cluster_files = [os.path.join(path, 'cluster_step_trace_time.csv')]
        for file in cluster_files:
            if os.path.exists(file):
                assert len([r for r in data['ranks'] if r['layout'] == 'cluster']) == len(rows(file))

    pt_text = os.path.join(root, 'Ascend__msinsight/test/data/pytorch/text/level1/rank0_ascend_pt')
    if os.path.exists(pt_text):
        check_pt_text(cli, pt_text)
        checked['pt-text'] += 1

    print(dict(checked))
    assert checked['step'] >= 4 and checked['kernel'] >= 2 and checked['op'] >= 2, checked
    assert checked['ascend'] == 1 and checked['cluster'] == 9 and checked['api'] == 1, checked
    assert checked['step'] >= 5 and checked['cluster-steps'] == 9 and checked['pt-text'] == 1, checked
    return 0


if __name__ == '__main__':
    sys.exit(main())
