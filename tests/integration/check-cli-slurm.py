#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# sightline-cli job run --backend slurm against a real single-machine
# Slurm (slurm_fixture.py), on the Local target (Slurm's commands on this
# computer's PATH) and through the loopback SSH target (sshd_fixture.py):
# a job submitted and followed to its exit code with the batch script
# shown first; a job queued behind one holding every CPU, its reason told
# in words; two tasks that each see their rank, their output folders
# pulled, their lines streamed with their rank; a failing job's exit code; cancelling; a time limit; a job
# started detached and found and followed again by a new process; and
# sbatch refusing a partition that does not exist. Skipped when not root
# or Slurm is not installed.

import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slurm_fixture  # noqa: E402
import sshd_fixture  # noqa: E402

CLI = os.environ.get('SL_CLI')
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f'FAIL: {message}', file=sys.stderr)
    else:
        print(f'ok: {message}')
    return condition


class Env:
    def __init__(self, name, tmp, slurm, sshd=None):
        self.name = name
        self.tmp = tmp
        self.db = os.path.join(tmp, 'workspace.db')
        self.env = slurm.env(sshd.environment() if sshd else os.environ)
        self.env['XDG_CACHE_HOME'] = os.path.join(tmp, 'cache')
        self.env['SIGHTLINE_RECONNECT_SECONDS'] = '30'
        self.base = os.path.join(tmp, 'server')
        os.makedirs(self.base, exist_ok=True)
        self.project = os.path.join(tmp, 'project')
        os.makedirs(self.project, exist_ok=True)
        with open(os.path.join(self.project, 'ranks.sh'), 'w', encoding='utf-8') as f:
            f.write('mkdir -p "out/rank_$RANK"\n'
                    'echo "rank $RANK of $WORLD_SIZE procid $SLURM_PROCID" > "out/rank_$RANK/hello.txt"\n'
                    'echo "task $SLURM_PROCID sees RANK=$RANK LOCAL_RANK=$LOCAL_RANK WORLD_SIZE=$WORLD_SIZE"\n')

    def cli(self, *args, timeout=120):
        return subprocess.run([CLI, *args, '--db', self.db], capture_output=True, text=True, env=self.env,
                              timeout=timeout)

    def run_job(self, *args, timeout=120):
        return subprocess.run([CLI, 'job', 'run', '--db', self.db, '--backend', 'slurm', '--target', self.name,
                               '--project', self.project, *args],
                              capture_output=True, text=True, env=self.env, timeout=timeout)

    def popen_job(self, *args):
        return subprocess.Popen([CLI, 'job', 'run', '--db', self.db, '--backend', 'slurm', '--target', self.name,
                                 '--project', self.project, *args],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.env)

    def jobs(self):
        # --refresh: Slurm is asked about the jobs nobody follows.
        return json.loads(self.cli('job', 'list', '--json', '--refresh').stdout)

    def job(self, job_id):
        return [j for j in self.jobs() if str(j['id']) == str(job_id)][0]


def check_complete(env):
    result = env.run_job('--ntasks', '1', '--time', '5', '--', 'sh', '-c', 'echo "hello from Slurm job $SLURM_JOB_ID"')
    check(result.returncode == 0, f'{env.name}: a Slurm job exits 0 ({result.returncode}: {result.stderr})')
    check('hello from Slurm job ' in result.stdout, f'{env.name}: its log is streamed: {result.stdout!r}')
    check('#SBATCH --ntasks=1' in result.stderr and '#SBATCH --time=5' in result.stderr and
          'sbatch --parsable' in result.stderr, f'{env.name}: the script and command are printed first')
    job = env.jobs()[0]
    check(job['backend'] == 'slurm' and job['backend_job_id'] and job['backend_job_id'].isdigit() and
          job['backend_state'] == 'COMPLETED' and job['state'] == 'succeeded' and job['exit_code'] == 0,
          f'{env.name}: the history keeps Slurm\'s id and COMPLETED: {job}')
    listed = env.cli('job', 'list')
    check('COMPLETED' in listed.stdout, f'{env.name}: job list shows Slurm\'s state word: {listed.stdout}')


