#!/usr/bin/env python3
"""Perft speed of each variant against vchess's own rules, CPU time, same run.

For every position below, runs our release `chimere perft` (full leaf: every leaf turn is
played, as vchess does) and the vchess harness's `perft.mjs <Variant> <fen> <depth>
--engine` (its `getAllValidMoves`/`play`/`undo` at every part), checks that the two leaf
counts are equal (any difference stops the run, exit 1), and prints the CPU time of each
child process (user + system, from `getrusage(RUSAGE_CHILDREN)` deltas) and their ratio.

Start-up is subtracted on both sides: each program's CPU time for the same position at
depth 1 (process start, FEN reading, one-time tables — our sliding-attack tables are built
on first use, about 17 M instructions —, one generation; for vchess, Node, the rules'
modules and one generation) is measured and taken off each run. Our runs are short (a few
milliseconds, as long as start-up), so depth-1 and full runs alternate until they have used
`--min-cpu` seconds (at least 5 pairs) and the difference of their medians is kept; vchess's
depth-1 run is measured 3 times (median), its full run once (`--vchess-reps` to repeat,
median kept).

    python3 bench/vchess_ratio.py [--chimere target/release/chimere] [--before OLD_BINARY]
                                  [--variant fugue] [--quick]

`--before` measures a second `chimere` binary in the same run (before/after columns).
The vchess harness is found at `<shared>/tools/vchess`, `<shared>` being `CHIMERE_SHARED`
or `../shared` beside the repository. Needs Node >= 20.6. Depths are chosen so that vchess
takes a few seconds per position on this 2-core machine (`--quick`: one turn less, never under 2). Node's
compiler warms up during a run, so vchess is slower per leaf in short runs: on Interweave's
start it counted 280 k leaves per CPU second at depth 4 and 440 k at depth 5 (45 s); `--deeper`
adds one turn everywhere for a steadier vchess figure (minutes per position).
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# (vchess name, label, FEN, depth). The start positions are those of `chimere bench`
# (crates/rules/src/lib.rs, `BENCH`), as is Kiwipete; the other positions are taken from
# games of the vchess oracle data (`oracle/vchess/<variant>.jsonl`, index given).
POSITIONS = [
    ("Chess", "start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -", 4),
    ("Chess", "kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w 0 ahah -", 3),
    ("Checkered", "start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah1111111111111111 - - 1", 4),
    ("Checkered", "oracle64", "n1nkrqbb/3p1p1p/p3p1p1/2s5/2s1PP2/2R3P1/s6P/N2KBBRN w 18 igie1000001110011111 - - 1", 3),
    ("Checkered", "oracle68", "rnbk2nr/ppp2ppp/4p3/2c5/4s3/s7/P4PPP/R3KBNR w 18 iiii1001011111101111 - - 1-", 3),
    ("Interweave", "start", "rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 000000", 4),
    ("Interweave", "oracle72", "rb1kk1br/ppp1pp2/2p3p1/6P1/6nP/8/1PP2n1P/RBNKK1B1 w 18 - 110000", 5),
    ("Interweave", "oracle74", "rb1kkn2/p1p3rp/2pp1Pp1/7R/1P1P4/RP2N3/2P1PPP1/1B1KKNB1 w 18 - 000011", 4),
    ("Fugue", "start", "wlqksaui/pppppppp/8/8/8/8/PPPPPPPP/IUASKQLW w 0", 4),
    ("Fugue", "oracle52", "alqi2ks/pppppw1p/6pp/8/P2PW1Q1/4P3/PP1K2PP/A1SU1L1I w 18", 3),
    ("Fugue", "oracle56", "wlqks1ui/1pp1a1pp/1p2P3/3p4/4W3/2P1A1PP/P1P2P1P/IU1SKQL1 b 19", 3),
    ("Dynamo", "start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -", 2),
    ("Dynamo", "oracle80", "1n2kr2/2pp1p2/8/8/7p/8/2P1BPP1/rP2K1N1 w 18 iiii -/bng8", 3),
    ("Dynamo", "oracle84", "1n1q1Rnr/3k1ppB/b1p2p2/8/8/7P/nPPP1P1P/N1q1K1NR w 20 ihii wna1/wnb1", 2),
]


def fail(msg):
    print(f"vchess_ratio: {msg}", file=sys.stderr)
    sys.exit(1)


def cpu_run(cmd):
    """Runs `cmd`; returns (stdout, CPU seconds of the child: user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        fail(f"{' '.join(cmd)} failed (exit {p.returncode}): {p.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p.stdout, cpu


def ours_cmd(binary, variant, fen, depth):
    return [str(binary), "perft", "--variant", variant.lower(), "--fen", fen, "--depth", str(depth)]


def vchess_cmd(tools, variant, fen, depth):
    return ["node", str(tools / "perft.mjs"), variant, fen, str(depth), "--engine"]


def ours_leaves(out):
    return int(out.strip().splitlines()[-1])


def vchess_leaves(out):
    last = out.strip().splitlines()[-1]  # "perft <depth> = <n>"
    return int(last.split("=")[1])


def measure_ours(binary, variant, fen, depth, min_cpu):
    """(leaves, CPU s of the run minus start-up): depth-1 and depth-`depth` runs in turn,
    at least 5 pairs and `min_cpu` seconds, difference of the medians."""
    cmd = ours_cmd(binary, variant, fen, depth)
    base_cmd = ours_cmd(binary, variant, fen, 1)
    base, times, leaves = [], [], None
    while len(times) < 5 or sum(times) + sum(base) < min_cpu:
        base.append(cpu_run(base_cmd)[1])
        out, cpu = cpu_run(cmd)
        n = ours_leaves(out)
        if leaves is not None and n != leaves:
            fail(f"{binary}: {variant} {fen} depth {depth} gave {leaves} then {n}")
        leaves = n
        times.append(cpu)
    return leaves, max(statistics.median(times) - statistics.median(base), 1e-6)


def measure_vchess(tools, variant, fen, depth, reps):
    base = statistics.median(cpu_run(vchess_cmd(tools, variant, fen, 1))[1] for _ in range(3))
    runs = [cpu_run(vchess_cmd(tools, variant, fen, depth)) for _ in range(reps)]
    leaves = {vchess_leaves(out) for out, _ in runs}
    if len(leaves) != 1:
        fail(f"vchess: {variant} {fen} depth {depth} gave different counts {sorted(leaves)}")
    return leaves.pop(), max(statistics.median(cpu for _, cpu in runs) - base, 1e-6)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chimere", default=str(REPO / "target/release/chimere"), help="our binary (release build)")
    ap.add_argument("--before", help="a second chimere binary measured in the same run")
    ap.add_argument("--variant", action="append", help="only this variant (repeatable, any case)")
    ap.add_argument("--quick", action="store_true", help="one turn less on every position")
    ap.add_argument("--deeper", action="store_true", help="one turn more on every position")
    ap.add_argument("--min-cpu", type=float, default=2.0, help="CPU seconds each of our measurements uses at least")
    ap.add_argument("--vchess-reps", type=int, default=1, help="vchess runs per position (median kept)")
    a = ap.parse_args()

    shared = Path(os.environ.get("CHIMERE_SHARED", REPO.parent / "shared"))
    tools = shared / "tools" / "vchess"
    if not (tools / "perft.mjs").is_file():
        fail(f"no vchess harness at {tools} (set CHIMERE_SHARED)")
    binaries = [("ours", Path(a.chimere))] + ([("before", Path(a.before))] if a.before else [])
    for _, b in binaries:
        if not b.is_file():
            fail(f"no chimere binary at {b} (cargo build --release -p chimere-cli)")
    only = {v.lower() for v in a.variant or []}

    head = f"{'variant':<11} {'position':<9} {'depth':>5} {'leaves':>10} {'vchess s':>9}"
    for name, _ in binaries:
        head += f" {name + ' s':>9} {name + ' ×':>8}"
    print(head, flush=True)
    ratios = {name: {} for name, _ in binaries}
    for variant, label, fen, depth in POSITIONS:
        if only and variant.lower() not in only:
            continue
        depth = max(2, depth - 1) if a.quick else depth + 1 if a.deeper else depth
        vleaves, vcpu = measure_vchess(tools, variant, fen, depth, a.vchess_reps)
        row = f"{variant:<11} {label:<9} {depth:>5} {vleaves:>10} {vcpu:>9.3f}"
        for name, binary in binaries:
            leaves, cpu = measure_ours(binary, variant, fen, depth, a.min_cpu)
            if leaves != vleaves:
                fail(f"{variant} {label} depth {depth}: {name} counts {leaves} leaves, vchess {vleaves}")
            ratios[name].setdefault(variant, []).append(vcpu / cpu)
            row += f" {cpu:>9.4f} {vcpu / cpu:>8.1f}"
        print(row, flush=True)
    print()
    print("geometric mean of the ratios per variant:")
    for variant in dict.fromkeys(v for v, *_ in POSITIONS):
        cells = [
            f"{name} {statistics.geometric_mean(r[variant]):.1f}×"
            for name, r in ratios.items()
            if variant in r
        ]
        if cells:
            print(f"  {variant:<11} " + "  ".join(cells))


if __name__ == "__main__":
    main()
