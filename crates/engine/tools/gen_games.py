#!/usr/bin/env python3
"""Labelled positions for fitting the orthodox chess evaluation (`examples/tune.rs`).

Plays Debian's Stockfish against itself at a fixed node count per move (deterministic:
one thread, hash cleared before each game) from random openings (uniformly random legal
moves for the first plies, from a seeded generator), and writes one line per recorded
position:

    <FEN>;<result>        result from white's side: 1 (white won), 0.5, 0

A position is recorded when it is past the opening plies, the side to move is not in
check and the move Stockfish chose is quiet (no capture, no promotion), so that the static
evaluation is a fair guess of it. Games end by the rules (python-chess: mate, stalemate,
insufficient material, threefold repetition and fifty moves claimed), or are adjudicated
when Stockfish's score has stayed beyond 1000 cp for the same side over 6 plies (a win
for that side), or drawn after 300 plies.

    python3 gen_games.py --games 3000 --nodes 3000 --seed 1 --out games.txt

Same arguments and Stockfish version (15.1 here), same file. Needs python-chess.
"""

import argparse
import random
import sys

import chess
import chess.engine


def play(engine, rng, args):
    board = chess.Board()
    for _ in range(args.random_plies):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            return []
        board.push(rng.choice(moves))
    if board.is_game_over(claim_draw=True):
        return []
    engine.configure({"Clear Hash": None})
    recorded = []
    streak_side, streak = None, 0
    result = None
    while result is None:
        if board.is_game_over(claim_draw=True):
            result = {"1-0": 1.0, "0-1": 0.0}.get(board.result(claim_draw=True), 0.5)
            break
        if board.ply() >= args.max_plies:
            result = 0.5
            break
        info = engine.play(board, chess.engine.Limit(nodes=args.nodes), info=chess.engine.INFO_SCORE)
        move = info.move
        score = info.info.get("score")
        if score is not None:
            white = score.white().score(mate_score=100000)
            side = 1 if white > 1000 else (0 if white < -1000 else None)
            if side is not None and side == streak_side:
                streak += 1
            else:
                streak_side, streak = side, (1 if side is not None else 0)
            if streak >= 6:
                result = float(streak_side)
                break
        if not board.is_check() and not board.is_capture(move) and move.promotion is None:
            recorded.append(board.fen())
        board.push(move)
    return [(fen, result) for fen in recorded]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--nodes", type=int, default=3000, help="Stockfish nodes per move")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random-plies", type=int, default=8)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 16})
    n = 0
    with open(args.out, "w") as out:
        for g in range(args.games):
            for fen, r in play(engine, rng, args):
                out.write(f"{fen};{r:g}\n")
                n += 1
            out.flush()
            if (g + 1) % 100 == 0:
                print(f"{g + 1} games, {n} positions", file=sys.stderr)
    engine.quit()
    print(f"{args.games} games, {n} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
