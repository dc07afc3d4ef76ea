#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sightline-cli cluster --json` on the real cluster data, against Python's own
reading of the same files: msprof-analyze's cluster_step_trace_time.csv (each
rank's computing, communication not overlapped and free time, the spread and
no slow rank below 5 %), MindInsight's profiler folder with two devices' step
traces (means of their phases in 10 ns ticks, the device whose files hold no
step trace reported), MindInsight's cluster HCCL data (the summed links and one
collective per step and op), and msinsight's torch_npu rank (the matrix from
the "-total@" aggregates, the link spread per transport).

Usage: check-datasets-cluster.py SIGHTLINE_CLI   (SL_DATASETS_DIR in the environment)
Exit 77 (skipped) when the datasets folder is absent.
"""
import csv
import json
import math
import os
import subprocess
import sys


def close(a, b, tolerance=1e-6):
    return a is not None and b is not None and math.isclose(a, b, rel_tol=tolerance, abs_tol=1e-6)


def run(cli, path):
    out = subprocess.run([cli, 'cluster', '--json', path], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def spread(values):
    mean = sum(values) / len(values)
    return 100.0 * (max(values) - min(values)) / mean


def check_msprof_analyze(cli, datasets):
    folder = os.path.join(datasets, 'Ascend__msprof-analyze/test/resource/advisor')
    with open(os.path.join(folder, 'cluster_analysis_output/cluster_step_trace_time.csv'), encoding='utf-8') as f:
        rows = [r for r in csv.DictReader(f) if r['Type'] == 'rank']
    got = run(cli, folder)
    ranks = {r['rank']: r for r in got['ranks']}
    assert len(ranks) == len(rows) == 8, len(ranks)
    steps = []
    for row in rows:
        mine = ranks[int(row['Index'])]
        computing = float(row['Computing'])
        communication = float(row['Communication(Not Overlapped)'])
        free = float(row['Free'])
        # The loader keeps 1 ns: the file's µs have more digits than that.
        assert abs(mine['computing_us'] - computing) < 1e-3, (row['Index'], mine['computing_us'], computing)
        assert abs(mine['communication_not_overlapped_us'] - communication) < 1e-3
        assert abs(mine['free_us'] - free) < 1e-3
        assert abs(mine['overlapped_us'] - float(row['Overlapped'])) < 1e-3
        assert abs(mine['stage_us'] - float(row['Stage'])) < 1e-3
        assert abs(mine['step_us'] - (computing + communication + free)) < 3e-3
        assert mine['overlap_analysis'] is True
        steps.append(computing + communication + free)
    assert got['analysis_dir'].endswith('cluster_analysis_output')
    assert abs(got['step_spread']['spread_percent'] - spread(steps)) < 1e-4, (got['step_spread'], spread(steps))
    assert got['step_spread']['slowest_rank'] == int(rows[steps.index(max(steps))]['Index'])
    assert got['step_spread']['fastest_rank'] == int(rows[steps.index(min(steps))]['Index'])
    # 4.2 %: below msprof-analyze's 5 %.
    assert spread(steps) < 5 and got['slow_rank'] is None
    assert got['matrix'] == [] and got['slow_link'] is None


def ms_means(path):
    with open(path, encoding='utf-8') as f:
        rows = [r for r in csv.DictReader(f) if r['step_num'].strip() not in ('-', '')]
    def mean(column, rows=rows):
        return sum(int(r[column]) * 10 for r in rows) // len(rows) / 1000.0
    # The first step starts at its forward pass: its interval of 0 is no
    # measured wait, and the mean leaves it out.
    waits = rows
    if rows and int(rows[0]['iteration_interval']) == 0 and rows[0]['fp_point'] == rows[0]['start_point']:
        waits = rows[1:]
    wait = mean('iteration_interval', waits) if waits else None
    return len(rows), mean('total'), mean('fp_and_bp'), mean('tail'), wait


def check_mindinsight_devices(cli, datasets):
    folder = os.path.join(datasets, 'mindspore-ai__mindinsight/tests/utils/resource/profiler')
    got = run(cli, folder)
    ranks = {r['rank']: r for r in got['ranks']}
    steps = []
    for device in (0, 10):
        n, total, computing, tail, wait = ms_means(os.path.join(folder, f'step_trace_raw_{device}_detail_time.csv'))
        mine = ranks[device]
        assert mine['steps'] == n, (device, mine['steps'], n)
        assert close(mine['step_us'], total), (device, mine['step_us'], total)
        # MindSpore's phases under the names its step trace and the profile
        # command give them, never torch_npu's computing / free.
        assert close(mine['fp_bp_us'], computing)
        assert close(mine['tail_us'], tail)
        assert close(mine['data_wait_us'], wait)
        assert not {'computing_us', 'communication_not_overlapped_us', 'free_us'} & set(mine), mine
        assert mine['overlap_analysis'] is False
        assert mine['layout'] == 'mindspore'
        steps.append(total)
    # Device 1 has op tables but no step trace: named, with the file looked for.
    assert ranks[1]['steps'] == 0 and ranks[1]['step_us'] is None
    assert any('rank 1 has no step trace' in p['message'] and 'step_trace_raw_1_detail_time.csv' in p['message']
               for p in got['problems']), got['problems']
    assert abs(got['step_spread']['spread_percent'] - spread(steps)) < 1e-4
    assert got['slow_rank'] is None


def check_mindinsight_hccl(cli, datasets):
    folder = os.path.join(datasets, 'mindspore-ai__mindinsight/tests/utils/resource/cluster_propose')
    links = {}
    ops = set()
    with open(os.path.join(folder, 'hccl_raw_2.csv'), encoding='utf-8') as f:
        for row in csv.DictReader(f):
            # The "-" row holds the averages of the steps above it.
            if row['step_num'].strip() == '-':
                continue
            # The step's links: [time ms, size KB, bandwidth]; the ops'
            # own links are their transfers, not links of the matrix.
            for key, transports in json.loads(row['link_info']).items():
                for transport, (time, size, _) in transports.items():
                    total = links.setdefault((key, transport), [0.0, 0.0])
                    total[0] += size / 1000.0
                    total[1] += time
            for name in json.loads(row['communication_operator_cost']):
                ops.add((row['step_num'], name))
    got = run(cli, folder)
    assert [r['rank'] for r in got['ranks']] == [2]
    matrix = {(f"{m['src']}-{m['dst']}", m['transport']): m for m in got['matrix']}
    assert set(matrix) == set(k for k, v in links.items() if v[1] > 0), (sorted(matrix), sorted(links))
    for key, (size, time) in links.items():
        mine = matrix[key]
        assert close(mine['size_mb'], size, 1e-9), (key, mine['size_mb'], size)
        assert close(mine['time_ms'], time, 1e-9), (key, mine['time_ms'], time)
        assert close(mine['bandwidth_gbps'], size / time, 1e-9)
    assert len(got['collectives']) == len(ops), (len(got['collectives']), len(ops))
    # One rank: nobody to wait for.
    assert all(c['straggler'] is None for c in got['collectives'])


def check_msinsight(cli, datasets):
    folder = os.path.join(datasets, 'Ascend__msinsight/test/data/pytorch/text/level1')
    with open(os.path.join(folder, 'rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication_matrix.json'),
              encoding='utf-8') as f:
        data = json.load(f)
    links = {}
    for kinds in data.values():
        for ops in kinds.values():
            for op, pairs in ops.items():
                if '-total@' not in op:
                    continue
                for key, info in pairs.items():
                    if info['Transit Time(ms)'] > 0:
                        total = links.setdefault((key, info['Transport Type']), [0.0, 0.0])
                        total[0] += info['Transit Size(MB)']
                        total[1] += info['Transit Time(ms)']
    got = run(cli, folder)
    matrix = {(f"{m['src']}-{m['dst']}", m['transport']): m for m in got['matrix']}
    assert set(matrix) == set(links), (sorted(matrix), sorted(links))
    for key, (size, time) in links.items():
        assert close(matrix[key]['bandwidth_gbps'], size / time, 1e-9), key
    between = {}
    for (key, transport), (size, time) in links.items():
        src, dst = key.split('-')
        if transport != 'LOCAL' and src != dst:
            between.setdefault(transport, []).append(size / time)
    worst = max(between, key=lambda t: spread(between[t]) if len(between[t]) > 1 else -1)
    assert got['link_spread']['transport'] == worst
    assert abs(got['link_spread']['spread_percent'] - spread(between[worst])) < 1e-6
    assert close(got['link_spread']['bandwidth_gbps'], min(between[worst]), 1e-9)
    assert (got['slow_link'] is not None) == (spread(between[worst]) > 5)
    with open(os.path.join(folder, 'rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json'), encoding='utf-8') as f:
        ops = json.load(f)
    n_ops = sum(1 for kinds in ops.values() for group in kinds.values() for name in group if name != 'Total Op Info')
    assert len(got['collectives']) == n_ops, (len(got['collectives']), n_ops)


def main():
    datasets = os.environ.get('SL_DATASETS_DIR', '')
    if not datasets or not os.path.isdir(datasets):
        print('datasets folder absent: skipped')
        return 77
    cli = sys.argv[1]
    check_msprof_analyze(cli, datasets)
    check_mindinsight_devices(cli, datasets)
    check_mindinsight_hccl(cli, datasets)
    check_msinsight(cli, datasets)
    print('cluster: msprof-analyze, MindInsight devices and HCCL, msinsight agree with Python')
    return 0


if __name__ == '__main__':
    sys.exit(main())
