#!/usr/bin/env python3
"""Writes a reproducible corpus of random fairy problems (Popeye input, English) for
`examples/compare_popeye.rs`: random legal-looking positions (two kings, a few units, no
pawn on a first or last rank), a stipulation, at most one condition among those Popeye and
chimere read alike, and options.

Usage: gen_corpus.py [--wide] SEED COUNT [STIPULATION [OPTIONS...]] > corpus.inp
(with a stipulation: every problem has it, no condition, and the given options; with
`--wide`: the conditions are drawn from a longer list, WIDE_CONDITIONS added, so that the
corpora of the short list stay as they were for their seeds)"""
import argparse
import random

CONDITIONS = [
    "", "", "", "", "Circe", "AntiCirce", "ChameleonCirce", "CouscousCirce", "DiagramCirce",
    "EquipollentsCirce", "SymmetryCirce", "MirrorCirce", "AntipodeanCirce", "SuperCirce",
    "AntiSuperCirce", "MarsCirce", "GhostChess", "AllInChess", "AntiAndernachChess", "Bicaptures",
    "BichromChess", "MonochromChess", "CentralChess", "UltraPatrol", "HaanerChess", "GlasgowChess",
    "EinsteinChess", "Volage", "Sentinelles", "CavalierMajeur", "Rokagogo", "SwappingKings",
    "Bicolores", "BrunnerChess", "SAT", "VogtlaenderChess", "Isardam", "ExtinctionChess",
    "LosingChess", "ChecklessChess", "BlackChecks", "Circe RexInclusive", "Circe Parachute",
    "ExclusiveChess", "ExclusiveChess",
]
# Further conditions read alike (the Popeye forms of the oracle's `popeye-solve` files).
WIDE_CONDITIONS = [
    "Circe Volcanic", "Circe Parachute", "CirceClone", "VerticalMirrorCirce", "MarsMirrorCirce",
    "Circe Strict", "Circe Assassin", "Hole d4e5", "ReflectiveKings", "RepublicanChess",
    "WhiteConsequentForcedSquare e4d5 BlackConsequentForcedSquare e4d5", "Isardam TypeB",
    "AntiCirce File Cheylan", "AntiCirce CaptureSquare", "AntiCirce Equipollents",
    "AntiCirce Mirror Cheylan", "AntiCirce PWC", "Sentinelles MaximumTotal 4",
    "Sentinelles PionAdvers", "Rokagogo",
]
STIPS = ["#1", "#2", "#2", "#3", "h#1", "h#2", "h#2", "h#2.5", "h#3", "s#1", "s#2", "r#2", "=1",
         "=2", "h=2", "ser-h#3", "ser-#3", "ser-s#2", "ser-h=3", "exact-h#2"]
UNITS = "QRRBBSSPPPP"


def sq(i):
    return "abcdefgh"[i % 8] + str(i // 8 + 1)


def problem(rng, fixed=None, fixed_opts=(), conditions=CONDITIONS):
    used = set()
    while True:
        wk, bk = rng.randrange(64), rng.randrange(64)
        if abs(wk % 8 - bk % 8) > 1 or abs(wk // 8 - bk // 8) > 1:
            break
    used |= {wk, bk}
    white, black = ["K" + sq(wk)], ["K" + sq(bk)]
    stip = fixed or rng.choice(STIPS)
    n = rng.randint(2, 5) if stip.startswith(("#", "=", "s", "r")) else rng.randint(3, 7)
    for _ in range(n):
        u = rng.choice(UNITS)
        s = rng.randrange(64)
        if s in used or (u == "P" and not 8 <= s < 56):
            continue
        used.add(s)
        (white if rng.random() < 0.55 else black).append(u + sq(s))
    cond = "" if fixed else rng.choice(conditions)
    # Exclusif: Popeye counts mates only, so for other goals its output is not an oracle
    # (conditions.md, Exclusif).
    if cond == "ExclusiveChess" and "#" not in stip:
        cond = ""
    opts = ["NoBoard"]
    if stip[0] in "#=sr" and not stip.startswith("ser"):
        opts += [o for o in ("Variation", "Try", "SetPlay") if rng.random() < 0.4]
        if stip == "#3" and rng.random() < 0.3:
            opts.append("Threat 1")
    elif stip.startswith("h") and rng.random() < 0.2:
        opts.append(rng.choice(["SetPlay", "Duplex", "HalfDuplex"]))
    if fixed:
        opts = ["NoBoard", *fixed_opts]
    lines = ["BeginProblem", f"Stipulation {stip}"]
    if cond:
        lines.append(f"Condition {cond}")
    lines.append("Option " + " ".join(opts))
    lines.append("Pieces White " + " ".join(white) + " Black " + " ".join(black))
    lines.append("EndProblem")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(
        description="Write a reproducible corpus of random problems (Popeye input) to standard output.")
    ap.add_argument("--wide", action="store_true",
                    help="draw the conditions from the longer list (WIDE_CONDITIONS added)")
    ap.add_argument("seed", type=int, help="random seed (the same seed gives the same corpus)")
    ap.add_argument("count", type=int, help="number of problems")
    ap.add_argument("stipulation", nargs="?",
                    help="give every problem this stipulation, no condition and only the OPTIONS")
    ap.add_argument("options", nargs="*", help="options for the fixed stipulation (NoBoard is always set)")
    a = ap.parse_args()
    if a.count < 0:
        ap.error("count must not be negative")
    conditions = CONDITIONS + WIDE_CONDITIONS if a.wide else CONDITIONS
    rng = random.Random(a.seed)
    print("\n\n".join(problem(rng, a.stipulation, a.options, conditions) for _ in range(a.count)))


main()
