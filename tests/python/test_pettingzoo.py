"""tabula games as PettingZoo AEC environments (`tabula.pettingzoo`):
PettingZoo's own api_test on closed games, sequential, with chance, and
simultaneous."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import tabula
import tabula.pettingzoo
from conftest import ROOT

REFERENCE = ROOT / "tests" / "reference" / "games"


@pytest.mark.parametrize("name", ["kuhn-poker", "leduc-poker", "tic-tac-toe", "goofspiel"])
def test_pettingzoos_api_test_passes(name):
    env = tabula.pettingzoo.env(tabula.load_game(name, games_dir=REFERENCE))
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


def test_an_illegal_action_raises_and_an_open_game_is_refused():
    env = tabula.pettingzoo.env(tabula.load_game("tic-tac-toe", games_dir=REFERENCE))
    env.reset(seed=0)
    env.step(0)
    with pytest.raises(tabula.TabulaError) as caught:
        env.step(0)  # a1 is taken
    assert caught.value.kind == "move"
    with pytest.raises(tabula.TabulaError) as caught:
        tabula.pettingzoo.env(tabula.load_game("braverats"), walk=100)
    assert caught.value.kind == "refused"
