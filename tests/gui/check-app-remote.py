#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sightline --compare-tensors NPU BENCH` typed while Sightline already runs:
the running instance opens the Compare document in its own window, with the
relative paths taken from where the second command was typed, and the second
command returns at once. A second command with one path only is refused with
a message and exit status 1, and the running window is left as it was.

Usage: check-app-remote.py SIGHTLINE BUILD_DIR
Both instances share a private session bus, as on a desktop.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

APP_ID = 'io.github.sightline.Sightline'


def write_npy(path, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    header = header.ljust((10 + len(header) + 1 + 63) // 64 * 64 - 10 - 1) + '\n'
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode())
        f.write(struct.pack('<%df' % len(values), *values))


def name_has_owner(env):
    result = subprocess.run(['gdbus', 'call', '--session', '--dest', 'org.freedesktop.DBus',
                             '--object-path', '/org/freedesktop/DBus', '--method',
                             'org.freedesktop.DBus.NameHasOwner', APP_ID],
                            env=env, capture_output=True, text=True, timeout=10)
    return '(true,)' in result.stdout


def wait_for(predicate, seconds, what):
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f'{what} after {seconds} s')


def run_checks(program, build_dir):
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ)
        env.update({
            'XDG_DATA_HOME': os.path.join(home, 'data'),
            'XDG_CACHE_HOME': os.path.join(home, 'cache'),
            'XDG_CONFIG_HOME': os.path.join(home, 'config'),
            'GSETTINGS_SCHEMA_DIR': os.path.join(build_dir, 'data'),
            'GSETTINGS_BACKEND': 'memory',
            'SIGHTLINE_REPORT_LINGER_MS': '500',
        })
        typed_in = os.path.join(home, 'runs')
        write_npy(os.path.join(typed_in, 'npu', 'a.npy'), [1, 2, 3, 4])
        write_npy(os.path.join(typed_in, 'bench', 'a.npy'), [1, 2, 3, 5])
        report = os.path.join(home, 'report.json')

        # The running instance starts elsewhere, with nothing open.
        first = subprocess.Popen([program], cwd=home, env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
        try:
            wait_for(lambda: first.poll() is not None or name_has_owner(env), 60, 'the first instance is not on the bus')
            assert first.poll() is None, 'the first instance quit:\n' + first.communicate()[0]

            # One path only: refused in the terminal it was typed in.
            bad = subprocess.run([program, '--compare-tensors', 'npu'], cwd=typed_in, env=env,
                                 capture_output=True, text=True, timeout=60)
            assert bad.returncode == 1, bad
            assert '--compare-tensors needs two paths' in bad.stderr, bad.stderr

            started = time.monotonic()
            second = subprocess.run([program, '--compare-tensors', 'npu', 'bench', f'--report={report}'],
                                    cwd=typed_in, env=env, capture_output=True, text=True, timeout=60)
            assert second.returncode == 0, second
            took = time.monotonic() - started

            # The report comes from the first instance, which then quits.
            wait_for(lambda: os.path.exists(report) or first.poll() is not None, 90, 'no report')
            output, _ = first.communicate(timeout=60)
        finally:
            if first.poll() is None:
                first.kill()
                first.wait()
        assert first.returncode == 0, f'the first instance exited with {first.returncode}:\n{output}'
        for line in output.splitlines():
            assert 'CRITICAL' not in line, f'critical message from sightline: {line}'
        with open(report, encoding='utf-8') as f:
            data = json.load(f)

    npu = os.path.join(typed_in, 'npu')
    bench = os.path.join(typed_in, 'bench')
    assert data['windows'] == 1, data
    assert data['document_ids'] == [f"tensor-compare:['{npu}', '{bench}']"], data['document_ids']
    assert data['document']['kind'] == 'tensor-compare', data['document']
    assert data['document']['paths'] == [npu, bench], data['document']
    assert data['folders'] == [], data['folders']
    print(f'second command returned in {took:.2f} s; the running window opened {data["document_ids"]}')


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    program, build_dir = sys.argv[1:]
    if not os.environ.get('DISPLAY'):
        print('no DISPLAY: build-aux/dev.sh test starts one')
        return 77
    if os.environ.get('SL_REMOTE_CHECK_BUS') != '1':
        if not shutil.which('dbus-run-session') or not shutil.which('gdbus'):
            print('dbus-run-session or gdbus is missing: skipped')
            return 77
        env = dict(os.environ, SL_REMOTE_CHECK_BUS='1')
        return subprocess.run(['dbus-run-session', '--', sys.executable, *sys.argv], env=env).returncode
    run_checks(program, build_dir)
    return 0


if __name__ == '__main__':
    sys.exit(main())
