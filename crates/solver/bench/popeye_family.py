#!/usr/bin/env python3
"""Picks the problems of Popeye's own example files (its `BEISPIEL`, `EXAMPLES`, `TESTS`
and `REGRESSIONS` collections, from a checkout of Popeye's sources) whose stipulation is in
the deep direct/self-play family: `#4`-`#6`, `s#3`-`s#6`, `r#3`-`r#4` (with or without
`exact-`), and writes them as one English Popeye input (German files are translated by
`crates/solver/tools/popeye_de2en.py`; French ones are left out).

Usage: popeye_family.py DIR_OR_FILE... > examples.inp

Each problem keeps its source as a `Remark` line (`file/index`). The problems are not
filtered by what chimere reads: `speed.py` and `compare_popeye` report the refused ones."""
import os
import re
import subprocess
import sys

FAMILY = re.compile(r"^(exact-)?(#[4-6]|s#[3-6]|r#[34])$", re.I)
HERE = os.path.dirname(os.path.abspath(__file__))
DE2EN = os.path.join(HERE, "..", "tools", "popeye_de2en.py")
# Popeye reads any prefix of a keyword (`next`, `end`, `stip`...).
SPLIT = re.compile(r"(?im)^\s*(?:endp?r?o?b?l?e?m?|nextp?r?o?b?l?e?m?)\s*$")
STIP = re.compile(r"(?im)^\s*stip[a-z]*\s+(\S+)")


def english(path):
    raw = open(path, encoding="latin-1").read()
    first = next((w.lower() for w in raw.split()), "")
    if first.startswith("anf"):
        return subprocess.run([sys.executable, DE2EN, path], capture_output=True, text=True, check=True).stdout
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
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    base = os.path.commonpath([os.path.abspath(a) for a in sys.argv[1:]])
    out = []
    for path in files(sys.argv[1:]):
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
