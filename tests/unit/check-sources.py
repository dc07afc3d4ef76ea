#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Architecture rules that the compiler does not check.

1. Nothing under src/core or src/remote includes a GTK, GDK, libadwaita or
   libpanel header: they are GTK-free libraries.
2. POSIX-only calls and headers (fork, unistd.h, signals, ...) appear only in
   the platform file, so the code builds on Windows (MSYS2).
3. Every C source and header starts with an SPDX licence line.
4. Views know nothing of each other and the shell knows none by name:
   under src/ui, a header of a view's folder (summaries/, profile/,
   timeline/, ...) is included only in that folder and in the one file that
   registers the views, src/ui/document/sl-document-kinds.c.

Usage: check-sources.py SOURCE_ROOT | --self-test
"""
import os
import re
import sys
import tempfile

GUI_HEADER = re.compile(r'#\s*include\s*[<"](gtk/|gdk/|gsk/|adwaita\.h|libpanel\.h|panel-)')
POSIX_ONLY = [
    (re.compile(r'\bfork\s*\('), 'fork()'),
    (re.compile(r'\bvfork\s*\('), 'vfork()'),
    (re.compile(r'\bexec[lv]p?e?\s*\('), 'exec*()'),
    (re.compile(r'\bwaitpid\s*\('), 'waitpid()'),
    (re.compile(r'\bpopen\s*\('), 'popen()'),
    (re.compile(r'\bkill\s*\('), 'kill()'),
    (re.compile(r'\bstrcasestr\s*\('), 'strcasestr()'),
    (re.compile(r'#\s*include\s*<(unistd|signal|dirent|termios|pwd|grp|dlfcn|pthread)\.h>'), 'a POSIX header'),
    (re.compile(r'#\s*include\s*<sys/(wait|socket|mman|resource|ioctl|select|un)\.h>'), 'a POSIX header'),
    (re.compile(r'#\s*include\s*<(netinet|arpa)/'), 'a POSIX header'),
]
PLATFORM_DIR = os.path.join('src', 'core', 'platform')
SPDX = re.compile(r'SPDX-License-Identifier:\s*GPL-3\.0-or-later')
INCLUDE = re.compile(r'#\s*include\s*"([^"]+)"')
SHARED_UI_DIRS = ('shell', 'document', 'dialogs', 'charts', 'widgets')
# The graph canvas lives with the graph view but is a widget: the MindX
# pipeline and dataset graph views draw with it too. The timeline pane and
# the link of two timeline views are widgets the comparison view shows its
# two timelines with. The tensor plot draws a tensor view's heatmap; the
# tensor comparison draws its error heatmap with it. The communication
# matrix and the comparison's two aligned timelines are widgets the cluster
# view shows too. The views' pages stay their own.
SHARED_UI_HEADERS = ('sl-graph-canvas.h', 'sl-timeline-link.h', 'sl-timeline-pane.h', 'sl-tensor-plot.h',
                     'sl-comm-matrix-view.h', 'sl-compare-timelines.h')
VIEW_REGISTRY = os.path.join('src', 'ui', 'document', 'sl-document-kinds.c')


def view_headers(root):
    """Maps each header of a view folder to that folder."""
    owners = {}
    ui = os.path.join(root, 'src', 'ui')
    if not os.path.isdir(ui):
        return owners
    for folder in sorted(os.listdir(ui)):
        path = os.path.join(ui, folder)
        if not os.path.isdir(path) or folder in SHARED_UI_DIRS:
            continue
        for name in os.listdir(path):
            if name.endswith('.h') and name not in SHARED_UI_HEADERS:
                owners[name] = folder
    return owners


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def check_tree(root):
    errors = []
    owners = view_headers(root)
    src = os.path.join(root, 'src')
    for dirpath, _, filenames in os.walk(src):
        for name in sorted(filenames):
            if not name.endswith(('.c', '.h')):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            with open(path, encoding='utf-8') as f:
                raw = f.read()
            if not SPDX.search(raw[:2000]):
                errors.append(f'{rel}: no SPDX-License-Identifier line at the top')
            code = strip_comments(raw)
            lines = code.split('\n')
            gtk_free = rel.startswith(os.path.join('src', 'core')) or rel.startswith(os.path.join('src', 'remote'))
            platform = rel.startswith(PLATFORM_DIR)
            parts = rel.split(os.sep)
            ui_folder = parts[2] if len(parts) > 3 and parts[:2] == ['src', 'ui'] else None
            for number, line in enumerate(lines, 1):
                include = INCLUDE.search(line)
                if ui_folder is not None and include and rel != VIEW_REGISTRY:
                    owner = owners.get(os.path.basename(include.group(1)))
                    if owner is not None and owner != ui_folder:
                        errors.append(f'{rel}:{number}: includes a header of the {owner}/ view; '
                                      f'link views through actions and register them in {VIEW_REGISTRY}')
                if gtk_free and GUI_HEADER.search(line):
                    errors.append(f'{rel}:{number}: GTK-free code includes a GUI header: {line.strip()}')
                if not platform:
                    for pattern, what in POSIX_ONLY:
                        if pattern.search(line):
                            errors.append(f'{rel}:{number}: {what} outside {PLATFORM_DIR}: {line.strip()}')
    return errors


def self_test():
    """The checker must catch what it claims to catch."""
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)

        header = '/* SPDX-License-Identifier: GPL-3.0-or-later */\n'
        write('src/core/model/ok.c', header + '#include <glib.h>\n/* fork() in a comment is fine */\n')
        write('src/core/platform/sl-platform.c', header + '#include <unistd.h>\nint f (void) { return fork (); }\n')
        assert check_tree(root) == [], check_tree(root)

        write('src/core/model/bad.c', header + '#include <gtk/gtk.h>\n')
        write('src/remote/bad.c', header + '#include <libpanel.h>\n')
        write('src/ui/bad.c', header + '#include <unistd.h>\nvoid g (void) { fork (); }\n')
        write('src/ui/nolicense.c', '#include <glib.h>\n')
        write('src/ui/graph/sl-graph-page.h', header)
        write('src/ui/graph/sl-graph-page.c', header + '#include "sl-graph-page.h"\n')
        write('src/ui/document/sl-document-kinds.c', header + '#include "sl-graph-page.h"\n')
        write('src/ui/shell/sl-window.c', header + '#include "sl-graph-page.h"\n')
        write('src/ui/timeline/sl-timeline-page.c', header + '#include "sl-graph-page.h"\n')
        errors = check_tree(root)
        expected = ['src/core/model/bad.c:2', 'src/remote/bad.c:2', 'src/ui/bad.c:2', 'src/ui/bad.c:3',
                    'src/ui/nolicense.c: no SPDX', 'src/ui/shell/sl-window.c:2', 'src/ui/timeline/sl-timeline-page.c:2']
        for e in expected:
            assert any(err.startswith(e) for err in errors), (e, errors)
        assert len(errors) == len(expected), errors
    print('self-test passed')


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == '--self-test':
        self_test()
        return 0
    errors = check_tree(sys.argv[1])
    for e in errors:
        print(e)
    if errors:
        print(f'{len(errors)} rule violations', file=sys.stderr)
        return 1
    print('sources follow the layering, portability and licence rules')
    return 0


# The folder page and the document base name no view: a view's id (the
# first field of an entry of the registry's table) never appears in them
# as a string; what the folder page offers comes from the kinds.
NAMES_NO_VIEW = (os.path.join('src', 'ui', 'shell', 'sl-folder-page.c'),
                 os.path.join('src', 'ui', 'document', 'sl-document.c'))
KIND_ENTRY = re.compile(r'\{\s*"([a-z][a-z0-9-]*)"\s*,\s*sl_\w+_get_type\b')
STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def view_ids(root):
    path = os.path.join(root, VIEW_REGISTRY)
    if not os.path.exists(path):
        return set()
    with open(path, encoding='utf-8') as f:
        return set(KIND_ENTRY.findall(strip_comments(f.read())))


def check_view_names(root):
    errors = []
    ids = view_ids(root)
    for rel in NAMES_NO_VIEW:
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            continue
        with open(path, encoding='utf-8') as f:
            lines = strip_comments(f.read()).split('\n')
        for number, line in enumerate(lines, 1):
            for name in STRING.findall(line):
                if name in ids:
                    errors.append(f'{rel}:{number}: names the view "{name}"; '
                                  f'declare what it offers in its kind in {VIEW_REGISTRY}')
    return errors


def self_test_view_names():
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)

        header = '/* SPDX-License-Identifier: GPL-3.0-or-later */\n'
        write(VIEW_REGISTRY, header + '{ "lineage", sl_lineage_page_get_type, N_("Lineage: %s") },\n'
                                      '  { "scalars", sl_scalars_page_get_type, NULL },\n')
        write(NAMES_NO_VIEW[0], header + '/* "lineage" in a comment is fine */\n'
                                         'static const char *k = "lineage-ish";\n')
        write(NAMES_NO_VIEW[1], header + 'static const char *k = "scalars";\n')
        assert check_view_names(root) == [NAMES_NO_VIEW[1] + ':2: names the view "scalars"; declare what it offers '
                                          f'in its kind in {VIEW_REGISTRY}'], check_view_names(root)
        write(NAMES_NO_VIEW[0], header + 'g_variant_new ("(ssv)", "lineage", path);\n')
        assert len(check_view_names(root)) == 2, check_view_names(root)


_check_tree_without_view_names = check_tree
_self_test_without_view_names = self_test


def check_tree(root):  # noqa: F811 (adds the rule above to the others)
    return _check_tree_without_view_names(root) + check_view_names(root)


def self_test():  # noqa: F811
    self_test_view_names()
    _self_test_without_view_names()


if __name__ == '__main__':
    sys.exit(main())
