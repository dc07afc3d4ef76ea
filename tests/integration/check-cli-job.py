#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# sightline-cli job and pull against a real sshd (sshd_fixture.py) and on
# this computer, through the same commands: a project uploaded (excludes,
# incremental), a job started detached, its log streamed and its exit
# code returned and kept in the job history; the demo training job
# writing summaries while its folder is pulled again and again (every
# local file a byte-identical prefix of the remote one, identical at the
# end); the connection killed in the middle of a job and of a transfer,
# with nothing lost or doubled; hostile names on the server; stopping a
# job (SIGTERM, then SIGKILL after the grace period).

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sshd_fixture  # noqa: E402

CLI = os.environ.get('SL_CLI')
DEMO = os.environ.get('SL_DEMO_TRAIN')
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f'FAIL: {message}', file=sys.stderr)
    else:
        print(f'ok: {message}')
    return condition


def kill_sessions(sshd):
    """Kills the sshd processes serving connections (the listener's
    children), as a network failure would; the listener stays up."""
    killed = 0
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open(f'/proc/{entry}/stat', encoding='utf-8', errors='replace') as f:
                fields = f.read().rsplit(')', 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == sshd.process.pid:
            try:
                os.kill(int(entry), signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
    return killed


class Env:
    def __init__(self, name, tmp, sshd=None):
        self.name = name
        self.sshd = sshd
        self.tmp = tmp
        self.db = os.path.join(tmp, 'workspace.db')
        self.env = sshd.environment() if sshd else dict(os.environ)
        self.env['XDG_CACHE_HOME'] = os.path.join(tmp, 'cache')
        self.env['SIGHTLINE_RECONNECT_SECONDS'] = '30'
        self.base = os.path.join(tmp, 'server')
        os.makedirs(self.base, exist_ok=True)

    def cli(self, *args, timeout=120, check_rc=None):
        result = subprocess.run([CLI, *args, '--db', self.db] if args[0] != 'job' or args[1] != 'run'
                                else [CLI, *args[:2], '--db', self.db, *args[2:]],
                                capture_output=True, text=True, env=self.env, timeout=timeout)
        return result

    def run_job(self, *args, timeout=120):
        return subprocess.run([CLI, 'job', 'run', '--db', self.db, '--target', self.name, *args],
                              capture_output=True, text=True, env=self.env, timeout=timeout)

    def popen_job(self, *args):
        return subprocess.Popen([CLI, 'job', 'run', '--db', self.db, '--target', self.name, *args],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.env)

    def cache_dir(self, remote):
        return os.path.join(self.env['XDG_CACHE_HOME'], 'sightline', 'targets', self.name, remote.lstrip('/'))

    def jobs(self):
        result = subprocess.run([CLI, 'job', 'list', '--json', '--db', self.db], capture_output=True, text=True,
                                env=self.env, timeout=30)
        return json.loads(result.stdout)


def make_project(path):
    os.makedirs(os.path.join(path, 'pkg'), exist_ok=True)
    os.makedirs(os.path.join(path, '.git'), exist_ok=True)
    os.makedirs(os.path.join(path, '__pycache__'), exist_ok=True)
    with open(os.path.join(path, 'train.sh'), 'w') as f:
        f.write('echo "training in $(pwd)"\nfor i in 1 2 3; do echo "step $i"; done\necho "to stderr" >&2\nexit 7\n')
    with open(os.path.join(path, 'pkg', 'data.bin'), 'wb') as f:
        f.write(os.urandom(300_000))
    for name in ('.git/HEAD', '__pycache__/x.pyc', 'model.ckpt', 'pkg/net.om'):
        with open(os.path.join(path, name), 'w') as f:
            f.write('excluded\n')


def check_run(env, project, remote):
    result = env.run_job('--project', project, '--remote-dir', remote, '--', 'sh', 'train.sh')
    check(result.returncode == 7, f'{env.name}: job run exits with the job\'s exit code (got {result.returncode}: {result.stderr})')
    check(result.stdout == f'training in {os.path.realpath(remote)}\nstep 1\nstep 2\nstep 3\nto stderr\n',
          f'{env.name}: the log is streamed whole and in order: {result.stdout!r}')
    check(os.path.exists(os.path.join(remote, 'pkg', 'data.bin')), f'{env.name}: the project was uploaded')
    with open(os.path.join(project, 'pkg', 'data.bin'), 'rb') as a, open(os.path.join(remote, 'pkg', 'data.bin'), 'rb') as b:
        check(a.read() == b.read(), f'{env.name}: uploaded bytes are identical')
    for name in ('.git', '__pycache__', 'model.ckpt', 'pkg/net.om'):
        check(not os.path.exists(os.path.join(remote, name)), f'{env.name}: {name} is excluded by default')
    check(not any('.sl-part' in n for n in os.listdir(remote)), f'{env.name}: no temporary upload file left')
    check('uploaded 2 files' in result.stderr.lower(), f'{env.name}: two files uploaded the first time: {result.stderr}')

    again = env.run_job('--project', project, '--remote-dir', remote, '--', 'true')
    check(again.returncode == 0 and 'uploaded 0 files' in again.stderr.lower() and '2 unchanged' in again.stderr,
          f'{env.name}: an unchanged project is not uploaded again: {again.stderr}')

    jobs = env.jobs()
    check(len(jobs) >= 2 and jobs[1]['exit_code'] == 7 and jobs[1]['state'] == 'failed' and
          jobs[0]['state'] == 'succeeded' and jobs[1]['finished_at'] is not None and
          jobs[1]['log_path'].endswith('/log') and jobs[1]['remote_folder'] == os.path.realpath(remote),
          f'{env.name}: the job history has command, times, exit code, log and folder: {jobs[:2]}')
    logs = subprocess.run([CLI, 'job', 'logs', str(jobs[1]['id']), '--db', env.db], capture_output=True, text=True,
                          env=env.env, timeout=60)
    check(logs.stdout == result.stdout, f'{env.name}: job logs prints the same log')

    missing = env.run_job('--project', project, '--remote-dir', remote, '--', 'no-such-command-sl')
    check(missing.returncode == 127 and 'not found' in missing.stderr,
          f'{env.name}: a missing command gets its own message: {missing.stderr}')


def check_dry_run(env, project):
    result = env.run_job('--project', project, '--remote-dir', os.path.join(env.base, "we ird $(touch PWNED); 'dir'"),
                         '--dry-run', '--', 'echo', "a b", '$(touch PWNED)', ';', "it's")
    check(result.returncode == 0 and 'setsid nohup' in result.stdout and "'\\''" in result.stdout,
          f'{env.name}: --dry-run prints the exact quoted command')


def check_hostile_args(env, project):
    remote = os.path.join(env.base, "we ird $(touch PWNED); 'dir'")
    result = env.run_job('--project', project, '--remote-dir', remote, '--',
                         'printf', '%s\\n', 'a b', '$(touch PWNED)', ';', "it's", 'new\nline')
    check(result.returncode == 0 and result.stdout == "a b\n$(touch PWNED)\n;\nit's\nnew\nline\n",
          f'{env.name}: hostile arguments reach the program as they are: {result.stdout!r} {result.stderr}')
    check(os.path.isdir(remote), f'{env.name}: a hostile remote folder name is used literally')
    pwned = [root for root, _, files in os.walk(env.tmp) if 'PWNED' in files]
    check(not pwned, f'{env.name}: nothing was run from a name: {pwned}')


def check_stop(env, project, remote):
    result = env.run_job('--project', project, '--remote-dir', remote, '--detach', '--', 'sleep', '60')
    job_id = result.stdout.strip()
    check(result.returncode == 0 and job_id.isdigit(), f'{env.name}: --detach prints the job id: {result.stdout!r}')
    time.sleep(0.5)
    start = time.monotonic()
    stop = subprocess.run([CLI, 'job', 'stop', job_id, '--db', env.db], capture_output=True, text=True,
                          env=env.env, timeout=60)
    check(stop.returncode == 0 and time.monotonic() - start < 5, f'{env.name}: job stop ends a job quickly: {stop.stdout} {stop.stderr}')
    job = [j for j in env.jobs() if str(j['id']) == job_id][0]
    check(job['state'] == 'cancelled' and job['exit_code'] == 143, f'{env.name}: a stopped job is cancelled with 143: {job}')

    stubborn = env.run_job('--project', project, '--remote-dir', remote, '--detach', '--',
                           'sh', '-c', 'trap "" TERM; echo ready; sleep 60')
    job_id = stubborn.stdout.strip()
    time.sleep(0.5)
    start = time.monotonic()
    stop = subprocess.run([CLI, 'job', 'stop', job_id, '--grace', '1', '--db', env.db], capture_output=True,
                          text=True, env=env.env, timeout=60)
    elapsed = time.monotonic() - start
    job = [j for j in env.jobs() if str(j['id']) == job_id][0]
    check(stop.returncode == 0 and job['exit_code'] == 137 and 1 <= elapsed < 6,
          f'{env.name}: a job ignoring SIGTERM is killed after the grace period: {job} {elapsed:.1f}s')


def check_list_refresh(env, project, remote):
    """A detached job that ended while nothing followed it is listed as
    ended, from its exit_code file: this computer's at every listing, a
    server's with --refresh."""
    result = env.run_job('--project', project, '--remote-dir', remote, '--detach', '--', 'sh', '-c', 'exit 4')
    job_id = result.stdout.strip()
    check(result.returncode == 0 and job_id.isdigit(), f'{env.name}: --detach prints the job id: {result.stdout!r}')
    args = ['job', 'list', '--json', '--db', env.db] + (['--refresh'] if env.name != 'local' else [])
    job = {}
    for _ in range(50):
        listed = subprocess.run([CLI, *args], capture_output=True, text=True, env=env.env, timeout=60)
        job = [j for j in json.loads(listed.stdout) if str(j['id']) == job_id][0]
        if job['state'] != 'running':
            break
        time.sleep(0.2)
    check(job.get('state') == 'failed' and job.get('exit_code') == 4,
          f'{env.name}: job list shows a detached job that ended unfollowed as failed with 4: {job}')


def check_launch_failure(env, project):
    """A job that could not be started is not said to be maybe running."""
    jobs_dir = os.path.join(env.env['XDG_CACHE_HOME'], 'sightline', 'local-jobs', '.sightline', 'jobs')
    moved = jobs_dir + '.aside'
    if os.path.exists(jobs_dir):
        os.rename(jobs_dir, moved)
    os.makedirs(os.path.dirname(jobs_dir), exist_ok=True)
    with open(jobs_dir, 'w') as f:
        f.write('a file where the job folders go\n')
    try:
        result = env.run_job('--project', project, '--', 'true')
    finally:
        os.remove(jobs_dir)
        if os.path.exists(moved):
            os.rename(moved, jobs_dir)
    check(result.returncode == 1 and 'may still be running' not in result.stderr and 'Could not start the job' in result.stderr,
          f'{env.name}: a job that could not start is not said to be running: {result.stderr[-300:]}')


def check_demo_pull(env, project, remote):
    summaries = os.path.join(remote, 'summaries')
    local = env.cache_dir(os.path.join(os.path.realpath(remote), 'summaries'))
    proc = env.popen_job('--project', project, '--remote-dir', remote, '--pull', 'summaries', '--',
                         DEMO, '--slow', '--epochs', '2', '--summary-dir', 'summaries')
    sizes_seen = set()
    prefix_ok = True
    while proc.poll() is None:
        time.sleep(0.7)
        if not os.path.isdir(local):
            continue
        for name in os.listdir(local):
            path = os.path.join(local, name)
            if name.startswith('.') or not os.path.isfile(path):
                continue
            with open(path, 'rb') as f:
                mine = f.read()
            try:
                with open(os.path.join(summaries, name), 'rb') as f:
                    theirs = f.read()
            except FileNotFoundError:
                prefix_ok = False
                continue
            if not theirs.startswith(mine):
                prefix_ok = False
            if name.endswith('_MS'):
                sizes_seen.add(len(mine))
    out, err = proc.communicate()
    check(proc.returncode == 0, f'{env.name}: the demo training job succeeded: {err[-500:]}')
    check(prefix_ok, f'{env.name}: while it ran, each pulled summary was a byte-identical prefix of the remote one')
    check(len(sizes_seen) >= 2, f'{env.name}: the summary was pulled repeatedly while it grew: sizes {sorted(sizes_seen)}')
    names = sorted(os.listdir(summaries))
    same = all(open(os.path.join(summaries, n), 'rb').read() == open(os.path.join(local, n), 'rb').read()
               for n in names)
    check(names and sorted(n for n in os.listdir(local) if not n.startswith('.')) == names and same,
          f'{env.name}: at the end the pulled summaries are identical: {names}')


def check_disconnect_job(env, project, remote):
    proc = env.popen_job('--project', project, '--remote-dir', remote, '--',
                         'sh', '-c', 'i=1; while [ $i -le 40 ]; do echo "line $i"; i=$((i+1)); sleep 0.1; done; exit 5')
    lines = []
    killed = 0
    for line in proc.stdout:
        lines.append(line)
        if len(lines) == 8:
            killed += kill_sessions(env.sshd)
        if len(lines) == 20:
            killed += kill_sessions(env.sshd)
    proc.wait(timeout=120)
    err = proc.stderr.read()
    expected = [f'line {i}\n' for i in range(1, 41)]
    check(killed >= 2 and 'reconnecting' in err, f'{env.name}: the connection was killed twice during the job: {killed} {err}')
    check(lines == expected, f'{env.name}: after reconnecting, the log goes on with nothing lost or doubled: {len(lines)} lines')
    check(proc.returncode == 5, f'{env.name}: the exit code arrives after reconnecting: {proc.returncode}')


def check_disconnect_transfer(env):
    src = os.path.join(env.base, 'big')
    os.makedirs(src, exist_ok=True)
    data = os.urandom(1024 * 1024)
    with open(os.path.join(src, 'weights.bin'), 'wb') as f:
        for i in range(300):
            f.write(hashlib.sha256(bytes([i % 256]) * 7).digest() * 32768)
    dest = os.path.join(env.tmp, 'pulled-big')
    proc = subprocess.Popen([CLI, 'pull', '--db', env.db, '--target', env.name, src, dest],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env.env)
    partial = os.path.join(dest, '.weights.bin.sl-part')
    killed = 0
    deadline = time.monotonic() + 30
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            if os.path.getsize(partial) > 20 * 1024 * 1024:
                killed = kill_sessions(env.sshd)
                break
        except OSError:
            pass
        time.sleep(0.005)
    out, err = proc.communicate(timeout=120)
    with open(os.path.join(src, 'weights.bin'), 'rb') as a, open(os.path.join(dest, 'weights.bin'), 'rb') as b:
        same = a.read() == b.read()
    check(proc.returncode == 0 and same, f'{env.name}: a pull survives a killed connection, bytes identical: {err}')
    check(killed > 0 and 'reconnecting' in err, f'{env.name}: the connection was killed during the transfer: {killed}')
    del data


def check_disconnect_upload(env):
    project = os.path.join(env.tmp, 'big-project')
    remote = os.path.join(env.base, 'big-project')
    os.makedirs(project, exist_ok=True)
    with open(os.path.join(project, 'dataset.bin'), 'wb') as f:
        for i in range(120):
            f.write(hashlib.sha256(bytes([i])).digest() * 32768)
    proc = env.popen_job('--project', project, '--remote-dir', remote, '--', 'true')
    killed = 0
    deadline = time.monotonic() + 30
    while proc.poll() is None and time.monotonic() < deadline and not killed:
        try:
            for name in os.listdir(remote):
                if name.startswith('.dataset.bin.sl-part-') and os.path.getsize(os.path.join(remote, name)) > 8 << 20:
                    killed = kill_sessions(env.sshd)
        except OSError:
            pass
        time.sleep(0.005)
    out, err = proc.communicate(timeout=120)
    with open(os.path.join(project, 'dataset.bin'), 'rb') as a, open(os.path.join(remote, 'dataset.bin'), 'rb') as b:
        same = a.read() == b.read()
    check(proc.returncode == 0 and same, f'{env.name}: an upload survives a killed connection, bytes identical: {err}')
    check(killed > 0 and 'reconnecting' in err, f'{env.name}: the connection was killed during the upload: {killed}')
    check(not [n for n in os.listdir(remote) if '.sl-part' in n], f'{env.name}: no temporary upload file is left')


def check_hostile_names(env):
    src = os.path.join(env.base, 'hostile')
    os.makedirs(src, exist_ok=True)
    names = ['a b', "q'uote", '$(touch PWNED)', 'semi;colon', 'new\nline', '-dash']
    for name in names:
        with open(os.path.join(src, name), 'w') as f:
            f.write(name)
    secret_dir = os.path.join(env.tmp, 'outside')
    os.makedirs(secret_dir, exist_ok=True)
    with open(os.path.join(secret_dir, 'secret'), 'w') as f:
        f.write('secret')
    os.symlink(secret_dir, os.path.join(src, 'escape'))
    os.symlink(os.path.join(secret_dir, 'secret'), os.path.join(src, 'escape-file'))
    os.symlink('../../..', os.path.join(src, 'up'))
    dest = os.path.join(env.tmp, 'pulled-hostile')
    result = subprocess.run([CLI, 'pull', '--db', env.db, '--target', env.name, src, dest],
                            capture_output=True, text=True, env=env.env, timeout=60)
    check(result.returncode == 0, f'{env.name}: pulling hostile names works: {result.stderr}')
    for name in names:
        path = os.path.join(dest, name)
        check(os.path.isfile(path) and open(path).read() == name, f'{env.name}: {name!r} is pulled under its own name')
    check(not any(os.path.lexists(os.path.join(dest, n)) for n in ('escape', 'escape-file', 'up')),
          f'{env.name}: symbolic links on the server are not followed or copied: {os.listdir(dest)}')
    check('symbolic link' in result.stderr, f'{env.name}: the links are reported: {result.stderr}')
    pwned = [root for root, _, files in os.walk(env.tmp) if 'PWNED' in files]
    check(not pwned, f'{env.name}: no name was run as a command')

    # A link planted in the local copy is never written through.
    target = os.path.join(env.tmp, 'victim')
    with open(target, 'w') as f:
        f.write('victim')
    os.unlink(os.path.join(dest, 'a b'))
    os.symlink(target, os.path.join(dest, 'a b'))
    with open(os.path.join(src, 'a b'), 'w') as f:
        f.write('changed on the server')
    subprocess.run([CLI, 'pull', '--db', env.db, '--target', env.name, src, dest],
                   capture_output=True, text=True, env=env.env, timeout=60)
    check(open(target).read() == 'victim', f'{env.name}: nothing is written through a local link')


def ssh_env(sshd, tmp):
    known_hosts = os.path.join(tmp, 'known_hosts')
    with open(sshd.host_key_pub, encoding='utf-8') as f:
        key = f.read().split()
    with open(known_hosts, 'w', encoding='utf-8') as f:
        f.write(f'[127.0.0.1]:{sshd.port} {key[0]} {key[1]}\n')
    env = Env('fixture', tmp, sshd)
    result = subprocess.run([CLI, 'target', 'add', 'fixture', '--host', '127.0.0.1', '--port', str(sshd.port),
                             '--user', sshd.user, '--identity', sshd.key, '--known-hosts', known_hosts,
                             '--base-dir', env.base, '--db', env.db],
                            capture_output=True, text=True, env=env.env, timeout=60)
    check(result.returncode == 0, f'target add: {result.stderr}')
    return env


def run_suite(env):
    project = os.path.join(env.tmp, 'project')
    make_project(project)
    check_run(env, project, os.path.join(env.base, 'run'))
    check_dry_run(env, project)
    check_hostile_args(env, project)
    check_stop(env, project, os.path.join(env.base, 'run'))
    check_list_refresh(env, project, os.path.join(env.base, 'run'))
    if env.name == 'local':
        check_launch_failure(env, project)
    check_hostile_names(env)
    check_demo_pull(env, project, os.path.join(env.base, 'demo'))


def main():
    global DEMO
    args = sys.argv[1:]
    if args and os.path.isfile(args[0]):
        DEMO = args.pop(0)
    if not CLI or not DEMO:
        print('usage: SL_CLI=… check-cli-job.py SIGHTLINE_DEMO_TRAIN [local|ssh]', file=sys.stderr)
        return 2
    only = args[0] if args else 'all'

    if only in ('all', 'local'):
        with tempfile.TemporaryDirectory(prefix='sl-job-local-') as tmp:
            run_suite(Env('local', tmp))

    if only in ('all', 'ssh'):
        if not sshd_fixture.available():
            print('SKIP: sshd is missing', file=sys.stderr)
            return 77 if only == 'ssh' else (1 if failures else 0)
        with sshd_fixture.SshdFixture() as sshd, tempfile.TemporaryDirectory(prefix='sl-job-ssh-') as tmp:
            os.chmod(tmp, 0o755)
            env = ssh_env(sshd, tmp)
            try:
                run_suite(env)
                check_disconnect_job(env, os.path.join(tmp, 'project'), os.path.join(env.base, 'flaky'))
                check_disconnect_transfer(env)
                check_disconnect_upload(env)
            finally:
                if failures:
                    print('--- sshd log (tail) ---', file=sys.stderr)
                    print(sshd.log()[-3000:], file=sys.stderr)

    print(f'{len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
