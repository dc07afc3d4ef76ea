#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Screenshots of every kind of document, for looking at.

Opens each kind of document that `sightline --document` names (and each
page of a profile) on real files of the datasets folder, at each screen
size, in the light and the dark style, in English and in Simplified
Chinese, and saves the window as a PNG with its report beside it:

    build-aux/screenshots.py BUILD_DIR DATASETS_DIR OUT_DIR
        [--sizes 1024x640,1366x768,1600x1000] [--styles light,dark]
        [--languages en,zh_CN] [--kinds scalars,profile,...] [--program PATH]

BUILD_DIR is a configured and built tree (`_build`), DATASETS_DIR the
datasets folder (its layout is `<owner>__<repo>/<path>`, see its
SOURCES.md), OUT_DIR where the PNGs go, named
`KIND-WIDTHxHEIGHT-STYLE-LANGUAGE.png`. Each screen size runs under its
own `xvfb-run` display of that size. The dark style is asked for as a
desktop that prefers dark asks (ADW_DEBUG_COLOR_SCHEME=prefer-dark, which
Sightline follows while its own colour-scheme setting is "system");
Chinese needs the zh_CN.UTF-8 locale and a CJK font (fonts-noto-cjk).

At the end it prints one line per screenshot: its window size, and any
fault the report shows (a window larger than the screen, widgets drawn
past its edge, a document that failed or did not load). The exit status
is 1 when one shows a fault. Needs xvfb-run; Python 3 only.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

MINDINSIGHT = "mindspore-ai__mindinsight/tests/utils/resource/"
WRITERS = "generated__mindinsight-writers/"
DUMPS = "Ascend__msprobe/test/msprobe_test/mindspore_ut/compare/dump_file/"
TORCH_TEXT = "Ascend__msinsight/test/data/pytorch/text/level1/rank0_ascend_pt"
TORCH_DB = "Ascend__msinsight/test/data/pytorch/db/level0/rank0_ascend_pt"

# (file name stem, --document name, paths below the datasets folder).
# "@tuner" is a tuner configuration written here, since the datasets
# hold none; its study reads the lineage runs.
CASES = [
    ("scalars", "scalars", [WRITERS + "run_small"]),
    ("histograms", "histograms", [WRITERS + "run_small"]),
    ("images", "images", [WRITERS + "run_small"]),
    ("tensors", "tensors", [WRITERS + "run_small"]),
    ("timeline", "timeline", ["catapult-project__catapult/tracing/test_data/big_trace.json"]),
    ("profile-summary", "profile", [TORCH_TEXT]),
    ("profile-operators", "operators", [TORCH_TEXT]),
    ("profile-apis", "apis", [TORCH_TEXT]),
    ("profile-steps", "steps", [TORCH_TEXT]),
    ("profile-steps-mindspore", "steps", [MINDINSIGHT + "profiler"]),
    ("profile-memory", "memory", [TORCH_TEXT]),
    ("profile-communication", "communication", [TORCH_TEXT]),
    ("advisor", "advisor", [MINDINSIGHT + "profiler"]),
    ("pipeline", "pipeline", ["Ascend__ascend_community_projects/Video-ReID/pipeline/video.pipeline"]),
    ("graph", "graph", [MINDINSIGHT + "graph_pb/lenet.pb"]),
    ("dataset-graph", "dataset-graph", [WRITERS + "run_lineage"]),
    ("lineage", "lineage", [WRITERS + "run_lineage"]),
    ("compare-profiles", "compare-profiles", [TORCH_DB, TORCH_TEXT]),
    ("compare-profiles-mindspore", "compare-profiles", [MINDINSIGHT + "profiler", MINDINSIGHT + "run_2/normal_run/profiler"]),
    ("tensor-compare", "tensor-compare", [DUMPS + "mindspore_data", DUMPS + "pytorch_data"]),
    ("tuner", "tuner", ["@tuner"]),
    ("cluster", "cluster", [MINDINSIGHT + "profiler"]),
]

TUNER_YAML = """command: python train.py
summary_base_dir: {base}
tuner:
  name: gp
  args:
    method: ei
target:
  group: metric
  name: accuracy
  goal: maximize
parameters:
  learning_rate:
    bounds: [0.0001, 0.01]
    type: float
  batch_size:
    bounds: [16, 256]
    type: int
"""

