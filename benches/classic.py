#!/usr/bin/env python3
"""Classic CP workloads: cspi against the installed peer solvers, and optionally against a
second (baseline) cspi binary, all measured in the same run.

Machines are noisy and shared, so a time means little on its own: this script only reports
times next to a comparison measured in the same run, on the same inputs, with the tools
alternated (the order reverses from one process to the next), and gives ratios.

usage (from any directory):

    cargo build --release
    python3 benches/classic.py                          # quick tier, 1 repetition
    python3 benches/classic.py --tier full              # full tier, median of 3
    python3 benches/classic.py --only queens,alphadoku --reps 5
    python3 benches/classic.py --tier full --baseline /path/to/old/target/release/cspi
    python3 benches/classic.py --peers none             # cspi (and baseline) only

options:
    --tier quick|full    which instances (below); default quick
    --only LIST          workload groups: queens, sudoku, alphadoku, eight, crossword, boggle
    --reps N             repetitions; every figure is the median over them (default: quick 1,
                         full 3)
    --cspi BIN           the cspi binary (default target/release/cspi)
    --models DIR         its models (default: the models/ of the checkout BIN was built in, when
                         BIN is CHECKOUT/target/release/cspi; else this checkout's models/)
    --baseline BIN       a second cspi binary run in the same run: the table gains
                         `baseline` rows and the ratio column gives after/before
    --baseline-models DIR  the baseline's models (default as for --models, falling back to
                         --models), so "before" means the old binary with its own models
    --peers LIST|all|none  peers to run where installed: gecode, choco, cpsat, ref (default all)
    --data DIR           the shared data (default ../shared/data next to the checkout)
    --peers-dir DIR      the peers' drivers (default ../shared/peers; its README says how to
                         install them; venv from $PEERS_VENV or ~/.cache/cspi-peers-venv)
    --threads N          pass `--threads N` to every cspi binary that has the option (a baseline
                         from before it searched on one thread); default: none, so each binary
                         uses its own default (every core for --count and optimisation). Use
                         `--threads 1` for the per-core ratio to the peers, which run on one
    --timeout S          per process, in seconds (default 300); a timed-out tool is not rerun
    --json PATH          where to write the results (default target/classic/classic-DATE.json)

Workloads (quick tier / full tier):

    queens      models/n-queens.csp --count with the model's own search settings, n = 10..12 /
                10..14; peers: Gecode (MiniZinc), Choco (queens.py in the peers' folder)
    sudoku      models/sudoku.csp, one process per puzzle: the 96 hard 9x9 (norvig-top95 and
                Inkala's puzzle, as in the peers' reference runs) and Norvig's 11 hardest;
                peers: Choco and CP-SAT, one process for the whole set (sudoku.py)
    alphadoku   the 31 25x25 alphadoku puzzles, one process each (some have no solution);
                peers as for sudoku (the same in both tiers)
    eight       models/eight-puzzle.csp on the 47 shared 8-puzzle instances (quick: the first
                12), one process each; peer: the Python A* reference, also one process each
    crossword   models/crossword-slots.csp --count over puzzles 1-4 with words-1800 / words-1800
                and words-3000, counting by product (the default) and with --no-product-count;
                peer: Gecode (MiniZinc, letters model) enumerating puzzle 2 with words-1800 (on
                the larger ones it takes minutes)
    boggle      models/boggle.csp --all with the yawl dictionary, one process per board, on 6 /
                all 41 boards; peer: the Python DFS reference, one process per board

What is measured, per tool and workload (summed over the processes of a set):

    CPU s       user + sys of the whole processes, children included (os.wait4's resource
                usage), so start-up, loading and the peers' interpreters count too
    wall s      fork to exit
    nodes       cspi's `nodes` statistic (JSON summary); peers report none
    knodes/s    nodes per CPU second of the whole cspi processes (start-up and loading
                included, so low for per-process workloads where loading dominates)
    peak MiB    the largest peak RSS of any one process of the set: cspi's own peak_memory_kb
                statistic; for the peers, os.wait4's max RSS, which cannot go below this
                harness's own peak (a child starts as a copy of it), so a figure at that floor
                is shown as "<=" it
    cspi/x      median CPU of cspi / median CPU of that tool: below 1, cspi is faster; on a
                baseline row it is after/before

Every answer is checked: counts against known ones, sudoku grids by an independent check,
8-puzzle plan lengths against the reference's A* (itself checked by BFS), Boggle word counts
and scores against the reference DFS; where a tool's answer cannot be checked (an
unsatisfiable alphadoku) the tools must agree. A wrong or disagreeing answer is flagged in
the table and makes the exit status 1, as does a cspi process that fails or times out (a
peer that times out is only reported). Data that is absent is skipped with a note.

After the table come the targets of issue 10 that the run can check (n-queens 12-14 against
Gecode, alphadoku against Choco, the 8-puzzle against the Python A*, after/before per workload).
The JSON file holds every repetition of every tool, the load (`uptime`) before each workload,
and the binaries' sha256.
"""
import argparse
import hashlib
import json
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

