#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sightline-cli trace-slice -o OUT` over an existing OUT on a full disk.

The disk fills in two ways: a file size limit (RLIMIT_FSIZE, anywhere) and
a 64 KiB tmpfs (mounted here when that is permitted; that part is skipped
otherwise). Each time the command exits 1 naming OUT, OUT keeps its
previous bytes and no temporary file is left beside it. With room, OUT is
replaced; a pipe given as OUT gets the slice and stays a pipe.

Usage: check-cli-full-disk.py   (SL_CLI names the sightline-cli binary)
"""
import json
import os
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import threading

CLI = os.environ.get('SL_CLI', 'sightline-cli')
OLD = b'{"previous": "export"}\n'


def write_trace(path, n_events):
    events = [{'ph': 'X', 'name': 'kernel_%d' % (i % 50), 'pid': 1, 'tid': 1 + i % 4, 'ts': i * 10, 'dur': 5}
              for i in range(n_events)]
    with open(path, 'w') as f:
        json.dump({'traceEvents': events}, f)


def limit_file_size():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (16 * 1024, 16 * 1024))


def slice_to(trace, out, fmt='json', preexec_fn=None):
    return subprocess.run([CLI, 'trace-slice', trace, '-o', out, '--format', fmt], capture_output=True, text=True,
                          timeout=120, preexec_fn=preexec_fn, env=dict(os.environ, LC_ALL='C.UTF-8'))


def main():
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    def check_kept(folder, out, result, what):
        check(result.returncode == 1, '%s: exit 1, not %d' % (what, result.returncode))
        check(('“%s”' % out) in result.stderr, '%s: the error names %s: %r' % (what, out, result.stderr))
        with open(out, 'rb') as f:
            check(f.read() == OLD, '%s: the previous file is kept' % what)
        check(sorted(os.listdir(folder)) == ['out.json'], '%s: nothing left beside it: %s'
              % (what, sorted(os.listdir(folder))))

    with tempfile.TemporaryDirectory() as root:
        trace = os.path.join(root, 'trace.json')
        write_trace(trace, 20000)

        # With room, OUT is replaced by the whole slice.
        folder = os.path.join(root, 'room')
        os.makedirs(folder)
        out = os.path.join(folder, 'out.json')
        with open(out, 'wb') as f:
            f.write(OLD)
        result = slice_to(trace, out)
        check(result.returncode == 0, 'with room: exit 0: %s' % result.stderr)
        with open(out) as f:
            check(len(json.load(f)['traceEvents']) >= 20000, 'with room: the slice replaced the file')
        check(sorted(os.listdir(folder)) == ['out.json'], 'with room: nothing beside it')

        # A file size limit: writes fail half-way, as on a full disk.
        folder = os.path.join(root, 'limit')
        os.makedirs(folder)
        out = os.path.join(folder, 'out.json')
        for fmt in ('json', 'csv'):
            with open(out, 'wb') as f:
                f.write(OLD)
            check_kept(folder, out, slice_to(trace, out, fmt, preexec_fn=limit_file_size),
                       'size limit, %s' % fmt)

        # A pipe as OUT is written directly and stays a pipe.
        fifo = os.path.join(root, 'fifo')
        os.mkfifo(fifo)
        received = []
        reader = threading.Thread(target=lambda: received.append(open(fifo, 'rb').read()), daemon=True)
        reader.start()
        result = slice_to(trace, fifo, 'csv')
        reader.join(60)
        check(result.returncode == 0, 'a pipe: exit 0: %s' % result.stderr)
        check(received and received[0].count(b'\n') > 20000, 'a pipe: the slice came through')
        check(stat.S_ISFIFO(os.lstat(fifo).st_mode), 'a pipe stays a pipe')

        # A real full file system, where mounting one is permitted.
        folder = os.path.join(root, 'tmpfs')
        os.makedirs(folder)
        mounted = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', folder],
                                 capture_output=True).returncode == 0 if os.geteuid() == 0 else False
        if mounted:
            try:
                out = os.path.join(folder, 'out.json')
                with open(out, 'wb') as f:
                    f.write(OLD)
                result = slice_to(trace, out)
                check_kept(folder, out, result, 'full tmpfs')
                check('No space left on device' in result.stderr, 'full tmpfs: says why: %r' % result.stderr)
            finally:
                subprocess.run(['umount', folder])
        else:
            print('the tmpfs part is skipped: mounting is not permitted here')

    for f in failures:
        print('FAIL:', f)
    if failures:
        return 1
    print('ok: a full disk keeps the previous file and names it')
    return 0


if __name__ == '__main__':
    sys.exit(main())
