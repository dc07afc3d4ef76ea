#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs `sightline-cli advise --json` (and --markdown) on every real
profiler folder of the datasets and checks the documented keys, that
every evidence names a file and a row or offset, that numbers are sane
(no NaN, percentages within 0..100 for savings) and the Markdown
heading. The level1 torch_npu profile must show its idle time, and a
threshold override file must change that outcome and be reported. The
communication rules are checked against the real communication files
read here with Python's json module: small HCCS transfers of level1,
its HCCS links (3.9 % apart, so a slow link only under a 3 % override),
MindSpore's hccl_raw transfers, and the cluster step table's slow rank.
The model performance report of level1 is checked against its
kernel_details.csv read here: AI Core time, task duration and pipeline
utilisation.

Usage: check-datasets-advise.py SIGHTLINE_CLI   (SL_DATASETS_DIR names the datasets)
"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

TOP_KEYS = {'path', 'rule_book_version', 'settings_file', 'overridden', 'settings_warnings', 'findings', 'not_run',
            'performance'}
PERFORMANCE_KEYS = {'key', 'label', 'value', 'unit', 'status', 'threshold', 'how', 'missing', 'suspect', 'ops', 'file',
                    'worst_ops'}
FINDING_KEYS = {'rule', 'rank', 'severity', 'title', 'message', 'recommendation', 'assumption', 'time_us',
                'step_percent', 'saving_us', 'saving_percent', 'evidence', 'ops', 'ops_total', 'jump'}
NOT_RUN_KEYS = {'rule', 'rank', 'reason', 'enable', 'looked_in'}
PROFILES = [
    'Ascend__msinsight/test/data/pytorch/text/level1/rank0_ascend_pt',
    'Ascend__msinsight/test/data/pytorch/db/level0/rank0_ascend_pt',
    'mindspore-ai__mindinsight/tests/utils/resource/run_2/normal_run/profiler',
    'mindspore-ai__mindinsight/tests/utils/resource/profiler',
    'Ascend__msprof-analyze/test/resource/advisor/cluster_analysis_output',
    'mindspore-ai__mindinsight/tests/utils/resource/cluster_propose',
]


def advise(cli, path, *extra):
    env = dict(os.environ, XDG_CONFIG_HOME=tempfile.mkdtemp())
    result = subprocess.run([cli, 'advise', path, *extra], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f'advise {path} exited {result.returncode}: {result.stderr}')
    return result.stdout


def check(report, path):
    assert set(report) == TOP_KEYS, set(report) ^ TOP_KEYS
    assert report['rule_book_version'] >= 1
    for section in report['performance']:
        for item in section['items']:
            assert set(item) == PERFORMANCE_KEYS, set(item) ^ PERFORMANCE_KEYS
            assert item['how'], item
            # A figure is either there, or says what to collect: never both, never neither.
            assert (item['value'] is None) == (item['missing'] is not None), item
            assert item['status'] in ('good', 'bad', 'none'), item
            assert item['value'] is None or math.isfinite(item['value']), item
    for finding in report['findings']:
        assert set(finding) == FINDING_KEYS, set(finding) ^ FINDING_KEYS
        assert finding['severity'] in ('high', 'medium', 'low')
        assert finding['title'] and finding['message'] and finding['recommendation']
        assert '{' not in finding['message'], finding['message']
        for key in ('time_us', 'saving_us', 'step_percent', 'saving_percent'):
            value = finding[key]
            assert value is None or (not math.isnan(value) and value >= 0), (key, value)
        if finding['saving_percent'] is not None:
            assert finding['saving_percent'] <= 100.0 + 1e-9, finding
        assert finding['evidence'], finding['rule']
        for evidence in finding['evidence']:
            assert evidence['file'], evidence
            assert ('row' in evidence) != ('offset' in evidence), evidence
            if evidence.get('row') is not None:
                assert evidence['row'] >= 1
                assert os.path.isfile(evidence['file']), evidence['file']
        assert finding['ops_total'] >= len(finding['ops'])
    for skip in report['not_run']:
        assert set(skip) == NOT_RUN_KEYS, set(skip) ^ NOT_RUN_KEYS
        assert skip['reason'] and isinstance(skip['looked_in'], list) and skip['looked_in'], skip


def override(cli, path, rule, threshold, value):
    settings = os.path.join(tempfile.mkdtemp(), 'advisor.json')
    with open(settings, 'w') as f:
        json.dump({'rules': {rule: {threshold: value}}}, f)
    return json.loads(advise(cli, path, '--json', '--settings', settings))


def findings(report, rule):
    return [f for f in report['findings'] if f['rule'] == rule]


