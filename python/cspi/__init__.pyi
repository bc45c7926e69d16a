"""Type stubs of the cspi package (see cspi/__init__.py for the docstrings)."""

import os
from typing import Any, Dict, Iterator, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

PathLike = Union[str, "os.PathLike[str]"]
Value = Any  # int, bool, str, or nested lists / dicts of them

class ModelError(Exception):
    """A model or its data is wrong; str() is cspi's rendered diagnostic."""

def load(
    path: PathLike,
    params: Optional[Mapping[str, Any]] = None,
    data: Union[Mapping[str, Any], PathLike, Sequence[PathLike], None] = None,
    memory_limit: Union[int, str, None] = None,
) -> Model: ...
def loads(
    text: str,
    params: Optional[Mapping[str, Any]] = None,
    data: Union[Mapping[str, Any], PathLike, Sequence[PathLike], None] = None,
    name: str = "<string>",
    dir: PathLike = ".",
    memory_limit: Union[int, str, None] = None,
) -> Model: ...

class Candidate(NamedTuple):
    word: str
    value: int
    score: Optional[int]
    count: Optional[int]

class Suggestions(List[Candidate]):
    var: str
    left: int

class Fillability:
    sizes: Dict[str, int]
    stopped: bool
    def svg(self) -> Optional[str]: ...
    def _repr_svg_(self) -> Optional[str]: ...

class Explanation:
    status: str
    minimal: Optional[bool]
    checks: Optional[int]
    constraints: List[Dict[str, Any]]

class Stuck:
    cells: List[List[Optional[float]]]
    entries: List[Dict[str, Any]]
    def svg(self) -> str: ...
    def _repr_svg_(self) -> str: ...

class Tried(NamedTuple):
    blocks: List[Tuple[int, int]]
    status: str
    nodes: int
    seconds: float
    unbuilt: Optional[str]
    cut_short: bool = ...

class Opened:
    tried: List[Tried]
    model: Optional[Model]
    solution: Optional[Solution]
    picture: Optional[str]
    def __bool__(self) -> bool: ...

class Solution(Dict[str, Value]):
    objective: Optional[int]
    def svg(self) -> Optional[str]: ...
    def _repr_svg_(self) -> Optional[str]: ...
    def ipuz(self) -> Optional[str]: ...
    def puz(self) -> Optional[bytes]: ...

class Solutions(Iterator[Solution]):
    def __iter__(self) -> Solutions: ...
    def __next__(self) -> Solution: ...
    def close(self) -> None: ...
    def __enter__(self) -> Solutions: ...
    def __exit__(self, *exc: Any) -> None: ...
    @property
    def status(self) -> Optional[str]: ...
    @property
    def stats(self) -> Optional[Dict[str, int]]: ...

class Optimum:
    solution: Optional[Solution]
    objective: Optional[int]
    status: str
    proved: bool
    stats: Dict[str, int]
    improvements: List[Tuple[int, float]]

class Model:
    status: Optional[str]
    stats: Dict[str, int]
    @property
    def names(self) -> List[str]: ...
    def with_params(self, params: Optional[Mapping[str, Any]] = None, **kw: Any) -> Model: ...
    def solve(
        self,
        *,
        var: Optional[str] = None,
        val: Optional[str] = None,
        propagation: Optional[str] = None,
        restarts: Optional[str] = None,
        lns: Optional[str] = None,
        guide: Optional[str] = None,
        seed: Optional[int] = None,
        time_limit: Optional[float] = None,
        node_limit: Optional[int] = None,
        threads: Optional[int] = None,
        check: bool = False,
    ) -> Optional[Solution]: ...
    def solutions(
        self,
        limit: Optional[int] = None,
        *,
        var: Optional[str] = None,
        val: Optional[str] = None,
        propagation: Optional[str] = None,
        restarts: Optional[str] = None,
        lns: Optional[str] = None,
        guide: Optional[str] = None,
        seed: Optional[int] = None,
        time_limit: Optional[float] = None,
        node_limit: Optional[int] = None,
        threads: Optional[int] = None,
        check: bool = False,
    ) -> Solutions: ...
    def count(
        self,
        *,
        var: Optional[str] = None,
        val: Optional[str] = None,
        propagation: Optional[str] = None,
        restarts: Optional[str] = None,
        seed: Optional[int] = None,
        time_limit: Optional[float] = None,
        node_limit: Optional[int] = None,
        threads: Optional[int] = None,
        check: bool = False,
    ) -> int: ...
    def optimize(
        self,
        *,
        var: Optional[str] = None,
        val: Optional[str] = None,
        propagation: Optional[str] = None,
        restarts: Optional[str] = None,
        lns: Optional[str] = None,
        guide: Optional[str] = None,
        seed: Optional[int] = None,
        time_limit: Optional[float] = None,
        node_limit: Optional[int] = None,
        threads: Optional[int] = None,
        check: bool = False,
    ) -> Optimum: ...
    def suggest(
        self, var: str, top: int = 10, time_limit: Optional[float] = None, threads: int = 1
    ) -> Suggestions: ...
    def fillability(self) -> Fillability: ...
    def explain(self, time_limit: float = 60.0) -> Explanation: ...
    def try_blocks(
        self,
        most: int = 1,
        time_per_grid: float = 5.0,
        time_limit: Optional[float] = None,
        threads: int = 1,
    ) -> Opened: ...
    @property
    def stuck(self) -> Optional[Stuck]: ...
