#!/usr/bin/env python3
"""A sequential self-play test of one engine build against another (orthodox chess).

    python3 sprt.py NEW_CMD OLD_CMD [--nodes N | --tc 5+0.05] [--elo0 0 --elo1 10]
                    [--alpha 0.05 --beta 0.05] [--max-pairs 400] [--concurrency 1]
                    [--engine-option NAME=VALUE ...] [--new-option NAME=VALUE ...]
                    [--old-option NAME=VALUE ...] [--seed 1] [--pgn OUT]

Games come in pairs: one opening of `openings.epd` (the UCI tools' 100 balanced openings),
played once with each colour, so both builds meet the same positions under the same
conditions. Each pair scores 0, 1/4, 1/2, 3/4 or 1 for NEW; the test is a generalised SPRT on
that pentanomial score (as Fishtest does, in logistic Elo): H0 = NEW is `elo0` stronger,
H1 = NEW is `elo1` stronger. After every pair it prints the running W-D-L, the pair counts,
the log-likelihood ratio against its bounds ln(beta/(1-alpha)) and ln((1-beta)/alpha), and
the Elo estimate with its 95 % interval (pair variance, so the openings' correlation is
counted). It stops at a bound (H1 accepted / H0 accepted; not before `--min-pairs` pairs, 10, as
the normal approximation needs a few) or after `--max-pairs` pairs
(inconclusive), and ends with one line:

    sprt: H1 accepted | H0 accepted | inconclusive  elo E +- M  (N pairs, W-D-L)

`--nodes N` gives each side N nodes a move (`go nodes N`): independent of the machine's load,
it compares search quality at equal work and does not reward speed. A one-thread search at
fixed nodes is deterministic, so a second pass over the openings would replay the first
pass's games: pass k (from 0) gives both sides N + k * N/20 nodes a move instead. `--tc B+I` plays on a
clock (the UCI tools' client clock, which discounts run-queue waits): it rewards speed too,
but a loaded machine adds noise to both sides. `--new-option`/`--old-option` set an option
of one side only: one binary with `--new-option Level=6 --old-option Level=5` orders two
playing levels. Games end by the rules as python-chess applies
them, or drawn after `--max-plies`. Needs python-chess and the UCI tools (`ucigame.py`,
found in `$CHIMERE_SHARED/tools/uci`, default `../shared/tools/uci` from the checkout).
"""

import argparse
import asyncio
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("CHIMERE_SHARED", os.path.join(HERE, "..", "..", "..", "..", "shared"))
sys.path.insert(0, os.path.join(SHARED, "tools", "uci"))

import chess  # noqa: E402
import chess.engine  # noqa: E402
import ucigame  # noqa: E402


