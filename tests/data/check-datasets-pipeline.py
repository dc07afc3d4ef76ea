#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sightline-cli pipeline-check --json` on every real *.pipeline of the
datasets folder, one by one and all together: the document's keys and
types, its streams and element counts against Python's json module
(repeated keys kept, as the SDK's check must see them), every problem
positioned inside its file and naming an element of it, and the exit
status 1 exactly when some problem is an error.

Usage: check-datasets-pipeline.py SIGHTLINE_CLI   (SL_DATASETS_DIR in the environment)
Exit 77 (skipped) when the datasets folder is absent.
"""
import json
import os
import subprocess
import sys

SEVERITIES = {'error', 'warning', 'info'}


def find_pipelines(root):
    found = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        found += [os.path.join(folder, f) for f in sorted(files) if f.endswith('.pipeline')]
    return found


def read_streams(path):
    """[(stream, [element names])], repeats kept, in file order."""
    with open(path, encoding='utf-8') as f:
        root = json.load(f, object_pairs_hook=lambda pairs: pairs)
    streams = []
    for name, value in root:
        if isinstance(value, list):
            streams.append((name, [key for key, _ in value if key != 'stream_config']))
    return streams


def run(cli, *args):
    env = dict(os.environ, LC_ALL='C.UTF-8', LANGUAGE='C')
    result = subprocess.run([cli, 'pipeline-check', '--json', *args], capture_output=True, text=True,
                            timeout=120, env=env)
    assert result.returncode in (0, 1), (args, result.returncode, result.stderr)
    return result.returncode, json.loads(result.stdout)


def check_file(entry, path):
    assert set(entry) == {'path', 'streams', 'problems'}, entry.keys()
    assert entry['path'] == path, (entry['path'], path)
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    streams = read_streams(path)
    assert [(s['name'], s['elements']) for s in entry['streams']] == [(n, len(e)) for n, e in streams], \
        (path, entry['streams'], streams)
    for stream in entry['streams']:
        assert set(stream) == {'name', 'elements'} and isinstance(stream['elements'], int), stream
    names = {name for _, elements in streams for name in elements} | {n for n, _ in streams}
    for problem in entry['problems']:
        assert set(problem) == {'severity', 'element', 'line', 'column', 'message'}, problem
        assert problem['severity'] in SEVERITIES, problem
        assert isinstance(problem['message'], str) and problem['message'], problem
        assert problem['element'] is None or problem['element'] in names, (path, problem)
        assert isinstance(problem['line'], int) and 1 <= problem['line'] <= len(lines), (path, problem)
        assert isinstance(problem['column'], int) and problem['column'] >= 1, (path, problem)
        assert problem['column'] <= len(lines[problem['line'] - 1]) + 1, (path, problem)
        # An element's problem points at its name or inside its object.
        if problem['element'] is not None:
            before = '\n'.join(lines[:problem['line']])
            assert f'"{problem["element"]}"' in before, (path, problem)
    return any(p['severity'] == 'error' for p in entry['problems'])


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    cli = sys.argv[1]
    datasets = os.environ.get('SL_DATASETS_DIR', '')
    if not datasets or not os.path.isdir(datasets):
        print('the datasets folder is absent: skipped')
        return 77

    paths = find_pipelines(datasets)
    assert len(paths) >= 6, paths
    any_error = False
    n_problems = 0
    for path in paths:
        status, doc = run(cli, path)
        assert set(doc) == {'files'} and len(doc['files']) == 1, doc.keys()
        has_error = check_file(doc['files'][0], path)
        assert status == (1 if has_error else 0), (path, status, has_error)
        any_error |= has_error
        n_problems += len(doc['files'][0]['problems'])

    status, doc = run(cli, *paths)
    assert [f['path'] for f in doc['files']] == paths
    errors = [check_file(entry, path) for entry, path in zip(doc['files'], paths)]
    assert status == (1 if any(errors) else 0), (status, errors)
    assert any(errors) == any_error
    # Only the pipelines without an error, together: exit status 0.
    clean = [p for p, e in zip(paths, errors) if not e]
    if clean:
        status, _ = run(cli, *clean)
        assert status == 0, status
    print(f'{len(paths)} pipelines, {n_problems} problems checked')
    return 0


if __name__ == '__main__':
    sys.exit(main())
