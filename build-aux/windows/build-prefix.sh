#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds, from Debian's own source packages, every library Sightline needs
# on Windows into one MinGW-w64 prefix:
#
#   build-aux/windows/build-prefix.sh BUILD_DIR
#
# BUILD_DIR/prefix       the libraries, headers and pkg-config files
# BUILD_DIR/sources      the source packages as apt-get source left them
# BUILD_DIR/work         one build folder per library
# BUILD_DIR/cross.ini    the meson cross file for this prefix
#
# The prefix is kept between runs: a library is built again only when the
# line that builds it, the build function it uses or the cross file changed
# (their hash is each library's stamp). The host
# tools (glib-compile-resources, glib-compile-schemas, msgfmt, protoc-c,
# sassc) are Debian's native ones.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD=${1:?usage: build-prefix.sh BUILD_DIR}
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)
PREFIX="$BUILD/prefix"
SOURCES="$BUILD/sources"
WORK="$BUILD/work"
HOST=x86_64-w64-mingw32
JOBS=$(nproc 2>/dev/null || echo 2)
CROSS_HASH=$(sha256sum < "$HERE/cross.ini.in" | cut -c1-16)

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'build-prefix.sh: %s\n' "$*" >&2; exit 1; }

mkdir -p "$PREFIX/lib/pkgconfig" "$SOURCES" "$WORK" "$PREFIX/.stamps"

export PKG_CONFIG_LIBDIR="$PREFIX/lib/pkgconfig:$PREFIX/share/pkgconfig:/usr/$HOST/lib/pkgconfig"
export PKG_CONFIG_PATH=
export CPPFLAGS="-I$PREFIX/include"
export LDFLAGS="-L$PREFIX/lib"
export PATH="$PREFIX/bin/host:$PATH"

sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@HOST@|$HOST|g" "$HERE/cross.ini.in" > "$BUILD/cross.ini"

# The source package's upstream tarball, unpacked once into WORK/NAME.
unpack() {
  local package=$1 dir="$WORK/$1"
  if [[ -d "$dir/src" ]]; then
    echo "$dir/src"
    return
  fi
  local tarball
  tarball=$(ls "$SOURCES/${package}_"*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -n 1 || true)
  if [[ -z "$tarball" ]]; then
    (cd "$SOURCES" && apt-get source --download-only -q "$package" >&2) || true
    tarball=$(ls "$SOURCES/${package}_"*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -n 1 || true)
  fi
  [[ -n "$tarball" ]] || die "the source of $package could not be had from the package archive (apt-get source $package); see build-aux/windows/README.md"
  rm -rf "$dir" && mkdir -p "$dir/unpack"
  tar -xf "$tarball" -C "$dir/unpack"
  local top
  top=$(find "$dir/unpack" -mindepth 1 -maxdepth 1 -type d | head -n 1)
  mv "$top" "$dir/src"
  rm -rf "$dir/unpack"
  echo "$dir/src"
}

# What a library's build depends on: the function that builds it, its
# arguments and the cross file.
recipe_hash() {
  local how=$1; shift
  { declare -f "$how" unpack; printf '%s\n' "$CROSS_HASH" "$@"; } | sha256sum | cut -c1-16
}
built() { [[ -f "$PREFIX/.stamps/$2" && "$(cat "$PREFIX/.stamps/$2")" == "$(recipe_hash "$@")" ]]; }
mark_built() { recipe_hash "$@" > "$PREFIX/.stamps/$2"; }

build_meson() {
  local recipe=(build_meson "$@")
  built "${recipe[@]}" && return 0
  local package=$1; shift
  say "Building $package (meson)"
  local src
  src=$(unpack "$package")
  rm -rf "$WORK/$package/build"
  meson setup "$WORK/$package/build" "$src" --cross-file "$BUILD/cross.ini" \
    --prefix "$PREFIX" --libdir lib --buildtype release -Ddefault_library=shared \
    --wrap-mode nodownload "$@" >"$WORK/$package/configure.log" 2>&1 \
    || { tail -n 40 "$WORK/$package/configure.log" >&2; die "$package: meson setup failed (log: $WORK/$package/configure.log)"; }
  ninja -C "$WORK/$package/build" -j "$JOBS" install >"$WORK/$package/build.log" 2>&1 \
    || { tail -n 40 "$WORK/$package/build.log" >&2; die "$package: build failed (log: $WORK/$package/build.log)"; }
  mark_built "${recipe[@]}"
}

