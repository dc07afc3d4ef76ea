#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# sightline-cli target against a real sshd (sshd_fixture.py): an unknown
# host key refused, accepted with --accept-new-host-key and remembered in
# the target's known_hosts file, then a changed host key refused with the
# warning; key login; a wrong key; a dead port and a silent one failing
# fast; no secret stored.

import json
import os
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sshd_fixture  # noqa: E402

CLI = os.environ.get('SL_CLI')

# A ProxyCommand: copies standard input and output to and from a TCP port.
RELAY = """import os, socket, sys, threading
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
def up():
    while True:
        data = os.read(0, 65536)
        if not data:
            s.shutdown(socket.SHUT_WR)
            return
        s.sendall(data)
threading.Thread(target=up, daemon=True).start()
while True:
    data = s.recv(65536)
    if not data:
        break
    os.write(1, data)
"""
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f'FAIL: {message}', file=sys.stderr)
    return condition


class Runner:
    def __init__(self, sshd):
        self.sshd = sshd
        self.env = sshd.environment()
        self.db = sshd.path('workspace.db')

    def run(self, *args, timeout=60):
        start = time.monotonic()
        result = subprocess.run([CLI, 'target', *args, '--db', self.db], capture_output=True, text=True,
                                env=self.env, timeout=timeout)
        result.seconds = time.monotonic() - start
        return result

    def test_json(self, name, *extra):
        result = self.run('test', name, '--json', *extra)
        try:
            data = json.loads(result.stdout)
        except json.JSONDecodeError:
            check(False, f'test {name}: no JSON: {result.stdout!r} {result.stderr!r}')
            return result, None
        check(data['ok'] == (result.returncode == 0), f'test {name}: ok and exit code disagree: {result.returncode}')
        return result, data


def steps_by_id(data):
    return {step['step']: step for step in data['steps']}


def check_add_and_list(runner, sshd, known_hosts):
    result = runner.run('add', 'fixture', '--host', '127.0.0.1', '--port', str(sshd.port), '--user', sshd.user,
                        '--identity', sshd.key, '--known-hosts', known_hosts, '--base-dir', sshd.tmp,
                        '--env-setup', 'export SL_FROM_SETUP=1 # comment')
    check(result.returncode == 0, f'add: {result.returncode} {result.stderr}')
    again = runner.run('add', 'fixture', '--host', 'elsewhere')
    check(again.returncode == 1 and again.stderr, f'adding a taken name: {again.returncode} {again.stderr!r}')
    missing = runner.run('add', 'nohost')
    check(missing.returncode == 2 and '--host' in missing.stderr, f'add without --host: {missing.stderr!r}')

    listed = runner.run('list', '--json')
    check(listed.returncode == 0, f'list: {listed.stderr}')
    targets = {t['name']: t for t in json.loads(listed.stdout)}
    target = targets.get('fixture')
    if check(target is not None, f'listed targets: {targets!r}'):
        check(target['kind'] == 'ssh' and target['port'] == sshd.port and target['user'] == sshd.user,
              f'stored target: {target!r}')
        check(target['identity_file'] == sshd.key and target['known_hosts_file'] == known_hosts,
              f'stored paths: {target!r}')
        check(target['base_dir'] == sshd.tmp and target['env_setup'].startswith('export SL_FROM_SETUP'),
              f'stored folder and setup: {target!r}')
        for key in target:
            check(not any(word in key for word in ('password', 'passphrase', 'secret')), f'secret-like field {key}')
    text = runner.run('list')
    check('fixture' in text.stdout and f'127.0.0.1:{sshd.port}' in text.stdout, f'list text: {text.stdout!r}')


