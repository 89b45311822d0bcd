"""tabula games as OpenSpiel games: `register` makes a tabula game a
`pyspiel` game (a Python game, as OpenSpiel's own `python_kuhn_poker`),
so that OpenSpiel's algorithms run on it unchanged.

    >>> import pyspiel, tabula, tabula.openspiel
    >>> kuhn = tabula.load_game("kuhn-poker", games_dir="tests/reference/games")
    >>> game = tabula.openspiel.register(kuhn)      # doctest: +SKIP
    >>> game.get_type().short_name                  # doctest: +SKIP
    'tabula_kuhn_poker'
    >>> pyspiel.load_game("tabula_kuhn_poker")      # doctest: +SKIP

Every state delegates to `tabula.State` (the library's state API): the
action ids, chance outcomes, returns, observation and information-state
strings and the observation tensor are tabula's. The game's information
(`num_distinct_actions`, `max_chance_outcomes`, the range of returns,
their sum, `max_game_length`) is what walking the game found
(`Spiel.bounds()`) for a *closed* game, one whose every position the
walk reached (docs/state-api.md lists them).

An *open* game (too many positions to walk: BraveRats, Experior) registers
with what the rules alone tell (`Spiel.by_rule()`: its actions are the
definition's cards, cells and words and the texts the walk met, ids the
same in every process; a game won or lost returns between
-1 and 1, summing to 0) and what the caller declares in `declare`: its
longest length (`max_game_length`, required), and where the rules do not
tell them the range of returns (`min_utility`, `max_utility`), their sum
(`utility_sum`), the most chance outcomes (`max_chance_outcomes`, default
0), whether players ever choose at once (`simultaneous`, default True)
and whether the information is perfect (`perfect_information`, default
False). Each declaration is checked as the game is played: an action past
those, a longer game, more chance outcomes, returns out
of range or players choosing at once in a game declared turn by turn
raise `TabulaError` (kind "refused"), as does chance too large to list.

Decisions where OpenSpiel asks more than tabula says (docs/python.md):
the information is perfect where no two positions the walk met look
the same to a player (`bounds()["perfect_information"]`), else
imperfect; chance is explicit stochastic
where the walk met a chance node (else deterministic), rewards come at
the end (terminal reward model), and the utility is zero-sum or
constant-sum where every end's returns add up to one number, else
general-sum.
"""

from __future__ import annotations

import threading
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pyspiel

import tabula
from tabula import DEFAULT_WALK, Game, Spiel, TabulaError

__all__ = ["register", "short_name_of", "TabulaGame", "TabulaState"]

# The games registered in this process: short name -> (game source,
# walk, the game's class, what was declared).
_REGISTERED: Dict[str, Tuple[Any, int, Any, Any]] = {}
_LOCK = threading.Lock()


def short_name_of(game: Game) -> str:
    """The default short name: `tabula_` and the id, dashes as underscores."""
    return "tabula_" + game.id.replace("-", "_")


def _refuse(message: str) -> TabulaError:
    return tabula._error("refused", message)


# What an open game may declare, and its defaults (None: required).
_DECLARABLE = {
    "max_game_length": None,
    "min_utility": None,
    "max_utility": None,
    "utility_sum": None,
    "max_chance_outcomes": 0,
    "simultaneous": True,
    "perfect_information": False,
}


def _open_bounds(spiel: Spiel, declare: Dict[str, Any], why: TabulaError) -> Dict[str, Any]:
    """An open game's bounds: the rules' (`by_rule`), then the caller's."""
    unknown = sorted(set(declare) - set(_DECLARABLE))
    if unknown:
        raise _refuse(f"declare= takes {', '.join(_DECLARABLE)}; not {', '.join(unknown)}")
    rule = spiel.by_rule()
    bounds = dict(_DECLARABLE)
    bounds.update({k: v for k, v in rule.items() if v is not None and k in bounds})
    bounds.update(declare)
    missing = [k for k in ("max_game_length", "min_utility", "max_utility") if bounds[k] is None]
    if missing:
        raise _refuse(
            f"{spiel.game.id} is open ({why}), so OpenSpiel cannot learn its "
            f"{', '.join(missing)} from a walk: declare them, as "
            f"register(game, declare={{{', '.join(repr(k) + ': ...' for k in missing)}}}); "
            "each is checked as the game is played"
        )
    bounds["num_distinct_actions"] = rule["num_distinct_actions"]
    return bounds


