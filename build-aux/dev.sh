#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Developer entry point. From a fresh Debian 12 machine:
#   build-aux/dev.sh run     install what is missing, build, start Sightline on the demo workspace
#   build-aux/dev.sh test    the same plus test tools, then every test suite (also under ASan+UBSan),
#                            and every fuzz harness on 2,000 inputs
#   build-aux/dev.sh bench   build optimised and print the benchmark figures
#   build-aux/dev.sh fuzz [SECONDS]   build the libFuzzer harnesses with clang and run each one
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD="$ROOT/_build"
ASAN_BUILD="$ROOT/_build-asan"
BENCH_BUILD="$ROOT/_build-bench"
FUZZ_BUILD="$ROOT/_build-fuzz"

BUILD_PACKAGES=(
  meson ninja-build pkg-config gcc gettext python3
  libglib2.0-dev libglib2.0-dev-bin libgtk-4-dev libadwaita-1-dev libpanel-dev
  libssh-dev libprotobuf-c-dev protobuf-c-compiler libsqlite3-dev
  libjson-glib-dev libyajl-dev libyaml-dev zlib1g-dev libcairo2-dev
  adwaita-icon-theme fonts-cantarell
)
TEST_PACKAGES=(
  xvfb xauth imagemagick xdotool openssh-server appstream desktop-file-utils
  python3-protobuf clang libclang-rt-14-dev dbus python3-numpy
  slurm-wlm munge python3-onnx libonnx-testdata
  locales fonts-wqy-microhei
)
# The GUI tests also fit every document in Simplified Chinese: its locale
# must exist for gettext to speak it.
TEST_LOCALES=(zh_CN.UTF-8)
# Peers the benchmarks measure beside Sightline: Graphviz's dot for graph
# layouts, and node for @dagrejs/dagre (below). Debian's npm comes only
# when no npm is on the PATH: a Node.js from elsewhere ships its own and
# conflicts with Debian's.
BENCH_PACKAGES=(
  graphviz nodejs python3-numpy
)
# @dagrejs/dagre, the layout engine of Netron, TensorBoard and Model
# Explorer, is the layout benchmarks' second peer: npm installs this
# version into the bench build.
DAGRE_VERSION=3.1.3
MSYS2_PACKAGES="mingw-w64-ucrt-x86_64-toolchain mingw-w64-ucrt-x86_64-meson mingw-w64-ucrt-x86_64-ninja \
mingw-w64-ucrt-x86_64-pkgconf mingw-w64-ucrt-x86_64-gtk4 mingw-w64-ucrt-x86_64-libadwaita \
mingw-w64-ucrt-x86_64-libpanel mingw-w64-ucrt-x86_64-libssh mingw-w64-ucrt-x86_64-protobuf-c \
mingw-w64-ucrt-x86_64-sqlite3 mingw-w64-ucrt-x86_64-json-glib mingw-w64-ucrt-x86_64-yajl mingw-w64-ucrt-x86_64-libyaml \
mingw-w64-ucrt-x86_64-zlib mingw-w64-ucrt-x86_64-cairo mingw-w64-ucrt-x86_64-gettext"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'dev.sh: %s\n' "$*" >&2; exit 1; }

is_msys2() { [[ "$(uname -s)" == MINGW* || "$(uname -s)" == MSYS* ]]; }