ROOT = Path(__file__).resolve().parent.parent
GROUPS = ["queens", "sudoku", "alphadoku", "eight", "crossword", "boggle"]
PEERS = ["gecode", "choco", "cpsat", "ref"]

# Known n-queens counts (OEIS A000170).
QUEENS = {10: 724, 11: 2680, 12: 14200, 13: 73712, 14: 365596}
# Crossword fill counts of the shared puzzles, agreed by Gecode, python-constraint2 and both of
# cspi's counting methods in the peers' reference runs.
CROSSWORD = {(1, 1000): 1381, (2, 1000): 20593, (3, 1000): 11561, (4, 1000): 320,
             (1, 1800): 31643, (2, 1800): 477843, (3, 1800): 444498, (4, 1800): 447987,
             (1, 3000): 276215, (2, 3000): 10538886, (3, 3000): 7326632, (4, 3000): 75325712}
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # models/sudoku.csp's default alphabet


# ------------------------------------------------------------------------------------------ model
@dataclass
class Outcome:
    """What one process answered."""
    label: str                # the answer as shown: a count, or a category such as "solved"
    value: int                # a number comparable across tools, summed over a set
    correct: Optional[bool]   # checked against a known answer; None when there is none
    nodes: Optional[int] = None
    search_ms: Optional[int] = None
    peak_kib: Optional[int] = None   # cspi's own peak_memory_kb statistic


@dataclass
class Command:
    item: str                         # the input, for messages: "n=12", "#7", "board-q.txt"
    argv: list
    cwd: Path
    check: Callable[[str], Outcome]   # reads stdout; raises on output it cannot read


@dataclass
class Workload:
    group: str
    name: str
    variants: dict                    # tool name -> [Command], one process each
    unit: str = ""                    # what the summed value counts, for a set of processes


@dataclass
class SetRun:
    """One repetition of one tool over a workload's processes."""
    cpu: float = 0.0
    wall: float = 0.0
    rss_kib: int = 0
    rss_floored: bool = False         # rss_kib is only the harness's floor (see run_process)
    nodes: Optional[int] = 0
    search_ms: Optional[int] = 0
    value: int = 0
    labels: Counter = field(default_factory=Counter)
    wrong: list = field(default_factory=list)
    status: str = "ok"                # ok, WRONG, timeout, error
    error: str = ""

    def add(self, r):
        self.cpu += r["cpu"]
        self.wall += r["wall"]
        if r["rss_kib"] > self.rss_kib:
            self.rss_kib, self.rss_floored = r["rss_kib"], r["rss_floored"]
        if r["status"] != "ok":
            if self.status in ("ok", "WRONG"):
                self.status, self.error = r["status"], f"{r['item']}: {r['error']}"
            return
        o = r["outcome"]
        self.value += o.value
        self.labels[o.label] += 1
        self.nodes = None if self.nodes is None or o.nodes is None else self.nodes + o.nodes
        self.search_ms = None if self.search_ms is None or o.search_ms is None else self.search_ms + o.search_ms
        if o.correct is False:
            self.wrong.append(r["item"])
            if self.status == "ok":
                self.status = "WRONG"


# ---------------------------------------------------------------------------------------- running
def run_process(cmd, timeout):
    """Runs one process to its end; CPU from os.wait4 (user + sys, reaped children included).

    The max RSS that os.wait4 reports cannot be below this harness's own peak: the child starts
    as a copy of it and the kernel keeps that high-water mark across exec. So a cspi process's
    peak is its own `peak_memory_kb` statistic (VmHWM, read inside the process), and a peer's
    peak at or below the harness's own is flagged as such."""
    floor_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd.argv, cwd=cmd.cwd, stdout=out, stderr=err, start_new_session=True)
        killed = threading.Event()

        def kill():  # the whole session: a peer's driver runs its solver as a child
            killed.set()
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        timer = threading.Timer(timeout, kill)
        timer.start()
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        timer.cancel()
        timed_out = killed.is_set()
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    r = {"cpu": ru.ru_utime + ru.ru_stime, "wall": wall, "rss_kib": ru.ru_maxrss,
         "rss_floored": ru.ru_maxrss <= floor_kib, "status": "ok", "error": "", "outcome": None,
         "item": cmd.item}
    if timed_out:
        r["status"], r["error"] = "timeout", f"killed after {timeout:g} s"
    elif p.returncode != 0:
        r["status"], r["error"] = "error", f"exit {p.returncode}: {stderr.strip()[-300:]}"
    else:
        try:
            r["outcome"] = cmd.check(stdout)
            if r["outcome"].peak_kib:
                r["rss_kib"], r["rss_floored"] = r["outcome"].peak_kib, False
        except Exception as e:  # noqa: BLE001 - any unreadable output is reported, not raised
            r["status"], r["error"] = "error", f"unreadable output ({e!r}): {stdout.strip()[-200:]}"
    return r


