#!/usr/bin/env python3
"""Outside-oracle differential: random small models, written both in
cspi's language and in MiniZinc, solved by cspi and by MiniZinc with Gecode.
Counts and optima must agree. The oracle is another solver written by other
people, so it shares none of cspi's parser, folding, lowering or
propagators.

    scripts/oracle.py [CASES] [SEED] [--batch K] [--only alldifferent,lex,...]

(default 300 cases, seed 1, 40 models per MiniZinc run, every global)

A model has integer variables (ranges and listed sets), now and then a
boolean, an enum variable (an integer 1..n on the MiniZinc side) and one or
two set variables,
arithmetic formulas, and global constraints whose arguments repeat
variables and mix a variable with its views (`[a, b + 1, a - 2, a]`):
alldifferent, lex_less and lex_lesseq, global_cardinality, nvalue,
inverse, circuit, subcircuit, element, bin_packing, cumulative,
disjunctive, count, table, mdd, regular, among, at_most, at_least, exactly
and sequence, and set variables (`card`, `in`, `union`, `intersect`, `diff`,
`symdiff`, `subset`, `superset`, equality, `disjoint`, `all_disjoint`,
`partition_set`; `--only set` for those alone). A third of the models
minimise an expression.

cspi solves each model twice: a count (`--count`, or `--all` with the
solutions counted) under a random variable selection, value selection,
propagation level and counting mode, and one of: the count on two threads,
the count in three parts (`--part K/3`, then `cspi merge`), every solution
under another strategy, or, with an objective, the optimum under random
restarts, LNS and value guidance. About a quarter of the runs learn
(`--learning on`). Every run uses `--check-solutions`.

MiniZinc solves `K` models in one run (one `which` variable picks the
model, each model's constraints hold when it is picked, its variables are
fixed otherwise), enumerating every solution with its objective value: the
count of each model, and its minimum. A disagreement is confirmed by
MiniZinc on the model alone (no reification) before it is reported.

Needs `minizinc` with the Gecode solver (`../shared/peers/setup.sh` installs
both); prints `skipped: minizinc not found` and exits 0 without it. Uses
`--no-half-reifications`: MiniZinc 2.6.4 otherwise miscounts `bool2int` in
negative contexts. Values stay small (Gecode's integers are 32-bit), and
division and remainder only by non-zero constants, whose undefinedness rules
differ between the two languages. Exits 1 on the first confirmed
disagreement, printing both models.
"""
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CSPI = os.environ.get("CSPI", os.path.join(ROOT, "target", "release", "cspi"))
OPS = ["==", "!=", "<", "<=", ">", ">="]
MZN_OP = {"==": "=", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
VARS = ["input", "mrv", "degree", "mrv-degree", "degree-mrv", "dom-wdeg", "random", "smallest"]
VALS = ["min", "max", "random", "lcv", "split"]  # score needs a dictionary
LEVELS = ["ac", "ac", "fc", "none"]


class Both:
    """One expression in the two syntaxes."""

    def __init__(self, csp, mzn, batch=None):
        self.csp, self.mzn = csp, mzn
        # The MiniZinc text in a batch, where it is reified, when not `mzn`.
        self.batch = batch or mzn


def both_list(items):
    return Both(
        "[" + ", ".join(i.csp for i in items) + "]",
        "[" + ", ".join(i.mzn for i in items) + "]",
    )


def ints(values):
    text = "[" + ", ".join(str(v) for v in values) + "]"
    return Both(text, text)


class Model:
    """One random model: its variables and constraints in both syntaxes."""

    def __init__(self, r, prefix):
        self.r, self.prefix = r, prefix
        self.decls_csp, self.decls_mzn = [], []
        self.ints = []  # (name as Both, lo, hi)
        self.fixed = []  # MiniZinc: each variable's value when the model is not picked
        self.enums = []  # (name as Both)
        self.bools = []
        self.cons = []
        self.objective = None
        names = ["a", "b", "c", "d"][: r.randint(2, 4)]
        for n in names:
            m = prefix + n
            lo = r.randint(-3, 2)
            hi = lo + r.randint(0, 4)
            if r.random() < 0.25 and hi > lo:
                vals = sorted(set(r.randint(lo, hi + 2) for _ in range(3)))
                s = ", ".join(map(str, vals))
                self.decls_csp.append(f"var {n} in {{{s}}};")
                self.decls_mzn.append(f"var {{{s}}}: {m};")
                lo, hi = vals[0], vals[-1]
                self.fixed.append(f"{m} = {vals[0]}")
            else:
                self.decls_csp.append(f"var {n} in {lo}..{hi};")
                self.decls_mzn.append(f"var {lo}..{hi}: {m};")
                self.fixed.append(f"{m} = {lo}")
            self.ints.append((Both(n, m), lo, hi))
        if r.random() < 0.3:
            m = prefix + "p"
            self.decls_csp.append("var p: bool;")
            self.decls_mzn.append(f"var bool: {m};")
            self.fixed.append(f"{m} = false")
            self.bools.append(Both("p", m))
        if r.random() < 0.3:
            k = r.randint(2, 3)
            self.enum_size = k
            members = ", ".join(f"e{i}" for i in range(1, k + 1))
            self.decls_csp.append(f"enum E = {{{members}}};")
            for n in ["u", "w"][: r.randint(1, 2)]:
                m = prefix + n
                self.decls_csp.append(f"var {n}: E;")
                self.decls_mzn.append(f"var 1..{k}: {m};")
                self.fixed.append(f"{m} = 1")
                self.enums.append(Both(n, m))
        self.sets = []  # (name as Both, lo, hi)
        if r.random() < (0.6 if "set" in ONLY else 0.2):
            for n in ["s", "t"][: r.randint(1, 2)]:
                m = prefix + n
                lo = r.randint(-1, 1)
                hi = lo + r.randint(0, 3)
                self.decls_csp.append(f"var {n}: set of {lo}..{hi};")
                self.decls_mzn.append(f"var set of {lo}..{hi}: {m};")
                self.fixed.append(f"{m} = {{}}")
                self.sets.append((Both(n, m), lo, hi))

    # -- terms -------------------------------------------------------------

    def var(self):
        v, _, _ = self.r.choice(self.ints)
        return v

    def view(self):
        """A variable, a shifted variable, a boolean as 0/1, or a constant."""
        r = self.r
        x = r.random()
        if self.bools and x < 0.1:
            b = r.choice(self.bools)
            return Both(b.csp, f"bool2int({b.mzn})")
        if x < 0.55:
            return self.var()
        if x < 0.9:
            v, k = self.var(), r.choice([-2, -1, 1, 2, 3])
            sign = "+" if k > 0 else "-"
            return Both(f"({v.csp} {sign} {abs(k)})", f"({v.mzn} {sign} {abs(k)})")
        k = r.randint(-1, 3)
        return Both(f"({k})", f"({k})")

    def views(self, n):
        """`n` views, with at least one variable repeated when it can be."""
        items = [self.view() for _ in range(n)]
        for _ in range(self.r.randint(1, 2) if n >= 2 and self.r.random() < 0.8 else 0):
            i, j = self.r.sample(range(n), 2)
            items[j] = items[i] if self.r.random() < 0.4 else self.shifted(items[i])
        return items

    def shifted(self, t):
        k = self.r.choice([-2, -1, 1, 2])
        sign = "+" if k > 0 else "-"
        return Both(f"({t.csp} {sign} {abs(k)})", f"({t.mzn} {sign} {abs(k)})")

    def term(self, depth):
        r = self.r
        if depth == 0 or r.random() < 0.3:
            return self.view()
        kind = r.randrange(9)
        x, y = self.term(depth - 1), self.term(depth - 1)
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
            c = self.comparison(0)
            return Both(
                f"(if {c.csp} then {x.csp} else {y.csp} end)",
                f"(if {c.mzn} then {x.mzn} else {y.mzn} endif)",
            )
        c = self.comparison(0)
        return Both(f"({c.csp})", f"bool2int({c.mzn})")

    def comparison(self, depth):
        r = self.r
        if self.enums and r.random() < 0.15:
            u = r.choice(self.enums)
            op = r.choice(OPS)
            if r.random() < 0.5 and len(self.enums) > 1:
                w = [e for e in self.enums if e is not u][0]
                return Both(f"{u.csp} {op} {w.csp}", f"{u.mzn} {MZN_OP[op]} {w.mzn}")
            k = r.randint(1, self.enum_size)
            return Both(f"{u.csp} {op} e{k}", f"{u.mzn} {MZN_OP[op]} {k}")
        if self.bools and r.random() < 0.1:
            b = r.choice(self.bools)
            return Both(b.csp, b.mzn) if r.random() < 0.5 else Both(f"!{b.csp}", f"not {b.mzn}")
        x, y = self.term(depth), self.term(depth)
        op = r.choice(OPS)
        return Both(f"{x.csp} {op} {y.csp}", f"{x.mzn} {MZN_OP[op]} {y.mzn}")

    def formula(self, depth):
        r = self.r
        kind = r.randrange(7)
        if depth == 0 or kind < 3:
            return self.comparison(2)
        p, q = self.formula(depth - 1), self.formula(depth - 1)
        if kind == 3:
            return Both(f"({p.csp} || {q.csp})", f"({p.mzn} \\/ {q.mzn})")
        if kind == 4:
            return Both(f"({p.csp} -> {q.csp})", f"({p.mzn} -> {q.mzn})")
        if kind == 5:
            return Both(f"!({p.csp})", f"not ({p.mzn})")
        return Both(f"({p.csp} && {q.csp})", f"({p.mzn} /\\ {q.mzn})")

    # -- globals -----------------------------------------------------------

    def global_constraint(self):
        r = self.r
        kind = r.choice([g for g in GLOBALS if not ONLY or g.__name__[2:] in ONLY])
        return kind(self, r)

    def add(self, c):
        self.cons.append(c)

    def finish(self):
        r = self.r
        if r.random() < 0.33:
            parts = [self.view() for _ in range(r.randint(1, 3))]
            if self.enums and r.random() < 0.3:
                # An enum variable's position in its enum (1-based) counts too.
                u = r.choice(self.enums)
                parts.append(Both(f"(if {u.csp} == e1 then 1 else 0 end)", f"bool2int({u.mzn} = 1)"))
            coefs = [r.choice([-2, -1, 1, 2, 3]) for _ in parts]
            self.objective = Both(
                " + ".join(f"{k} * {p.csp}" for k, p in zip(coefs, parts)),
                " + ".join(f"{k} * {p.mzn}" for k, p in zip(coefs, parts)),
            )

    def csp(self, with_objective):
        lines = list(self.decls_csp)
        lines += [f"constraint {c.csp};" for c in self.cons]
        if with_objective and self.objective:
            lines.append(f"minimize {self.objective.csp};")
        return "\n".join(lines) + "\n"

    def mzn_constraints(self):
        return " /\\ ".join(f"({c.batch})" for c in self.cons) or "true"

    def outputs(self):
        """Every MiniZinc variable, as integers (a set as its members' 0/1)."""
        return [v.mzn for v, _, _ in self.ints] + [e.mzn for e in self.enums] + [
            f"bool2int({b.mzn})" for b in self.bools
        ] + [f"bool2int({k} in {v.mzn})" for v, lo, hi in self.sets for k in range(lo, hi + 1)]

    def set_term(self):
        """A set variable or a constant set."""
        r = self.r
        if r.random() < 0.8:
            return r.choice(self.sets)[0]
        lo = r.randint(-1, 2)
        if r.random() < 0.5:
            text = f"({lo}..{lo + r.randint(-1, 2)})"
        else:
            text = "{" + ", ".join(map(str, sorted(set(r.randint(-1, 3) for _ in range(r.randint(0, 3)))))) + "}"
            if text == "{}":
                # MiniZinc cannot type an empty literal in some calls.
                return Both(text, "(1..0)")
        return Both(text, text)

    def set_expr(self):
        """A set term, or two combined by a set operation."""
        r = self.r
        a = self.set_term()
        if r.random() < 0.5:
            return a
        b, op = self.set_term(), r.choice(["union", "intersect", "diff", "symdiff"])
        if op == "symdiff":
            # MiniZinc 2.6.4 cannot bound the cardinality of a `symdiff`.
            return Both(f"({a.csp} symdiff {b.csp})",
                        f"(({a.mzn} diff {b.mzn}) union ({b.mzn} diff {a.mzn}))")
        return Both(f"({a.csp} {op} {b.csp})", f"({a.mzn} {op} {b.mzn})")

    def mzn_alone(self):
        lines = [INCLUDES] + self.decls_mzn
        lines += [f"constraint {c.mzn};" for c in self.cons]
        obj = self.objective.mzn if self.objective else "0"
        lines.append("solve satisfy;")
        lines.append(f'output ["\\({obj}) ", show([{", ".join(self.outputs())}]), "\\n"];')
        return "\n".join(lines) + "\n"


def g_alldifferent(m, r):
    xs = both_list(m.views(r.randint(2, 4)))
    return Both(f"alldifferent({xs.csp})", f"alldifferent({xs.mzn})")


def g_lex(m, r):
    n = r.randint(1, 3)
    items = m.views(2 * n)
    xs, ys = both_list(items[:n]), both_list(items[n:])
    name = r.choice(["lex_less", "lex_lesseq"])
    return Both(f"{name}({xs.csp}, {ys.csp})", f"{name}({xs.mzn}, {ys.mzn})")


def g_gcc(m, r):
    xs = both_list(m.views(r.randint(1, 4)))
    vals = r.sample(range(-1, 4), r.randint(1, 2))
    cs = both_list(m.views(len(vals)))
    v = ints(vals)
    return Both(
        f"global_cardinality({xs.csp}, {v.csp}, {cs.csp})",
        f"global_cardinality({xs.mzn}, {v.mzn}, {cs.mzn})",
    )


def g_nvalue(m, r):
    items = m.views(r.randint(2, 5))
    n, xs = items[0], both_list(items[1:])
    return Both(f"nvalue({n.csp}, {xs.csp})", f"nvalue({n.mzn}, {xs.mzn})")


def g_inverse(m, r):
    n = r.randint(1, 2)
    items = m.views(2 * n)
    f, g = both_list(items[:n]), both_list(items[n:])
    return Both(f"inverse({f.csp}, {g.csp})", f"inverse({f.mzn}, {g.mzn})")


def is_circuit(x, sub):
    """Whether successors `x` (1-based) form one circuit (`sub`: over the
    nodes that do not point to themselves, maybe none)."""
    n = len(x)
    if sorted(x) != list(range(1, n + 1)):
        return False
    inside = [i for i in range(n) if x[i] != i + 1]
    if not sub and n > 1 and len(inside) != n:
        return False
    if not inside:
        return True
    k, steps = x[inside[0]] - 1, 1
    while k != inside[0]:
        k, steps = x[k] - 1, steps + 1
    return steps == len(inside)


def g_circuit(m, r):
    n = r.randint(1, 4)
    xs = both_list(m.views(n))
    name = r.choice(["circuit", "subcircuit"])
    # Reified (sub)circuit is not supported by MiniZinc: in a batch, the
    # successor arrays it allows (enumerated here) as a table.
    rows = [w for w in itertools.product(range(1, n + 1), repeat=n) if is_circuit(w, name == "subcircuit")]
    table = "[|" + "|".join(", ".join(map(str, w)) for w in rows) + "|]"
    return Both(f"{name}({xs.csp})", f"{name}({xs.mzn})", f"table({xs.mzn}, {table})")


def g_element(m, r):
    items = m.views(r.randint(1, 4))
    # A constant index out of range is an error when cspi loads the model.
    index, other = m.shifted(m.var()) if r.random() < 0.5 else m.var(), m.view()
    op = r.choice(OPS)
    arr = both_list(items)
    return Both(
        f"{arr.csp}[{index.csp}] {op} {other.csp}",
        f"{arr.mzn}[{index.mzn}] {MZN_OP[op]} {other.mzn}",
    )


def g_bin_packing(m, r):
    bins = r.randint(1, 2)
    items = m.views(bins + r.randint(1, 3))
    load, bin_ = both_list(items[:bins]), both_list(items[bins:])
    w = ints([r.randint(0, 3) for _ in items[bins:]])
    return Both(
        f"bin_packing({load.csp}, {bin_.csp}, {w.csp})",
        f"bin_packing_load({load.mzn}, {bin_.mzn}, {w.mzn})",
    )


def g_cumulative(m, r):
    n = r.randint(2, 3)
    items = m.views(n + 1)
    # A capacity below 0 is where the two definitions part: MiniZinc's
    # requires it to be at least 0 once a task has a duration, cspi's only
    # bounds the tasks with both a duration and a height.
    s, c = both_list(items[:n]), Both(f"abs({items[n].csp})", f"abs({items[n].mzn})")
    p, h = ints([r.randint(0, 3) for _ in range(n)]), ints([r.randint(0, 3) for _ in range(n)])
    return Both(
        f"cumulative({s.csp}, {p.csp}, {h.csp}, {c.csp})",
        f"cumulative({s.mzn}, {p.mzn}, {h.mzn}, {c.mzn})",
    )


def g_disjunctive(m, r):
    n = r.randint(2, 4)
    s = both_list(m.views(n))
    p = ints([r.randint(0, 3) for _ in range(n)])
    return Both(f"disjunctive({s.csp}, {p.csp})", f"disjunctive({s.mzn}, {p.mzn})")


def g_count(m, r):
    items = m.views(r.randint(1, 4))
    v, other, op = r.randint(-1, 3), m.view(), r.choice(OPS)
    xs = both_list(items)
    terms = " + ".join(f"bool2int({i.mzn} = {v})" for i in items)
    return Both(f"count({xs.csp}, {v}) {op} {other.csp}", f"({terms}) {MZN_OP[op]} {other.mzn}")


def g_table(m, r, name="table"):
    n = r.randint(1, 3)
    xs = both_list(m.views(n))
    rows = [[r.randint(-1, 3) for _ in range(n)] for _ in range(r.randint(1, 6))]
    if name == "table":
        csp_rows = "[" + ", ".join("(" + ", ".join(map(str, row)) + ")" for row in rows) + "]"
    else:
        csp_rows = "[" + ", ".join("[" + ", ".join(map(str, row)) + "]" for row in rows) + "]"
    mzn_rows = "[|" + "|".join(", ".join(map(str, row)) for row in rows) + "|]"
    return Both(f"{name}({xs.csp}, {csp_rows})", f"table({xs.mzn}, {mzn_rows})")


def g_mdd(m, r):
    return g_table(m, r, "mdd")


def g_regular(m, r):
    n = r.randint(1, 3)
    xs = both_list(m.views(n))
    q, s = r.randint(1, 3), r.randint(1, 3)
    delta = [r.randint(0, q) for _ in range(q * s)]
    q0 = r.randint(1, q)
    f = [i for i in range(1, q + 1) if r.random() < 0.5]
    d = ints(delta)
    # Reified regular is not supported by MiniZinc: in a batch, the words
    # the automaton accepts (enumerated here) as a table.
    words = []
    for w in itertools.product(range(1, s + 1), repeat=n):
        state = q0
        for v in w:
            state = delta[(state - 1) * s + v - 1] if state else 0
        if state in f:
            words.append(w)
    rows = "[|" + "|".join(", ".join(map(str, w)) for w in words) + "|]"
    batch = f"table({xs.mzn}, {rows})" if words else "false"
    return Both(
        f"regular({xs.csp}, {q}, {s}, {d.csp}, {q0}, {ints(f).csp})",
        f"regular({xs.mzn}, {q}, {s}, array2d(1..{q}, 1..{s}, {d.mzn}), {q0}, "
        f"{{{', '.join(map(str, f))}}})",
        batch,
    )


def in_set(item, values):
    """MiniZinc's 0/1 for `item` lying in the constant set `values`."""
    return f"bool2int({item.mzn} in {{{', '.join(map(str, values))}}})"


def g_among(m, r):
    items = m.views(r.randint(2, 5))
    n, xs = items[0], both_list(items[1:])
    values = sorted(set(r.randint(-2, 3) for _ in range(r.randint(1, 3))))
    total = " + ".join(in_set(i, values) for i in items[1:])
    s = ", ".join(map(str, values))
    return Both(f"among({n.csp}, {xs.csp}, {{{s}}})", f"{n.mzn} = ({total})")


def g_at_most(m, r):
    items = m.views(r.randint(2, 5))
    n, xs, v = items[0], both_list(items[1:]), r.randint(-1, 3)
    name, op = r.choice([("at_most", "<="), ("at_least", ">="), ("exactly", "=")])
    total = " + ".join(f"bool2int({i.mzn} = {v})" for i in items[1:])
    return Both(f"{name}({n.csp}, {xs.csp}, {v})", f"({total}) {op} {n.mzn}")


def g_sequence(m, r):
    items = m.views(r.randint(1, 5))
    xs = both_list(items)
    values = sorted(set(r.randint(-2, 3) for _ in range(r.randint(1, 3))))
    k = r.randint(1, 3)
    low = r.randint(0, k)
    high = r.randint(low, k)
    windows = [
        "(" + " + ".join(in_set(i, values) for i in items[j:j + k]) + f") in {low}..{high}"
        for j in range(len(items) - k + 1)
    ]
    s = ", ".join(map(str, values))
    return Both(f"sequence({xs.csp}, {{{s}}}, {k}, {low}, {high})",
                " /\\ ".join(windows) if windows else "true")


def g_set(m, r):
    """A set constraint over the model's set variables (a count when it has none)."""
    if not m.sets:
        return g_count(m, r)
    kind = r.randrange(8)
    if kind == 0:
        a, v, op = m.set_expr(), m.view(), r.choice(OPS)
        return Both(f"card({a.csp}) {op} {v.csp}", f"card({a.mzn}) {MZN_OP[op]} {v.mzn}")
    if kind == 1:
        v, a = m.view(), m.set_expr()
        if r.random() < 0.5:
            return Both(f"{v.csp} in {a.csp}", f"{v.mzn} in {a.mzn}")
        return Both(f"{v.csp} not in {a.csp}", f"not ({v.mzn} in {a.mzn})")
    if kind == 2:
        a, b, op = m.set_expr(), m.set_expr(), r.choice(["subset", "superset"])
        return Both(f"{a.csp} {op} {b.csp}", f"{a.mzn} {op} {b.mzn}")
    if kind == 3:
        a, b, op = m.set_term(), m.set_expr(), r.choice(["==", "!="])
        return Both(f"{a.csp} {op} {b.csp}", f"{a.mzn} {MZN_OP[op]} {b.mzn}")
    if kind == 4:
        a, b = m.set_term(), m.set_term()
        return Both(f"disjoint({a.csp}, {b.csp})", f"disjoint({a.mzn}, {b.mzn})")
    if kind == 5:
        xs = [m.set_term() for _ in range(r.randint(1, 3))]
        return Both(f"all_disjoint([{', '.join(x.csp for x in xs)}])",
                    f"all_disjoint([{', '.join(x.mzn for x in xs)}])")
    if kind == 6:
        xs = [m.set_term() for _ in range(r.randint(1, 3))]
        lo = r.randint(-1, 1)
        u = f"{lo}..{lo + r.randint(0, 3)}"
        return Both(f"partition_set([{', '.join(x.csp for x in xs)}], {u})",
                    f"partition_set([{', '.join(x.mzn for x in xs)}], {u})")
    # A set variable's membership in a formula with the integers.
    v, a, c = m.view(), m.set_expr(), m.comparison(0)
    return Both(f"({v.csp} in {a.csp}) -> ({c.csp})", f"({v.mzn} in {a.mzn}) -> ({c.mzn})")


# `--only alldifferent,lex`: those globals alone.
ONLY = []

GLOBALS = [
    g_alldifferent, g_alldifferent, g_lex, g_gcc, g_nvalue, g_inverse, g_circuit,
    g_element, g_bin_packing, g_cumulative, g_disjunctive, g_count, g_table, g_mdd,
    g_regular, g_among, g_at_most, g_sequence, g_set, g_set,
]

INCLUDES = "\n".join(
    f'include "{f}.mzn";'
    for f in [
        "alldifferent", "lex_less", "lex_lesseq", "global_cardinality", "nvalue",
        "inverse", "circuit", "subcircuit", "bin_packing_load", "cumulative",
        "disjunctive", "table", "regular", "disjoint", "all_disjoint", "partition_set",
    ]
)


def model(r, prefix):
    m = Model(r, prefix)
    # Half the models are global constraints alone, whose repeated
    # variables and views then decide the count.
    only_globals = r.random() < 0.5
    for _ in range(r.randint(1, 2) if only_globals else r.randint(1, 4)):
        if only_globals or r.random() < 0.75:
            m.add(m.global_constraint())
        else:
            m.add(m.formula(2))
    m.finish()
    return m


def batch_mzn(models):
    """One MiniZinc model of all `models`: `which` picks one."""
    k = len(models)
    lines = [INCLUDES, f"var 1..{k}: which;"]
    objs = []
    for i, m in enumerate(models, 1):
        lines += m.decls_mzn
        lines.append(f"constraint which = {i} -> ({m.mzn_constraints()});")
        fixed = " /\\ ".join(m.fixed)
        lines.append(f"constraint which != {i} -> ({fixed});")
        objs.append(m.objective.mzn if m.objective else "0")
    lines.append(f"array[1..{k}] of var int: obj = [{', '.join(objs)}];")
    lines.append("solve satisfy;")
    # Every variable in the output: MiniZinc reports solutions that differ in it.
    every = ", ".join(v for m in models for v in m.outputs())
    lines.append(f'output ["\\(which) \\(obj[fix(which)]) ", show([{every}]), "\\n"];')
    return "\n".join(lines) + "\n"


def minizinc(path, decomposed=False):
    """Every solution of `path`; `decomposed` takes the globals from the
    standard library (decompositions with reified forms) instead of
    Gecode's own propagators, some of which cannot be reified."""
    lib = ["-G", "std"] if decomposed else []
    out = subprocess.run(
        ["nice", "minizinc", "--solver", "gecode", "-a", "--no-half-reifications", *lib, path],
        capture_output=True, text=True, timeout=600,
    )
    if out.returncode != 0:
        raise RuntimeError(f"minizinc exit {out.returncode}: {out.stdout[-2000:]}{out.stderr[-2000:]}")
    return out.stdout


def minizinc_batch(models, d):
    """Per model: (count, minimum objective or None)."""
    path = os.path.join(d, "batch.mzn")
    with open(path, "w") as f:
        f.write(batch_mzn(models))
    results = [[0, None] for _ in models]
    for line in minizinc(path, decomposed=True).splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].isdigit():
            res = results[int(parts[0]) - 1]
            res[0] += 1
            v = int(parts[1])
            res[1] = v if res[1] is None else min(res[1], v)
    return results


