"""Crossword constructors' calls from Python (suggestions with exact counts,
the fillability map, why a grid has no fill, where a search failed) against
brute force and against what the same calls report elsewhere."""

import itertools
import time

import pytest

import cspi

# 3-letter words with scores, written for this test.
WORDS = {
    "cat": 60, "are": 55, "tea": 20, "car": 30, "ate": 30, "rat": 25, "tar": 52,
    "art": 41, "era": 45, "ear": 38, "eat": 35, "ace": 50, "act": 40, "arc": 33,
    "tee": 44, "ree": 12, "sat": 27, "sea": 48, "set": 31, "see": 29, "tie": 36,
    "toe": 26, "oat": 22, "ore": 18, "roe": 17, "rot": 16, "ten": 43, "net": 42,
    "eta": 15, "age": 47, "ago": 23, "ego": 21, "ran": 34, "nor": 28, "one": 46,
}

MODEL = """
param grid = "grid.txt";
let words = dictionary("words.txt", 0, "");
crossword xw = picture(grid, words, false);
constraint alldifferent(xw);
output xw;
"""


def fills(given=None):
    """Every fill of an open 3x3 grid by brute force, as the model's xw
    (numbered as clues are: 1 across, 1-3 down, 4 across, 5 across), with
    the given letters `{(row, column): letter}`."""
    given = given or {}
    out = []
    for rows in itertools.product(WORDS, repeat=3):
        if any(rows[r][c] != l for (r, c), l in given.items()):
            continue
        cols = ["".join(rows[r][c] for r in range(3)) for c in range(3)]
        xw = [rows[0], cols[0], cols[1], cols[2], rows[1], rows[2]]
        if all(w in WORDS for w in cols) and len(set(xw)) == 6:
            out.append(xw)
    return out


@pytest.fixture
def grid3(tmp_path):
    (tmp_path / "words.txt").write_text("".join(f"{w};{s}\n" for w, s in WORDS.items()))

    def load(picture="...\n...\n...\n"):
        (tmp_path / "grid.txt").write_text(picture)
        return cspi.loads(MODEL, dir=tmp_path)

    return load


@pytest.mark.parametrize("threads", [1, 2])
def test_suggestion_counts_equal_brute_force(grid3, threads):
    m = grid3()
    every = fills()
    assert every, "the test's word list has no fill at all"
    assert m.count() == len(every)
    for k in range(1, 7):
        s = m.suggest(f"xw[{k}]", top=1000, threads=threads)
        assert len(s) == s.left, "top above the values left: every one counted"
        assert [c.score for c in s] == sorted((c.score for c in s), reverse=True)
        for c in s:
            assert c.score == WORDS[c.word]
            assert c.count == sum(1 for f in every if f[k - 1] == c.word), (k, c)
        # Every word of some fill survives propagation and is listed.
        assert {f[k - 1] for f in every} <= {c.word for c in s}
        assert sum(c.count for c in s) == len(every)
        text = str(s)
        assert text.startswith(f"xw[{k}] (3 ")
        assert len(text.splitlines()) == 1 + len(s)


def test_suggestions_take_the_top_scores(grid3):
    s = grid3().suggest("xw[1]", top=3)
    assert len(s) == 3 and s.left > 3
    everything = grid3().suggest("xw[1]", top=1000)
    assert list(s) == list(everything)[:3]


def test_a_given_letter_narrows_the_suggestions(grid3):
    m = grid3("c..\n...\n...\n")
    every = fills({(0, 0): "c"})
    s = m.suggest("xw[1]", top=1000)
    assert all(c.word.startswith("c") for c in s)
    for c in s:
        assert c.count == sum(1 for f in every if f[0] == c.word)


def test_fillability_is_sound_and_drawn(grid3):
    m = grid3("c..\n...\n...\n")
    f = m.fillability()
    every = fills({(0, 0): "c"})
    assert set(f.sizes) == {f"xw[{k}]" for k in range(1, 7)}
    for k in range(1, 7):
        used = {x[k - 1] for x in every}
        # What a fill uses survives; no more than the words of the length.
        assert len(used) <= f.sizes[f"xw[{k}]"] <= len(WORDS)
    # Slots through the given c keep only words with a c there.
    assert f.sizes["xw[1]"] <= sum(1 for w in WORDS if w[0] == "c")
    rows = str(f).splitlines()
    assert rows[0].startswith("fillability:")
    assert rows[1].split()[0] == "c"
    assert f.svg().startswith("<svg") and f._repr_svg_() == f.svg()


