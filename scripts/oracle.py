#!/usr/bin/env python3
"""Outside-oracle differential: random small integer models, written both in
cspi's language and in MiniZinc, counted by cspi (`--count`) and by MiniZinc
with Gecode (`-a`). Every count must agree. The oracle is another solver
written by other people, so it shares none of cspi's parser, folding,
lowering or propagators.

    scripts/oracle.py [CASES] [SEED]     (default 300 cases, seed 1)

Needs `minizinc` with the Gecode solver (`../shared/peers/setup.sh` installs
both); prints `skipped: minizinc not found` and exits 0 without it. Uses
`--no-half-reifications`: MiniZinc 2.6.4 otherwise miscounts `bool2int` in
negative contexts. Values stay small (Gecode's integers are 32-bit), and
division and remainder only by non-zero constants, whose undefinedness rules
differ between the two languages. Exits 1 on the first disagreement, printing
both models.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CSPI = os.environ.get("CSPI", os.path.join(ROOT, "target", "release", "cspi"))
NAMES = ["a", "b", "c", "d"]
OPS = ["==", "!=", "<", "<=", ">", ">="]


class Both:
    """One expression in the two syntaxes."""

    def __init__(self, csp, mzn):
        self.csp, self.mzn = csp, mzn


def var(r):
    n = r.choice(NAMES)
    return Both(n, n)


def const(r, lo=-6, hi=6):
    k = r.randint(lo, hi)
    return Both(f"({k})", f"({k})")


def term(r, depth):
    if depth == 0 or r.random() < 0.3:
        return var(r) if r.random() < 0.75 else const(r)
    kind = r.randrange(9)
    x, y = term(r, depth - 1), term(r, depth - 1)
    if kind == 0:
        return Both(f"({x.csp} + {y.csp})", f"({x.mzn} + {y.mzn})")
    if kind == 1:
        return Both(f"({x.csp} - {y.csp})", f"({x.mzn} - {y.mzn})")
    if kind == 2:
        return Both(f"({x.csp} * {y.csp})", f"({x.mzn} * {y.mzn})")
    if kind == 3:
        return Both(f"abs({x.csp})", f"abs({x.mzn})")
    if kind == 4:
        return Both(f"min({x.csp}, {y.csp})", f"min({x.mzn}, {y.mzn})")
    if kind == 5:
        return Both(f"max({x.csp}, {y.csp})", f"max({x.mzn}, {y.mzn})")
    if kind == 6:
        k = r.choice([-3, -2, 2, 3])
        if r.random() < 0.5:
            return Both(f"({x.csp} / {k})", f"({x.mzn} div {k})")
        return Both(f"({x.csp} % {k})", f"({x.mzn} mod {k})")
    if kind == 7:
        c = comparison(r, 0)
        return Both(
            f"(if {c.csp} then {x.csp} else {y.csp} end)",
            f"(if {c.mzn} then {x.mzn} else {y.mzn} endif)",
        )
    c = comparison(r, 0)
    return Both(f"({c.csp})", f"bool2int({c.mzn})")


def comparison(r, depth):
    x, y = term(r, depth), term(r, depth)
    op = r.choice(OPS)
    return Both(f"{x.csp} {op} {y.csp}", f"{x.mzn} {op} {y.mzn}")


def formula(r, depth):
    kind = r.randrange(7)
    if depth == 0 or kind < 3:
        return comparison(r, 2)
    p, q = formula(r, depth - 1), formula(r, depth - 1)
    if kind == 3:
        return Both(f"({p.csp} || {q.csp})", f"({p.mzn} \\/ {q.mzn})")
    if kind == 4:
        return Both(f"({p.csp} -> {q.csp})", f"({p.mzn} -> {q.mzn})")
    if kind == 5:
        return Both(f"!({p.csp})", f"not ({p.mzn})")
    return Both(f"({p.csp} && {q.csp})", f"({p.mzn} /\\ {q.mzn})")


def model(r):
    csp, mzn = [], ['include "alldifferent.mzn";']
    for n in NAMES:
        lo = r.randint(-4, 2)
        hi = lo + r.randint(0, 5)
        csp.append(f"var {n} in {lo}..{hi};")
        mzn.append(f"var {lo}..{hi}: {n};")
    for _ in range(r.randint(1, 3)):
        if r.random() < 0.15:
            vs = r.sample(NAMES, 3)
            csp.append(f"constraint alldifferent([{', '.join(vs)}]);")
            mzn.append(f"constraint alldifferent([{', '.join(vs)}]);")
        else:
            f = formula(r, 2)
            csp.append(f"constraint {f.csp};")
            mzn.append(f"constraint {f.mzn};")
    mzn.append("solve satisfy;")
    return "\n".join(csp) + "\n", "\n".join(mzn) + "\n"


def cspi_count(path):
    out = subprocess.run(
        [CSPI, "solve", "--count", "--check-solutions", path],
        capture_output=True, text=True, timeout=120,
    )
    m = re.search(r"^(\d+) solutions?", out.stdout, re.M)
    if out.returncode != 0 or not m:
        return f"exit {out.returncode}: {out.stdout}{out.stderr}"
    return int(m.group(1))


def minizinc_count(path):
    out = subprocess.run(
        ["minizinc", "--solver", "gecode", "-a", "--no-half-reifications", path],
        capture_output=True, text=True, timeout=120,
    )
    if out.returncode != 0:
        return f"exit {out.returncode}: {out.stdout}{out.stderr}"
    if "=====UNSATISFIABLE=====" in out.stdout:
        return 0
    return out.stdout.count("----------")


def main():
    cases = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    if shutil.which("minizinc") is None:
        print("skipped: minizinc not found (../shared/peers/setup.sh installs it)")
        return 0
    if not os.access(CSPI, os.X_OK):
        print(f"{CSPI} not built: run cargo build --release first", file=sys.stderr)
        return 2
    r = random.Random(seed)
    solutions = 0
    with tempfile.TemporaryDirectory() as d:
        for case in range(cases):
            csp, mzn = model(r)
            pc, pm = os.path.join(d, "m.csp"), os.path.join(d, "m.mzn")
            open(pc, "w").write(csp)
            open(pm, "w").write(mzn)
            ours, theirs = cspi_count(pc), minizinc_count(pm)
            if ours != theirs:
                print(f"case {case} (seed {seed}): cspi {ours!r}, MiniZinc/Gecode {theirs!r}")
                print(csp)
                print(mzn)
                return 1
            solutions += ours
    print(f"{cases} models agree with MiniZinc/Gecode ({solutions} solutions in all, seed {seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
