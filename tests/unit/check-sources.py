#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Architecture rules that the compiler does not check.

gtk-free      Nothing under src/core, src/remote or src/session includes a
              GTK, GDK, libadwaita or libpanel header: they are GTK-free.
posix         POSIX-only calls and headers (fork, unistd.h, signals, ...)
              appear only in src/core/platform, so the code builds on
              Windows (MSYS2).
spdx          Every C source and header starts with an SPDX licence line.
utf-8         Every C source and header is UTF-8.
view-headers  Views know nothing of each other and the shell knows none by
              name: under src/ui, a header of a view's folder (summaries/,
              profile/, timeline/, ...) is included only in that folder and
              in the one file that registers the views (VIEW_REGISTRY).
floors        src/ is built in floors, each including only its own and the
              ones before it (FLOORS: core, remote, session, then ui, cli
              and the demo program side by side, which never include each
              other); inside src/core its folders are floors in the same
              way (CORE_ORDER). A folder in no floor is an error too, so a
              new one is placed on purpose.
unique-names  No two headers under src/ share a name: headers are included
              by name, and the floors are told apart by where it lives.
shell-workflows
              Nothing in src/ui/shell includes a header of
              src/remote/workflows: the window shows work, it does not run it.
view-floors   A view (a folder of src/ui that is not in SHARED_UI_DIRS)
              includes from src/ui only its own folder and VIEW_UI_FLOORS.

Where a rule does not hold yet, KNOWN_VIOLATIONS lists each file and the
header it must stop including. Those are reported as "known, to be removed"
and pass; anything new fails, and so does an entry that no longer occurs,
so the list only shrinks.

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
PLATFORM_DIR = 'src/core/platform'
GTK_FREE_DIRS = ('src/core', 'src/remote', 'src/session')
SPDX = re.compile(r'SPDX-License-Identifier:\s*GPL-3\.0-or-later')
INCLUDE = re.compile(r'#\s*include\s*["<]([^">]+)[">]')

# The folders of src/core, lowest first. Each includes only its own and the
# ones before it: platform wraps the OS; model holds the plain data types
# every other folder speaks; formats read files into models; analysis
# computes over models; the store keeps records in SQLite; the workspace
# ties models, scans and the store together for the floors above core.
CORE_ORDER = ('platform', 'model', 'formats', 'analysis', 'store', 'workspace')
# The floors of src/, lowest first. Each includes only its own and the ones
# before it; the names of one floor are siblings that never include each
# other (the GUI, the command line and the demo program).
FLOORS = (
    ('core',),
    ('remote',),
    ('session',),
    ('ui', 'cli', 'demo'),
)
# Files directly in src/ and the floor they belong to.
TOP_FILES = {'main.c': 'ui'}

SHARED_UI_DIRS = ('shell', 'dialogs', 'charts', 'widgets', 'document')
VIEW_REGISTRY = 'src/ui/document/sl-document-kinds.c'
# What a view may include from src/ui besides its own folder.
VIEW_UI_FLOORS = ('document', 'widgets', 'charts')
WORKFLOWS_DIR = 'src/remote/workflows'
SHELL_DIR = 'src/ui/shell'

# Where one of the last two rules would not hold yet, as (file, included
# header); empty now that both hold.
# Each entry goes when its include does: a stale entry fails the check.
KNOWN_VIOLATIONS = {
    'shell-workflows': (),
    'view-floors': (),
}


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def source_files(root):
    """Every C source and header under src/, as paths relative to root with '/'."""
    files = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, 'src')):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(('.c', '.h')):
                files.append(os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, '/'))
    return files


def floor_of(rel):
    """(rank, sibling name, core folder) of a file under src/, or None when in no floor."""
    parts = rel.split('/')
    if len(parts) == 2:
        name = TOP_FILES.get(parts[1])
    else:
        name = parts[1]
    for rank, siblings in enumerate(FLOORS):
        if name in siblings:
            if name != 'core':
                return (rank, name, 0)
            if len(parts) > 3 and parts[2] in CORE_ORDER:
                return (rank, name, CORE_ORDER.index(parts[2]))
            return None
    return None


def may_include(where, what):
    """Whether a file on floor @where may include a header on floor @what."""
    if what[0] != where[0]:
        return what[0] < where[0]
    return what[1] == where[1] and what[2] <= where[2]


def floor_label(rel):
    parts = rel.split('/')
    if len(parts) > 3 and parts[1] == 'core':
        return 'core/' + parts[2]
    return parts[1] if len(parts) > 2 else TOP_FILES.get(parts[1], parts[1])


def ui_folder(rel):
    parts = rel.split('/')
    return parts[2] if len(parts) > 3 and parts[:2] == ['src', 'ui'] else None


