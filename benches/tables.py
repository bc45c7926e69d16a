#!/usr/bin/env python3
"""Benchmarks for tables, arithmetic and optimisation (run from the project root
after `cargo build --release`):

    python3 benches/tables.py [--quick]

Three workloads, each timed against a baseline run in the same script, so the
ratios mean something on any machine:

  8-puzzle   models/eight-puzzle.csp on ../shared/data/eight-puzzle/instances.txt,
             against a plain A* search with the Manhattan heuristic (Python);
  boggle     models/boggle.csp on every shared board with dictionary-yawl.txt,
             against a DFS solver with a prefix set (Python);
  table      a random table of 1,000,000 triples read from a CSV file, with two
             arithmetic side constraints, all solutions counted, against a
             Python filter over the rows.

The answers are compared too (plan lengths, word totals, counts): a mismatch
is reported as an error. --quick runs a subset."""
import heapq, os, random, subprocess, sys, tempfile, time, json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "shared", "data")
CSPI = os.path.join(ROOT, "target", "release", "cspi")
QUICK = "--quick" in sys.argv


def cspi(args):
    t = time.perf_counter()
    p = subprocess.run([CSPI, "solve"] + args + ["--format", "json"], capture_output=True, text=True)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(f"cspi {' '.join(args)} failed: {p.stderr[-300:]}")
    lines = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    return lines, dt


