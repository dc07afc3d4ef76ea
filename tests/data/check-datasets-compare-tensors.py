#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs `sightline-cli compare-tensors --json` on the real .npy files of
the datasets folder: msprobe's test inputs (float32, shape (2, 3)), each
against itself and against the other (they hold the same values), and
numpy's pickled object array, which must be refused unread.

Usage: check-datasets-compare-tensors.py SIGHTLINE_CLI   (SL_DATASETS_DIR names the datasets)
"""
import json
import math
import os
import subprocess
import sys

MSPROBE = ['Ascend__msprobe/test/msprobe_test/mindspore_ut/api_accuracy_checker/files/2_3_input.npy',
           'xiaobingling93-pixel__Ascend-mstt/debug/accuracy_tools/msprobe/test/mindspore_ut/api_accuracy_checker/'
           'files/input.npy']
OBJECT_ARRAY = 'numpy__numpy/numpy/lib/tests/data/py3-objarr.npy'


def compare(cli, npu, bench):
    result = subprocess.run([cli, 'compare-tensors', npu, bench, '--json'], capture_output=True, text=True)
    return result.returncode, json.loads(result.stdout)


def main():
    cli = sys.argv[1]
    root = os.environ.get('SL_DATASETS_DIR', '')
    inputs = [os.path.join(root, p) for p in MSPROBE if os.path.isfile(os.path.join(root, p))]
    object_array = os.path.join(root, OBJECT_ARRAY)
    if not inputs and not os.path.isfile(object_array):
        print('datasets absent; skipped')
        return 77
    for npu in inputs:
        for bench in inputs:
            status, report = compare(cli, npu, bench)
            pair = report['pairs'][0]
            assert status == 0 and report['first_divergence'] is None, report
            assert pair['verdict'] == 'pass' and pair['npu_dtype'] == 'float32', pair
            assert pair['npu_shape'] == '(2, 3)' and pair['bench_shape'] == '(2, 3)', pair
            assert math.isclose(pair['cosine'], 1.0) and pair['max_abs_error'] == 0, pair
            # the values are 1, 2, 3, 1, 2, 3
            assert math.isclose(pair['npu_mean'], 2.0) and math.isclose(pair['npu_std'], math.sqrt(2 / 3)), pair
            print(f'{npu} vs {bench}: {pair["verdict"]}')
    if os.path.isfile(object_array):
        status, report = compare(cli, object_array, object_array)
        pair = report['pairs'][0]
        assert status == 1 and pair['verdict'] == 'error', report
        assert 'pickled' in pair['reason'] and pair['reason'].startswith(object_array), pair
        assert report['first_divergence']['name'] == 'py3-objarr.npy', report
        print(f'{object_array}: refused: {pair["reason"]}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
