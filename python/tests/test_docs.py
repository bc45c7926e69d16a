"""docs/python.md, run as a notebook would run it: every `>>>` example."""

import doctest
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_walk_through_runs():
    result = doctest.testfile(
        str(ROOT / "docs/python.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        verbose=False,
    )
    assert result.attempted >= 30
    assert result.failed == 0
