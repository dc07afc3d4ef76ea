#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# sightline-cli workspace: JSON output of a fresh, a filled, a damaged and
# a too-new workspace database, and the exit codes.

import contextlib
import glob
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

CLI = os.environ.get('SL_CLI')


def run(*args):
    return subprocess.run([CLI, 'workspace', *args], capture_output=True, text=True, timeout=60)


def run_json(db):
    result = run('--db', db, '--json')
    check(result.returncode == 0, f'exit code {result.returncode}, stderr: {result.stderr}')
    return json.loads(result.stdout)


failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f'FAIL: {message}', file=sys.stderr)
    return condition


def check_fresh(tmp):
    db = os.path.join(tmp, 'fresh', 'workspace.db')
    data = run_json(db)
    check(data['path'] == db, f'path is {data["path"]!r}')
    check(isinstance(data['schema_version'], int) and data['schema_version'] >= 1,
          f'schema_version is {data["schema_version"]!r}')
    check(data['recovery_message'] is None, 'a fresh database has no recovery message')
    check(len(data['targets']) == 1, f'targets: {data["targets"]!r}')
    local = data['targets'][0]
    check(local['name'] == 'Local' and local['kind'] == 'local', f'first target: {local!r}')
    for key in ('projects', 'recent_folders', 'jobs'):
        check(data[key] == [], f'{key} of a fresh database: {data[key]!r}')
    for target in data['targets']:
        for key in target:
            check(not any(word in key for word in ('password', 'passphrase', 'secret', 'private')),
                  f'target field {key!r} looks like a secret')

    with contextlib.closing(sqlite3.connect(db)) as conn:
        mode = conn.execute('PRAGMA journal_mode').fetchone()[0]
        version = conn.execute('PRAGMA user_version').fetchone()[0]
    check(mode == 'wal', f'journal mode is {mode!r}')
    check(version == data['schema_version'], f'user_version {version} differs from the JSON')

    text = run('--db', db)
    check(text.returncode == 0 and 'Local' in text.stdout, f'text output: {text.stdout!r} {text.stderr!r}')


def check_filled(tmp):
    db = os.path.join(tmp, 'filled.db')
    run_json(db)  # creates the schema

    conn = sqlite3.connect(db)
    with conn:
        cur = conn.execute("INSERT INTO targets (name, kind, host, port, user_name, auth_method, identity_file) "
                           "VALUES ('a800', 'ssh', 'ascend-01', 2222, 'trainer', 'key', '~/.ssh/id_ed25519')")
        target_id = cur.lastrowid
        cur = conn.execute("INSERT INTO projects (name, local_folder, target_id, remote_folder, upload_excludes) "
                           "VALUES ('resnet', '/src/resnet', ?, '/home/trainer/resnet', '[\".git\"]')", (target_id,))
        project_id = cur.lastrowid
        conn.execute("INSERT INTO run_configs (project_id, name, kind, command, arguments, environment) "
                     "VALUES (?, 'Train', 'train', 'python3', '[\"train.py\"]', '[\"A=1\"]')", (project_id,))
        conn.execute("INSERT INTO recent_folders (path, opened_at) VALUES ('/runs/old', 1000000), ('/runs/new', 2000000)")
        for i in range(25):
            conn.execute("INSERT INTO jobs (command, target_id, target_name, started_at, state, exit_code, finished_at) "
                         "VALUES (?, ?, 'a800', ?, 'succeeded', 0, ?)",
                         (f'job {i}', target_id, 1_700_000_000_000_000 + i * 1_000_000, 1_700_000_000_500_000 + i * 1_000_000))
    conn.close()

    data = run_json(db)
    names = [t['name'] for t in data['targets']]
    check(names == ['Local', 'a800'], f'target names: {names!r}')
    ssh = data['targets'][1]
    check(ssh['host'] == 'ascend-01' and ssh['port'] == 2222 and ssh['user'] == 'trainer' and ssh['auth'] == 'key',
          f'ssh target: {ssh!r}')

    check(len(data['projects']) == 1, f'projects: {data["projects"]!r}')
    project = data['projects'][0]
    check(project['target'] == 'a800' and project['upload_excludes'] == ['.git'], f'project: {project!r}')
    configs = project['run_configurations']
    check(len(configs) == 1 and configs[0]['kind'] == 'train' and configs[0]['arguments'] == ['train.py'],
          f'run configurations: {configs!r}')

    paths = [f['path'] for f in data['recent_folders']]
    check(paths == ['/runs/new', '/runs/old'], f'recent folders: {paths!r}')
    check(data['recent_folders'][0]['opened_at'].startswith('1970-01-01T00:00:02'),
          f'opened_at: {data["recent_folders"][0]["opened_at"]!r}')

    jobs = data['jobs']
    check(len(jobs) == 20, f'{len(jobs)} jobs shown, expected the latest 20')
    check(jobs[0]['command'] == 'job 24' and jobs[-1]['command'] == 'job 5',
          f'job order: {[j["command"] for j in jobs]!r}')
    check(jobs[0]['state'] == 'succeeded' and jobs[0]['exit_code'] == 0 and jobs[0]['target'] == 'a800',
          f'job: {jobs[0]!r}')
    check(jobs[0]['started_at'].startswith('2023-11-14T22:13:44'), f'started_at: {jobs[0]["started_at"]!r}')


def check_damaged(tmp):
    db = os.path.join(tmp, 'damaged.db')
    garbage = b'this is not a database'
    with open(db, 'wb') as f:
        f.write(garbage)

    data = run_json(db)
    message = data['recovery_message']
    check(isinstance(message, str) and '.corrupt-' in message, f'recovery message: {message!r}')
    moved = [p for p in glob.glob(db + '.corrupt-*') if not p.endswith(('-wal', '-shm'))]
    check(len(moved) == 1, f'moved-aside files: {moved!r}')
    if moved:
        with open(moved[0], 'rb') as f:
            check(f.read() == garbage, 'the moved-aside file keeps the original bytes')
    check(len(data['targets']) == 1, 'the new database has the Local target')

    text = run('--db', db)
    check(text.returncode == 0 and 'Note:' not in text.stdout,
          'the recovery happens once; the next run shows no note')


def check_newer(tmp):
    db = os.path.join(tmp, 'newer.db')
    with contextlib.closing(sqlite3.connect(db)) as conn:
        conn.execute('CREATE TABLE future (x)')
        conn.execute('PRAGMA user_version = 999')
        conn.commit()
    with open(db, 'rb') as f:
        before = f.read()

    result = run('--db', db, '--json')
    check(result.returncode == 1, f'newer database: exit code {result.returncode}')
    check('newer' in result.stderr, f'newer database: stderr {result.stderr!r}')
    with open(db, 'rb') as f:
        check(f.read() == before, 'a newer database is left unchanged')


def check_usage():
    result = run('--no-such-option')
    check(result.returncode == 2, f'unknown option: exit code {result.returncode}')
    result = run('extra-argument')
    check(result.returncode == 2, f'extra argument: exit code {result.returncode}')
    result = run('--help')
    check(result.returncode == 0 and '--json' in result.stdout, f'--help: {result.returncode} {result.stdout!r}')


def main():
    if not CLI:
        print('SL_CLI is not set', file=sys.stderr)
        return 1

    with tempfile.TemporaryDirectory(prefix='sl-cli-workspace-') as tmp:
        check_fresh(tmp)
        check_filled(tmp)
        check_damaged(tmp)
        check_newer(tmp)
        check_usage()

    if failures:
        print(f'{len(failures)} check(s) failed', file=sys.stderr)
        return 1
    print('all checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
