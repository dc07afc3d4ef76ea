#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# sightline-cli tune on the loopback SSH server (sshd_fixture.py): a short
# study of sightline-demo-train, which reads MINDINSIGHT_HYPER_CONFIG,
# uploaded and run as jobs, its summaries pulled back and its value read
# from the pulled lineage. Batch size 128 is more than the 64 samples the
# job is given, so those trials fail, and the study goes on. The first
# sightline-cli is killed in the middle; the second resumes the study from
# the workspace database and finishes it.

import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sshd_fixture  # noqa: E402

CLI = os.environ.get('SL_CLI')
failures = []


def check(condition, message):
    print(('ok: ' if condition else 'FAIL: ') + message, file=sys.stdout if condition else sys.stderr)
    if not condition:
        failures.append(message)
    return condition


def add_target(sshd, tmp, env, db, base):
    known_hosts = os.path.join(tmp, 'known_hosts')
    with open(sshd.host_key_pub, encoding='utf-8') as f:
        key = f.read().split()
    with open(known_hosts, 'w', encoding='utf-8') as f:
        f.write(f'[127.0.0.1]:{sshd.port} {key[0]} {key[1]}\n')
    result = subprocess.run([CLI, 'target', 'add', 'fixture', '--host', '127.0.0.1', '--port', str(sshd.port),
                             '--user', sshd.user, '--identity', sshd.key, '--known-hosts', known_hosts,
                             '--base-dir', base, '--db', db],
                            capture_output=True, text=True, env=env, timeout=60)
    check(result.returncode == 0, f'target add: {result.stderr}')


def write_project(project, demo):
    os.makedirs(project, exist_ok=True)
    config = os.path.join(project, 'tune.yaml')
    with open(config, 'w', encoding='utf-8') as f:
        f.write(f"""command: "'{demo}' --samples 64 --epochs 3 --slow"
summary_base_dir: summaries
tuner: {{name: gp, args: {{method: ei}}}}
target: {{group: metric, name: Accuracy, goal: maximize}}
parameters:
  learning_rate: {{bounds: [0.01, 1.0], type: float, decimal: 3}}
  batch_size: {{choice: [16, 32, 128], type: int}}
""")
    with open(os.path.join(project, 'README'), 'w', encoding='utf-8') as f:
        f.write('uploaded with the study\n')
    return config


def trials_in_db(db):
    try:
        with sqlite3.connect(db, timeout=5) as connection:
            return connection.execute('SELECT state FROM tuner_trials').fetchall()
    except sqlite3.Error:
        return []


def main():
    demo = sys.argv[1] if len(sys.argv) > 1 else None
    if not CLI or not demo:
        print('usage: SL_CLI=… check-cli-tune.py SIGHTLINE_DEMO_TRAIN', file=sys.stderr)
        return 2
    if not sshd_fixture.available():
        print('SKIP: sshd is missing', file=sys.stderr)
        return 77

    with sshd_fixture.SshdFixture() as sshd, tempfile.TemporaryDirectory(prefix='sl-tune-ssh-') as tmp:
        os.chmod(tmp, 0o755)
        env = sshd.environment()
        env['XDG_CACHE_HOME'] = os.path.join(tmp, 'cache')
        db = os.path.join(tmp, 'workspace.db')
        base = os.path.join(tmp, 'server')
        os.makedirs(base, exist_ok=True)
        add_target(sshd, tmp, env, db, base)
        config = write_project(os.path.join(tmp, 'project'), demo)
        command = [CLI, 'tune', config, '--target', 'fixture', '--iter', '6', '--parallel', '2', '--db', db]

        # The first run, killed once two trials have ended.
        first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and first.poll() is None:
            ended = [s for (s,) in trials_in_db(db) if s in ('succeeded', 'failed')]
            if len(ended) >= 2:
                break
            time.sleep(0.2)
        check(first.poll() is None, 'the first run was still going after two trials')
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=30)
        states = [s for (s,) in trials_in_db(db)]
        check(len(states) < 6 and 'running' in states, f'the study was cut short with trials running: {states}')

        # The second run resumes and finishes.
        result = subprocess.run(command + ['--json'], capture_output=True, text=True, env=env, timeout=600)
        check(result.returncode == 0, f'tune exits with 0: {result.stderr[-2000:]}')
        try:
            study = json.loads(result.stdout)
        except json.JSONDecodeError:
            check(False, f'tune --json prints JSON: {result.stdout[:500]}')
            return 1
        check(study['resumed'] is True, 'the second run resumed the study')
        trials = study['trials']
        check(len(trials) == 6, f'six trials in all: {len(trials)}')
        for trial in trials:
            params = trial['params']
            if params['batch_size'] == 128:
                check(trial['state'] == 'failed' and trial['value'] is None,
                      f"trial {trial['number']} with batch 128 failed: {trial['state']}")
                check('batch size' in (trial['reason'] or ''), f"its reason says why: {trial['reason']}")
            else:
                check(trial['state'] == 'succeeded' and 0 <= trial['value'] <= 1,
                      f"trial {trial['number']} {params} succeeded: {trial['state']} {trial['value']} {trial['reason']}")
                pulled = trial['summary_dir'] or ''
                lineage = [n for n in os.listdir(pulled) if n.endswith('_lineage')] if os.path.isdir(pulled) else []
                check(len(lineage) == 1, f'its lineage was pulled into {pulled}')
                check(pulled.startswith(env['XDG_CACHE_HOME']), 'into the cache')
                check(os.path.basename(pulled).startswith('train_'), 'a train_<uuid> folder')
            check(0.01 <= params['learning_rate'] < 1.0, f"learning_rate within its bounds: {params['learning_rate']}")
            check(params['batch_size'] in (16, 32, 128), 'batch_size one of its choices')
        best = study['best']
        succeeded = [t for t in trials if t['state'] == 'succeeded']
        check(best is not None and best['value'] == max(t['value'] for t in succeeded), 'best is the highest accuracy')

        # The trials' folders exist on the server, under the uploaded project.
        remote = os.path.join(base, 'project', 'summaries')
        check(os.path.isdir(remote) and len(os.listdir(remote)) >= len(succeeded),
              f'the trials wrote into summary_base_dir on the target: {remote}')

        # Text output of a finished study prints the best trial.
        text = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
        check(text.returncode == 0 and 'Best: trial' in text.stdout, f'the text output names the best: {text.stdout[-300:]}')

    print(f'{len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
