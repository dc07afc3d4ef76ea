#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A throwaway OpenSSH server on 127.0.0.1 for the integration tests.

Everything lives in a temporary folder: the server's own host key, a user
key pair and a passphrase-protected one whose public halves are the only
authorized keys, a third key pair that is not authorized, the sshd_config and the server log. The server
runs as the current user (root in CI, anyone else on a developer's
machine), on a free port, and is stopped and removed on exit.

As a module: `with SshdFixture() as sshd: ...`.
As a program: `sshd_fixture.py --run COMMAND [ARGS...]` starts the server,
runs COMMAND with SL_SSH_HOST, SL_SSH_PORT, SL_SSH_USER, SL_SSH_KEY,
SL_SSH_WRONG_KEY, SL_SSH_PASSPHRASE_KEY (protected by SL_SSH_PASSPHRASE),
SL_SSH_HOST_KEY_PUB and SL_SSH_TMP set, and exits with
its status. Exit status 77 (skipped) when sshd or ssh-keygen is missing.
"""
import getpass
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SSHD = '/usr/sbin/sshd'
SKIP = 77


def available():
    return os.access(SSHD, os.X_OK) and shutil.which('ssh-keygen') is not None


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


PASSPHRASE = 'correct horse battery staple'


def keygen(path, comment, passphrase=''):
    subprocess.run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', passphrase, '-C', comment, '-f', path],
                   check=True, stdin=subprocess.DEVNULL, timeout=30)


def fingerprint(pub_path):
    """The SHA256 fingerprint as ssh-keygen -l prints it."""
    out = subprocess.run(['ssh-keygen', '-l', '-E', 'sha256', '-f', pub_path],
                         check=True, capture_output=True, text=True, timeout=30).stdout
    return out.split()[1]


class SshdFixture:
    def __init__(self):
        self.tmp = None
        self.port = None
        self.process = None
        self.user = getpass.getuser()
        self.host_key_generation = 0

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.tmp, name)

    @property
    def key(self):
        return self.path('user_key')

    @property
    def wrong_key(self):
        return self.path('wrong_key')

    @property
    def passphrase_key(self):
        return self.path('passphrase_key')

    @property
    def host_key_pub(self):
        return self.host_key + '.pub'

    def start(self):
        self.tmp = tempfile.mkdtemp(prefix='sl-sshd-')
        os.chmod(self.tmp, 0o755)
        keygen(self.key, 'sightline-test-user')
        keygen(self.wrong_key, 'sightline-test-wrong')
        keygen(self.passphrase_key, 'sightline-test-passphrase', PASSPHRASE)
        with open(self.path('authorized_keys'), 'w', encoding='utf-8') as out:
            for key in (self.key, self.passphrase_key):
                with open(key + '.pub', encoding='utf-8') as f:
                    out.write(f.read())
        os.chmod(self.path('authorized_keys'), 0o644)
        self.new_host_key()
        # The free port may be taken by someone else before sshd binds it.
        for attempt in range(3):
            self.port = free_port()
            try:
                self.launch()
                return
            except RuntimeError:
                self.stop()
                if attempt == 2:
                    raise

    def new_host_key(self):
        self.host_key_generation += 1
        self.host_key = self.path(f'host_key_{self.host_key_generation}')
        keygen(self.host_key, 'sightline-test-host')

    def write_config(self):
        config = self.path('sshd_config')
        with open(config, 'w', encoding='utf-8') as f:
            f.write(f'''ListenAddress 127.0.0.1
Port {self.port}
HostKey {self.host_key}
PidFile {self.path('sshd.pid')}
AuthorizedKeysFile {self.path('authorized_keys')}
StrictModes no
UsePAM no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers {self.user}
Subsystem sftp internal-sftp
LogLevel VERBOSE
MaxStartups 50
''')
        return config

    def launch(self):
        config = self.write_config()
        if os.geteuid() == 0:
            # The privilege separation folder that the package normally makes.
            os.makedirs('/run/sshd', mode=0o755, exist_ok=True)
        log = open(self.path('sshd.log'), 'a', encoding='utf-8')
        self.process = subprocess.Popen([SSHD, '-D', '-e', '-f', config], stdin=subprocess.DEVNULL,
                                        stdout=log, stderr=log, start_new_session=True)
        log.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f'sshd exited with {self.process.returncode}:\n{self.log()}')
            try:
                with socket.create_connection(('127.0.0.1', self.port), timeout=1) as s:
                    s.settimeout(2)
                    if s.recv(64).startswith(b'SSH-'):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f'sshd did not start on port {self.port}:\n{self.log()}')

    def restart_with_new_host_key(self):
        self.stop()
        self.new_host_key()
        self.launch()

    def stop(self):
        if self.process is None:
            return
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self.process = None

    def log(self):
        try:
            with open(self.path('sshd.log'), encoding='utf-8', errors='replace') as f:
                return f.read()
        except OSError:
            return ''

    def environment(self):
        env = dict(os.environ)
        env.pop('SSH_AUTH_SOCK', None)
        env.update({
            'SL_SSH_HOST': '127.0.0.1',
            'SL_SSH_PORT': str(self.port),
            'SL_SSH_USER': self.user,
            'SL_SSH_KEY': self.key,
            'SL_SSH_WRONG_KEY': self.wrong_key,
            'SL_SSH_PASSPHRASE_KEY': self.passphrase_key,
            'SL_SSH_PASSPHRASE': PASSPHRASE,
            'SL_SSH_HOST_KEY_PUB': self.host_key_pub,
            'SL_SSH_TMP': self.tmp,
            # Keeps ~/.ssh of whoever runs the tests out of them.
            'HOME': self.path('home'),
        })
        os.makedirs(env['HOME'], exist_ok=True)
        return env


def main(argv):
    if len(argv) < 3 or argv[1] != '--run':
        print(f'usage: {argv[0]} --run COMMAND [ARGS...]', file=sys.stderr)
        return 2
    if not available():
        print(f'SKIP: {SSHD} or ssh-keygen is missing', file=sys.stderr)
        return SKIP
    with SshdFixture() as sshd:
        result = subprocess.run(argv[2:], env=sshd.environment(), timeout=300)
        if result.returncode not in (0, SKIP):
            print('--- sshd log ---', file=sys.stderr)
            print(sshd.log(), file=sys.stderr)
        return result.returncode


if __name__ == '__main__':
    sys.exit(main(sys.argv))
