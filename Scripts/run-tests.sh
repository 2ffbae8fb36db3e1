#!/usr/bin/env bash
# Runs every test: the Swift test suite, the bundled examples through `rules check` and
# `rules test`, and the end-to-end suite that drives `rules serve` with real clients
# (the firebase-admin Python SDK, in a virtual environment made on first use).
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --build-tests
.build/debug/rules check --strict rules-examples
.build/debug/rules test rules-examples --min-coverage 90
swift test --skip-build --disable-xctest
bash Tests/ClientTests/run.sh
