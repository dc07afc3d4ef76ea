#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sightline-cli detect` on every real JSON file of the datasets, against an
independent reading with Python's json module: a file is a Chrome trace when
it is an object with a "traceEvents" list or a list one of whose first
elements is an event. Each real object trace is then written again with its events after
megabytes of "metadata" (plain and gzip), the way some exporters order the
keys: `detect` must still call it a trace and `trace-stats` must count the
same events as in the original.

Usage: check-datasets-trace-recognition.py SIGHTLINE_CLI   (SL_DATASETS_DIR in the environment)
Exit 77 (skipped) when the datasets folder is absent.
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile

METADATA_SIZE = 3 * 1024 * 1024


def run_json(cli, *args):
    out = subprocess.run([cli, *args, '--json'], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def load(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8-sig') as f:
        return json.load(f)


def is_trace(doc):
    if isinstance(doc, dict):
        return isinstance(doc.get('traceEvents'), list)
    if not isinstance(doc, list):
        return False
    # One of the first elements, all objects, is an event
    for element in doc[:8]:
        if not isinstance(element, dict):
            return False
        if 'ph' in element or ('ts' in element and ('pid' in element or 'name' in element)):
            return True
    return False


def detected_kinds(cli, path):
    return [f['kind'] for f in run_json(cli, 'detect', path)['findings']]


def metadata_first(doc):
    """The same trace with a large "metadata" object first: copies of the
    events inside it, so "traceEvents" and "ph" occur nested many times
    before the real key."""
    events = doc['traceEvents']
    metadata = {'note': 'written before the events, like some exporters do', 'copies': []}
    size = 0
    chunk = json.dumps({'traceEvents': events[:50], 'other': {k: v for k, v in doc.items() if k != 'traceEvents'}})
    while size < METADATA_SIZE:
        metadata['copies'].append(json.loads(chunk))
        size += len(chunk)
    out = {'metadata': metadata}
    for key, value in doc.items():
        if key != 'traceEvents':
            out[key] = value
    out['traceEvents'] = events
    return out


def main():
    cli = sys.argv[1]
    root = os.environ.get('SL_DATASETS_DIR')
    if not root or not os.path.isdir(root):
        print('SL_DATASETS_DIR is not set; skipping')
        return 77

    paths = []
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith('.json') or name.endswith('.json.gz'):
                paths.append(os.path.join(folder, name))
    paths.sort()

    n_traces = n_other = n_rewritten = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            try:
                doc = load(path)
            except (ValueError, UnicodeDecodeError, OSError):
                continue
            kinds = detected_kinds(cli, path)
            if is_trace(doc):
                n_traces += 1
                assert kinds == ['trace'], (path, kinds)
            else:
                n_other += 1
                assert 'trace' not in kinds, (path, kinds)
                continue

            if not isinstance(doc, dict):
                continue
            expected = run_json(cli, 'trace-stats', path)['events']
            moved = metadata_first(doc)
            base = os.path.join(tmp, '%d' % n_rewritten)
            with open(base + '.json', 'w', encoding='utf-8') as f:
                json.dump(moved, f)
            with gzip.open(base + '.json.gz', 'wt', encoding='utf-8') as f:
                json.dump(moved, f)
            assert os.path.getsize(base + '.json') > METADATA_SIZE
            for variant in (base + '.json', base + '.json.gz'):
                assert detected_kinds(cli, variant) == ['trace'], (path, variant)
                assert run_json(cli, 'trace-stats', variant)['events'] == expected, (path, variant)
            n_rewritten += 1

    assert n_traces >= 20, n_traces
    assert n_other >= 5, n_other
    assert n_rewritten >= 10, n_rewritten
    print('%d traces, %d other JSON files, %d traces rewritten with metadata first' % (n_traces, n_other, n_rewritten))
    return 0


if __name__ == '__main__':
    sys.exit(main())
