#!/usr/bin/env python3
"""Picks the problems of Popeye's own example files (its `BEISPIEL`, `EXAMPLES`, `TESTS`
and `REGRESSIONS` collections, from a checkout of Popeye's sources) whose stipulation is in
the deep direct/self-play family: `#4`-`#6`, `s#3`-`s#6`, `r#3`-`r#4` (with or without
`exact-`), and writes them as one English Popeye input (German and French files are put in
English by `chimere solve --english`, the reader's own translation).

Usage: popeye_family.py [--chimere target/release/chimere] DIR_OR_FILE... > examples.inp

Each problem keeps its source as a `Remark` line (`file/index`). The problems are not
filtered by what chimere reads: `speed.py` and `compare_popeye` report the refused ones."""
import os
import re
import subprocess
import sys

FAMILY = re.compile(r"^(exact-)?(#[4-6]|s#[3-6]|r#[34])$", re.I)
CHIMERE = "target/release/chimere"
# Popeye reads any prefix of a keyword (`next`, `end`, `stip`...).
SPLIT = re.compile(r"(?im)^\s*(?:endp?r?o?b?l?e?m?|nextp?r?o?b?l?e?m?)\s*$")
STIP = re.compile(r"(?im)^\s*stip[a-z]*\s+(\S+)")


def english(path):
    raw = open(path, encoding="latin-1").read()
    first = next((w.lower() for w in raw.split()), "")
    if first.startswith(("anf", "deb")):
        return subprocess.run([CHIMERE, "solve", "--english", path], capture_output=True, text=True, check=True).stdout
    if first.startswith("beg"):
        return raw
    return None


def files(args):
    for a in args:
        if os.path.isdir(a):
            for root, _, names in sorted(os.walk(a)):
                for n in sorted(names):
                    if n.endswith(".inp"):
                        yield os.path.join(root, n)
        else:
            yield a


def main():
    global CHIMERE
    args = sys.argv[1:]
    if args[:1] == ["--chimere"] and len(args) > 1:
        CHIMERE, args = args[1], args[2:]
    if not args:
        sys.exit(__doc__)
    base = os.path.commonpath([os.path.abspath(a) for a in args])
    out = []
    for path in files(args):
        text = english(path)
        if text is None:
            continue
        for i, chunk in enumerate(SPLIT.split(text)):
            m = STIP.search(chunk)
            if not m or not FAMILY.match(m.group(1)):
                continue
            # A twin that changes the stipulation leaves the family: left out.
            if re.search(r"(?im)^\s*twin\b.*\bstip", chunk):
                continue
            body = re.sub(r"(?im)^\s*(begi?n?p?r?o?b?l?e?m?|prot[a-z]*\b.*)\s*$", "", chunk).strip()
            name = os.path.relpath(path, base)
            out.append(f"Remark {name}/{i}\n{body}")
    if out:
        print("BeginProblem\n" + "\n\nNextProblem\n\n".join(out) + "\n\nEndProblem")


if __name__ == "__main__":
    main()
