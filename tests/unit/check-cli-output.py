#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every `sightline-cli` command checks that its output was written.

Commands print to a standard output that cannot take it: /dev/full (a full
disk), and a closed descriptor. Each must exit non-zero and say why on
stderr, not exit 0 with the output cut short. The same commands to a pipe
exit 0, so the failures come from the output and nothing else. Both a short
output (it fails at the last flush) and one longer than stdio's buffer
(it fails in the middle) are tried.

Usage: check-cli-output.py   (SL_CLI names the sightline-cli binary)
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

CLI = os.environ.get('SL_CLI', 'sightline-cli')
HERE = os.path.dirname(os.path.abspath(__file__))
MESSAGE = 'sightline-cli: cannot write the output to standard output: '


def load_summary_writer():
    """The summary encoder of check-cli-summary.py, written independently of the C code."""
    spec = importlib.util.spec_from_file_location('check_cli_summary', os.path.join(HERE, 'check-cli-summary.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_summary(folder, n_points):
    s = load_summary_writer()
    data = bytearray(s.record(s.field(1, 1, s.struct.pack('<d', 1.0)) + s.field(3, 2, b'MindSpore.Event:1')))
    for step in range(1, n_points + 1):
        data += s.record(s.scalar_event(step, 1000.0 + step, 'loss', step * 0.5, 3))
    os.makedirs(folder)
    with open(os.path.join(folder, 'events.out.events.summary.1700000000.host_MS'), 'wb') as f:
        f.write(data)


def write_trace(path, n_events):
    events = [{'ph': 'X', 'name': 'op%d' % (i % 300), 'pid': 1, 'tid': 1, 'ts': i * 10, 'dur': 5}
              for i in range(n_events)]
    with open(path, 'w') as f:
        json.dump({'traceEvents': events}, f)


def run(args, stdout, close_stdout=False):
    return subprocess.run([CLI, *args], stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120,
                          preexec_fn=(lambda: os.close(1)) if close_stdout else None,
                          env=dict(os.environ, LC_ALL='C.UTF-8'))


def main():
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    with tempfile.TemporaryDirectory() as root:
        write_summary(os.path.join(root, 'small', 'ms'), 3)
        write_summary(os.path.join(root, 'large', 'ms'), 3000)
        trace = os.path.join(root, 'trace.json')
        write_trace(trace, 2000)
        db = os.path.join(root, 'workspace.db')

        commands = [
            ['--version'],
            ['--help'],
            ['summary-export', os.path.join(root, 'small'), '--run', 'ms', '--tag', 'loss', '--format', 'csv'],
            ['summary-export', os.path.join(root, 'large'), '--run', 'ms', '--tag', 'loss', '--format', 'json'],
            ['summary', os.path.join(root, 'large'), '--json'],
            ['trace-stats', trace],
            ['trace-stats', trace, '--json'],
            ['workspace', '--db', db],
            ['workspace', '--db', db, '--json'],
            ['detect', root],
        ]
        for args in commands:
            name = ' '.join(os.path.basename(a) for a in args)
            good = run(args, subprocess.PIPE)
            check(good.returncode == 0 and good.stdout, '%s to a pipe: exit %d, %d characters: %s'
                  % (name, good.returncode, len(good.stdout or ''), good.stderr))
            size = len(good.stdout.encode())

            with open('/dev/full', 'w') as full:
                result = run(args, full)
            check(result.returncode == 1, '%s (%d bytes) to a full disk exits 1, not %d'
                  % (name, size, result.returncode))
            check(MESSAGE + 'No space left on device' in result.stderr,
                  '%s to a full disk says why: %r' % (name, result.stderr))
            check(result.stderr.count(MESSAGE) == 1, '%s says it once: %r' % (name, result.stderr))

            result = run(args, None, close_stdout=True)
            check(result.returncode == 1 and MESSAGE in result.stderr,
                  '%s to a closed stdout: exit %d, %r' % (name, result.returncode, result.stderr))

        # A command that fails on its own keeps its own exit status.
        with open('/dev/full', 'w') as full:
            result = run(['summary-export', os.path.join(root, 'small'), '--run', 'nope', '--tag', 'loss'], full)
        check(result.returncode == 1, 'unknown run to a full disk exits 1: %d' % result.returncode)
        with open('/dev/full', 'w') as full:
            result = run(['trace-stats'], full)
        check(result.returncode == 2, 'bad usage to a full disk still exits 2: %d' % result.returncode)

    for f in failures:
        print('FAIL:', f)
    if failures:
        return 1
    print('ok: every command reports an output it could not write')
    return 0


if __name__ == '__main__':
    sys.exit(main())