def measure(w, reps, timeout, log):
    """Runs every variant of the workload `reps` times, process by process, alternating the
    tools and reversing their order from one process to the next."""
    tools = list(w.variants)
    runs = {t: [] for t in tools}
    stopped = set()  # tools that timed out: not rerun
    for rep in range(reps):
        sets = {t: SetRun() for t in tools if t not in stopped}
        longest = max(len(w.variants[t]) for t in sets) if sets else 0
        for i in range(longest):
            order = tools if (rep + i) % 2 == 0 else tools[::-1]
            for t in order:
                if t in sets and i < len(w.variants[t]):
                    sets[t].add(run_process(w.variants[t][i], timeout))
        for t, s in sets.items():
            runs[t].append(s)
            if s.status == "timeout":
                stopped.add(t)
            log(f"  r{rep + 1} {w.name:28s} {t:9s} {s.status:7s} {display(w, s):24s} "
                f"cpu={s.cpu:.3f}s wall={s.wall:.3f}s rss={s.rss_kib / 1024:.1f}MiB")
    return runs


def display(w, s):
    """The answer of a set as shown in the table."""
    if s.status in ("timeout", "error"):
        return s.status
    n = sum(s.labels.values())
    if n == 1 and not w.unit:
        return next(iter(s.labels))
    text = ", ".join(f"{k} {lab}" for lab, k in sorted(s.labels.items()))
    return f"{text} ({s.value:,} {w.unit})" if w.unit else text


def summarise(w, runs):
    """Medians per tool and the ratios to cspi; flags wrong and disagreeing answers."""
    out = {}
    for t, sets in runs.items():
        done = [s for s in sets if s.status in ("ok", "WRONG")]
        row = {"status": sets[0].status if not done else ("WRONG" if any(s.wrong for s in done) else "ok"),
               "reps": len(done), "answer": display(w, done[0] if done else sets[0]),
               "value": done[0].value if done else None,
               "cpu_s": statistics.median(s.cpu for s in done) if done else None,
               "wall_s": statistics.median(s.wall for s in done) if done else None,
               "peak_mib": max(s.rss_kib for s in sets) / 1024,
               "peak_is_harness_floor": max(sets, key=lambda s: s.rss_kib).rss_floored,
               "nodes": done[0].nodes if done else None,
               "search_ms": statistics.median(s.search_ms for s in done)
               if done and done[0].search_ms is not None else None,
               "wrong_items": sorted({i for s in done for i in s.wrong}),
               "error": next((s.error for s in sets if s.error), ""),
               "runs": [{"cpu_s": round(s.cpu, 4), "wall_s": round(s.wall, 4), "rss_kib": s.rss_kib,
                         "status": s.status, "value": s.value, "nodes": s.nodes} for s in sets]}
        row["knodes_per_s"] = (row["nodes"] / row["cpu_s"] / 1000
                               if row["nodes"] and row["cpu_s"] else None)
        out[t] = row
    ref = out.get("cspi")
    for t, row in out.items():
        row["cspi_over"] = (ref["cpu_s"] / row["cpu_s"] if t != "cspi" and ref and ref["cpu_s"]
                            and row["cpu_s"] else None)
        row["agrees"] = (None if t == "cspi" or not ref or ref["value"] is None or row["value"] is None
                         else row["value"] == ref["value"])
    return out


# --------------------------------------------------------------------------------------- checking
def cspi_summary(stdout):
    return json.loads(stdout.strip().splitlines()[-1])


def stats_of(summary):
    """The Outcome fields read from cspi's statistics."""
    st = summary.get("stats") or {}
    return {"nodes": st.get("nodes"), "search_ms": st.get("time_ms"), "peak_kib": st.get("peak_memory_kb")}


def last_json(stdout):
    """The peers' drivers end with one JSON line holding "count" (and "complete")."""
    for line in reversed(stdout.strip().splitlines()):
        if line.startswith("{"):
            d = json.loads(line)
            if d.get("complete", True) is False:
                raise ValueError("the peer stopped at its time limit")
            return d
    raise ValueError("no JSON line")


