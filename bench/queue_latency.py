#!/usr/bin/env python3
"""Does the problems' solving queue hurt live play? A benchmark, not a test.

For each `--games` count and each mode, a release `chimere serve` on a fresh SQLite file:
  none    nothing imported: the queue idle;
  nice19  500 problems imported first: the queue solves them (its thread at nice 19, as
          `spawn_queue` sets it);
  nice0   the same, with the queue's thread put back to nice 0 from outside (root may
          raise a priority): the queue as it was before it lowered itself.
The modes run in turn, `--rounds` times over (ABCABC...), and the medians of each mode's
percentiles are printed at the end with every run's row above them. `--pin` runs the
server on CPU 1 and the load client and curl on CPU 0 (taskset): the queue then competes
with the live games for one core, whatever the neighbours do with the other.
While `chimere load --games N` plays, the lobby (`GET /api/lobby`) is timed `--requests`
times with `curl -w %{time_total}`; the load's own move round trips (a live game's
latency) are printed beside. The modes are run one after the other in one session, so
the neighbours' load on a shared machine weighs on each alike (run it more than once).

The 500 problems come from the open corpus (../shared/oracle/popeye-solve/): the heaviest
by Popeye's time, repeated, every second copy with its stipulation one move longer
(h#3 becomes h#4), so the queue stays busy for minutes (20 s at most per problem).

Usage: python3 bench/queue_latency.py [--chimere target/release/chimere]
       [--shared ../shared] [--games 200,1000] [--rounds 3] [--requests 50] [--plies 40]
"""
import argparse
import glob
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request