build_autotools() {
  local recipe=(build_autotools "$@")
  built "${recipe[@]}" && return 0
  local package=$1 subdir=$2; shift 2
  say "Building $package (configure)"
  local src
  src=$(unpack "$package")
  rm -rf "$WORK/$package/build" && mkdir -p "$WORK/$package/build"
  (cd "$WORK/$package/build" && "$src/$subdir/configure" --host=$HOST --prefix="$PREFIX" \
     --enable-shared --disable-static "$@") >"$WORK/$package/configure.log" 2>&1 \
    || { tail -n 40 "$WORK/$package/configure.log" >&2; die "$package: configure failed (log: $WORK/$package/configure.log)"; }
  (make -C "$WORK/$package/build" -j "$JOBS" && make -C "$WORK/$package/build" install) \
    >"$WORK/$package/build.log" 2>&1 \
    || { tail -n 40 "$WORK/$package/build.log" >&2; die "$package: build failed (log: $WORK/$package/build.log)"; }
  mark_built "${recipe[@]}"
}

build_cmake() {
  local recipe=(build_cmake "$@")
  built "${recipe[@]}" && return 0
  local package=$1; shift
  say "Building $package (cmake)"
  local src
  src=$(unpack "$package")
  rm -rf "$WORK/$package/build"
  cmake -S "$src" -B "$WORK/$package/build" -G Ninja \
    -DCMAKE_SYSTEM_NAME=Windows -DCMAKE_C_COMPILER=$HOST-gcc -DCMAKE_CXX_COMPILER=$HOST-g++ \
    -DCMAKE_RC_COMPILER=$HOST-windres -DCMAKE_FIND_ROOT_PATH="$PREFIX;/usr/$HOST" \
    -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY \
    -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY -DCMAKE_INSTALL_PREFIX="$PREFIX" \
    -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON "$@" >"$WORK/$package/configure.log" 2>&1 \
    || { tail -n 40 "$WORK/$package/configure.log" >&2; die "$package: cmake failed (log: $WORK/$package/configure.log)"; }
  ninja -C "$WORK/$package/build" -j "$JOBS" install >"$WORK/$package/build.log" 2>&1 \
    || { tail -n 40 "$WORK/$package/build.log" >&2; die "$package: build failed (log: $WORK/$package/build.log)"; }
  mark_built "${recipe[@]}"
}

# SQLite's source tree makes its one-file amalgamation with host programs
# and Tcl, which its cross build runs under the wrong names: make the
# amalgamation natively, then compile that one file for Windows.
build_sqlite() {
  local recipe=(build_sqlite sqlite3 -DSQLITE_THREADSAFE=1 -DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_FTS5
                -DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ENABLE_UNLOCK_NOTIFY
                -DSQLITE_SECURE_DELETE -DSQLITE_ENABLE_MATH_FUNCTIONS)
  built "${recipe[@]}" && return 0
  say "Building sqlite3 (amalgamation)"
  local src version
  src=$(unpack sqlite3)
  rm -rf "$WORK/sqlite3/native" && mkdir -p "$WORK/sqlite3/native"
  (cd "$WORK/sqlite3/native" && env -u CPPFLAGS -u LDFLAGS "$src/configure" --disable-tcl \
     && env -u CPPFLAGS -u LDFLAGS make -j "$JOBS" sqlite3.c) >"$WORK/sqlite3/build.log" 2>&1 \
    || { tail -n 40 "$WORK/sqlite3/build.log" >&2; die "sqlite3: the amalgamation could not be made (log: $WORK/sqlite3/build.log)"; }
  mkdir -p "$PREFIX/bin" "$PREFIX/include"
  $HOST-gcc -O2 -shared "${recipe[@]:2}" "$WORK/sqlite3/native/sqlite3.c" -o "$PREFIX/bin/libsqlite3-0.dll" \
    -Wl,--out-implib,"$PREFIX/lib/libsqlite3.dll.a" >>"$WORK/sqlite3/build.log" 2>&1 \
    || { tail -n 40 "$WORK/sqlite3/build.log" >&2; die "sqlite3: build failed (log: $WORK/sqlite3/build.log)"; }
  cp "$WORK/sqlite3/native/sqlite3.h" "$src/src/sqlite3ext.h" "$PREFIX/include/" 2>/dev/null \
    || cp "$WORK/sqlite3/native/sqlite3.h" "$WORK/sqlite3/native/sqlite3ext.h" "$PREFIX/include/"
  version=$(sed -n 's/^#define SQLITE_VERSION *"\(.*\)"/\1/p' "$WORK/sqlite3/native/sqlite3.h")
  cat > "$PREFIX/lib/pkgconfig/sqlite3.pc" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: SQLite
Description: SQL database engine
Version: $version
Libs: -L\${libdir} -lsqlite3
Cflags: -I\${includedir}
PC
  mark_built "${recipe[@]}"
}