def count_check(expected):
    def check(stdout):
        s = cspi_summary(stdout)
        if s["status"] not in ("ALL_SOLUTIONS", "UNSATISFIABLE"):
            raise ValueError(f"status {s['status']}")
        st = stats_of(s)
        got = s["solutions"]
        return Outcome(str(got), got, None if expected is None else got == expected, **st)
    return check


def peer_count_check(expected):
    def check(stdout):
        got = last_json(stdout)["count"]
        return Outcome(str(got), got, None if expected is None else got == expected)
    return check


def sudoku_grid_ok(givens, grid):
    """Every row, column and box holds 1..N once, and the givens are kept."""
    size = len(grid)
    n = int(round(size ** 0.5))
    flat = [v for row in grid for v in row]
    if len(flat) != size * size or any(g and g != v for g, v in zip(givens, flat)):
        return False
    want = set(range(1, size + 1))
    rows = [grid[r] for r in range(size)]
    cols = [[grid[r][c] for r in range(size)] for c in range(size)]
    boxes = [[grid[br * n + r][bc * n + c] for r in range(n) for c in range(n)]
             for br in range(n) for bc in range(n)]
    return all(set(g) == want for g in rows + cols + boxes)


def sudoku_check(givens):
    def check(stdout):
        lines = [json.loads(l) for l in stdout.splitlines() if l.strip()]
        summary = lines[-1]
        st = stats_of(summary)
        sol = next((l for l in lines if l.get("type") == "solution"), None)
        if summary["status"] == "UNSATISFIABLE":
            return Outcome("unsat", 0, None, **st)  # cross-checked against the peers' solved count
        if sol is None:
            raise ValueError(f"status {summary['status']} without a solution")
        ok = sudoku_grid_ok(givens, sol["values"]["cell"])
        return Outcome("solved" if ok else "bad-grid", 1 if ok else 0, ok, **st)
    return check


def peer_sudoku_check(stdout):
    d = last_json(stdout)
    return Outcome(f"{d['count']} solved", d["count"], None)


def eight_check(expected):
    def check(stdout):
        s = cspi_summary(stdout)
        st = stats_of(s)
        if s["status"] == "UNSATISFIABLE":
            got, moves = "unsolvable", 0
        elif s["status"] == "OPTIMAL":
            got, moves = str(s["objective"]), s["objective"]
        else:
            raise ValueError(f"status {s['status']}")
        return Outcome("unsolvable" if got == "unsolvable" else "optimal", moves,
                       None if expected is None else got == expected, **st)
    return check


def eight_ref_check(expected):
    def check(stdout):
        got = stdout.strip().splitlines()[-1].split("\t")[1]
        moves = 0 if got == "unsolvable" else int(got)
        return Outcome("unsolvable" if got == "unsolvable" else "optimal", moves,
                       None if expected is None else got == expected)
    return check


def boggle_check(expected):
    def check(stdout):
        s = cspi_summary(stdout)
        st = stats_of(s)
        if s["status"] == "UNSATISFIABLE":
            words, score = 0, 0
        elif s["status"] == "ALL_SOLUTIONS":
            words, score = s["solutions"], (s.get("totals") or {}).get("score")
        else:
            raise ValueError(f"status {s['status']}")
        return Outcome("boards", words, None if expected is None else (words, score) == expected, **st)
    return check


def boggle_ref_check(expected):
    def check(stdout):
        f = stdout.strip().splitlines()[-1].split("\t")
        words, score = int(f[2]), int(f[3])
        return Outcome("boards", words, None if expected is None else (words, score) == expected)
    return check


