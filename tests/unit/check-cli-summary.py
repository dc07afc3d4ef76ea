#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs `sightline-cli summary` and `summary-export` on runs made here.

The events are encoded and framed in this script, independently of the
C code: a MindSpore run with two scalar tags and one record whose payload
checksum is broken, and a TensorBoard run below a nested folder.

Usage: check-cli-summary.py   (SL_CLI names the sightline-cli binary)
"""
import json
import os
import struct
import subprocess
import sys
import tempfile


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def masked(data):
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def record(payload, break_payload=False):
    header = struct.pack('<Q', len(payload))
    footer = masked(payload) ^ (1 if break_payload else 0)
    return header + struct.pack('<I', masked(header)) + payload + struct.pack('<I', footer)


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number, wire_type, payload):
    key = varint((number << 3) | wire_type)
    if wire_type == 2:
        return key + varint(len(payload)) + payload
    return key + payload


def scalar_event(step, wall_time, tag, value, value_field):
    value_msg = field(1, 2, tag.encode()) + field(value_field, 5, struct.pack('<f', value))
    summary = field(1, 2, value_msg)
    return field(1, 1, struct.pack('<d', wall_time)) + field(2, 0, varint(step)) + field(5, 2, summary)


def run(cli, *args):
    return subprocess.run([cli, *args], capture_output=True, text=True,
                          env=dict(os.environ, LC_ALL='C.UTF-8'))


def main():
    cli = os.environ['SL_CLI']
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    with tempfile.TemporaryDirectory() as root:
        ms_dir = os.path.join(root, 'ms')
        tb_dir = os.path.join(root, 'tb', 'seed_1')
        os.makedirs(ms_dir)
        os.makedirs(tb_dir)

        data = bytearray()
        data += record(field(1, 1, struct.pack('<d', 1.0)) + field(3, 2, b'MindSpore.Event:1'))
        bad_offset = None
        for step in range(1, 11):
            data += record(scalar_event(step, 1000.0 + step, 'loss', step * 0.5, 3))
            if step == 5:
                bad_offset = len(data)
            data += record(scalar_event(step, 1000.0 + step, 'acc', step / 10, 3), break_payload=(step == 5))
        with open(os.path.join(ms_dir, 'events.out.events.summary.1700000000.host_MS'), 'wb') as f:
            f.write(data)

        tb = record(field(1, 1, struct.pack('<d', 1.0)) + field(3, 2, b'brain.Event:2'))
        for step in range(3):
            tb += record(scalar_event(step, 2000.0 + step, 'train/loss', 1.0 - step * 0.25, 2))
        with open(os.path.join(tb_dir, 'events.out.tfevents.1700000000.host'), 'wb') as f:
            f.write(tb)

        result = run(cli, 'summary', root, '--json')
        check(result.returncode == 0, 'summary exits 0 with a bad record: %d %s' % (result.returncode, result.stderr))
        doc = json.loads(result.stdout)
        runs = {r['name']: r for r in doc['runs']}
        check(sorted(runs) == ['ms', 'tb/seed_1'], 'run names: %s' % sorted(runs))

        ms = runs['ms']
        check(ms['bad_records'] == 1, 'one bad record: %s' % ms['bad_records'])
        check(len(ms['files']) == 1 and ms['files'][0]['records'] == 20, 'records: %s' % ms['files'])
        check(ms['files'][0]['kind'] == 'summary', 'file kind')
        tags = {t['tag']: t for t in ms['tags']}
        check(tags['loss'] == {'tag': 'loss', 'kind': 'scalar', 'points': 10, 'first_step': 1, 'last_step': 10},
              'loss tag: %s' % tags.get('loss'))
        check(tags['acc']['points'] == 9, 'acc points: %s' % tags.get('acc'))
        check(len(ms['problems']) == 1 and ms['problems'][0]['offset'] == bad_offset,
              'problem at %s: %s' % (bad_offset, ms['problems']))

        tbr = runs['tb/seed_1']
        check(tbr['files'][0]['kind'] == 'tfevents', 'tfevents kind')
        check(tbr['tags'] == [{'tag': 'train/loss', 'kind': 'scalar', 'points': 3, 'first_step': 0, 'last_step': 2}],
              'tb tags: %s' % tbr['tags'])

        # A restarted job: steps 0 to 5, then 2 to 3 again. The four points
        # written before the restart from step 2 on are dropped, the later
        # ones kept, and both outputs say so.
        with tempfile.TemporaryDirectory() as restarted_root:
            rs = record(field(1, 1, struct.pack('<d', 1.0)) + field(3, 2, b'brain.Event:2'))
            for step in list(range(6)) + [2, 3]:
                rs += record(scalar_event(step, 3000.0 + len(rs), 'loss', float(step), 2))
            with open(os.path.join(restarted_root, 'events.out.tfevents.1700000001.host'), 'wb') as f:
                f.write(rs)
            result = run(cli, 'summary', restarted_root, '--json')
            loss = json.loads(result.stdout)['runs'][0]['tags'][0]
            check(loss['points'] == 4 and loss['last_step'] == 3, 'restarted points: %s' % loss)
            check(loss.get('restart') == {'from_step': 5, 'to_step': 2, 'restarts': 1, 'dropped_points': 4,
                                          'kept': 'later'}, 'restart: %s' % loss)
            text = run(cli, 'summary', restarted_root).stdout
            check('went back from step 5 to step 2, a restarted job: 4 points written before the restart, from step 2 '
                  'on, were dropped; the later points are kept' in text, 'restart text: %s' % text)

        result = run(cli, 'summary-export', root, '--run', 'ms', '--tag', 'loss', '--format', 'csv')
        check(result.returncode == 0, 'export csv exits 0')
        lines = result.stdout.splitlines()
        check(lines[0] == 'step,wall_time,value', 'csv header: %s' % lines[:1])
        check(len(lines) == 11 and lines[1] == '1,1001,0.5' and lines[10] == '10,1010,5',
              'csv rows: %s' % lines[:3])

        result = run(cli, 'summary-export', root, '--run', 'tb/seed_1', '--tag', 'train/loss', '--format', 'json')
        check(result.returncode == 0, 'export json exits 0')
        points = json.loads(result.stdout)['points']
        check([p['step'] for p in points] == [0, 1, 2] and points[2]['value'] == 0.5,
              'json points: %s' % points)

        check(run(cli, 'summary', os.path.join(root, 'missing')).returncode == 1, 'missing path exits 1')
        check(run(cli, 'summary-export', root, '--run', 'nope', '--tag', 'loss').returncode == 1, 'unknown run exits 1')
        check(run(cli, 'summary-export', root, '--run', 'ms', '--tag', 'nope').returncode == 1, 'unknown tag exits 1')
        check(run(cli, 'summary').returncode == 2, 'no path exits 2')
        check(run(cli, 'summary-export', root, '--run', 'ms', '--tag', 'loss', '--format', 'xml').returncode == 2,
              'bad format exits 2')

    for failure in failures:
        print('FAIL:', failure)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
