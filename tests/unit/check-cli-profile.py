#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""sightline-demo-train --profile writes a MindSpore-style profiler folder from
its own measured operations; `sightline-cli profile --json` reads it back with
the steps the job ran, phases that add up, and op counts that match the work
the network does per step.

Usage: check-cli-profile.py DEMO_TRAIN SIGHTLINE_CLI
"""
import csv
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

EPOCHS = 2
SAMPLES = 512
BATCH = 32
HIDDEN = 16

# Executions per training step, by op type: 3 dense layers forward, two tanh
# activations, the loss, then weight, bias and input gradients and updates.
PER_STEP = {
    'MatMul': 3 + 3 + 2,
    'Tanh': 2,
    'SoftmaxCrossEntropyWithLogits': 1,
    'BiasAddGrad': 3,
    'TanhGrad': 2,
    'ApplyMomentum': 3,
}


def run(args, expect=0):
    env = dict(os.environ, LC_ALL='C.UTF-8')
    proc = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == expect, f'{args} exited {proc.returncode}, not {expect}:\n{proc.stdout}\n{proc.stderr}'
    return proc


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)


def check_faulty_inputs(cli, tmp):
    """Cells out of range (1e308, 2^64, 10^5000, nan, inf) are warnings at
    their line and column and reach no ratio, total or count; a FIFO among
    the files is passed over without blocking; a database that cannot be read
    is an error, and the command exits 1."""
    prof = os.path.join(tmp, 'faulty', 'PROF_000001_20240101_ABC')
    out = os.path.join(prof, 'mindstudio_profiler_output')
    write(os.path.join(prof, 'device_0', 'info.json.0'), '{"DeviceInfo": [{"id": 0}]}')
    write(os.path.join(out, 'op_statistic_20240101.csv'),
          'Device_id,Model Name,OP Type,Core Type,Count,Total Time(us),Avg Time(us),Min Time(us),Max Time(us),Ratio(%)\n'
          '0,m,MatMul,AI_CORE,2,30,15,10,20,18446744073709551616\n'
          '0,m,Add,AI_CORE,1,1' + '0' * 5000 + ',2,2,2,nan\n'
          '0,m,Cast,AI_CORE,inf,10,5,1e308,nan,25\n')
    write(os.path.join(out, 'msprof_20240101.json'), '[]')
    proc = run([cli, 'profile', os.path.dirname(prof)])
    assert '18446744073709551616' not in proc.stdout and 'inf' not in proc.stdout, proc.stdout
    for location in ('line 2, column 10', 'line 3, column 6', 'line 4, column 5', 'line 4, column 8',
                     'line 4, column 9'):
        assert f'op_statistic_20240101.csv, {location}: ' in proc.stderr, (location, proc.stderr)
    assert proc.stderr.count('warning: ') == 6 and 'error: ' not in proc.stderr, proc.stderr
    ranks = json.loads(run([cli, 'profile', os.path.dirname(prof), '--json']).stdout)['ranks']
    types = {t['type']: t for t in ranks[0]['op_types']} if 'op_types' in ranks[0] else None
    if types is not None:
        assert set(types) == {'MatMul', 'Cast'}, types

    if hasattr(os, 'mkfifo'):
        fifo = os.path.join(out, 'op_summary_20240101.csv')
        os.mkfifo(fifo)
        # the folder's listing passes it over; it is never opened
        run([cli, 'profile', os.path.dirname(prof)])
        os.remove(fifo)

    write(os.path.join(tmp, 'faulty-db', 'msprof_1.db'), 'this is not a database, only text that is long enough....')
    proc = run([cli, 'profile', os.path.join(tmp, 'faulty-db')], expect=1)
    assert 'error: ' in proc.stderr and 'Not a readable SQLite database' in proc.stderr, proc.stderr


def check_api_statistic(cli, tmp):
    """apis[] of a generated api_statistic.csv, in microseconds as written;
    a row without a time is reported and left out."""
    out = os.path.join(tmp, 'r0_ascend_pt', 'ASCEND_PROFILER_OUTPUT')
    good = ('Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n'
            'acl,aclnnMm,75.05,6,12.508,10.29,14.53,2.215\n'
            'hccl,Launch_Ffts,474.41,4,118.603,89.18,138.75,389.155\n')
    write(os.path.join(out, 'api_statistic.csv'), good + 'node,launch,,191,,,,\n')
    data = json.loads(run([cli, 'profile', os.path.dirname(out), '--json']).stdout)
    apis = data['ranks'][0]['apis']
    assert apis == [
        {'level': 'hccl', 'name': 'Launch_Ffts', 'count': 4, 'total_us': 474.41, 'avg_us': 118.602,
         'min_us': 89.18, 'max_us': 138.75},
        {'level': 'acl', 'name': 'aclnnMm', 'count': 6, 'total_us': 75.05, 'avg_us': 12.508,
         'min_us': 10.29, 'max_us': 14.53},
    ], apis
    assert [(p['offset'], p['message'].startswith('Line 4:'), 'Time(us)' in p['message'])
            for p in data['problems']] == [(len(good), True, True)], data['problems']


PT_STEPS = ('Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,'
            'Communication(Not Overlapped and Exclude Receive),Preparing\n'
            '50,8873.756,101963.203,4028.675,105991.878,25744.05,136581.0,0,101963.203,17902.5\n'
            '51,9000,1000,500,1500,90000,0,0,1000,0\n')
MSPROF_STEPS = ('Device_id,Iteration ID,FP Start(us),BP End(us),Iteration End(us),Iteration Time(us),'
                'FP to BP Time(us),Iteration Refresh(us),Data Aug Bound(us),Model ID,Reduce Start(us),'
                'Reduce Duration(us)\n'
                '0,1,1000,1040,1050,60,40,10,10,1,1041,5\n')


def check_step_sources(cli, tmp):
    """Each step source's phases under its own keys and names: torch_npu's
    step_trace_time.csv has Computing, Communication(Not Overlapped) and Free
    (and no data wait, FP+BP or tail: those keys are null); msprof's
    step_trace_*.csv has the data wait, FP+BP and tail."""
    pt = os.path.join(tmp, 'steps', 'r0_ascend_pt')
    write(os.path.join(pt, 'ASCEND_PROFILER_OUTPUT', 'step_trace_time.csv'), PT_STEPS)
    steps = json.loads(run([cli, 'profile', pt, '--json']).stdout)['ranks'][0]['steps']
    assert steps['source'] == 'ascend-pt', steps['source']
    assert steps['phases'] == [{'key': 'computing', 'name': 'Computing'},
                               {'key': 'communication_not_overlapped', 'name': 'Communication(Not Overlapped)'},
                               {'key': 'free', 'name': 'Free'}], steps['phases']
    assert steps['extra_columns'] == ['Overlapped', 'Communication', 'Stage', 'Bubble',
                                      'Communication(Not Overlapped and Exclude Receive)', 'Preparing']
    first = steps['steps'][0]
    assert first['computing_ns'] == 8873756 and first['communication_not_overlapped_ns'] == 101963203, first
    assert first['free_ns'] == 25744050 and first['overlapped_ns'] == 4028675, first
    assert first['stage_ns'] == 136581000 and first['bubble_ns'] == 0 and first['preparing_ns'] == 17902500, first
    assert first['total_ns'] == 8873756 + 101963203 + 25744050, first
    for step in steps['steps'] + [steps['average']]:
        assert step['data_wait_ns'] is None and step['fp_bp_ns'] is None and step['tail_ns'] is None, step
    assert steps['average']['free_ns'] == (25744050 + 90000000) // 2, steps['average']
    assert steps['average']['computing_ns'] == round((8873756 + 9000000) / 2), steps['average']

    text = run([cli, 'profile', pt]).stdout
    heading = next(line for line in text.splitlines() if 'Total (ms)' in line)
    for name in ('Computing (ms)', 'Communication(Not Overlapped) (ms)', 'Free (ms)', 'Overlapped (ms)',
                 'Preparing (ms)'):
        assert name in heading, (name, heading)
    for word in ('Data wait', 'FP+BP', 'Tail'):
        assert word not in text, (word, text)
    row = next(line for line in text.splitlines() if line.split()[:1] == ['50'])
    cells = row.split()
    assert cells[1:5] == ['136.581', '8.874', '101.963', '25.744'], cells

    prof = os.path.join(tmp, 'steps', 'PROF_000001_20240101_ABC')
    write(os.path.join(prof, 'device_0', 'info.json.0'), '{"DeviceInfo": [{"id": 0}]}')
    write(os.path.join(prof, 'mindstudio_profiler_output', 'step_trace_20240101.csv'), MSPROF_STEPS)
    write(os.path.join(prof, 'mindstudio_profiler_output', 'msprof_20240101.json'), '[]')
    steps = json.loads(run([cli, 'profile', prof, '--json']).stdout)['ranks'][0]['steps']
    assert steps['source'] == 'msprof', steps['source']
    assert [p['key'] for p in steps['phases']] == ['data_wait', 'fp_bp', 'tail'], steps['phases']
    step = steps['steps'][0]
    assert (step['data_wait_ns'], step['fp_bp_ns'], step['tail_ns']) == (10000, 40000, 10000), step
    assert 'free_ns' not in step and 'computing_ns' not in step, step
    text = run([cli, 'profile', prof]).stdout
    assert 'Data wait (ms)' in text and 'FP+BP (ms)' in text and 'Tail (ms)' in text, text


def check_database_without_times(cli, tmp):
    """A profiler database whose tables hold no task gives a trace with
    no start or end (null), not a time of 0 ns."""
    out = os.path.join(tmp, 'empty-db', 'r_ascend_pt', 'ASCEND_PROFILER_OUTPUT')
    os.makedirs(out)
    db = sqlite3.connect(os.path.join(out, 'ascend_pytorch_profiler_0.db'))
    db.executescript('CREATE TABLE STRING_IDS (id INTEGER, value TEXT);'
                     'CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER,'
                     ' globalTaskId INTEGER, globalPid INTEGER, taskType INTEGER, contextId INTEGER,'
                     ' streamId INTEGER, taskId INTEGER);'
                     "CREATE TABLE NPU_INFO (id INTEGER, name TEXT); INSERT INTO NPU_INFO VALUES (0, 'Ascend910B');")
    db.commit()
    db.close()
    trace = json.loads(run([cli, 'profile', os.path.dirname(out), '--json']).stdout)['ranks'][0]['trace']
    assert trace == {'processes': 0, 'tracks': 0, 'slices': 0, 'start_ns': None, 'end_ns': None}, trace


def main():
    demo, cli = sys.argv[1:3]
    with tempfile.TemporaryDirectory() as tmp:
        profile_dir = os.path.join(tmp, 'profiler')
        run([demo, '--summary-dir', os.path.join(tmp, 'summary'), '--profile', profile_dir,
             '--epochs', str(EPOCHS), '--samples', str(SAMPLES), '--batch-size', str(BATCH),
             '--hidden', str(HIDDEN)])
        n_steps = EPOCHS * ((SAMPLES + BATCH - 1) // BATCH)

        data = json.loads(run([cli, 'profile', profile_dir, '--json']).stdout)
        assert data['problems'] == [], data['problems']
        assert len(data['ranks']) == 1, [r['label'] for r in data['ranks']]
        rank = data['ranks'][0]
        assert rank['layout'] == 'mindspore'
        assert rank['device_id'] == 0 and rank['rank_id'] == 0, (rank['device_id'], rank['rank_id'])

        steps = rank['steps']
        assert steps['source'] == 'mindspore'
        assert len(steps['steps']) == n_steps, len(steps['steps'])
        assert steps['file_average'] is not None, 'the "-" average row was not recognised'
        previous_end = None
        for i, step in enumerate(steps['steps']):
            assert step['step'] == i + 1
            phases = step['data_wait_ns'] + step['fp_bp_ns'] + step['tail_ns']
            # Points are 10 ns ticks, so the phases add up exactly.
            assert step['total_ns'] == phases, step
            assert step['total_ns'] == step['end_ns'] - step['start_ns'], step
            assert step['fp_bp_ns'] > 0 and step['data_wait_ns'] >= 0 and step['tail_ns'] >= 0, step
            assert step['start_ns'] % 10 == 0
            if previous_end is not None:
                assert step['start_ns'] == previous_end, 'a step starts where the previous one ended'
            previous_end = step['end_ns']
        total = sum(s['total_ns'] for s in steps['steps'])
        assert rank['summary']['total_ns'] == total
        average = steps['average']
        assert abs(average['total_ns'] - total / n_steps) <= 1
        # The file's own average row agrees with the computed one (to a tick).
        assert abs(steps['file_average']['total_ns'] - average['total_ns']) <= 10

        types = {t['name']: t for t in rank['op_types']}
        assert set(types) == set(PER_STEP), sorted(types)
        for name, per_step in PER_STEP.items():
            assert types[name]['count'] == per_step * n_steps, (name, types[name]['count'])
            assert types[name]['core_type'] == 'AI_CORE'
        assert rank['summary']['op_executions'] == sum(PER_STEP.values()) * n_steps
        assert abs(sum(t['ratio'] for t in rank['op_types']) - 100) < 0.1

        instances = {i['name']: i for i in rank['op_instances']}
        assert len(instances) == 19, len(instances)
        first = instances['Default/network-WithLossCell/_backbone-MLP/dense1-Dense/MatMul-op1']
        assert first['count'] == n_steps
        assert first['input_shapes'] == f'{BATCH},2;{HIDDEN},2', first['input_shapes']
        assert first['output_shapes'] == f'{BATCH},{HIDDEN}'
        assert first['stream_id'] == 0 and first['block_dim'] == 1
        momentum = [i for name, i in instances.items() if 'ApplyMomentum' in name]
        assert len(momentum) == 3 and all(m['stream_id'] == 1 for m in momentum)

        # Ops run inside their steps: their time fits in forward+backward+tail.
        op_time = sum(t['total_ns'] for t in rank['op_types'])
        busy = sum(s['fp_bp_ns'] + s['tail_ns'] for s in steps['steps'])
        assert 0 < op_time <= busy + 10 * n_steps * sum(PER_STEP.values()), (op_time, busy)
        assert rank['summary']['streams'] == 2

        # The timeline holds every measured execution and every data load.
        with open(os.path.join(profile_dir, 'ascend_timeline_display_0.json')) as f:
            events = json.load(f)
        ops = [e for e in events if e['ph'] == 'X' and e['pid'] == 0]
        loads = [e for e in events if e['ph'] == 'X' and e['name'] == 'GetNext']
        assert len(ops) == rank['summary']['op_executions'], len(ops)
        assert len(loads) == n_steps
        assert all('fullname' in e['args'] and 'type' in e['args'] for e in ops)
        assert any(e['ph'] == 'M' and e['name'] == 'thread_name' for e in events)

        # The step trace CSV itself: the average row last, written as MindSpore does.
        with open(os.path.join(profile_dir, 'step_trace_raw_0_detail_time.csv'), newline='') as f:
            rows = list(csv.reader(f))
        assert rows[0][:9] == ['step_num', 'start_point', 'end_point', 'total', 'fp_point', 'bp_point',
                               'iteration_interval', 'fp_and_bp', 'tail']
        assert rows[-1][0] == '-' and len(rows) == n_steps + 2

        assert [p['key'] for p in steps['phases']] == ['data_wait', 'fp_bp', 'tail'], steps['phases']
        assert [p['name'] for p in steps['phases']] == ['Data wait', 'FP+BP', 'Tail'], steps['phases']
        check_step_sources(cli, tmp)

        # The demo job calls no host APIs: an empty list, not a missing key.
        assert rank['apis'] == [], rank['apis']
        check_api_statistic(cli, tmp)
        check_database_without_times(cli, tmp)

        text = run([cli, 'profile', profile_dir]).stdout
        assert 'MatMul' in text and 'average' in text, text

        run([cli, 'profile', os.path.join(tmp, 'summary')], expect=1)
        run([cli, 'profile'], expect=2)
        check_faulty_inputs(cli, tmp)


if __name__ == '__main__':
    main()
