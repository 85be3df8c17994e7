#!/usr/bin/env python3
"""Side-by-side solving speed: `chimere solve` against a Popeye binary on a named list of
problems of the oracle corpus.

Usage (from the repository root, after `cargo build --release -p chimere-cli`):

    crates/solver/bench/speed.py --popeye /path/to/py [--list crates/solver/bench/heavy.txt]
        [--chimere target/release/chimere] [--shared ../shared] [--repeat 1] [--threads N]

The list names each problem as `<file under shared/oracle> <source field>`, one a line
(`#` starts a comment). With `--inp FILE...` the problems are instead those of Popeye input
files (each `BeginProblem` ... `EndProblem`, as `gen_deep.py` writes them), and
`--min-popeye S` keeps only those Popeye takes more than S seconds on (a first pass times
Popeye alone; those it does not finish within `--timeout` are left out). Each problem's input is written to a temporary file and solved by
both programs in turn, the order alternating from one problem to the next (and from one
repetition to the next) so that neither always runs on a warmer or cooler machine. For
each problem the best wall time over the repetitions is kept, with the CPU time (user +
system) of that run. The solution lines of both outputs are compared (the lines starting
with a move number or a twin label, order free, spaces normalised); a difference is
flagged in the `same` column, it is not a failure of the script: the oracle tests are the
judge of correctness.

Prints one row per problem (wall and CPU seconds of each program, the wall ratio
chimere/Popeye), the totals, the worst ratio and the load average before and after; with
`--inp`, also one row per family (input file and stipulation: `deep-circe.inp s#4`) with
its summed times and worst ratio, and the worst ratio among the problems Popeye takes more
than 0.5 s on. `--pick OUT.inp` writes the problems kept by `--min-popeye` to OUT.inp (a
fixed set to measure again), with their family as a `Remark`.
"""

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

MOVE_LINE = re.compile(r"^\s*(\d+\.|[a-z]\)|\+[a-z]\)|but\b)")


def solution_lines(text):
    out = []
    for line in text.splitlines():
        if "Time =" in line or line.startswith("Popeye") or line.startswith("Chim"):
            continue
        if MOVE_LINE.match(line):
            out.append(" ".join(line.split()))
    return sorted(out)


def run(cmd, timeout):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        out, ok = p.stdout, p.returncode == 0
    except subprocess.TimeoutExpired as e:
        out, ok = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), False
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out, ok


def load_problems(shared, list_path):
    problems = []
    with open(list_path) as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            file, source = line.split()
            path = os.path.join(shared, "oracle", file)
            found = None
            with open(path) as g:
                for rec_line in g:
                    rec = json.loads(rec_line)
                    if rec.get("source") == source:
                        found = rec
                        break
            if found is None:
                sys.exit(f"{list_path}: {source} not found in {path}")
            problems.append((source.split("/", 1)[-1], found))
    return problems


