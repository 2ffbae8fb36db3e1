#!/usr/bin/env python3
"""What a `rules` binary holds, as Markdown tables (docs/release.md shows them):

    python3 Scripts/binary-size.py BINARY [--map LINKMAP] [--top N]

- its sections (`size -A`);
- its symbols' sizes (`nm --size-sort -S`, so a binary with its symbol table: the release
  archive's, stripped of debug information only) grouped by where they come from: a Swift symbol
  by the module its mangled name starts with ($s12RulesRuntime... is RulesRuntime; the standard
  library's own short forms are Swift), a C++ symbol by its outer namespace (c++filt), a C one by
  its library's prefix (pcre2_, sqlite3, ICU's u_..._74 names, ICU's data icudt*);
- with --map (the linker's map: `-Xlinker -Map=FILE`), the input sections kept in the binary
  grouped by the archive or object file they came from, which covers what has no symbol too.

Nothing but binutils and Python is needed."""
import argparse
import collections
import os
import re
import subprocess
import sys

STDLIB_SHORT = re.compile(r"^\$s(s|S[a-zA-Z]|Sg|Sq|Si|Sb|Sd|Sf|Su|Sr|SR|Sp|SP|Sv|SV|SS|Sh|SD|Sa|Sc|Sm|SJ|Sl|Sy)")
ICU_SUFFIX = re.compile(r"_7\d$")


def run(command, input_text=None):
    return subprocess.run(command, input=input_text, capture_output=True, text=True, check=True).stdout


def sections(binary):
    rows = []
    for line in run(["size", "-A", binary]).splitlines()[2:]:
        parts = line.split()
        if len(parts) == 3 and parts[1].isdigit() and parts[0] != "Total":
            rows.append((parts[0], int(parts[1])))
    return rows


def swift_module(name):
    if STDLIB_SHORT.match(name):
        return "Swift (standard library)"
    match = re.match(r"^\$s(\d+)", name)
    if not match:
        return "Swift (standard library)"
    length = int(match.group(1))
    start = match.end()
    module = name[start:start + length]
    return {"So": "Swift (imported C)", "__C": "Swift (imported C)"}.get(module, module)


def origin(name, demangled_cxx):
    if name.startswith("$s") or name.startswith("_$s"):
        return swift_module(name.lstrip("_"))
    if name.startswith("_Z"):
        text = demangled_cxx.get(name, name)
        if text.startswith(("icu_7", "icu::")):
            return "ICU (C++)"
        if text.startswith(("std::", "__gnu_cxx::", "__cxxabiv1::")):
            return "C++ runtime"
        if text.startswith("swift::") or "swift::" in text[:40]:
            return "Swift runtime (C++)"
        head = re.split(r"::|\(|<", text, maxsplit=1)[0]
        return f"C++ {head}" if head and len(head) < 30 else "C++ (other)"
    if name.startswith("icudt"):
        return "ICU data"
    if ICU_SUFFIX.search(name) or name.startswith(("u_", "ucol_", "ubrk_", "uloc_", "ures_", "udata_", "ucnv_", "unum_", "udat_")):
        return "ICU (C)"
    if name.startswith("pcre2_") or name.startswith("_pcre2_"):
        return "PCRE2"
    if name.startswith("sqlite3") or name.startswith("sqlite"):
        return "SQLite"
    if name.startswith("swift_") or name.startswith("_swift_"):
        return "Swift runtime (C)"
    return "C (other)"


def symbols(binary):
    groups = collections.Counter()
    counts = collections.Counter()
    entries = []
    for line in run(["nm", "--size-sort", "-S", binary]).splitlines():
        parts = line.split()
        if len(parts) != 4:
            continue
        _, size, kind, name = parts
        entries.append((name, int(size, 16), kind))
    cxx = [name for name, _, _ in entries if name.startswith("_Z")]
    demangled = dict(zip(cxx, run(["c++filt"], "\n".join(cxx) + "\n").splitlines())) if cxx else {}
    for name, size, _ in entries:
        where = origin(name, demangled)
        groups[where] += size
        counts[where] += 1
    return groups, counts


def linker_map(path):
    """Input sections kept in the output and loaded (debug information left out), grouped by
    archive (or object directory)."""
    groups = collections.Counter()
    line_re = re.compile(r"^\s+(\S+\s+)?0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+\.(?:a|o|so)(?:\(.*\))?)\s*$")
    discarded = False
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("Discarded input sections"):
                discarded = True
            elif line.startswith("Memory map") or line.startswith("Linker script and memory map"):
                discarded = False
            if discarded:
                continue
            match = line_re.match(line)
            if not match:
                continue
            # Debug sections are not loaded (address 0) and strip removes them: left out.
            if int(match.group(2), 16) == 0 or (match.group(1) or "").startswith(".debug"):
                continue
            size = int(match.group(3), 16)
            source = match.group(4)
            archive = re.sub(r"\(.*\)$", "", source)
            if archive.endswith(".o"):
                # SwiftPM's objects: .build-release/.../release/MODULE.build/FILE.swift.o
                module = re.search(r"/([^/]+)\.build/[^/]+$", archive)
                label = f"{module.group(1)} (objects)" if module else os.path.basename(archive)
            else:
                label = os.path.basename(archive)
            groups[label] += size
    return groups


def mb(n):
    return f"{n / 1e6:.1f} MB"


def table(title, rows, total, extra=None):
    print(f"| {title} | size | share |" + (f" {extra[0]} |" if extra else ""))
    print("| --- | ---: | ---: |" + (" ---: |" if extra else ""))
    for label, size in rows:
        share = f"{100 * size / total:.1f} %" if total else ""
        more = f" {extra[1].get(label, '')} |" if extra else ""
        print(f"| {label} | {mb(size)} | {share} |{more}")
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--map")
    parser.add_argument("--top", type=int, default=25)
    options = parser.parse_args()
    size = os.path.getsize(options.binary)
    print(f"`{os.path.basename(options.binary)}`: {size:,} bytes ({mb(size)})\n")
    rows = sorted(sections(options.binary), key=lambda r: -r[1])
    table("section (`size -A`)", [r for r in rows if r[1] >= 100_000], size)
    groups, counts = symbols(options.binary)
    total = sum(groups.values())
    print(f"Symbols with a size: {sum(counts.values()):,}, {mb(total)} in all.\n")
    ranked = groups.most_common(options.top)
    rest = total - sum(s for _, s in ranked)
    if rest:
        ranked.append(("(the rest)", rest))
    table("from (`nm --size-sort -S`)", ranked, total, ("symbols", {k: f"{v:,}" for k, v in counts.items()}))
    if options.map:
        archives = linker_map(options.map)
        kept = sum(archives.values())
        ranked = archives.most_common(options.top)
        rest = kept - sum(s for _, s in ranked)
        if rest:
            ranked.append(("(the rest)", rest))
        print(f"Input sections kept by the linker (its map): {mb(kept)}.\n")
        table("archive or objects (linker map)", ranked, kept)


if __name__ == "__main__":
    sys.exit(main())