# -------------------------------------------------------------------------------------- workloads
class Setup:
    """Paths, binaries and installed peers; builds the workloads of a tier."""

    def __init__(self, a, work):
        self.a = a
        self.data = Path(a.data)
        self.peers_dir = Path(a.peers_dir)
        self.work = work
        venv = Path(os.environ.get("PEERS_VENV") or Path.home() / ".cache" / "cspi-peers-venv")
        self.venv_py = venv / "bin" / "python"
        # the Python references need only the standard library
        self.ref_py = str(self.venv_py) if self.venv_py.exists() else sys.executable
        self.cspis = {"cspi": (a.cspi_copy, Path(a.models))}
        if a.baseline:
            self.cspis["baseline"] = (a.baseline_copy, Path(a.baseline_models))
        self.threads = {tool: ["--threads", str(a.threads)] if a.threads and has_threads(binary) else []
                        for tool, (binary, _) in self.cspis.items()}
        self.peers = self.installed_peers(a.peers)

    def installed_peers(self, wanted):
        have = {}
        drivers = self.peers_dir.is_dir()
        if drivers and self.venv_py.exists():
            for peer, module in (("choco", "pychoco"), ("cpsat", "ortools")):
                ok = subprocess.run([str(self.venv_py), "-c", f"import {module}"],
                                    capture_output=True).returncode == 0
                have[peer] = ok
            have["gecode"] = bool(shutil.which("minizinc") and shutil.which("fzn-gecode"))
        have["ref"] = drivers
        return [p for p in PEERS if have.get(p) and p in wanted]

    def cspi(self, items):
        """Each cspi binary, one process per item (label, arguments after `solve`, check); a
        leading `models/` in an argument names the binary's own models folder."""
        def argv(tool, binary, models, args):
            return ([str(binary), "solve"] + [str(models / x[len("models/"):]) if x.startswith("models/") else x
                                              for x in args] + self.threads[tool])
        return {tool: [Command(label, argv(tool, binary, models, args), ROOT, check) for label, args, check in items]
                for tool, (binary, models) in self.cspis.items()}

    def peer(self, name, script, items):
        """A peer's driver in the peers' folder, one process per item (label, arguments, check);
        nothing when that peer is not installed or not wanted."""
        if name not in self.peers:
            return {}
        py = self.ref_py if name == "ref" else str(self.venv_py)
        return {name: [Command(label, [py, str(self.peers_dir / script)] + args, self.peers_dir, check)
                       for label, args, check in items]}

    def missing(self, *paths):
        gone = [str(p) for p in paths if not Path(p).exists()]
        if gone:
            print(f"skipped: {', '.join(gone)} not found", file=sys.stderr)
        return bool(gone)

    # -------------------------------------------------------------------- the six groups
    def queens(self, full):
        out = []
        for n in range(10, 15 if full else 13):
            label = f"n={n}"
            v = self.cspi([(label, ["models/n-queens.csp", "--param", label, "--count", "--format", "json"],
                            count_check(QUEENS[n]))])
            for p in ("gecode", "choco"):
                v.update(self.peer(p, "queens.py", [(label, ["--peer", p, str(n)], peer_count_check(QUEENS[n]))]))
            out.append(Workload("queens", f"queens n={n} count", v))
        return out

    def sudoku_sets(self, puzzles, peer_file):
        """cspi one process per puzzle; the peers one process for the set."""
        items = []
        for i, text in enumerate(puzzles):
            givens = [0 if ch in "._0" else SYMBOLS.index(ch) + 1 for ch in text]
            n = int(round(len(givens) ** 0.25))
            items.append((f"#{i + 1}", ["models/sudoku.csp", "--param", f"n={n}", "--param", f"puzzle={text}",
                                        "--format", "json"], sudoku_check(givens)))
        v = self.cspi(items)
        for p in ("choco", "cpsat"):
            v.update(self.peer(p, "sudoku.py", [(peer_file.name, ["--peer", p, "--time-limit",
                                                                  str(self.a.timeout - 10), str(peer_file)],
                                                 peer_sudoku_check)]))
        return v

    def sudoku(self, full):
        sd = self.data / "sudoku"
        top95, hardest = sd / "norvig-top95.txt", sd / "norvig-hardest.txt"
        if self.missing(top95, hardest):
            return []
        out = []
        for name, puzzles in (("sudoku 96 hard 9x9", read_lines(top95) + [INKALA]),
                              ("sudoku 11 hardest 9x9", read_lines(hardest))):
            peer_file = self.work / (name.replace(" ", "-") + ".txt")
            peer_file.write_text("".join(p + "\n" for p in puzzles))
            out.append(Workload("sudoku", name, self.sudoku_sets(puzzles, peer_file)))
        return out

    def alphadoku(self, full):
        folder = self.data / "sudoku" / "alphadoku-25x25"
        if self.missing(folder):
            return []
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXY"
        grids = []
        for i in range(31):
            tokens = (folder / f"alpha_{i}.txt").read_text().split()
            grids.append([0 if t == "_" else letters.index(t) + 1 for t in tokens])
        # the peers read integers (0 = blank); cspi reads its own alphabet, 1-9 then A-P
        peer_file = self.work / "alphadoku-25x25-31.txt"
        peer_file.write_text("".join(" ".join(map(str, g)) + "\n" for g in grids))
        puzzles = ["".join("." if v == 0 else SYMBOLS[v - 1] for v in g) for g in grids]
        return [Workload("alphadoku", "alphadoku 31 25x25", self.sudoku_sets(puzzles, peer_file))]

    def eight(self, full):
        inst = self.data / "eight-puzzle" / "instances.txt"
        ref = self.peers_dir / "eight_puzzle_ref.py"
        if self.missing(inst):
            return []
        starts = [s for s in read_lines(inst) if len(s) == 9]
        starts = starts if full else starts[:12]
        expected = {}
        if ref.exists():  # A*, cross-checked by a BFS over every state (--check); not timed
            r = subprocess.run([self.ref_py, str(ref), "--check"] + starts, capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"{ref} --check failed: {r.stderr[-300:]}")
            expected = dict(l.split("\t")[:2] for l in r.stdout.splitlines() if "\t" in l)
        v = self.cspi([(s, ["models/eight-puzzle.csp", "--param", f"start={s}", "--format", "json"],
                        eight_check(expected.get(s))) for s in starts])
        v.update(self.peer("ref", "eight_puzzle_ref.py", [(s, [s], eight_ref_check(expected.get(s))) for s in starts]))
        return [Workload("eight", f"8-puzzle {len(starts)} instances", v, unit="moves")]

    def crossword(self, full):
        cw = self.data / "crossword"
        if self.missing(cw):
            return []
        out = []
        for d in ((1800, 3000) if full else (1800,)):
            for p in (1, 2, 3, 4):
                for enum in (False, True):
                    args = ["models/crossword-slots.csp", "--param", f"slots={cw}/puzzle-{p}.txt",
                            "--param", f"dict={cw}/words-{d}.txt", "--count", "--format", "json"]
                    args += ["--no-product-count"] if enum else []
                    label = f"p{p}/w{d}"
                    v = self.cspi([(label, args, count_check(CROSSWORD.get((p, d))))])
                    if enum and (p, d) == (2, 1800):
                        v.update(self.peer("gecode", "crossword.py", [(label, [
                            "--peer", "gecode", "--model", "letters", "--time-limit", str(self.a.timeout - 10),
                            f"{cw}/puzzle-{p}.txt", f"{cw}/words-{d}.txt"], peer_count_check(CROSSWORD.get((p, d))))]))
                    mode = "enumeration" if enum else "product"
                    out.append(Workload("crossword", f"crossword p{p} w{d} {mode}", v))
        return out

    def boggle(self, full):
        bd = self.data / "boggle"
        dic = bd / "dictionary-yawl.txt"
        ref = self.peers_dir / "boggle_ref.py"
        if self.missing(dic):
            return []
        boards = sorted(p for p in bd.iterdir() if p.name.startswith("board"))
        boards = boards if full else boards[:6]
        expected = {}
        if ref.exists():  # the reference's answers, once, not timed
            r = subprocess.run([self.ref_py, str(ref), str(dic)] + [str(b) for b in boards],
                               capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"{ref} failed: {r.stderr[-300:]}")
            for line in r.stdout.splitlines():
                f = line.split("\t")
                expected[Path(f[0]).name] = (int(f[2]), int(f[3]))
        v = self.cspi([(b.name, ["models/boggle.csp", "--param", f"board={b}", "--param", f"dict={dic}", "--all",
                                 "--format", "json"], boggle_check(expected.get(b.name))) for b in boards])
        v.update(self.peer("ref", "boggle_ref.py",
                           [(b.name, [str(dic), str(b)], boggle_ref_check(expected.get(b.name))) for b in boards]))
        return [Workload("boggle", f"boggle {len(boards)} boards yawl", v, unit="words")]


