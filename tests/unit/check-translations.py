#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fails on any user-visible string without a Simplified Chinese translation.

1. Every file holding translatable strings is listed in po/POTFILES.in.
2. The strings of those files (extracted with xgettext, as the build does)
   all have a translation in po/zh_CN.po that is neither empty nor fuzzy.
3. msgfmt --check accepts zh_CN.po (format directives match).

Usage: check-translations.py SOURCE_ROOT
"""
import os
import re
import subprocess
import sys
import tempfile

TRANSLATABLE = re.compile(r'(\b_\(\s*"|\bN_\(\s*"|\bC_\(|\bg_dngettext\s*\(|\bngettext\s*\(|translatable="yes"|<_?summary|^Name=|^Comment=)', re.M)
SCAN_DIRS = ('src', 'data')
SKIP_SUFFIXES = ('.svg', '.png', '.json', '.css')
C_KEYWORDS = ['--keyword=_', '--keyword=N_', '--keyword=C_:1c,2', '--keyword=NC_:1c,2',
              '--keyword=g_dngettext:2,3', '--keyword=ngettext:1,2', '--keyword=NP_:1,2', '--keyword=g_dpgettext2:2c,3',
              '--flag=g_strdup_printf:1:c-format', '--flag=g_string_printf:2:c-format',
              '--flag=g_string_append_printf:2:c-format', '--flag=g_error_new:3:c-format',
              '--flag=g_set_error:4:c-format', '--flag=g_dngettext:2:pass-c-format',
              '--flag=g_dngettext:3:pass-c-format']


def listed_files(root):
    with open(os.path.join(root, 'po', 'POTFILES.in'), encoding='utf-8') as f:
        return [l.strip() for l in f if l.strip() and not l.startswith('#')]


def files_with_strings(root):
    found = []
    for top in SCAN_DIRS:
        for dirpath, _, filenames in os.walk(os.path.join(root, top)):
            for name in filenames:
                if name.endswith(SKIP_SUFFIXES) or name == 'meson.build' or name.endswith('.gschema.xml'):
                    continue
                path = os.path.join(dirpath, name)
                try:
                    with open(path, encoding='utf-8') as f:
                        text = f.read()
                except UnicodeDecodeError:
                    continue
                if TRANSLATABLE.search(text):
                    found.append(os.path.relpath(path, root))
    return sorted(found)


def extract(root, files, pot):
    groups = {'C': [], 'ui': [], 'desktop': [], 'metainfo': []}
    for rel in files:
        if rel.endswith(('.c', '.h')):
            groups['C'].append(rel)
        elif rel.endswith('.ui'):
            groups['ui'].append(rel)
        elif rel.endswith('.desktop.in'):
            groups['desktop'].append(rel)
        elif rel.endswith('.metainfo.xml.in'):
            groups['metainfo'].append(rel)
        else:
            raise SystemExit(f'do not know how to extract strings from {rel}')

    base = ['xgettext', '--from-code=UTF-8', '--add-comments=Translators', '--output', pot,
            '--directory', root, '--package-name=sightline']
    first = True
    for kind, members in groups.items():
        if not members:
            continue
        args = list(base)
        if not first:
            args.append('--join-existing')
        if kind == 'C':
            args += ['--language=C'] + C_KEYWORDS
        elif kind == 'ui':
            args += ['--language=Glade']
        elif kind == 'desktop':
            args += ['--language=Desktop']
        subprocess.run(args + members, check=True)
        first = False


def po_entries(path):
    """msgid -> (translated, fuzzy) for every non-header, non-obsolete entry."""
    result = subprocess.run(['msgattrib', '--no-obsolete', '--no-wrap', path],
                            check=True, capture_output=True, text=True)
    entries = {}
    for block in result.stdout.split('\n\n'):
        lines = block.strip().split('\n')
        fuzzy = any(l.startswith('#,') and 'fuzzy' in l for l in lines)
        msgid = None
        translated = True
        field = None
        for l in lines:
            # A string with a newline in it spans several quoted lines even
            # with --no-wrap: join them, or it would never be checked.
            if l.startswith('"') and field == 'msgid':
                msgid = msgid[:-1] + l[1:]
                continue
            if l.startswith('"') and field == 'msgstr' and l != '""':
                translated = True
                continue
            field = None
            if l.startswith('msgid '):
                msgid = l[6:]
                field = 'msgid'
            elif re.match(r'msgstr(\[\d+\])? ""$', l):
                translated = False
                field = 'msgstr'
        if msgid and msgid != '""':
            entries[msgid] = (translated, fuzzy)
    return entries


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = sys.argv[1]
    po = os.path.join(root, 'po', 'zh_CN.po')
    errors = []

    listed = listed_files(root)
    for rel in files_with_strings(root):
        if rel not in listed:
            errors.append(f'{rel} has translatable strings but is not listed in po/POTFILES.in')
    for rel in listed:
        if not os.path.exists(os.path.join(root, rel)):
            errors.append(f'po/POTFILES.in lists {rel}, which does not exist')

    with tempfile.TemporaryDirectory() as tmp:
        pot = os.path.join(tmp, 'sightline.pot')
        extract(root, [f for f in listed if os.path.exists(os.path.join(root, f))], pot)
        wanted = po_entries(pot)
        have = po_entries(po)
        if len(wanted) < 50:
            errors.append(f'only {len(wanted)} strings were extracted; the extraction is broken')
        for msgid in wanted:
            if msgid not in have:
                errors.append(f'zh_CN.po has no entry for {msgid}')
            elif have[msgid][1]:
                errors.append(f'zh_CN.po entry is fuzzy: {msgid}')
            elif not have[msgid][0]:
                errors.append(f'zh_CN.po entry is untranslated: {msgid}')

    check = subprocess.run(['msgfmt', '--check', '--statistics', '-o', os.devnull, po],
                           capture_output=True, text=True)
    if check.returncode != 0:
        errors.append('msgfmt --check failed:\n' + check.stderr)

    for e in errors:
        print(e)
    if errors:
        print(f'{len(errors)} translation problems', file=sys.stderr)
        return 1
    print(f'{len(wanted)} strings, all translated into Simplified Chinese ({check.stderr.strip()})')
    return 0


if __name__ == '__main__':
    sys.exit(main())
