"""The Python API against brute force and independent checkers."""

import itertools
import os
import pathlib
import signal
import threading
import time

import pytest

import cspi

ROOT = pathlib.Path(__file__).resolve().parents[2]


def queens_brute(n):
    """Every n-queens solution by brute force over permutations."""
    return {
        p
        for p in itertools.permutations(range(1, n + 1))
        if len({p[i] + i for i in range(n)}) == n and len({p[i] - i for i in range(n)}) == n
    }


def test_queens_counts_equal_brute_force():
    m = cspi.load("models/n-queens.csp", params={"n": 1})
    for n in range(1, 8):
        m = m.with_params(n=n)
        expected = len(queens_brute(n))
        assert m.count() == expected, n
        assert m.status == ("ALL_SOLUTIONS" if expected else "UNSATISFIABLE")


@pytest.mark.parametrize("var", ["input", "mrv", "degree", "dom-wdeg"])
@pytest.mark.parametrize("propagation", ["fc", "ac"])
def test_solution_sets_equal_brute_force_under_every_strategy(var, propagation):
    m = cspi.load("models/n-queens.csp", params={"n": 6})
    got = [tuple(s["q"]) for s in m.solutions(var=var, val="lcv", propagation=propagation)]
    assert len(got) == len(set(got))
    assert set(got) == queens_brute(6)
    assert m.status == "ALL_SOLUTIONS"
    assert m.stats["solutions"] == 4


def test_solve_returns_a_dict_of_python_values():
    s = cspi.load("models/n-queens.csp", params={"n": 8}).solve()
    assert isinstance(s, dict) and list(s) == ["q"]
    q = s["q"]
    assert all(type(v) is int for v in q)
    assert tuple(q) in queens_brute(8)