def check_level1_communication(cli, root):
    level1 = os.path.join(root, PROFILES[0])
    output = os.path.join(level1, 'ASCEND_PROFILER_OUTPUT')
    with open(os.path.join(output, 'communication.json')) as f:
        ops = json.load(f)['step50']['collective']
    small = total = 0
    small_ms = small_mb = large_ms = large_mb = 0.0
    for name, op in ops.items():
        if name == 'Total Op Info':
            continue
        for size, (count, time) in op['Communication Bandwidth Info']['HCCS']['Size Distribution'].items():
            total += count
            if float(size) < 16:
                small += count
                small_ms += time
                small_mb += float(size) * count
            else:
                large_ms += time
                large_mb += float(size) * count
    assert (small, total) == (42, 56), (small, total)
    report = json.loads(advise(cli, level1, '--json'))
    packet = findings(report, 'packet-size')
    assert len(packet) == 1, packet
    assert '42 of 56 SDMA/HCCS transfers (75.0 %' in packet[0]['message'], packet[0]['message']
    # One step: the whole small-transfer time, and what it loses against the large ones' bandwidth.
    assert abs(packet[0]['time_us'] - small_ms * 1000) < 0.01, (packet[0]['time_us'], small_ms)
    saving_ms = small_ms - small_mb / (large_mb / large_ms)
    assert abs(packet[0]['saving_us'] - saving_ms * 1000) < 0.01, (packet[0]['saving_us'], saving_ms)
    first = packet[0]['evidence'][0]
    assert first['label'] == 'hcom_allReduce__586_1_1@17522688603477080586', first
    with open(os.path.join(output, 'communication.json'), 'rb') as f:
        assert f.read()[first['offset']:].startswith(b'"hcom_allReduce__586_1_1@'), first

    # The links of the allreduce-total entry: bytes over time per HCCS link.
    with open(os.path.join(output, 'communication_matrix.json')) as f:
        matrix = json.load(f)['step50']['collective']
    links = {key: link['Transit Size(MB)'] / link['Transit Time(ms)']
             for op, op_links in matrix.items() if op.split('@')[0].endswith('-total')
             for key, link in op_links.items() if link['Transport Type'] == 'HCCS'}
    assert len(links) == 7, links
    mean = sum(links.values()) / len(links)
    spread = 100 * (max(links.values()) - min(links.values())) / mean
    assert 3 < spread < 5, spread
    assert not findings(report, 'slow-link')
    assert not [s for s in report['not_run'] if s['rule'] == 'slow-link']
    slow = findings(override(cli, level1, 'slow-link', 'max_spread_percent', 3), 'slow-link')
    slowest = min(links, key=links.get)
    assert slowest == '0-6' and len(slow) == 1, (slowest, slow)
    assert f'{slowest} is the slowest at {links[slowest]:.2f} GB/s' in slow[0]['message'], slow[0]['message']
    assert f'mean {mean:.2f} GB/s' in slow[0]['message'], slow[0]['message']
    assert slow[0]['evidence'][0]['label'] == '0-6 HCCS' and slow[0]['evidence'][0]['offset'] > 0


