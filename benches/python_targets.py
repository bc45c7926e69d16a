#!/usr/bin/env python3
"""The Python package's targets (issue 24), measured in one run, alternated:

1. n-queens 12 counted from Python (`m.count()`) against `cspi solve --count`
   (the binary, whole process), same threads;
2. the first solution of each of the 95 norvig sudokus from one loaded model
   with changed parameters (`with_params(puzzle=...)`), against
   python-constraint2 and pychoco on the same puzzles (`../shared/peers/sudoku.py`,
   its in-process time, which leaves out the interpreter's start-up);
3. the SVG of a 25x25 sudoku solution (`Solution.svg()`).

usage (from the repository's root, with the package installed in the running
interpreter and `cargo build --release` done):

    python benches/python_targets.py [--reps 5]

CSPI names another binary. The peers come from ../shared/peers (SHARED names
another ../shared; PEERS_VENV, default ~/.cache/cspi-peers-venv).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import cspi

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("CSPI", os.path.join(ROOT, "target/release/cspi"))
# ../shared beside the checkout; SHARED names it from elsewhere (a worktree).
SHARED = os.environ.get("SHARED", os.path.join(ROOT, "../shared"))
NORVIG = os.path.join(SHARED, "data/sudoku/norvig-top95.txt")
PEERS = os.path.join(SHARED, "peers")
PEERS_PY = os.path.join(os.environ.get("PEERS_VENV", os.path.expanduser("~/.cache/cspi-peers-venv")), "bin/python")


def cli_run(args):
    """Runs the binary; its stdout, wall time and CPU time (user + system, all threads)."""
    t = time.perf_counter()
    p = subprocess.Popen([BIN, *args], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    assert status == 0, out
    return out, wall, usage.ru_utime + usage.ru_stime


def queens(reps, threads):
    m = cspi.load(os.path.join(ROOT, "models/n-queens.csp"), params={"n": 12})
    py, cli, py_cpu, cli_cpu = [], [], [], []
    for _ in range(reps):
        t, c = time.perf_counter(), time.process_time()
        assert m.count(threads=threads) == 14200
        py.append(time.perf_counter() - t)
        py_cpu.append(time.process_time() - c)
        out, wall, cpu = cli_run(["solve", "models/n-queens.csp", "--param", "n=12", "--count",
                                  "--threads", str(threads)])
        assert out.startswith("14200 solutions"), out
        cli.append(wall)
        cli_cpu.append(cpu)
    a, b = statistics.median(py), statistics.median(cli)
    ac, bc = statistics.median(py_cpu), statistics.median(cli_cpu)
    print(f"n-queens 12 count, {threads} thread(s): Python {a * 1000:.1f} ms, cspi solve --count "
          f"{b * 1000:.1f} ms (whole process); Python / CLI = {a / b:.3f} wall, {ac / bc:.3f} CPU "
          f"(medians of {reps}, alternated)")


def norvig(reps, budget):
    if not os.path.exists(NORVIG):
        print(f"skipped: {NORVIG} not found")
        return
    puzzles = [l.strip() for l in open(NORVIG) if l.strip() and not l.startswith("#")]
    sudoku = cspi.load(os.path.join(ROOT, "models/sudoku.csp"))
    times = {"cspi (Python)": [], "pyconstraint": [], "choco": []}
    solved_by = {}
    for _ in range(reps):
        t = time.perf_counter()
        solved = 0
        for p in puzzles:
            s = sudoku.with_params(puzzle=p).solve(threads=1)
            solved += s is not None
        times["cspi (Python)"].append(time.perf_counter() - t)
        assert solved == len(puzzles)
        for peer in ["pyconstraint", "choco"]:
            if not os.path.exists(PEERS_PY):
                continue
            # A budget for the whole batch: python-constraint (plain
            # backtracking) takes minutes on some of these puzzles and cannot
            # stop inside one, so the process is killed at the budget and its
            # last progress line (flushed after each puzzle) counts.
            t = time.perf_counter()
            try:
                r = subprocess.run([PEERS_PY, os.path.join(PEERS, "sudoku.py"), "--peer", peer,
                                    "--time-limit", str(budget), NORVIG],
                                   capture_output=True, text=True, timeout=budget)
                out, code = r.stdout, r.returncode
            except subprocess.TimeoutExpired as e:
                out, code = (e.stdout or b"").decode(), 0
            if code != 0:
                print(f"{peer} failed: {r.stderr[-300:]}")
                continue
            lines = out.strip().splitlines()
            j = json.loads(lines[-1]) if lines else {"count": 0}
            solved_by[peer] = min(solved_by.get(peer, len(puzzles)), j["count"])
            # Whole process when killed; its own in-process time otherwise.
            times[peer].append(j.get("total_in_process_s", time.perf_counter() - t))
    base = statistics.median(times["cspi (Python)"])
    for k, v in times.items():
        if v:
            m = statistics.median(v)
            done = solved_by.get(k, len(puzzles))
            stopped = "" if done == len(puzzles) else f", stopped by the {budget} s budget"
            print(f"norvig-top95 first solutions, {k}: {done}/{len(puzzles)} solved in {m * 1000:.0f} ms "
                  f"in process ({m / base:.1f}x cspi{stopped})")


def svg(reps):
    m = cspi.load(os.path.join(ROOT, "models/sudoku.csp"), params={"n": 5, "puzzle": "." * 625})
    s = m.solve()
    best = min(timed(s.svg) for _ in range(max(reps, 5)))
    print(f"SVG of a 25x25 sudoku: {best * 1000:.2f} ms ({len(s.svg())} bytes)")


def timed(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--budget", type=float, default=120,
                    help="seconds a peer may take for the 95 sudokus (default 120)")
    a = ap.parse_args()
    svg(a.reps)
    for threads in (1, 2):
        queens(a.reps, threads)
    norvig(a.reps, a.budget)
    sys.exit(0)
