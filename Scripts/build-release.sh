#!/usr/bin/env bash
# Builds the release archive of the `rules` tool, one that runs without a Swift toolchain:
#
#     bash Scripts/build-release.sh OUTDIR
#
# writes OUTDIR/rules-<version>-linux-<arch>.tar.gz (and its .sha256) and prints its path (the
# build's log goes to standard error; standard output is that path alone), where <version> is what the
# built tool prints for `rules --version` (RulesTool.version) and <arch> is `uname -m` (x86_64,
# aarch64). The archive holds one directory, rules-<version>-linux-<arch>/, with `rules`, the
# LICENSE if there is one, and NEEDED.txt: the shared libraries the binary still loads.
#
# Beside the archive, from the same binary and at the same version (each with its .sha256):
# the npm packages (swift-database-rules-<version>.tgz, the launcher, and
# swift-database-rules-linux-x64-<version>.tgz, the binary; Scripts/build-npm-packages.py, with
# `npm pack`; left out with a warning when npm is missing), the Python wheel
# (swift_database_rules-<version>-py3-none-manylinux_X_Y_<arch>.whl; Scripts/build-wheel.py), and
# rules-<version>-linux-<arch>.manifest.json, which names them all.
#
# Linux: the Swift runtime and Foundation are linked statically (--static-swift-stdlib), and so are
# PCRE2 and SQLite, from Debian's static archives (libpcre2-dev's libpcre2-8.a, libsqlite3-dev's
# libsqlite3.a). What remains is glibc (libc, libm) and the C++ runtime (libstdc++, libgcc_s),
# which every Debian or Ubuntu system has. Where a static archive is missing, that library is
# linked dynamically instead, with a warning, and NEEDED.txt names it.
# The build has its own scratch path (.build-release, or $RULES_RELEASE_SCRATCH) so that it does
# not disturb the development build in .build.
#
# macOS (the same command): a universal binary, one build for both architectures:
#
#     swift build -c release --product rules --arch arm64 --arch x86_64 --scratch-path .build-release
#
# gives .build-release/apple/Products/Release/rules; the Swift runtime is part of macOS, so only
# PCRE2 stays dynamic (Homebrew's pcre2, which is per architecture: a universal build needs a
# universal libpcre2-8, or the binary is built and archived per architecture). That archive is
# named rules-<version>-macos-universal.tar.gz. This branch of the script is not run by CI.
set -euo pipefail

fail() { echo "build-release.sh: $*" >&2; exit 1; }