def check_tree(root, known=None):
    """Returns (errors, known): new violations and stale list entries, and
    the violations KNOWN_VIOLATIONS (or @known) excuses."""
    if known is None:
        known = KNOWN_VIOLATIONS
    files = source_files(root)
    errors = []
    excused = []
    seen = set()
    headers = {}
    for rel in files:
        if rel.endswith('.h'):
            headers.setdefault(rel.rsplit('/', 1)[1], []).append(rel)
    for name, paths in sorted(headers.items()):
        if len(paths) > 1:
            errors.append(f'{paths[1]}: [unique-names] a header named {name} is also at {paths[0]}; '
                          'headers are included by name, so rename one')
    view_owner = {}
    for name, paths in headers.items():
        folder = ui_folder(paths[0])
        if folder is not None and folder not in SHARED_UI_DIRS:
            view_owner[name] = folder
    unplaced = set()

    def report(rule, rel, number, header, message):
        if (rel, header) in known.get(rule, ()):
            seen.add((rule, rel, header))
            excused.append(f'{rel}:{number}: [{rule}] known, to be removed: {message}')
        else:
            errors.append(f'{rel}:{number}: [{rule}] {message}')

    for rel in files:
        with open(os.path.join(root, rel), 'rb') as f:
            data = f.read()
        try:
            raw = data.decode('utf-8')
        except UnicodeDecodeError as e:
            errors.append(f'{rel}: [utf-8] not UTF-8 at byte {e.start}')
            raw = data.decode('utf-8', errors='replace')
        if not SPDX.search(raw[:2000]):
            errors.append(f'{rel}: [spdx] no SPDX-License-Identifier line at the top')
        where = floor_of(rel)
        if where is None:
            folder = '/'.join(rel.split('/')[:-1][:3])
            if folder not in unplaced:
                unplaced.add(folder)
                errors.append(f'{rel}: [floors] {folder} is in no floor; '
                              'add it to FLOORS or CORE_ORDER in check-sources.py')
        gtk_free = any(rel.startswith(d + '/') for d in GTK_FREE_DIRS)
        platform = rel.startswith(PLATFORM_DIR + '/')
        folder = ui_folder(rel)
        is_view = folder is not None and folder not in SHARED_UI_DIRS
        for number, line in enumerate(strip_comments(raw).split('\n'), 1):
            if gtk_free and GUI_HEADER.search(line):
                errors.append(f'{rel}:{number}: [gtk-free] GTK-free code includes a GUI header: {line.strip()}')
            if not platform:
                for pattern, what in POSIX_ONLY:
                    if pattern.search(line):
                        errors.append(f'{rel}:{number}: [posix] {what} outside {PLATFORM_DIR}: {line.strip()}')
            include = INCLUDE.search(line)
            if include is None:
                continue
            name = include.group(1).rsplit('/', 1)[-1]
            target = headers.get(name, [None])[0]
            if target is None:
                continue  # a system or generated header
            owner = view_owner.get(name)
            if folder is not None and owner is not None and owner != folder and rel != VIEW_REGISTRY:
                errors.append(f'{rel}:{number}: [view-headers] includes a header of the {owner}/ view; '
                              f'link views through actions and register them in {VIEW_REGISTRY}')
            what = floor_of(target)
            if where is not None and what is not None and not may_include(where, what):
                errors.append(f'{rel}:{number}: [floors] {floor_label(rel)} includes {name} of '
                              f'{floor_label(target)}, a floor above it or beside it')
            if rel.startswith(SHELL_DIR + '/') and target.startswith(WORKFLOWS_DIR + '/'):
                report('shell-workflows', rel, number, name,
                       f'the shell includes {name} of {WORKFLOWS_DIR}; run workflows from the session')
            if is_view:
                target_folder = ui_folder(target)
                if (target_folder is not None and target_folder != folder
                        and target_folder not in VIEW_UI_FLOORS):
                    report('view-floors', rel, number, name,
                           f'the {folder}/ view includes {name} of src/ui/{target_folder}; a view includes '
                           f'from src/ui only its own folder and {", ".join(VIEW_UI_FLOORS)}')
    for rule, entries in sorted(known.items()):
        for rel, header in entries:
            if (rule, rel, header) not in seen:
                errors.append(f'KNOWN_VIOLATIONS[{rule!r}]: {rel} no longer includes {header}; '
                              'remove the entry from the list')
    errors += check_view_names(root)
    return errors, excused


HEADER = '/* SPDX-License-Identifier: GPL-3.0-or-later */\n'


def write(root, rel, text=''):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(HEADER + text)


def includes(*names):
    return ''.join(f'#include "{name}"\n' for name in names)