def check_host_keys(runner, sshd, known_hosts):
    expected = sshd_fixture.fingerprint(sshd.host_key_pub)

    # Unknown: refused, the fingerprint shown, nothing written.
    result, data = runner.test_json('fixture')
    check(result.returncode == 1, f'unknown host key: exit {result.returncode}')
    if data:
        check(data['error']['code'] == 'host-key-unknown', f'unknown host key: {data["error"]!r}')
        check(data['host_key']['fingerprint'] == expected, f'fingerprint {data["host_key"]!r}, expected {expected}')
        check(data['host_key']['type'] == 'ssh-ed25519', f'key type {data["host_key"]!r}')
        check(steps_by_id(data)['auth']['status'] == 'not-run', 'logged in with an unknown host key')
    check(not os.path.exists(known_hosts), 'known_hosts written without acceptance')
    text = runner.run('test', 'fixture')
    check(text.returncode == 1 and expected in text.stdout and '--accept-new-host-key' in text.stdout,
          f'unknown host key text: {text.stdout!r}')

    # Accepted and remembered in the target's own file.
    result, data = runner.test_json('fixture', '--accept-new-host-key')
    check(result.returncode == 0, f'accept-new-host-key: exit {result.returncode} {result.stdout} {result.stderr}')
    if data:
        steps = steps_by_id(data)
        for step in ('resolve', 'connect', 'host-key', 'auth', 'shell', 'disk'):
            check(steps[step]['status'] == 'ok', f'step {step}: {steps[step]!r}')
        check('added to' in steps['host-key']['detail'], f'host key step: {steps["host-key"]!r}')
        check(steps['npu-smi']['status'] in ('ok', 'warning'), f'npu-smi step: {steps["npu-smi"]!r}')
        check(steps['npu-smi']['status'] == 'ok' or steps['npu-smi']['hint'], 'a missing npu-smi says what to do')
    try:
        with open(known_hosts, encoding='utf-8') as f:
            remembered = f.read()
    except OSError:
        remembered = ''
    check(f'[127.0.0.1]:{sshd.port}' in remembered and 'ssh-ed25519' in remembered,
          f'known_hosts after accepting: {remembered!r}')

    # Remembered: a plain test passes, with step lines in the text.
    text = runner.run('test', 'fixture')
    check(text.returncode == 0, f'remembered host key: {text.returncode} {text.stdout} {text.stderr}')
    check('matches' in text.stdout and 'Authentication' in text.stdout, f'text steps: {text.stdout!r}')

    # Changed: refused with the warning, even when new keys may be accepted.
    sshd.restart_with_new_host_key()
    result, data = runner.test_json('fixture', '--accept-new-host-key')
    check(result.returncode == 1, f'changed host key: exit {result.returncode}')
    if data:
        check(data['error']['code'] == 'host-key-changed', f'changed host key: {data["error"]!r}')
        check('intercepting' in data['error']['message'], f'no warning: {data["error"]["message"]!r}')
        check(steps_by_id(data)['auth']['status'] == 'not-run', 'logged in with a changed host key')
    text = runner.run('test', 'fixture')
    check(text.returncode == 1 and 'WARNING' in text.stdout and 'ssh-keygen -R' in text.stdout,
          f'changed host key text: {text.stdout!r}')
    with open(known_hosts, encoding='utf-8') as f:
        check(f.read() == remembered, 'known_hosts changed after a changed host key')


def check_auth(runner, sshd):
    # A file of its own: the first one holds the host key before the restart.
    known_hosts = sshd.path('auth_known_hosts')
    runner.run('add', 'wrong-key', '--host', '127.0.0.1', '--port', str(sshd.port), '--user', sshd.user,
               '--identity', sshd.wrong_key, '--known-hosts', known_hosts)
    result, data = runner.test_json('wrong-key', '--accept-new-host-key')
    check(result.returncode == 1, f'wrong key: exit {result.returncode}')
    if data:
        check(data['error']['code'] == 'auth', f'wrong key: {data["error"]!r}')
        check('refused' in data['error']['message'] and sshd.wrong_key in data['error']['message'],
              f'wrong key message: {data["error"]["message"]!r}')
        auth = steps_by_id(data)['auth']
        check(auth['status'] == 'failed' and 'authorized_keys' in (auth['hint'] or ''), f'auth step: {auth!r}')

    runner.run('add', 'no-key-file', '--host', '127.0.0.1', '--port', str(sshd.port),
               '--identity', sshd.path('not-there'), '--known-hosts', known_hosts)
    result, data = runner.test_json('no-key-file', '--accept-new-host-key')
    if data:
        check(data['error']['code'] == 'auth' and 'does not exist' in data['error']['message'],
              f'missing key file: {data["error"]!r}')