def check_two_tasks(env):
    result = env.run_job('--nodes', '1', '--ntasks', '2', '--per-task-logs', '--pull', 'out', '--', 'sh', 'ranks.sh')
    check(result.returncode == 0, f'{env.name}: a two-task job ends well ({result.stderr})')
    job = env.jobs()[0]
    folder = os.path.dirname(job['log_path'])
    outputs = sorted(n for n in os.listdir(folder) if n.endswith('.out'))
    texts = []
    for name in outputs:
        with open(os.path.join(folder, name), encoding='utf-8') as f:
            texts.append(f.read())
    check(len(outputs) == 2 and outputs[0].endswith(f'-{job["backend_job_id"]}-0.out'),
          f'{env.name}: each task writes its own log: {outputs}')
    check(any('task 0 sees RANK=0 LOCAL_RANK=0 WORLD_SIZE=2' in t for t in texts) and
          any('task 1 sees RANK=1 LOCAL_RANK=1 WORLD_SIZE=2' in t for t in texts),
          f'{env.name}: each task sees its rank: {texts}')
    # Followed, each task's lines come with the rank that wrote them.
    seen = [line for line in result.stdout.splitlines() if ' sees RANK=' in line]
    check(sorted(seen) == ['[rank 0] task 0 sees RANK=0 LOCAL_RANK=0 WORLD_SIZE=2',
                           '[rank 1] task 1 sees RANK=1 LOCAL_RANK=1 WORLD_SIZE=2'],
          f'{env.name}: the followed log attributes each task\'s line to its rank: {result.stdout!r}')
    logs = env.cli('job', 'logs', str(job['id']))
    check(sorted(line for line in logs.stdout.splitlines() if ' sees RANK=' in line) == sorted(seen),
          f'{env.name}: job logs prints them the same: {logs.stdout!r} {logs.stderr}')
    cache = os.path.join(env.env['XDG_CACHE_HOME'], 'sightline', 'targets')
    pulled = []
    for root, _, files in os.walk(cache):
        pulled += [os.path.join(root, f) for f in files if f == 'hello.txt']
    ranks = sorted(os.path.basename(os.path.dirname(p)) for p in pulled)
    check(ranks == ['rank_0', 'rank_1'], f'{env.name}: each rank\'s output folder is pulled: {pulled}')


def check_failure(env):
    result = env.run_job('--', 'sh', '-c', 'echo failing; exit 3')
    job = env.jobs()[0]
    check(result.returncode == 3 and 'failing' in result.stdout,
          f'{env.name}: job run exits with the job\'s exit code 3 ({result.returncode})')
    check(job['backend_state'] == 'FAILED' and job['state'] == 'failed' and job['exit_code'] == 3,
          f'{env.name}: the history says FAILED with 3: {job}')


def check_queue(env, slurm, busy_cpus):
    hog = env.run_job('--ntasks', str(slurm.cpus - busy_cpus), '--detach', '--', 'sleep', '60')
    hog_id = hog.stdout.strip()
    check(hog.returncode == 0 and hog_id.isdigit(), f'{env.name}: a job holding every CPU is submitted ({hog.stderr})')
    waiting = env.popen_job('--ntasks', '1', '--', 'sh', '-c', 'echo ran after the other')
    pending_seen = False
    deadline = time.monotonic() + 20
    lines = []
    fd = waiting.stderr.fileno()
    os.set_blocking(fd, False)
    while time.monotonic() < deadline and not pending_seen:
        time.sleep(0.3)
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            chunk = b''
        lines.append(chunk.decode('utf-8', 'replace'))
        pending_seen = 'PENDING: waiting for the nodes it asked for to become free (Resources)' in ''.join(lines)
    check(pending_seen, f'{env.name}: the queued job is PENDING with its reason in words: {"".join(lines)[-800:]}')
    queued = env.jobs()[0]
    hog_job = env.job(hog_id)
    check(hog_job['backend_state'] == 'RUNNING' and hog_job['state'] == 'running',
          f'{env.name}: job list asks Slurm about the detached job: RUNNING: {hog_job}')
    check(queued['backend_state'] == 'PENDING' and queued['backend_reason'] == 'Resources' and queued['state'] == 'queued',
          f'{env.name}: the history has it PENDING (Resources): {queued}')
    stop = env.cli('job', 'stop', hog_id)
    check(stop.returncode == 0, f'{env.name}: job stop cancels the job holding the CPUs ({stop.stderr})')
    os.set_blocking(fd, True)
    out, err = waiting.communicate(timeout=60)
    check(waiting.returncode == 0 and 'ran after the other' in out,
          f'{env.name}: the queued job runs once the other is cancelled ({waiting.returncode}: {err[-500:]})')
    hog_job = env.job(hog_id)
    check(hog_job['backend_state'] == 'CANCELLED' and hog_job['state'] == 'cancelled',
          f'{env.name}: the cancelled job is CANCELLED in the history: {hog_job}')


def check_restart(env):
    started = env.run_job('--detach', '--', 'sh', '-c', 'echo first; sleep 3; echo second')
    job_id = started.stdout.strip()
    check(started.returncode == 0 and job_id.isdigit(), f'{env.name}: --detach prints the job id ({started.stderr})')
    # A new process, as after Sightline was closed and opened again.
    job = env.job(job_id)
    check(job['backend'] == 'slurm' and job['backend_job_id'] and job['finished_at'] is None,
          f'{env.name}: job list finds the detached Slurm job: {job}')
    follow = env.cli('job', 'logs', job_id, '--follow', timeout=60)
    check(follow.returncode == 0 and follow.stdout == 'first\nsecond\n',
          f'{env.name}: job logs --follow follows it to its end: {follow.stdout!r} {follow.stderr}')
    job = env.job(job_id)
    check(job['backend_state'] == 'COMPLETED' and job['state'] == 'succeeded' and job['exit_code'] == 0,
          f'{env.name}: whoever saw it end saved COMPLETED: {job}')