def clean_tree(root, session=True):
    """A tree that follows every rule: each floor includes the ones below."""
    write(root, 'src/core/platform/sl-platform.h', '#include <glib.h>\n')
    write(root, 'src/core/platform/sl-platform.c', '#include <unistd.h>\nint f (void) { return fork (); }\n')
    write(root, 'src/core/model/sl-trace.h', includes('sl-platform.h'))
    write(root, 'src/core/model/ok.c', '#include <glib.h>\n/* fork() in a comment is fine */\n'
          '// #include "sl-reader.h" in a comment is fine\n')
    write(root, 'src/core/formats/sl-reader.h', includes('sl-trace.h', 'sl-platform.h'))
    write(root, 'src/core/analysis/sl-stats.h', includes('sl-reader.h', 'sl-trace.h'))
    write(root, 'src/core/store/sl-store.h', includes('sl-stats.h', 'sl-trace.h'))
    write(root, 'src/core/workspace/sl-workspace.h', includes('sl-store.h', 'sl-reader.h', 'sl-core-enums.h'))
    write(root, 'src/remote/sl-target.h', includes('sl-workspace.h'))
    write(root, 'src/remote/workflows/sl-convert-workflow.h', includes('sl-target.h', 'sl-store.h'))
    write(root, 'src/cli/sl-cli-convert.c', includes('sl-convert-workflow.h'))
    write(root, 'src/demo/sl-demo-train.c', includes('sl-reader.h'))
    if session:
        write(root, 'src/session/sl-session.h', includes('sl-convert-workflow.h', 'sl-workspace.h'))
        write(root, 'src/cli/sl-cli-run.c', includes('sl-session.h'))
        write(root, 'src/ui/shell/sl-window.c', includes('sl-session.h', 'sl-document.h'))
    write(root, 'src/ui/document/sl-document.h', '#include <gtk/gtk.h>\n' + includes('sl-workspace.h'))
    write(root, 'src/ui/widgets/sl-column.h', includes('sl-document.h'))
    write(root, 'src/ui/charts/sl-chart.h', includes('sl-column.h'))
    write(root, 'src/ui/dialogs/sl-run-dialog.h', includes('sl-convert-workflow.h'))
    write(root, 'src/ui/graph/sl-graph-page.h', includes('sl-document.h', 'sl-chart.h', 'sl-column.h'))
    write(root, 'src/ui/graph/sl-graph-page.c', includes('sl-graph-page.h', 'sl-stats.h', 'sl-target.h'))
    write(root, 'src/ui/widgets/sl-graph-canvas.h', includes('sl-column.h'))
    write(root, 'src/ui/document/sl-document-kinds.c', includes('sl-graph-page.h', 'sl-run-dialog.h'))
    write(root, 'src/main.c', includes('sl-document.h'))


# Each planted file with the rules it must break, once each.
PLANTED = [
    ('src/core/model/bad.c', '#include <gtk/gtk.h>\n', ['gtk-free']),
    ('src/remote/bad.c', '#include <libpanel.h>\n', ['gtk-free']),
    ('src/session/bad.c', '#include <adwaita.h>\n', ['gtk-free']),
    ('src/ui/bad.c', '#include <unistd.h>\n', ['posix']),
    ('src/ui/shell/bad.c', 'void g (void) { fork (); }\n', ['posix']),
    ('src/core/formats/bad.c', 'void g (void) { kill (1, 9); }\n', ['posix']),
    ('src/ui/shell/sl-window-bad.c', '', ['spdx']),
    ('src/core/model/sl-latin1.c', '/* caf\xe9 */\n', ['utf-8']),
    ('src/ui/shell/sl-window-graph.c', includes('sl-graph-page.h'), ['view-headers']),
    ('src/ui/dialogs/sl-graph-dialog.c', includes('sl-graph-page.h'), ['view-headers']),
    ('src/ui/timeline/sl-timeline-page.c', includes('sl-graph-page.h'), ['view-headers', 'view-floors']),
    # Every step of core's order, both floors of a pair and the floors above.
    ('src/core/platform/bad.c', includes('sl-trace.h'), ['floors']),
    ('src/core/model/bad.c', includes('sl-reader.h'), ['floors']),
    ('src/core/formats/bad.c', includes('sl-stats.h'), ['floors']),
    ('src/core/analysis/bad.c', includes('sl-store.h'), ['floors']),
    ('src/core/store/bad.c', includes('sl-workspace.h'), ['floors']),
    ('src/core/workspace/bad.c', includes('sl-target.h'), ['floors']),
    ('src/core/misc/sl-misc.c', '', ['floors']),
    ('src/core/sl-loose.c', '', ['floors']),
    ('src/remote/bad.c', includes('sl-session.h'), ['floors']),
    ('src/remote/workflows/bad.c', includes('sl-window.h'), ['floors']),
    ('src/session/bad.c', includes('sl-cli-helpers.h'), ['floors']),
    ('src/ui/dialogs/bad.c', includes('sl-cli-helpers.h'), ['floors']),
    ('src/cli/bad.c', includes('sl-document.h'), ['floors']),
    ('src/demo/bad.c', includes('sl-target.h', 'sl-document.h'), ['floors']),
    ('src/extra/sl-extra.c', '', ['floors']),
    ('src/ui/widgets/sl-trace.h', '', ['unique-names']),
    ('src/ui/shell/sl-window-convert.c', includes('sl-convert-workflow.h'), ['shell-workflows']),
    ('src/ui/graph/bad.c', includes('sl-window.h'), ['view-floors']),
    ('src/ui/graph/bad.h', includes('sl-run-dialog.h'), ['view-floors']),
    # A shared widget is included by any view, and includes none.
    ('src/ui/widgets/bad.c', includes('sl-graph-canvas.h', 'sl-graph-page.h'), ['view-headers']),
]
# Headers the planted files include, on the floors named by their path.
PLANTED_HELPERS = [
    ('src/ui/shell/sl-window.h', ''),
    ('src/cli/sl-cli-helpers.h', ''),
]


