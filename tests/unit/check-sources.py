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
   registers the views, src/ui/shell/sl-document-kinds.c.

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
SHARED_UI_DIRS = ('shell', 'dialogs', 'charts', 'widgets')
# The graph canvas lives with the graph view but is a widget: the MindX
# pipeline and dataset graph views draw with it too. The timeline pane and
# the link of two timeline views are widgets the comparison view shows its
# two timelines with. The tensor plot draws a tensor view's heatmap; the
# tensor comparison draws its error heatmap with it. The communication
# matrix and the comparison's two aligned timelines are widgets the cluster
# view shows too. The views' pages stay their own.
SHARED_UI_HEADERS = ('sl-graph-canvas.h', 'sl-timeline-link.h', 'sl-timeline-pane.h', 'sl-tensor-plot.h',
                     'sl-comm-matrix-view.h', 'sl-compare-timelines.h')
VIEW_REGISTRY = os.path.join('src', 'ui', 'shell', 'sl-document-kinds.c')


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
        write('src/ui/shell/sl-document-kinds.c', header + '#include "sl-graph-page.h"\n')
        write('src/ui/shell/sl-window.c', header + '#include "sl-graph-page.h"\n')
        write('src/ui/timeline/sl-timeline-page.c', header + '#include "sl-graph-page.h"\n')
        errors = check_tree(root)
        expected = ['src/core/model/bad.c:2', 'src/remote/bad.c:2', 'src/ui/bad.c:2', 'src/ui/bad.c:3',
                    'src/ui/nolicense.c: no SPDX', 'src/ui/shell/sl-window.c:2', 'src/ui/timeline/sl-timeline-page.c:2']
        for e in expected:
            assert any(err.startswith(e) for err in errors), (e, errors)
        assert len(errors) == len(expected), errors
    print('self-test passed')


# The session floor (src/session): GTK-free like core and remote, and the
# window's shell reaches the workflows only through it. Kept apart from
# check_tree() so the rules above can change without touching these.
SESSION_DIR = os.path.join('src', 'session')
SHELL_DIR = os.path.join('src', 'ui', 'shell')
WORKFLOWS_DIR = os.path.join('src', 'remote', 'workflows')


def check_session_floor(root):
    errors = []
    workflows = os.path.join(root, WORKFLOWS_DIR)
    workflow_headers = set(n for n in os.listdir(workflows) if n.endswith('.h')) if os.path.isdir(workflows) else set()
    for folder, rule in ((SESSION_DIR, 'gui'), (SHELL_DIR, 'workflows')):
        top = os.path.join(root, folder)
        for dirpath, _, filenames in os.walk(top):
            for name in sorted(filenames):
                if not name.endswith(('.c', '.h')):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                with open(path, encoding='utf-8') as f:
                    lines = strip_comments(f.read()).split('\n')
                for number, line in enumerate(lines, 1):
                    include = INCLUDE.search(line)
                    if rule == 'gui' and GUI_HEADER.search(line):
                        errors.append(f'{rel}:{number}: the session is GTK-free but includes a GUI header: '
                                      f'{line.strip()}')
                    if rule == 'workflows' and include and os.path.basename(include.group(1)) in workflow_headers:
                        errors.append(f'{rel}:{number}: the shell includes a workflow header; '
                                      f'run workflows through the session (src/session)')
    return errors


def self_test_session_floor():
    """The session rules catch a planted violation of each, and only those."""
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)

        header = '/* SPDX-License-Identifier: GPL-3.0-or-later */\n'
        write('src/remote/workflows/sl-profile-workflow.h', header)
        write('src/session/sl-session.c', header + '#include "sl-profile-workflow.h"\n/* #include <gtk/gtk.h> */\n')
        write('src/ui/shell/sl-window.c', header + '#include "sl-session.h"\n#include <adwaita.h>\n')
        assert check_session_floor(root) == [], check_session_floor(root)

        write('src/session/sl-session-bad.c', header + '#include <gtk/gtk.h>\n#include <libpanel.h>\n')
        write('src/ui/shell/sl-window-bad.c', header + '#include "sl-profile-workflow.h"\n')
        errors = check_session_floor(root)
        expected = ['src/session/sl-session-bad.c:2', 'src/session/sl-session-bad.c:3',
                    'src/ui/shell/sl-window-bad.c:2']
        for e in expected:
            assert any(err.startswith(e) for err in errors), (e, errors)
        assert len(errors) == len(expected), errors
    print('session self-test passed')


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == '--self-test':
        self_test()
        self_test_session_floor()
        return 0
    errors = check_tree(sys.argv[1]) + check_session_floor(sys.argv[1])
    for e in errors:
        print(e)
    if errors:
        print(f'{len(errors)} rule violations', file=sys.stderr)
        return 1
    print('sources follow the layering, portability and licence rules')
    return 0


if __name__ == '__main__':
    sys.exit(main())