def read_lines(path):
    return [l.strip() for l in Path(path).read_text().splitlines() if l.strip() and not l.startswith("#")]


# ---------------------------------------------------------------------------------------- report
def fmt(x, digits=3):
    if x is None:
        return "-"
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.{digits}f}"


def table(results):
    head = ["workload", "tool", "answer", "check", "CPU s", "wall s", "nodes", "knodes/s", "peak MiB", "cspi/x"]
    rows = []
    for w, summary in results:
        for i, (tool, r) in enumerate(summary.items()):
            check = r["status"]
            if r["status"] == "WRONG":
                check = f"WRONG ({len(r['wrong_items'])})"
            elif r["agrees"] is False:
                check = "DISAGREES"
            rows.append([w.name if i == 0 else "", tool, r["answer"], check, fmt(r["cpu_s"]), fmt(r["wall_s"]),
                         "-" if r["nodes"] is None else f"{r['nodes']:,}", fmt(r["knodes_per_s"], 1),
                         ("<=" if r["peak_is_harness_floor"] else "") + fmt(r["peak_mib"], 1),
                         fmt(r["cspi_over"], 2)])
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    right = {4, 5, 6, 7, 8, 9}
    line = lambda cells: "  ".join(str(c).rjust(wd) if j in right else str(c).ljust(wd)
                                   for j, (c, wd) in enumerate(zip(cells, widths))).rstrip()
    return "\n".join([line(head), line(["-" * wd for wd in widths])] + [line(r) for r in rows])