def test_explain_a_grid_with_no_fill(grid3):
    # No word of the list ends in "o" but ago and ego, and none starts
    # with "g" or "x": the down entry through an x cannot be filled.
    m = grid3("x..\n...\n...\n")
    assert m.solve() is None and m.status == "UNSATISFIABLE"
    e = m.explain(time_limit=30)
    assert e.status == "UNSATISFIABLE" and e.minimal is True and e.checks >= 1
    assert e.constraints, e
    letters = [c for c in e.constraints if c["bindings"].get("letter") == "x"]
    assert letters, "the given x is in the conflict"
    assert all(c["line"] == 4 and c["text"] == "xw" for c in e.constraints)
    text = str(e)
    assert "UNSATISFIABLE" in text
    assert "the conflict on the grid of xw" in text
    assert "X" in text.split("the conflict on the grid")[1]


def test_explain_a_model_with_a_solution(grid3):
    e = grid3().explain(time_limit=30)
    assert e.status == "SATISFIABLE" and e.constraints == []
    assert str(e).startswith("SATISFIABLE")


def test_stuck_map_after_a_limit(tmp_path):
    (tmp_path / "open5.txt").write_text(".....\n" * 5)
    m = cspi.load("models/crossword.csp", params={"grid": str(tmp_path / "open5.txt")})
    assert m.stuck is None
    assert m.solve(node_limit=200) is None and m.status == "UNKNOWN"
    st = m.stuck
    assert st is not None
    # Ten entries, all blamed: the ranking lists them all, most first.
    shares = {(e["across"], e["row"] if e["across"] else e["column"]): e["share"] for e in st.entries}
    assert len(st.entries) == 10
    assert [e["share"] for e in st.entries] == sorted((e["share"] for e in st.entries), reverse=True)
    assert sum(shares.values()) == pytest.approx(1.0, abs=1e-3)
    # Each cell carries the blame of its across and its down entry.
    for r in range(5):
        for c in range(5):
            want = shares[(True, r + 1)] + shares[(False, c + 1)]
            assert st.cells[r][c] == pytest.approx(want, abs=3e-4), (r, c)
    top = max(max(row) for row in st.cells)
    lines = str(st).splitlines()
    assert lines[0].startswith("where the search failed")
    for r in range(5):
        digits = [str(round(x / top * 9)) for x in st.cells[r]]
        assert lines[1 + r].split() == digits, r
    assert st.svg().startswith("<svg")
    # A run that ends otherwise leaves no map: a proof of no fill (this
    # grid has none with these words), a fill.
    assert m.solve() is None and m.status == "UNSATISFIABLE" and m.stuck is None
    filled = cspi.load("models/crossword.csp")
    assert filled.solve() is not None and filled.stuck is None


def test_suggest_names_and_limits():
    m = cspi.load("models/n-queens.csp", params={"n": 30})
    with pytest.raises(ValueError, match="no variable `q\\[0\\]` \\(did you mean"):
        m.suggest("q[0]")
    with pytest.raises(ValueError, match="top -1"):
        m.suggest("q[1]", top=-1)
    for threads in (0, -2, True, 1025):
        with pytest.raises(ValueError, match="threads"):
            m.suggest("q[1]", threads=threads)
    assert list(m.suggest("q[1]", top=0)) == []
    with pytest.raises(ValueError, match="time_limit"):
        m.suggest("q[1]", time_limit=0)
    started = time.monotonic()
    s = m.suggest("q[1]", top=2, time_limit=0.5)
    assert time.monotonic() - started < 20
    assert [c.value for c in s] == [1, 2] and [c.count for c in s] == [None, None]
    # The limit holds for the whole call on every thread.
    started = time.monotonic()
    s = m.suggest("q[1]", top=4, time_limit=0.5, threads=2)
    assert time.monotonic() - started < 20
    assert [c.value for c in s] == [1, 2, 3, 4] and [c.count for c in s] == [None] * 4
    assert "not counted" in str(s)


def test_ctrl_c_stops_a_suggestion(ctrl_c):
    m = cspi.load("models/n-queens.csp", params={"n": 40})
    started = time.monotonic()
    with ctrl_c(0.3), pytest.raises(KeyboardInterrupt):
        m.suggest("q[1]", top=1)
    assert time.monotonic() - started < 20


def runs(rows):
    """The entries of a filled picture (``#`` a block), across then down."""
    lines = list(rows) + ["".join(r[c] for r in rows) for c in range(len(rows[0]))]
    return [w for line in lines for w in line.split("#") if len(w) >= 2]


