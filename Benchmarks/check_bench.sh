#!/usr/bin/env bash
# Times `rules check` (with the access model) and `rules diff` on real and generated files, in a
# release build. Usage: bash Benchmarks/check_bench.sh [RULES_BINARY]  (default .build/release/rules;
# build it with `swift build -c release --product rules`). Uses hyperfine (Debian: hyperfine).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/rules}
if [ ! -x "$bin" ]; then
    echo "error: $bin is missing: build it with 'swift build -c release --product rules'" >&2
    exit 2
fi
command -v hyperfine >/dev/null || { echo "error: hyperfine is not installed (apt-get install hyperfine)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" bench --write-generated-rules "$tmp/generated.rules.json"
real=Tests/Data/corpus/achievements/database.rules.json          # 583 lines, 17 KB
mid=Tests/Data/corpus/friendlypix/database-rules.json            # 231 lines
# A second version of the 583-line file: one rule loosened (the kind of change a review should catch).
sed 's/"auth.uid == $uidKey"/"auth != null"/' "$real" > "$tmp/achievements-new.rules.json"
cmp -s "$real" "$tmp/achievements-new.rules.json" && { echo "error: the edit did not apply" >&2; exit 2; }
cp "$mid" "$tmp/friendlypix.rules.json"
wc -lc "$real" "$mid" "$tmp/generated.rules.json"
hyperfine --warmup 1 --runs 10 -N --ignore-failure \
    "$bin check --no-config $mid" \
    "$bin check --no-config $real" \
    "$bin check --no-config $tmp/generated.rules.json" \
    "$bin access $real" \
    "$bin diff --allow-loosening $real $tmp/achievements-new.rules.json"
