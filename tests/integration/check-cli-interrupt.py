#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Ctrl+C at random moments, with both cores busy: profile-run and job run
# on this computer are interrupted at a random 0.05-1.5 s, or right after
# the program started, and each time
#   - no program is left running (every program carries a marker, looked
#     for among all processes afterwards);
#   - what the command says matches what happened: "before the job
#     started" only when the program never ran, "stopped" only when it
#     ran and is gone, and never "may still be running" here;
#   - the exit status is 130.
# SL_INTERRUPT_RUNS sets the number of runs (default 8; the stress case
# is 40).

import importlib.util
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('workflows', os.path.join(HERE, 'check-cli-workflows.py'))
workflows = importlib.util.module_from_spec(spec)
spec.loader.exec_module(workflows)

CLI = os.environ.get('SL_CLI')
RUNS = int(os.environ.get('SL_INTERRUPT_RUNS', '8'))
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f'FAIL: {message}', file=sys.stderr)
    return condition


def processes_with(marker):
    found = []
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open(f'/proc/{pid}/cmdline', 'rb') as f:
                if marker.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


def busy_cores(n):
    code = 'while True: pass'
    return [subprocess.Popen([sys.executable, '-c', code]) for _ in range(n)]


def one_run(env, script, index, marker):
    pid_file = os.path.join(env.remote, f'pid-{index}')
    program = ['python3', 'sleeper.py', pid_file, marker]
    if index % 2 == 0:
        args = ['profile-run', '--project', env.project, '--env-script', script, '--db', env.db,
                '--target', env.name, '--', *program]
        what = 'profile-run'
    else:
        args = ['job', 'run', '--db', env.db, '--target', env.name, '--project', env.project, '--', *program]
        what = 'job run'
    process = subprocess.Popen([CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env.env, cwd=env.project)
    if index % 4 == 3:
        when = 'once the program started'
        for _ in range(600):
            if os.path.exists(pid_file) or process.poll() is not None:
                break
            time.sleep(0.01)
    else:
        delay = random.uniform(0.05, 1.5)
        when = f'after {delay:.2f} s'
        time.sleep(delay)
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        check(False, f'{what} #{index} interrupted {when} did not end within 120 s: {err[-400:]}')
        return

    ran = os.path.exists(pid_file)
    left = []
    for _ in range(50):
        left = processes_with(marker)
        if not left:
            break
        time.sleep(0.1)
    label = f'{what} #{index} interrupted {when}'
    check(not left, f'{label}: no program is left running (still running: {left}); it said: {err[-400:]}')
    check('may still be running' not in err, f'{label}: the stop is confirmed: {err[-400:]}')
    if process.returncode == -signal.SIGINT:
        # Ended by the signal itself, before it watched for Ctrl+C: that
        # is before anything was started, as a shell shows it (130).
        check(not ran, f'{label}: a command ended by the signal itself had started nothing')
        print(f'ok: {label} (ended by the signal before it watched for it)')
        return
    check('Interrupted' in err or 'Stopped before the job started' in err,
          f'{label}: says what became of the job: {err[-400:]}')
    check(process.returncode == 130, f'{label}: exits with 130, not {process.returncode}: {err[-400:]}')
    if 'before the job started' in err:
        check(not ran, f'{label}: says the job never started only when it did not: {err[-400:]}')
    elif ran:
        check('stopped' in err or 'ended' in err, f'{label}: says the job was stopped: {err[-400:]}')
    print(f'ok: {label} ({"ran" if ran else "never started"}): {err.strip().splitlines()[-1] if err.strip() else ""}')


def main():
    if not CLI:
        print('usage: SL_CLI=… check-cli-interrupt.py', file=sys.stderr)
        return 2
    random.seed(os.environ.get('SL_INTERRUPT_SEED', str(time.time())))
    marker = 'sl-interrupt-' + uuid.uuid4().hex
    busy = busy_cores(os.cpu_count() or 2)
    try:
        with tempfile.TemporaryDirectory(prefix='sl-interrupt-') as tmp:
            env = workflows.Env('local', tmp)
            with open(os.path.join(env.project, 'sleeper.py'), 'w') as f:
                f.write('import os, sys, time\n'
                        'open(sys.argv[1] + ".tmp", "w").write(str(os.getpid()))\n'
                        'os.rename(sys.argv[1] + ".tmp", sys.argv[1])\n'
                        'time.sleep(120)\n')
            script = env.env_script('set_env_interrupt', [env.bin])
            for index in range(RUNS):
                one_run(env, script, index, f'{marker}-{index}')
    finally:
        for process in busy:
            process.kill()
            process.wait()
        for pid in processes_with(marker):
            os.kill(pid, signal.SIGKILL)

    print(f'{RUNS} interrupted runs, {len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