def number(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def check_level1_performance(cli, root):
    level1 = os.path.join(root, PROFILES[0])
    pipes = [('aic_mac_ratio', 'aiv_mac_ratio'), ('aiv_vec_ratio', 'aic_vec_ratio'),
             ('aic_scalar_ratio', 'aiv_scalar_ratio'), ('aic_mte1_ratio', 'aiv_mte1_ratio'),
             ('aic_mte2_ratio', 'aiv_mte2_ratio'), ('aic_mte3_ratio', 'aiv_mte3_ratio')]
    ops = {}
    busy = task = 0.0
    with open(os.path.join(level1, 'ASCEND_PROFILER_OUTPUT', 'kernel_details.csv'), newline='') as f:
        for row in csv.DictReader(f):
            dur = number(row['Duration(us)'])
            op = ops.setdefault(row['Name'], {'total': 0.0, 'sums': [0.0] * 6, 'weights': [0.0] * 6})
            op['total'] += dur
            core = [number(row.get(c)) for c in ('aicore_time(us)', 'aiv_time(us)')]
            core = [c for c in core if c is not None]
            if core:
                busy += min(max(core), dur)
                task += dur
            for p, columns in enumerate(pipes):
                values = [number(row.get(c)) for c in columns]
                values = [v for v in values if v is not None and 0 <= v <= 1]
                if values:
                    op['sums'][p] += max(values) * dur
                    op['weights'][p] += dur
    numerator = weight = 0.0
    for op in ops.values():
        means = [s / w for s, w in zip(op['sums'], op['weights']) if w > 0]
        if means:
            numerator += 100 * max(means) * op['total']
            weight += op['total']

    report = json.loads(advise(cli, level1, '--json'))
    items = {item['key']: item for item in report['performance'][0]['items']}
    assert abs(items['aicore_time_us']['value'] - busy) < 0.01, (items['aicore_time_us'], busy)
    assert abs(items['task_duration_us']['value'] - task) < 0.01, (items['task_duration_us'], task)
    assert abs(items['pipeline_utilization_percent']['value'] - numerator / weight) < 1e-6, \
        (items['pipeline_utilization_percent'], numerator / weight)
    assert items['pipeline_utilization_percent']['status'] == ('good' if numerator / weight >= 80 else 'bad')
    assert items['pipeline_utilization_percent']['file'].endswith('kernel_details.csv')
    # The level1 profile was taken with PipeUtilization: no operation counts, no memory traffic.
    assert 'ArithmeticUtilization' in items['cube_throughput_gops']['missing']
    assert 'aic-metrics=Memory' in items['memory_read_gb']['missing']
    # The profile's Summary gives the same AI Core time and share as the
    # report (8.336 ms, 94.0 % here), never the aicore_time column alone
    # over every op's task time (2.729 ms, 30.8 %), and says what it sums.
    profile = subprocess.run([cli, 'profile', level1, '--json'], capture_output=True, text=True)
    summary = json.loads(profile.stdout)['ranks'][0]['summary']
    assert abs(summary['ai_core_time_ns'] / 1000 - busy) < 0.01, (summary, busy)
    assert abs(summary['ai_core_ops_task_ns'] / 1000 - task) < 0.01, (summary, task)
    assert abs(summary['ai_core_time_percent_of_task'] - items['aicore_task_percent']['value']) < 1e-9, summary
    assert 'aicore_ns' not in summary, summary
    text = subprocess.run([cli, 'profile', level1], capture_output=True, text=True).stdout
    assert f"{busy / 1000:.3f} ({100 * busy / task:.1f} %)" in text, text
    assert items['aicore_time_us']['how'] in text, items['aicore_time_us']['how']
    print(f'level1 performance: pipeline {numerator / weight:.2f} %, AI Core {busy:.1f} of {task:.1f} us')


def check_hccl_raw(cli, root):
    folder = os.path.join(root, PROFILES[5])
    report = json.loads(advise(cli, folder, '--json'))
    packet = findings(report, 'packet-size')
    assert len(packet) == 1 and packet[0]['rank'] == 'device 2', packet
    assert '982 of 984 SDMA/HCCS transfers' in packet[0]['message'], packet[0]['message']
    assert packet[0]['evidence'][0]['row'] in (2, 3), packet[0]['evidence'][0]
    # Links 1-0 and 0-0 only: one between ranks, nothing to compare.
    skip = [s for s in report['not_run'] if s['rule'] == 'slow-link']
    assert len(skip) == 1 and skip[0]['reason'].endswith('the data has 1'), skip


def check_cluster_slow_rank(cli, root):
    folder = os.path.join(root, PROFILES[4])
    # Per rank: computing + communication not overlapped + free; the stage row is no rank.
    totals = {}
    with open(os.path.join(folder, 'cluster_step_trace_time.csv')) as f:
        for row in csv.DictReader(f):
            if row['Type'] == 'rank':
                totals[row['Index']] = sum(float(row[c]) for c in ('Computing', 'Communication(Not Overlapped)', 'Free'))
    mean = sum(totals.values()) / len(totals)
    spread = 100 * (max(totals.values()) - min(totals.values())) / mean
    assert 4 < spread < 5, spread
    assert not findings(json.loads(advise(cli, folder, '--json')), 'slow-rank')
    slow = findings(override(cli, folder, 'slow-rank', 'max_spread_percent', 4), 'slow-rank')
    assert len(slow) == 1 and slow[0]['rank'] == 'rank 0', slow
    assert abs(slow[0]['time_us'] - (max(totals.values()) - min(totals.values()))) < 0.01, slow[0]['time_us']
    assert 'communication not overlapped' in slow[0]['message'], slow[0]['message']
    assert len(slow[0]['evidence']) == 8


def main():
    cli = sys.argv[1]
    root = os.environ.get('SL_DATASETS_DIR', '')
    present = [os.path.join(root, p) for p in PROFILES if os.path.isdir(os.path.join(root, p))]
    if not present:
        print('datasets absent; skipped')
        return 77
    for path in present:
        report = json.loads(advise(cli, path, '--json'))
        check(report, path)
        markdown = advise(cli, path, '--markdown')
        assert markdown.startswith('# '), markdown[:80]
        print(f'{path}: {len(report["findings"])} findings, {len(report["not_run"])} not run')

    # The level1 torch_npu profile: idle time is 18.8 % of its one step.
    level1 = os.path.join(root, PROFILES[0])
    if os.path.isdir(level1):
        report = json.loads(advise(cli, level1, '--json'))
        free = [f for f in report['findings'] if f['rule'] == 'free-time']
        assert len(free) == 1 and free[0]['severity'] == 'high', free
        assert free[0]['evidence'][0]['row'] == 2
        settings = os.path.join(tempfile.mkdtemp(), 'advisor.json')
        with open(settings, 'w') as f:
            json.dump({'rules': {'free-time': {'max_free_percent': 30}}}, f)
        overridden = json.loads(advise(cli, level1, '--json', '--settings', settings))
        assert not [f for f in overridden['findings'] if f['rule'] == 'free-time']
        assert overridden['overridden'] == [{'rule': 'free-time', 'threshold': 'max_free_percent',
                                             'default': 10.0, 'value': 30.0}], overridden['overridden']
        assert overridden['settings_file'] == settings
        check_level1_communication(cli, root)
        check_level1_performance(cli, root)
    if os.path.isdir(os.path.join(root, PROFILES[5])):
        check_hccl_raw(cli, root)
    if os.path.isdir(os.path.join(root, PROFILES[4])):
        check_cluster_slow_rank(cli, root)
    return 0


if __name__ == '__main__':
    sys.exit(main())
