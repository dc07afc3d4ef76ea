#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fails when one step phase is translated two ways in po/zh_CN.po.

A step trace's phase reads the same in the Steps view, the Cluster rank
table, Compare Profiles, the Advisor and the command line: every label of
one source phase ("Tail", "tail", "Tail (ms)") has the same Chinese term.

Usage: check-phase-terms.py SOURCE_ROOT
"""
import os
import sys

# The labels of each phase, as the sources name them.
PHASES = [
    ['Tail', 'tail', 'Tail (ms)'],
    ['FP+BP', 'FP+BP (ms)', 'Forward and backward', 'forward and backward', 'Forward and backward (ms)'],
    ['Data wait', 'data wait', 'Data wait (ms)'],
    ['Computing', 'computing', 'Computing (ms)'],
    ['communication not overlapped', 'Not overlapped comm. (ms)'],
]


def unquote(line):
    return line[line.index('"') + 1:line.rindex('"')].replace('\\"', '"')


def read_po(path):
    """msgid → msgstr of the singular, non-context entries."""
    entries = {}
    msgid = msgstr = None
    field = None
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line.startswith('msgid '):
                if msgid is not None and msgstr is not None:
                    entries[msgid] = msgstr
                msgid, msgstr, field = unquote(line), None, 'id'
            elif line.startswith('msgstr '):
                msgstr, field = unquote(line), 'str'
            elif line.startswith('"') and field == 'id':
                msgid += unquote(line)
            elif line.startswith('"') and field == 'str':
                msgstr += unquote(line)
            elif line.startswith(('msgctxt', 'msgid_plural', 'msgstr[')) or not line:
                if msgid is not None and msgstr is not None:
                    entries[msgid] = msgstr
                msgid = msgstr = field = None
    if msgid is not None and msgstr is not None:
        entries[msgid] = msgstr
    return entries


def main():
    entries = read_po(os.path.join(sys.argv[1], 'po', 'zh_CN.po'))
    failures = 0
    for labels in PHASES:
        terms = {}
        for label in labels:
            if label not in entries:
                print(f'"{label}" has no zh_CN translation')
                failures += 1
                continue
            term = entries[label]
            for unit in (' (ms)', '（ms）'):
                if term.endswith(unit):
                    term = term[:-len(unit)]
            terms.setdefault(term, []).append(label)
        if len(terms) > 1:
            print('one phase, several terms: ' +
                  '; '.join(f'{term} for {", ".join(names)}' for term, names in terms.items()))
            failures += 1
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