def check_passphrase_key(runner, sshd):
    # The command line cannot ask for a passphrase: it says to use ssh-agent.
    runner.run('add', 'passphrase', '--host', '127.0.0.1', '--port', str(sshd.port), '--user', sshd.user,
               '--identity', sshd.passphrase_key, '--known-hosts', sshd.path('passphrase_known_hosts'))
    result, data = runner.test_json('passphrase', '--accept-new-host-key')
    check(result.returncode == 1, f'passphrase key: exit {result.returncode}')
    if data:
        check(data['error']['code'] == 'auth' and 'ssh-agent' in data['error']['message'],
              f'passphrase key: {data["error"]!r}')


def check_config_alias(runner, sshd):
    # A Host alias of an ssh_config file gives the address, port and user.
    config = sshd.path('ssh_config')
    with open(config, 'w', encoding='utf-8') as f:
        f.write(f'Host sl-alias\n  HostName 127.0.0.1\n  Port {sshd.port}\n  User {sshd.user}\n')
    runner.run('add', 'alias', '--host', 'sl-alias', '--identity', sshd.key,
               '--known-hosts', sshd.path('alias_known_hosts'))
    result, data = runner.test_json('alias', '--accept-new-host-key', '--ssh-config', config)
    check(result.returncode == 0, f'config alias: exit {result.returncode} {result.stdout} {result.stderr}')
    if data:
        connect = steps_by_id(data)['connect']
        check(f'port {sshd.port}' in (connect['detail'] or ''), f'config alias connect step: {connect!r}')
        check(sshd.user in steps_by_id(data)['auth']['detail'], f'config alias user: {data["steps"]!r}')

    # With a ProxyCommand the host name need not resolve here: libssh runs
    # the command, which relays to the server.
    relay = sshd.path('relay.py')
    with open(relay, 'w', encoding='utf-8') as f:
        f.write(RELAY)
    with open(config, 'a', encoding='utf-8') as f:
        f.write(f'Host sl-proxied\n  HostName sl-unresolvable.invalid\n  Port {sshd.port}\n'
                f'  User {sshd.user}\n  ProxyCommand {sys.executable} {relay} 127.0.0.1 {sshd.port}\n')
    runner.run('add', 'proxied', '--host', 'sl-proxied', '--identity', sshd.key,
               '--known-hosts', sshd.path('proxied_known_hosts'))
    result, data = runner.test_json('proxied', '--accept-new-host-key', '--ssh-config', config)
    check(result.returncode == 0, f'proxy command: exit {result.returncode} {result.stdout} {result.stderr}')
    if data:
        check('proxy' in steps_by_id(data)['resolve']['detail'], f'proxy resolve step: {data["steps"][0]!r}')


def check_dead_ports(runner):
    dead = sshd_fixture.free_port()
    runner.run('add', 'dead', '--host', '127.0.0.1', '--port', str(dead))
    result, data = runner.test_json('dead')
    check(result.returncode == 1 and result.seconds < 5, f'dead port: exit {result.returncode} in {result.seconds:.1f}s')
    if data:
        check(data['error']['code'] == 'connect' and 'refused' in data['error']['message'],
              f'dead port: {data["error"]!r}')
        check(steps_by_id(data)['connect']['hint'] is not None, 'dead port: no hint')

    # A port that accepts and then says nothing: the timeout ends it.
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(('127.0.0.1', 0))
    listener.listen(8)
    held = []
    stop = threading.Event()

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        runner.run('add', 'silent', '--host', '127.0.0.1', '--port', str(listener.getsockname()[1]))
        result, data = runner.test_json('silent', '--timeout', '2')
        check(result.returncode == 1 and result.seconds < 8, f'silent port: exit {result.returncode} in {result.seconds:.1f}s')
        if data:
            check(data['error']['code'] == 'timed-out' and '2 seconds' in data['error']['message'],
                  f'silent port: {data["error"]!r}')
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        listener.close()

    # A host that does not answer at all, as when it is off or a firewall
    # drops the packets: a listener whose queue is full drops the SYN.
    full = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    full.bind(('127.0.0.1', 0))
    full.listen(0)
    filler = socket.create_connection(full.getsockname(), timeout=5)
    try:
        runner.run('add', 'unanswered', '--host', '127.0.0.1', '--port', str(full.getsockname()[1]))
        result, data = runner.test_json('unanswered', '--timeout', '2')
        check(result.returncode == 1 and result.seconds < 8,
              f'unanswered port: exit {result.returncode} in {result.seconds:.1f}s')
        if data:
            check(data['error']['code'] == 'timed-out' and 'No answer' in data['error']['message'],
                  f'unanswered port: {data["error"]!r}')
    finally:
        filler.close()
        full.close()

    runner.run('add', 'nowhere', '--host', 'no-such-host.invalid')
    result, data = runner.test_json('nowhere')
    if data:
        check(data['error']['code'] == 'resolve' and 'no-such-host.invalid' in data['error']['message'],
              f'unknown host name: {data["error"]!r}')

    missing = runner.run('test', 'not-a-target')
    check(missing.returncode == 1 and 'target list' in missing.stderr, f'unknown target: {missing.stderr!r}')


