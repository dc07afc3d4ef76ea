#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Starts the real sightline program on a folder under the test display,
waits for its window, checks the dock panels and what was found, and checks
two screenshots are not blank: the window as the application renders it, and
the whole display as captured from outside with ImageMagick's import.

Usage: check-app.py SIGHTLINE BUILD_DIR NAME [FOLDER | --demo]
The screenshots are kept in BUILD_DIR/screenshots/NAME*.png.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

EXPECTED_PANELS = {'workspace': 'start', 'problems': 'bottom', 'console': 'bottom', 'details': 'end'}
APP_ID = 'io.github.sightline.Sightline'
APP_PATH = '/io/github/sightline/Sightline'


def read_png(path):
    """Decodes an 8-bit RGB or RGBA PNG into (width, height, channels, rows)."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError(f'{path} is not a PNG')
    pos, idat, width = 8, b'', None
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, color = struct.unpack('>IIBB', body[:10])
            if depth != 8 or color not in (2, 6):
                raise ValueError(f'{path}: unsupported PNG (depth {depth}, colour type {color})')
            channels = 3 if color == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        ftype, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 0xff
            elif ftype == 2:
                line[x] = (line[x] + b) & 0xff
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xff
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xff
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def check_not_blank(path, min_width, min_height):
    width, height, channels, rows = read_png(path)
    assert width >= min_width and height >= min_height, f'{path}: {width}x{height} is too small'
    colours, dark, light = set(), 0, 0
    for y in range(0, height, 4):
        row = rows[y]
        for x in range(0, width, 4):
            px = row[x * channels:x * channels + 3]
            colours.add(px)
            level = sum(px) / 3
            dark += level < 100
            light += level > 180
    # Text, icons and panels give many colours and both dark and light areas.
    assert len(colours) > 40, f'{path}: only {len(colours)} colours; the window looks blank'
    assert dark > 200 and light > 200, f'{path}: no contrast (dark {dark}, light {light} samples)'
    return width, height, len(colours)


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    program, build_dir, name, folder = sys.argv[1:]
    if not os.environ.get('DISPLAY'):
        print('no DISPLAY: build-aux/dev.sh test starts one')
        return 77

    if folder != '--demo' and not os.path.isdir(folder):
        print(f'{folder} is absent: skipped')
        return 77

    shots = os.path.join(build_dir, 'screenshots')
    os.makedirs(shots, exist_ok=True)
    app_png = os.path.join(shots, f'{name}.png')
    root_png = os.path.join(shots, f'{name}-display.png')
    for p in (app_png, root_png):
        if os.path.exists(p):
            os.unlink(p)

    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ)
        env.update({
            'XDG_DATA_HOME': os.path.join(home, 'data'),
            'XDG_CACHE_HOME': os.path.join(home, 'cache'),
            'XDG_CONFIG_HOME': os.path.join(home, 'config'),
            'GSETTINGS_SCHEMA_DIR': os.path.join(build_dir, 'data'),
            'GSETTINGS_BACKEND': 'memory',
            # The window stays up after the report until this script has
            # captured the display and quits it (at most a minute).
            'SIGHTLINE_REPORT_LINGER_MS': '60000',
        })
        report = os.path.join(home, 'report.json')
        args = [program, f'--screenshot={app_png}', f'--report={report}']
        args += ['--demo'] if folder == '--demo' else [folder]

        # A private session bus: a Sightline already running on the session
        # bus would otherwise take the request and this one would exit.
        # This script quits Sightline through it.
        assert shutil.which('dbus-daemon'), 'dbus-daemon is missing: build-aux/dev.sh test installs it'
        bus = subprocess.Popen(['dbus-daemon', '--session', '--nofork', '--print-address=1'],
                               stdout=subprocess.PIPE, text=True)
        proc = None
        try:
            env['DBUS_SESSION_BUS_ADDRESS'] = bus.stdout.readline().strip()
            assert env['DBUS_SESSION_BUS_ADDRESS'], 'dbus-daemon gave no address'

            started = time.monotonic()
            proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            while not os.path.exists(report) and proc.poll() is None and time.monotonic() - started < 90:
                time.sleep(0.1)
            assert os.path.exists(report), f'no report after {time.monotonic() - started:.0f} s; output:\n' + (proc.communicate()[0] if proc.poll() is not None else '')
            time.sleep(0.5)

            if shutil.which('import'):
                # PNG24: 8-bit RGB, whatever the number of colours on screen.
                subprocess.run(['import', '-window', 'root', f'PNG24:{root_png}'], check=True, env=env, timeout=60)
            assert proc.poll() is None, 'sightline quit before the display was captured:\n' + proc.communicate()[0]
            subprocess.run(['gdbus', 'call', '--session', '--dest', APP_ID, '--object-path', APP_PATH,
                            '--method', 'org.gtk.Actions.Activate', 'quit', '@av []', '@a{sv} {}'],
                           env=env, capture_output=True, timeout=60)
            try:
                output, _ = proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                raise AssertionError('sightline did not quit when asked')
        finally:
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
            bus.terminate()
            bus.wait()
        assert proc.returncode == 0, f'sightline exited with {proc.returncode}:\n{output}'
        for line in output.splitlines():
            assert 'CRITICAL' not in line, f'critical message from sightline: {line}'
        # Sightline says why when it cannot save its screenshot.
        assert os.path.exists(app_png), f'sightline wrote no screenshot; output:\n{output}'

        with open(report, encoding='utf-8') as f:
            data = json.load(f)

    panels = {p['id']: p for p in data['panels']}
    for pid, area in EXPECTED_PANELS.items():
        assert pid in panels, f'panel {pid} is missing: {data["panels"]}'
        assert panels[pid]['area'] == area, f'panel {pid} is in {panels[pid]["area"]}, not {area}'
        assert panels[pid]['title'], f'panel {pid} has no title'
    assert panels['workspace']['mapped'] and panels['details']['mapped'], 'side panels are not shown'
    assert data['documents'] >= 1, 'no document was opened for the folder'
    assert data['folders'], 'the folder is not in the workspace'
    for f in data['folders']:
        assert f['state'] == 'ready', f'{f["path"]} is {f["state"]}'
    total = sum(f['findings'] for f in data['folders'])
    assert total > 0, 'nothing was recognised in the folder'

    w, h, colours = check_not_blank(app_png, 640, 480)
    print(f'window {w}x{h}, {colours} colours, {total} findings, {data["problems"]} problems')
    if os.path.exists(root_png):
        w, h, colours = check_not_blank(root_png, 640, 480)
        print(f'display {w}x{h}, {colours} colours')
    else:
        raise AssertionError('ImageMagick import is missing: build-aux/dev.sh test installs it')
    return 0


if __name__ == '__main__':
    sys.exit(main())