def sudoku_ok(grid, puzzle):
    n = len(grid)
    b = int(n**0.5)
    full = set(range(1, n + 1))
    rows = all(set(r) == full for r in grid)
    cols = all({grid[r][c] for r in range(n)} == full for c in range(n))
    boxes = all(
        {grid[r][c] for r in range(i, i + b) for c in range(j, j + b)} == full
        for i in range(0, n, b)
        for j in range(0, n, b)
    )
    givens = all(ch in ".0" or grid[k // n][k % n] == int(ch) for k, ch in enumerate(puzzle))
    return rows and cols and boxes and givens


def test_sudoku_puzzles_from_one_model_with_changed_parameters():
    m = cspi.load("models/sudoku.csp")
    puzzles = [
        line.strip()
        for line in (ROOT / "models/data/puzzles.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    solved = 0
    for p in puzzles:
        try:
            s = m.with_params(puzzle=p).solve(check=True)
        except cspi.ModelError:
            continue
        if s is None:
            continue
        assert sudoku_ok(s["cell"], p)
        solved += 1
    assert solved >= 1


def test_bools_enums_and_strings():
    m = cspi.loads(
        "enum C = {red, green, blue};\n"
        "var c: C;\nvar b in 0..1;\nvar flag: bool;\n"
        "constraint c != red;\nconstraint flag;\n"
    )
    sols = list(m.solutions())
    assert {s["c"] for s in sols} == {"green", "blue"}
    assert all(s["flag"] is True for s in sols)
    assert {s["b"] for s in sols} == {0, 1}
    assert len(sols) == 4


def test_zebra_enum_names():
    s = cspi.load("models/zebra.csp").solve()
    assert s["zebra_owner"] == "japanese" and s["water_drinker"] == "norwegian"
    assert s["nation"][0] == "norwegian"
    assert "japanese owns the zebra" in str(s)


def test_crossword_words_are_strings():
    s = cspi.load("models/crossword.csp").solve()
    words = s["xw"]
    assert words and all(isinstance(w, str) for w in words)
    grid = s["xw_grid"]
    assert len(grid) == 5 and grid[0][0] == "s" and grid[4][4] == "y"
    text = (ROOT / "models/data/crossword-words.txt").read_text()
    dictionary = {line.split(";")[0] for line in text.split()}
    assert all(w in dictionary for w in words)


def knapsack_brute():
    w = [23, 31, 29, 44, 53, 38, 63, 85, 89, 82]
    v = [92, 57, 49, 68, 60, 43, 67, 84, 87, 72]
    best = 0
    for take in itertools.product([0, 1], repeat=len(w)):
        if sum(a * b for a, b in zip(w, take)) <= 165:
            best = max(best, sum(a * b for a, b in zip(v, take)))
    return best


def test_optimize_proves_the_brute_force_optimum():
    m = cspi.load("models/knapsack.csp")
    o = m.optimize()
    assert o.proved and o.status == "OPTIMAL"
    assert o.objective == knapsack_brute() == o.solution.objective
    objectives = [k for k, _ in o.improvements]
    assert objectives == sorted(objectives) and objectives[-1] == o.objective
    assert m.optimize(node_limit=1).proved is False


def test_params_and_data_dicts():
    text = "param n: int;\nparam d[1..n]: int;\nvar x[1..n] in 0..9;\n" \
           "constraint forall i in 1..n: x[i] == d[i] + 1;\n"
    s = cspi.loads(text, data={"n": 3, "d": [3, 1, 2]}).solve()
    assert s["x"] == [4, 2, 3]
    # params win over data
    s = cspi.loads(text, params={"n": 2}, data={"n": 3, "d": [5, 6]}).solve()
    assert s["x"] == [6, 7]


def test_data_file_path():
    m = cspi.load("models/kenken.csp", data="models/data/kenken-4x4.json")
    assert m.solve(check=True) is not None


def test_the_iterator_stops_the_search():
    m = cspi.load("models/n-queens.csp", params={"n": 28})
    it = m.solutions(threads=1)
    first = next(it)
    assert len(first["q"]) == 28
    it.close()
    # The search ran ahead by the channel's few solutions at most, not on.
    assert it.status == "UNKNOWN"
    assert it.stats["solutions"] < 200
    nodes = it.stats["nodes"]
    time.sleep(0.2)
    assert it.stats["nodes"] == nodes


def test_breaking_out_of_a_loop_stops_the_search():
    m = cspi.load("models/n-queens.csp", params={"n": 28})
    for k, _ in enumerate(m.solutions(threads=1)):
        if k == 2:
            break
    # The loop's iterator is gone: its search thread was stopped and joined.
    assert threading.active_count() == 1


def test_limit():
    m = cspi.load("models/n-queens.csp", params={"n": 8})
    assert len(list(m.solutions(limit=5))) == 5
    assert m.status == "SATISFIABLE"


def test_stats_dict():
    m = cspi.load("models/n-queens.csp", params={"n": 8})
    m.count(var="mrv", propagation="fc", threads=1)
    for k in ["nodes", "failures", "backtracks", "max_depth", "propagations", "solutions", "time_ms"]:
        assert isinstance(m.stats[k], int), k
    assert m.stats["solutions"] == 92


def test_same_count_on_several_threads():
    m = cspi.load("models/n-queens.csp", params={"n": 9})
    assert m.count(threads=2) == m.count(threads=1) == 352


def test_time_limit_stops_with_unknown():
    m = cspi.load("models/n-queens.csp", params={"n": 40})
    n = m.count(time_limit=0.2, threads=1, propagation="fc")
    assert m.status == "UNKNOWN" and n >= 0


def test_unsatisfiable():
    m = cspi.load("models/n-queens.csp", params={"n": 3})
    assert m.solve() is None and m.status == "UNSATISFIABLE"


def test_unknown_option_names():
    m = cspi.load("models/n-queens.csp")
    with pytest.raises(ValueError, match="did you mean `mrv`"):
        m.solve(var="mvr")
    with pytest.raises(ValueError, match="unknown search option `time_limt`"):
        m.solve(time_limt=3)
    with pytest.raises(ValueError, match="no objective"):
        m.optimize()


def test_ctrl_c_stops_the_search(ctrl_c):
    m = cspi.load("models/n-queens.csp", params={"n": 40})
    with ctrl_c(0.3), pytest.raises(KeyboardInterrupt):
        m.count(threads=1, propagation="fc")
    assert m.status == "UNKNOWN"
    assert m.stats["nodes"] > 0


def test_ignored_ctrl_c_leaves_the_search_to_its_limit():
    """A program that ignores SIGINT (or inherited it ignored) keeps that:
    the search runs on to its own limit."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        m = cspi.load("models/n-queens.csp", params={"n": 40})
        timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        m.count(threads=1, propagation="fc", time_limit=1.0)
        timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert m.status == "UNKNOWN"
    assert m.stats["nodes"] > 0


def test_a_programs_own_ctrl_c_handler_keeps_its_choice():
    """A program that handles SIGINT itself is not interrupted by cspi: the
    handler runs, the search goes on to its own limit."""
    seen = []
    previous = signal.signal(signal.SIGINT, lambda *_: seen.append(1))
    try:
        m = cspi.load("models/n-queens.csp", params={"n": 40})
        timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        m.count(threads=1, propagation="fc", time_limit=1.5)
        timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert seen == [1]
    assert m.status == "UNKNOWN"
    assert m.stats["nodes"] > 0


def golden_model_errors():
    """tests/ui models that fail to load (exit 1, no extra arguments)."""
    ui = ROOT / "tests/ui"
    for csp in sorted(ui.glob("*.csp")):
        text = csp.read_text()
        golden = csp.with_suffix(".stderr").read_text()
        if text.startswith("// args:") or not golden.startswith("exit: 1\n") or "<tests/ui>" in golden:
            continue
        yield csp.name, golden.split("\n", 1)[1]


def test_model_errors_carry_the_command_lines_diagnostic(monkeypatch):
    monkeypatch.chdir(ROOT / "tests/ui")
    compared = 0
    for name, golden in golden_model_errors():
        try:
            cspi.load(name)
        except cspi.ModelError as e:
            assert str(e) == golden.rstrip(), name
            compared += 1
    assert compared >= 20


def test_model_error_for_text():
    with pytest.raises(cspi.ModelError) as e:
        cspi.loads("var x in 1..3;\nconstraint y > 2;\n", name="mine.csp")
    assert "mine.csp:2" in str(e.value) and "`y`" in str(e.value)


def test_bad_parameter_types():
    with pytest.raises(TypeError):
        cspi.load("models/n-queens.csp", params={"n": 2.5})
    with pytest.raises(cspi.ModelError, match="expected an integer"):
        cspi.load("models/n-queens.csp", params={"n": "eight"})


BIG = "param n = 200;\nvar x[1..n] in 0..n;\nconstraint forall i in 1..n, j in 1..n where i < j: x[i] != x[j] + i - j;\n"


def test_memory_limit_refuses_a_model_past_it():
    # The same model loads without a limit, and under a generous one.
    cspi.loads(BIG)
    cspi.loads(BIG, memory_limit="1G")
    with pytest.raises(cspi.ModelError, match="takes more than 1 MiB of memory"):
        cspi.loads(BIG, memory_limit="1M")
    with pytest.raises(cspi.ModelError, match="memory"):
        cspi.loads(BIG, memory_limit=1 << 20)


def test_memory_limit_holds_for_with_params_and_files(tmp_path):
    small = cspi.loads(BIG, params={"n": 3}, memory_limit="1M")
    with pytest.raises(cspi.ModelError, match="memory"):
        small.with_params(n=200)
    path = tmp_path / "big.csp"
    path.write_text(BIG)
    with pytest.raises(cspi.ModelError, match="memory"):
        cspi.load(path, memory_limit="1M")


def test_memory_limit_holds_while_a_run_lowers_the_model(tmp_path):
    # A small model (a picture and a word list) whose propagators are large:
    # 22,500 crossings over domains of 17,576 words. Built within 40M, its
    # run stops while lowering, as the time limit stops one.
    import itertools
    letters = "abcdefghijklmnopqrstuvwxyz"
    (tmp_path / "w.txt").write_text("\n".join("".join(p) for p in itertools.product(letters, repeat=3)) + "\n")
    row = "...#" * 50
    grid = [row if i % 4 != 3 else "#" * 200 for i in range(200)]
    (tmp_path / "g.txt").write_text("\n".join(grid) + "\n")
    text = ('let words = dictionary("w.txt");\ncrossword xw = picture("g.txt", words);\n'
            "search xw: var dom-wdeg, val min;\noutput xw;\n")
    m = cspi.loads(text, dir=tmp_path, memory_limit="40M")
    assert m.solve(threads=1) is None
    assert m.status == "UNKNOWN"
    # explain's checks, try_blocks's grids, suggestions and the map are runs too.
    assert m.explain(time_limit=60).status == "UNKNOWN"
    f = m.fillability()
    assert f.stopped and f.sizes == {} and str(f).startswith("fillability: UNKNOWN")
    s = m.suggest("xw[1]", top=3)
    assert list(s) == [] and "UNKNOWN" in str(s)
    opened = m.try_blocks(1, time_per_grid=60)
    assert opened.model is None and [t.status for t in opened.tried] == ["UNKNOWN"]
    # Under a limit it fits, the same run reaches the search (one node).
    m = cspi.loads(text, dir=tmp_path, memory_limit="2G")
    assert m.solve(threads=1, node_limit=1) is None
    assert m.status == "UNKNOWN" and m.stats["nodes"] == 1


def test_memory_limit_must_be_a_size():
    for bad in ["lots", 0, -5, 1.5]:
        with pytest.raises((ValueError, OverflowError)):
            cspi.loads("var x in 0..1;", memory_limit=bad)


def test_a_count_past_64_bits_raises_instead_of_wrapping():
    # 70 free booleans: 2^70 solutions, counted by components.
    m = cspi.loads("var x[1..70] in 0..1;\n")
    with pytest.raises(OverflowError, match="at least 18446744073709551615"):
        m.count(threads=1)
    assert cspi.loads("var x[1..63] in 0..1;\n").count(threads=1) == 2**63