[ $# -eq 1 ] || fail "usage: bash Scripts/build-release.sh OUTDIR"
mkdir -p "$1" || fail "cannot create the output directory $1"
outdir=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
repo=$PWD
scratch=${RULES_RELEASE_SCRATCH:-$repo/.build-release}
mkdir -p "$scratch/tmp"
# SwiftPM's temporary files stay inside the scratch path (see Scripts/run-tests.sh).
export TMPDIR="$scratch/tmp"
command -v swift >/dev/null || fail "swift is not on PATH: building the release needs a Swift 6 toolchain"

case "$(uname -s)" in
Linux)
    os=linux
    arch=$(uname -m)
    # A directory with only the static archives, searched first: the linker's -lpcre2-8 and
    # -lsqlite3 (from the CPCRE2 module's pkg-config file and GRDB's SQLite module) then find the
    # .a files there instead of the shared libraries in the system's directories. It is put first
    # through a copy of libpcre2-8.pc whose libdir is that directory (SwiftPM puts that file's -L
    # before everything else on the link line; its compiler flags stay the same, so nothing is
    # compiled again because of it).
    static_dir="$scratch/static-libs"
    pc_dir="$scratch/pkgconfig"
    rm -rf "$static_dir" "$pc_dir"
    mkdir -p "$static_dir" "$pc_dir"
    for lib in libpcre2-8:libpcre2-dev sqlite3:libsqlite3-dev; do
        pc=${lib%%:*} package=${lib##*:}
        name=${pc#lib}
        libdir=$(pkg-config --variable=libdir "$pc" 2>/dev/null || true)
        [ -n "$libdir" ] || fail "pkg-config does not know $pc: install $package (apt-get install $package)"
        if [ -f "$libdir/lib$name.a" ]; then
            ln -s "$libdir/lib$name.a" "$static_dir/lib$name.a"
        else
            echo "build-release.sh: warning: $libdir/lib$name.a is missing; lib$name is linked dynamically (NEEDED.txt names it)" >&2
        fi
    done
    pcre_pc=$(pkg-config --path libpcre2-8)
    sed "s|^libdir=.*|libdir=$static_dir|" "$pcre_pc" >"$pc_dir/libpcre2-8.pc"
    # Z3 stays shared, but its pkg-config file must not put the system's library directory on the
    # link line (where -lpcre2-8 and -lsqlite3 would then find the shared libraries): a copy whose
    # library directories hold libz3.so alone.
    z3_pc=$(pkg-config --path z3 2>/dev/null || true)
    [ -n "$z3_pc" ] || fail "pkg-config does not know z3: install libz3-dev (apt-get install libz3-dev)"
    z3_dir="$scratch/z3-lib"
    rm -rf "$z3_dir"
    mkdir -p "$z3_dir"
    ln -s "$(pkg-config --variable=libdir z3)/libz3.so" "$z3_dir/libz3.so"
    sed -e "s|^libdir=.*|libdir=$z3_dir|" -e "s|^sharedlibdir=.*|sharedlibdir=$z3_dir|" "$z3_pc" >"$pc_dir/z3.pc"
    export PKG_CONFIG_PATH="$pc_dir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    # Z3 (the access model's solver) has no static archive in Debian: libz3.so.4 travels in the
    # archive's lib/, found through the binary's RUNPATH ($ORIGIN/lib).
    build=(swift build -c release --product rules --static-swift-stdlib --scratch-path "$scratch" -Xlinker -rpath -Xlinker '$ORIGIN/lib')
    echo "build-release.sh: ${build[*]}" >&2
    started=$(date +%s)
    # The build's log goes to standard error: standard output is the archive's path alone.
    "${build[@]}" >&2
    echo "build-release.sh: built in $(( $(date +%s) - started )) s" >&2
    binary="$("${build[@]}" --show-bin-path)/rules"
    ;;
Darwin)
    os=macos
    arch=universal
    build=(swift build -c release --product rules --arch arm64 --arch x86_64 --scratch-path "$scratch")
    echo "build-release.sh: ${build[*]}" >&2
    "${build[@]}" >&2
    binary="$scratch/apple/Products/Release/rules"
    ;;
*)
    fail "no release build for $(uname -s): Linux and macOS only"
    ;;
esac

[ -x "$binary" ] || fail "the build did not produce $binary"
version=$("$binary" --version) || fail "$binary --version failed"
[[ "$version" =~ ^[0-9A-Za-z.+-]+$ ]] || fail "unexpected version string from $binary --version: '$version'"

