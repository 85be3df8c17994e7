#!/usr/bin/env python3
"""Writes a reproducible family of deep direct and self-play problems (Popeye input,
English) for speed measurements: `#4`-`#6`, `s#3`-`s#6` and `r#3`-`r#4`, orthodox, with the
options that shape the trees (`Variation`, `Try`, `Threat`, `Defence`, `NoShortVariations`).

Usage: gen_deep.py SEED COUNT [STIPULATION ...] [--condition NAME] > family.inp

`--condition NAME` writes `Condition NAME` into every problem (a common condition, e.g.
`Circe` or `AntiCirce`), so that the family is also measured off the orthodox rules.

Positions are random: two kings apart, 3 to 11 further units (pawns off the first and last
ranks), White a little stronger for direct play. Most have no solution: the search must then
prove it, which is what takes the time. Pick the heavy ones by timing Popeye on them."""
import argparse
import random

STIPS = ["#4", "#4", "#5", "#5", "#6", "s#3", "s#3", "s#4", "s#4", "s#5", "s#6", "r#3", "r#4"]
UNITS = "QRRBBSSPPPP"


def sq(i):
    return "abcdefgh"[i % 8] + str(i // 8 + 1)


def problem(rng, stips, condition=None):
    while True:
        wk, bk = rng.randrange(64), rng.randrange(64)
        if abs(wk % 8 - bk % 8) > 1 or abs(wk // 8 - bk // 8) > 1:
            break
    used = {wk, bk}
    white, black = ["K" + sq(wk)], ["K" + sq(bk)]
    stip = rng.choice(stips)
    for _ in range(rng.randint(3, 11)):
        u = rng.choice(UNITS)
        s = rng.randrange(64)
        if s in used or (u == "P" and not 8 <= s < 56):
            continue
        used.add(s)
        share = 0.6 if stip.startswith("#") else 0.5
        (white if rng.random() < share else black).append(u + sq(s))
    opts = ["NoBoard"]
    opts += [o for o in ("Variation", "Try", "MoveNumbers") if rng.random() < 0.5]
    n = int(stip.lstrip("sr#"))
    if stip.startswith("#") and rng.random() < 0.25:
        opts.append(f"Threat {rng.randint(1, n - 2)}")
    if "Try" in opts and rng.random() < 0.3:
        opts.append("Defence 2")
    if "Variation" in opts and rng.random() < 0.2:
        opts.append("NoShortVariations")
    lines = ["BeginProblem", f"Stipulation {stip}"]
    if condition:
        lines.append(f"Condition {condition}")
    lines += ["Option " + " ".join(opts),
             "Pieces White " + " ".join(white) + " Black " + " ".join(black), "EndProblem"]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("stipulations", nargs="*", help="draw from these (default: the family)")
    ap.add_argument("--condition", help="a Popeye condition written into every problem")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    for _ in range(a.count):
        print(problem(rng, a.stipulations or STIPS, a.condition))
        print()


if __name__ == "__main__":
    main()