def self_test():
    """The checker must catch what it claims to catch, and nothing else."""
    def rules_of(errors):
        return sorted({e.split('[', 1)[1].split(']', 1)[0] for e in errors})

    for session in (True, False):
        with tempfile.TemporaryDirectory() as root:
            clean_tree(root, session)
            for rel, text in PLANTED_HELPERS:
                write(root, rel, text)
            errors, excused = check_tree(root, known={})
            assert errors == [] and excused == [], errors

    for rel, text, rules in PLANTED:
        with tempfile.TemporaryDirectory() as root:
            clean_tree(root)
            for helper, helper_text in PLANTED_HELPERS:
                write(root, helper, helper_text)
            write(root, rel, text)
            if rules == ['spdx']:
                with open(os.path.join(root, rel), 'w', encoding='utf-8') as f:
                    f.write('#include <glib.h>\n')
            if rules == ['utf-8']:
                with open(os.path.join(root, rel), 'wb') as f:
                    f.write((HEADER + text).encode('latin-1'))
            errors, _ = check_tree(root, known={})
            assert errors, (rel, 'not caught')
            assert all(e.startswith(rel) for e in errors), (rel, errors)
            assert rules_of(errors) == sorted(rules) and len(errors) == len(rules), (rel, rules, errors)

    # The list of known violations: listed ones pass as known, a new one
    # beside them fails, and an entry that no longer occurs fails.
    with tempfile.TemporaryDirectory() as root:
        clean_tree(root)
        write(root, 'src/ui/shell/sl-window-convert.c', includes('sl-convert-workflow.h'))
        write(root, 'src/ui/graph/bad.c', includes('sl-run-dialog.h'))
        known = {
            'shell-workflows': (('src/ui/shell/sl-window-convert.c', 'sl-convert-workflow.h'),),
            'view-floors': (('src/ui/graph/bad.c', 'sl-run-dialog.h'),),
        }
        errors, excused = check_tree(root, known=known)
        assert errors == [], errors
        assert len(excused) == 2 and all('known, to be removed' in e for e in excused), excused

        write(root, 'src/ui/graph/worse.c', includes('sl-run-dialog.h'))
        errors, excused = check_tree(root, known=known)
        assert len(errors) == 1 and errors[0].startswith('src/ui/graph/worse.c:2: [view-floors]'), errors
        assert len(excused) == 2, excused
        os.remove(os.path.join(root, 'src/ui/graph/worse.c'))

        write(root, 'src/ui/graph/bad.c', includes('sl-column.h'))
        errors, excused = check_tree(root, known=known)
        assert len(errors) == 1 and errors[0].startswith("KNOWN_VIOLATIONS['view-floors']: src/ui/graph/bad.c"), errors
        assert len(excused) == 1, excused

        # A known entry excuses only its own rule.
        write(root, 'src/ui/graph/bad.c', includes('sl-run-dialog.h'))
        known['shell-workflows'] += (('src/ui/graph/bad.c', 'sl-run-dialog.h'),)
        errors, _ = check_tree(root, known=known)
        assert len(errors) == 1 and errors[0].startswith("KNOWN_VIOLATIONS['shell-workflows']"), errors
    print(f'self-test passed: a clean tree, {len(PLANTED)} planted violations, the list of known ones')


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == '--self-test':
        self_test()
        self_test_view_names()
        return 0
    if not os.path.isdir(os.path.join(sys.argv[1], 'src')):
        print(f'{sys.argv[1]}: no src folder to check', file=sys.stderr)
        return 2
    errors, excused = check_tree(sys.argv[1])
    for e in excused:
        print(e)
    for e in errors:
        print(e)
    if errors:
        print(f'{len(errors)} rule violations', file=sys.stderr)
        return 1
    print(f'sources follow the layering, portability and licence rules ({len(excused)} known violations left)')
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


if __name__ == '__main__':
    sys.exit(main())
