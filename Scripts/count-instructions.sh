#!/usr/bin/env bash
# Counts the machine instructions of each decision of the benchmark suite's blog example with
# valgrind's callgrind: a figure that does not move with the machine's load, unlike the times
# that `rules bench --suite` reports. Used for the instruction counts in BENCHMARKS.md.
#
#   Scripts/count-instructions.sh                 # the five decisions on a database of 10^3 nodes
#   Scripts/count-instructions.sh 1000 1000000    # and on 10^6 nodes (a few minutes more)
#   Scripts/count-instructions.sh --compile       # also the compile of the generated 256 KB file
#
# Builds `rules-profile` (the suite alone: valgrind cannot start the full `rules`, which links the
# server's network stack), strips a copy (valgrind cannot read its debug information), and runs
# each decision 1 + 500 + 101 times (a warm-up, the timed calls, the calls that count
# allocations) with only `Engine.decide` collected. Needs valgrind (`apt-get install valgrind`).
set -euo pipefail
cd "$(dirname "$0")/.."

sizes=()
compile=false
for arg in "$@"; do
    case "$arg" in
        --compile) compile=true ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *[!0-9]*|"") echo "count-instructions: '$arg' is not a database size (a number of nodes) or --compile" >&2; exit 2 ;;
        *) sizes+=("$arg") ;;
    esac
done
[ ${#sizes[@]} -gt 0 ] || sizes=(1000)
command -v valgrind > /dev/null || { echo "count-instructions: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The build's output is shown only when it fails.
if ! swift build -c release --product rules-profile > "$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    echo "count-instructions: the release build of rules-profile failed" >&2
    exit 1
fi
cp .build/release/rules-profile "$work/rp"
strip --strip-debug "$work/rp"

iterations=500
calls=$((1 + iterations + 101))
decide='$s12RulesRuntime0A6EngineV6decide_2on4auth3now7scratch*'
apply='$s12RulesRuntime0A6EngineV5apply_2to4auth3now7scratch*'

# Instructions collected in one callgrind run, divided by `divisor`.
count() {
    local out="$work/callgrind.out" toggle=$1 divisor=$2
    shift 2
    # Deterministic hashing fixes the order of `auth`'s members, which moves a count otherwise.
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
        --toggle-collect="$toggle" "$work/rp" "$@" > /dev/null 2>&1
    local total
    total=$(callgrind_annotate "$out" 2> /dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    if [ -z "$total" ] || [ "$total" -eq 0 ]; then
        echo "count-instructions: nothing collected for '$*' (no benchmark matched, or the function $toggle was renamed)" >&2
        exit 1
    fi
    echo $((total / divisor))
}

printf '%-58s %12s\n' "decision (blog rules)" "instructions"
for size in "${sizes[@]}"; do
    for decision in "read /posts|read /posts/\$p" "title (leaf|set of a title, .write/.validate chain" \
                    "another user|the same set by another user (denied)" "star, 2 paths|two-path star update" \
                    "delete /posts|delete /posts/\$p"; do
        filter=${decision%%|*}
        name=${decision#*|}
        printf '%-58s %12s\n' "$name, $size nodes" \
            "$(count "$decide" "$calls" --filter "$filter" --sizes "$size" --iterations "$iterations" --rounds 1)"
    done
    # The set applied to a database that owns its tree: `RulesEngine.apply`, called once more
    # (the first call, which checks that it is allowed).
    printf '%-58s %12s\n' "the set, applied to a database that owns its tree, $size nodes" \
        "$(count "$apply" "$((calls + 1))" --filter "applied to a database" --sizes "$size" --iterations "$iterations" --rounds 1)"
done
if $compile; then
    compileFunction='$s13RulesCompilerAAO7compile_16expressionLimitsAA17CompilationResultV0A6Syntax10SourceFileC_AG010ExpressionE0VtFZTf4nnd_n'
    # Three compiles a run: a warm-up and two timed.
    printf '%-58s %12s\n' "compile of the generated 256 KB file" \
        "$(count "$compileFunction" 3 --filter "rules file (" --iterations 2 --rounds 1)"
    printf '%-58s %12s\n' "the same, no expression repeated" \
        "$(count "$compileFunction" 3 --filter "no expression repeated" --iterations 2 --rounds 1)"
fi