def check_refused(env):
    result = env.run_job('--partition', 'nosuchpartition', '--', 'true')
    check(result.returncode == 1 and 'Slurm refused the job: ' in result.stderr and
          'Batch job submission failed: Invalid partition name specified' in result.stderr and
          'Lost track' not in result.stderr, f'{env.name}: a refused sbatch says Slurm\'s reason: {result.stderr[-300:]}')
    try:
        too_many = env.run_job('--nodes', '64', '--', 'true', timeout=30)
        check(too_many.returncode == 1 and 'Slurm refused the job: ' in too_many.stderr,
              f'{env.name}: asking for more nodes than there are is refused: {too_many.stderr[-300:]}')
    except subprocess.TimeoutExpired:
        check(False, f'{env.name}: asking for more nodes than there are is refused, not queued')
    job = env.jobs()[0]
    check(job['state'] == 'failed' and job['backend_job_id'] is None, f'{env.name}: the refused job failed at once: {job}')
    hostile = env.run_job('--account', 'x;touch PWNED', '--', 'true')
    check(hostile.returncode == 2 and not os.path.exists(os.path.join(env.project, 'PWNED')),
          f'{env.name}: a hostile account never reaches the script ({hostile.stderr})')


def start_timeout(env):
    result = env.run_job('--time', '1', '--detach', '--', 'sh', '-c', 'echo started; sleep 300')
    check(result.returncode == 0, f'{env.name}: a job with a one minute limit is submitted ({result.stderr})')
    return result.stdout.strip()


def check_timeout(env, job_id):
    start = time.monotonic()
    follow = env.cli('job', 'logs', job_id, '--follow', timeout=150)
    job = env.job(job_id)
    check(follow.returncode == 0 and 'started' in follow.stdout and job['backend_state'] == 'TIMEOUT' and
          job['state'] == 'failed' and job['exit_code'] not in (None, 0),
          f'{env.name}: the job past its time limit is TIMEOUT ({time.monotonic() - start:.0f} s): {job}')


def run_suite(env, slurm, timeout_job=None):
    check_complete(env)
    check_two_tasks(env)
    check_failure(env)
    # The job running into its time limit holds one CPU meanwhile.
    check_queue(env, slurm, 1 if timeout_job is not None else 0)
    check_refused(env)
    check_restart(env)
    if timeout_job is not None:
        check_timeout(env, timeout_job)


def ssh_env(sshd, slurm, tmp):
    known_hosts = os.path.join(tmp, 'known_hosts')
    with open(sshd.host_key_pub, encoding='utf-8') as f:
        key = f.read().split()
    with open(known_hosts, 'w', encoding='utf-8') as f:
        f.write(f'[127.0.0.1]:{sshd.port} {key[0]} {key[1]}\n')
    env = Env('fixture', tmp, slurm, sshd)
    # A login node's shell finds Slurm through the target's setup.
    result = subprocess.run([CLI, 'target', 'add', 'fixture', '--host', '127.0.0.1', '--port', str(sshd.port),
                             '--user', sshd.user, '--identity', sshd.key, '--known-hosts', known_hosts,
                             '--base-dir', env.base, '--env-setup', f'export SLURM_CONF={slurm.conf}',
                             '--db', env.db],
                            capture_output=True, text=True, env=env.env, timeout=60)
    check(result.returncode == 0, f'target add: {result.stderr}')
    return env


def main():
    if not CLI:
        print('usage: SL_CLI=… check-cli-slurm.py', file=sys.stderr)
        return 2
    why = slurm_fixture.why_unavailable()
    if why is not None:
        print(f'SKIP: {why}', file=sys.stderr)
        return 77

    start = time.monotonic()
    with slurm_fixture.SlurmFixture() as slurm:
        try:
            with tempfile.TemporaryDirectory(prefix='sl-slurm-local-') as tmp:
                local = Env('local', tmp, slurm)
                # The time limit runs out while the other cases run.
                timeout_job = start_timeout(local)
                run_suite(local, slurm, timeout_job)

            if sshd_fixture.available():
                with sshd_fixture.SshdFixture() as sshd, tempfile.TemporaryDirectory(prefix='sl-slurm-ssh-') as tmp:
                    os.chmod(tmp, 0o755)
                    run_suite(ssh_env(sshd, slurm, tmp), slurm)
            else:
                print('SKIP (ssh part): sshd is missing', file=sys.stderr)
        finally:
            if failures:
                print(slurm.logs(), file=sys.stderr)

    print(f'{len(failures)} failures in {time.monotonic() - start:.0f} s')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