def minizinc_alone(m, d):
    path = os.path.join(d, "alone.mzn")
    with open(path, "w") as f:
        f.write(m.mzn_alone())
    values = [int(line.split()[0]) for line in minizinc(path).splitlines()
              if re.match(r"-?\d+ \[", line)]
    return [len(values), min(values) if values else None]


def cspi(args, path):
    out = subprocess.run(
        ["nice", CSPI, "solve", "--check-solutions", *args, path],
        capture_output=True, text=True, timeout=300,
    )
    return out


def summary(out):
    for line in out.stdout.splitlines():
        if line.startswith('{"type":"summary"'):
            return json.loads(line)
    return None


def strategy(r, counting=True, seed=True):
    args = ["--var", r.choice(VARS), "--val", r.choice(VALS), "--propagation", r.choice(LEVELS)]
    if seed:
        args += ["--seed", str(r.randint(0, 999))]
    if counting and r.random() < 0.2:
        args.append("--no-product-count")
    if r.random() < 0.25:
        args += ["--learning", "on"]
    return args


def run_count(r, path, d, mode):
    """cspi's count of the model at `path` in one of several ways, with the
    arguments used; a string when something went wrong."""
    args = strategy(r)
    if mode == "all":
        args += ["--all", "--format", "json"]
        out = cspi(args, path)
        s = summary(out)
        if out.returncode != 0 or s is None:
            return args, f"exit {out.returncode}: {out.stdout[-1500:]}{out.stderr[-1500:]}"
        lines = out.stdout.count('{"type":"solution"')
        if lines != s["solutions"]:
            return args, f"{lines} solution lines, summary says {s['solutions']}"
        return args, lines
    if mode == "threads":
        args += ["--threads", "2"]
    if mode == "parts":
        files = []
        for k in range(1, 4):
            part = os.path.join(d, f"part{k}.json")
            out = cspi(args + ["--count", "--format", "json", "--part", f"{k}/3"], path)
            if out.returncode != 0:
                return args, f"part {k} exit {out.returncode}: {out.stdout[-1500:]}{out.stderr[-1500:]}"
            with open(part, "w") as f:
                f.write(out.stdout)
            files.append(part)
        out = subprocess.run(["nice", CSPI, "merge", "--format", "json", *files],
                             capture_output=True, text=True, timeout=60)
        s = summary(out)
        if out.returncode != 0 or s is None:
            return args + ["--part K/3"], f"merge exit {out.returncode}: {out.stdout[-1500:]}{out.stderr[-1500:]}"
        return args + ["--part K/3"], s["solutions"]
    out = cspi(args + ["--count", "--format", "json"], path)
    s = summary(out)
    if out.returncode != 0 or s is None:
        return args, f"exit {out.returncode}: {out.stdout[-1500:]}{out.stderr[-1500:]}"
    return args, s["solutions"]


