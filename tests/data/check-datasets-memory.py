#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sightline-cli profile --json`'s memory on the real torch_npu profiles,
against an independent reading: Python's csv module with exact decimals for
memory_record.csv, operator_memory.csv and npu_module_mem.csv, Python's
sqlite3 for MEMORY_RECORD, OP_MEMORY and NPU_MODULE_MEM of the export.
The peak is the largest allocated total of any component; an operator holds
memory at the peak when allocated at or before it and released after it or
never. Also checks a folder without memory files gets null.

Usage: check-datasets-memory.py SIGHTLINE_CLI   (SL_DATASETS_DIR in the environment)
Exit 77 (skipped) when the datasets folder is absent.
"""
import csv
import json
import os
import sqlite3
import subprocess
import sys
from decimal import Decimal, ROUND_HALF_UP

TEXT = 'Ascend__msinsight/test/data/pytorch/text/level1/rank0_ascend_pt'
DB = 'Ascend__msinsight/test/data/pytorch/db/level0/rank0_ascend_pt'
NO_MEMORY = 'mindspore-ai__mindinsight/tests/utils/resource/profiler'
MB = 1048576


def ns(text):
    return int((Decimal(text.strip()) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def number(text):
    text = (text or '').strip()
    return float(text) if text else None


def rows(path):
    with open(path, newline='', encoding='utf-8-sig') as f:
        return list(csv.DictReader(f))


def expected(curves, allocations, modules):
    """curves: {name: [(ts, allocated, reserved)]}, allocations: [(name, kb, start, end)]."""
    components = []
    peak = None
    for name, samples in curves.items():
        allocated = [a for _, a, _ in samples if a is not None]
        reserved = [r for _, _, r in samples if r is not None]
        components.append({'name': name, 'max_allocated_mb': max(allocated) if allocated else None,
                           'max_reserved_mb': max(reserved) if reserved else None})
        for ts, a, _ in sorted(samples, key=lambda s: s[0]):
            if a is not None and (peak is None or a > peak[1] or (a == peak[1] and ts < peak[0])):
                peak = (ts, a, name)
    holders = sorted(((kb, i, name, start, end) for i, (name, kb, start, end) in enumerate(allocations)
                      if start <= peak[0] and (end is None or end > peak[0])), key=lambda h: (-h[0], h[1]))
    return {'components': components, 'peak': peak, 'holders': holders,
            'modules': {name: max(values) for name, values in modules.items()}}


def read_text(folder):
    out = os.path.join(folder, 'ASCEND_PROFILER_OUTPUT')
    curves, modules, allocations = {}, {}, []
    for row in rows(os.path.join(out, 'memory_record.csv')):
        curves.setdefault(row['Component'], []).append(
            (ns(row['Timestamp(us)']), number(row['Total Allocated(MB)']), number(row['Total Reserved(MB)'])))
    for row in rows(os.path.join(out, 'operator_memory.csv')):
        release = row['Release Time(us)'].strip()
        allocations.append((row['Name'], float(row['Size(KB)']), ns(row['Allocation Time(us)']),
                            ns(release) if release else None))
    for row in rows(os.path.join(out, 'npu_module_mem.csv')):
        modules.setdefault(row['Component'], []).append(float(row['Total Reserved(MB)']))
    return expected(curves, allocations, modules)


def read_db(folder):
    path = os.path.join(folder, 'ASCEND_PROFILER_OUTPUT', 'ascend_pytorch_profiler_0.db')
    db = sqlite3.connect(f'file:{path}?mode=ro&immutable=1', uri=True)
    strings = dict(db.execute('SELECT id, value FROM STRING_IDS'))
    names = dict(db.execute('SELECT id, name FROM ENUM_MODULE'))
    curves, modules, allocations = {}, {}, []
    for component, ts, allocated, reserved in db.execute(
            'SELECT component, timestamp, totalAllocated, totalReserved FROM MEMORY_RECORD ORDER BY rowid'):
        curves.setdefault(strings[component], []).append(
            (ts, None if allocated is None else allocated / MB, None if reserved is None else reserved / MB))
    for name, size, start, end in db.execute(
            'SELECT name, size, allocationTime, releaseTime FROM OP_MEMORY ORDER BY rowid'):
        allocations.append((strings[name], size / 1024, start, end))
    for module, reserved in db.execute('SELECT moduleId, totalReserved FROM NPU_MODULE_MEM'):
        modules.setdefault(names.get(module, str(module)), []).append(reserved / MB)
    return expected(curves, allocations, modules)


def close(a, b):
    if a is None or b is None:
        return a is b
    return abs(a - b) <= 1e-9 * max(1, abs(b))


def check(cli, folder, want):
    data = json.loads(subprocess.run([cli, 'profile', folder, '--json'], check=True,
                                     capture_output=True, text=True).stdout)
    memory = data['ranks'][0]['memory']
    errors = []
    got = {c['name']: c for c in memory['components']}
    for c in want['components']:
        g = got.get(c['name'])
        if g is None or not close(g['max_allocated_mb'], c['max_allocated_mb']) or \
                not close(g['max_reserved_mb'], c['max_reserved_mb']):
            errors.append(f"component {c['name']}: {g} != {c}")
    ts, value, component = want['peak']
    if memory['peak_time_ns'] != ts or not close(memory['peak_allocated_mb'], value) or \
            memory['peak_component'] != component:
        errors.append(f"peak {memory['peak_time_ns']} {memory['peak_allocated_mb']} {memory['peak_component']}"
                      f" != {ts} {value} {component}")
    if not close(memory['peak_time_us'], ts / 1000):
        errors.append(f"peak_time_us {memory['peak_time_us']}")
    holders = [(h['size_kb'], h['name'], h['allocated_ns'], h['released_ns']) for h in memory['holders']]
    want_holders = [(kb, name, start, end) for kb, _, name, start, end in want['holders']]
    if holders != want_holders:
        errors.append(f'{len(holders)} holders != {len(want_holders)}: {holders[:3]} / {want_holders[:3]}')
    held = sum(kb for kb, *_ in want_holders) / 1024
    if not close(memory['held_mb'], held):
        errors.append(f"held {memory['held_mb']} != {held}")
    modules = {m['name']: m['max_reserved_mb'] for m in memory['modules']}
    if set(modules) != set(want['modules']) or any(not close(modules[k], v) for k, v in want['modules'].items()):
        errors.append('modules differ')
    print(f'{folder}: peak {value:.3f} MB ({component}) at {ts}, {len(holders)} holders, '
          f'{len(modules)} modules: {"ok" if not errors else "FAILED"}')
    return errors


def main():
    root = os.environ.get('SL_DATASETS_DIR', '')
    if not root or not os.path.isdir(os.path.join(root, TEXT)):
        print('datasets folder absent: skipped')
        return 77
    cli = sys.argv[1]
    errors = check(cli, os.path.join(root, TEXT), read_text(os.path.join(root, TEXT)))
    errors += check(cli, os.path.join(root, DB), read_db(os.path.join(root, DB)))

    data = json.loads(subprocess.run([cli, 'profile', os.path.join(root, NO_MEMORY), '--json'], check=True,
                                     capture_output=True, text=True).stdout)
    if any(rank['memory'] is not None for rank in data['ranks']):
        errors.append('a MindSpore folder without memory files has memory')
    for error in errors:
        print(error, file=sys.stderr)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