def targets(results):
    """The targets of issue 10, from this run's CPU medians."""
    by = {w.name: s for w, s in results}
    lines = []

    def ratio(names, tool):
        pairs = [(by[n]["cspi"]["cpu_s"], by[n][tool]["cpu_s"]) for n in names
                 if n in by and tool in by[n] and by[n]["cspi"]["cpu_s"] and by[n][tool]["cpu_s"]]
        return sum(a for a, _ in pairs) / sum(b for _, b in pairs) if pairs and len(pairs) == len(names) else None

    for label, names, tool, limit in (
            ("queens n=12-14 count, cspi/Gecode", [f"queens n={n} count" for n in (12, 13, 14)], "gecode", 0.8),
            ("alphadoku 31, cspi/Choco", ["alphadoku 31 25x25"], "choco", 0.8),
            ("8-puzzle 47, cspi/Python A*", ["8-puzzle 47 instances"], "ref", 1.0)):
        r = ratio(names, tool)
        if r is not None:
            lines.append(f"{label}: {r:.2f} (target <= {limit}: {'met' if r <= limit else 'NOT met'})")
    after_before = sorted(((s["baseline"]["cspi_over"], w.name) for w, s in results
                           if "baseline" in s and s["baseline"]["cspi_over"]), reverse=True)
    if after_before:
        slower = [f"{n} {r:.2f}" for r, n in after_before if r >= 1.02]
        lines.append(f"after/before: highest {after_before[0][0]:.2f} ({after_before[0][1]}); "
                     f"at or above 1.02 (a few % is noise here, more for runs of milliseconds): "
                     + (", ".join(slower) if slower else "none"))
    return lines


def problem_lines(results):
    """One line per wrong, failed, timed-out or disagreeing tool, with what went wrong."""
    out = []
    for w, summary in results:
        for t, r in summary.items():
            if r["status"] == "WRONG":
                out.append(f"WRONG: {w.name}, {t}: wrong answer on {', '.join(r['wrong_items'])}")
            elif r["status"] in ("error", "timeout"):
                out.append(f"{r['status'].upper()}: {w.name}, {t}: {r['error']}")
            if r["agrees"] is False:
                out.append(f"DISAGREES: {w.name}, {t} answered {r['value']:,} where cspi answered "
                           f"{summary['cspi']['value']:,}")
    return out


# ------------------------------------------------------------------------------------------- main
def private_copy(binary, folder, name):
    """A copy of the binary, so that a rebuild during the run cannot swap it."""
    src = Path(binary).resolve()
    if not src.is_file():
        sys.exit(f"no cspi binary at {binary}: build it with `cargo build --release` (or pass --cspi)")
    dst = Path(folder) / name
    shutil.copy2(src, dst)
    digest = hashlib.sha256()
    with open(dst, "rb") as f:  # in chunks: this harness's own peak RSS bounds what wait4 can see
        for chunk in iter(lambda: f.read(1 << 16), b""):
            digest.update(chunk)
    return dst, digest.hexdigest()


def default_models(binary, fallback):
    """CHECKOUT/target/release/cspi -> CHECKOUT/models, when that exists."""
    p = Path(binary).resolve()
    if p.parent.name == "release" and p.parent.parent.name == "target":
        models = p.parent.parent.parent / "models"
        if models.is_dir():
            return str(models)
    return fallback


def has_threads(binary):
    """Whether this cspi binary takes `--threads` (older ones searched on one thread)."""
    r = subprocess.run([str(binary), "solve", "--help"], capture_output=True, text=True)
    return "--threads" in r.stdout