name="rules-$version-$os-$arch"
stage="$scratch/stage/$name"
rm -rf "$scratch/stage"
mkdir -p "$stage"
cp "$binary" "$stage/rules"
if [ "$os" = linux ]; then
    # Debug information and the symbol table are 72 MB of the 156 MB the linker writes: both go
    # (docs/release.md measures what the binary holds). The linked binary in the scratch path keeps
    # them, for gdb or addr2line on a crash's addresses.
    strip --strip-all "$stage/rules"
    needed=$(objdump -p "$stage/rules" | awk '$1 == "NEEDED" { print $2 }')
    if grep -q '^libswift\|^libFoundation\|^lib_Foundation\|^libdispatch\|^libBlocksRuntime' <<<"$needed"; then
        fail "the binary still needs the Swift runtime's shared libraries:"$'\n'"$needed"
    fi
    for lib in libpcre2-8 libsqlite3; do
        if [ -e "$static_dir/$lib.a" ] && grep -q "^$lib\.so" <<<"$needed"; then
            fail "$lib was linked dynamically although $static_dir/$lib.a is there: a directory on the link line holds the shared library"
        fi
    done
    # Z3 beside the binary, with its licence.
    z3=$(ldd "$stage/rules" | awk '$1 ~ /^libz3\.so/ { print $3 }')
    [ -n "$z3" ] && [ -f "$z3" ] || fail "the binary does not load libz3 from the system: install libz3-dev"
    mkdir -p "$stage/lib"
    cp -L "$z3" "$stage/lib/$(basename "$z3")"
    strip --strip-unneeded "$stage/lib/$(basename "$z3")"
    if [ -f /usr/share/doc/libz3-4/copyright ]; then cp /usr/share/doc/libz3-4/copyright "$stage/lib/libz3.copyright"; fi
else
    needed=$(otool -L "$stage/rules" | tail -n +2 | awk '{ print $1 }')
fi
printf '%s\n' "$needed" >"$stage/NEEDED.txt"
for license in LICENSE LICENSE.txt LICENSE.md; do
    [ -f "$license" ] && cp "$license" "$stage/"
done

archive="$outdir/$name.tar.gz"
# The same inputs give the same archive: fixed owner, order and time (the commit's, when there is one).
mtime=$(git log -1 --format=%ct 2>/dev/null || date +%s)
if [ "$os" = linux ]; then
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -C "$scratch/stage" -cf - "$name" | gzip -n -9 >"$archive"
    (cd "$outdir" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
else
    tar -C "$scratch/stage" -czf "$archive" "$name"
    (cd "$outdir" && shasum -a 256 "$name.tar.gz" >"$name.tar.gz.sha256")
fi
echo "build-release.sh: $archive ($(du -k "$archive" | cut -f1) KiB); the binary needs:" $needed >&2

# The packages, from the same staged files: npm's (the main package and this platform's; skipped
# with a warning when npm is missing) and, on Linux, the Python wheel. Each with its .sha256.
# RULES_RELEASE_ARCHIVE_ONLY=1 (the Action, which needs the archive alone) leaves them out.
export SOURCE_DATE_EPOCH="$mtime"
npm_packages=()
archive_only=${RULES_RELEASE_ARCHIVE_ONLY:-0}
if [ "$archive_only" = 1 ]; then
    :
elif command -v npm >/dev/null; then
    mapfile -t npm_packages < <(python3 Scripts/build-npm-packages.py "$stage" "$version" "$outdir")
    [ ${#npm_packages[@]} -ge 2 ] || fail "Scripts/build-npm-packages.py wrote no packages"
else
    echo "build-release.sh: warning: npm is not on PATH: no npm packages (apt-get install npm)" >&2
fi
wheel=""
if [ "$os" = linux ] && [ "$archive_only" != 1 ]; then
    wheel=$(python3 Scripts/build-wheel.py "$stage" "$version" "$outdir")
fi
for package in ${npm_packages[@]+"${npm_packages[@]}"} $wheel; do
    echo "build-release.sh: $package ($(du -k "$package" | cut -f1) KiB)" >&2
done
# What was written, for whoever installs or publishes it (Scripts/run-tests.sh, the release
# workflow): file names relative to OUTDIR.
python3 - "$outdir/$name.manifest.json" "$version" "$archive" "$wheel" ${npm_packages[@]+"${npm_packages[@]}"} <<'PYTHON'
import json, os, sys
path, version, archive, wheel, *npm = sys.argv[1:]
names = lambda paths: [os.path.basename(p) for p in paths if p]
with open(path, "w") as f:
    json.dump({"version": version, "archive": os.path.basename(archive), "npm": names(npm), "wheel": names([wheel])}, f, indent=2)
    f.write("\n")
PYTHON
echo "$archive"
