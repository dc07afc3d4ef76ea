#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The peer of bench-sequence-align: aligns two op sequences the way
msprof-analyze's compare tool now does, with difflib.SequenceMatcher.

Each file holds one sequence of op keys as little-endian 32-bit integers.
Runs SequenceMatcher(None, base, comparison, autojunk=...) and
get_matching_blocks(), and prints one JSON line: the wall time, how many
ops it matched, the peak memory. After TIMEOUT seconds it stops and says
so (the time is then a lower bound).

Usage: sequence_align_peer.py BASE COMPARISON AUTOJUNK(0|1) TIMEOUT
"""
import array
import difflib
import json
import resource
import signal
import sys
import time


class TimedOut(Exception):
    pass


def on_alarm(signum, frame):
    raise TimedOut()


def load(path):
    keys = array.array('I')
    with open(path, 'rb') as f:
        keys.frombytes(f.read())
    if sys.byteorder != 'little':
        keys.byteswap()
    return keys.tolist()


def main():
    base = load(sys.argv[1])
    comparison = load(sys.argv[2])
    autojunk = sys.argv[3] == '1'
    timeout = float(sys.argv[4])

    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    start = time.perf_counter()
    matched = None
    try:
        matcher = difflib.SequenceMatcher(None, base, comparison, autojunk=autojunk)
        matched = sum(block.size for block in matcher.get_matching_blocks())
        timed_out = False
    except TimedOut:
        timed_out = True
    seconds = time.perf_counter() - start
    signal.setitimer(signal.ITIMER_REAL, 0)

    print(json.dumps({
        'seconds': seconds,
        'timed_out': timed_out,
        'matched': -1 if matched is None else matched,
        'peak_rss_bytes': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }))


if __name__ == '__main__':
    main()