def astar(start, goal="123456780"):
    """Optimal plan length by A* with Manhattan distance, or None if unsolvable."""
    gp = {goal[i]: (i // 3, i % 3) for i in range(9)}

    def h(s):
        return sum(abs(i // 3 - gp[c][0]) + abs(i % 3 - gp[c][1]) for i, c in enumerate(s) if c != "0")

    def inv(s):
        t = [c for c in s if c != "0"]
        return sum(1 for i in range(8) for j in range(i + 1, 8) if t[i] > t[j])

    if inv(start) % 2 != inv(goal) % 2:
        return None
    g = {start: 0}
    heap = [(h(start), 0, start)]
    while heap:
        f, d, s = heapq.heappop(heap)
        if s == goal:
            return d
        if d > g[s]:
            continue
        b = s.index("0")
        r, c = divmod(b, 3)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < 3 and 0 <= nc < 3:
                n = nr * 3 + nc
                l = list(s)
                l[b], l[n] = l[n], l[b]
                t = "".join(l)
                if d + 1 < g.get(t, 1 << 30):
                    g[t] = d + 1
                    heapq.heappush(heap, (d + 1 + h(t), d + 1, t))
    return None


def bench_eight_puzzle():
    path = os.path.join(DATA, "eight-puzzle", "instances.txt")
    if not os.path.exists(path):
        print("eight-puzzle: skipped: ../shared/data/eight-puzzle/instances.txt not found")
        return
    starts = [l.strip() for l in open(path) if len(l.strip()) == 9]
    if QUICK:
        starts = starts[:12]
    tc = tb = 0.0
    worst = (0, "")
    for s in starts:
        lines, dt = cspi([os.path.join(ROOT, "models", "eight-puzzle.csp"), "--param", f"start={s}"])
        summary = lines[-1]
        got = summary.get("objective") if summary["status"] == "OPTIMAL" else None
        t = time.perf_counter()
        want = astar(s)
        tb += time.perf_counter() - t
        tc += dt
        worst = max(worst, (dt, s))
        mark = "" if got == want else "  MISMATCH"
        print(f"  {s}: {str(got):>4} moves  cspi {dt:6.2f}s{mark}")
    print(f"eight-puzzle: {len(starts)} instances, cspi {tc:.2f}s, A* baseline {tb:.2f}s, "
          f"ratio cspi/A* {tc / max(tb, 1e-9):.1f}; slowest {worst[1]} {worst[0]:.2f}s")


def boggle_dfs(board, words, prefixes):
    toks = open(board).read().split()
    R, C = int(toks[0]), int(toks[1])
    cells = ["QU" if t.upper() in ("Q", "QU") else t.upper() for t in toks[2:]]
    found = set()

    def go(i, w, used):
        w = w + cells[i]
        if w not in prefixes:
            return
        if len(w) >= 3 and w in words:
            found.add(w)
        used.add(i)
        r, c = divmod(i, C)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                nr, nc = r + dr, c + dc
                if (dr or dc) and 0 <= nr < R and 0 <= nc < C and nr * C + nc not in used:
                    go(nr * C + nc, w, used)
        used.discard(i)

    for i in range(R * C):
        go(i, "", set())
    score = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}
    return sum(score.get(len(w), 11) for w in found)


def bench_boggle():
    d = os.path.join(DATA, "boggle")
    if not os.path.isdir(d):
        print("boggle: skipped: ../shared/data/boggle not found")
        return
    dic = os.path.join(d, "dictionary-yawl.txt")
    t = time.perf_counter()
    words = set(open(dic).read().split())
    prefixes = {w[:i] for w in words for i in range(1, len(w) + 1)}
    tload = time.perf_counter() - t
    boards = sorted(f for f in os.listdir(d) if f.startswith("board"))
    if QUICK:
        boards = [b for b in boards if "points" in b][:8]
    tc = tb = 0.0
    for b in boards:
        lines, dt = cspi([os.path.join(ROOT, "models", "boggle.csp"), "--param", f"board={os.path.join(d, b)}",
                          "--param", f"dict={dic}", "--all"])
        got = lines[-1].get("totals", {}).get("score")
        t = time.perf_counter()
        want = boggle_dfs(os.path.join(d, b), words, prefixes)
        tb += time.perf_counter() - t
        tc += dt
        mark = "" if got == want else f"  MISMATCH (DFS {want})"
        print(f"  {b}: {got} points, {lines[-1]['solutions']} words, cspi {dt:5.2f}s{mark}")
    tb += tload
    print(f"boggle: {len(boards)} boards, cspi {tc:.2f}s (each run loads the dictionary), "
          f"DFS baseline {tb:.2f}s (dictionary loaded once: {tload:.2f}s), ratio {tc / max(tb, 1e-9):.1f}")


def bench_table():
    n = 200_000 if QUICK else 1_000_000
    random.seed(1)
    rows = [(random.randrange(200), random.randrange(200), random.randrange(200)) for _ in range(n)]
    with tempfile.TemporaryDirectory() as tmp:
        csv = os.path.join(tmp, "rows.csv")
        with open(csv, "w") as f:
            f.write("x,y,z\n")
            f.writelines(f"{a},{b},{c}\n" for a, b, c in rows)
        model = os.path.join(tmp, "table.csp")
        with open(model, "w") as f:
            f.write('param rows = "rows.csv";\n'
                    "var x in 0..199;\nvar y in 0..199;\nvar z in 0..199;\n"
                    "constraint table([x, y, z], read_table(rows));\n"
                    "constraint x + y == z + 100;\nconstraint x % 7 == 3;\n")
        lines, dt = cspi([model, "--count"])
        got = lines[-1]["solutions"]
        stats = lines[-1]["stats"]
        t = time.perf_counter()
        want = len({r for r in rows if r[0] + r[1] == r[2] + 100 and r[0] % 7 == 3})
        tb = time.perf_counter() - t
        mark = "" if got == want else f"  MISMATCH (filter {want})"
        print(f"table: {n} rows, {got} solutions{mark}; cspi {dt:.2f}s total "
              f"(search {stats['time_ms']} ms, {stats['nodes']} nodes, peak {stats['peak_memory_kb'] // 1024} MiB), "
              f"Python filter {tb:.2f}s, ratio {dt / max(tb, 1e-9):.1f}")


if __name__ == "__main__":
    if not os.path.exists(CSPI):
        raise SystemExit("build first: cargo build --release")
    bench_table()
    bench_eight_puzzle()
    bench_boggle()