TIMEOUT_S = 120


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build_dir")
    parser.add_argument("datasets_dir")
    parser.add_argument("out_dir")
    parser.add_argument("--sizes", default="1024x640,1366x768,1600x1000")
    parser.add_argument("--styles", default="light,dark")
    parser.add_argument("--languages", default="en,zh_CN")
    parser.add_argument("--kinds", default="", help="file name stems of the cases to take (all when empty)")
    parser.add_argument("--program", default="", help="the sightline program to run (BUILD_DIR/src/ui/sightline)")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def environment(build_dir, home, style, language):
    env = dict(os.environ)
    env["GSETTINGS_SCHEMA_DIR"] = os.path.join(build_dir, "data")
    env["GSETTINGS_BACKEND"] = "memory"
    env["SIGHTLINE_LOCALEDIR"] = os.path.join(build_dir, "po")
    # A workspace of its own for each screenshot: nothing opened before.
    env["XDG_DATA_HOME"] = os.path.join(home, "data")
    env["XDG_CACHE_HOME"] = os.path.join(home, "cache")
    env["XDG_CONFIG_HOME"] = os.path.join(home, "config")
    env.pop("ADW_DEBUG_COLOR_SCHEME", None)
    if style == "dark":
        env["ADW_DEBUG_COLOR_SCHEME"] = "prefer-dark"
    if language == "en":
        env["LANGUAGE"] = "en"
        env["LANG"] = env["LC_ALL"] = "C.UTF-8"
    else:
        env["LANGUAGE"] = language
        env["LANG"] = env["LC_ALL"] = language + ".UTF-8"
    return env


def faults(report, width, height):
    """What the report shows wrong, as short phrases."""
    found = []
    if report.get("width", 0) > width or report.get("height", 0) > height:
        found.append("window %dx%d larger than the screen" % (report.get("width", 0), report.get("height", 0)))
    if report.get("min_width", 0) > width or report.get("min_height", 0) > height:
        found.append("asks for %dx%d" % (report.get("min_width", 0), report.get("min_height", 0)))
    if report.get("overflowing"):
        found.append("drawn past the edge: %s" % json.dumps(report["overflowing"])[:200])
    document = report.get("document") or {}
    if not document:
        found.append("no document")
    elif document.get("state") in ("loading", "failed"):
        found.append("document " + document["state"])
    return found


def take(args, size, tuner_path):
    """Runs every case at one screen size; on the display xvfb-run made."""
    width, height = (int(n) for n in size.split("x"))
    sightline = args.program or os.path.join(args.build_dir, "src", "ui", "sightline")
    kinds = [k for k in args.kinds.split(",") if k]
    failed = False

    for stem, name, paths in CASES:
        if kinds and stem not in kinds:
            continue
        full = [tuner_path if p == "@tuner" else os.path.join(args.datasets_dir, p) for p in paths]
        for style in args.styles.split(","):
            for language in args.languages.split(","):
                base = os.path.join(args.out_dir, "%s-%s-%s-%s" % (stem, size, style, language))
                png, report_path = base + ".png", base + ".json"
                for stale in (png, report_path):
                    if os.path.exists(stale):
                        os.unlink(stale)
                with tempfile.TemporaryDirectory(prefix="sl-screenshots-") as home:
                    env = environment(args.build_dir, home, style, language)
                    command = [sightline, "--document", name] + full + ["--report", report_path, "--screenshot", png]
                    try:
                        run = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                             timeout=TIMEOUT_S, check=False)
                        output = run.stdout.decode("utf-8", "replace").strip()
                        status = run.returncode
                    except subprocess.TimeoutExpired:
                        output, status = "timed out after %d s" % TIMEOUT_S, -1
                    except OSError as error:
                        output, status = "could not start: %s" % error, -1
                problems = []
                if status != 0:
                    problems.append("exit %d" % status)
                if os.path.exists(report_path):
                    with open(report_path, encoding="utf-8") as f:
                        report = json.load(f)
                    problems += faults(report, width, height)
                    shown = "%dx%d" % (report.get("width", 0), report.get("height", 0))
                else:
                    problems.append("no report")
                    shown = "-"
                if output and problems:
                    problems.append(output.splitlines()[-1][:200])
                failed |= bool(problems)
                print("%-52s %-10s %s" % (os.path.basename(png), shown, "; ".join(problems) or "ok"), flush=True)
    return failed


def main(argv):
    args = parse_args(argv)
    args.build_dir = os.path.abspath(args.build_dir)
    args.datasets_dir = os.path.abspath(args.datasets_dir)
    args.out_dir = os.path.abspath(args.out_dir)

    if not os.path.isdir(args.datasets_dir):
        sys.exit("%s: not a folder" % args.datasets_dir)
    os.makedirs(args.out_dir, exist_ok=True)

    if args.inner:
        tuner_path = os.path.join(args.out_dir, "tuner-study.yaml")
        with open(tuner_path, "w", encoding="utf-8") as f:
            f.write(TUNER_YAML.format(base=json.dumps(os.path.join(args.datasets_dir, WRITERS + "run_lineage"))))
        return 1 if take(args, args.sizes, tuner_path) else 0

    status = 0
    for size in args.sizes.split(","):
        inner = ["xvfb-run", "-a", "-s", "-screen 0 %sx24" % size, sys.executable, os.path.abspath(__file__),
                 args.build_dir, args.datasets_dir, args.out_dir, "--inner", "--sizes", size,
                 "--styles", args.styles, "--languages", args.languages, "--kinds", args.kinds,
                 "--program", args.program]
        status |= subprocess.run(inner, check=False).returncode
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