def _types(spiel: Spiel, short_name: str, declare: Optional[Dict[str, Any]]) -> Tuple[Any, Any, Any]:
    """OpenSpiel's GameType and GameInfo, and the limits play checks
    (None for a closed game, whose bounds the walk found)."""
    limits = None
    try:
        actions = spiel.num_distinct_actions()
        bounds = spiel.bounds()
    except TabulaError as e:
        if declare is None:
            raise _refuse(
                f"{spiel.game.id} is open ({e}): OpenSpiel fixes a game's number of actions and "
                "its longest length before play. Register it with declare={'max_game_length': N} "
                "(its actions are then its fixed ones, `fixed_actions()`; docs/python.md), or a smaller "
                "variant or a larger walk (walk=) may close it"
            ) from e
        bounds = _open_bounds(spiel, declare, e)
        actions = bounds["num_distinct_actions"]
        limits = bounds
    if bounds["max_game_length"] is None:
        raise _refuse(
            f"{spiel.game.id} cannot be an OpenSpiel game: a line of play can come back "
            "to a position it passed, so the game has no longest length"
        )
    if bounds["min_utility"] is None:
        raise _refuse(f"{spiel.game.id} cannot be an OpenSpiel game: no end was reached")
    total = bounds["utility_sum"]
    if total is None:
        utility = pyspiel.GameType.Utility.GENERAL_SUM
    elif total == 0:
        utility = pyspiel.GameType.Utility.ZERO_SUM
    else:
        utility = pyspiel.GameType.Utility.CONSTANT_SUM
    players = spiel.num_players()
    chance = bounds["max_chance_outcomes"]
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=f"tabula {spiel.game.name}",
        dynamics=(
            pyspiel.GameType.Dynamics.SIMULTANEOUS
            if bounds["simultaneous"]
            else pyspiel.GameType.Dynamics.SEQUENTIAL
        ),
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if chance > 0
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if bounds["perfect_information"]
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={},
    )
    lo, hi = bounds["min_utility"], bounds["max_utility"]
    game_info = pyspiel.GameInfo(
        num_distinct_actions=actions,
        max_chance_outcomes=chance,
        num_players=players,
        min_utility=lo,
        # OpenSpiel asks for a range (min < max).
        max_utility=hi if hi > lo else lo + 1.0,
        utility_sum=total,
        max_game_length=bounds["max_game_length"],
    )
    return game_type, game_info, limits


def register(
    game: Game,
    short_name: Optional[str] = None,
    walk: int = DEFAULT_WALK,
    declare: Optional[Dict[str, Any]] = None,
) -> "TabulaGame":
    """Register `game` (a `tabula.Game`, with its variants and parameters)
    as a pyspiel game named `short_name` (default `tabula_<id>`) and
    return it loaded (`pyspiel.load_game(short_name)` gives the same).

    Registering the same game again under the same name returns it; a
    name already taken by another game raises `TabulaError` (kind
    "usage"). An open game needs `declare` (at least its
    `max_game_length`; see the module's docstring), else raises
    `TabulaError` (kind "refused"); a closed game's bounds are the walk's
    and `declare` is not used.
    """
    name = short_name or short_name_of(game)
    source = tabula._key(game._source)
    with _LOCK:
        known = _REGISTERED.get(name)
        if known is not None:
            if known[0] != source or known[1] != walk or known[3] != declare:
                raise tabula._error(
                    "usage", f"`{name}` is registered already, for another game, walk or declare: give another short_name"
                )
            return pyspiel.load_game(name)
        if name in pyspiel.registered_names():
            raise tabula._error("usage", f"`{name}` is a pyspiel game already: give another short_name")
        spiel = tabula._spiel(game._source, walk, made=lambda: game.spiel(walk))
        game_type, game_info, limits = _types(spiel, name, declare)
        # A class per game, as OpenSpiel's Python games register theirs:
        # pyspiel keeps the creator until the process ends, after Python
        # has stopped, and a closure freed then aborts the process.
        made = type(
            "TabulaGame_" + name,
            (TabulaGame,),
            {"_spiel": spiel, "_game_type": game_type, "_game_info": game_info, "_limits": limits},
        )
        _REGISTERED[name] = (source, walk, made, dict(declare) if declare else declare)
        pyspiel.register_game(game_type, made)
    return pyspiel.load_game(name)


class TabulaGame(pyspiel.Game):
    """A tabula game as a pyspiel game: `register` makes a subclass per
    game, with its handle, type and information."""

    _spiel: Spiel
    _game_type: Any
    _game_info: Any
    # An open game's declared bounds, checked in play (None: closed).
    _limits: Optional[Dict[str, Any]]

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        super().__init__(self._game_type, self._game_info, params or dict())
        self.spiel = self._spiel
        self.limits = self._limits

    def new_initial_state(self) -> "TabulaState":
        return TabulaState(self, self.spiel.new_initial_state())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "_Observer":
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        return _Observer(self.spiel, iig_obs_type)


