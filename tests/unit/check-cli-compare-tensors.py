#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs `sightline-cli compare-tensors` on .npy files written here.

Two folders matched by relative path: an identical pair, a pair with one
outlier (a warning), a sign flip (the first divergence), a file whose
header claims more data than it holds, and one file on each side only.
The JSON must have exactly the documented keys and the hand-computed
values; the CSV msprobe's columns; exit 1 with an error pair, 0 without,
2 on bad usage. Two msprobe statistics dumps that pair only with --fuzzy
and a --mapping file, and two CRC dumps whose first divergence carries
its module path, in JSON, CSV and text. When numpy is installed, random float32, float16 and
big-endian pairs must also agree with the numpy peer to 1e-6.

Usage: check-cli-compare-tensors.py SIGHTLINE_CLI PEER_SCRIPT
"""
import csv
import importlib.util
import io
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

TOP_KEYS = {'npu', 'bench', 'input', 'mode', 'pairs', 'unmatched', 'first_divergence', 'first_warning', 'coverage',
            'headline', 'problems'}
METRICS = ['cosine', 'euclidean_distance', 'relative_euclidean_distance', 'max_abs_error', 'mean_abs_error',
           'rmse', 'max_relative_error', 'mean_relative_error', 'accumulated_relative_error',
           'one_thousandth_err_ratio', 'five_thousandth_err_ratio', 'kl_divergence', 'npu_mean', 'npu_std',
           'bench_mean', 'bench_std']
PAIR_KEYS = {'name', 'bench_name', 'api', 'module_path', 'stack', 'order', 'mode', 'npu_path', 'bench_path',
             'npu_dtype', 'bench_dtype', 'npu_shape', 'bench_shape', 'verdict', 'reason', 'cosine_note', *METRICS,
             'statistics', 'crc', 'npu_max', 'npu_min', 'npu_l2norm', 'bench_max', 'bench_min', 'bench_l2norm'}
DIVERGENCE_KEYS = {'index', 'name', 'bench_name', 'api', 'module_path', 'stack', 'reason'}


def write_npy(path, values, descr='<f4', shape=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    shape = shape if shape is not None else (len(values),)
    shape_text = '(' + ', '.join(str(s) for s in shape) + (',)' if len(shape) == 1 else ')')
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    total = (10 + len(header) + 1 + 63) // 64 * 64
    header = header.ljust(total - 10 - 1) + '\n'
    fmt = {'<f4': '<%df', '>f4': '>%df', '<f8': '<%dd', '<i4': '<%di'}[descr] % len(values)
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode() + struct.pack(fmt, *values))


def run(cli, *args):
    return subprocess.run([cli, 'compare-tensors', *args], capture_output=True, text=True)


def close(actual, expected, tolerance=1e-9):
    return actual is not None and abs(actual - expected) <= tolerance * max(1.0, abs(expected))


def check_folders(cli, root):
    npu, bench = os.path.join(root, 'npu'), os.path.join(root, 'bench')
    write_npy(os.path.join(npu, 'a_same.npy'), [1, 2, 3, 4])
    write_npy(os.path.join(bench, 'a_same.npy'), [1, 2, 3, 4])
    write_npy(os.path.join(npu, 'layer', 'b_outlier.npy'), [1, 2, 3, 4])
    write_npy(os.path.join(bench, 'layer', 'b_outlier.npy'), [1, 2, 3, 5])
    write_npy(os.path.join(npu, 'layer', 'c_flip.npy'), [-1, -2, -3])
    write_npy(os.path.join(bench, 'layer', 'c_flip.npy'), [1, 2, 3])
    write_npy(os.path.join(npu, 'd_lying.npy'), [1, 2])
    write_npy(os.path.join(bench, 'd_lying.npy'), [1, 2], shape=(1000,))
    write_npy(os.path.join(npu, 'only_npu.npy'), [1])
    write_npy(os.path.join(bench, 'only_bench.npy'), [1])

    result = run(cli, npu, bench, '--json')
    assert result.returncode == 1, result
    report = json.loads(result.stdout)
    assert set(report) == TOP_KEYS, set(report) ^ TOP_KEYS
    names = [p['name'] for p in report['pairs']]
    assert names == ['a_same.npy', 'd_lying.npy', 'layer/b_outlier.npy', 'layer/c_flip.npy'], names
    for pair in report['pairs']:
        assert set(pair) == PAIR_KEYS, set(pair) ^ PAIR_KEYS
    same, lying, outlier, flip = report['pairs']
    assert same['verdict'] == 'pass' and same['reason'] is None, same
    assert same['npu_dtype'] == 'float32' and same['npu_shape'] == '(4,)', same
    assert close(same['cosine'], 1) and same['max_abs_error'] == 0 and close(same['npu_std'], math.sqrt(1.25))
    assert outlier['verdict'] == 'warning', outlier
    assert close(outlier['cosine'], 34 / math.sqrt(30 * 39)), outlier
    assert close(outlier['relative_euclidean_distance'], math.sqrt(1 / 39)), outlier
    assert close(outlier['rmse'], 0.5) and close(outlier['mean_relative_error'], 0.05), outlier
    assert close(outlier['one_thousandth_err_ratio'], 0.75), outlier
    assert flip['verdict'] == 'error' and close(flip['cosine'], -1), flip
    assert lying['verdict'] == 'error' and lying['cosine'] is None, lying
    assert 'offset 128' in lying['reason'] and 'd_lying.npy' in lying['reason'], lying
    assert lying['bench_dtype'] is None and lying['npu_dtype'] == 'float32', lying
    first = report['first_divergence']
    assert set(first) == DIVERGENCE_KEYS, first
    assert (first['index'], first['name'], first['reason']) == (1, 'd_lying.npy', lying['reason']), first
    assert report['input'] == 'npy_folders' and report['mode'] == 'data', report
    # the problem is at the damage: the file and the offset are keys of
    # their own, the message says what is wrong there
    assert any(p['path'].endswith('d_lying.npy') and p['offset'] == 128
               and p['message'].startswith('the shape needs') and 'd_lying.npy' not in p['message']
               for p in report['problems']), report
    unmatched = sorted((u['name'], u['side']) for u in report['unmatched'])
    assert unmatched == [('only_bench.npy', 'bench'), ('only_npu.npy', 'npu')], unmatched
    assert all(u['reason'] for u in report['unmatched'])

    result = run(cli, npu, bench, '--csv')
    assert result.returncode == 1, result
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0][:8] == ['NPU Name', 'Bench Name', 'NPU Dtype', 'Bench Dtype', 'NPU Tensor Shape',
                           'Bench Tensor Shape', 'Cosine', 'EucDist'], rows[0]
    assert rows[0][-11:] == ['NPU max', 'NPU min', 'NPU mean', 'NPU l2norm', 'Bench max', 'Bench min', 'Bench mean',
                             'Bench l2norm', 'Result', 'Err_message', 'NPU_Stack_Info'] and len(rows) == 5, rows
    assert rows[1][-3] == 'pass' and float(rows[1][6]) == 1.0, rows[1]
    assert rows[2][6] == 'N/A', rows[2]

    result = run(cli, npu, bench)
    assert result.returncode == 1 and 'First divergence: d_lying.npy' in result.stdout, result


def check_files_and_usage(cli, root):
    a, b = os.path.join(root, 'one', 'a.npy'), os.path.join(root, 'one', 'b.npy')
    write_npy(a, [1, 2, 3])
    write_npy(b, [1, 2, 3], descr='>f4')
    result = run(cli, a, b, '--json')
    assert result.returncode == 0, result
    report = json.loads(result.stdout)
    assert report['first_divergence'] is None and report['pairs'][0]['verdict'] == 'pass', report
    assert report['pairs'][0]['name'] == 'a.npy'
    assert run(cli, a).returncode == 2
    assert run(cli, a, b, '--json', '--csv').returncode == 2
    assert run(cli, a, os.path.join(root, 'one')).returncode == 1
    assert run(cli, a, os.path.join(root, 'missing.npy')).returncode == 1


def write_dump(folder, relu_call, gelu_api, crc=None):
    def record(extra=None):
        r = {'type': 'torch.Tensor', 'dtype': 'torch.float32', 'shape': [4], 'Max': 4.0, 'Min': 1.0, 'Mean': 2.5,
             'Norm': 5.0, 'requires_grad': False}
        r.update(extra or {})
        return r
    data = {
        f'Functional.relu.{relu_call}.forward': {'input_args': [record()], 'output': [record()]},
        f'Functional.{gelu_api}.0.forward': {'input_args': [], 'output': [record({'md5': crc} if crc else None)]},
    }
    if crc:
        data[f'Functional.relu.{relu_call}.forward']['output'][0]['md5'] = '00000001'
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, 'dump.json'), 'w') as f:
        json.dump({'task': 'statistics', 'level': 'L1', 'framework': 'pytorch', 'data': data}, f)
    with open(os.path.join(folder, 'construct.json'), 'w') as f:
        json.dump({f'Functional.{gelu_api}.0.forward': 'Module.net.Net.forward.0', 'Module.net.Net.forward.0': None}, f)


def check_msprobe_options(cli, root):
    npu, bench = os.path.join(root, 'dump_npu'), os.path.join(root, 'dump_bench')
    write_dump(npu, 0, 'gelu')
    write_dump(bench, 1, 'fast_gelu')
    exact = json.loads(run(cli, npu, bench, '--json').stdout)
    assert exact['mode'] == 'stats' and exact['pairs'] == [], exact
    assert {u['reason_code'] for u in exact['unmatched']} == {'missing'}, exact['unmatched']
    fuzzy = json.loads(run(cli, npu, bench, '--json', '--fuzzy').stdout)
    assert [p['bench_name'] for p in fuzzy['pairs']] == ['Functional.relu.1.forward.input.0',
                                                         'Functional.relu.1.forward.output.0'], fuzzy['pairs']
    mapping = os.path.join(root, 'mapping.yaml')
    with open(mapping, 'w') as f:
        f.write('Functional.gelu: Functional.fast_gelu\n')
    mapped = run(cli, npu, bench, '--json', '--fuzzy', '--mapping', mapping)
    assert mapped.returncode == 0, mapped
    mapped = json.loads(mapped.stdout)
    assert mapped['unmatched'] == [] and len(mapped['pairs']) == 3, mapped
    gelu = mapped['pairs'][2]
    assert gelu['module_path'] == 'Module.net.Net.forward.0' and gelu['statistics']['mean']['diff'] == 0, gelu
    assert run(cli, npu, bench, '--mapping', os.path.join(root, 'no-such.yaml')).returncode == 1

    # CRC dumps: the gelu output's CRC differs, so it is the first divergence.
    crc_npu, crc_bench = os.path.join(root, 'crc_npu'), os.path.join(root, 'crc_bench')
    write_dump(crc_npu, 0, 'gelu', crc='aaaa0000')
    write_dump(crc_bench, 0, 'gelu', crc='bbbb0000')
    result = run(cli, crc_npu, crc_bench, '--json')
    assert result.returncode == 1, result
    report = json.loads(result.stdout)
    assert report['mode'] == 'crc', report
    assert report['first_divergence']['name'] == 'Functional.gelu.0.forward.output.0', report['first_divergence']
    assert report['first_divergence']['module_path'] == 'Module.net.Net.forward.0', report['first_divergence']
    rows = list(csv.reader(io.StringIO(run(cli, crc_npu, crc_bench, '--csv').stdout)))
    assert rows[0][6:] == ['NPU MD5', 'BENCH MD5', 'Result', 'Err_message', 'NPU_Stack_Info'], rows[0]
    assert rows[-1][6:8] == ['aaaa0000', 'bbbb0000'] and rows[-1][8] == 'error', rows[-1]
    text = run(cli, crc_npu, crc_bench)
    assert 'First divergence: Functional.gelu.0.forward.output.0' in text.stdout, text.stdout
    assert 'in Module.net.Net.forward.0' in text.stdout, text.stdout
    rows = list(csv.reader(io.StringIO(run(cli, npu, bench, '--csv', '--fuzzy').stdout)))
    assert rows[0][6:10] == ['Max diff', 'Min diff', 'Mean diff', 'L2norm diff'], rows[0]

    # A truncated dump.json: nothing compared, the problem on stderr, exit 1.
    broken = os.path.join(root, 'dump_broken')
    os.makedirs(broken)
    with open(os.path.join(broken, 'dump.json'), 'w') as f:
        f.write('{"task": "tensor", "data": {')
    result = run(cli, broken, bench)
    assert result.returncode == 1 and 'No pair could be compared.' in result.stdout, result
    assert os.path.join(broken, 'dump.json') in result.stderr and 'JSON' in result.stderr, result.stderr


def check_against_numpy(cli, peer_script, root):
    try:
        import numpy as np
    except ImportError:
        print('numpy is not installed: the comparison with the numpy peer is skipped')
        return
    spec = importlib.util.spec_from_file_location('peer', peer_script)
    peer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(peer)
    rng = np.random.default_rng(7)
    folder_n, folder_b = os.path.join(root, 'np_npu'), os.path.join(root, 'np_bench')
    os.makedirs(folder_n)
    os.makedirs(folder_b)
    bench = rng.standard_normal(300000).astype(np.float32)
    cases = {
        'f32.npy': (bench + rng.standard_normal(bench.size).astype(np.float32) * 1e-3, bench),
        'f16.npy': (bench.astype(np.float16), bench),
        'big.npy': (bench.astype('>f4') * np.float32(1.001), bench),
        'f64.npy': (bench.astype(np.float64) * 2, bench.astype(np.float64)),
        'fortran.npy': (np.asfortranarray(bench.reshape(500, 600) + 1), np.asfortranarray(bench.reshape(500, 600))),
    }
    for name, (n, b) in cases.items():
        np.save(os.path.join(folder_n, name), n)
        np.save(os.path.join(folder_b, name), b)
    result = run(cli, folder_n, folder_b, '--json')
    report = json.loads(result.stdout)
    assert not report['unmatched'], report
    for pair in report['pairs']:
        expected = peer.metrics(pair['npu_path'], pair['bench_path'])
        for key in METRICS:
            want, got = expected[key], pair[key]
            assert close(got, want, 1e-6), (pair['name'], key, got, want)


def main():
    cli, peer_script = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as root:
        check_folders(cli, root)
        check_files_and_usage(cli, root)
        check_msprobe_options(cli, root)
        check_against_numpy(cli, peer_script, root)


if __name__ == '__main__':
    main()
