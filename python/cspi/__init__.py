"""cspi from Python: load a constraint model, solve it, count or optimise.

    >>> import cspi
    >>> m = cspi.load("models/n-queens.csp", params={"n": 6})
    >>> m.solve()
    {'q': [2, 4, 6, 1, 3, 5]}
    >>> m.count()
    4

A model is a ``.csp`` file (or text, :func:`loads`) in cspi's modelling
language (docs/language.md). Search options are keyword arguments of every
run: ``var`` (``"input"``, ``"mrv"``, ``"degree"``, ``"dom-wdeg"``, ...),
``val`` (``"min"``, ``"max"``, ``"lcv"``, ``"random"``, ...),
``propagation`` (``"fc"``, ``"ac"``, ...), ``restarts``, ``lns``, ``guide``,
``seed``, ``time_limit`` (seconds), ``node_limit``, ``threads`` and
``check`` (re-check every solution with the independent checker).

A crossword answers a constructor's questions too: :meth:`Model.suggest`
(a slot's best-scored words with exact counts), :meth:`Model.fillability`,
:meth:`Model.explain` (why a grid has no fill) and :attr:`Model.stuck`
(where a search a limit stopped failed).

Searches run on a thread of their own with the GIL released; Ctrl-C (a
notebook's interrupt button) stops the search and raises
``KeyboardInterrupt``, leaving what it did in :attr:`Model.stats`.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterator, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from . import _cspi
from ._cspi import ModelError

__all__ = [
    "load",
    "loads",
    "Model",
    "Solution",
    "Solutions",
    "Optimum",
    "Candidate",
    "Suggestions",
    "Fillability",
    "Explanation",
    "Stuck",
    "Tried",
    "Opened",
    "ModelError",
]

PathLike = Union[str, "os.PathLike[str]"]


def _param_text(name: str, value: Any) -> str:
    """A parameter's value as ``--param NAME=VALUE`` takes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        return json.dumps(_jsonable(value))
    raise TypeError(
        f"parameter {name!r}: {type(value).__name__} is not a cspi value "
        "(give an int, bool, str, or lists and dicts of them)"
    )


