#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sightline-cli lineage --json` and `--csv` on the six generated lineage
runs, checked against an independent reading of the same bytes: the
record framing and the TrainLineage, EvaluationLineage and
UserDefinedInfo wire formats are decoded here by hand, the last event of
each kind winning, and a few answers read off the files are checked as
they are.

Usage: check-datasets-lineage-table.py SIGHTLINE_CLI   (SL_DATASETS_DIR in the environment)
Exit 77 (skipped) when the datasets folder is absent.
"""
import csv
import io
import json
import math
import os
import struct
import subprocess
import sys

FOLDER = 'generated__mindinsight-writers/run_lineage'
RUNS = ['run_01', 'run_02', 'run_03', 'run_04', 'run_05', 'run_06']
# Read off the files: the grid the six runs span.
LEARNING_RATES = [0.001, 0.001, 0.005, 0.005, 0.01, 0.01]
EPOCHS = [10, 20, 10, 20, 30, 30]
BATCH_SIZES = [32, 64, 32, 64, 32, 64]


def varint(data, pos):
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7f) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def fields(data):
    pos = 0
    while pos < len(data):
        key, pos = varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(data, pos)
        elif wire == 1:
            value, pos = data[pos:pos + 8], pos + 8
        elif wire == 5:
            value, pos = data[pos:pos + 4], pos + 4
        elif wire == 2:
            length, pos = varint(data, pos)
            value, pos = data[pos:pos + length], pos + length
        else:
            raise ValueError(f'wire type {wire}')
        yield number, wire, value


def records(path):
    with open(path, 'rb') as f:
        data = f.read()
    pos = 0
    while pos + 12 <= len(data):
        (length,) = struct.unpack_from('<Q', data, pos)
        yield data[pos + 12:pos + 12 + length]
        pos += 12 + length + 4


def int32(value):
    value &= 0xffffffff
    return value - (1 << 32) if value >= 1 << 31 else value


def f32(raw):
    return struct.unpack('<f', raw)[0]


def message(data, spec):
    """spec: field number -> (name, kind); kind 's' string, 'i' int, 'f' float."""
    out = {}
    for number, _, value in fields(data):
        if number in spec:
            name, kind = spec[number]
            out[name] = value.decode() if kind == 's' else f32(value) if kind == 'f' else int32(value)
    return out


def user_info(data, out):
    for number, _, value in fields(data):
        if number == 1:
            user_info(value, out)
            continue
        if number not in (3, 4, 5):
            continue
        entry = dict((n, v) for n, _, v in fields(value))
        key = entry[1].decode()
        raw = entry.get(2, b'' if number == 4 else 0)
        out[key] = int32(raw) if number == 3 else raw.decode() if number == 4 else struct.unpack('<d', raw)[0]


def read_run(folder):
    expected = {'hyperparameters': {}, 'metrics': {}, 'user_defined': {}, 'dataset': {}, 'model': {}}
    train = evaluation = None
    for name in sorted(os.listdir(folder)):
        if not name.endswith('_lineage'):
            continue
        for payload in records(os.path.join(folder, name)):
            for number, _, value in fields(payload):
                if number == 6:
                    train = value
                elif number == 7:
                    evaluation = value
                elif number == 10:
                    user_info(value, expected['user_defined'])
    for number, _, value in fields(train):
        if number == 1:
            expected['hyperparameters'].update(message(value, {
                1: ('optimizer', 's'), 2: ('learning_rate', 'f'), 3: ('loss_function', 's'), 4: ('epoch', 'i'),
                5: ('parallel_mode', 's'), 6: ('device_num', 'i'), 8: ('batch_size', 'i')}))
        elif number == 2:
            expected['dataset'].update(message(value, {1: ('train_dataset_path', 's'), 2: ('train_dataset_size', 'i')}))
        elif number == 3:
            algorithm = message(value, {1: ('network', 's'), 2: ('loss', 'f')})
            if 'network' in algorithm:
                expected['hyperparameters']['network'] = algorithm['network']
            if 'loss' in algorithm:
                expected['metrics']['loss'] = algorithm['loss']
        elif number == 4:
            model = dict((n, v) for n, _, v in fields(value))
            expected['model']['path'] = model[3].decode()
            expected['model']['size'] = model[4]
    for number, _, value in fields(evaluation):
        if number == 2:
            expected['metrics'].update(json.loads(value.decode()))
        elif number == 3:
            expected['dataset'].update(message(value, {1: ('valid_dataset_path', 's'), 2: ('valid_dataset_size', 'i')}))
    return expected


def same(got, want):
    if isinstance(want, float):
        # The CLI prints a float32 in its shortest form, read back as a double.
        return isinstance(got, (int, float)) and math.isclose(got, want, rel_tol=1e-6)
    if isinstance(want, int) and not isinstance(want, bool):
        return isinstance(got, (int, float)) and got == want
    return str(got) == str(want)


def run_cli(cli, *args):
    env = dict(os.environ, LC_ALL='C.UTF-8', LANGUAGE='C')
    result = subprocess.run([cli, 'lineage', *args], capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, (args, result.returncode, result.stderr)
    return result.stdout


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    cli = sys.argv[1]
    datasets = os.environ.get('SL_DATASETS_DIR', '')
    root = os.path.join(datasets, FOLDER)
    if not datasets or not os.path.isdir(root):
        print('the datasets folder is absent: skipped')
        return 77

    present = [r for r in RUNS if os.path.isdir(os.path.join(root, r))]
    expected = [read_run(os.path.join(root, r)) for r in present]
    for run, lr, epoch, batch in zip(expected, LEARNING_RATES, EPOCHS, BATCH_SIZES):
        assert math.isclose(run['hyperparameters']['learning_rate'], lr, rel_tol=1e-6), run
        assert run['hyperparameters']['epoch'] == epoch and run['hyperparameters']['batch_size'] == batch, run
        assert 'Accuracy' in run['metrics'], run

    doc = json.loads(run_cli(cli, '--json', root))
    names = [r['name'] for r in doc['runs']]
    assert names[:len(present)] == present, names
    checked = 0
    for got, want in zip(doc['runs'], expected):
        for group, values in want.items():
            assert set(got[group]) == set(values), (got['name'], group, sorted(got[group]), sorted(values))
            for key, value in values.items():
                assert same(got[group][key], value), (got['name'], group, key, got[group][key], value)
                checked += 1
    assert doc['problems'] == [], doc['problems']
    types = {c['id']: c['type'] for c in doc['columns']}
    assert types['hyperparameters/learning_rate'] == 'numeric'
    assert types['metrics/Accuracy'] == 'numeric'
    assert types['hyperparameters/optimizer'] == 'categorical'

    # The CSV holds the same values, one row a run, headed by column ids.
    rows = list(csv.reader(io.StringIO(run_cli(cli, '--csv', root))))
    header = rows[0]
    assert header[0] == 'name' and len(header) == len(doc['columns']) + 1, header
    for row, got in zip(rows[1:], doc['runs']):
        assert row[0] == got['name']
        for column_id, text in zip(header[1:], row[1:]):
            group, key = column_id.split('/', 1)
            value = got[group].get(key)
            if value is None:
                assert text == '', (got['name'], column_id, text)
            elif isinstance(value, (int, float)):
                assert math.isclose(float(text), value, rel_tol=1e-12), (column_id, text, value)
            else:
                assert text == value, (column_id, text, value)

    # One run's folder alone.
    doc = json.loads(run_cli(cli, '--json', os.path.join(root, present[0])))
    assert [r['name'] for r in doc['runs']] == [present[0]], doc['runs']
    print(f'{len(present)} runs, {checked} values checked')
    return 0


if __name__ == '__main__':
    sys.exit(main())
