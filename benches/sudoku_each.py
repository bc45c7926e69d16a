#!/usr/bin/env python3
"""The 96 hard 9x9 sudokus in one process: `cspi solve models/sudoku.csp --each` against
Choco's one-process run (../shared/peers/sudoku.py), in the same run, alternated.

Issue 13's target: one `--each` run costs less CPU than Choco's one process. Machines are
noisy and shared, so the script reports CPU seconds (user + sys of the whole process, from
os.wait4) as medians over the repetitions and the ratio cspi/Choco measured here, never a
time on its own.

usage (from the checkout root, after `cargo build --release`):

    python3 benches/sudoku_each.py [--reps 5] [--cspi target/release/cspi]

The 96 puzzles are norvig-top95.txt from ../shared/data/sudoku and Arto Inkala's puzzle (the
set the peers' scripts call "96 hard"); they are written to target/bench-data/hard96.txt.
Every cspi grid is checked against its givens and the sudoku rules; the Choco driver checks
its own and reports its count. Without ../shared/data or the peers' venv
(~/.cache/cspi-peers-venv, see ../shared/peers/README.md) the script says what is missing.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def cpu_seconds(cmd, out_path):
    """Runs `cmd` with stdout to `out_path`; returns (user + sys CPU seconds, exit code)."""
    with open(out_path, "w") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, cwd=ROOT)
        _, status, ru = os.wait4(p.pid, 0)
    return ru.ru_utime + ru.ru_stime, os.waitstatus_to_exitcode(status)


def grid_ok(givens, grid):
    """An independent check: the givens kept, every row, column and box a permutation of 1..9."""
    cells = [v for row in grid for v in row]
    if len(cells) != 81 or any(g not in ".0" and int(g) != v for g, v in zip(givens, cells)):
        return False
    groups = [[r * 9 + c for c in range(9)] for r in range(9)]
    groups += [[r * 9 + c for r in range(9)] for c in range(9)]
    groups += [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)]
               for br in (0, 3, 6) for bc in (0, 3, 6)]
    return all(sorted(cells[i] for i in g) == list(range(1, 10)) for g in groups)


def check_cspi(out_path, puzzles):
    """Number of instances whose solution passes the check."""
    good = 0
    for line in Path(out_path).read_text().splitlines():
        rec = json.loads(line)
        if rec.get("type") == "solution":
            index = int(rec["instance"].rsplit(":", 1)[-1]) - 1
            good += grid_ok(puzzles[index], rec["values"]["cell"])
    return good


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--cspi", default=str(ROOT / "target/release/cspi"))
    ap.add_argument("--data", default=str(ROOT.parent / "shared/data"))
    ap.add_argument("--peers", default=str(ROOT.parent / "shared/peers"))
    a = ap.parse_args()

    top95 = Path(a.data) / "sudoku/norvig-top95.txt"
    if not top95.exists():
        print(f"skipped: {top95} not found")
        return 0
    venv = Path(os.environ.get("PEERS_VENV", Path.home() / ".cache/cspi-peers-venv"))
    python = venv / "bin/python"
    if not python.exists():
        print(f"skipped: the peers' venv {venv} not found (bash ../shared/peers/setup.sh)")
        return 0
    puzzles = [l.strip() for l in top95.read_text().splitlines() if l.strip()] + [INKALA]
    work = ROOT / "target/bench-data"
    work.mkdir(parents=True, exist_ok=True)
    hard96 = work / "hard96.txt"
    hard96.write_text("\n".join(puzzles) + "\n")

    tools = {
        "cspi --each": [a.cspi, "solve", "models/sudoku.csp", "--each", f"puzzle={hard96}",
                        "--format", "json"],
        "Choco (one process)": [str(python), str(Path(a.peers) / "sudoku.py"), "--peer", "choco",
                                str(hard96)],
    }
    print(f"load: {os.getloadavg()[0]:.1f}  puzzles: {len(puzzles)}  reps: {a.reps}")
    cpu = {name: [] for name in tools}
    for rep in range(a.reps):
        order = list(tools) if rep % 2 == 0 else list(reversed(tools))
        for name in order:
            out = work / f"sudoku-each-{name.split()[0].lower()}.out"
            secs, code = cpu_seconds(tools[name], out)
            if name.startswith("cspi"):
                solved = check_cspi(out, puzzles)
            else:
                solved = json.loads(out.read_text().splitlines()[-1])["count"]
            if code != 0 or solved != len(puzzles):
                print(f"{name}: exit {code}, {solved} of {len(puzzles)} solved and checked")
                return 1
            cpu[name].append(secs)
    med = {name: statistics.median(v) for name, v in cpu.items()}
    print("| tool | CPU s (median) | runs |\n|---|---:|---|")
    for name, v in cpu.items():
        print(f"| {name} | {med[name]:.3f} | {' '.join(f'{s:.3f}' for s in v)} |")
    cspi, choco = med.values()
    print(f"ratio cspi/Choco: {cspi / choco:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
