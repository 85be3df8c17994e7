#!/usr/bin/env python3
"""Writes reproducible Popeye problems (English input) that list every move of White in a
random position holding fairy pieces, for the move-list comparison with Popeye
(`crates/solver/examples/compare_popeye.rs`): stipulation `~1` (every legal move is a
solution), two kings, one or two fairy kinds on both sides among orthodox units, and with
`--circe` the condition Circe. Every kind of the list appears in turn. With `--attribute WORD`
(e.g. `HurdleColourChanging`) the fairy units carry that attribute and the problems list
the moves of both sides (`h~1`: a move of Black, then one of White), so that its effects are played on.

Usage: gen_pieces.py [--circe] [--attribute WORD] SEED COUNT [LETTERS...] > corpus.inp
(LETTERS: Popeye's piece letters to draw from; default: every piece of the list below)"""
import argparse
import random

# Popeye's English letters of the pieces chimere reads beyond the orthodox ones.
PIECES = ("N RO L LN LB LR G Z CA GI AN BU RF WE FE AL DA GN OK BI ZE SQ 15 16 24 25 35 36 37 "
          "CR ZR GR ET AM EM PR WA RH BH NH CH ZH GH G2 G3 KH KA KL DO SO GL LI RL BL NL "
          "M EA SW RM RE RW BM BE BW PA VA LE NA MA MO SI TR ND EQ NE OR NO HA CG KP AO OA AH OH ML MM").split()
ORTHODOX = "QRBSPP"


def sq(i):
    return "abcdefgh"[i % 8] + str(i // 8 + 1)


def problem(rng, idx, kinds, circe, attribute=None):
    used = set()
    while True:
        wk, bk = rng.randrange(64), rng.randrange(64)
        if abs(wk % 8 - bk % 8) > 1 or abs(wk // 8 - bk // 8) > 1:
            break
    used |= {wk, bk}
    white, black = ["K" + sq(wk)], ["K" + sq(bk)]
    white_attr, black_attr = [], []
    fairy = [kinds[idx % len(kinds)]] + ([rng.choice(kinds)] if rng.random() < 0.4 else [])
    units = fairy * 2 + [rng.choice(fairy) for _ in range(rng.randint(0, 2))]
    units += [rng.choice(ORTHODOX) for _ in range(rng.randint(2, 7))]
    for i, u in enumerate(units):
        s = rng.randrange(64)
        if s in used or (u == "P" and not 8 <= s < 56):
            continue
        used.add(s)
        is_white = i % 2 == 0 or rng.random() < 0.3
        if attribute and u in fairy:
            (white_attr if is_white else black_attr).append(u + sq(s))
        else:
            (white if is_white else black).append(u + sq(s))
    lines = ["BeginProblem", f"Title pieces {idx + 1} {' '.join(fairy)}",
             "Pieces", "White " + " ".join(white), "Black " + " ".join(black)]
    for colour, group in (("White", white_attr), ("Black", black_attr)):
        if group:
            lines.append(f"{colour} {attribute} " + " ".join(group))
    lines.append("Stipulation " + ("h~1" if attribute else "~1"))
    if circe:
        lines.append("Condition Circe")
    lines += ["Option NoBoard", "EndProblem", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--circe", action="store_true")
    ap.add_argument("--attribute")
    ap.add_argument("seed", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("letters", nargs="*")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    kinds = a.letters or PIECES
    print("\n".join(problem(rng, i, kinds, a.circe, a.attribute) for i in range(a.count)))


if __name__ == "__main__":
    main()
