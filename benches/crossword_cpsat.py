#!/usr/bin/env python3
"""Fill a crossword grid with OR-Tools CP-SAT, the learning solver, as a yardstick.

    PY=~/.cache/cspi-peers-venv/bin/python   # ../shared/peers/setup.sh installs ortools there
    $PY benches/crossword_cpsat.py GRID WORDLIST MIN_SCORE [--workers 1] [--time-limit 60]

The model a CP-SAT user would write: one letter variable per cell, and per
slot a word-index variable with a table of (index, letters) over the list's
words of that length scoring at least MIN_SCORE; all-different over the
indices of the slots of each length (no word twice; `--no-alldiff` drops
it, a relaxation). A grid with `*` cells is a region, as cspi reads it: only
the slots through `*` cells, whose cells outside the region belong to that
slot alone. Word list and grid are read by benches/crossword_fill.py's
functions. Prints the fill (one row per line, `#` blocks), or
`UNSATISFIABLE`, or `UNKNOWN` at the time limit, then CP-SAT's summary.
`benches/crossword_fill.py --cpsat` runs it next to cspi and ingrid_core.
"""
import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crossword_fill import load_list, read_grid, slots  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("grid")
    ap.add_argument("wordlist")
    ap.add_argument("min_score", type=int)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--no-alldiff", action="store_true")
    args = ap.parse_args()
    from ortools.sat.python import cp_model

    grid = read_grid(args.grid)
    region = any("*" in row for row in grid)
    runs = [s for s in slots(grid) if not region or any(grid[y][x] == "*" for y, x in s)]
    words = defaultdict(list)
    for w, s in load_list(args.wordlist).items():
        if s >= args.min_score:
            words[len(w)].append(w)
    m = cp_model.CpModel()
    cell = {}

    def letter(key, given):
        if key not in cell:
            cell[key] = m.NewConstant(ord(given) - 97) if given.isalpha() else m.NewIntVar(0, 25, "")
        return cell[key]

    index_by_length = defaultdict(list)
    for k, s in enumerate(runs):
        ws = sorted(w for w in words[len(s)] if all("a" <= c <= "z" for c in w))
        if not ws:
            print("UNSATISFIABLE (a slot without words)")
            return 0
        letters = [letter((y, x) if not region or grid[y][x] == "*" else (y, x, k), grid[y][x].lower())
                   for y, x in s]
        i = m.NewIntVar(0, len(ws) - 1, "")
        m.AddAllowedAssignments([i] + letters, [[j] + [ord(c) - 97 for c in w] for j, w in enumerate(ws)])
        index_by_length[len(s)].append(i)
    if not args.no_alldiff:
        for same in index_by_length.values():
            if len(same) > 1:
                m.AddAllDifferent(same)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = args.workers
    solver.parameters.max_time_in_seconds = args.time_limit
    status = solver.Solve(m)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        for y, row in enumerate(grid):
            print("".join(c if c == "#" else
                          chr(97 + solver.Value(cell[(y, x)])) if (y, x) in cell else "."
                          for x, c in enumerate(row)))
    else:
        print("UNSATISFIABLE" if status == cp_model.INFEASIBLE else "UNKNOWN")
    print(solver.ResponseStats(), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
