#!/usr/bin/env python3
"""Write a crossword grid as a MiniZinc model, for the solvers MiniZinc drives.

    python3 benches/crossword_mzn.py GRID WORDLIST MIN_SCORE > grid.mzn
    minizinc --solver ~/.cache/cspi-peers/msc/huub.msc grid.mzn -f -s

The model of benches/crossword_cpsat.py, in MiniZinc: a letter variable per
cell (1 to 26), and per slot a word-index variable with a table of (index,
letters) over the list's words of that length scoring at least MIN_SCORE;
all-different over the indices of the slots of each length (no word twice).
Given letters are fixed. The search annotation branches on the letters
(first fail, least letter); `-f` lets a solver search freely. It prints the
letters, row by row, blocks as `#`. Word list and grid are read by
benches/crossword_fill.py's functions.
"""
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crossword_fill import load_list, read_grid, slots  # noqa: E402


def model(grid, scores, min_score):
    runs = slots(grid)
    words = defaultdict(list)
    for w, s in scores.items():
        if s >= min_score and w.isascii() and w.isalpha():
            words[len(w)].append(w)
    cells = {}
    for run in runs:
        for cell in run:
            cells.setdefault(cell, len(cells) + 1)
    out = ['include "table.mzn";', 'include "alldifferent.mzn";',
           f"array[1..{len(cells)}] of var 1..26: L;"]
    for (y, x), k in cells.items():
        if grid[y][x].isalpha():
            out.append(f"constraint L[{k}] = {ord(grid[y][x].lower()) - 96};")
    lengths = sorted({len(r) for r in runs})
    for n in lengths:
        ws = sorted(words[n])
        if not ws:
            sys.exit(f"no word of {n} letters scores {min_score} or more: the grid has no fill")
        rows = ",\n".join("|" + ",".join([str(i + 1)] + [str(ord(c) - 96) for c in w]) for i, w in enumerate(ws))
        out.append(f"array[int, int] of int: T{n} = [{rows}|];")
    for k, run in enumerate(runs):
        n = len(run)
        out.append(f"var 1..{len(words[n])}: W{k};")
        out.append(f"constraint table([W{k}] ++ [{', '.join(f'L[{cells[c]}]' for c in run)}], T{n});")
    for n in lengths:
        same = [f"W{k}" for k, r in enumerate(runs) if len(r) == n]
        if len(same) > 1:
            out.append(f"constraint alldifferent([{', '.join(same)}]);")
    out.append("solve :: int_search(L, first_fail, indomain_min) satisfy;")
    letters = ", ".join(f'"{c}"' for c in "abcdefghijklmnopqrstuvwxyz")
    out.append(f"array[1..26] of string: A = [{letters}];")
    lines = []
    for y, row in enumerate(grid):
        parts = ['"#"' if (y, x) not in cells else f"A[fix(L[{cells[(y, x)]}])]" for x, ch in enumerate(row)]
        lines.append(" ++ ".join(parts) + ' ++ "\\n"')
    out.append("output [" + ",\n".join(lines) + "];")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    grid = read_grid(sys.argv[1])
    sys.stdout.write(model(grid, load_list(sys.argv[2]), int(sys.argv[3])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
