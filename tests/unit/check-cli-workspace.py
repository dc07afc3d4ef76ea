#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# sightline-cli workspace: JSON output of a fresh, a filled, a damaged and
# a too-new workspace database, and the exit codes; a damaged page salvaged,
# a foreign write-ahead log set aside, a read-only -shm named, and the
# report of a recovery on every command's stderr until it is dismissed.

import contextlib
import glob
import json
import os
import random
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile

CLI = os.environ.get('SL_CLI')
NOBODY = 65534


def run(*args, user=None):
    return subprocess.run([CLI, 'workspace', *args], capture_output=True, text=True, timeout=60, user=user)


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

    result = run('--db', db, '--json')
    check(result.returncode == 0, f'damaged: exit code {result.returncode}')
    data = json.loads(result.stdout)
    message = data['recovery_message']
    check(isinstance(message, str) and '.corrupt-' in message, f'recovery message: {message!r}')
    check(result.stderr.count('.corrupt-') == 1, f'the note is on stderr once: {result.stderr!r}')
    moved = [p for p in glob.glob(db + '.corrupt-*') if not p.endswith(('-wal', '-shm'))]
    check(len(moved) == 1, f'moved-aside files: {moved!r}')
    if moved:
        with open(moved[0], 'rb') as f:
            check(f.read() == garbage, 'the moved-aside file keeps the original bytes')
    check(len(data['targets']) == 1, 'the new database has the Local target')
    recovery = data['recovery']
    check(isinstance(recovery, dict) and recovery['kind'] == 'damaged' and recovery['moved_aside'] == moved
          and set(recovery) >= {'when', 'reason', 'recovered', 'lost', 'lost_unknown'},
          f'recovery: {recovery!r}')

    # Every later command says it too, until the report is dismissed.
    text = run('--db', db)
    check(text.returncode == 0 and text.stderr.count('.corrupt-') == 1,
          f'the next run notes the recovery again: {text.stderr!r}')
    other = subprocess.run([CLI, 'target', 'list', '--db', db], capture_output=True, text=True, timeout=60)
    check(other.returncode == 0 and '.corrupt-' in other.stderr, f'target list notes the recovery: {other.stderr!r}')
    data = run_json(db)
    check(data['recovery'] is not None, 'the report stays')

    dismissed = run('--db', db, '--dismiss-recovery')
    check(dismissed.returncode == 0 and moved and moved[0] in dismissed.stdout,
          f'--dismiss-recovery: {dismissed.returncode} {dismissed.stdout!r} {dismissed.stderr!r}')
    result = run('--db', db, '--json')
    check(result.returncode == 0 and '.corrupt-' not in result.stderr, f'dismissed, no note: {result.stderr!r}')
    data = json.loads(result.stdout)
    check(data['recovery'] is None and data['recovery_message'] is None, f'dismissed: {data["recovery"]!r}')


def interior_cells(page, offset):
    """The (child page, key) cells of an interior table b-tree page."""
    count = struct.unpack('>H', page[offset + 3:offset + 5])[0]
    cells = []
    for i in range(count):
        at = struct.unpack('>H', page[offset + 12 + 2 * i:offset + 14 + 2 * i])[0]
        child = struct.unpack('>I', page[at:at + 4])[0]
        key, shift = 0, at + 4
        while True:
            byte = page[shift]
            key = (key << 7) | (byte & 0x7f)
            shift += 1
            if byte < 0x80:
                break
        cells.append((child, key))
    return cells


def check_damaged_page(tmp):
    """One page of the jobs table overwritten with random bytes: every
    other row is salvaged, and the report counts what was lost."""
    db = os.path.join(tmp, 'page.db')
    run_json(db)
    with contextlib.closing(sqlite3.connect(db)) as conn:
        with conn:
            conn.execute("INSERT INTO targets (name, kind, host) VALUES ('a800', 'ssh', 'ascend-01')")
            for i in range(500):
                conn.execute("INSERT INTO jobs (command, started_at, state) VALUES (?, ?, 'succeeded')",
                             (f'python3 train.py --epoch {i} ' + 'x' * 80, i + 1))
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'jobs'").fetchone()[0]
        page_size = conn.execute('PRAGMA page_size').fetchone()[0]
    with open(db, 'rb') as f:
        data = bytearray(f.read())
    page = data[(root - 1) * page_size:root * page_size]
    check(page[0] == 0x05, f'the jobs table has an interior root page: {page[0]}')
    cells = interior_cells(page, 0)
    (_, first_key), (child, second_key) = cells[0], cells[1]
    lost = second_key - first_key
    rng = random.Random(25)
    data[(child - 1) * page_size:child * page_size] = bytes(rng.randrange(256) for _ in range(page_size))
    with open(db, 'wb') as f:
        f.write(data)

    result = run('--db', db, '--json')
    check(result.returncode == 0, f'damaged page: exit code {result.returncode} {result.stderr!r}')
    data = json.loads(result.stdout)
    recovery = data['recovery'] or {}
    check(recovery.get('recovered', {}).get('jobs') == 500 - lost and recovery.get('lost', {}).get('jobs') == lost,
          f'{lost} jobs lost, the rest recovered: {recovery!r}')
    check(recovery.get('recovered', {}).get('targets') == 2 and 'targets' not in recovery.get('lost', {}),
          f'targets recovered: {recovery!r}')
    check([t['name'] for t in data['targets']] == ['Local', 'a800'], f'targets: {data["targets"]!r}')
    check(f'jobs {lost}' in result.stderr, f'the note says what was lost: {result.stderr!r}')


