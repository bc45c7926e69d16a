#!/usr/bin/env python3
"""cspi on the MiniZinc benchmark set, next to the other MiniZinc solvers installed.

usage:
  python3 benches/minizinc.py [-t MS] [--only ID,ID] [--solvers cspi,gecode,pumpkin]
                             [--variant LABEL=MSC ...] [--out DIR] [--resume]

Runs every instance of ../shared/data/minizinc (instances.tsv; README.md there says what they are)
through `minizinc` with cspi (share/minizinc/cspi.msc, so build first: cargo build --release) and
each peer found: Gecode with its globals kept native (../shared/peers/msc/gecode.msc), Pumpkin
where ../shared/peers/setup-rust-peers.sh installed it. Same run, one instance at a time, the
solvers taking turns on each instance, the same time limit (default 60 s), one thread, through
../shared/peers/mznc_run.py (which records status in the MiniZinc Challenge's codes, objective and
times). Then prints per instance each solver's status, objective and time, per solver the
Challenge's complete (Borda) score (../shared/peers/mznc_score.py), and any wrong answer of cspi:
a claimed optimum or unsatisfiability that a proved result contradicts (Gecode's proofs in
results/gecode.jsonl of the set, the optima in instances.tsv), or an objective better than a
proved optimum. Results go to DIR (default target/minizinc-bench), one JSON Lines file per solver.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def find_shared():
    """The shared folder: $CSPI_SHARED, else `shared/` beside the checkout or beside any folder
    above it (a worktree such as /work/wt/NAME finds /work/shared)."""
    if os.environ.get("CSPI_SHARED"):
        return os.environ["CSPI_SHARED"]
    here = ROOT
    while True:
        parent = os.path.dirname(here)
        candidate = os.path.join(parent, "shared")
        if os.path.isdir(os.path.join(candidate, "peers")) or parent == here:
            return candidate
        here = parent


SHARED = find_shared()
PEERS = os.path.join(SHARED, "peers")
SET = os.path.join(SHARED, "data", "minizinc")


def solvers(out_dir, wanted, cspi_msc):
    """label -> .msc path, for each wanted solver that is installed."""
    found = {}
    cspi = os.path.join(ROOT, "target", "release", "cspi")
    if "cspi" in wanted:
        if cspi_msc is None and not os.path.exists(cspi):
            sys.exit("target/release/cspi not found: cargo build --release first")
        found["cspi"] = cspi_msc or os.path.join(ROOT, "share", "minizinc", "cspi.msc")
    if "gecode" in wanted and os.path.exists("/usr/bin/fzn-gecode"):
        found["gecode"] = os.path.join(PEERS, "msc", "gecode.msc")
    peers_root = os.environ.get("PEERS_ROOT", os.path.expanduser("~/.cache/cspi-peers"))
    pumpkin = os.path.join(peers_root, "pumpkin", "bin", "pumpkin-solver")
    if "pumpkin" in wanted and os.path.exists(pumpkin):
        # The shipped .msc names @PEERS_ROOT@ and a library beside it.
        with open(os.path.join(PEERS, "msc", "pumpkin.msc")) as f:
            text = f.read().replace("@PEERS_ROOT@", peers_root)
        text = text.replace('"./pumpkin-lib"', json.dumps(os.path.join(PEERS, "msc", "pumpkin-lib")))
        path = os.path.join(out_dir, "pumpkin.msc")
        with open(path, "w") as f:
            f.write(text)
        found["pumpkin"] = path
    return found


def read_jsonl(path):
    out = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line:
                    r = json.loads(line)
                    out[r["instance"]] = r
    return out


def wrong_answers(instances, ours, gecode):
    """cspi's answers that a proved result contradicts."""
    wrong = []
    for inst in instances:
        iid, kind = inst["id"], inst["kind"]
        r = ours.get(iid)
        if not r:
            continue
        g = gecode.get(iid, {})
        proved = None  # the proved optimum, or "unsat", or "sat"
        if inst.get("best_known_status") == "optimal" and inst.get("best_known"):
            proved = int(inst["best_known"])
        if g.get("status") == "SC":
            proved = g.get("objective") if kind != "sat" else "sat"
        if g.get("status") == "C":
            proved = "unsat"
        if g.get("status") in ("S", "SC") and proved is None:
            proved = "sat"
        st, obj = r.get("status"), r.get("objective")
        if st == "C" and proved not in (None, "unsat"):
            wrong.append(f"{iid}: cspi says unsatisfiable, but a solution is known")
        if st in ("S", "SC") and proved == "unsat":
            wrong.append(f"{iid}: cspi gives a solution to an instance proved unsatisfiable")
        if kind != "sat" and isinstance(proved, int) and obj is not None:
            better = obj < proved if kind == "min" else obj > proved
            if better:
                wrong.append(f"{iid}: cspi's objective {obj} beats the proved optimum {proved}")
            if st == "SC" and obj != proved:
                wrong.append(f"{iid}: cspi claims optimum {obj}, the proved optimum is {proved}")
    return wrong


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-t", "--time-limit", type=int, default=60000, help="ms per instance (default 60000)")
    ap.add_argument("--only", help="comma-separated instance ids")
    ap.add_argument("--solvers", default="cspi,gecode,pumpkin")
    ap.add_argument("--set", default=SET)
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "minizinc-bench"))
    ap.add_argument("--cspi", metavar="MSC",
                    help="cspi's solver configuration (default share/minizinc/cspi.msc; give a copy that"
                         " runs a frozen binary to keep building while the benchmark runs)")
    ap.add_argument("--variant", action="append", default=[], metavar="LABEL=MSC",
                    help="one more cspi configuration to run beside the others, such as"
                         " cspi-learn=target/cspi-learn.msc (a copy whose executable passes --learning on);"
                         " repeatable; checked for wrong answers as cspi is")
    ap.add_argument("--nice", type=int, metavar="N",
                    help="niceness added to the solver processes (mznc_run.py's default is 10; give 0 to keep"
                         " this script's own, e.g. under `nice -n -10` on a machine busy with builds)")
    ap.add_argument("--resume", action="store_true", help="keep the results already in --out")
    args = ap.parse_args()
    if not os.path.exists(os.path.join(args.set, "instances.tsv")):
        sys.exit(f"skipped: {args.set}/instances.tsv not found")
    os.makedirs(args.out, exist_ok=True)
    chosen = solvers(args.out, args.solvers.split(","), args.cspi)
    for variant in args.variant:
        label, _, msc = variant.partition("=")
        if not label or not os.path.exists(msc):
            sys.exit(f"--variant {variant}: give LABEL=MSC with an existing .msc file")
        chosen[label] = msc
    with open(os.path.join(args.set, "instances.tsv")) as f:
        instances = list(csv.DictReader(f, delimiter="\t"))
    if args.only:
        keep = set(args.only.split(","))
        instances = [i for i in instances if i["id"] in keep]
    outs = {label: os.path.join(args.out, f"{label}.jsonl") for label in chosen}
    if not args.resume:
        for p in outs.values():
            if os.path.exists(p):
                os.remove(p)
    done = {label: read_jsonl(p) for label, p in outs.items()}
    for k, inst in enumerate(instances):
        for label, msc in chosen.items():
            if inst["id"] in done[label]:
                continue
            cmd = [sys.executable, os.path.join(PEERS, "mznc_run.py"), "--set", args.set,
                   "--solver", msc, "--label", label, "-t", str(args.time_limit),
                   "--only", inst["id"], "--out", outs[label], "--quiet"]
            if args.nice is not None:
                cmd += ["--nice", str(args.nice)]
            subprocess.run(cmd, check=False)
        row = [f"[{k + 1}/{len(instances)}] {inst['id']:<40}"]
        for label in chosen:
            r = read_jsonl(outs[label]).get(inst["id"], {})
            row.append(f"{label} {r.get('status', '-'):<3} {str(r.get('objective', '')):>6} {r.get('time', 0):6.1f}s")
        print("  ".join(row), flush=True)
    results = {label: read_jsonl(p) for label, p in outs.items()}
    print()
    print("| instance | " + " | ".join(f"{l} status | {l} objective | {l} time (s)" for l in chosen) + " |")
    print("|---|" + "---|---:|---:|" * len(chosen))
    for inst in instances:
        cells = []
        for label in chosen:
            r = results[label].get(inst["id"], {})
            obj = r.get("objective")
            cells += [r.get("status", "-"), "" if obj is None else str(obj), f"{r.get('time', 0):.1f}"]
        print(f"| {inst['id']} | " + " | ".join(cells) + " |")
    print()
    score = [sys.executable, os.path.join(PEERS, "mznc_score.py"), "--instances",
             os.path.join(args.set, "instances.tsv")] + list(outs.values())
    subprocess.run(score, check=False)
    reference = read_jsonl(os.path.join(args.set, "results", "gecode.jsonl"))
    reference.update({k: v for k, v in results.get("gecode", {}).items() if v.get("status") in ("SC", "C")})
    for label in chosen:
        if not label.startswith("cspi"):
            continue
        wrong = wrong_answers(instances, results[label], reference)
        print()
        print(f"wrong answers of {label}: " + ("none" if not wrong else f"{len(wrong)}"))
        for w in wrong:
            print("  " + w)
        errors = [i for i, r in results[label].items() if r.get("status") == "ERR"]
        print(f"errors of {label}: " + (", ".join(errors) if errors else "none"))


if __name__ == "__main__":
    main()
