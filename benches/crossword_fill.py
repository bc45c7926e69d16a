#!/usr/bin/env python3
"""Crossword fill next to ingrid_core: the same grids, word list and minimum score.

    python3 benches/crossword_fill.py [--reps 3] [--min-score 50] [--timeout 60] [--grids a,b]
    python3 benches/crossword_fill.py --random 12 --random-words 64-70 --seed 2
    python3 benches/crossword_fill.py --estimate   # each grid's expected fills only

Grids are benches/crossword-grids/*.txt (ASCII pictures: `#` a block, `.` an
empty cell, a letter a given cell: the format both tools read). The word list
is Spread the Wordlist as ../shared/peers/setup-rust-peers.sh installs it
(`$STWL`, default ~/.cache/cspi-peers/spreadthewordlist.dict); ingrid_core is
`$INGRID` (default ~/.cache/cspi-peers/ingrid/bin/ingrid_core); cspi is
`$CSPI` (default target/release/cspi), run on models/crossword.csp (first
fill, best-scored words first) and, with --best SECONDS, on
models/crossword-best.csp under that time limit (`--goal`, default sum:
the highest mean). With --cpsat, OR-Tools CP-SAT fills them too, one
worker (benches/crossword_cpsat.py, in the peers' venv, `$PEERS_VENV`);
with --huub, Huub through MiniZinc (benches/crossword_mzn.py's model, free
search; `--huub-msc`, default as ../shared/peers/setup-rust-peers.sh
installs it).

Runs alternate between the tools (same run, one thread each). Each process is
timed by GNU time (user + sys CPU, peak RSS); the word list's load is
included. Every fill is checked here, independently of both tools: every
run of two or more cells is a word of the list scoring at least the minimum,
no word twice, given letters kept. Quality is the lowest and the mean score
of the entries. A run that ends without a fill says whether the tool proved
there is none or gave up (time limit). Each grid's expected number of fills
under independent letters (`expected_fills`) is printed first: a ranking of
how hard a grid is, not a proof.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRIDS = ROOT / "benches" / "crossword-grids"
HOME = Path.home()


def normalise(word):
    return "".join(c for c in word.lower() if c.isalpha())


def load_list(path):
    scores = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            word, _, score = line.partition(";")
            w = normalise(word)
            if not w:
                continue
            s = int(score) if score.strip().lstrip("-").isdigit() else 0
            scores[w] = max(s, scores.get(w, s))
    return scores


def read_grid(path):
    return [l.rstrip("\r\n") for l in open(path) if l.strip()]


def slots(rows):
    """Every run of two or more open cells, as lists of (row, col)."""
    h, w = len(rows), len(rows[0])
    out = []
    for y in range(h):
        for x in range(w):
            if rows[y][x] == "#":
                continue
            for dy, dx in ((0, 1), (1, 0)):
                py, px = y - dy, x - dx
                if py >= 0 and px >= 0 and rows[py][px] != "#":
                    continue
                cells = []
                cy, cx = y, x
                while cy < h and cx < w and rows[cy][cx] != "#":
                    cells.append((cy, cx))
                    cy, cx = cy + dy, cx + dx
                if len(cells) >= 2:
                    out.append(cells)
    return out


def expected_fills(grid, scores, min_score):
    """log10 of the grid's expected number of fills if each slot's letters were
    drawn independently: the product of the slots' word counts (words of the
    length at the minimum score that keep the given letters) and, for each
    crossing, the chance that the two slots' letters there agree (the sum over
    letters of the product of their frequencies at those positions). A first
    moment: below 0 a fill is unlikely (Markov's inequality, under that
    assumption), far above 0 likely; the assumption ignores how the letters of
    one word hang together, so it ranks grids, it proves nothing."""
    import math
    from collections import Counter, defaultdict
    by_length = defaultdict(list)
    for w, s in scores.items():
        if s >= min_score and w.isascii() and w.isalpha():
            by_length[len(w)].append(w)
    runs = slots(grid)
    cands = []
    for cells in runs:
        given = [(i, grid[y][x].lower()) for i, (y, x) in enumerate(cells) if grid[y][x].isalpha()]
        ws = [w for w in by_length[len(cells)] if all(w[i] == c for i, c in given)]
        if not ws:
            return float("-inf")
        cands.append(ws)
    total = sum(math.log10(len(ws)) for ws in cands)
    where = defaultdict(list)
    for k, cells in enumerate(runs):
        for i, cell in enumerate(cells):
            where[cell].append((k, i))
    freq = {}

    def letters(k, i):
        if (k, i) not in freq:
            n = len(cands[k])
            freq[(k, i)] = {c: m / n for c, m in Counter(w[i] for w in cands[k]).items()}
        return freq[(k, i)]

    for pair in where.values():
        if len(pair) == 2:
            (a, i), (b, j) = pair
            pa, pb = letters(a, i), letters(b, j)
            agree = sum(p * pb.get(c, 0.0) for c, p in pa.items())
            if agree == 0:
                return float("-inf")
            total += math.log10(agree)
    return total


def check_fill(grid, fill, scores, min_score):
    """The entries' scores, or an error message."""
    if len(fill) != len(grid) or any(len(a) != len(b) for a, b in zip(fill, grid)):
        return "the fill is not the grid's shape"
    for y, row in enumerate(grid):
        for x, c in enumerate(row):
            f = fill[y][x]
            if (c == "#") != (f == "#"):
                return f"block changed at row {y + 1}, column {x + 1}"
            if c.isalpha() and f != c.lower():
                return f"given letter {c} changed at row {y + 1}, column {x + 1}"
            if c != "#" and not f.isalpha():
                return f"empty cell at row {y + 1}, column {x + 1}"
    seen = set()
    out = []
    for cells in slots(grid):
        word = "".join(fill[y][x] for y, x in cells)
        if word not in scores or scores[word] < min_score:
            return f"`{word}` is not in the list at score {min_score}"
        if word in seen:
            return f"`{word}` twice"
        seen.add(word)
        out.append(scores[word])
    return out


