"""tabula games as pyspiel games (`tabula.openspiel`): OpenSpiel's own
CFR+ and exploitability on tabula's Kuhn poker, OpenSpiel's random
simulation and serialisation checks on every closed game and on the
shipped games (open: registered with a declared longest length)."""

import pickle
import subprocess
import sys

import pytest
import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability, expected_game_score

import tabula
import tabula.openspiel
from conftest import ROOT

REFERENCE = ROOT / "tests" / "reference" / "games"

# Every game file (as tests/spiel.rs plays them).
FOLDERS = [ROOT / "games", *sorted((ROOT / "examples").glob("*/games")), REFERENCE]

# Closed under the default walk (docs/state-api.md): these reference
# games must register.
CLOSED = {"kuhn-poker", "leduc-poker", "tic-tac-toe", "goofspiel", "blotto", "dots-and-boxes", "liars-dice"}

# Open games whose actions are all fixed (the definition's cards, cells
# and words and the texts the walk met): with their longest length
# declared they must play through the adapter, their returns' range and
# sum as the rules fix them (a game won or lost).
# Pig (walked 50 positions) has chance: its longest length counts the
# players' moves only.
OPEN_BY_RULE = {(ROOT / "games", n) for n in ("braverats", "experior", "imperio")} | {(REFERENCE, "pig")}

# What every other open game is registered with: generous, and checked.
DECLARE = {"max_game_length": 5000, "max_chance_outcomes": 5000, "min_utility": -1e6, "max_utility": 1e6}


def every_game():
    out = []
    for folder in FOLDERS:
        for path in sorted(folder.glob("*.yaml")):
            out.append(pytest.param(folder, path.stem, id=f"{folder.relative_to(ROOT)}/{path.stem}"))
    return out


def os_kuhn():
    kuhn = tabula.load_game("kuhn-poker", games_dir=REFERENCE)
    return tabula.openspiel.register(kuhn)


def cfr_plus(game, iterations):
    solver = cfr.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    avg = solver.average_policy()
    conv = exploitability.nash_conv(game, avg)
    value = expected_game_score.policy_value(game.new_initial_state(), [avg, avg])[0]
    return conv, value


def test_openspiels_cfr_plus_solves_tabulas_kuhn_poker_as_its_own():
    game = os_kuhn()
    assert game.get_type().short_name == "tabula_kuhn_poker"
    assert game.num_distinct_actions() == 4 and game.max_game_length() == 3
    conv, value = cfr_plus(game, 300)
    theirs_conv, theirs_value = cfr_plus(pyspiel.load_game("kuhn_poker"), 300)
    assert conv < 1e-3, conv
    assert value == pytest.approx(-1 / 18, abs=2e-3)
    assert theirs_conv < 1e-3 and theirs_value == pytest.approx(-1 / 18, abs=2e-3)
    # The uniform policy is as exploitable on both (the same game).
    uniform = exploitability.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    theirs = pyspiel.load_game("kuhn_poker")
    assert uniform == pytest.approx(exploitability.nash_conv(theirs, policy_lib.UniformRandomPolicy(theirs)))


def test_registering_again_returns_the_game_and_another_game_may_not_take_the_name():
    first = os_kuhn()
    assert os_kuhn().get_type().short_name == first.get_type().short_name
    assert pyspiel.load_game("tabula_kuhn_poker").num_distinct_actions() == 4
    leduc = tabula.load_game("leduc-poker", games_dir=REFERENCE)
    with pytest.raises(tabula.TabulaError) as caught:
        tabula.openspiel.register(leduc, short_name="tabula_kuhn_poker")
    assert caught.value.kind == "usage"
    with pytest.raises(tabula.TabulaError):
        tabula.openspiel.register(leduc, short_name="kuhn_poker")


@pytest.mark.parametrize("folder,name", every_game())
def test_random_simulation_and_serialisation_pass_on_every_game_that_keeps_its_declarations(folder, name):
    game = tabula.load_game(name, games_dir=folder)
    short = "tabula_" + "_".join(folder.relative_to(ROOT).parts[:-1] + (name,)).replace("-", "_")
    by_rule = (folder, name) in OPEN_BY_RULE
    declare = {"max_game_length": 5000, "max_chance_outcomes": 6} if by_rule else DECLARE
    walk = 50 if name == "pig" else tabula.DEFAULT_WALK
    try:
        os_game = tabula.openspiel.register(game, short_name=short, walk=walk, declare=declare)
        pyspiel.random_sim_test(os_game, num_sims=5, serialize=True, verbose=False)
    except tabula.TabulaError as e:
        # An open game whose play breaks a declaration (an action past the
        # fixed ones, chance too large to list) is refused, saying so.
        assert e.kind == "refused", e
        assert "broke what it was registered with" in str(e), e
        assert not by_rule and (name not in CLOSED or folder != REFERENCE), f"{name}: {e}"
        return
    if by_rule:
        assert os_game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
        assert (os_game.min_utility(), os_game.max_utility()) == (-1.0, 1.0)
        assert os_game.num_distinct_actions() == game.spiel(walk).fixed_actions()
    # The tensor's shape never changes and a bad action raises.
    state = os_game.new_initial_state()
    size = os_game.observation_tensor_size()
    with pytest.raises(Exception):
        state.apply_action(10**6)
    while not state.is_terminal():
        for p in range(os_game.num_players()):
            assert len(state.observation_tensor(p)) == size
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        elif state.is_simultaneous_node():
            state.apply_actions([(state.legal_actions(p) or [0])[0] for p in range(os_game.num_players())])
        else:
            state.apply_action(state.legal_actions()[-1])
    # A state serialised by OpenSpiel (its history and tabula's state,
    # pickled) reads back.
    text = pyspiel.serialize_game_and_state(os_game, state)
    _, back = pyspiel.deserialize_game_and_state(text)
    assert str(back) == str(state) and back.returns() == state.returns()


