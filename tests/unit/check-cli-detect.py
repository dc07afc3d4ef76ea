#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs `sightline-cli detect` on a folder made here and checks its output.

The folder holds a TensorBoard event file (framed with CRC32C written in
this script, independently of the C code), a trace, a tensor, a pipeline
and an object array that must be refused.

Usage: check-cli-detect.py   (SL_CLI names the sightline-cli binary)
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


def record(payload):
    header = struct.pack('<Q', len(payload))
    return header + struct.pack('<I', masked(header)) + payload + struct.pack('<I', masked(payload))


def npy(descr, shape, data_len):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    total = 10 + len(header) + 1
    padded = (total + 63) // 64 * 64
    header = header + ' ' * (padded - total) + '\n'
    return b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode() + b'\0' * data_len


def write(root, rel, data):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


def run(*args):
    cli = os.environ['SL_CLI']
    return subprocess.run([cli, 'detect', *args], capture_output=True, text=True, timeout=60)


def check(condition, message):
    if not condition:
        raise SystemExit('FAIL: ' + message)


def main():
    with tempfile.TemporaryDirectory(prefix='sl-cli-detect-') as root:
        version = b'\x09' + struct.pack('<d', 1.5) + b'\x1a\x0dbrain.Event:2'
        write(root, 'runs/exp1/events.out.tfevents.1700000000.host.1.0', record(version) + record(b'\x09' + struct.pack('<d', 2.0)))
        trace = write(root, 'traces/step.pt.trace.json', json.dumps({'traceEvents': [{'ph': 'X', 'name': 'a', 'ts': 1, 'dur': 2}]}))
        write(root, 'tensors/input.npy', npy('<f4', '(2, 3)', 24))
        refused = write(root, 'tensors/objects.npy', npy('|O', '(4,)', 32))
        write(root, 'sdk/demo.pipeline', json.dumps({'demo': {'stream_config': {'deviceId': '0'},
                                                              'appsrc0': {'factory': 'appsrc', 'next': 'appsink0'},
                                                              'appsink0': {'factory': 'appsink'}}}))

        result = run('--json', root)
        check(result.returncode == 0, f'--json exited {result.returncode}: {result.stderr}')
        doc = json.loads(result.stdout)
        check(doc['root'] == os.path.realpath(root) or doc['root'] == root, f'root is {doc["root"]}')
        check(doc['files_scanned'] == 5, f'files_scanned is {doc["files_scanned"]}')

        findings = {f['kind']: f for f in doc['findings']}
        check(sorted(findings) == ['pipeline', 'tensor', 'tensorboard-run', 'trace'], f'kinds are {sorted(findings)}')
        run_finding = findings['tensorboard-run']
        check(run_finding['name'] == 'runs/exp1', f'run name is {run_finding["name"]}')
        check(len(run_finding['files']) == 1, 'the run has one file')
        check(run_finding['details'].get('version') == 'brain.Event:2', f'details are {run_finding["details"]}')
        check(findings['trace']['files'] == [trace], f'trace files are {findings["trace"]["files"]}')
        check(findings['trace']['size'] == os.path.getsize(trace), 'trace size')
        check(findings['tensor']['details'] == {'dtype': '<f4', 'shape': '(2, 3)', 'fortran_order': 'no'},
              f'tensor details are {findings["tensor"]["details"]}')
        check(findings['pipeline']['details'] == {'streams': 'demo', 'elements': '2'},
              f'pipeline details are {findings["pipeline"]["details"]}')
        for finding in doc['findings']:
            check(set(finding) == {'kind', 'kind_label', 'name', 'path', 'size', 'files', 'details'},
                  f'finding keys are {sorted(finding)}')

        check(len(doc['problems']) == 1, f'problems are {doc["problems"]}')
        problem = doc['problems'][0]
        check(set(problem) == {'severity', 'source', 'path', 'offset', 'line', 'message'}, f'problem keys are {sorted(problem)}')
        check(problem['path'] == refused and problem['offset'] == 10 and problem['line'] is None
              and problem['severity'] == 'error', f'problem is {problem}')

        # Text output: one line per finding, problems on stderr
        result = run(root)
        check(result.returncode == 0, f'text mode exited {result.returncode}')
        lines = [l for l in result.stdout.splitlines() if l.strip()]
        check(len(lines) == 5, f'stdout is {result.stdout!r}')
        check(any(l.split()[0] == 'trace' and 'traces/step.pt.trace.json' in l and '1 file,' in l for l in lines),
              f'no trace line in {result.stdout!r}')
        check('objects.npy' in result.stderr and '10' in result.stderr, f'stderr is {result.stderr!r}')

        # A single file
        result = run('--json', trace)
        check(result.returncode == 0, 'single file')
        check([f['name'] for f in json.loads(result.stdout)['findings']] == ['step.pt.trace.json'], 'single file name')

        # Exit codes
        missing = os.path.join(root, 'does-not-exist')
        result = run(missing)
        check(result.returncode == 1 and missing in result.stderr, f'missing path: {result.returncode} {result.stderr!r}')
        check(run().returncode == 2, 'no path is bad usage')
        check(run(root, root).returncode == 2, 'two paths are bad usage')
        check(run('--no-such-option', root).returncode == 2, 'an unknown option is bad usage')
        check(run('--help').returncode == 0, '--help')

    print('sightline-cli detect works')
    return 0


if __name__ == '__main__':
    sys.exit(main())
