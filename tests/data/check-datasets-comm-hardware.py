#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sightline-cli profile --json` on the real profiles: each rank's
communication[] against Python's own reading of its communication.json (times,
the wait and synchronisation ratios the file writes, bandwidth per transport,
packet sizes) and its hardware against info.json.N and the SQLite export's
HOST_INFO and NPU_INFO tables.

Usage: check-datasets-comm-hardware.py SIGHTLINE_CLI   (SL_DATASETS_DIR in the environment)
Exit 77 (skipped) when the datasets folder is absent.
"""
import json
import math
import os
import sqlite3
import subprocess
import sys

FOLDERS = [
    'Ascend__msinsight/test/data/pytorch',
    'mindspore-ai__mindinsight/tests/utils/resource/profiler',
]


def close(a, b, tolerance=1e-9):
    return a is not None and b is not None and math.isclose(a, b, rel_tol=tolerance, abs_tol=tolerance)


def check_communication(rank, path):
    with open(path, encoding='utf-8') as f:
        data = json.load(f)
    expected = []
    for step, kinds in data.items():
        for kind, ops in kinds.items():
            for name, op in ops.items():
                if name == 'Total Op Info':
                    continue
                expected.append((step, kind, name, op))
    got = [c for c in rank['communication'] if not c['total']]
    assert len(got) == len(expected), (path, len(got), len(expected))
    for mine, (step, kind, name, op) in zip(got, expected):
        assert (mine['step'], mine['group'], mine['name']) == (step, kind, name), (mine['name'], name)
        times = op['Communication Time Info']
        assert close(mine['elapse_us'], times['Elapse Time(ms)'] * 1000), (name, mine['elapse_us'])
        assert close(mine['transit_us'], times['Transit Time(ms)'] * 1000)
        assert close(mine['wait_us'], times['Wait Time(ms)'] * 1000)
        assert close(mine['synchronization_us'], times['Synchronization Time(ms)'] * 1000)
        # The file rounds its ratios to four decimals.
        assert abs(mine['wait_ratio'] - times['Wait Time Ratio']) <= 5e-5, (name, mine['wait_ratio'])
        assert abs(mine['synchronization_ratio'] - times['Synchronization Time Ratio']) <= 5e-5
        bandwidths = {b['transport']: b for b in mine['bandwidths']}
        for transport, info in op['Communication Bandwidth Info'].items():
            b = bandwidths[transport]
            assert close(b['size_mb'], info['Transit Size(MB)']), (name, transport)
            assert close(b['time_us'], info['Transit Time(ms)'] * 1000), (name, transport)
            if 'Bandwidth(GB/s)' in info:
                assert close(b['bandwidth_gbps'], info['Bandwidth(GB/s)']), (name, transport)
            sizes = {float(k): v for k, v in info.get('Size Distribution', {}).items()}
            assert len(b['packets']) == len(sizes), (name, transport)
            for p in b['packets']:
                count, time_ms = sizes[p['size_mb']]
                assert p['count'] == count and close(p['time_us'], time_ms * 1000), (name, transport, p)
    return len(got)


def check_info_json(rank, path):
    with open(path, encoding='utf-8') as f:
        info = json.load(f)
    host = rank['hardware']['host']
    assert host['name'] == info['hostname'] and host['os'] == info['OS'], host
    assert host['logical_cores'] == info['cpuNums'], host
    assert host['memory'] == info['memoryTotal'] * 1024, host
    cpu = info['CPU'][0]
    assert host['cpu'] == f"{cpu['Name']} {cpu['Type']}", host
    devices = {d['id']: d for d in rank['hardware']['devices']}
    for device in info['DeviceInfo']:
        mine = devices[device['id']]
        assert mine['ai_core_num'] == device['ai_core_num'], mine
        assert mine['ai_cpu_num'] == device['ai_cpu_core_num'], mine
        assert mine['ctrl_cpu_num'] == device['ctrl_cpu_core_num'], mine
        assert mine['ctrl_cpu_type'] == device['ctrl_cpu_id'], mine
        assert mine['ts_cpu_num'] == device['ts_cpu_core_num'], mine
        assert mine['aiv_num'] == device['aiv_num'], mine


def check_database(rank, path):
    db = sqlite3.connect(f'file:{path}?mode=ro&immutable=1', uri=True)
    host = db.execute('SELECT hostName FROM HOST_INFO').fetchone()
    assert rank['hardware']['host']['name'] == host[0], rank['hardware']
    chips = {i: name for i, name in db.execute('SELECT id, name FROM NPU_INFO')}
    assert {d['id']: d['chip'] for d in rank['hardware']['devices']} == chips, rank['hardware']


def main():
    cli = sys.argv[1]
    root = os.environ.get('SL_DATASETS_DIR')
    if not root or not os.path.isdir(root):
        print('SL_DATASETS_DIR is not set or is not a folder; skipped')
        return 77

    checked = {'communication': 0, 'ops': 0, 'info': 0, 'db': 0}
    for folder in FOLDERS:
        path = os.path.join(root, folder)
        if not os.path.exists(path):
            continue
        proc = subprocess.run([cli, 'profile', path, '--json'], capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, LC_ALL='C.UTF-8'))
        assert proc.returncode == 0, (folder, proc.stderr)
        for rank in json.loads(proc.stdout)['ranks']:
            assert set(rank['hardware']) == {'host', 'devices', 'versions'}, rank['hardware']
            for file in rank['files']:
                name = os.path.basename(file)
                if name == 'communication.json':
                    checked['ops'] += check_communication(rank, file)
                    checked['communication'] += 1
                elif name.startswith('info.json.') and not name.endswith('.done'):
                    check_info_json(rank, file)
                    checked['info'] += 1
                elif name.endswith('.db'):
                    check_database(rank, file)
                    checked['db'] += 1

    print(checked)
    assert checked['communication'] >= 1 and checked['ops'] >= 4, checked
    assert checked['info'] >= 1 and checked['db'] >= 1, checked
    return 0


if __name__ == '__main__':
    sys.exit(main())