def load_inputs(paths):
    problems = []
    for path in paths:
        text = open(path).read()
        for i, chunk in enumerate(re.split(r"(?m)^\s*(?:EndProblem|NextProblem)\s*$", text)):
            if "Stipulation" not in chunk:
                continue
            body = chunk.strip()
            if not body.startswith("BeginProblem"):
                body = "BeginProblem\n" + body
            stip = re.search(r"(?i)Stipulation\s+(\S+)", body)
            stip = stip.group(1) if stip else "?"
            fam = re.search(r"(?m)^Remark family (.+)$", body)
            family = fam.group(1) if fam else f"{os.path.basename(path)} {stip.lower().replace('exact-', '')}"
            rec = {"input": body + "\nEndProblem\n", "stipulation": stip, "family": family}
            problems.append((f"{os.path.basename(path)}/{i}", rec))
    return problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(os.path.join(here, "..", "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--popeye", required=True, help="path of the Popeye binary (py)")
    ap.add_argument("--chimere", default=os.path.join(root, "target", "release", "chimere"))
    ap.add_argument("--list", default=os.path.join(here, "heavy.txt"))
    ap.add_argument(
        "--shared", default=os.environ.get("CHIMERE_SHARED", os.path.join(root, "..", "shared"))
    )
    ap.add_argument("--repeat", type=int, default=1, help="runs per program and problem (best kept)")
    ap.add_argument("--threads", type=int, help="chimere --threads (default: its own)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per run")
    ap.add_argument("--inp", nargs="+", help="Popeye input files instead of --list")
    ap.add_argument("--min-popeye", type=float, default=0.0, help="with --inp: keep problems Popeye takes longer on")
    ap.add_argument("--max-popeye", type=float, help="with --min-popeye: and shorter on")
    ap.add_argument("--pick", help="with --min-popeye: write the kept problems to this file")
    args = ap.parse_args()

    for exe in (args.popeye, args.chimere):
        if not os.access(exe, os.X_OK):
            sys.exit(f"not an executable: {exe}")
    if args.inp:
        problems = load_inputs(args.inp)
        if args.min_popeye > 0:
            kept = []
            with tempfile.TemporaryDirectory() as tmp:
                for name, rec in problems:
                    path = os.path.join(tmp, "p.inp")
                    with open(path, "w") as f:
                        f.write(rec["input"])
                    wall, _, _, ok = run([args.popeye, path], args.timeout)
                    if ok and args.min_popeye < wall < min(args.timeout, args.max_popeye or args.timeout):
                        kept.append((name, rec))
            problems = kept
            if args.pick:
                with open(args.pick, "w") as f:
                    for name, rec in problems:
                        body = rec["input"].replace("BeginProblem\n", f"BeginProblem\nRemark family {rec['family']}\n", 1)
                        f.write(body + "\n")
                print(f"{len(problems)} problems written to {args.pick}")
    else:
        problems = load_problems(args.shared, args.list)
    chimere_cmd = [args.chimere, "solve"]
    if args.threads:
        chimere_cmd += ["--threads", str(args.threads)]

    load0 = os.getloadavg()
    print(f"load average before: {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}")
    header = f"{'problem':32} {'stip':8} {'chimere s':>10} {'(cpu)':>7} {'Popeye s':>9} {'(cpu)':>7} {'ratio':>6}  same"
    print(header)
    print("-" * len(header))
    tot_c = tot_p = tot_cc = tot_pc = 0.0
    worst = (0.0, "")
    worst_heavy = (0.0, "")
    families = {}
    all_same = True
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, rec) in enumerate(problems):
            path = os.path.join(tmp, f"p{i}.inp")
            with open(path, "w") as f:
                f.write(rec["input"])
            best = {"c": None, "p": None}
            outs = {}
            for r in range(args.repeat):
                order = ["c", "p"] if (i + r) % 2 == 0 else ["p", "c"]
                for who in order:
                    cmd = chimere_cmd + [path] if who == "c" else [args.popeye, path]
                    wall, cpu, out, ok = run(cmd, args.timeout)
                    if not ok:
                        wall = float("inf") if who == "c" else wall
                    if best[who] is None or wall < best[who][0]:
                        best[who] = (wall, cpu)
                    outs[who] = out
            same = solution_lines(outs["c"]) == solution_lines(outs["p"])
            all_same &= same
            (cw, cc), (pw, pc) = best["c"], best["p"]
            ratio = cw / pw if pw > 0 else float("inf")
            if ratio > worst[0]:
                worst = (ratio, name)
            if pw > 0.5 and ratio > worst_heavy[0]:
                worst_heavy = (ratio, name)
            fam = families.setdefault(rec.get("family", "-"), [0, 0.0, 0.0, 0.0, "", 0.0, 0.0])
            fam[0] += 1
            fam[1] += cw
            fam[2] += pw
            fam[5] += cc
            fam[6] += pc
            if ratio > fam[3]:
                fam[3], fam[4] = ratio, name
            tot_c, tot_p, tot_cc, tot_pc = tot_c + cw, tot_p + pw, tot_cc + cc, tot_pc + pc
            print(
                f"{name:32} {rec.get('stipulation', '?'):8} {cw:10.3f} {cc:7.2f} {pw:9.3f} {pc:7.2f} {ratio:6.2f}  {'yes' if same else 'NO'}",
                flush=True,
            )
    print("-" * len(header))
    ratio = tot_c / tot_p if tot_p > 0 else float("inf")
    print(f"{'total':41} {tot_c:10.3f} {tot_cc:7.2f} {tot_p:9.3f} {tot_pc:7.2f} {ratio:6.2f}")
    print(f"worst ratio: {worst[0]:.2f} ({worst[1]})")
    print(f"worst ratio where Popeye takes over 0.5 s: {worst_heavy[0]:.2f} ({worst_heavy[1]})")
    if len(families) > 1:
        print()
        fh = (
            f"{'family':28} {'n':>3} {'chimere s':>10} {'Popeye s':>9} {'ratio':>6} {'worst':>6}"
            f" {'cpu c':>8} {'cpu P':>8} {'ratio':>6}  (problem)"
        )
        print(fh)
        print("-" * len(fh))
        for key in sorted(families):
            n, c, p, w, wn, ccpu, pcpu = families[key]
            r = c / p if p > 0 else float("inf")
            rc = ccpu / pcpu if pcpu > 0 else float("inf")
            print(f"{key:28} {n:3} {c:10.3f} {p:9.3f} {r:6.2f} {w:6.2f} {ccpu:8.2f} {pcpu:8.2f} {rc:6.2f}  ({wn})")
    load1 = os.getloadavg()
    print(f"load average after: {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")
    if not all_same:
        print("some solution lines differ (see the `same` column)")


if __name__ == "__main__":
    main()