def has_fill(picture, words):
    """Whether a picture grid (``.`` open, ``#`` a block) has a fill with
    distinct words from ``words``, by brute force over its cells."""
    rows = picture.split()
    cells = [(r, c) for r in range(len(rows)) for c in range(len(rows[0])) if rows[r][c] == "."]
    grid = [list(r) for r in rows]
    prefixes = {w[:k] for w in words for k in range(len(w) + 1)}

    def ok():
        # Every run of letters so far is a prefix of a word, every whole run a word.
        text = ["".join(r) for r in grid]
        for line in text + ["".join(r[c] for r in text) for c in range(len(text[0]))]:
            for run in line.split("#"):
                head = run.split(".")[0]
                if head not in prefixes or ("." not in run and len(run) >= 2 and run not in words):
                    return False
        return True

    def go(k):
        if k == len(cells):
            filled = runs(["".join(r) for r in grid])
            return len(set(filled)) == len(filled)
        r, c = cells[k]
        for letter in sorted({ch for w in words for ch in w}):
            grid[r][c] = letter
            if ok() and go(k + 1):
                return True
        grid[r][c] = "."
        return False

    return go(0)


@pytest.mark.parametrize("threads", [1, 2])
def test_try_blocks_opens_a_grid_with_no_fill(tmp_path, threads):
    # The list is the entries of a fill of the 5x5 grid with blocks at two
    # corners: the open grid needs ten 5-letter words and the list has six.
    target = ["#gqtx", "zcdhu", "sozwt", "yxcxf", "cocn#"]
    words = runs(target)
    (tmp_path / "words.txt").write_text("\n".join(words) + "\n")
    (tmp_path / "grid.txt").write_text(".....\n" * 5)
    m = cspi.loads(MODEL, dir=tmp_path)
    assert not has_fill(".....\n" * 5, set(words))
    opened = m.try_blocks(most=2, time_per_grid=2, threads=threads)
    assert opened and opened.tried[0].blocks == []
    # With two threads, a grid stopped when another filled ends after it.
    first_fill = next(i for i, t in enumerate(opened.tried) if t.status == "SATISFIABLE")
    for i, t in enumerate(opened.tried):
        rows = [list(".....") for _ in range(5)]
        for r, c in t.blocks:
            assert (6 - r, 6 - c) in t.blocks, "each block has its 180-degree twin"
            rows[r - 1][c - 1] = "#"
        picture = "\n".join("".join(r) for r in rows) + "\n"
        if t.status == "UNSATISFIABLE":
            assert not has_fill(picture, set(words)), picture
        elif t.status == "SATISFIABLE":
            assert has_fill(picture, set(words)), picture
            if i == first_fill:
                assert picture == opened.picture
            if threads == 1:
                assert t is opened.tried[-1], "the search stops at the first fill"
        elif not (threads > 1 and i > first_fill and t.cut_short):
            pytest.fail(f"{t}: every grid here is decided")
    grid = opened.solution["xw_grid"]
    assert [["#" if ch == "#" else "." for ch in row] for row in grid] == [
        list(row) for row in opened.picture.split()
    ]
    assert all(w in words for w in runs(grid)) and len(set(runs(grid))) == len(runs(grid))
    # The grid opened is a model of its own, blocks in place, checked again.
    again = opened.model.with_params().solve(check=True)
    blocks = [[ch == "#" for ch in row] for row in grid]
    assert [[ch == "#" for ch in row] for row in again["xw_grid"]] == blocks
    assert all(w in words for w in runs(again["xw_grid"]))
    text = str(opened)
    assert text.startswith("the grid as drawn: no fill exists")
    assert "the grid with its new blocks:\n" + opened.picture in text


def test_try_blocks_refuses_what_it_would_change(tmp_path):
    (tmp_path / "words.txt").write_text("abc\ndef\nghi\nadg\nbeh\ncfi\n")
    (tmp_path / "grid.txt").write_text("...\n...\n...\n")
    m = cspi.loads(MODEL.replace("output xw;", 'constraint xw[2] == "adg";\noutput xw;'), dir=tmp_path)
    with pytest.raises(cspi.ModelError, match="names an entry by its number"):
        m.try_blocks()
    with pytest.raises(ValueError, match="1 to 3"):
        cspi.loads(MODEL, dir=tmp_path).try_blocks(most=4)
    with pytest.raises(ValueError, match="1 to 1024"):
        cspi.loads(MODEL, dir=tmp_path).try_blocks(threads=0)
    with pytest.raises(ValueError, match="1 to 1024"):
        cspi.loads(MODEL, dir=tmp_path).try_blocks(threads=-2)
    # A grid that fills as drawn needs no block.
    opened = cspi.loads(MODEL, dir=tmp_path).try_blocks()
    assert [t.blocks for t in opened.tried] == [[]] and opened.solution is not None
