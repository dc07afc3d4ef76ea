#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A throwaway single-machine Slurm for the integration tests.

As root, starts its own munged (own key, own socket) and slurmctld and
slurmd with a slurm.conf written into a temporary folder: state, spool,
logs and pid files all live there, the daemons listen on free ports of
their own, ProctrackType=proctrack/linuxproc and TaskPlugin=task/none so
no cgroups are needed, one node with this machine's CPUs in one default
partition, no accounting (so sacct has no data and jobs are followed
through scontrol and the exit code file), MinJobAge short and KillWait
low so ended and cancelled jobs go quickly. Everything is stopped by pid
on exit and the folder removed.

As a module: `with SlurmFixture() as slurm: ...`, with slurm.env() the
environment Slurm's commands need (SLURM_CONF). why_unavailable() says why a
test must be skipped (not root, or Slurm or munge not installed).
"""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

SLURMCTLD = '/usr/sbin/slurmctld'
SLURMD = '/usr/sbin/slurmd'
MUNGED = '/usr/sbin/munged'
SKIP = 77


def why_unavailable():
    if os.geteuid() != 0:
        return 'the Slurm tests run daemons as root'
    for path in (SLURMCTLD, SLURMD, MUNGED):
        if not os.access(path, os.X_OK):
            return f'{path} is missing (apt-get install slurm-wlm munge)'
    for command in ('sbatch', 'squeue', 'scontrol', 'scancel', 'mungekey'):
        if shutil.which(command) is None and not (command == 'mungekey' and shutil.which('create-munge-key')):
            return f'{command} is missing'
    return None


def free_ports(count):
    sockets, ports = [], []
    for _ in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(('127.0.0.1', 0))
        sockets.append(s)
        ports.append(s.getsockname()[1])
    for s in sockets:
        s.close()
    return ports


def cpu_count():
    return len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else (os.cpu_count() or 1)


class SlurmFixture:
    def __init__(self):
        self.tmp = None
        self.pids = {}
        self.node = socket.gethostname().split('.')[0]
        # More CPUs than the machine has, so a few small jobs run side by
        # side on a small test machine.
        self.cpus = max(8, cpu_count())

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()

    def path(self, *names):
        return os.path.join(self.tmp, *names)

    @property
    def conf(self):
        return self.path('slurm.conf')

    def env(self, base=None):
        env = dict(base if base is not None else os.environ)
        env['SLURM_CONF'] = self.conf
        return env

    def start(self):
        self.tmp = tempfile.mkdtemp(prefix='sl-slurm-')
        # Munge wants folders only its user can write into.
        os.chmod(self.tmp, 0o755)
        for name in ('state', 'spool', 'munge'):
            os.makedirs(self.path(name), mode=0o700)
        self.start_munge()
        self.write_conf()
        self.start_daemon('slurmctld', [SLURMCTLD, '-D', '-i', '-f', self.conf])
        self.wait_for(lambda: self.scontrol('ping').returncode == 0, 'slurmctld to answer')
        self.start_daemon('slurmd', [SLURMD, '-D', '-f', self.conf, '-N', self.node])
        self.wait_for(self.node_is_idle, f'node {self.node} to be idle')

    def start_munge(self):
        key = self.path('munge', 'munge.key')
        if shutil.which('mungekey'):
            subprocess.run(['mungekey', '--create', '--keyfile', key], check=True, timeout=30,
                           capture_output=True)
        else:
            with open(key, 'wb') as f:
                f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        self.munge_socket = self.path('munge', 'munge.socket')
        self.start_daemon('munged', [MUNGED, '--foreground', '--force', '--key-file', key,
                                     '--socket', self.munge_socket,
                                     '--pid-file', self.path('munge', 'munged.pid'),
                                     '--log-file', self.path('munge', 'munged.log'),
                                     '--seed-file', self.path('munge', 'munged.seed')])
        self.wait_for(lambda: os.path.exists(self.munge_socket), 'munged to listen')

    def write_conf(self):
        ctld_port, slurmd_port = free_ports(2)
        with open(self.conf, 'w', encoding='utf-8') as f:
            f.write(f'''ClusterName=sightline-test
SlurmctldHost={self.node}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={self.munge_socket}
StateSaveLocation={self.path('state')}
SlurmdSpoolDir={self.path('spool')}
SlurmctldPidFile={self.path('slurmctld.pid')}
SlurmdPidFile={self.path('slurmd.pid')}
SlurmctldLogFile={self.path('slurmctld.log')}
SlurmdLogFile={self.path('slurmd.log')}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
LaunchParameters=use_interactive_step
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmdParameters=config_overrides
EnforcePartLimits=ALL
MinJobAge=30
KillWait=2
OverTimeLimit=0
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=30
MessageTimeout=10
PlugStackConfig={self.path('plugstack.conf')}
NodeName={self.node} NodeAddr=127.0.0.1 CPUs={self.cpus} State=UNKNOWN
PartitionName=debug Nodes={self.node} Default=YES MaxTime=INFINITE State=UP
''')
        open(self.path('plugstack.conf'), 'w').close()

    def start_daemon(self, name, argv):
        log = open(self.path(f'{name}.out'), 'a', encoding='utf-8')
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                   env=self.env(), start_new_session=True)
        log.close()
        self.pids[name] = process

    def scontrol(self, *args):
        return subprocess.run(['scontrol', *args], capture_output=True, text=True, env=self.env(), timeout=30)

    def node_is_idle(self):
        shown = self.scontrol('show', 'node', self.node, '-o')
        return shown.returncode == 0 and 'State=IDLE' in shown.stdout

    def wait_for(self, condition, what, seconds=30):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for name, process in self.pids.items():
                if process.poll() is not None:
                    raise RuntimeError(f'{name} exited with {process.returncode}:\n{self.logs()}')
            if condition():
                return
            time.sleep(0.2)
        raise RuntimeError(f'timed out waiting for {what}:\n{self.logs()}')

    def logs(self):
        text = []
        for name in ('munge/munged.log', 'slurmctld.log', 'slurmd.log', 'munged.out', 'slurmctld.out', 'slurmd.out'):
            try:
                with open(self.path(name), encoding='utf-8', errors='replace') as f:
                    text.append(f'--- {name} ---\n{f.read()[-3000:]}')
            except OSError:
                pass
        return '\n'.join(text)

    def stop(self):
        # slurmd first: it ends the job steps it started.
        for name in ('slurmd', 'slurmctld', 'munged'):
            process = self.pids.pop(name, None)
            if process is None or process.poll() is not None:
                continue
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        self.kill_leftover_steps()
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = None

    def kill_leftover_steps(self):
        """slurmstepd and job processes that outlived slurmd: everything
        that has this fixture's SLURM_CONF in its environment (jobs get
        the environment they were submitted from)."""
        if self.tmp is None:
            return
        for entry in os.listdir('/proc'):
            if not entry.isdigit():
                continue
            try:
                with open(f'/proc/{entry}/environ', 'rb') as f:
                    environ = f.read()
            except OSError:
                continue
            if int(entry) != os.getpid() and f'SLURM_CONF={self.conf}\0'.encode() in environ + b'\0':
                try:
                    os.kill(int(entry), signal.SIGKILL)
                except ProcessLookupError:
                    pass
