"""Type stubs of the extension module `tabula._tabula` (python/src)."""

import os
import pathlib
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

MAX_STATES: int

Bots = Union[None, Sequence[str], Mapping[str, str]]

class TabulaError(Exception):
    """An error of tabula's; the message starts with FILE:LINE:COLUMN where it has a place."""

    kind: str
    at: Optional[str]
    notes: List[str]
    refusal: Optional[Dict[str, Any]]

class Game:
    """A game, loaded once; its methods release the GIL while they work."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def path(self) -> pathlib.Path: ...
    @property
    def players(self) -> List[str]: ...
    @property
    def applied_variants(self) -> List[str]: ...
    @property
    def variants(self) -> Dict[str, Dict[str, Any]]: ...
    @property
    def parameters(self) -> Dict[str, Dict[str, Any]]: ...
    def rules(self) -> str: ...
    def play(
        self, bots: Bots = None, seed: int = 0, max_decisions: int = 100_000
    ) -> Dict[str, Any]: ...
    def sim(
        self,
        games: int = 1000,
        bots: Bots = None,
        seed: int = 0,
        jobs: Optional[int] = None,
        max_decisions: int = 100_000,
    ) -> Dict[str, Any]: ...
    def solve(
        self,
        seed: Optional[int] = None,
        deals: Optional[int] = None,
        jobs: Optional[int] = None,
        max_states: int = ...,
        exploit: Sequence[str] = ...,
        samples: int = 4,
        target: float = 0.001,
        iterations: int = 100_000,
        seconds: float = 600.0,
        sampling: Optional[str] = None,
        probe_games: int = 100,
        eval_games: int = 20_000,
    ) -> Dict[str, Any]: ...
    def exploitability(
        self,
        bot: str,
        samples: int = 4,
        max_states: int = ...,
        jobs: Optional[int] = None,
    ) -> Dict[str, Any]: ...

def load_game(
    name_or_path: Union[str, os.PathLike[str]],
    variants: Optional[List[str]] = None,
    params: Optional[Dict[str, Union[int, str]]] = None,
    games_dir: Union[None, str, os.PathLike[str]] = None,
) -> Game: ...
def games(games_dir: Union[None, str, os.PathLike[str]] = None) -> List[str]: ...
def library_dir() -> pathlib.Path: ...