def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def git(*args):
    r = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="See the header of benches/classic.py for the details.")
    ap.add_argument("--tier", choices=["quick", "full"], default="quick")
    ap.add_argument("--only", default=",".join(GROUPS), help="comma-separated: " + ", ".join(GROUPS))
    ap.add_argument("--reps", type=int, help="repetitions (median); default quick 1, full 3")
    ap.add_argument("--cspi", default=str(ROOT / "target" / "release" / "cspi"))
    ap.add_argument("--models", help="its models (default: its checkout's models/)")
    ap.add_argument("--baseline", help="a second cspi binary, run in the same run (after/before ratios)")
    ap.add_argument("--baseline-models", help="the baseline's models (default: its checkout's models/)")
    ap.add_argument("--peers", default="all", help="comma-separated: " + ", ".join(PEERS) + "; or all, none")
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--peers-dir", default=str(ROOT.parent / "shared" / "peers"))
    ap.add_argument("--threads", type=int, help="pass --threads N to each cspi binary that has it "
                    "(1 for the per-core ratio to the peers); default: each binary's own default")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--json", help="results file (default target/classic/classic-DATE.json)")
    a = ap.parse_args()
    only = [g.strip() for g in a.only.split(",") if g.strip()]
    unknown = [g for g in only if g not in GROUPS]
    if unknown:
        ap.error(f"unknown workload group(s) {', '.join(unknown)}; choose from {', '.join(GROUPS)}")
    a.only = only
    names = {"all": PEERS, "none": []}
    a.peers = names[a.peers] if a.peers in names else [p.strip() for p in a.peers.split(",") if p.strip()]
    unknown = [p for p in a.peers if p not in PEERS]
    if unknown:
        ap.error(f"unknown peer(s) {', '.join(unknown)}; choose from {', '.join(PEERS)}, all, none")
    a.reps = a.reps or (3 if a.tier == "full" else 1)
    if a.threads is not None and a.threads < 1:
        ap.error("--threads must be at least 1")
    if a.reps < 1 or a.timeout <= 10:
        ap.error("--reps must be at least 1 and --timeout above 10 seconds")
    a.models = a.models or default_models(a.cspi, str(ROOT / "models"))
    if a.baseline and not a.baseline_models:
        a.baseline_models = default_models(a.baseline, a.models)
    return a


def main():
    a = parse_args()
    work = ROOT / "target" / "classic"
    work.mkdir(parents=True, exist_ok=True)
    log = lambda msg: print(msg, file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory(prefix="classic-bin-") as bins:
        a.cspi_copy, cspi_sha = private_copy(a.cspi, bins, "cspi")
        meta = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "tier": a.tier, "reps": a.reps, "threads": a.threads,
                "cspi": {"path": a.cspi, "sha256": cspi_sha, "models": a.models,
                         "version": subprocess.run([str(a.cspi_copy), "--version"], capture_output=True,
                                                   text=True).stdout.strip()},
                "script_checkout": git("rev-parse", "--short", "HEAD"), "nproc": os.cpu_count(),
                "uptime_before": uptime()}
        if a.baseline:
            a.baseline_copy, base_sha = private_copy(a.baseline, bins, "baseline")
            meta["baseline"] = {"path": a.baseline, "sha256": base_sha, "models": a.baseline_models}
        setup = Setup(a, work)
        meta["peers"] = setup.peers
        log(f"classic: tier {a.tier}, median of {a.reps}, cspi {a.cspi}"
            + (f", baseline {a.baseline} (models {a.baseline_models})" if a.baseline else "")
            + f", peers: {', '.join(setup.peers) or 'none'}\nuptime: {meta['uptime_before']}")
        results = []
        for group in a.only:
            for w in getattr(setup, group)(a.tier == "full"):
                load = uptime()
                log(f"== {w.name}: {', '.join(w.variants)}; {load}")
                summary = summarise(w, measure(w, a.reps, a.timeout, log))
                results.append((w, summary))
                for r in summary.values():
                    r["load_before"] = load
        meta["uptime_after"] = uptime()
    print(f"cspi benches/classic.py, tier {a.tier}, median of {a.reps}; {meta['date']}")
    print(f"uptime before: {meta['uptime_before']}\nuptime after:  {meta['uptime_after']}")
    print(f"threads: {'--threads ' + str(a.threads) if a.threads else 'each binary default'}")
    print(f"cspi: {a.cspi} ({cspi_sha[:12]})" + (f"; baseline: {a.baseline} ({base_sha[:12]})" if a.baseline else ""))
    print("cspi/x = cspi's median CPU / x's (below 1: cspi faster; on baseline rows: after/before)\n")
    print(table(results))
    notes = targets(results)
    if notes:
        print("\n" + "\n".join(notes))
    path = Path(a.json) if a.json else work / f"classic-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(json.dumps({"meta": meta, "workloads": [
        {"group": w.group, "name": w.name, "tools": s} for w, s in results], "targets": notes}, indent=1) + "\n")
    problems = problem_lines(results)
    if problems:
        print("\n" + "\n".join(problems))
    print(f"\nresults: {path}")
    # a peer that times out is a figure (it is slower than the timeout); anything else is a failure
    if any(r["status"] in ("WRONG", "error") or r["agrees"] is False
           or (r["status"] == "timeout" and t in ("cspi", "baseline"))
           for _, s in results for t, r in s.items()):
        sys.exit(1)


if __name__ == "__main__":
    main()
