#!/usr/bin/env bash
# Runs the end-to-end tests: `rules serve` driven by real clients (the firebase-admin Python SDK,
# raw HTTP, streaming and WebSocket clients), `rules lsp` driven by LSP clients (pygls, headless
# Neovim) and the --watch modes. Makes a virtual environment in .venv-e2e on first use.
# Usage: bash Tests/ClientTests/run.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/../.."
export RULES_BINARY="${RULES_BINARY:-$PWD/.build/debug/rules}"
if [ ! -x "$RULES_BINARY" ]; then
    echo "error: $RULES_BINARY is missing: build it first (swift build)" >&2
    exit 2
fi
venv=.venv-e2e
if [ ! -x "$venv/bin/python" ] || ! cmp -s Tests/ClientTests/requirements.txt "$venv/requirements.txt"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r Tests/ClientTests/requirements.txt
    cp Tests/ClientTests/requirements.txt "$venv/requirements.txt"
fi
export PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" -m pytest -c Tests/ClientTests/pytest.ini -p no:cacheprovider -q Tests/ClientTests "$@"