def check_home_known_hosts(runner, sshd):
    # With no --known-hosts, the host key goes to ~/.ssh/known_hosts of
    # $HOME (the fixture's, not the account's home folder): the file the
    # step names is the one written, and the next test reads it.
    home = runner.env['HOME']
    known_hosts = os.path.join(home, '.ssh', 'known_hosts')
    runner.run('add', 'home', '--host', '127.0.0.1', '--port', str(sshd.port), '--user', sshd.user)
    result, data = runner.test_json('home', '--accept-new-host-key')
    if data:
        detail = steps_by_id(data)['host-key']['detail'] or ''
        check(f'added to {known_hosts}' in detail, f'home known_hosts step: {detail!r}')
    check(os.path.exists(known_hosts), f'{known_hosts} not written')
    if os.path.exists(known_hosts):
        check(oct(os.stat(os.path.dirname(known_hosts)).st_mode & 0o777) == oct(0o700), '~/.ssh is not 0700')
        with open(known_hosts, encoding='utf-8') as f:
            check(f'[127.0.0.1]:{sshd.port} ' in f.read(), 'the host key is not in ~/.ssh/known_hosts')

    # The key is known now; "SSH agent" is the target's way of logging in,
    # and no agent runs here: the refusal says so and what to do.
    result, data = runner.test_json('home')
    check(result.returncode == 1, f'no agent: exit {result.returncode}')
    if data:
        steps = steps_by_id(data)
        check(f'matches {known_hosts}' in (steps['host-key']['detail'] or ''), f'host key read back: {steps["host-key"]!r}')
        check(data['error']['code'] == 'auth' and 'SSH_AUTH_SOCK' in data['error']['message'],
              f'no agent: {data["error"]!r}')
        check('ssh-add' in (steps['auth']['hint'] or '') and 'authorized_keys' not in (steps['auth']['hint'] or ''),
              f'no agent hint: {steps["auth"]!r}')

    # A variable left from a session whose agent is gone.
    gone = sshd.path('agent-gone.sock')
    result = subprocess.run([CLI, 'target', 'test', 'home', '--json', '--db', runner.db], capture_output=True,
                            text=True, env=dict(runner.env, SSH_AUTH_SOCK=gone), timeout=60)
    try:
        data = json.loads(result.stdout)
    except json.JSONDecodeError:
        data = None
        check(False, f'agent gone: no JSON: {result.stdout!r} {result.stderr!r}')
    if data:
        check(f'its socket {gone} is not there' in data['error']['message'], f'agent gone: {data["error"]!r}')


def main():
    if not CLI:
        print('SL_CLI is not set', file=sys.stderr)
        return 1
    if not sshd_fixture.available():
        print('SKIP: sshd or ssh-keygen is missing', file=sys.stderr)
        return sshd_fixture.SKIP

    with sshd_fixture.SshdFixture() as sshd:
        runner = Runner(sshd)
        known_hosts = sshd.path('config/known_hosts')
        try:
            check_add_and_list(runner, sshd, known_hosts)
            check_host_keys(runner, sshd, known_hosts)
            check_auth(runner, sshd)
            check_config_alias(runner, sshd)
            check_passphrase_key(runner, sshd)
            check_dead_ports(runner)
            check_home_known_hosts(runner, sshd)
        finally:
            if failures:
                print('--- sshd log ---', file=sys.stderr)
                print(sshd.log()[-4000:], file=sys.stderr)

    if failures:
        print(f'{len(failures)} check(s) failed', file=sys.stderr)
        return 1
    print('all target checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
