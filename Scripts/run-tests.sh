#!/usr/bin/env bash
# Runs every test: the Swift test suite, the bundled examples through `rules check` and
# `rules test`, and the end-to-end suite that drives `rules serve` with real clients
# (the firebase-admin Python SDK, in a virtual environment made on first use) and tries the ways
# into CI (the release archive, its npm packages and wheel, pre-commit, the GitHub Action, the
# SwiftPM plugin).
set -euo pipefail
cd "$(dirname "$0")/.."

# The tests remove what they create, but on Linux the toolchain's own atomic writes (SwiftPM's,
# through Foundation) leave `TemporaryDirectory.*` folders behind: keep those inside .build.
export TMPDIR="$PWD/.build/tmp"
mkdir -p "$TMPDIR"

# The Debian root that the release archive's test runs it in is made meanwhile, once (mostly
# downloading; kept in .build/debian-root; the test waits for it, or says why there is none).
python3 Tests/ClientTests/debian_root.py >"$TMPDIR/debian-root.log" 2>&1 &

# Each phase's time, printed at the end (also when a phase fails: the table then ends with it).
phases=()
phase_name=""
phase_started=$(date +%s)
run_started=$phase_started
phase() {
    local now
    now=$(date +%s)
    [ -n "$phase_name" ] && phases+=("$(printf '%6d s  %s' $((now - phase_started)) "$phase_name")")
    phase_name=$1
    phase_started=$now
}
report_phases() {
    local status=$?
    phase ""
    echo "run-tests.sh: phase times$([ $status -ne 0 ] && echo ", up to the phase that failed"):"
    printf '  %s\n' "${phases[@]}"
    printf '%8d s  in all\n' $(( $(date +%s) - run_started ))
}
trap report_phases EXIT

phase "build (debug, tests included)"
swift build --build-tests
phase "examples: rules check, rules test with coverage"
.build/debug/rules check --strict rules-examples
.build/debug/rules test rules-examples --coverage --min-coverage 90   # the README's main job, with a coverage floor
phase "Swift tests"
swift test --skip-build --disable-xctest
# The release archive (Scripts/build-release.sh, its own scratch path .build-release): the end-to-end
# tests run it on a Debian root without Swift, through the GitHub Action's steps and the SwiftPM plugin.
phase "release archive, npm packages and wheel"
RULES_RELEASE_ARCHIVE=$(bash Scripts/build-release.sh .build/dist)
export RULES_RELEASE_ARCHIVE
# Beside it, the npm packages and the wheel (installed offline by the end-to-end tests), named by
# the manifest that build-release.sh writes.
export RULES_RELEASE_MANIFEST="${RULES_RELEASE_ARCHIVE%.tar.gz}.manifest.json"
# The end-to-end suite drives the tool as it ships: the binary unpacked from that archive (the
# debug build above is what the Swift tests and the examples ran). It is also the faster one, so
# the suite's clients, not the server, set its pace.
release_dir=.build/dist/unpacked
rm -rf "$release_dir"
mkdir -p "$release_dir"
tar -xzf "$RULES_RELEASE_ARCHIVE" -C "$release_dir"
RULES_BINARY=$(find "$PWD/$release_dir" -maxdepth 2 -type f -name rules -perm -u+x | head -n 1)
[ -n "$RULES_BINARY" ] || { echo "run-tests.sh: the release archive has no rules binary" >&2; exit 1; }
export RULES_BINARY
phase "end-to-end suite"
bash Tests/ClientTests/run.sh