def run_optimum(r, path):
    args = strategy(r, False, False) if r.random() < 0.5 else []
    args += ["--restarts", r.choice(["none", "luby", "geometric"]),
             "--lns", r.choice(["none", "random", "propagation", "mixed"]),
             "--guide", r.choice(["auto", "none", "solution", "phase"]),
             "--seed", str(r.randint(0, 999))]
    if r.random() < 0.25:
        args += ["--threads", "2"]
    if "--learning" not in args and r.random() < 0.25:
        args += ["--learning", "on"]
    out = cspi(args + ["--format", "json"], path)
    s = summary(out)
    if out.returncode != 0 or s is None:
        return args, f"exit {out.returncode}: {out.stdout[-1500:]}{out.stderr[-1500:]}"
    if s["status"] == "UNSATISFIABLE":
        return args, None
    if s["status"] != "OPTIMAL":
        return args, f"status {s['status']}"
    return args, s["objective"]


def check_model(r, m, expected, d):
    """The disagreements of cspi with `expected` (count, minimum) on `m`."""
    count_path = os.path.join(d, "m.csp")
    with open(count_path, "w") as f:
        f.write(m.csp(False))
    problems = []
    first = r.choice(["count", "count", "all"])
    args, got = run_count(r, count_path, d, first)
    if got != expected[0]:
        problems.append((m.csp(False), args, got, 0))
    second = r.choice(["threads", "parts", "all", "count"] + (["optimum"] * 6 if m.objective else []))
    if second == "optimum":
        opt_path = os.path.join(d, "o.csp")
        with open(opt_path, "w") as f:
            f.write(m.csp(True))
        args, got = run_optimum(r, opt_path)
        if got != expected[1]:
            problems.append((m.csp(True), args, got, 1))
    else:
        args, got = run_count(r, count_path, d, second)
        if got != expected[0]:
            problems.append((m.csp(False), args, got, 0))
    return problems, [first, second]