def logistic(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def stats(pairs):
    """Mean pair score, its variance per pair, and the count (pair scores in [0, 1])."""
    n = len(pairs)
    if n == 0:
        return 0.5, 0.0, 0
    mean = sum(pairs) / n
    var = sum((x - mean) ** 2 for x in pairs) / n
    return mean, var, n


def llr(pairs, elo0, elo1):
    """Generalised SPRT log-likelihood ratio (normal approximation on pair scores)."""
    mean, var, n = stats(pairs)
    if n < 2:
        return 0.0
    # A run of identical pairs has no spread: a small floor lets a one-sided run decide.
    var = max(var, 1e-3)
    s0, s1 = logistic(elo0), logistic(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def interval(pairs):
    mean, var, n = stats(pairs)
    if n < 2:
        return elo_of(mean), float("inf")
    half = 1.96 * math.sqrt(var / n)
    lo, hi = elo_of(mean - half), elo_of(mean + half)
    return elo_of(mean), (hi - lo) / 2


def load_openings(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                board, _ = chess.Board.from_epd(line)
                out.append(board)
    return out


async def play_nodes(white, black, start, nodes, max_plies):
    """One game at a fixed node count per move."""
    board = start.copy()
    token = object()
    engines = {chess.WHITE: white, chess.BLACK: black}
    plies = 0
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return outcome.result(), outcome.termination.name.lower()
        if plies >= max_plies:
            return "1/2-1/2", "move limit"
        side = board.turn
        try:
            res = await asyncio.wait_for(engines[side].play(board, chess.engine.Limit(nodes=nodes), game=token), 120)
        except (asyncio.TimeoutError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            return ("0-1" if side == chess.WHITE else "1-0"), f"fault: {e}"
        if not res.move or res.move not in board.legal_moves:
            return ("0-1" if side == chess.WHITE else "1-0"), f"illegal move {res.move}"
        board.push(res.move)
        plies += 1


def new_score(result, new_is_white):
    s = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    return s if new_is_white else 1.0 - s


async def worker(args, openings, queue, pairs, tally, lock, done, options):
    new = await ucigame.open_engine(args.new, {**options, **side_options(args.new_option)})
    old = await ucigame.open_engine(args.old, {**options, **side_options(args.old_option)})
    base, inc = ucigame.parse_tc(args.tc) if args.tc else (None, None)
    try:
        while not done.is_set():
            try:
                idx = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            start = openings[idx % len(openings)]
            # At fixed nodes a game is a function of its opening: each later pass over the
            # openings gives both sides 5 % more nodes a move, so its games are new ones.
            nodes = args.nodes + (idx // len(openings)) * max(1, args.nodes // 20) if args.nodes else None
            pair = 0.0
            for new_white in (True, False):
                w, b = (new, old) if new_white else (old, new)
                if args.nodes:
                    result, why = await play_nodes(w, b, start, nodes, args.max_plies)
                else:
                    g = await ucigame.play_game(w, b, start, base, inc, max_plies=args.max_plies)
                    result, why = g.result, g.termination
                s = new_score(result, new_white)
                pair += s / 2
                async with lock:
                    tally[{1.0: 0, 0.5: 1, 0.0: 2}[s]] += 1
                    if args.pgn:
                        with open(args.pgn, "a") as f:
                            f.write(f"{idx} new={'white' if new_white else 'black'} {result} {why}\n")
            async with lock:
                if done.is_set():
                    return
                pairs.append(pair)
                report(args, pairs, tally)
                l = llr(pairs, args.elo0, args.elo1)
                decided = len(pairs) >= args.min_pairs and (l <= lower(args) or l >= upper(args))
                if decided or len(pairs) >= args.max_pairs:
                    done.set()
    finally:
        await ucigame.close_engine(new)
        await ucigame.close_engine(old)


def side_options(items):
    """NAME=VALUE strings as a dict of UCI options."""
    return dict(o.split("=", 1) for o in items)


def lower(args):
    return math.log(args.beta / (1 - args.alpha))


def upper(args):
    return math.log((1 - args.beta) / args.alpha)


def report(args, pairs, tally):
    counts = [0] * 5
    for p in pairs:
        counts[int(round(p * 4))] += 1
    e, m = interval(pairs)
    l = llr(pairs, args.elo0, args.elo1)
    print(f"pairs {len(pairs):4d}  W-D-L {tally[0]}-{tally[1]}-{tally[2]}  penta {counts}  "
          f"llr {l:+.2f} [{lower(args):.2f}, {upper(args):.2f}]  elo {e:+.1f} +- {m:.1f}", flush=True)


async def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("new")
    ap.add_argument("old")
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--tc")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=10.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--max-pairs", type=int, default=400)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--min-pairs", type=int, default=10,
                    help="no decision before this many pairs: the normal approximation needs them")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--openings", default=os.path.join(SHARED, "tools", "uci", "openings.epd"))
    ap.add_argument("--engine-option", action="append", default=[])
    ap.add_argument("--new-option", action="append", default=[], help="an option of NEW alone (e.g. Level=6)")
    ap.add_argument("--old-option", action="append", default=[], help="an option of OLD alone")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pgn", help="append one line per game (opening, colours, result) to this file")
    args = ap.parse_args()
    if bool(args.nodes) == bool(args.tc):
        ap.error("give exactly one of --nodes N and --tc B+I")
    options = {"Threads": 1, "Hash": 16}
    for o in args.engine_option:
        k, _, v = o.partition("=")
        options[k] = v
    openings = load_openings(args.openings)
    order = list(range(len(openings)))
    random.Random(args.seed).shuffle(order)
    queue = asyncio.Queue()
    for i in range(args.max_pairs):
        queue.put_nowait(order[i % len(order)] + len(order) * (i // len(order)))
    pairs, tally, lock, done = [], [0, 0, 0], asyncio.Lock(), asyncio.Event()
    await asyncio.gather(*(worker(args, openings, queue, pairs, tally, lock, done, options)
                           for _ in range(max(1, args.concurrency))))
    l = llr(pairs, args.elo0, args.elo1)
    enough = len(pairs) >= args.min_pairs
    verdict = "H1 accepted" if enough and l >= upper(args) else "H0 accepted" if enough and l <= lower(args) else "inconclusive"
    e, m = interval(pairs)
    print(f"sprt: {verdict}  elo {e:+.1f} +- {m:.1f}  ({len(pairs)} pairs, W-D-L {tally[0]}-{tally[1]}-{tally[2]}; "
          f"H0 elo {args.elo0:g}, H1 elo {args.elo1:g}, alpha {args.alpha:g}, beta {args.beta:g})")


if __name__ == "__main__":
    asyncio.run(main())
