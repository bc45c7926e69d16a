#!/usr/bin/env python3
"""Job-shop benchmark: models/jobshop.csp on the shared instances, next to
OR-Tools CP-SAT and Gecode (through MiniZinc) in the same run when installed.

For each instance (../shared/data/jobshop/*.txt, optima in optima.tsv) and
each solver, one process with the instance's time limit: the best makespan,
whether it was proved optimal, the time the best was found, and the CPU time
of the whole process. Limits follow the targets of issue 12: 5 s for ft06
and la01-la05 (proved optimal), 60 s for la06-la10 and orb01-orb05 (optimum
found), 120 s for ft10 (930 found).

    cargo build --release
    python3 benches/jobshop.py                 # every instance, every solver
    python3 benches/jobshop.py --only la01,ft10 --no-peers
    python3 benches/jobshop.py --limit 10      # one limit for all
    CSPI=/path/to/other/cspi python3 benches/jobshop.py   # another cspi binary

CP-SAT runs with one worker (`num_workers=1`) in the peers' venv
(`$PEERS_VENV`, default ~/.cache/cspi-peers-venv); Gecode runs
`benches/jobshop.mzn` (the same model: disjunctive per machine, smallest
start first, at its minimum) with `minizinc --solver gecode`. Peers that are
not installed are left out. Machines are noisy: compare solvers within one
run, not across runs.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "shared", "data", "jobshop")
CSPI = os.environ.get("CSPI", os.path.join(ROOT, "target", "release", "cspi"))
VENV = os.environ.get("PEERS_VENV", os.path.expanduser("~/.cache/cspi-peers-venv"))
VENV_PY = os.path.join(VENV, "bin", "python")


def limit_of(name):
    if name == "ft06" or name in ("la01", "la02", "la03", "la04", "la05"):
        return 5.0
    if name == "ft10":
        return 120.0
    return 60.0


def read_instance(path):
    nums = []
    with open(path) as fh:
        for line in fh:
            nums += [int(t) for t in line.split("#")[0].split()]
    n, m = nums[0], nums[1]
    jobs = []
    for j in range(n):
        row = nums[2 + 2 * m * j: 2 + 2 * m * (j + 1)]
        jobs.append([(row[2 * k], row[2 * k + 1]) for k in range(m)])
    return n, m, jobs


def timed(cmd, limit):
    """Runs cmd; returns (stdout, wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 30)
        out = p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        if isinstance(out, bytes):
            out = out.decode()
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, wall, cpu


def run_cspi(path, limit, extra):
    cmd = [CSPI, "solve", os.path.join(ROOT, "models", "jobshop.csp"),
           "--param", "instance=" + path, "--time-limit", str(limit), "--format", "json"] + extra
    out, wall, cpu = timed(cmd, limit)
    best, proved, found = None, False, None
    for line in out.splitlines():
        rec = json.loads(line)
        if rec.get("type") == "summary":
            best = rec.get("objective")
            proved = rec.get("status") == "OPTIMAL"
            imps = rec.get("stats", {}).get("improvements", [])
            if imps:
                found = imps[-1]["time_ms"] / 1000.0
    return best, proved, found, cpu


def run_cpsat(path, limit):
    out, wall, cpu = timed([VENV_PY, os.path.abspath(__file__), "--cpsat-child", path, str(limit)], limit)
    try:
        rec = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None, False, None, cpu
    return rec["best"], rec["proved"], rec["found"], cpu