def check_foreign_wal(tmp):
    """Another database's write-ahead log beside the workspace is set
    aside, byte for byte, and never applied."""
    db = os.path.join(tmp, 'foreign.db')
    run_json(db)
    with contextlib.closing(sqlite3.connect(db)) as conn:
        with conn:
            conn.execute("INSERT INTO targets (name, kind, host) VALUES ('a800', 'ssh', 'ascend-01')")

    other = os.path.join(tmp, 'other.db')
    conn = sqlite3.connect(other)
    conn.execute('PRAGMA journal_mode = WAL')
    conn.execute('PRAGMA wal_autocheckpoint = 0')
    with conn:
        conn.execute('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)')
        for i in range(200):
            conn.execute('INSERT INTO notes (text) VALUES (?)', ('another program wrote this ' * 4,))
    shutil.copyfile(other + '-wal', db + '-wal')
    conn.close()
    with open(db + '-wal', 'rb') as f:
        foreign = f.read()

    result = run('--db', db, '--json')
    check(result.returncode == 0, f'foreign log: exit code {result.returncode} {result.stderr!r}')
    data = json.loads(result.stdout) if result.returncode == 0 else {'targets': [], 'recovery': None}
    check([t['name'] for t in data['targets']] == ['Local', 'a800'], f'targets kept: {data["targets"]!r}')
    kept = glob.glob(db + '.stale-*-wal')
    check(len(kept) == 1, f'the log is set aside: {kept!r}')
    if kept:
        with open(kept[0], 'rb') as f:
            check(f.read() == foreign, 'the log set aside keeps its bytes')
    recovery = data['recovery'] or {}
    check(recovery.get('kind') == 'foreign-wal' and recovery.get('moved_aside', [None])[0] in kept,
          f'recovery: {recovery!r}')


def check_read_only_shm(tmp):
    """A -shm left read-only keeps the database read-only: the message
    names it, not workspace.db."""
    folder = os.path.join(tmp, 'shm')
    os.mkdir(folder)
    os.chmod(folder, 0o777)
    db = os.path.join(folder, 'workspace.db')
    run_json(db)
    os.chmod(db, 0o666)
    keep = sqlite3.connect(db)
    keep.execute('SELECT count(*) FROM targets').fetchone()
    shutil.copyfile(db + '-shm', os.path.join(folder, 'shm-copy'))
    keep.close()
    os.replace(os.path.join(folder, 'shm-copy'), db + '-shm')
    os.chmod(db + '-shm', 0o444)

    # Root may write anything: run as nobody then.
    user = NOBODY if os.geteuid() == 0 else None
    result = subprocess.run([CLI, 'target', 'add', 'a800', '--host', 'ascend-01', '--db', db],
                            capture_output=True, text=True, timeout=60, user=user)
    check(result.returncode == 1, f'read-only -shm: exit code {result.returncode} {result.stderr!r}')
    check(db + '-shm' in result.stderr, f'the message names the -shm: {result.stderr!r}')

    os.chmod(db + '-shm', 0o666)
    result = subprocess.run([CLI, 'target', 'add', 'a800', '--host', 'ascend-01', '--db', db],
                            capture_output=True, text=True, timeout=60, user=user)
    check(result.returncode == 0, f'writable -shm: exit code {result.returncode} {result.stderr!r}')


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
        os.chmod(tmp, 0o755)
        check_fresh(tmp)
        check_filled(tmp)
        check_damaged(tmp)
        check_damaged_page(tmp)
        check_foreign_wal(tmp)
        check_read_only_shm(tmp)
        check_newer(tmp)
        check_usage()

    if failures:
        print(f'{len(failures)} check(s) failed', file=sys.stderr)
        return 1
    print('all checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