# yajl's CMake build gives Windows the Microsoft compiler's flags: compile
# its nine sources for MinGW directly.
build_yajl() {
  local recipe=(build_yajl yajl -O2 -DYAJL_SHARED -DYAJL_BUILD)
  built "${recipe[@]}" && return 0
  say "Building yajl"
  local src major minor micro
  src=$(unpack yajl)
  major=$(sed -n 's/^SET (YAJL_MAJOR \([0-9]*\))/\1/p' "$src/CMakeLists.txt")
  minor=$(sed -n 's/^SET (YAJL_MINOR \([0-9]*\))/\1/p' "$src/CMakeLists.txt")
  micro=$(sed -n 's/^SET (YAJL_MICRO \([0-9]*\))/\1/p' "$src/CMakeLists.txt")
  rm -rf "$WORK/yajl/build" && mkdir -p "$WORK/yajl/build/include/yajl" "$PREFIX/include/yajl" "$PREFIX/bin"
  cp "$src"/src/api/*.h "$WORK/yajl/build/include/yajl/"
  sed -e "s/\${YAJL_MAJOR}/$major/" -e "s/\${YAJL_MINOR}/$minor/" -e "s/\${YAJL_MICRO}/$micro/" \
    "$src/src/api/yajl_version.h.cmake" > "$WORK/yajl/build/include/yajl/yajl_version.h"
  $HOST-gcc -shared "${recipe[@]:2}" -I"$WORK/yajl/build/include" "$src"/src/*.c \
    -o "$PREFIX/bin/libyajl.dll" -Wl,--out-implib,"$PREFIX/lib/libyajl.dll.a" >"$WORK/yajl/build.log" 2>&1 \
    || { tail -n 40 "$WORK/yajl/build.log" >&2; die "yajl: build failed (log: $WORK/yajl/build.log)"; }
  cp "$WORK/yajl/build/include/yajl/"*.h "$PREFIX/include/yajl/"
  cat > "$PREFIX/lib/pkgconfig/yajl.pc" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: Yet Another JSON Library
Description: A Portable JSON parsing and serialization library in ANSI C
Version: $major.$minor.$micro
Cflags: -I\${includedir}
Libs: -L\${libdir} -lyajl
PC
  mark_built "${recipe[@]}"
}

# GLib and what it needs.
build_autotools libffi . --disable-docs --disable-multi-os-directory
build_autotools pcre2 . --enable-pcre2-8 --disable-pcre2-16 --disable-pcre2-32 --enable-jit=no
build_autotools gettext gettext-runtime --disable-java --disable-csharp --disable-libasprintf \
  --enable-threads=windows --without-emacs --disable-openmp
build_meson glib2.0 -Dtests=false -Dinstalled_tests=false -Dnls=disabled -Dgtk_doc=false \
  -Dman=false -Dlibelf=disabled -Dxattr=false -Dselinux=disabled

# Data formats and the SSH client.
build_sqlite
# libyaml's upstream tarball has no configure script, and its CMake build
# writes no pkg-config file: build with CMake and write the file.
build_cmake libyaml -DBUILD_TESTING=OFF -DINSTALL_CMAKE_DIR=lib/cmake/yaml
[[ -f "$PREFIX/lib/pkgconfig/yaml-0.1.pc" ]] || cat > "$PREFIX/lib/pkgconfig/yaml-0.1.pc" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: LibYAML
Description: Library to parse and emit YAML
Version: 0.2.5
Libs: -L\${libdir} -lyaml
Cflags: -I\${includedir}
PC
build_autotools protobuf-c . --disable-protoc
build_yajl
build_cmake libssh -DWITH_GCRYPT=ON -DWITH_ZLIB=ON -DWITH_GSSAPI=OFF -DWITH_EXAMPLES=OFF \
  -DUNIT_TESTING=OFF -DWITH_SERVER=OFF -DWITH_PCAP=OFF

# Drawing and text.
build_autotools libpng1.6 .
build_meson freetype -Dbrotli=disabled -Dbzip2=disabled -Dharfbuzz=disabled -Dpng=enabled \
  -Dzlib=system -Dtests=disabled
build_meson pixman -Dtests=disabled -Dgtk=disabled -Dlibpng=disabled -Dopenmp=disabled \
  -Dgnuplot=false
build_autotools cairo . --enable-win32=yes --enable-win32-font=yes --enable-ft=yes --enable-fc=no \
  --enable-png=yes --enable-xlib=no --enable-xcb=no --enable-gobject=yes --enable-script=no \
  --enable-interpreter=no --enable-trace=no --enable-symbol-lookup=no --disable-gtk-doc
build_meson fribidi -Ddocs=false
build_meson harfbuzz -Dtests=disabled -Ddocs=disabled -Dglib=enabled -Dgobject=enabled \
  -Dfreetype=enabled -Dcairo=disabled -Dicu=disabled -Dgraphite2=disabled -Dintrospection=disabled \
  -Dbenchmark=disabled -Dchafa=disabled
build_meson pango1.0 -Dintrospection=disabled -Dfontconfig=disabled -Dfreetype=enabled \
  -Dcairo=enabled -Dlibthai=disabled -Dxft=disabled -Dgtk_doc=false -Dinstall-tests=false \
  -Dsysprof=disabled
build_cmake libjpeg-turbo -DENABLE_STATIC=OFF -DWITH_TURBOJPEG=OFF -DWITH_SIMD=OFF
build_cmake tiff -Djbig=OFF -Dlzma=OFF -Dzstd=OFF -Dwebp=OFF -Dlerc=OFF -Dtiff-tools=OFF \
  -Dtiff-tests=OFF -Dtiff-contrib=OFF -Dtiff-docs=OFF -Dlibdeflate=OFF
build_meson gdk-pixbuf -Dgtk_doc=false -Dman=false -Dintrospection=disabled -Dtests=false \
  -Dinstalled_tests=false -Dpng=enabled -Djpeg=enabled -Dtiff=enabled -Dbuiltin_loaders=all \
  -Drelocatable=true -Dgio_sniffing=false
build_meson graphene -Dintrospection=disabled -Dtests=false -Dinstalled_tests=false -Dgtk_doc=false
build_meson libepoxy -Dtests=false -Degl=no -Dglx=no -Dx11=false -Ddocs=false

# The toolkit.
build_meson gtk4 -Dmedia-gstreamer=disabled -Dprint-cups=disabled -Dvulkan=disabled \
  -Dintrospection=disabled -Dbuild-tests=false -Dbuild-examples=false -Ddemos=false \
  -Dgtk_doc=false -Dman-pages=false -Dcloudproviders=disabled -Dsysprof=disabled \
  -Dtracker=disabled -Dcolord=disabled -Df16c=disabled -Dmedia-ffmpeg=disabled \
  -Dx11-backend=false -Dwayland-backend=false -Dbroadway-backend=false -Dwin32-backend=true
build_meson libadwaita-1 -Dintrospection=disabled -Dvapi=false -Dgtk_doc=false -Dtests=false \
  -Dexamples=false -Dprofiling=false

# Last, the two whose sources the package archive may not serve (see
# README.md): everything else is built and kept before they are asked for.
build_meson json-glib -Dintrospection=disabled -Dgtk_doc=disabled -Dman=false -Dtests=false
build_meson libpanel -Dintrospection=disabled -Dvapi=false -Ddocs=disabled

say "The prefix is complete: $PREFIX"