def corpus_file(shared, count=500):
    """A Popeye file of `count` problems: the corpus's heaviest, repeated and lengthened."""
    recs = []
    for f in sorted(glob.glob(os.path.join(shared, 'oracle/popeye-solve/*.jsonl'))):
        for line in open(f):
            r = json.loads(line)
            recs.append((r.get('popeye_seconds') or 0.0, r['input']))
    recs.sort(key=lambda r: -r[0])
    heavy = [inp for _, inp in recs[:100]]

    def longer(inp):
        # The stipulation's last number one more (`h#3` -> `h#4`, `h#2.5` -> `h#3.5`).
        def bump(m):
            return m.group(1) + re.sub(r'^(\d+)', lambda n: str(int(n.group(1)) + 1), m.group(2))
        return re.sub(r'(?m)^(Stipulation\s+\S*?\D)(\d+(?:\.5)?)\s*$', bump, inp)

    bodies = []
    for i in range(count):
        inp = heavy[i % len(heavy)]
        if (i // len(heavy)) % 2 == 1:
            inp = longer(inp)
        body = inp.strip()
        body = re.sub(r'^BeginProblem\s*', '', body)
        body = re.sub(r'\s*EndProblem$', '', body)
        bodies.append(body)
    return 'BeginProblem\n' + '\nNextProblem\n'.join(bodies) + '\nEndProblem\n'


def pct(xs, p):
    xs = sorted(xs)
    return xs[max(0, min(len(xs) - 1, int(-(-len(xs) * p // 1)) - 1))]


PIN = {'server': [], 'client': []}


def start_server(chimere, db):
    proc = subprocess.Popen(PIN['server'] + [chimere, 'serve', '--db', db, '--listen', '127.0.0.1:0'],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.time() + 30
    out = ''
    while time.time() < deadline:
        line = proc.stdout.readline()
        out += line
        m = re.search(r'http://([\d.]+:\d+)', line)
        if m:
            return proc, m.group(1)
    proc.kill()
    sys.exit(f'the server did not start: {out}')


def queue_thread(pid):
    """The queue thread's id and nice value (its name is `chimere-problems`, cut to 15)."""
    for task in glob.glob(f'/proc/{pid}/task/*'):
        try:
            if open(f'{task}/comm').read().strip().startswith('chimere-proble'):
                tid = int(os.path.basename(task))
                return tid, os.getpriority(os.PRIO_PROCESS, tid)
        except OSError:
            pass
    return None, None


def statuses(addr):
    with urllib.request.urlopen(f'http://{addr}/api/problems?limit=1000') as r:
        ps = json.load(r)['problems']
    out = {}
    for p in ps:
        out[p['status']] = out.get(p['status'], 0) + 1
    return out


def lobby_times(addr, n, gap):
    times = []
    for _ in range(n):
        r = subprocess.run(PIN['client'] + ['curl', '-s', '-o', '/dev/null', '-w', '%{time_total}', f'http://{addr}/api/lobby'],
                           capture_output=True, text=True)
        times.append(float(r.stdout) * 1000)
        time.sleep(gap)
    return times


def phase(args, games, mode, problems):
    tmp = tempfile.mkdtemp(prefix='chimere-qbench-')
    db = os.path.join(tmp, 'bench.db')
    proc, addr = start_server(args.chimere, db)
    try:
        nice = None
        if mode != 'none':
            req = urllib.request.Request(f'http://{addr}/api/problems', data=problems.encode(), method='POST')
            with urllib.request.urlopen(req) as r:
                rep = json.load(r)
            assert rep['saved'] == 500, rep['saved']
            time.sleep(1)
            tid, nice = queue_thread(proc.pid)
            if mode == 'nice0' and tid:
                os.setpriority(os.PRIO_PROCESS, tid, 0)
                nice = os.getpriority(os.PRIO_PROCESS, tid)
        before = statuses(addr) if mode != 'none' else {}
        load = subprocess.Popen(PIN['client'] + [args.chimere, 'load', '--server', addr, '--games', str(games), '--plies', str(args.plies)],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        # The lobby timed once the games are being set up and played.
        time.sleep(2 + games / 250)
        times = lobby_times(addr, args.requests, args.gap)
        out, _ = load.communicate()
        after = statuses(addr) if mode != 'none' else {}
        moves = re.search(r'round trip ms, every move: (.*)', out)
        mp = dict(re.findall(r'(p50|p99) ([\d.]+)', moves.group(1))) if moves else {}
        errors = re.search(r'errors: (\d+)', out)
        solved = sum(v for k, v in after.items() if k != 'queued') - sum(v for k, v in before.items() if k != 'queued')
        return {
            'games': games, 'mode': mode, 'nice': nice,
            'load': open('/proc/loadavg').read().split()[0],
            'move50': float(mp.get('p50', 'nan')), 'move99': float(mp.get('p99', 'nan')),
            'p50': pct(times, .5), 'p90': pct(times, .9), 'p99': pct(times, .99), 'max': max(times),
            'moves': moves.group(1) if moves else out.strip().splitlines()[-1:],
            'errors': errors.group(1) if errors else '?',
            'queue': f"{solved} solved during the run, {after.get('queued', 0)} still queued" if mode != 'none' else 'idle',
        }
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        for f in glob.glob(os.path.join(tmp, '*')):
            os.remove(f)
        os.rmdir(tmp)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--chimere', default=os.path.join(here, '../target/release/chimere'))
    ap.add_argument('--shared', default=os.environ.get('CHIMERE_SHARED', os.path.join(here, '../../shared')))
    ap.add_argument('--games', default='200,1000')
    ap.add_argument('--modes', default='none,nice19,nice0')
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--requests', type=int, default=50)
    ap.add_argument('--gap', type=float, default=0.3, help='seconds between lobby requests')
    ap.add_argument('--plies', type=int, default=40)
    ap.add_argument('--pin', action='store_true', help='server on CPU 1, clients on CPU 0')
    args = ap.parse_args()
    if args.pin:
        PIN['server'], PIN['client'] = ['taskset', '-c', '1'], ['taskset', '-c', '0']
    problems = corpus_file(args.shared)
    print(f'import file: 500 problems, {len(problems)} bytes', flush=True)
    rows = []
    games_list = [int(g) for g in args.games.split(',')]
    modes = args.modes.split(',')
    for games in games_list:
        for _ in range(args.rounds):
            for mode in modes:
                r = phase(args, games, mode, problems)
                rows.append(r)
                print(f"games {r['games']:>5} queue {r['mode']:<6} (nice {r['nice']}): lobby ms p50 {r['p50']:.1f} p90 {r['p90']:.1f} "
                      f"p99 {r['p99']:.1f} max {r['max']:.1f} | moves {r['moves']} | load errors {r['errors']} | {r['queue']} "
                      f"| loadavg {r['load']}", flush=True)
    med = lambda xs: sorted(xs)[len(xs) // 2]
    print(f'medians over {args.rounds} runs (ms): lobby p50 / p99, move round trip p50 / p99')
    for games in games_list:
        for mode in modes:
            rs = [r for r in rows if r['games'] == games and r['mode'] == mode]
            print(f"  games {games:>5} queue {mode:<6}: lobby {med([r['p50'] for r in rs]):.1f} / {med([r['p99'] for r in rs]):.1f}"
                  f"   moves {med([r['move50'] for r in rs]):.2f} / {med([r['move99'] for r in rs]):.2f}")
    os.system('uptime')


if __name__ == '__main__':
    main()