def timed(cmd, timeout):
    """(stdout, stderr, CPU seconds, peak KB, timed out)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        # `timeout` inside `time`: a tool that overruns is killed, not orphaned.
        full = ["/usr/bin/time", "-f", "%U %S %M", "-o", t.name, "timeout", str(timeout + 5)] + cmd
        try:
            p = subprocess.run(full, capture_output=True, text=True, timeout=timeout + 60)
            out, err = p.stdout, p.stderr
            killed = p.returncode == 124
        except subprocess.TimeoutExpired as e:
            return (e.stdout or b"").decode(errors="replace"), "", float(timeout), 0, True
        fields = t.read().split()
        user, sys_, kb = float(fields[-3]), float(fields[-2]), int(fields[-1])
        return out, err, user + sys_, kb, killed


def letters_grid(lines, width, height):
    """The last `height` consecutive lines of `width` cells (letters or `#`),
    spaces allowed between cells: the drawn fill."""
    cand = []
    for l in lines:
        cells = l.replace(" ", "")
        if len(cells) == width and all(c == "#" or c.isalpha() for c in cells):
            cand.append(cells.lower())
        else:
            cand.append(None)
    for end in range(len(cand), height - 1, -1):
        block = cand[end - height:end]
        if all(b is not None for b in block):
            return block
    return None


def solver_status(out, grid, killed):
    """(status, fill) of a solver that prints the fill or UNSATISFIABLE / UNKNOWN."""
    fill = letters_grid(out.splitlines(), len(grid[0]), len(grid))
    if fill is not None:
        return "fill", fill
    if killed or "UNKNOWN" in out:
        return "timeout", None
    return ("none" if "UNSATISFIABLE" in out else "error"), None


def run_cspi(args, grid_path, grid, stwl, min_score, timeout, best):
    model = "models/crossword-best.csp" if best else "models/crossword.csp"
    limit = best if best else timeout
    cmd = [args.cspi, "solve", model, "--threads", "1", "--time-limit", str(limit),
           "--param", f"grid={grid_path}", "--param", f"dict={stwl}",
           "--param", f"min_score={min_score}"]
    if best:
        cmd += ["--param", f"goal={args.goal}"]
    out, _, cpu, kb, killed = timed(cmd, limit)
    return solver_status(out, grid, killed) + (cpu, kb)


def run_try_blocks(args, grid_path, grid, stwl, min_score, timeout):
    """cspi with `--try-blocks N`: the first fill of the grid with up to N new
    blocks (and their twins); the fill is of that grid, not the one drawn."""
    cmd = [args.cspi, "solve", "models/crossword.csp", "--threads", "1", "--time-limit", str(timeout),
           "--try-blocks", str(args.try_blocks), "--param", f"grid={grid_path}",
           "--param", f"dict={stwl}", "--param", f"min_score={min_score}"]
    out, _, cpu, kb, killed = timed(cmd, timeout)
    return solver_status(out, grid, killed) + (cpu, kb)


def opened(grid, fill):
    """The grid with the blocks of `fill` when it keeps the drawn grid's
    blocks and letters (new blocks only on open cells), else None."""
    for row, frow in zip(grid, fill):
        for c, f in zip(row, frow):
            if (c == "#" and f != "#") or (c.isalpha() and f != c.lower()):
                return None
    return ["".join("#" if f == "#" else c for c, f in zip(row, frow)) for row, frow in zip(grid, fill)]


def run_ingrid(args, grid_path, grid, stwl, min_score, timeout):
    cmd = [args.ingrid, "--wordlist", stwl, "--min-score", str(min_score), str(grid_path)]
    out, err, cpu, kb, killed = timed(cmd, timeout)
    fill = letters_grid(out.splitlines(), len(grid[0]), len(grid))
    if fill is None:
        # ingrid_core says `Error: "Unfillable grid"` on stderr when it proved there is none.
        status = "timeout" if killed else ("none" if re.search(r"(?i)unfillable", out + err) else "error")
    else:
        status = "fill"
    return status, fill, cpu, kb


def run_cpsat(args, grid_path, grid, stwl, min_score, timeout):
    cmd = [args.cpsat_python, str(ROOT / "benches" / "crossword_cpsat.py"), str(grid_path), stwl,
           str(min_score), "--workers", "1", "--time-limit", str(timeout)]
    out, _, cpu, kb, killed = timed(cmd, timeout)
    return solver_status(out, grid, killed) + (cpu, kb)


def run_minizinc(args, msc, grid, scores, min_score, timeout):
    """A MiniZinc solver (its .msc file) on benches/crossword_mzn.py's model
    of the grid, free search. The model is written beforehand, not timed;
    MiniZinc's flattening is (its child processes' CPU)."""
    from crossword_mzn import model
    with tempfile.NamedTemporaryFile("w", suffix=".mzn") as m:
        m.write(model(grid, scores, min_score))
        m.flush()
        cmd = ["minizinc", "--solver", msc, m.name, "-f", "-t", str(timeout * 1000)]
        out, _, cpu, kb, killed = timed(cmd, timeout + 30)
    return solver_status(out, grid, killed) + (cpu, kb)


def random_grid(rng, size, words, longest):
    """An American-style grid drawn at random: blocks placed in 180° twins,
    every entry at least three letters, the open cells in one piece, between
    words[0] and words[1] entries, none longer than `longest`. Random grids are
    harder than a constructor's (stacks of long entries come up often), so
    they test the tails of the search, not the common case."""
    def entries(g):
        lines = g + [list(c) for c in zip(*g)]
        return [len(run) for line in lines for run in "".join(line).split("#") if run]

    def connected(g):
        cells = [(y, x) for y in range(size) for x in range(size) if g[y][x] != "#"]
        seen, todo = {cells[0]}, [cells[0]]
        while todo:
            y, x = todo.pop()
            for q in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                if 0 <= q[0] < size and 0 <= q[1] < size and g[q[0]][q[1]] != "#" and q not in seen:
                    seen.add(q)
                    todo.append(q)
        return len(seen) == len(cells)

    while True:
        g = [["."] * size for _ in range(size)]
        misses = 0
        while misses < 400:
            runs = entries(g)
            count = sum(1 for r in runs if r >= 2)
            if words[0] <= count <= words[1] and max(runs) <= longest:
                return ["".join(r) for r in g]
            if count > words[1]:
                break
            y, x = rng.randrange(size), rng.randrange(size)
            if g[y][x] == "#":
                misses += 1
                continue
            g[y][x] = g[size - 1 - y][size - 1 - x] = "#"
            if min(entries(g)) >= 3 and connected(g):
                continue
            g[y][x] = g[size - 1 - y][size - 1 - x] = "."
            misses += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--min-score", type=int, default=50)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--best", type=int, default=0, help="also run crossword-best.csp for this many seconds")
    ap.add_argument("--goal", default="sum", help="crossword-best.csp's goal with --best: sum (the mean), min or lex")
    ap.add_argument("--try-blocks", type=int, default=0,
                    help="where cspi finds no fill, also run cspi --try-blocks N (a fill of the grid with new blocks)")
    ap.add_argument("--grids", default="")
    ap.add_argument("--grid-dir", default=str(GRIDS), help="where the grids are (default benches/crossword-grids)")
    ap.add_argument("--random", type=int, default=0,
                    help="instead, this many random 15x15 grids (random_grid), written to a new temporary folder")
    ap.add_argument("--random-words", default="72-78", help="with --random: the number of entries, LO-HI")
    ap.add_argument("--seed", type=int, default=1, help="with --random: the generator's seed")
    ap.add_argument("--stwl", default=os.environ.get("STWL", str(HOME / ".cache/cspi-peers/spreadthewordlist.dict")))
    ap.add_argument("--ingrid", default=os.environ.get("INGRID", str(HOME / ".cache/cspi-peers/ingrid/bin/ingrid_core")))
    ap.add_argument("--cspi", default=os.environ.get("CSPI", str(ROOT / "target/release/cspi")))
    ap.add_argument("--estimate", action="store_true",
                    help="only print each grid's expected number of fills (log10, independent letters) and stop")
    ap.add_argument("--huub", action="store_true",
                    help="also fill with Huub, the learning solver, through MiniZinc (benches/crossword_mzn.py's model)")
    ap.add_argument("--huub-msc", default=str(HOME / ".cache/cspi-peers/msc/huub.msc"))
    ap.add_argument("--cpsat", action="store_true", help="also fill with CP-SAT (benches/crossword_cpsat.py), one worker")
    ap.add_argument("--cpsat-python", default=str(Path(os.environ.get("PEERS_VENV", HOME / ".cache/cspi-peers-venv")) / "bin/python"))
    args = ap.parse_args()
    for what, p in (("word list", args.stwl), ("ingrid_core", args.ingrid), ("cspi", args.cspi)):
        if not Path(p).exists():
            print(f"skipped: {what} {p} not found")
            return 0
    scores = load_list(args.stwl)
    grid_dir = Path(args.grid_dir)
    if args.random:
        import random
        lo, hi = (int(n) for n in args.random_words.split("-"))
        rng = random.Random(args.seed)
        grid_dir = Path(tempfile.mkdtemp(prefix="crossword-random-"))
        for i in range(args.random):
            (grid_dir / f"random{i:02d}.txt").write_text("\n".join(random_grid(rng, 15, (lo, hi), 15)) + "\n")
        print(f"{args.random} random grids of {lo} to {hi} entries (seed {args.seed}) in {grid_dir}", flush=True)
    names = [g for g in args.grids.split(",") if g] or sorted(p.stem for p in grid_dir.glob("*.txt"))
    rows = []
    estimates = []
    for name in names:
        gpath = grid_dir / f"{name}.txt"
        grid = read_grid(gpath)
        estimates.append((name, len(slots(grid)), expected_fills(grid, scores, args.min_score)))
        print(f"{name}: {estimates[-1][1]} entries, log10 expected fills {estimates[-1][2]:.1f}", flush=True)
        if args.estimate:
            continue
        tools = [("cspi", lambda: run_cspi(args, gpath, grid, args.stwl, args.min_score, args.timeout, 0)),
                 ("ingrid_core", lambda: run_ingrid(args, gpath, grid, args.stwl, args.min_score, args.timeout))]
        if args.cpsat:
            tools.append(("CP-SAT", lambda: run_cpsat(args, gpath, grid, args.stwl, args.min_score, args.timeout)))
        if args.huub:
            tools.append(("Huub", lambda: run_minizinc(args, args.huub_msc, grid, scores, args.min_score, args.timeout)))
        if args.best:
            tools.append(("cspi best", lambda: run_cspi(args, gpath, grid, args.stwl, args.min_score, args.timeout, args.best)))
        results = {t: [] for t, _ in tools}
        for rep in range(args.reps):
            order = tools if rep % 2 == 0 else tools[::-1]
            for tool, run in order:
                results[tool].append(run())
        if args.try_blocks and all(r[0] != "fill" for r in results["cspi"]):
            tool = f"cspi --try-blocks {args.try_blocks}"
            tools.append((tool, None))
            results[tool] = [run_try_blocks(args, gpath, grid, args.stwl, args.min_score, args.timeout)
                             for _ in range(args.reps)]
        for tool, _ in tools:
            rs = results[tool]
            cpu = statistics.median(r[2] for r in rs)
            kb = max(r[3] for r in rs)
            statuses = sorted({r[0] for r in rs})
            quality = ""
            for status, fill, *_ in rs:
                if fill is not None:
                    # A fill with new blocks is checked on its own grid.
                    own = opened(grid, fill) if tool.startswith("cspi --try-blocks") else grid
                    q = check_fill(own, fill, scores, args.min_score) if own else "the drawn grid's blocks or letters changed"
                    if isinstance(q, str):
                        print(f"{tool} on {name}: WRONG FILL: {q}", file=sys.stderr)
                        statuses = ["WRONG"]
                        break
                    quality = f"{min(q)} / {statistics.mean(q):.1f}"
            rows.append((name, tool, "/".join(statuses), f"{cpu:.2f}", f"{kb / 1024:.0f}", quality))
            print("\t".join(rows[-1]), flush=True)
    print()
    print("| grid | entries | log10 expected fills (independent letters) |")
    print("| --- | ---: | ---: |")
    for name, n, e in estimates:
        print(f"| {name} | {n} | {e:.1f} |")
    if args.estimate:
        return 0
    print()
    print(f"min score {args.min_score}, {args.reps} runs each (median CPU, largest peak RSS), time limit {args.timeout} s")
    print("| grid | tool | result | CPU s | peak MB | lowest / mean score |")
    print("| --- | --- | --- | ---: | ---: | --- |")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    # The target: each grid answered (a fill, or none proved) by both, and
    # how many times less CPU cspi took.
    print()
    print("| grid | answer | cspi CPU s | ingrid_core CPU s | ingrid_core / cspi |")
    print("| --- | --- | ---: | ---: | ---: |")
    by = {(r[0], r[1]): r for r in rows}
    for name in names:
        c, i = by.get((name, "cspi")), by.get((name, "ingrid_core"))
        if not c or not i:
            continue
        answer = c[2] if c[2] == i[2] and c[2] in ("fill", "none") else f"cspi {c[2]}, ingrid_core {i[2]}"
        ratio = f"{float(i[3]) / max(float(c[3]), 0.01):.0f}×" if answer in ("fill", "none") else "—"
        print(f"| {name} | {answer} | {c[3]} | {i[3]} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
