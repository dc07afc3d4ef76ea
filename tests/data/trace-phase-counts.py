#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An independent reading of Chrome trace JSON files, for the data suite.

For every file named on the command line, prints (as one JSON object keyed
by path) whether it is a Chrome trace (a list of event objects, or an
object with a "traceEvents" list), its events counted by phase ("?" for
an event without one), the X events with a timestamp, and the counter
points (numeric args of C events). Uses only the json module.
"""
import gzip
import json
import sys
from decimal import Decimal, InvalidOperation


def has_time(value):
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    if isinstance(value, str):
        try:
            Decimal(value.strip())
            return True
        except InvalidOperation:
            return False
    return False


def read(path):
    opener = gzip.open if path.endswith('.gz') else open
    try:
        with opener(path, 'rb') as f:
            doc = json.loads(f.read())
    except (ValueError, OSError, EOFError) as e:
        return {'trace': False, 'invalid': str(e)}
    if isinstance(doc, dict) and isinstance(doc.get('traceEvents'), list):
        events = doc['traceEvents']
    elif isinstance(doc, list) and doc and all(isinstance(e, dict) for e in doc) and any('ph' in e for e in doc):
        events = doc
    else:
        return {'trace': False}
    phases, x_with_ts, counter_points = {}, 0, 0
    for e in events:
        if not isinstance(e, dict):
            continue
        ph = e.get('ph')
        ph = ph if isinstance(ph, str) and ph else '?'
        phases[ph] = phases.get(ph, 0) + 1
        if ph == 'X' and has_time(e.get('ts')):
            x_with_ts += 1
        if ph == 'C' and has_time(e.get('ts')) and isinstance(e.get('args'), dict):
            counter_points += sum(1 for v in e['args'].values()
                                  if isinstance(v, (int, float)) and not isinstance(v, bool))
    return {'trace': True, 'events': sum(phases.values()), 'phases': phases,
            'x_with_ts': x_with_ts, 'counter_points': counter_points}


def main():
    print(json.dumps({path: read(path) for path in sys.argv[1:]}))


if __name__ == '__main__':
    main()
