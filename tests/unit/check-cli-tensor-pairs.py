#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs `sightline-cli tensor-pairs` on msprobe dump folders made here.

Two dump roots (step0/rank0 with dump.json, construct.json, stack.json
and dump_tensor_data/) are paired exactly, fuzzily and through a YAML
mapping; the JSON must hold the pairs in execution order with both
dtypes, shapes, data paths, the statistics, the module path and the
stack, and unmatched[] with side and reason. A data_name leading out of
the folder is refused with a problem, a missing dump is exit status 1,
bad usage 2.

Usage: check-cli-tensor-pairs.py   (SL_CLI names the sightline-cli binary)
"""
import json
import os
import subprocess
import tempfile

CLI = os.environ.get('SL_CLI', 'sightline-cli')


def tensor(dtype, shape, mx, data_name=None, md5=None):
    record = {'type': 'torch.Tensor', 'dtype': dtype, 'shape': shape,
              'Max': mx, 'Min': -mx, 'Mean': 0.0, 'Norm': mx * 2, 'requires_grad': True}
    if data_name is not None:
        record['data_name'] = data_name
    if md5 is not None:
        record['md5'] = md5
    return record


def write_dump(root, data, construct=None, stack=None, files=()):
    rank = os.path.join(root, 'step0', 'rank0')
    os.makedirs(os.path.join(rank, 'dump_tensor_data'))
    with open(os.path.join(rank, 'dump.json'), 'w') as f:
        json.dump({'task': 'tensor', 'level': 'L1', 'framework': 'pytorch',
                   'dump_data_dir': os.path.join(rank, 'dump_tensor_data'), 'data': data}, f, indent=1)
    if construct is not None:
        with open(os.path.join(rank, 'construct.json'), 'w') as f:
            json.dump(construct, f)
    if stack is not None:
        with open(os.path.join(rank, 'stack.json'), 'w') as f:
            json.dump(stack, f)
    for name in files:
        with open(os.path.join(rank, 'dump_tensor_data', name), 'wb') as f:
            f.write(b'x')
    return rank


def run(*args):
    result = subprocess.run([CLI, 'tensor-pairs', *args], capture_output=True, text=True)
    return result


def main():
    with tempfile.TemporaryDirectory() as tmp:
        npu_root = os.path.join(tmp, 'npu')
        bench_root = os.path.join(tmp, 'bench')
        npu_rank = write_dump(npu_root, {
            'Functional.relu.3.forward': {
                'input_args': [tensor('torch.bfloat16', [2, 2], 1.0, 'Functional.relu.3.forward.input.0.pt')],
                'input_kwargs': {},
                'output': [tensor('torch.bfloat16', [2, 2], 1.0, '../../../bench/secret.pt')],
            },
            'Functional.gelu.0.forward': {
                'input_args': [tensor('torch.bfloat16', [4], 2.0)],
                'output': [tensor('torch.bfloat16', [4], 2.0)],
            },
        }, construct={'Functional.relu.3.forward': 'Module.block.Block.forward.0',
                      'Module.block.Block.forward.0': None},
           stack={'Functional.relu.3.forward': ['File "net.py", line 7, in forward', 'relu(x)']},
           files=['Functional.relu.3.forward.input.0.pt'])
        bench_rank = write_dump(bench_root, {
            'Functional.relu.0.forward': {
                'input_args': [tensor('torch.float32', [2, 2], 1.5, 'Functional.relu.0.forward.input.0.pt')],
                'output': [tensor('torch.float32', [2, 2], 1.0)],
            },
            'Functional.fast_gelu.0.forward': {
                'input_args': [tensor('torch.float32', [4], 2.0)],
                'output': [tensor('torch.int64', [4], 2.0)],
            },
        }, files=['Functional.relu.0.forward.input.0.pt'])

        # Exact: the call numbers differ, nothing pairs.
        result = run('--json', npu_root, bench_root)
        assert result.returncode == 0, result.stderr
        doc = json.loads(result.stdout)
        assert doc['pairs'] == [], doc['pairs']
        assert doc['fuzzy'] is False and doc['mapping'] is None
        assert doc['npu']['tensors'] == 4 and doc['bench']['tensors'] == 4
        assert doc['npu']['task'] == 'tensor' and doc['npu']['level'] == 'L1'
        assert [(u['name'], u['side'], u['reason']) for u in doc['unmatched']] == [
            ('Functional.relu.3.forward.input.0', 'npu', 'missing'),
            ('Functional.relu.3.forward.output.0', 'npu', 'missing'),
            ('Functional.gelu.0.forward.input.0', 'npu', 'missing'),
            ('Functional.gelu.0.forward.output.0', 'npu', 'missing'),
            ('Functional.relu.0.forward.input.0', 'bench', 'missing'),
            ('Functional.relu.0.forward.output.0', 'bench', 'missing'),
            ('Functional.fast_gelu.0.forward.input.0', 'bench', 'missing'),
            ('Functional.fast_gelu.0.forward.output.0', 'bench', 'missing'),
        ], doc['unmatched']
        # The escaping data_name is a problem of the NPU dump, with its offset.
        problems = doc['npu']['problems']
        assert len(problems) == 1 and 'out of the dump folder' in problems[0]['message'], problems
        with open(os.path.join(npu_rank, 'dump.json')) as f:
            assert problems[0]['offset'] == f.read().index('"Functional.relu.3.forward"')
        assert 'out of the dump folder' in result.stderr

        # Fuzzy: relu.3 pairs with relu.0.
        result = run('--json', '--fuzzy', npu_root, bench_root)
        doc = json.loads(result.stdout)
        assert [(p['npu_key'], p['bench_key']) for p in doc['pairs']] == [
            ('Functional.relu.3.forward.input.0', 'Functional.relu.0.forward.input.0'),
            ('Functional.relu.3.forward.output.0', 'Functional.relu.0.forward.output.0'),
        ], doc['pairs']
        first = doc['pairs'][0]
        assert first['name'] == 'Functional.relu.3.forward.input.0'
        assert first['npu_dtype'] == 'torch.bfloat16' and first['bench_dtype'] == 'torch.float32'
        assert first['npu_shape'] == [2, 2] and first['bench_shape'] == [2, 2]
        assert first['npu_data_path'] == os.path.join(npu_rank, 'dump_tensor_data', 'Functional.relu.3.forward.input.0.pt')
        assert first['bench_data_path'] == os.path.join(bench_rank, 'dump_tensor_data', 'Functional.relu.0.forward.input.0.pt')
        assert first['module_path'] == 'Module.block.Block.forward.0'
        assert first['stack'] == 'File "net.py", line 7, in forward\nrelu(x)'
        assert first['statistics']['max'] == {'npu': 1.0, 'bench': 1.5, 'diff': -0.5, 'relative': 0.5 / 1.5}
        assert first['statistics']['mean'] == {'npu': 0.0, 'bench': 0.0, 'diff': 0.0, 'relative': 0.0}
        assert first['crc'] is None
        # The refused data_name leaves no path.
        assert doc['pairs'][1]['npu_data_path'] is None

        # A mapping renames gelu; its output is then an integer against floats.
        mapping = os.path.join(tmp, 'mapping.yaml')
        with open(mapping, 'w') as f:
            f.write('# NPU name: benchmark name\nFunctional.gelu: Functional.fast_gelu\n')
        result = run('--json', '--fuzzy', '--mapping', mapping, npu_root, bench_root)
        doc = json.loads(result.stdout)
        assert doc['mapping'] == mapping
        assert [p['bench_key'] for p in doc['pairs']] == [
            'Functional.relu.0.forward.input.0', 'Functional.relu.0.forward.output.0',
            'Functional.fast_gelu.0.forward.input.0'], doc['pairs']
        assert [(u['name'], u['side'], u['reason'], u['other']) for u in doc['unmatched']] == [
            ('Functional.gelu.0.forward.output.0', 'npu', 'dtype_kind', 'Functional.fast_gelu.0.forward.output.0'),
            ('Functional.fast_gelu.0.forward.output.0', 'bench', 'dtype_kind', 'Functional.gelu.0.forward.output.0'),
        ], doc['unmatched']

        # Text output: one block a pair, the count, the unmatched.
        result = run('--fuzzy', npu_root, bench_root)
        assert result.returncode == 0
        assert 'Functional.relu.3.forward.input.0 = Functional.relu.0.forward.input.0' in result.stdout
        assert '2 pairs, 4 tensors unmatched' in result.stdout, result.stdout

        # A mapping that is not one, a missing dump, bad usage.
        with open(mapping, 'w') as f:
            f.write('not a mapping\n')
        assert run('--mapping', mapping, npu_root, bench_root).returncode == 1
        assert run(npu_root, os.path.join(tmp, 'nothing')).returncode == 1
        assert run(npu_root).returncode == 2
        assert run('--bogus', npu_root, bench_root).returncode == 2
    print('tensor-pairs: exact, fuzzy, mapping, problems and exit status as expected')


if __name__ == '__main__':
    main()