def _jsonable(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(_jsonable(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def _overrides(params: Optional[Mapping[str, Any]], data: Any) -> Tuple[List[Tuple[str, str]], List[str]]:
    """(name, text) overrides and data files: ``data`` given as a dict counts
    below ``params``; given as paths, it names JSON data files (``--data``)."""
    pairs: List[Tuple[str, str]] = []
    files: List[str] = []
    if isinstance(data, Mapping):
        pairs += [(str(k), _param_text(str(k), v)) for k, v in data.items()]
    elif isinstance(data, (str, os.PathLike)):
        files.append(os.fspath(data))
    elif data is not None:
        files += [os.fspath(p) for p in data]
    if params:
        pairs += [(str(k), _param_text(str(k), v)) for k, v in params.items()]
    return pairs, files


def load(
    path: PathLike,
    params: Optional[Mapping[str, Any]] = None,
    data: Any = None,
    memory_limit: Union[int, str, None] = None,
) -> "Model":
    """Reads and checks a model file.

    ``params`` gives parameters their values (as ``--param``); ``data`` is a
    dict of parameter values too (``params`` wins), or the path of a JSON
    data file, or a list of them (as ``--data``). ``memory_limit`` (bytes,
    or a size such as ``"512M"``, as ``--memory-limit``) bounds the heap cspi
    may hold in this process while the model and its data are built (models
    loaded before and still alive count too; default: no limit), and then
    while each run of the model (solving, counting, explain, try_blocks)
    lowers and searches it (a run past it ends
    ``UNKNOWN``, as at the time limit).
    A wrong model or wrong data, or a model past the memory limit, raises
    :class:`ModelError` with cspi's rendered diagnostic.
    """
    pairs, files = _overrides(params, data)
    return Model(_cspi.load_file(os.fspath(path), pairs, files, memory_limit))


def loads(
    text: str,
    params: Optional[Mapping[str, Any]] = None,
    data: Any = None,
    name: str = "<string>",
    dir: PathLike = ".",
    memory_limit: Union[int, str, None] = None,
) -> "Model":
    """Checks model text; file names in it resolve against ``dir``.
    ``name`` is what diagnostics call the text; the other arguments are
    :func:`load`'s."""
    pairs, files = _overrides(params, data)
    return Model(_cspi.load_text(text, name, os.fspath(dir), pairs, files, memory_limit))


class Solution(dict):
    """One solution: a dict from each declared name to its value (ints,
    bools, strings for enum members and words, nested lists for arrays,
    dicts for arrays indexed by an enum), as ``--format json`` gives them.

    ``str(solution)`` is the text ``cspi solve`` prints; in a notebook a grid
    (sudoku, crossword, n-queens board, Boggle path) draws itself as SVG.
    """

    objective: Optional[int]

    def __init__(self, model: "Model", raw: Sequence[int]):
        super().__init__(model._loaded.values(raw))
        self._model = model
        self._raw = list(raw)
        self.objective = model._loaded.objective(self._raw)

    def __str__(self) -> str:
        return self._model._loaded.text(self._raw)

    def svg(self) -> Optional[str]:
        """The solution drawn as SVG (as ``cspi solve --svg``), or ``None``
        when the model draws no grid."""
        return self._model._loaded.svg(self._raw)

    def _repr_svg_(self) -> Optional[str]:
        return self.svg()

    def ipuz(self) -> Optional[str]:
        """A filled crossword as ``.ipuz`` text, the open JSON format (as
        ``cspi solve --ipuz``), or ``None`` when the model draws no crossword."""
        return self._model._loaded.ipuz(self._raw)

    def puz(self) -> Optional[bytes]:
        """A filled crossword as the bytes of an Across Lite ``.puz`` file
        (as ``cspi solve --puz``), or ``None`` when the model draws no
        crossword; ``ValueError`` when the format cannot hold the grid."""
        return self._model._loaded.puz(self._raw)


class Solutions(Iterator[Solution]):
    """The solutions of a running search, one at a time.

    The search runs ahead on its own thread a few solutions at most; leaving
    the loop early (``break``), :meth:`close`, or a ``with`` block's end stops
    it. After the last solution, :attr:`status` and :attr:`stats` tell how the
    run ended (also kept in the model's :attr:`Model.stats`).
    """

    def __init__(self, model: "Model", run: Any):
        self._model = model
        self._run = run

    def __iter__(self) -> "Solutions":
        return self

    def __next__(self) -> Solution:
        try:
            raw = self._run.next()
        except KeyboardInterrupt:
            self._model._record(self._run)
            raise
        if raw is None:
            self._model._record(self._run)
            raise StopIteration
        return Solution(self._model, raw)

    def close(self) -> None:
        """Stops the search; its statistics are then known."""
        self._run.close()
        self._model._record(self._run)

    def __enter__(self) -> "Solutions":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def status(self) -> Optional[str]:
        """``ALL_SOLUTIONS``, ``SATISFIABLE``, ``UNSATISFIABLE``, ``UNKNOWN``,
        ``OPTIMAL``; ``None`` while the search runs."""
        end = self._run.end()
        return end and end["status"]

    @property
    def stats(self) -> Optional[Dict[str, int]]:
        """The run's statistics (nodes, failures, ..., time_ms); ``None`` while it runs."""
        end = self._run.end()
        return end and end["stats"]


class Optimum:
    """What :meth:`Model.optimize` found: the best solution, its objective,
    and whether it is proved optimal (``status == "OPTIMAL"``)."""

    def __init__(self, solution: Optional[Solution], end: Dict[str, Any]):
        self.solution = solution
        self.objective: Optional[int] = end["objective"]
        self.status: str = end["status"]
        self.proved: bool = end["status"] == "OPTIMAL"
        self.stats: Dict[str, int] = end["stats"]
        #: ``(objective, seconds)`` of each better solution, in order.
        self.improvements: List[Tuple[int, float]] = end["improvements"]

    def __repr__(self) -> str:
        return f"Optimum(objective={self.objective}, status={self.status!r})"


class Candidate(NamedTuple):
    """One candidate of :meth:`Model.suggest`: the word (the value as the
    output writes it), its value, its score (``None`` without a scored list)
    and the exact number of solutions it leaves (0: the rest cannot be
    filled; ``None``: the time limit stopped the count; ``2**64 - 1``: at
    least that many, cspi counts in 64 bits)."""

    word: str
    value: int
    score: Optional[int]
    count: Optional[int]


class Suggestions(List[Candidate]):
    """What :meth:`Model.suggest` found: the candidates, best score first,
    and :attr:`left`, how many values the variable keeps after propagation
    (counted or not). ``str()`` is the table ``cspi solve --suggest`` prints."""

    def __init__(self, var: str, left: int, candidates: Sequence[Candidate], text: str):
        super().__init__(candidates)
        self.var = var
        self.left = left
        self._text = text

    def __str__(self) -> str:
        return self._text


class Fillability:
    """What :meth:`Model.fillability` found: :attr:`sizes`, the values each
    declared variable keeps after propagation at the root (0 everywhere when
    the root fails); for a crossword, ``str()`` is the map ``cspi solve
    --fillability`` prints and :meth:`svg` the picture."""

    def __init__(self, sizes: Dict[str, int], pictures: Optional[Tuple[str, str]],
                 stopped: bool = False):
        self.sizes = sizes
        self._pictures = pictures
        #: A limit stopped the run before the root was propagated: no sizes, no map.
        self.stopped = stopped

    def __str__(self) -> str:
        if self.stopped:
            return "fillability: UNKNOWN, a limit stopped the run before the model was propagated\n"
        if self._pictures is None:
            return "".join(f"{k}: {v}\n" for k, v in self.sizes.items())
        return self._pictures[0]

    def svg(self) -> Optional[str]:
        """The map as SVG (a crossword's cells shaded by their words left)."""
        return None if self._pictures is None else self._pictures[1]

    def _repr_svg_(self) -> Optional[str]:
        return self.svg()


class Explanation:
    """What :meth:`Model.explain` found. :attr:`status` is ``UNSATISFIABLE``
    (with :attr:`constraints`, a set of constraint instances that cannot all
    hold, each a dict of ``index``, ``line``, ``text``, ``bindings`` and
    ``data``; :attr:`minimal` says whether each one is proved needed),
    ``SATISFIABLE`` (nothing to explain) or ``UNKNOWN`` (the time limit, or
    the model's ``memory_limit``, came first). ``str()`` is what ``cspi explain`` prints, a conflict on a
    crossword drawn on its grid."""

    def __init__(self, text: str, record: Dict[str, Any]):
        self._text = text
        self.status: str = record["status"]
        self.minimal: Optional[bool] = record.get("minimal")
        self.checks: Optional[int] = record.get("checks")
        self.constraints: List[Dict[str, Any]] = record.get("constraints", [])

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Explanation(status={self.status!r}, constraints={len(self.constraints)})"


class Stuck:
    """Where a crossword's search failed when a limit stopped it before a
    fill (:attr:`Model.stuck`): :attr:`cells`, each open cell's share of the
    failures (rows of floats, ``None`` for a block), and :attr:`entries`, the
    entries blamed, most first (dicts of ``name``, ``row``, ``column``,
    ``length``, ``across``, ``share``). ``str()`` is the map ``cspi solve``
    prints; :meth:`svg` draws it."""

    def __init__(self, text: str, record: Dict[str, Any], svg: str):
        self._text = text
        self._svg = svg
        self.cells: List[List[Optional[float]]] = record["cells"]
        self.entries: List[Dict[str, Any]] = record["entries"]

    def __str__(self) -> str:
        return self._text

    def svg(self) -> str:
        """The map as SVG, white to red."""
        return self._svg

    def _repr_svg_(self) -> str:
        return self._svg


class Tried(NamedTuple):
    """A grid :meth:`Model.try_blocks` searched."""

    #: Its new blocks, (row, column) from 1; empty for the grid as drawn.
    blocks: List[Tuple[int, int]]
    #: ``SATISFIABLE`` (it filled), ``UNSATISFIABLE`` (it has no fill) or ``UNKNOWN`` (out of time or memory).
    status: str
    nodes: int
    seconds: float
    #: Why the grid could not be built (an entry no word fits), else ``None``.
    unbuilt: Optional[str]
    #: Its search was stopped because a grid searched beside it filled (``threads``).
    cut_short: bool = False


class Opened:
    """What :meth:`Model.try_blocks` found: :attr:`tried`, every grid
    searched in order, and, when one filled, :attr:`model` (that grid, its
    blocks in place: solve it again, optimise it), :attr:`solution` (its
    fill) and :attr:`picture` (the grid as a picture file writes it). ``str``
    gives what ``cspi solve --try-blocks`` prints."""

    def __init__(self, tried: List[Tried], lines: List[str], model: "Optional[Model]",
                 solution: Optional[Solution], picture: Optional[str]):
        self.tried = tried
        self.model = model
        self.solution = solution
        self.picture = picture
        self._lines = lines

    def __bool__(self) -> bool:
        return self.solution is not None

    def __str__(self) -> str:
        text = "".join(self._lines)
        if self.solution is not None and self.picture is not None:
            text += "the grid with its new blocks:\n" + self.picture + str(self.solution)
        return text

    def __repr__(self) -> str:
        return f"<cspi.Opened: {len(self.tried)} grids, {'filled' if self else 'none filled'}>"


class Model:
    """A loaded model: :meth:`solve`, :meth:`solutions`, :meth:`count`,
    :meth:`optimize`, each taking search options as keyword arguments. Each
    run leaves its :attr:`status` and :attr:`stats` here."""

    def __init__(self, loaded: Any):
        self._loaded = loaded
        #: How the last run ended: ``SATISFIABLE``, ``UNSATISFIABLE``, ``ALL_SOLUTIONS``, ``OPTIMAL``, ``UNKNOWN``.
        self.status: Optional[str] = None
        #: The last run's statistics: nodes, failures, backtracks, max_depth, propagations, solutions, restarts, time_ms.
        self.stats: Dict[str, int] = {}
        self._rejected: List[str] = []
        self._blame: List[float] = []

    @property
    def names(self) -> List[str]:
        """The declared variables and arrays, in order."""
        return self._loaded.names()

    def with_params(self, params: Optional[Mapping[str, Any]] = None, **kw: Any) -> "Model":
        """The same model checked again with other parameter values (the
        model text is not read again): ``m.with_params(puzzle=p)``."""
        pairs, _ = _overrides({**(params or {}), **kw}, None)
        return Model(self._loaded.with_params(pairs))

    def _record(self, run: Any) -> None:
        end = run.end()
        if end is not None:
            self.status = end["status"]
            self.stats = end["stats"]
            self._blame = end["blame"]
            if end["rejected"]:
                raise RuntimeError(
                    "the independent checker rejected a solution; this is a bug in cspi: "
                    + end["rejected"][0]
                )

    def _finish(self, run: Any) -> List[Solution]:
        """Drains a run to its end, keeping every solution handed over."""
        found: List[Solution] = []
        try:
            while (raw := run.next()) is not None:
                found.append(Solution(self, raw))
        except BaseException:
            # An exception raised outside the wait (a KeyboardInterrupt
            # between two solutions, say) must still stop the search thread.
            run.close()
            raise
        finally:
            self._record(run)
        return found

    def solve(self, **options: Any) -> Optional[Solution]:
        """The first solution, or ``None`` when there is none (``status``
        says whether the model is unsatisfiable or a limit stopped the search)."""
        found = self._finish(self._loaded.start("solutions", 1, options))
        return found[0] if found else None

    def solutions(self, limit: Optional[int] = None, **options: Any) -> Solutions:
        """An iterator over the solutions (at most ``limit``); the search
        stops when the loop does."""
        return Solutions(self, self._loaded.start("solutions", limit, options))

    def count(self, **options: Any) -> int:
        """The number of solutions (by components and products where sound,
        without listing them). ``status`` is ``ALL_SOLUTIONS`` when the count is
        complete, ``UNKNOWN`` when a limit stopped it (the count so far).
        Raises ``OverflowError`` when the count reaches 2**64 (cspi counts in
        64 bits)."""
        self._finish(self._loaded.start("count", None, options))
        n = self.stats["solutions"]
        if n == 2**64 - 1:
            # cspi counts in 64 bits: this value means "at least".
            raise OverflowError(f"the count does not fit 64 bits: at least {n} solutions")
        return n

    def optimize(self, **options: Any) -> Optimum:
        """Branch and bound on the model's objective: the best solution found
        and whether it is proved optimal."""
        run = self._loaded.start("optimize", None, options)
        found = self._finish(run)
        return Optimum(found[-1] if found else None, run.end())

    def suggest(self, var: str, top: int = 10, time_limit: Optional[float] = None,
                threads: int = 1) -> Suggestions:
        """The ``top`` best-scored words for one slot (``var``, as the output
        names it: ``"xw[7]"``), each with the exact number of fills of the
        rest of the grid it leaves (``cspi solve --suggest VAR``), counted
        by components. ``time_limit`` (seconds) bounds the whole call; a
        candidate it stops has ``count`` ``None``. ``threads`` words are
        counted at once."""
        if isinstance(top, bool) or not isinstance(top, int) or top < 0:
            raise ValueError(f"top {top!r}: give a count of words, 0 or more")
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads {threads!r}: give 1 to 1024")
        left, found, text = self._loaded.suggest(var, top, time_limit, threads)
        return Suggestions(var, left, [Candidate(*c) for c in found], text)

    def fillability(self) -> Fillability:
        """How many values each variable keeps after propagation at the
        root; for a crossword, its fillability map (``--fillability``).
        Stopped by the model's ``memory_limit`` before the root was
        propagated, :attr:`Fillability.stopped` is true and nothing is known."""
        found = self._loaded.fillability()
        if found is None:
            return Fillability({}, None, stopped=True)
        sizes, pictures = found
        return Fillability(dict(sizes), pictures)

    def explain(self, time_limit: float = 60.0) -> Explanation:
        """Why the model has no solution (``cspi explain``): a minimal set of
        constraint instances that cannot all hold, found within
        ``time_limit`` seconds (the smallest found so far when it runs out)."""
        text, line = self._loaded.explain(time_limit)
        return Explanation(text, json.loads(line))

    def try_blocks(self, most: int = 1, time_per_grid: float = 5.0,
                   time_limit: Optional[float] = None, threads: int = 1) -> Opened:
        """A crossword with no fill found, tried again with up to ``most``
        (1 to 3) cheater blocks, each with its 180° twin in a symmetric grid,
        where they make a fill most likely, then where its search failed
        most (``cspi solve --try-blocks``): the grid
        as drawn, then each set of blocks, up to ``time_per_grid`` seconds
        each (in rounds: an eighth of it each, then twice as long for the
        grids still undecided), to the first grid that fills; ``time_limit`` bounds the whole call.
        ``threads`` grids are searched at once (the grid as drawn on as many
        threads)."""
        if isinstance(most, bool) or not isinstance(most, int):
            raise ValueError(f"most {most!r}: give 1 to 3 blocks")
        # Below 1 here: a negative count would not fit the extension's unsigned one.
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads {threads!r}: give 1 to 1024")
        tried, found = self._loaded.try_blocks(most, time_per_grid, time_limit, threads)
        grids = [Tried(list(b), st, n, sec, why, cut) for (b, st, n, sec, why, cut, _) in tried]
        lines = [line for (*_, line) in tried]
        if found is None:
            return Opened(grids, lines, None, None, None)
        loaded, raw, picture = found
        model = Model(loaded)
        return Opened(grids, lines, model, Solution(model, raw), picture)

    @property
    def stuck(self) -> Optional[Stuck]:
        """After a run on a crossword that a limit stopped before a fill:
        where its search failed, else ``None``."""
        got = self._loaded.stuck(self._blame) if self._blame else None
        if got is None:
            return None
        text, line, svg = got
        return Stuck(text, json.loads(line), svg)

    def __repr__(self) -> str:
        return f"<cspi.Model {', '.join(self.names)}>"
