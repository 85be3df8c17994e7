#!/usr/bin/env python3
"""Random intelligent help and series problems (Option Intelligent) with holes on part of
one or two files (`Condition Hole`) or with dummies (`Du`) of both sides.

Usage: gen_intel_fairy.py SEED COUNT hole|dummy STIP[,STIP...] > corpus.inp
(e.g. `21 45 hole ser-h=8,ser-h=10,h=4`, `22 45 dummy ser-h=12,h=3`, `23 30 dummy h#3,ser-h#8`)"""
import random, sys
seed, count, kind = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]  # kind: hole|dummy
stips = sys.argv[4].split(",")
rng = random.Random(seed)
def sq(i): return "abcdefgh"[i % 8] + str(i // 8 + 1)
out = []
for n in range(count):
    used = set()
    while True:
        wk, bk = rng.randrange(64), rng.randrange(64)
        if abs(wk % 8 - bk % 8) > 1 or abs(wk // 8 - bk // 8) > 1: break
    used |= {wk, bk}
    holes = []
    if kind == "hole":
        files = rng.sample([f for f in range(8)], rng.choice([1, 2]))
        for f in files:
            lo = rng.randrange(0, 5); hi = rng.randrange(lo + 2, 8)
            for r in range(lo, hi + 1):
                s = r * 8 + f
                if s not in used: holes.append(s); used.add(s)
    white, black = ["K" + sq(wk)], ["K" + sq(bk)]
    def place(lst, units, k):
        for _ in range(k):
            u = rng.choice(units)
            for _ in range(20):
                s = rng.randrange(64)
                if s in used or (u == "P" and (s < 8 or s >= 56)): continue
                used.add(s); lst.append(u + sq(s)); break
    place(white, "QRRBBSSPP", rng.randrange(1, 4))
    place(black, "QRBSPPPP", rng.randrange(1, 5))
    if kind == "dummy":
        place(white, ["Du"], rng.randrange(1, 3))
        place(black, ["Du"], rng.randrange(1, 4))
    stip = rng.choice(stips)
    lines = ["BeginProblem" if n == 0 else "NextProblem", f"Remark {kind} {seed} {n}",
             "Pieces", "White " + " ".join(white), "Black " + " ".join(black), f"Stipulation {stip}",
             "Option Intelligent"]
    if holes: lines.append("Condition Hole " + "".join(sq(h) for h in holes))
    out += lines
out.append("EndProblem")
print("\n".join(out))
