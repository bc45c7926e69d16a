#!/usr/bin/env python3
"""Times each phase of cspi on generated models at sizes N and 4N (issue 25).

    python3 scripts/phases.py [--cspi target/release/cspi] [--n 2000] [--timeout 60]

Each family grows one dimension that once cost more than its size: wide
sparse domains (width 2^62, a handful of values), empty constraint sets,
deep data, long operator chains, many data members, large alphabets. For
each it prints, at N and 4N, the time spent loading (parse, check, lower:
the wall time less the search time `--stats` reports), the search time and
the peak memory, and the ratios 4N/N: near 4 (or less) is linear, near 16
quadratic; TIMEOUT is a hang. A measurement, not a test
(tests/limits.rs pins the cases by their outcome); run it on an idle machine.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time


def sparse(n, d):
    # n variables over {0, 2^62}: the count is 2^n, found by components.
    body = "".join(f"var x{i} in {{0, 4611686018427387904}};\n" for i in range(n // 100 + 1))
    return body, ["--count"]


def sparse_fc(n, d):
    body, args = sparse(n, d)
    return body, args + ["--propagation", "fc", "--node-limit", str(50 * n)]


def empty(n, d):
    return f"var x[1..{n}] in 0..1;\n", ["--count", "--threads", "2"]


def wide_split(n, d):
    return f"var x in 0..{n * 1000};\n", ["--count", "--threads", "2", "--node-limit", str(n)]


def long_data(n, d):
    with open(os.path.join(d, "long.json"), "w") as f:
        f.write('{"e": [' + ",".join(["1"] * (50 * n)) + "]}")
    return "param e = [1];\n", ["--data", os.path.join(d, "long.json")]


def deep_data(n, d):
    # Past the depth cap (256): refused with a diagnostic after `n` levels
    # of long arrays, never a quadratic walk.
    with open(os.path.join(d, "deep.json"), "w") as f:
        f.write('{"e": [' + ",".join(["1"] * (50 * n)) + '], "d": ' + "[" * 300 + "1" + "]" * 300 + "}")
    return "param e = [1];\nparam d = 1;\n", ["--data", os.path.join(d, "deep.json")]


def members(n, d):
    with open(os.path.join(d, "members.json"), "w") as f:
        f.write("{" + ",".join(f'"p{i}": {i}' for i in range(n)) + "}")
    params = "".join(f"param p{i} = 0;\n" for i in range(n))
    return params, ["--data", os.path.join(d, "members.json")]


def chain(op):
    def make(n, d):
        terms = f" {op} ".join(["x"] * (10 * n))
        return f"var x in 1..1;\nconstraint {terms} >= 0;\n", []

    return make


def logic_chain(n, d):
    terms = " && ".join(["x >= 0"] * (10 * n))
    return f"var x in 1..1;\nconstraint {terms};\n", []


def alphabet(n, d):
    # A 2x2 grid of word variables over words of n distinct letters.
    letters = [chr(0x20000 + i) for i in range(4 * n)]
    words = {letters[i] + letters[(i * 7 + 1) % len(letters)] for i in range(len(letters))}
    with open(os.path.join(d, "words.txt"), "w") as f:
        f.write("\n".join(sorted(words)) + "\n")
    model = (
        'let d = dictionary("words.txt");\n'
        "var a in words(d, 2);\nvar b in words(d, 2);\n"
        "var c in words(d, 2);\nvar e in words(d, 2);\n"
        "constraint a[1] == c[1];\nconstraint a[2] == e[1];\n"
        "constraint b[1] == c[2];\nconstraint b[2] == e[2];\n"
    )
    return model, ["--count"]


FAMILIES = [
    ("sparse wide domains, count", sparse),
    ("sparse wide domains, fc", sparse_fc),
    ("empty constraint set, 2 threads", empty),
    ("one wide domain, split", wide_split),
    ("long data", long_data),
    ("long data, then past the depth cap", deep_data),
    ("many data members", members),
    ("chain of +", chain("+")),
    ("chain of *", chain("*")),
    ("chain of &&", logic_chain),
    ("large alphabet crossword", alphabet),
]


def run(cspi, make, n, timeout):
    with tempfile.TemporaryDirectory() as d:
        model, args = make(n, d)
        path = os.path.join(d, "m.csp")
        with open(path, "w") as f:
            f.write(model)
        start = time.monotonic()
        try:
            p = subprocess.run([cspi, "solve", path, *args, "--stats"], cwd=d,
                               capture_output=True, timeout=timeout, text=True)
        except subprocess.TimeoutExpired:
            return None, "TIMEOUT"
        took = time.monotonic() - start
        stats = {}
        for line in p.stderr.splitlines():
            key, _, value = line.partition(":")
            if value.strip().isdigit():
                stats[key.strip()] = int(value)
        search = stats.get("time_ms", 0) / 1000
        phases = (max(took - search, 0.0), search, stats.get("peak_memory_kb", 0) / 1024)
        last = [l for l in (p.stdout + p.stderr).splitlines() if ":" not in l or "error" in l]
        return phases, f"exit {p.returncode}: {(last or [''])[-1][:50]}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cspi", default="target/release/cspi")
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()
    a.cspi = os.path.abspath(a.cspi)
    print(f"{'family':34} {'load N':>7} {'4N':>7} {'ratio':>5} {'search N':>8} {'4N':>7} "
          f"{'ratio':>5} {'MB N':>6} {'4N':>6}  outcome at 4N")
    for name, make in FAMILIES:
        p1, _ = run(a.cspi, make, a.n, a.timeout)
        p4, out = run(a.cspi, make, 4 * a.n, a.timeout)
        cells = []
        for k in range(2):
            t1, t4 = (p[k] if p else None for p in (p1, p4))
            fmt = lambda t: f"{t:.3f}" if t is not None else "TIMEOUT"
            # Below 5 ms a ratio is noise (process start, the clock's grain).
            ratio = f"{t4 / t1:.1f}" if t1 and t4 and t1 >= 0.005 else "-"
            cells.append(f"{fmt(t1):>7} {fmt(t4):>7} {ratio:>5}")
        mem = " ".join(f"{p[2]:6.0f}" if p else "     -" for p in (p1, p4))
        print(f"{name:34} {cells[0]} {'':1}{cells[1]} {mem}  {out}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
