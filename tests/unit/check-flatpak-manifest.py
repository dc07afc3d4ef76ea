#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Checks the Flatpak manifest: the application id, runtime and command, a
# module with sources for every library the GNOME runtime lacks, and the
# application itself built last with meson from the source tree.
#
# Usage: check-flatpak-manifest.py MANIFEST.json

import json
import sys

APP_ID = 'io.github.sightline.Sightline'
RUNTIME = 'org.gnome.Platform'
SDK = 'org.gnome.Sdk'
COMMAND = 'sightline'

# Libraries the project links that the GNOME runtime does not ship, and
# protobuf, which provides the protoc used by protoc-c at build time.
MISSING_FROM_RUNTIME = ['libpanel', 'libssh', 'protobuf', 'protobuf-c', 'yajl']

REQUIRED_FINISH_ARGS = [
    '--share=ipc',
    '--socket=fallback-x11',
    '--socket=wayland',
    '--device=dri',
    '--share=network',
    '--socket=ssh-auth',
]


class Checker:
    def __init__(self):
        self.failures = 0

    def check(self, ok, message):
        if ok:
            print('ok - ' + message)
        else:
            print('not ok - ' + message)
            self.failures += 1
        return ok


def check_source(checker, module_name, index, source):
    where = 'module %s source %d' % (module_name, index)
    if not checker.check(isinstance(source, dict), where + ' is an object'):
        return
    kind = source.get('type')
    if kind in ('archive', 'file'):
        checker.check(str(source.get('url', '')).startswith('https://'),
                      where + ' downloads over https')
        sha256 = str(source.get('sha256', ''))
        checker.check(len(sha256) == 64 and all(c in '0123456789abcdef' for c in sha256),
                      where + ' has a sha256 checksum')
    elif kind == 'git':
        checker.check(bool(source.get('url')), where + ' has a url')
        checker.check(bool(source.get('tag') or source.get('commit')),
                      where + ' is pinned to a tag or commit')
    elif kind == 'dir':
        checker.check(bool(source.get('path')), where + ' has a path')
    else:
        checker.check(kind in ('patch', 'shell', 'script'), where + ' has a known type')


def main(argv):
    if len(argv) != 2:
        print('usage: %s MANIFEST.json' % argv[0], file=sys.stderr)
        return 2

    try:
        with open(argv[1], encoding='utf-8') as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        print('not ok - cannot read %s: %s' % (argv[1], e))
        return 1

    checker = Checker()
    print('# %s' % argv[1])

    checker.check(manifest.get('app-id', manifest.get('id')) == APP_ID, 'app-id is ' + APP_ID)
    checker.check(manifest.get('runtime') == RUNTIME, 'runtime is ' + RUNTIME)
    checker.check(manifest.get('sdk') == SDK, 'sdk is ' + SDK)
    checker.check(bool(str(manifest.get('runtime-version', ''))), 'runtime-version is set')
    checker.check(manifest.get('command') == COMMAND, 'command is ' + COMMAND)

    finish_args = manifest.get('finish-args', [])
    for arg in REQUIRED_FINISH_ARGS:
        checker.check(arg in finish_args, 'finish-args has ' + arg)

    modules = manifest.get('modules', [])
    if not checker.check(isinstance(modules, list) and len(modules) > 0, 'modules are listed'):
        return 1

    names = []
    for module in modules:
        if not checker.check(isinstance(module, dict), 'module is an object, not a file reference'):
            continue
        name = module.get('name', '')
        names.append(name)
        sources = module.get('sources', [])
        if checker.check(isinstance(sources, list) and len(sources) > 0,
                         'module %s has sources' % name):
            for i, source in enumerate(sources):
                check_source(checker, name, i, source)

    for name in MISSING_FROM_RUNTIME:
        checker.check(name in names, 'module %s is present' % name)

    if 'protobuf' in names and 'protobuf-c' in names:
        checker.check(names.index('protobuf') < names.index('protobuf-c'),
                      'protobuf is built before protobuf-c (protoc-c needs it)')
        protobuf_c = modules[names.index('protobuf-c')]
        checker.check('--disable-protoc' not in protobuf_c.get('config-opts', []),
                      'protobuf-c builds protoc-c')

    last = modules[-1] if isinstance(modules[-1], dict) else {}
    checker.check(last.get('name') == 'sightline', 'last module is sightline')
    checker.check(last.get('buildsystem') == 'meson', 'sightline builds with meson')
    checker.check(any(isinstance(s, dict) and s.get('type') == 'dir'
                      for s in last.get('sources', [])),
                  'sightline builds from the source tree')

    print('# %d failure(s)' % checker.failures)
    return 1 if checker.failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
