#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs `sightline-cli trace-stats` and `trace-slice` on traces made here.

The trace is written by this script with every phase the importer draws
(X, B/E, i, C, b/n/e, s/f, M) plus one it only counts (O), with times as
numbers and as epoch-microsecond strings and flow ids above 2^53. What the
commands print is checked against this script's own reading of the same
events; an exported range is imported again and must hold exactly the
events that overlap it, and so must a step of a profiler folder made of
the same trace (--step), with its usage errors.

Usage: check-cli-trace.py   (SL_CLI names the sightline-cli binary)
"""
import collections
import gzip
import json
import os
import subprocess
import sys
import tempfile
from decimal import Decimal

CLI = os.environ.get('SL_CLI', 'sightline-cli')
BASE_US = 1700000000000000  # epoch microseconds, as torch_npu writes them


def ns(value):
    return int(Decimal(str(value)) * 1000)


def us_text(nanoseconds):
    return '%d.%03d' % divmod(nanoseconds, 1000)


def make_events():
    events = [
        {'ph': 'M', 'name': 'process_name', 'pid': 1, 'args': {'name': 'Python'}},
        {'ph': 'M', 'name': 'process_name', 'pid': 2, 'args': {'name': 'Ascend Hardware'}},
        {'ph': 'M', 'name': 'thread_name', 'pid': 1, 'tid': 11, 'args': {'name': 'main'}},
        {'ph': 'M', 'name': 'thread_name', 'pid': 2, 'tid': 'stream 3', 'args': {'name': 'Stream 3'}},
        {'ph': 'M', 'name': 'process_sort_index', 'pid': 2, 'args': {'sort_index': -1}},
        {'ph': 'O', 'name': 'snapshot', 'pid': 1, 'ts': BASE_US, 'id': '0x1', 'args': {'snapshot': {'x': [1, 2]}}},
    ]
    flow_id = 2 ** 53 + 1
    for step in range(40):
        t0 = BASE_US * 1000 + step * 1_000_000
        # a step on the main thread with two nested ops, as strings
        events.append({'ph': 'X', 'name': 'ProfilerStep#%d' % step, 'cat': 'cpu_op', 'pid': 1, 'tid': 11,
                       'ts': us_text(t0), 'dur': '900.5', 'args': {'step': step, 'nested': {'a': [1, {'b': 2}]}}})
        for k in range(2):
            events.append({'ph': 'X', 'name': 'aten::mm', 'cat': 'cpu_op', 'pid': 1, 'tid': 11,
                           'ts': float(us_text(t0 + 1000 + k * 400_000)), 'dur': 300.25,
                           'args': {'Input Dims': [[2, 3], [3, 4]]}})
        # device kernels
        events.append({'ph': 'X', 'name': 'MatMul', 'cat': 'kernel', 'pid': 2, 'tid': 'stream 3',
                       'ts': us_text(t0 + 50_000), 'dur': 200})
        # B/E on a worker thread
        events.append({'ph': 'B', 'name': 'dataloader', 'pid': 1, 'tid': 12, 'ts': us_text(t0 + 10_000)})
        events.append({'ph': 'E', 'pid': 1, 'tid': 12, 'ts': us_text(t0 + 610_000)})
        events.append({'ph': 'i', 'name': 'mark', 'pid': 1, 'tid': 12, 'ts': us_text(t0 + 700_000), 's': 't'})
        # counters: two series in one event
        events.append({'ph': 'C', 'name': 'memory', 'pid': 1, 'ts': us_text(t0 + 5_000),
                       'args': {'allocated': step * 10, 'reserved': 1000.5}})
        # async with a nested child and an instant
        events.append({'ph': 'b', 'cat': 'io', 'name': 'prefetch', 'id2': {'local': '0x%x' % step}, 'pid': 1,
                       'ts': us_text(t0 + 20_000)})
        events.append({'ph': 'n', 'cat': 'io', 'name': 'tick', 'id2': {'local': '0x%x' % step}, 'pid': 1,
                       'ts': us_text(t0 + 30_000)})
        events.append({'ph': 'e', 'cat': 'io', 'name': 'prefetch', 'id2': {'local': '0x%x' % step}, 'pid': 1,
                       'ts': us_text(t0 + 420_000)})
        # host → device flow, f written before s as some writers do
        events.append({'ph': 'f', 'bp': 'e', 'cat': 'async_npu', 'name': 'launch', 'id': str(flow_id), 'pid': 2,
                       'tid': 'stream 3', 'ts': us_text(t0 + 50_000)})
        events.append({'ph': 's', 'cat': 'async_npu', 'name': 'launch', 'id': flow_id, 'pid': 1, 'tid': 11,
                       'ts': us_text(t0 + 1_100)})
        flow_id += 1
        if step == 12:
            # a chain: s on the main thread, a step (t) on the worker, f on the device
            for ph, tid, pid, dt in (('s', 11, 1, 2_000), ('t', 12, 1, 30_000), ('f', 'stream 3', 2, 50_100)):
                e = {'ph': ph, 'cat': 'chain', 'name': 'hop', 'id': 7, 'pid': pid, 'tid': tid, 'ts': us_text(t0 + dt)}
                if ph != 's':
                    e['bp'] = 'e'
                events.append(e)
    return events


def model(events):
    """What the importer should draw: slices (with kind), counter events, flows."""
    slices, counters, flows = [], [], []
    open_b = collections.defaultdict(list)
    open_async = {}
    flow_start = {}
    for e in events:
        ph = e.get('ph')
        if ph == 'X':
            slices.append(('X', ns(e['ts']), ns(e['ts']) + ns(e['dur'])))
        elif ph == 'i':
            slices.append(('i', ns(e['ts']), ns(e['ts'])))
        elif ph == 'B':
            open_b[(e['pid'], e['tid'])].append(ns(e['ts']))
        elif ph == 'E':
            start = open_b[(e['pid'], e['tid'])].pop()
            slices.append(('X', start, ns(e['ts'])))
        elif ph == 'b':
            open_async[e['id2']['local']] = ns(e['ts'])
        elif ph == 'e':
            slices.append(('b', open_async.pop(e['id2']['local']), ns(e['ts'])))
        elif ph == 'n':
            slices.append(('n', ns(e['ts']), ns(e['ts'])))
        elif ph == 'C':
            counters.append((ns(e['ts']), len(e['args'])))
        elif ph in ('s', 't', 'f'):
            flow_start.setdefault((int(e['id']), e['cat']), []).append(ns(e['ts']))
    # each chain s → t … → f, its points in time order
    for points in flow_start.values():
        flows.append(sorted(points))
    return slices, counters, flows


def run(*args, expect=0):
    result = subprocess.run([CLI, *args], capture_output=True, text=True)
    if result.returncode != expect:
        sys.exit('%s %s: exit %d, expected %d\n%s%s' % (CLI, ' '.join(args), result.returncode, expect,
                                                       result.stdout, result.stderr))
    return result.stdout


def check(condition, message):
    if not condition:
        sys.exit('FAIL: ' + message)


def stats(path):
    return json.loads(run('trace-stats', '--json', path))


def run_status(*args):
    # the timeout only stops a hang (a FIFO opened for reading blocks)
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)


def check_faulty_inputs(tmp):
    """A FIFO is refused at once; a trace the reader stops in (nested 10^6
    deep, damaged JSON) is reported and the command exits 1, with what was
    read before printed or written; a trace cut off at its end (a warning)
    still exits 0."""
    event = {'ph': 'X', 'name': 'kept', 'pid': 1, 'tid': 1, 'ts': 1, 'dur': 2}
    out = os.path.join(tmp, 'faulty-slice.json')

    if hasattr(os, 'mkfifo'):
        fifo = os.path.join(tmp, 'trace-fifo.json')
        os.mkfifo(fifo)
        for args in (('trace-stats', fifo), ('trace-stats', '--json', fifo), ('trace-slice', fifo, '-o', out)):
            result = run_status(*args)
            check(result.returncode == 1, '%s on a FIFO: exit %d' % (args[0], result.returncode))
            check('%s is not a regular file (a FIFO)' % fifo in result.stderr, 'FIFO named: %r' % result.stderr)
        os.remove(fifo)

    deep = os.path.join(tmp, 'deep.json')
    with open(deep, 'w') as f:
        f.write('[' + json.dumps(event) + ',' + '[' * 10**6 + ']' * 10**6 + ']')
    result = run_status('trace-stats', deep)
    check(result.returncode == 1, 'deep trace: exit %d' % result.returncode)
    check(': 1 event\n' in result.stdout, 'the event before the depth is kept: %r' % result.stdout)
    check('error: ' in result.stderr and 'nests more than 1000 levels' in result.stderr, 'depth reported: %r' % result.stderr)
    result = run_status('trace-stats', '--json', deep)
    check(result.returncode == 1, 'deep trace --json: exit %d' % result.returncode)
    problems = json.loads(result.stdout)['problems']
    check([p['severity'] for p in problems] == ['error'], 'one error: %r' % problems)

    damaged = os.path.join(tmp, 'damaged.json')
    with open(damaged, 'w') as f:
        f.write('{"traceEvents":[' + json.dumps(event) + ', {"ph":"X",,, ]}')
    result = run_status('trace-stats', damaged)
    check(result.returncode == 1, 'damaged trace: exit %d' % result.returncode)
    check('JSON is damaged' in result.stderr, 'damage reported: %r' % result.stderr)
    result = run_status('trace-slice', damaged, '-o', out)
    check(result.returncode == 1, 'trace-slice of a damaged trace: exit %d' % result.returncode)
    check('JSON is damaged' in result.stderr, 'trace-slice lists the damage: %r' % result.stderr)
    with open(out) as f:
        written = json.load(f)
    written = written['traceEvents'] if isinstance(written, dict) else written
    check([e['name'] for e in written if e.get('ph') == 'X'] == ['kept'], 'the event before is written: %r' % written)

    cut = os.path.join(tmp, 'cut.json')
    with open(cut, 'w') as f:
        f.write('[' + json.dumps(event) + ', ' + json.dumps(event)[:20])
    result = run_status('trace-stats', cut)
    check(result.returncode == 0 and 'warning: ' in result.stderr, 'a cut-off trace warns, exit 0: %d %r'
          % (result.returncode, result.stderr))

    # The JSON Array Format may end without its "]", after an event or
    # its comma: nothing is missing, nothing to warn of.
    for ending in ('', ',', ',\n', '\n'):
        open_array = os.path.join(tmp, 'open.json')
        with open(open_array, 'w') as f:
            f.write('[' + json.dumps(event) + ',\n' + json.dumps(event) + ending)
        result = run_status('trace-stats', open_array)
        check(result.returncode == 0 and result.stderr == '' and '2 events' in result.stdout,
              'an array without its "]" after %r: %d %r %r' % (ending, result.returncode, result.stderr, result.stdout))
    # An object's events array is not that format: its end is missing.
    with open(open_array, 'w') as f:
        f.write('{"traceEvents": [' + json.dumps(event) + ',')
    result = run_status('trace-stats', open_array)
    check(result.returncode == 0 and 'warning: ' in result.stderr, 'an object cut off warns: %d %r'
          % (result.returncode, result.stderr))


def check_no_times(tmp):
    """A trace where nothing was read with a time has no time span: no
    start, end or span of 0 ns, which would be times; an instant at 0 ns,
    a counter value or a flow alone is one."""
    cases = (
        ('no-events.json', '{"traceEvents": []}', None),
        ('metadata.json', '[{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "p"}}]', None),
        ('no-ts.json', '[{"ph": "X", "name": "a", "pid": 1, "tid": 1}]', None),
        ('at-zero.json', '[{"ph": "i", "name": "i", "pid": 1, "tid": 1, "ts": 0}]', (0, 0)),
        ('counter-only.json', '[{"ph": "C", "name": "c", "pid": 1, "ts": 3, "args": {"v": 1}}]', (3000, 3000)),
        ('flow-only.json', '[{"ph": "s", "name": "f", "cat": "c", "id": 1, "pid": 1, "tid": 1, "ts": 5},'
                           ' {"ph": "f", "name": "f", "cat": "c", "id": 1, "pid": 1, "tid": 2, "ts": 9, "bp": "e"}]',
         (5000, 9000)),
    )
    for name, text, span in cases:
        path = os.path.join(tmp, name)
        with open(path, 'w') as f:
            f.write(text)
        s = stats(path)
        if span is None:
            check(s['start_ns'] is None and s['end_ns'] is None and s['span_ns'] is None,
                  '%s: no time span: %r' % (name, s))
            check('time span: none, nothing read has a time' in run('trace-stats', path),
                  '%s: the text says there is no time span' % name)
        else:
            check((s['start_ns'], s['end_ns'], s['span_ns']) == (span[0], span[1], span[1] - span[0]),
                  '%s: span %r' % (name, s))
            check('(from %d ns to %d ns)' % span in run('trace-stats', path),
                  '%s: the text gives the span' % name)


def main():
    events = make_events()
    slices, counters, flows = model(events)
    phases = collections.Counter(e['ph'] for e in events)
    start = min(min(s[1] for s in slices), min(c[0] for c in counters), min(f[0] for f in flows))
    end = max(max(s[2] for s in slices), max(f[-1] for f in flows))
    n_arrows = sum(len(chain) - 1 for chain in flows)

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'trace.json')
        with open(path, 'w') as f:
            json.dump({'displayTimeUnit': 'ns', 'traceEvents': events, 'metadata': {'x': 1}}, f)
        gz_path = os.path.join(tmp, 'trace.json.gz')
        with open(path, 'rb') as f, gzip.open(gz_path, 'wb') as g:
            g.write(f.read())

        for p in (path, gz_path):
            s = stats(p)
            check(s['phases'] == dict(phases), 'phases %r != %r' % (s['phases'], dict(phases)))
            check(s['events'] == len(events), 'event count')
            check(s['slices'] + s['instants'] == len(slices), 'slices %d + %d != %d' % (s['slices'], s['instants'], len(slices)))
            check(s['counter_points'] == sum(c[1] for c in counters), 'counter points')
            check(s['counter_tracks'] == 2, 'one counter track per series')
            check(s['flows'] == n_arrows, 'flows %d != %d' % (s['flows'], n_arrows))
            check(s['processes'] == 2, 'processes')
            check(s['threads'] == 3, 'threads')
            check(s['start_ns'] == start and s['end_ns'] == end,
                  'span %d..%d != %d..%d' % (s['start_ns'], s['end_ns'], start, end))
            check(s['problems'] == [], 'no problems: %r' % s['problems'])
            totals = [row['total_ns'] for row in s['top_names']]
            check(len(totals) == 20 and totals == sorted(totals, reverse=True), 'top 20 by total')
            check(s['top_names'][0]['name'] == 'aten::mm', 'longest total: %r' % s['top_names'][0])
            mm = [row for row in s['top_names'] if row['name'] == 'aten::mm'][0]
            check(mm['count'] == 80 and mm['total_ns'] == 80 * 300_250, 'aten::mm aggregate %r' % mm)
            step = [row for row in s['top_names'] if row['name'] == 'ProfilerStep#1'][0]
            check(step['self_ns'] == 900_500 - 2 * 300_250, 'self time %r' % step)

        # text output and its exit status
        text = run('trace-stats', path)
        check('ProfilerStep' in text and 'aten::mm' in text, 'text output lists names')

        # a range: steps 10..19 as microseconds from the trace's start
        from_us, to_us = 10_000 + 0.5, 19_999.25
        lo, hi = start + ns(from_us), start + ns(to_us)
        out = os.path.join(tmp, 'slice.json')
        printed = run('trace-slice', path, '--from', str(from_us), '--to', str(to_us), '-o', out)
        check(out in printed, 'trace-slice says where it wrote')
        with open(out) as f:
            exported = json.load(f)['traceEvents']
        got = collections.Counter(e['ph'] for e in exported)
        inside = [sl for sl in slices if sl[1] <= hi and sl[2] >= lo]
        expected = collections.Counter()
        for kind, _, _ in inside:
            if kind == 'b':
                expected['b'] += 1
                expected['e'] += 1
            else:
                expected[kind] += 1
        expected['M'] = phases['M']
        expected['C'] = sum(1 for c in counters if lo <= c[0] <= hi)
        chains = [chain for chain in flows if lo <= chain[0] and chain[-1] <= hi]
        check(len(chains) == 11, 'ten flows and one chain in the range')
        n_flows = sum(len(chain) - 1 for chain in chains)
        expected['s'] = expected['f'] = len(chains)
        expected['t'] = sum(len(chain) - 2 for chain in chains)
        expected = +expected
        check(got == expected, 'exported phases %r != %r' % (dict(got), dict(expected)))
        # copied events are the original ones, args and all
        originals = {json.dumps(e, sort_keys=True) for e in events}
        copied = [e for e in exported if e['ph'] == 'X' and 'ProfilerStep' in e['name']]
        check(copied and all(json.dumps(e, sort_keys=True) in originals for e in copied), 'X events copied verbatim')

        # the export imports again to exactly those events
        s = stats(out)
        check(s['phases'] == dict(expected), 're-import phases %r' % s['phases'])
        check(s['slices'] + s['instants'] == len(inside), 're-import slices')
        check(s['flows'] == n_flows, 're-import flows')
        check(s['counter_points'] == sum(c[1] for c in counters if lo <= c[0] <= hi), 're-import counter points')
        check(s['problems'] == [], 're-import problems %r' % s['problems'])

        # one track by its name; CSV rows are the slices
        out_csv = os.path.join(tmp, 'slice.csv')
        run('trace-slice', path, '--from', str(from_us), '--to', str(to_us), '--track', 'main',
            '-o', out_csv, '--format', 'csv')
        with open(out_csv) as f:
            rows = f.read().splitlines()
        check(rows[0].startswith('track,process,thread,name'), 'CSV header')
        main_rows = [r for r in rows[1:] if ',main,' in r]
        check(len(rows) - 1 == len(main_rows) == 30, 'CSV rows of main: %d' % (len(rows) - 1))

        out_gz_slice = os.path.join(tmp, 'slice-gz.json')
        run('trace-slice', gz_path, '--from', str(from_us), '--to', str(to_us), '-o', out_gz_slice)
        check(stats(out_gz_slice)['phases'] == dict(expected), 'export from gzip')

        # damage: the prefix is kept and the problem has the offset
        with open(path, 'rb') as f:
            data = f.read()
        cut = os.path.join(tmp, 'cut.json')
        with open(cut, 'wb') as f:
            f.write(data[:len(data) // 2])
        s = stats(cut)
        check(0 < s['events'] < len(events), 'a cut file keeps its first events')
        check(any(p['offset'] == len(data) // 2 for p in s['problems']), 'cut offset reported: %r' % s['problems'])

        # a step of a profiler folder: a step table of durations only, so
        # the step is the timeline's ProfilerStep#11 slice
        folder = os.path.join(tmp, 'run_ascend_pt', 'ASCEND_PROFILER_OUTPUT')
        os.makedirs(folder)
        with open(os.path.join(folder, 'trace_view.json'), 'w') as f:
            json.dump(events, f)
        with open(os.path.join(folder, 'step_trace_time.csv'), 'w') as f:
            f.write('Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble\n')
            for step in (10, 11, 12):
                f.write('%d,700.5,0,0,0,200,900.5,0\n' % step)
        profile = os.path.dirname(folder)
        lo = BASE_US * 1000 + 11 * 1_000_000
        hi = lo + 900_500
        out_step = os.path.join(tmp, 'step11.json')
        printed = run('trace-slice', profile, '--step', '11', '-o', out_step)
        check(out_step in printed, 'trace-slice --step says where it wrote')
        with open(out_step) as f:
            exported = json.load(f)['traceEvents']
        names = [e['name'] for e in exported if e['ph'] == 'X']
        check('ProfilerStep#11' in names and 'ProfilerStep#10' not in names and 'ProfilerStep#12' not in names,
              'only step 11 of the steps: %r' % [n for n in names if n.startswith('ProfilerStep')])
        overlapping = [sl for sl in slices if sl[0] == 'X' and sl[1] <= hi and sl[2] >= lo]
        check(len(names) == len(overlapping), 'step 11 has %d slices, %d expected' % (len(names), len(overlapping)))
        check(run('trace-slice', profile, '--step', '11', '--rank', '0', '-o', out_step) == printed, '--rank 0 is the same')
        run('trace-slice', profile, '--step', '99', '-o', out_step, expect=1)
        run('trace-slice', profile, '--step', '11', '--rank', '3', '-o', out_step, expect=1)
        run('trace-slice', profile, '--step', 'eleven', '-o', out_step, expect=2)
        run('trace-slice', profile, '--step', '11', '--from', '0', '-o', out_step, expect=2)
        run('trace-slice', profile, '--rank', '0', '-o', out_step, expect=2)
        run('trace-slice', path, '--step', '11', '-o', out_step, expect=1)

        # usage errors
        run('trace-slice', path, '--from', '1', expect=2)
        run('trace-slice', path, '-o', out, '--format', 'xml', expect=2)
        run('trace-slice', path, '-o', out, '--track', 'no such track', expect=2)
        run('trace-stats', expect=2)
        run('trace-stats', os.path.join(tmp, 'missing.json'), expect=1)
        check_faulty_inputs(tmp)
        check_no_times(tmp)
    print('check-cli-trace: all good')


if __name__ == '__main__':
    main()