def main():
    argv = [a for a in sys.argv[1:] if not a.startswith("--")]
    batch = 40
    if "--batch" in sys.argv:
        batch = int(sys.argv[sys.argv.index("--batch") + 1])
        argv = [a for a in argv if a != str(batch)]
    if "--only" in sys.argv:
        ONLY.extend(sys.argv[sys.argv.index("--only") + 1].split(","))
        argv = [a for a in argv if a != sys.argv[sys.argv.index("--only") + 1]]
    cases = int(argv[0]) if len(argv) > 0 else 300
    seed = int(argv[1]) if len(argv) > 1 else 1
    if shutil.which("minizinc") is None:
        print("skipped: minizinc not found (../shared/peers/setup.sh installs it)")
        return 0
    if not os.access(CSPI, os.X_OK):
        print(f"{CSPI} not built: run cargo build --release first", file=sys.stderr)
        return 2
    r = random.Random(seed)
    done = solutions = runs = 0
    modes = {}
    with tempfile.TemporaryDirectory() as d:
        while done < cases:
            k = min(batch, cases - done)
            models = [model(r, f"m{i}_") for i in range(1, k + 1)]
            expected = minizinc_batch(models, d)
            for i, m in enumerate(models):
                problems, used = check_model(r, m, expected[i], d)
                runs += 2
                for u in used:
                    modes[u] = modes.get(u, 0) + 1
                if problems:
                    alone = minizinc_alone(m, d)
                    if alone != expected[i]:
                        print(f"model {done + i} (seed {seed}): MiniZinc batched {expected[i]}, "
                              f"alone {alone}; using the latter", flush=True)
                        problems = [p for p in problems if p[2] != alone[p[3]]]
                for text, args, got, which in problems:
                    print(f"model {done + i} (seed {seed}): cspi {' '.join(args)}: {got!r}, "
                          f"MiniZinc/Gecode {alone[which]!r}")
                    print(text)
                    print(m.mzn_alone())
                    return 1
                solutions += expected[i][0]
            done += k
            print(f"{done} models agree so far ({runs} cspi runs)", file=sys.stderr, flush=True)
    print(f"{cases} models agree with MiniZinc/Gecode ({solutions} solutions in all, "
          f"{runs} cspi runs: {modes}, seed {seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
