#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""sightline-demo-train writes genuine summaries that sightline-cli reads back
with the expected tags and counts, learns (the loss falls), and takes its
parameters from MINDINSIGHT_HYPER_CONFIG the way MindInsight's tuner passes them.

Usage: check-demo-train.py DEMO_TRAIN SIGHTLINE_CLI
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile


def run(args, env=None, expect=0):
    proc = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == expect, f'{args} exited {proc.returncode}, not {expect}:\n{proc.stdout}\n{proc.stderr}'
    return proc


def summary(cli, folder):
    data = json.loads(run([cli, 'summary', folder, '--json']).stdout)
    assert len(data['runs']) == 1, data['runs']
    return data['runs'][0]


def tags_of(run_info):
    return {(t['kind'], t['tag']): t for t in run_info['tags']}


def main():
    demo, cli = sys.argv[1:3]
    env = {k: v for k, v in os.environ.items() if k != 'MINDINSIGHT_HYPER_CONFIG'}
    env['LC_ALL'] = 'C.UTF-8'

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'summary')
        run([demo, '--epochs', '8', '--summary-dir', out], env=env)
        names = sorted(os.listdir(out))
        assert len(names) == 2 and names[0].endswith('_MS') and names[1].endswith('_lineage'), names

        info = summary(cli, out)
        assert info['bad_records'] == 0
        tags = tags_of(info)
        steps = 8 * (1024 // 32)
        for tag in ('loss', 'accuracy', 'learning_rate'):
            t = tags[('scalar', tag)]
            assert (t['points'], t['first_step'], t['last_step']) == (steps, 1, steps), t
        for tag in ('eval/loss', 'eval/accuracy'):
            assert tags[('scalar', tag)]['points'] == 8
        for layer in ('dense1', 'dense2', 'dense3'):
            for suffix in ('.weight', '.bias', '.weight/gradient'):
                assert tags[('histogram', layer + suffix)]['points'] == 8, (layer, suffix)
        assert tags[('image', 'input_samples')]['points'] == 1
        assert tags[('image', 'decision_boundary')]['points'] == 3  # epochs 1, 5 and 8
        assert tags[('tensor', 'dense3.weight')]['points'] == 3

        # The graph with scopes, as `sightline-cli graph` reads it back:
        # 11 ops (3 MatMul, 3 BiasAdd, 2 Tanh, the loss, its mean and the
        # optimizer), 8 parameters, 19 inputs, 10 scopes.
        graphs = json.loads(run([cli, 'graph', out, '--json']).stdout)['graphs']
        assert len(graphs) == 1, graphs
        g = graphs[0]
        assert (g['nodes'], g['parameters'], g['consts'], g['data_edges'], g['control_edges'], g['scopes']) == \
            (11, 8, 0, 19, 0, 10), g
        assert g['op_types'] == {'ApplyMomentum': 1, 'BiasAdd': 3, 'MatMul': 3, 'ReduceMean': 1,
                                 'SoftmaxCrossEntropyWithLogits': 1, 'Tanh': 2}, g['op_types']

        export = run([cli, 'summary-export', out, '--run', '.', '--tag', 'loss', '--format', 'csv']).stdout
        rows = list(csv.DictReader(io.StringIO(export)))
        assert len(rows) == steps
        first = sum(float(r['value']) for r in rows[:10]) / 10
        last = sum(float(r['value']) for r in rows[-10:]) / 10
        assert last < first * 0.6, f'the loss did not fall: {first:.3f} -> {last:.3f}'

        # The tuner's values win over the command line.
        hyper_dir = os.path.join(tmp, 'trial-1')
        hyper = dict(env, MINDINSIGHT_HYPER_CONFIG=json.dumps(
            {'summary_dir': hyper_dir, 'params': {'learning_rate': 0.1, 'batch_size': 64, 'epoch': 2}}))
        proc = run([demo, '--epochs', '9', '--summary-dir', os.path.join(tmp, 'ignored')], env=hyper)
        assert 'learning rate 0.1' in proc.stdout and 'batch 64' in proc.stdout, proc.stdout
        assert not os.path.exists(os.path.join(tmp, 'ignored'))
        assert tags_of(summary(cli, hyper_dir))[('scalar', 'loss')]['points'] == 2 * (1024 // 64)

        # Unknown parameters are reported, not fatal.
        unknown = dict(env, MINDINSIGHT_HYPER_CONFIG=json.dumps(
            {'summary_dir': os.path.join(tmp, 'trial-2'), 'params': {'epoch': 1, 'dropout': 0.5}}))
        proc = run([demo], env=unknown)
        assert 'dropout' in proc.stderr, proc.stderr

        # Bad hand-offs are refused with a message that names the variable.
        for bad in ('{not json', '[1, 2]', json.dumps({'params': {'learning_rate': 'fast'}}),
                    json.dumps({'summary_dir': 3}), json.dumps({'summary_dir': 'x' * 100001})):
            proc = run([demo, '--summary-dir', os.path.join(tmp, 'bad')], env=dict(env, MINDINSIGHT_HYPER_CONFIG=bad), expect=2)
            assert 'MINDINSIGHT_HYPER_CONFIG' in proc.stderr, (bad[:40], proc.stderr)
        assert not os.path.exists(os.path.join(tmp, 'bad'))

        for args in (['--epochs', '0'], ['--lr', '-1'], ['--batch-size', '5000'], ['--hidden', '1000']):
            run([demo, '--summary-dir', os.path.join(tmp, 'bad')] + list(args), env=env, expect=2)

    print('demo training job: summaries, learning, hyperparameter hand-off and bad input all as expected')
    return 0


if __name__ == '__main__':
    sys.exit(main())
