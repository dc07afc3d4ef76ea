#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs `sightline-cli pipeline-check` on pipelines made here.

A clean pipeline, one with errors and a warning, a damaged one and a
missing file are checked together; the JSON must be exactly what is
expected (positions counted on the text written here), the text output
must use file:line:column: severity: element: message, and the exit
status is 1 with errors, 0 without, 2 on bad usage.

Usage: check-cli-pipeline.py   (SL_CLI names the sightline-cli binary)
"""
import json
import os
import subprocess
import tempfile

CLI = os.environ.get('SL_CLI', 'sightline-cli')

CLEAN = '''{
  "detect": {
    "stream_config": {"deviceId": "0"},
    "appsrc0": {"factory": "appsrc", "next": "mxpi_tensorinfer0"},
    "mxpi_tensorinfer0": {"factory": "mxpi_tensorinfer", "props": {"modelPath": "models/m.om"}, "next": "appsink0"},
    "appsink0": {"factory": "appsink"}
  }
}
'''

BROKEN = '''{
  "a": {
    "stream_config": {"deviceId": "-1"},
    "appsrc0": {"factory": "appsrc", "next": ["mine0", "gone:1"]},
    "mine0": {"factory": "myplugin", "next": "appsink0"},
    "appsink0": {"factory": "appsink", "props": {}}
  },
  "b": {
    "src": {"factory": "appsrc", "next": "out"},
    "out": {"factory": "appsink"}
  }
}
'''

DAMAGED = '{\n  "s": {\n    "appsrc0": {"factory": "appsrc",, "next": "appsink0"}\n'


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    return path


def run(*args):
    env = dict(os.environ, LC_ALL='C.UTF-8', LANGUAGE='C')
    return subprocess.run([CLI, 'pipeline-check', *args], capture_output=True, text=True, timeout=60, env=env)


def check(condition, message):
    if not condition:
        raise SystemExit('FAIL: ' + message)


def problem(severity, element, line, column, message):
    return {'severity': severity, 'element': element, 'line': line, 'column': column, 'message': message}


def main():
    with tempfile.TemporaryDirectory(prefix='sl-cli-pipeline-') as root:
        clean = write(root, 'app/pipeline/clean.pipeline', CLEAN)
        write(root, 'app/models/m.om', 'om')
        broken = write(root, 'app/pipeline/broken.pipeline', BROKEN)
        damaged = write(root, 'app/pipeline/damaged.pipeline', DAMAGED)
        missing = os.path.join(root, 'app', 'pipeline', 'missing.pipeline')

        result = run('--json', clean)
        check(result.returncode == 0, f'clean exited {result.returncode}: {result.stderr}')
        doc = json.loads(result.stdout)
        check(doc == {'files': [{'path': clean, 'streams': [{'name': 'detect', 'elements': 3}], 'problems': []}]},
              f'clean JSON is {doc}')

        result = run('--json', broken, damaged, missing)
        check(result.returncode == 1, f'broken exited {result.returncode}: {result.stderr}')
        doc = json.loads(result.stdout)
        expected_broken = [
            problem('error', None, 3, 35, 'deviceId "-1" is not a device number: it must be a string such as "0"'),
            problem('error', 'appsrc0', 4, 56, '“gone” is not an element of stream “a”'),
            problem('warning', 'mine0', 5, 26, '“myplugin” is not a plugin of the SDK; the app must register it'),
            problem('error', 'out', 10, 5, 'An appsink must be named appsink followed by its number (appsink0, appsink1, …)'),
        ]
        check(doc['files'][0] == {'path': broken,
                                  'streams': [{'name': 'a', 'elements': 3}, {'name': 'b', 'elements': 2}],
                                  'problems': expected_broken},
              f'broken JSON is {json.dumps(doc["files"][0], ensure_ascii=False, indent=1)}')

        check(doc['files'][1]['path'] == damaged, 'damaged path')
        check(doc['files'][1]['streams'] == [{'name': 's', 'elements': 1}], f'damaged streams {doc["files"][1]["streams"]}')
        damage = doc['files'][1]['problems'][0]
        check(damage['severity'] == 'error' and damage['element'] is None and
              (damage['line'], damage['column']) == (3, 37) and 'damaged' in damage['message'],
              f'damage is {damage}')

        check(doc['files'][2]['path'] == missing and doc['files'][2]['streams'] == [], 'missing file entry')
        gone = doc['files'][2]['problems']
        check(len(gone) == 1 and gone[0]['severity'] == 'error' and gone[0]['line'] is None and
              gone[0]['column'] is None and gone[0]['element'] is None, f'missing file problem is {gone}')

        for d in doc['files']:
            for p in d['problems']:
                check(set(p) == {'severity', 'element', 'line', 'column', 'message'}, f'problem keys {sorted(p)}')

        result = run(broken)
        check(result.returncode == 1, f'text exited {result.returncode}')
        lines = result.stdout.splitlines()
        check(lines[0] == f'{broken}: stream a: 3 elements', f'first line is {lines[0]!r}')
        check(f'{broken}:4:56: error: appsrc0: “gone” is not an element of stream “a”' in lines,
              f'text output is {lines}')
        check(f'{broken}:3:35: error: deviceId "-1" is not a device number: it must be a string such as "0"' in lines,
              f'text output is {lines}')

        result = run()
        check(result.returncode == 2, f'no file exited {result.returncode}')
        result = run('--bogus', clean)
        check(result.returncode == 2, f'bad option exited {result.returncode}')

    print('pipeline-check: ok')


if __name__ == '__main__':
    main()
