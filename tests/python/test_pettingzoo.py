"""tabula games as PettingZoo AEC environments (`tabula.pettingzoo`):
PettingZoo's own api_test on closed games, sequential, with chance, and
simultaneous, and on the shipped games (open)."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import tabula
import tabula.pettingzoo
from conftest import ROOT

REFERENCE = ROOT / "tests" / "reference" / "games"


# Pig is open: its `roll` and `stop` are texts the walk met. (Othello's
# `pass` comes later than the walk reaches: refused when offered.)
@pytest.mark.parametrize("name", ["kuhn-poker", "leduc-poker", "tic-tac-toe", "goofspiel", "pig"])
def test_pettingzoos_api_test_passes(name):
    env = tabula.pettingzoo.env(tabula.load_game(name, games_dir=REFERENCE))
    api_test(env, num_cycles=200)


@pytest.mark.parametrize("name", ["braverats", "experior", "imperio"])
def test_pettingzoos_api_test_passes_on_the_shipped_games(name):
    game = tabula.load_game(name)
    env = tabula.pettingzoo.env(game)
    assert env.action_space(env.possible_agents[0]).n == game.spiel().fixed_actions()
    api_test(env, num_cycles=200)


def test_a_game_plays_to_its_returns_and_the_masks_are_the_legal_actions():
    kuhn = tabula.load_game("kuhn-poker", games_dir=REFERENCE)
    env = tabula.pettingzoo.env(kuhn)
    spiel = env.spiel
    for seed in range(20):
        env.reset(seed=seed)
        total = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            total[agent] += reward
            assert obs["observation"].shape == (spiel.tensor_size(),)
            if terminated or truncated:
                env.step(None)
                continue
            legal = list(np.flatnonzero(obs["action_mask"]))
            assert legal == env.state.legal_actions(env.possible_agents.index(agent))
            env.step(legal[seed % len(legal)])
        assert sum(total.values()) == 0 and any(total.values())
    # The same seed draws the same deal.
    env.reset(seed=3)
    first = env.state.serialize()
    env.reset(seed=3)
    assert env.state.serialize() == first


def test_an_illegal_action_raises_and_a_script_made_action_is_refused():
    env = tabula.pettingzoo.env(tabula.load_game("tic-tac-toe", games_dir=REFERENCE))
    env.reset(seed=0)
    env.step(0)
    with pytest.raises(tabula.TabulaError) as caught:
        env.step(0)  # a1 is taken
    assert caught.value.kind == "move"
    # Breakthrough's moves (`a2a3`) are a script's texts, and the walk
    # meets only the first moves': a later one is refused when offered.
    bt = tabula.pettingzoo.env(tabula.load_game("breakthrough", games_dir=REFERENCE))
    with pytest.raises(tabula.TabulaError) as caught:
        bt.reset(seed=0)
        for _ in bt.agent_iter(max_iter=500):
            obs, _, terminated, _, _ = bt.last()
            bt.step(None if terminated else int(obs["action_mask"].nonzero()[0][-1]))
    assert caught.value.kind == "refused"
    assert "nor of the texts the walk met" in str(caught.value)
