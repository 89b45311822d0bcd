"""tabula from Python: tabletop games whose rules are data.

Load a game (a shipped one by id, or a YAML file of your own), then play
it between bots, simulate many games, solve it, and measure how much a
bot gives away. Everything returns plain Python data (dicts, lists,
numbers, strings), and long work runs without holding the GIL.

    >>> import tabula
    >>> game = tabula.load_game("braverats")
    >>> game.players
    ['red', 'blue']
    >>> report = tabula.sim(game, games=1000, seed=1)
    >>> report["seats"][0]["wins"]["rate"]   # doctest: +SKIP

`game.spiel()` steps through a game as OpenSpiel's states do (`Spiel`,
`State`: integer action ids, explicit chance nodes, observation strings
and tensors); `tabula.openspiel` makes a game a pyspiel game and
`tabula.pettingzoo` a PettingZoo AEC environment (each imported on its
own: they need those packages).

Errors (a game file that does not load, a bad variant, parameter or bot
kind, an analysis that refuses the game, an illegal action or a player
the game has not) raise `TabulaError`, whose message starts with
FILE:LINE:COLUMN where the problem has a place.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import threading

from . import _tabula
from ._tabula import (
    CHANCE,
    DEFAULT_WALK,
    MAX_STATES,
    SIMULTANEOUS,
    TERMINAL,
    Game,
    Spiel,
    State,
    TabulaError,
)

__all__ = [
    "Game",
    "Spiel",
    "State",
    "TabulaError",
    "MAX_STATES",
    "DEFAULT_WALK",
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "load_game",
    "games",
    "library_dir",
    "play",
    "sim",
    "solve",
    "exploitability",
]

Bots = Union[None, Sequence[str], Mapping[str, str]]


def load_game(
    name_or_path: Union[str, "os.PathLike[str]"],
    variants: Union[None, str, Sequence[str]] = None,
    params: Optional[Mapping[str, Union[int, str]]] = None,
    games_dir: Union[None, str, "os.PathLike[str]"] = None,
) -> Game:
    """Load a game by id or path, with variants and parameters.

    `name_or_path`: a game's id (looked for in `games_dir`, then among the
    games shipped with the package) or the path of a game's YAML file.
    `variants`: a variant id or a list of them, applied in order.
    `params`: parameter ids to values (a number, or a named value).
    Raises `TabulaError` when the game does not load.
    """
    if isinstance(variants, str):
        variants = [variants]
    return _tabula.load_game(
        name_or_path,
        list(variants) if variants is not None else None,
        dict(params) if params is not None else None,
        games_dir,
    )


def games(games_dir: Union[None, str, "os.PathLike[str]"] = None) -> List[str]:
    """The ids of the shipped games (and of those in `games_dir`)."""
    return _tabula.games(games_dir)


def library_dir() -> str:
    """The folder the shipped games are written out to (for reading)."""
    return str(_tabula.library_dir())


def play(game: Game, bots: Bots = None, seed: int = 0, max_decisions: int = 100_000) -> Dict[str, Any]:
    """One game between bots; see `Game.play`."""
    return game.play(bots, seed, max_decisions)


def sim(
    game: Game,
    games: int = 1000,
    bots: Bots = None,
    seed: int = 0,
    jobs: Optional[int] = None,
    max_decisions: int = 100_000,
) -> Dict[str, Any]:
    """Many seeded games and their figures, as `tabula sim --json`; see `Game.sim`."""
    return game.sim(games, bots, seed, jobs, max_decisions)


def solve(game: Game, **options: Any) -> Dict[str, Any]:
    """The game's value and strategies, as `tabula solve --json`; see `Game.solve`."""
    return game.solve(**options)


def exploitability(game: Game, bot: str, **options: Any) -> Dict[str, Any]:
    """How much a best response wins against a bot kind; see `Game.exploitability`."""
    return game.exploitability(bot, **options)



# Handles made again from pickles, one per game (as loaded) and walk in
# this process: a pickled state of an open game then reads back under one
# handle, and a game is walked once however many states are unpickled.
_SPIELS: Dict[Any, Spiel] = {}
_SPIELS_LOCK = threading.Lock()


def _error(kind: str, message: str) -> TabulaError:
    """A `TabulaError` the Python side raises (the adapters): `kind` as
    the extension's errors have it, no position, notes nor refusal."""
    e = TabulaError(message)
    e.kind, e.at, e.notes, e.refusal = kind, None, [], None
    return e


def _key(source: Any) -> Any:
    name, variants, params, games_dir = source
    return (name, tuple(variants), tuple(sorted(params.items())), games_dir and str(games_dir))


def _spiel(source: Any, walk: int, made: Any = None, keep: Optional[int] = None) -> Spiel:
    """The handle of the game `source` names (`Game._source`): how a
    pickled `Spiel` or `State` is read back (`made`: how to make it where
    this process has none yet, else by loading the game again; `keep`:
    its budget of kept moves, None the default)."""
    key = (_key(source), walk, keep)
    with _SPIELS_LOCK:
        found = _SPIELS.get(key)
    if found is None:
        if made is not None:
            found = made()
        elif keep is None:
            found = load_game(*source).spiel(walk)
        else:
            found = load_game(*source).spiel(walk, keep=keep)
        with _SPIELS_LOCK:
            found = _SPIELS.setdefault(key, found)
    return found