class TabulaState(pyspiel.State):
    """A state of a tabula game, delegating to `tabula.State` (`_st`)."""

    def __init__(self, game: TabulaGame, st: Optional[tabula.State] = None):
        super().__init__(game)
        self._st = st if st is not None else game.spiel.new_initial_state()
        self._limits = game.limits
        # The players' moves made (chance's outcomes are not counted, as
        # in the walk's and OpenSpiel's longest length).
        self._moves = 0
        if self._limits is not None:
            self._check(self._st, 0)

    def _check(self, st: tabula.State, moves: int) -> None:
        """An open game's declarations, checked at `st`, `moves` players'
        moves from the start."""
        lim = self._limits
        gid = st.spiel.game.id

        def broken(what: str) -> TabulaError:
            return _refuse(f"{gid} broke what it was registered with: {what}")

        if moves > lim["max_game_length"]:
            raise broken(f"it ran past max_game_length={lim['max_game_length']}: declare more")
        if st.is_simultaneous_node() and not lim["simultaneous"]:
            raise broken("players choose at once here, and it was declared simultaneous=False")
        if st.is_chance_node():
            try:
                outs = st.chance_outcomes()
            except TabulaError as e:
                raise broken(f"its chance here is too large to list ({e})") from e
            if len(outs) > lim["max_chance_outcomes"]:
                raise broken(
                    f"a chance node has {len(outs)} outcomes, past max_chance_outcomes="
                    f"{lim['max_chance_outcomes']}: declare more"
                )
        for p in st.players_to_move():
            past = [a for a in st.legal_actions(p) if a >= lim["num_distinct_actions"]]
            if past:
                raise broken(
                    f"it offers `{st.action_to_string(p, past[0])}`, which is none of the "
                    "definition's cards, cells and words nor of the texts the walk met: an open "
                    "game's other actions are numbered as met, not the same from one process to the next"
                )
        if st.is_terminal():
            r = st.returns()
            if min(r) < lim["min_utility"] or max(r) > lim["max_utility"]:
                raise broken(f"returns {r} are outside [{lim['min_utility']}, {lim['max_utility']}]")
            total = lim["utility_sum"]
            if total is not None and abs(sum(r) - total) > 1e-9:
                raise broken(f"returns {r} do not sum to utility_sum={total}")

    def current_player(self) -> int:
        return self._st.current_player()

    def _legal_actions(self, player: int) -> List[int]:
        return self._st.legal_actions(player)

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        return self._st.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        moves = self._moves + (0 if self._st.is_chance_node() else 1)
        self._step(self._st.child(action), moves)

    def _apply_actions(self, actions: List[int]) -> None:
        after = self._st.clone()
        after.apply_actions(actions)
        self._step(after, self._moves + 1)

    def _step(self, after: tabula.State, moves: int) -> None:
        """Go to `after`, checked first: a declaration it breaks raises
        and leaves this state as it was."""
        if self._limits is not None:
            self._check(after, moves)
        self._st, self._moves = after, moves

    def _action_to_string(self, player: int, action: int) -> str:
        return self._st.action_to_string(player, action)

    def is_terminal(self) -> bool:
        return self._st.is_terminal()

    def returns(self) -> List[float]:
        return self._st.returns()

    def rewards(self) -> List[float]:
        return self._st.rewards()

    def __str__(self) -> str:
        return str(self._st)


class _Observer:
    """OpenSpiel's Python observer (open_spiel/python/observation.py): the
    default observation (tabula's observation string and tensor) or, with
    perfect recall, the information state (a string only)."""

    def __init__(self, spiel: Spiel, iig_obs_type: Any):
        self.recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "tabula games observe as a player does (public and the player's own "
                "information); other observation types are not supported"
            )
        if self.recall:
            self.tensor = None
            self.dict: Dict[str, Any] = {}
            return
        layout = spiel.tensor_layout()
        self.tensor = np.zeros(sum(int(np.prod(s)) for _, s in layout), np.float32)
        self.dict = {}
        at = 0
        for name, shape in layout:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state: TabulaState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = state._st.observation_tensor(player)

    def string_from(self, state: TabulaState, player: int) -> str:
        if self.recall:
            return state._st.information_state_string(player)
        return state._st.observation_string(player)
