#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# sightline-cli job run --config NAME --dry-run: a run configuration's
# command, project and Slurm options (its "slurm" group) make the batch
# script; options on the command line override them; --backend direct
# starts it directly; a missing or ambiguous name and a damaged group.

import json
import os
import sqlite3
import subprocess
import sys
import tempfile

CLI = os.environ.get('SL_CLI')
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f'FAIL: {message}', file=sys.stderr)
    else:
        print(f'ok: {message}')
    return condition


def cli(db, *args):
    args = list(args)
    at = args.index('--') if '--' in args else len(args)
    return subprocess.run([CLI, *args[:at], '--db', db, *args[at:]], capture_output=True, text=True, timeout=60)


def make_workspace(tmp):
    db = os.path.join(tmp, 'workspace.db')
    created = cli(db, 'workspace')
    assert created.returncode == 0, created.stderr
    projects = {}
    for name in ('alpha', 'beta'):
        folder = os.path.join(tmp, name)
        os.makedirs(folder)
        projects[name] = folder
    slurm = {'enabled': True, 'nodes': 2, 'ntasks': 4, 'ntasks_per_node': 2, 'partition': 'ascend',
             'time': '30', 'account': 'team-a', 'launcher': 'srun', 'per_task_logs': True}
    with sqlite3.connect(db) as con:
        for pid, name in enumerate(('alpha', 'beta'), start=1):
            con.execute('INSERT INTO projects (id, name, local_folder) VALUES (?, ?, ?)', (pid, name, projects[name]))
        con.execute("INSERT INTO run_configs (project_id, name, kind, command, arguments, environment, options) "
                    "VALUES (1, 'train', 'train', 'python3', '[\"train.py\",\"--epochs\",\"3\"]', '[\"SEED=7\"]', ?)",
                    (json.dumps({'slurm': slurm, 'profile': {'level': 'l1'}}),))
        con.execute("INSERT INTO run_configs (project_id, name, kind, command, options) "
                    "VALUES (1, 'direct', 'train', 'true', '{\"slurm\":{\"enabled\":false,\"nodes\":3}}')")
        con.execute("INSERT INTO run_configs (project_id, name, kind, command, options) "
                    "VALUES (1, 'shared', 'train', 'true', '{}')")
        con.execute("INSERT INTO run_configs (project_id, name, kind, command, options) "
                    "VALUES (1, 'profiled', 'profile', 'python3', "
                    "'{\"profile\":{\"framework\":\"msprof\",\"options\":{\"--aic-metrics\":\"Memory\"}}}')")
        con.execute("INSERT INTO run_configs (project_id, name, kind, command, options) "
                    "VALUES (2, 'shared', 'train', 'true', '{}')")
        con.execute("INSERT INTO run_configs (project_id, name, kind, command, options) "
                    "VALUES (2, 'damaged', 'train', 'true', "
                    "'{\"slurm\":{\"enabled\":true,\"nodes\":-1,\"ntasks\":\"8\",\"partition\":\"a b\",\"launcher\":7}}')")
    return db, projects


def main():
    if not CLI:
        print('SL_CLI is not set', file=sys.stderr)
        return 77
    with tempfile.TemporaryDirectory(prefix='sl-job-config-') as tmp:
        db, projects = make_workspace(tmp)

        result = cli(db, 'job', 'run', '--config', 'train', '--dry-run')
        out = result.stdout
        check(result.returncode == 0, f'--config train --dry-run exits 0 ({result.returncode}: {result.stderr})')
        check('#SBATCH --nodes=2\n#SBATCH --ntasks=4\n#SBATCH --ntasks-per-node=2\n' in out,
              'the configuration\'s nodes and tasks are in the script')
        check('#SBATCH --partition=ascend\n#SBATCH --time=30\n#SBATCH --account=team-a\n' in out,
              'its partition, time and account too')
        check('--output=' in out and '%x-%j-%t.out' in out, 'its per-task logs too')
        check(out.count('#!/bin/sh') == 1 and out.count('#SBATCH --nodes=2') == 1,
              'the dry run prints the script once')
        last = out.rstrip('\n').split('\n')[-1]
        check(last.startswith('cd -- ') and ' && sbatch --parsable --output=' in last and last.endswith(' job.sbatch'),
              f'then the sbatch call that submits it: {last!r}')
        check("sightline-task 'env' 'SEED=7' 'python3' 'train.py' '--epochs' '3'\n" in out,
              'the command, with its environment, comes from the configuration')

        result = cli(db, 'job', 'run', '--config', 'train', '--partition', 'gpu', '--nodes', '1', '--ntasks', '2',
                     '--dry-run')
        check(result.returncode == 0, f'options override the configuration ({result.stderr})')
        check('#SBATCH --nodes=1\n' in result.stdout and '#SBATCH --partition=gpu\n' in result.stdout and
              '#SBATCH --ntasks-per-node=2\n' in result.stdout and '#SBATCH --account=team-a\n' in result.stdout,
              'the flags given win, the others stay')

        result = cli(db, 'job', 'run', '--config', 'train', '--project', projects['alpha'], '--dry-run',
                     '--', 'sh', '-c', 'echo other')
        check(result.returncode == 0 and 'echo other' in result.stdout and 'train.py' not in result.stdout,
              f'a COMMAND after -- replaces the configuration\'s ({result.stderr})')

        result = cli(db, 'job', 'run', '--config', 'train', '--backend', 'direct', '--dry-run')
        check(result.returncode == 0 and '#SBATCH' not in result.stdout and 'sbatch' not in result.stdout,
              f'--backend direct starts it directly ({result.returncode}: {result.stderr})')

        result = cli(db, 'job', 'run', '--config', 'direct', '--dry-run')
        check(result.returncode == 0 and 'sbatch' not in result.stdout,
              f'a configuration last started directly is started directly ({result.stderr})')
        result = cli(db, 'job', 'run', '--config', 'direct', '--backend', 'slurm', '--dry-run')
        check(result.returncode == 0 and '#SBATCH --nodes=3\n' in result.stdout,
              f'--backend slurm uses its saved options ({result.stderr})')

        # A profile configuration's choices would be lost in a plain run.
        result = cli(db, 'job', 'run', '--config', 'profiled', '--dry-run')
        check(result.returncode == 1 and 'profile-run' in result.stderr and 'profiled' in result.stderr,
              f'a profile configuration is sent to the Profile dialog or profile-run ({result.returncode}: {result.stderr})')

        result = cli(db, 'job', 'run', '--config', 'nope', '--dry-run')
        check(result.returncode == 1 and 'nope' in result.stderr, f'an unknown name is refused ({result.stderr})')
        result = cli(db, 'job', 'run', '--config', 'shared', '--dry-run')
        check(result.returncode == 1 and '--project' in result.stderr,
              f'a name in two projects asks for --project ({result.stderr})')
        result = cli(db, 'job', 'run', '--config', 'shared', '--project', projects['beta'], '--dry-run')
        check(result.returncode == 0, f'--project chooses between them ({result.stderr})')

        # Bad members are dropped; the partition with a space is refused
        # by the same check the dialog uses, naming it.
        result = cli(db, 'job', 'run', '--config', 'damaged', '--dry-run')
        check(result.returncode == 2 and 'partition' in result.stderr,
              f'a damaged group is refused with the reason ({result.returncode}: {result.stderr})')
        result = cli(db, 'job', 'run', '--config', 'damaged', '--partition', 'ok', '--dry-run')
        check(result.returncode == 0 and '--nodes' not in result.stdout and '#SBATCH --ntasks' not in result.stdout,
              f'its bad counts are left out ({result.returncode}: {result.stderr})')

    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
