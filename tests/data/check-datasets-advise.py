#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs `sightline-cli advise --json` (and --markdown) on every real
profiler folder of the datasets and checks the documented keys, that
every evidence names a file and a row or offset, that numbers are sane
(no NaN, percentages within 0..100 for savings) and the Markdown
heading. The level1 torch_npu profile must show its idle time, and a
threshold override file must change that outcome and be reported.

Usage: check-datasets-advise.py SIGHTLINE_CLI   (SL_DATASETS_DIR names the datasets)
"""
import json
import math
import os
import subprocess
import sys
import tempfile

TOP_KEYS = {'path', 'rule_book_version', 'settings_file', 'overridden', 'settings_warnings', 'findings', 'not_run'}
FINDING_KEYS = {'rule', 'rank', 'severity', 'title', 'message', 'recommendation', 'assumption', 'time_us',
                'step_percent', 'saving_us', 'saving_percent', 'evidence', 'ops', 'ops_total', 'jump'}
NOT_RUN_KEYS = {'rule', 'rank', 'reason', 'enable', 'looked_in'}
PROFILES = [
    'Ascend__msinsight/test/data/pytorch/text/level1/rank0_ascend_pt',
    'Ascend__msinsight/test/data/pytorch/db/level0/rank0_ascend_pt',
    'mindspore-ai__mindinsight/tests/utils/resource/run_2/normal_run/profiler',
    'mindspore-ai__mindinsight/tests/utils/resource/profiler',
    'Ascend__msprof-analyze/test/resource/advisor/cluster_analysis_output',
]


def advise(cli, path, *extra):
    env = dict(os.environ, XDG_CONFIG_HOME=tempfile.mkdtemp())
    result = subprocess.run([cli, 'advise', path, *extra], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f'advise {path} exited {result.returncode}: {result.stderr}')
    return result.stdout


def check(report, path):
    assert set(report) == TOP_KEYS, set(report) ^ TOP_KEYS
    assert report['rule_book_version'] >= 1
    for finding in report['findings']:
        assert set(finding) == FINDING_KEYS, set(finding) ^ FINDING_KEYS
        assert finding['severity'] in ('high', 'medium', 'low')
        assert finding['title'] and finding['message'] and finding['recommendation']
        assert '{' not in finding['message'], finding['message']
        for key in ('time_us', 'saving_us', 'step_percent', 'saving_percent'):
            value = finding[key]
            assert value is None or (not math.isnan(value) and value >= 0), (key, value)
        if finding['saving_percent'] is not None:
            assert finding['saving_percent'] <= 100.0 + 1e-9, finding
        assert finding['evidence'], finding['rule']
        for evidence in finding['evidence']:
            assert evidence['file'], evidence
            assert ('row' in evidence) != ('offset' in evidence), evidence
            if evidence.get('row') is not None:
                assert evidence['row'] >= 1
                assert os.path.isfile(evidence['file']), evidence['file']
        assert finding['ops_total'] >= len(finding['ops'])
    for skip in report['not_run']:
        assert set(skip) == NOT_RUN_KEYS, set(skip) ^ NOT_RUN_KEYS
        assert skip['reason'] and isinstance(skip['looked_in'], list) and skip['looked_in'], skip


def main():
    cli = sys.argv[1]
    root = os.environ.get('SL_DATASETS_DIR', '')
    present = [os.path.join(root, p) for p in PROFILES if os.path.isdir(os.path.join(root, p))]
    if not present:
        print('datasets absent; skipped')
        return 77
    for path in present:
        report = json.loads(advise(cli, path, '--json'))
        check(report, path)
        markdown = advise(cli, path, '--markdown')
        assert markdown.startswith('# '), markdown[:80]
        print(f'{path}: {len(report["findings"])} findings, {len(report["not_run"])} not run')

    # The level1 torch_npu profile: idle time is 18.8 % of its one step.
    level1 = os.path.join(root, PROFILES[0])
    if os.path.isdir(level1):
        report = json.loads(advise(cli, level1, '--json'))
        free = [f for f in report['findings'] if f['rule'] == 'free-time']
        assert len(free) == 1 and free[0]['severity'] == 'high', free
        assert free[0]['evidence'][0]['row'] == 2
        settings = os.path.join(tempfile.mkdtemp(), 'advisor.json')
        with open(settings, 'w') as f:
            json.dump({'rules': {'free-time': {'max_free_percent': 30}}}, f)
        overridden = json.loads(advise(cli, level1, '--json', '--settings', settings))
        assert not [f for f in overridden['findings'] if f['rule'] == 'free-time']
        assert overridden['overridden'] == [{'rule': 'free-time', 'threshold': 'max_free_percent',
                                             'default': 10.0, 'value': 30.0}], overridden['overridden']
        assert overridden['settings_file'] == settings
    return 0


if __name__ == '__main__':
    sys.exit(main())