def test_the_closed_games_the_docs_name_register():
    for name in ("kuhn-poker", "leduc-poker", "tic-tac-toe"):
        game = tabula.load_game(name, games_dir=REFERENCE)
        os_game = tabula.openspiel.register(game, short_name=f"tabula_docs_{name.replace('-', '_')}")
        assert os_game.num_distinct_actions() == game.spiel().num_distinct_actions()


def test_an_open_game_without_declarations_is_refused_with_a_clear_message():
    game = tabula.load_game("braverats")
    name = "tabula_braverats_undeclared"
    with pytest.raises(tabula.TabulaError) as caught:
        tabula.openspiel.register(game, short_name=name, walk=100)
    assert caught.value.kind == "refused"
    assert "declare={'max_game_length': N}" in str(caught.value)
    assert name not in pyspiel.registered_names()
    with pytest.raises(tabula.TabulaError) as caught:
        tabula.openspiel.register(game, short_name=name, walk=100, declare={"max_game_length": 50, "rounds": 8})
    assert "not rounds" in str(caught.value)


def test_an_open_game_that_breaks_a_declaration_raises():
    game = tabula.load_game("braverats")
    os_game = tabula.openspiel.register(
        game, short_name="tabula_braverats_short", walk=100, declare={"max_game_length": 2}
    )
    state = os_game.new_initial_state()
    with pytest.raises(tabula.TabulaError) as caught:
        while not state.is_terminal():
            state.apply_actions([state.legal_actions(p)[0] for p in range(2)])
    assert "ran past max_game_length=2" in str(caught.value)
    assert state.move_number() <= 3


def test_a_bad_action_raises_through_pyspiel():
    game = os_kuhn()
    state = game.new_initial_state()
    state.apply_action(0)
    with pytest.raises(tabula.TabulaError):
        state.apply_action(99)
    # The state is unchanged: OpenSpiel's history too.
    assert state.history() == [0]
    assert pickle.loads(pickle.dumps(state._st)).serialize() == state._st.serialize()


def test_a_process_that_registered_a_game_exits_cleanly():
    # pyspiel keeps a game's creator until after Python has stopped; a
    # creator freed then aborts the process (exit 134, "PyThreadState_Get").
    code = (
        "import tabula, tabula.openspiel\n"
        f"g = tabula.load_game('kuhn-poker', games_dir={str(REFERENCE)!r})\n"
        "s = tabula.openspiel.register(g).new_initial_state()\n"
        "s.apply_action(0); s.clone(); s.serialize()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_perfect_information_is_told_and_openspiels_minimax_solves_tic_tac_toe():
    from open_spiel.python.algorithms import minimax

    tic = tabula.load_game("tic-tac-toe", games_dir=REFERENCE)
    game = tabula.openspiel.register(tic, short_name="tabula_minimax_tic_tac_toe")
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert os_kuhn().get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    value, _ = minimax.alpha_beta_search(game)
    assert value == 0


def test_an_open_games_longest_length_counts_the_players_moves_not_chance():
    pig = tabula.load_game("pig", games_dir=REFERENCE)
    os_game = tabula.openspiel.register(
        pig, short_name="tabula_pig_four", walk=50, declare={"max_game_length": 4, "max_chance_outcomes": 6}
    )
    state = os_game.new_initial_state()
    moves = 0
    with pytest.raises(tabula.TabulaError) as caught:
        while True:
            assert not state.is_terminal()
            if state.is_chance_node():
                # The first outcome, a one: the turn passes, no one scores.
                state.apply_action(state.chance_outcomes()[0][0])
                continue
            before = str(state)
            try:
                state.apply_action(state.legal_actions()[0])
            except tabula.TabulaError:
                assert str(state) == before, "a broken declaration leaves the state as it was"
                raise
            moves += 1
    assert "ran past max_game_length=4" in str(caught.value)
    # Four moves were played, with the dice between them, before the fifth raised.
    assert moves == 4 and len(state.history()) > 4