def cpsat_child(path, limit):
    """Runs inside the venv: the classic CP-SAT job-shop model."""
    from ortools.sat.python import cp_model
    n, m, jobs = read_instance(path)
    horizon = sum(d for job in jobs for _, d in job)
    model = cp_model.CpModel()
    starts, ends, per_machine = {}, {}, {r: [] for r in range(m)}
    for j, job in enumerate(jobs):
        for k, (r, d) in enumerate(job):
            s = model.NewIntVar(0, horizon, "s%d_%d" % (j, k))
            e = model.NewIntVar(0, horizon, "e%d_%d" % (j, k))
            per_machine[r].append(model.NewIntervalVar(s, d, e, "i%d_%d" % (j, k)))
            starts[j, k], ends[j, k] = s, e
            if k > 0:
                model.Add(s >= ends[j, k - 1])
    for r in range(m):
        model.AddNoOverlap(per_machine[r])
    makespan = model.NewIntVar(0, horizon, "makespan")
    model.AddMaxEquality(makespan, [ends[j, m - 1] for j in range(n)])
    model.Minimize(makespan)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = limit
    t0 = time.monotonic()
    found = [None]

    class Cb(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self):
            found[0] = time.monotonic() - t0

    status = solver.Solve(model, Cb())
    best = int(solver.ObjectiveValue()) if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None
    print(json.dumps({"best": best, "proved": status == cp_model.OPTIMAL, "found": found[0]}))


def run_gecode(path, limit):
    n, m, jobs = read_instance(path)
    data = "n = %d; m = %d;\nmachine = [| %s |];\nduration = [| %s |];\n" % (
        n, m,
        " | ".join(", ".join(str(r + 1) for r, _ in job) for job in jobs),
        " | ".join(", ".join(str(d) for _, d in job) for job in jobs))
    dzn = os.path.join(ROOT, "target", "jobshop-bench.dzn")
    os.makedirs(os.path.dirname(dzn), exist_ok=True)
    with open(dzn, "w") as fh:
        fh.write(data)
    cmd = ["minizinc", "--solver", "gecode", "-a", "--output-time",
           "--time-limit", str(int(limit * 1000)),
           os.path.join(ROOT, "benches", "jobshop.mzn"), dzn]
    out, wall, cpu = timed(cmd, limit)
    best, proved, found = None, False, None
    for line in out.splitlines():
        if line.startswith("makespan = "):
            best = int(line.split("=")[1].strip().rstrip(";"))
        elif line.startswith("% time elapsed:"):
            found = float(line.split(":")[1].split()[0])
        elif line.strip() == "==========":
            proved = True
    return best, proved, found, cpu


def fmt(best, proved, found, cpu):
    if best is None:
        return "–", "", "", "%.2f" % cpu
    return str(best), "yes" if proved else "no", "%.2f" % found if found is not None else "", "%.2f" % cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated instance names")
    ap.add_argument("--limit", type=float, help="one time limit (s) for every instance")
    ap.add_argument("--no-peers", action="store_true", help="cspi only")
    ap.add_argument("--cspi-args", default="", help="extra arguments for cspi solve")
    ap.add_argument("--cpsat-child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.cpsat_child:
        cpsat_child(args.cpsat_child[0], float(args.cpsat_child[1]))
        return 0
    if not os.path.isdir(DATA):
        print("skipped: ../shared/data/jobshop not found")
        return 0
    optima = {}
    with open(os.path.join(DATA, "optima.tsv")) as fh:
        next(fh)
        for line in fh:
            name, _, _, opt = line.split()
            optima[name] = int(opt)
    names = sorted(optima, key=lambda s: (s[:2] != "ft" or s == "ft10", s))
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    peers = []
    if not args.no_peers:
        if os.path.exists(VENV_PY):
            peers.append(("CP-SAT", run_cpsat))
        if shutil.which("minizinc"):
            peers.append(("Gecode", run_gecode))
    load = os.getloadavg()[0]
    print("load average at start: %.1f; CPU seconds of each whole process" % load)
    head = "| instance | optimum | limit s | cspi best | proved | found s | CPU s |"
    rule = "|---|---:|---:|---:|---|---:|---:|"
    for p, _ in peers:
        head += " %s best | proved | found s | CPU s |" % p
        rule += "---:|---|---:|---:|"
    print(head)
    print(rule)
    extra = args.cspi_args.split()
    for name in names:
        path = os.path.join(DATA, name + ".txt")
        limit = args.limit or limit_of(name)
        row = "| %s | %d | %g | %s |" % (name, optima[name], limit, " | ".join(fmt(*run_cspi(path, limit, extra))))
        for _, run in peers:
            row += " %s |" % " | ".join(fmt(*run(path, limit)))
        print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