ensure_packages() {
  if is_msys2; then
    say "On MSYS2, install the dependencies with:"
    echo "pacman -S --needed $MSYS2_PACKAGES"
    return 0
  fi
  command -v dpkg-query >/dev/null || die "this script installs Debian packages; install the equivalents of: $*"

  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0

  say "Installing ${missing[*]}"
  local sudo=()
  [[ $(id -u) -ne 0 ]] && sudo=(sudo)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# Generates the locales the tests run in, where they are missing (Debian's
# locales package keeps the list in /etc/locale.gen).
ensure_locales() {
  is_msys2 && return 0
  command -v locale-gen >/dev/null || return 0
  local missing=() name
  for name in "$@"; do
    locale -a 2>/dev/null | grep -qix "$(printf '%s' "$name" | sed 's/UTF-8/utf8/')" || missing+=("$name")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  say "Generating the locales ${missing[*]}"
  local sudo=()
  [[ $(id -u) -ne 0 ]] && sudo=(sudo)
  for name in "${missing[@]}"; do
    "${sudo[@]}" sed -i "s/^# *\($name UTF-8\)\$/\1/" /etc/locale.gen
    grep -q "^$name UTF-8\$" /etc/locale.gen || echo "$name UTF-8" | "${sudo[@]}" tee -a /etc/locale.gen >/dev/null
  done
  "${sudo[@]}" locale-gen >/dev/null
}

configure() {
  local dir=$1; shift
  if [[ -f "$dir/build.ninja" ]]; then
    meson configure "$dir" "$@" >/dev/null
  else
    meson setup "$dir" "$ROOT" "$@"
  fi
}

# Runs the uninstalled build: schemas and resources come from the build tree.
app_env() {
  export GSETTINGS_SCHEMA_DIR="$BUILD/data"
  export SIGHTLINE_LOCALEDIR="$BUILD/po"
  export SIGHTLINE_DEMO_TRAIN="$BUILD/src/demo/sightline-demo-train"
  export XDG_DATA_DIRS="$BUILD/data:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}"
}

XVFB_PID=
start_display() {
  if [[ -n "${DISPLAY:-}" && "${CI:-}" != true ]]; then
    return 0
  fi
  command -v Xvfb >/dev/null || die "Xvfb is missing"
  local n
  for n in $(seq 90 140); do
    [[ -e /tmp/.X11-unix/X$n || -e /tmp/.X$n-lock ]] && continue
    Xvfb ":$n" -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 &
    XVFB_PID=$!
    export DISPLAY=":$n"
    for _ in $(seq 50); do
      [[ -e /tmp/.X11-unix/X$n ]] && break
      sleep 0.1
    done
    trap stop_display EXIT
    return 0
  done
  die "no free X display number"
}

stop_display() {
  [[ -n "$XVFB_PID" ]] && kill "$XVFB_PID" 2>/dev/null || true
}

# Prints "passed failed skipped" for one build's last test run.
tally() {
  python3 - "$1/meson-logs/testlog.json" <<'PY'
import json, sys
passed = failed = skipped = 0
try:
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            result = json.loads(line).get("result")
            if result in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif result == "SKIP":
                skipped += 1
            else:
                failed += 1
except FileNotFoundError:
    pass
print(passed, failed, skipped)
PY
}

cmd_run() {
  ensure_packages "${BUILD_PACKAGES[@]}"
  configure "$BUILD" -Dbuildtype=debugoptimized
  ninja -C "$BUILD"
  app_env
  exec "$BUILD/src/ui/sightline" --demo "$@"
}

cmd_test() {
  ensure_packages "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
  ensure_locales "${TEST_LOCALES[@]}"
  configure "$BUILD" -Dbuildtype=debugoptimized -Dwerror=true
  ninja -C "$BUILD"
  start_display
  export NO_AT_BRIDGE=1

  # A private session bus, as a desktop session has one.
  local session=()
  command -v dbus-run-session >/dev/null && session=(dbus-run-session --)

  local status=0
  say "Test suites: unit, data, gui, integration"
  "${session[@]}" meson test -C "$BUILD" --no-rebuild --print-errorlogs \
    --suite unit --suite data --suite gui --suite integration || status=1
  read -r p1 f1 s1 < <(tally "$BUILD")

  say "Test suites unit and data under AddressSanitizer and UBSan"
  configure "$ASAN_BUILD" -Dgui=false -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
  ninja -C "$ASAN_BUILD"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    meson test -C "$ASAN_BUILD" --no-rebuild --print-errorlogs --suite unit --suite data || status=1
  read -r p2 f2 s2 < <(tally "$ASAN_BUILD")

  say "Fuzz harnesses, built with clang: 2,000 inputs each from a fixed seed"
  CC=clang configure "$FUZZ_BUILD" -Dgui=false -Dfuzzing=true -Db_lundef=false
  ninja -C "$FUZZ_BUILD" fuzz-harnesses
  meson test -C "$FUZZ_BUILD" --no-rebuild --print-errorlogs --suite fuzz || status=1
  read -r p3 f3 s3 < <(tally "$FUZZ_BUILD")

  local passed=$((p1 + p2 + p3)) failed=$((f1 + f2 + f3)) skipped=$((s1 + s2 + s3))
  if [[ $skipped -gt 0 ]]; then
    echo "$passed passed, $failed failed, $skipped skipped"
  else
    echo "$passed passed, $failed failed"
  fi
  [[ $failed -eq 0 && $status -eq 0 ]]
}

# Installs @dagrejs/dagre into the bench build and exports its folder as
# SL_BENCH_DAGRE_DIR. When it cannot (no npm, no registry), it says so in
# one line and the layout benchmarks skip that peer.
install_dagre() {
  local prefix="$BENCH_BUILD/peers"
  local dir="$prefix/node_modules/@dagrejs/dagre"

  if ! grep -qs "\"version\": \"$DAGRE_VERSION\"" "$dir/package.json"; then
    if ! command -v npm >/dev/null; then
      mkdir -p "$prefix"
      ensure_packages npm >"$prefix/apt.log" 2>&1 || true
    fi
    if ! command -v npm >/dev/null; then
      say "npm is missing and cannot be installed: the layout benchmarks skip the dagre peer"
      return 0
    fi
    say "Installing @dagrejs/dagre@$DAGRE_VERSION with npm"
    mkdir -p "$prefix"
    if ! npm install --prefix "$prefix" --no-audit --no-fund --no-update-notifier --loglevel=error \
        --fetch-retries=1 --fetch-timeout=30000 "@dagrejs/dagre@$DAGRE_VERSION" >"$prefix/npm.log" 2>&1; then
      say "Cannot install @dagrejs/dagre with npm (offline?): the layout benchmarks skip the dagre peer"
      return 0
    fi
  fi
  export SL_BENCH_DAGRE_DIR="$dir"
}

cmd_bench() {
  ensure_packages "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}" "${BENCH_PACKAGES[@]}"
  configure "$BENCH_BUILD" -Dbuildtype=release
  ninja -C "$BENCH_BUILD"
  install_dagre
  start_display
  BUILD="$BENCH_BUILD" app_env
  export GSETTINGS_SCHEMA_DIR="$BENCH_BUILD/data"
  for bench in "$BENCH_BUILD"/tests/bench/bench-*; do
    [[ -f "$bench" && -x "$bench" && "$bench" != *peer* ]] || continue
    say "$(basename "$bench")"
    "$bench" "$@"
  done
}

cmd_fuzz() {
  local seconds=${1:-60}
  ensure_packages "${BUILD_PACKAGES[@]}" clang libclang-rt-14-dev
  CC=clang configure "$FUZZ_BUILD" -Dgui=false -Dfuzzing=true -Db_lundef=false
  ninja -C "$FUZZ_BUILD" fuzz-harnesses
  for harness in "$FUZZ_BUILD"/tests/fuzz/fuzz-*; do
    [[ -f "$harness" && -x "$harness" ]] || continue
    say "$(basename "$harness") for $seconds s"
    mkdir -p "$FUZZ_BUILD/corpus/$(basename "$harness")"
    "$harness" -max_total_time="$seconds" "$FUZZ_BUILD/corpus/$(basename "$harness")"
  done
}

case "${1:-}" in
  run) shift; cmd_run "$@" ;;
  test) shift; cmd_test "$@" ;;
  bench) shift; cmd_bench "$@" ;;
  fuzz) shift; cmd_fuzz "$@" ;;
  *) sed -n '3,9p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
