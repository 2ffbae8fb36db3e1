#!/usr/bin/env bash
# Builds the fuzz targets (libFuzzer + address sanitizer) and runs one of them, or all in turn.
#
#   Fuzzing/run.sh TARGET [SECONDS]     TARGET: json-reader, rules-compiler, data-reader, engine, all
#   Fuzzing/run.sh build                only build
#
# New corpus entries go to .build-fuzz/corpus/TARGET (not committed), crashes, hangs and
# out-of-memory inputs to Fuzzing/artifacts/TARGET/ (ignored by git). Extra libFuzzer flags can
# be given in FUZZ_FLAGS, e.g. FUZZ_FLAGS="-jobs=2".
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
scratch="$repo/.build-fuzz"
target="${1:-}"
seconds="${2:-60}"

# lld: with gold (the default linker here) the link fails with an internal error in
# format_file_lineno on the sanitized objects.
build() {
    swift build -c release --package-path "$here" --scratch-path "$scratch" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld >&2
}

product() {
    case "$1" in
    json-reader) echo FuzzJSONReader ;;
    rules-compiler) echo FuzzRulesCompiler ;;
    data-reader) echo FuzzDataReader ;;
    engine) echo FuzzEngine ;;
    *) echo "unknown target: $1 (json-reader, rules-compiler, data-reader, engine, all)" >&2; exit 2 ;;
    esac
}

run() {
    local name="$1" bin
    bin="$scratch/release/$(product "$name")"
    mkdir -p "$scratch/corpus/$name" "$here/artifacts/$name"
    echo "== $name for ${seconds}s" >&2
    # -timeout: an input that runs longer than 10 s is a hang; -rss_limit_mb: 2 GB is out of memory.
    # The seed corpus is read, not written; new entries go to the scratch corpus (listed first).
    # The Swift runtime's backtracer and the address sanitizer both handle crashes; keep ASan's.
    # shellcheck disable=SC2086
    SWIFT_BACKTRACE=enable=no "$bin" "$scratch/corpus/$name" "$here/Corpus/$name" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$here/artifacts/$name/" ${FUZZ_FLAGS:-}
}

case "$target" in
"") sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
build) build ;;
all)
    build
    status=0
    for t in json-reader rules-compiler data-reader engine; do run "$t" || status=$?; done
    exit "$status"
    ;;
*) product "$target" >/dev/null; build; run "$target" ;;
esac
