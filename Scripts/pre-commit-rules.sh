#!/usr/bin/env bash
# The entry of the pre-commit hooks (.pre-commit-hooks.yaml): runs the `rules` on PATH with the
# hook's arguments (`check FILE...`, `test DIR`). Without `rules` on PATH it says, in one line, how
# to install it, instead of pre-commit's bare "Executable `rules` not found".
if ! command -v rules >/dev/null 2>&1; then
    echo "rules is not on PATH: install it from a release archive (bash Scripts/build-release.sh dist, unpack it, put its rules-*/ directory on PATH) or build it (swift build -c release, put .build/release on PATH) in a clone of https://github.com/swift-database-rules/swift-database-rules; see its README, \"Use in CI\"" >&2
    exit 127
fi
exec rules "$@"
