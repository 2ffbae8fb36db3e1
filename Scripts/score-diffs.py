#!/usr/bin/env python3
"""Scores `rules diff` against hand judgements of real rules changes.

Each folder of Tests/Data/judged-diffs holds two consecutive published versions of a rules file
(`old.rules.json`, `new.rules.json`) and `judgement.json`, written by reading the change before
the tool was run on it: whether it changes who can do what, and each expected change (newly
allowed or denied, operation, path, principal). This script runs `rules diff --format json` on
each pair and reports what it found, missed, and reported that the judgement does not expect.

A reported change matches an expected one when both are newly allowed (or both newly denied),
their operations agree (read; set, update: writes; delete) and their paths are the same pattern
or one is an ancestor of the other.

Usage: python3 Scripts/score-diffs.py [--rules PATH] [--data DIR] [--json]
"""
import argparse
import json
import os
import subprocess
import sys


def segments(path):
    return [s for s in path.split("/") if s]


def related_paths(a, b):
    x, y = segments(a), segments(b)
    for i in range(min(len(x), len(y))):
        if x[i] != y[i] and not (x[i].startswith("$") and y[i].startswith("$")):
            return False
    return True


def kind(op):
    return {"read": "read", "delete": "delete"}.get(op, "write")


def matches(expected, reported):
    return (expected["change"] == reported["change"] and kind(expected["operation"]) == kind(reported["operation"])
            and related_paths(expected["path"], reported["path"]))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=os.path.join(here, "..", ".build", "debug", "rules"))
    parser.add_argument("--data", default=os.path.join(here, "..", "Tests", "Data", "judged-diffs"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-solver", action="store_true", help="score the bounded search alone (rules diff --no-solver)")
    args = parser.parse_args()
    if not os.access(args.rules, os.X_OK):
        sys.exit(f"error: {args.rules} is not an executable `rules` (build it, or pass --rules)")
    rows = []
    total = {"pairs": 0, "expected": 0, "found": 0, "reported": 0, "unexpected": 0, "unchanged_right": 0, "unchanged_pairs": 0}
    for name in sorted(os.listdir(args.data)):
        folder = os.path.join(args.data, name)
        jpath = os.path.join(folder, "judgement.json")
        if not os.path.isfile(jpath):
            continue
        judgement = json.load(open(jpath))
        out = subprocess.run([args.rules, "diff", "--format", "json", "--allow-loosening", *(["--no-solver"] if args.no_solver else []),
                              os.path.join(folder, "old.rules.json"), os.path.join(folder, "new.rules.json")],
                             capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"error: rules diff failed on {name}: {out.stderr.strip()}")
        report = json.loads(out.stdout)
        expected = judgement.get("expected", [])
        reported = report["changes"]
        found = [e for e in expected if any(matches(e, r) for r in reported)]
        unexpected = [r for r in reported if not any(matches(e, r) for e in expected)]
        total["pairs"] += 1
        total["expected"] += len(expected)
        total["found"] += len(found)
        total["reported"] += len(reported)
        total["unexpected"] += len(unexpected)
        if judgement.get("unchanged"):
            total["unchanged_pairs"] += 1
            total["unchanged_right"] += 1 if report["unchanged"] else 0
        rows.append({"pair": name, "expected": len(expected), "found": len(found), "reported": len(reported),
                     "unexpected": [f'{r["change"]} {r["operation"]} {r["path"]} ({r["principal"]})' for r in unexpected],
                     "missed": [f'{e["change"]} {e["operation"]} {e["path"]} ({e["principal"]})' for e in expected if e not in found]})
    if args.json:
        print(json.dumps({"pairs": rows, "total": total}, indent=2))
        return
    for r in rows:
        print(f"{r['pair']}: expected {r['expected']}, found {r['found']}, reported {r['reported']}")
        for m in r["missed"]:
            print(f"    missed: {m}")
        for u in r["unexpected"]:
            print(f"    not expected: {u}")
    t = total
    print(f"found {t['found']}/{t['expected']} expected changes; {t['unexpected']} of {t['reported']} reported changes not expected; "
          f"{t['unchanged_right']}/{t['unchanged_pairs']} unchanged pairs reported unchanged")


if __name__ == "__main__":
    main()
