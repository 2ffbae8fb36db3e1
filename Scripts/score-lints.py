#!/usr/bin/env python3
"""Scores `rules check` against hand judgements of real rules files.

Each folder of Tests/Data/judged holds a published rules file and `judgement.json`, written by
reading the rules before the tool was run on them: the real holes (class, path, operation, who)
and the spots that look suspicious but are fine. This script runs `rules check --format json` on
each file and reports, per file and in total:

- recall: the holes that a security finding of a matching code reports (at the hole's path, an
  ancestor or a descendant of it, or naming it in its message);
- noise: security findings that report no judged hole (those on a spot judged fine are counted
  apart).

Usage: python3 Scripts/score-lints.py [--rules PATH] [--data DIR] [--json] [--no-solver]
"""
import argparse
import json
import os
import subprocess
import sys

# Which lint codes report each class of hole.
CODES = {
    "privilege-escalation": {"self-granted-privilege"},
    "takeover": {"ownership-takeover", "collection-wipe", "authorization-in-validate", "public-write"},
    "collection-wipe": {"collection-wipe", "public-write", "ownership-takeover", "record-check-at-collection"},
    "validate-only-authorization": {"authorization-in-validate", "delete-guard-in-validate"},
    "per-user-data-readable": {"per-user-data-readable", "public-read"},
    "skipped-check": {"skipped-check"},
    "dead-stricter-rule": {"shadowed-rule", "weaker-ancestor-grant"},
    "public-write": {"public-write", "collection-wipe", "ownership-takeover", "unvalidated-write"},
    "public-read": {"public-read", "per-user-data-readable"},
    "unvalidated-write": {"unvalidated-write", "public-write"},
}


def segments(path):
    return [s for s in path.split("/") if s]


def related_paths(a, b):
    """Equal, or one an ancestor of the other, comparing $wildcards as wildcards."""
    x, y = segments(a), segments(b)
    n = min(len(x), len(y))
    for i in range(n):
        if x[i] != y[i] and not (x[i].startswith("$") and y[i].startswith("$")):
            return False
    return True


def finding_path(d):
    anchor = d.get("anchor") or ""
    return anchor.split(" ")[0] if anchor.startswith("/") else None


def matches(hole, d):
    if d["code"] not in CODES.get(hole["class"], set()):
        return False
    path = finding_path(d)
    if path is not None and related_paths(path, hole["path"]):
        return True
    texts = [d["message"]] + [r["message"] for r in d.get("related", [])]
    return any(hole["path"] in t for t in texts)


def on_fine_spot(fine, d):
    path = finding_path(d)
    return path is not None and any(related_paths(path, f["path"]) and len(segments(path)) >= len(segments(f["path"])) for f in fine)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=os.path.join(here, "..", ".build", "debug", "rules"))
    parser.add_argument("--data", default=os.path.join(here, "..", "Tests", "Data", "judged"))
    parser.add_argument("--json", action="store_true", help="print the score as JSON")
    parser.add_argument("--no-solver", action="store_true", help="run rules check with the search alone (--no-solver)")
    args = parser.parse_args()
    if not os.access(args.rules, os.X_OK):
        sys.exit(f"error: {args.rules} is not an executable `rules` (build it, or pass --rules)")
    total = {"holes": 0, "found": 0, "findings": 0, "true": 0, "fine": 0, "noise": 0}
    rows = []
    for name in sorted(os.listdir(args.data)):
        folder = os.path.join(args.data, name)
        judgement_path = os.path.join(folder, "judgement.json")
        if not os.path.isfile(judgement_path):
            continue
        judgement = json.load(open(judgement_path))
        rules_file = next(f for f in sorted(os.listdir(folder)) if f.endswith(".json") and f != "judgement.json")
        out = subprocess.run([args.rules, "check", "--no-config", "--format", "json"] + (["--no-solver"] if args.no_solver else []) + [os.path.join(folder, rules_file)],
                             capture_output=True, text=True)
        if out.returncode not in (0, 1):
            sys.exit(f"error: rules check failed on {name}: {out.stderr.strip()}")
        report = json.loads(out.stdout)
        security = [d for d in report["diagnostics"] if "witness" in d]
        holes = judgement.get("holes", [])
        found = [h for h in holes if any(matches(h, d) for d in security)]
        true = [d for d in security if any(matches(h, d) for h in holes)]
        fine = [d for d in security if d not in true and on_fine_spot(judgement.get("fine", []), d)]
        noise = [d for d in security if d not in true]
        rows.append({"file": name, "holes": len(holes), "found": len(found), "missed": [h["id"] for h in holes if h not in found],
                     "findings": len(security), "true": len(true), "fine": len(fine), "noise": len(noise),
                     "noise_findings": [f'{d["code"]} at {d["line"]}:{d["column"]}' for d in noise]})
        for k in ("holes", "found", "findings", "true", "fine", "noise"):
            total[k] += rows[-1][k]
    recall = total["found"] / total["holes"] if total["holes"] else 1.0
    if args.json:
        print(json.dumps({"files": rows, "total": total, "recall": recall}, indent=2))
        return
    print(f"{'file':<18} {'holes':>5} {'found':>5} {'findings':>8} {'true':>5} {'noise':>5}  missed / noise")
    for r in rows:
        detail = ", ".join(r["missed"] + r["noise_findings"])
        print(f"{r['file']:<18} {r['holes']:>5} {r['found']:>5} {r['findings']:>8} {r['true']:>5} {r['noise']:>5}  {detail}")
    print(f"recall: {total['found']}/{total['holes']} holes ({recall:.0%}); "
          f"noise: {total['noise']} of {total['findings']} security findings report no judged hole "
          f"({total['fine']} of them on a spot judged fine)")


if __name__ == "__main__":
    main()
