"""Solutions draw themselves in a notebook (`_repr_svg_`): the SVG parses and
holds a cell per grid cell, a queen per row."""

import xml.etree.ElementTree as ET

import cspi

NS = "{http://www.w3.org/2000/svg}"


def parse(svg):
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def test_sudoku_draws_every_cell():
    s = cspi.load("models/sudoku.csp").solve()
    root = parse(s._repr_svg_())
    texts = [t.text for t in root.iter(NS + "text")]
    assert len(texts) == 81
    assert texts == [str(v) for row in s["cell"] for v in row]
    # Givens in bold, the rest not.
    bold = [t for t in root.iter(NS + "text") if t.get("font-weight") == "bold"]
    assert len(bold) == 21  # Inkala's puzzle has 21 givens


def test_queens_board_has_a_queen_per_row():
    s = cspi.load("models/n-queens.csp", params={"n": 6}).solve()
    root = parse(s.svg())
    assert len(list(root.iter(NS + "polygon"))) == 6
    squares = [r for r in root.iter(NS + "rect") if r.get("width") == "36.0"]
    assert len(squares) == 36


def test_crossword_draws_letters_and_blocks():
    s = cspi.load("models/crossword.csp").solve()
    root = parse(s._repr_svg_())
    letters = "".join(t.text for t in root.iter(NS + "text") if not t.text.isdigit())
    assert letters == "".join(s["xw_grid"]).replace("#", "").upper()


def test_no_picture_without_a_grid():
    s = cspi.load("models/send-more-money.csp").solve()
    assert s._repr_svg_() is None


def test_a_fill_goes_out_as_ipuz_and_puz():
    """`ipuz()` and `puz()` against readers of their own: JSON, and puzpy
    (installed by the test harness), which checks every checksum of a
    .puz file as Across Lite does."""
    import json

    import pytest

    puz = pytest.importorskip("puz")
    fill = cspi.load(
        "models/crossword.csp",
        {"grid": "models/data/crossword-theme.txt", "min_score": 3},
    ).solve()
    rows = str(fill).splitlines()[:5]
    letters = "".join(r.replace(" ", "").replace("#", ".") for r in rows).upper()
    doc = json.loads(fill.ipuz())
    assert "".join(c if c != "#" else "." for row in doc["solution"] for c in row) == letters
    p = puz.load(fill.puz())
    assert (p.width, p.height, p.solution) == (5, 5, letters)
    assert len(p.clues) == len(doc["clues"]["Across"]) + len(doc["clues"]["Down"])
    assert cspi.load("models/sudoku.csp").solve().puz() is None
