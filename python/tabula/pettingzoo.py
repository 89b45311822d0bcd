"""tabula games as PettingZoo AEC environments: `env(game)` gives an
`AECEnv` whose agents are the game's players, whose actions are the
state API's ids (`Discrete(num_distinct_actions)`) and whose
observations are the observation tensor with an action mask:

    >>> import tabula, tabula.pettingzoo
    >>> kuhn = tabula.load_game("kuhn-poker", games_dir="tests/reference/games")
    >>> env = tabula.pettingzoo.env(kuhn)
    >>> env.reset(seed=1)
    >>> for agent in env.agent_iter():
    ...     obs, reward, terminated, truncated, info = env.last()
    ...     mask = obs["action_mask"]
    ...     env.step(None if terminated else int(mask.nonzero()[0][0]))

- Chance is drawn inside the environment, from the generator
  `reset(seed=)` seeds (the listed outcomes by their probabilities, or
  a draw too large to list as play makes it).
- Where several players choose at once, they step one after another;
  none sees the others' choices before all have chosen, and the joint
  action is applied when the last has stepped.
- Rewards are the change in each player's return at each step (tabula's
  returns come at the end).
- The action space is fixed before play: a closed game's every action
  (docs/state-api.md); an open game's are its fixed ones
  (`fixed_actions()`: the definition's cards, cells and words and the
  texts the walk met, the same in every process), and one that offers
  another text (a move of Breakthrough's the walk did not reach) raises
  `TabulaError` (kind "refused") when it does.

Needs the `pettingzoo` package (tested with 1.27.0, gymnasium 1.4.0).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Union

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

import tabula
from tabula import DEFAULT_WALK, Game, Spiel, TabulaError

__all__ = ["env", "TabulaEnv"]


_error = tabula._error


def env(game: Union[Game, Spiel], walk: int = DEFAULT_WALK, render_mode: Optional[str] = None) -> "TabulaEnv":
    """The AEC environment of `game` (a `tabula.Game`, or its `Spiel`)."""
    return TabulaEnv(game, walk=walk, render_mode=render_mode)


class TabulaEnv(AECEnv):
    """A tabula game as a PettingZoo AEC environment (see the module)."""

    metadata = {"name": "tabula", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: Union[Game, Spiel], walk: int = DEFAULT_WALK, render_mode: Optional[str] = None):
        super().__init__()
        self.spiel = game if isinstance(game, Spiel) else game.spiel(walk)
        # An open game's actions: its fixed ones (others are refused as
        # met, `_mask`).
        closed = self.spiel.closed
        actions = self.spiel.num_distinct_actions() if closed else self.spiel.fixed_actions()
        if not closed and actions == 0:
            raise _error(
                "refused",
                f"{self.spiel.game.id} cannot be a PettingZoo environment: it is open and its scripts "
                "make every action's text (none is a card, cell or word of its definition), so no "
                "action space can be fixed before play. A smaller variant or parameters, or a larger "
                "walk (walk=), may close it",
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise _error("usage", f"render_mode {render_mode!r}: None or 'ansi'")
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"tabula_{self.spiel.game.id}")
        self.possible_agents = list(self.spiel.game.players)
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.spiel.tensor_size()
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._actions = actions
        self.state: Optional[tabula.State] = None
        self._pending: Dict[int, int] = {}
        self.np_random, _ = seeding.np_random(None)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def __str__(self) -> str:
        return self.metadata["name"]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if seed is not None or self.state is None:
            self.np_random, _ = seeding.np_random(seed)
        self.state = self.spiel.new_initial_state()
        self._pending = {}
        self._chance()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _chance(self) -> None:
        """Draw chance's outcomes until a player chooses or the game ends."""
        st = self.state
        while st.is_chance_node():
            try:
                outcomes = st.chance_outcomes()
            except TabulaError as e:
                if e.kind != "refused":
                    raise
                st.sample_chance(int(self.np_random.integers(0, 2**63 - 1)))
                continue
            ids = [a for a, _ in outcomes]
            probs = np.array([p for _, p in outcomes], dtype=np.float64)
            st.apply_action(int(self.np_random.choice(ids, p=probs / probs.sum())))

    def _select(self) -> None:
        """The next agent: the first who chooses now and has not yet."""
        waiting = [p for p in self.state.players_to_move() if p not in self._pending]
        if waiting:
            self.agent_selection = self.possible_agents[waiting[0]]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def _mask(self, player: int) -> np.ndarray:
        mask = np.zeros(self._actions, np.int8)
        if player in self.state.players_to_move() and player not in self._pending:
            legal = self.state.legal_actions(player)
            past = [a for a in legal if a >= self._actions]
            if past:
                raise _error(
                    "refused",
                    f"{self.spiel.game.id} offers `{self.state.action_to_string(player, past[0])}`, which is "
                    "none of the definition's cards, cells and words nor of the texts the walk met: the action "
                    "space is fixed before play, and an open game's other texts are numbered as met",
                )
            mask[legal] = 1
        return mask

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        p = self._index[agent]
        return {
            "observation": np.asarray(self.state.observation_tensor(p), dtype=np.float32),
            "action_mask": self._mask(p),
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        p = self._index[agent]
        if action is None:
            raise _error("move", f"{agent} chooses now: give an action id")
        action = int(action)
        if action not in self.state.legal_actions(p):
            raise _error("move", f"{action} is not a legal action of {agent} now")
        self._cumulative_rewards[agent] = 0.0
        before = self.state.returns()
        if self.state.is_simultaneous_node():
            self._pending[p] = action
            if set(self._pending) >= set(self.state.players_to_move()):
                pending, self._pending = self._pending, {}
                self.state.apply_actions(pending)
        else:
            self.state.apply_action(action)
        self._chance()
        after = self.state.returns()
        self.rewards = {a: float(after[self._index[a]] - before[self._index[a]]) for a in self.agents}
        if self.state.is_terminal():
            self.terminations = {a: True for a in self.agents}
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> Optional[str]:
        """What the next agent sees (an observation string), as text."""
        if self.state is None:
            return None
        p = self._index.get(self.agent_selection, 0)
        return self.state.observation_string(p)

    def close(self) -> None:
        pass
