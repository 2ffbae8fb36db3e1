#!/usr/bin/env bash
# Runs every test: the Swift test suite, the bundled examples through `rules check` and
# `rules test`, and the end-to-end suite that drives `rules serve` with real clients
# (the firebase-admin Python SDK, in a virtual environment made on first use).
set -euo pipefail
cd "$(dirname "$0")/.."

# The tests remove what they create, but on Linux the toolchain's own atomic writes (SwiftPM's,
# through Foundation) leave `TemporaryDirectory.*` folders behind: keep those inside .build.
export TMPDIR="$PWD/.build/tmp"
mkdir -p "$TMPDIR"

swift build --build-tests
.build/debug/rules check --strict rules-examples
.build/debug/rules test rules-examples --coverage --min-coverage 90   # the README's main job, with a coverage floor
swift test --skip-build --disable-xctest
bash Tests/ClientTests/run.sh
