#!/usr/bin/env python3
"""Times `rules check`, `rules access` and `rules diff` with and without the solver on the bundled
examples, two real files and the generated 256 KB file, one run each, and prints a Markdown table.

    python3 Benchmarks/solver_timings.py BINARY [--versus OTHER_BINARY]

With --versus, each command is run with OTHER_BINARY right after BINARY (alternating), and both
times are shown. The 256 KB file is written with `BINARY bench --write-generated-rules`.
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def files(binary, tmp):
    generated = os.path.join(tmp, "gen256.json")
    subprocess.run([binary, "bench", "--write-generated-rules", generated], check=True, capture_output=True)
    corpus = os.path.join(REPO, "Tests", "Data", "corpus")
    return [
        ("rules-examples (4 files)", os.path.join(REPO, "rules-examples")),
        ("blog example", os.path.join(REPO, "rules-examples", "blog", "database.rules.json")),
        ("friendlypix (231 lines)", os.path.join(corpus, "friendlypix", "database-rules.json")),
        ("achievements (583 lines)", os.path.join(corpus, "achievements", "database.rules.json")),
        ("generated 256 KB", generated),
    ]


def timed(args):
    started = time.monotonic()
    out = subprocess.run(args, capture_output=True, text=True)
    return time.monotonic() - started, out


def cells(binary, path, extra):
    _, out = timed([binary, "access", path, "--format", "json"] + extra)
    try:
        data = json.loads(out.stdout)
    except ValueError:
        return "–"
    counts = {"allowed": 0, "never": 0, "unknown": 0, "escalation": 0}
    for c in data.get("cells", []):
        counts[c.get("verdict", "unknown")] = counts.get(c.get("verdict", "unknown"), 0) + 1
    return f"{counts['allowed'] + counts['escalation']} / {counts['never']} / {counts['unknown']}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--versus")
    args = parser.parse_args()
    binaries = [args.binary] + ([args.versus] if args.versus else [])
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for name, path in files(args.binary, tmp):
            commands = [
                ("check", ["check", "--no-config", path]),
                ("check --no-solver", ["check", "--no-config", "--no-solver", path]),
            ]
            if os.path.isfile(path):
                commands += [
                    ("access --no-solver", ["access", path, "--no-solver"]),
                    ("access", ["access", path]),
                ]
            for label, command in commands:
                times = []
                for i, b in enumerate(binaries):
                    # An older binary's `rules check` has no solver options (it has no solver).
                    if i > 0 and command[0] == "check" and "--no-solver" in command:
                        times.append("–")
                        continue
                    seconds, _ = timed([b] + command)
                    times.append(f"{seconds:.2f} s")
                rows.append((name, label, " vs ".join(times)))
            if os.path.isfile(path):
                rows.append((name, "access cells (allowed / never / unknown)", cells(args.binary, path, [])))
        print("| file | command | " + ("time (this binary vs --versus)" if args.versus else "time") + " |")
        print("| --- | --- | --- |")
        for r in rows:
            print(f"| {r[0]} | `rules {r[1]}` | {r[2]} |")


if __name__ == "__main__":
    main()
