#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sightline --document KIND PATH`, the real program: a path holding that
kind opens its document and adds the path to the Workspace's folders (no
folder page), and --report waits for it to load and gives the
window's size, minimum size and the document's kind and state. Two
paths for a comparison open one document addressed by both, in order. A kind that
does not exist, a missing path, a path holding something else and the wrong
number of paths for a comparison each exit with status 2 and a message,
without a window. `--help` lists the option and its kinds.

Usage: check-app-document.py SIGHTLINE BUILD_DIR   (SL_DATASETS_DIR names the datasets)
"""
import json
import os
import subprocess
import sys
import tempfile

MINDINSIGHT = 'mindspore-ai__mindinsight/tests/utils/resource'
SECOND_PROFILE = MINDINSIGHT + '/run_2/normal_run/profiler'


def run(program, env, args, timeout=120):
    return subprocess.run([program] + args, env=env, capture_output=True, text=True, timeout=timeout)


def refused(program, env, args, expected):
    result = run(program, env, args)
    assert result.returncode == 2, f'{args}: exit {result.returncode}, stderr {result.stderr!r}'
    assert expected in result.stderr, f'{args}: {result.stderr!r} does not say {expected!r}'
    print(f'ok: {" ".join(args)} -> 2: {result.stderr.strip().splitlines()[-1]}')


def main():
    program, build_dir = sys.argv[1], sys.argv[2]
    datasets = os.environ.get('SL_DATASETS_DIR', '')
    if not os.path.isdir(datasets):
        print('SKIP: SL_DATASETS_DIR does not name the datasets')
        return 77
    profile = os.path.join(datasets, MINDINSIGHT, 'profiler')
    trace = os.path.join(datasets, 'catapult-project__catapult/tracing/test_data/big_trace.json')

    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ)
        env.update({
            'XDG_DATA_HOME': os.path.join(home, 'data'),
            'XDG_CACHE_HOME': os.path.join(home, 'cache'),
            'XDG_CONFIG_HOME': os.path.join(home, 'config'),
            'GSETTINGS_SCHEMA_DIR': os.path.join(build_dir, 'data'),
            'GSETTINGS_BACKEND': 'memory',
        })

        help_text = run(program, env, ['--help']).stdout
        assert '--document=KIND' in help_text, help_text
        for kind in ('scalars', 'histograms', 'profile', 'advisor', 'compare-profiles', 'tensor-compare', 'cluster',
                     'conversion'):
            assert kind in help_text, f'--help does not list {kind}'

        refused(program, env, ['--document', 'nonsense', profile], 'not a kind of document')
        refused(program, env, ['--document', 'profile', os.path.join(home, 'missing')], 'no such file or folder')
        refused(program, env, ['--document', 'profile', trace], 'holds no profile: found trace')
        refused(program, env, ['--document', 'compare-profiles', profile], 'takes 2 paths, not 1')
        refused(program, env, ['--document', 'scalars', profile, profile], 'takes 1 path, not 2')
        refused(program, env, ['--document', 'graph', home], 'holds nothing Sightline reads')

        report_path = os.path.join(home, 'report.json')
        result = run(program, env, ['--document', 'profile', profile, '--report', report_path], timeout=150)
        assert result.returncode == 0, result.stderr
        with open(report_path) as f:
            report = json.load(f)
        document = report['document']
        assert document['kind'] == 'profile', document
        assert document['state'] == 'ready', document
        # The document names the folder by its canonical path (".." resolved, links kept).
        assert document['id'] == 'profile:' + os.path.normpath(os.path.abspath(profile)), document
        for key in ('width', 'height', 'min_width', 'min_height'):
            assert isinstance(report[key], int) and report[key] > 0, (key, report[key])
        assert report['min_width'] <= report['width'], report
        # Opened straight away: no folder page.
        assert report['document_ids'] == ['profile:' + os.path.normpath(os.path.abspath(profile))], report['document_ids']
        # The path is in the Workspace's open folders, as when opened in the app.
        folders = [folder['path'] for folder in report['folders']]
        assert os.path.normpath(os.path.abspath(profile)) in folders, folders
        print(f"ok: --document profile: window {report['width']}x{report['height']}, "
              f"minimum {report['min_width']}x{report['min_height']}")

        # A comparison: one document whose address is both paths, base first.
        base = os.path.normpath(os.path.abspath(os.path.join(datasets, SECOND_PROFILE)))
        comparison = os.path.normpath(os.path.abspath(profile))
        compare_report = os.path.join(home, 'compare.json')
        result = run(program, env, ['--document', 'compare-profiles', base, comparison, '--report', compare_report],
                     timeout=150)
        assert result.returncode == 0, result.stderr
        with open(compare_report) as f:
            report = json.load(f)
        document = report['document']
        assert document['kind'] == 'compare', document
        assert document['paths'] == [base, comparison], document
        assert document['state'] == 'ready', document
        assert report['document_ids'] == [f"compare:['{base}', '{comparison}']"], report['document_ids']
        print(f"ok: --document compare-profiles: {document['id']}")

        # A model and the one ATC made of it (GraphDef text written here):
        # the conversion document opens on both, and wants both.
        source = os.path.join(home, 'model.pbtxt')
        converted = os.path.join(home, 'model_om.pbtxt')
        with open(source, 'w') as f:
            f.write('node { name: "conv" op: "Conv2D" }\nnode { name: "relu" op: "Relu" input: "conv" }\n')
        with open(converted, 'w') as f:
            f.write('node { name: "conv_relu" op: "Conv2D" attr { key: "_datadump_original_op_names" '
                    'value { list { s: "conv" s: "relu" } } } }\n'
                    'node { name: "trans_Cast_0" op: "Cast" input: "conv_relu" }\n')
        refused(program, env, ['--document', 'conversion', converted], 'takes 2 paths, not 1')
        result = run(program, env, ['--document', 'conversion', source, converted, '--report', report_path])
        assert result.returncode == 0, result.stderr
        with open(report_path) as f:
            report = json.load(f)
        assert report['document']['kind'] == 'conversion', report['document']
        assert report['document']['state'] == 'ready', report['document']
        assert report['document']['paths'] == [source, converted], report['document']
        print('ok: --document conversion')
    return 0


if __name__ == '__main__':
    sys.exit(main())
