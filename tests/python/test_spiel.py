"""The state API from Python (`tabula.Spiel`, `tabula.State`): OpenSpiel's
method names and player ints, checked arguments, copies, undo, pickles."""

import copy
import math
import pickle
import random
import threading

import pytest

import tabula
from conftest import ROOT

REFERENCE = ROOT / "tests" / "reference" / "games"


@pytest.fixture(scope="module")
def kuhn():
    return tabula.load_game("kuhn-poker", games_dir=REFERENCE).spiel()


@pytest.fixture(scope="module")
def goofspiel():
    return tabula.load_game("goofspiel", games_dir=REFERENCE).spiel()


def test_kuhn_poker_deals_then_bets_with_openspiels_player_ints(kuhn):
    assert kuhn.num_players() == 2
    assert kuhn.num_distinct_actions() == 4
    b = kuhn.bounds()
    assert (b["min_utility"], b["max_utility"], b["utility_sum"]) == (-2.0, 2.0, 0.0)
    assert b["max_game_length"] == 3 and b["max_chance_outcomes"] == 6
    assert not b["simultaneous"]
    st = kuhn.new_initial_state()
    assert st.current_player() == tabula.CHANCE == -1
    assert st.is_chance_node() and not st.is_terminal()
    outcomes = st.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(6))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert st.legal_actions() == list(range(6))
    st.apply_action(0)
    assert st.current_player() == 0
    bet = kuhn.action_id("bet")
    assert st.string_to_action("bet") == bet == st.string_to_action(0, "bet")
    assert st.action_to_string(0, bet) == "bet" == st.action_to_string(bet)
    assert bet in st.legal_actions() and st.legal_actions(1) == []
    st.apply_action(bet)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert st.current_player() == tabula.TERMINAL == -4
    assert sum(st.returns()) == 0 and st.legal_actions() == []
    assert st.rewards() == st.returns()


def test_goofspiel_is_simultaneous(goofspiel):
    st = goofspiel.new_initial_state()
    assert st.current_player() == tabula.SIMULTANEOUS == -2
    assert st.is_simultaneous_node() and st.players_to_move() == [0, 1]
    assert goofspiel.bounds()["simultaneous"]
    # No single player's actions at a simultaneous node.
    with pytest.raises(tabula.TabulaError) as caught:
        st.legal_actions()
    assert caught.value.kind == "move"
    a, b = st.legal_actions(0), st.legal_actions(1)
    st.apply_actions([a[0], b[-1]])
    st2 = goofspiel.new_initial_state()
    st2.apply_actions({1: b[-1], 0: a[0]})
    assert st.serialize() == st2.serialize()
    with pytest.raises(tabula.TabulaError):
        st.apply_action(a[0])


def test_bad_players_and_actions_raise_and_leave_the_state_as_it_was(kuhn):
    st = kuhn.new_initial_state()
    st.apply_action(3)
    before = st.serialize()
    for bad in (2, 99, -3):
        with pytest.raises(tabula.TabulaError) as caught:
            st.observation_string(bad)
        assert caught.value.kind == "player", bad
    with pytest.raises(tabula.TabulaError) as caught:
        st.legal_actions(-7)
    assert caught.value.kind == "player"
    for bad in (99, -1, kuhn.action_id("call")):
        with pytest.raises(tabula.TabulaError) as caught:
            st.apply_action(bad)
        assert caught.value.kind == "move", bad
    with pytest.raises(tabula.TabulaError):
        st.apply_actions([0])
    with pytest.raises(tabula.TabulaError):
        st.action_to_string(0, 99)
    with pytest.raises(tabula.TabulaError):
        st.string_to_action("raise")
    assert st.serialize() == before
    with pytest.raises(tabula.TabulaError):
        kuhn.new_initial_state().undo()
    with pytest.raises(tabula.TabulaError) as caught:
        kuhn.deserialize_state('{"game": "kuhn-poker", "history": [{"chance": 9}]}')
    assert caught.value.kind == "move"


def test_copies_undo_and_child_are_apart(kuhn):
    st = kuhn.new_initial_state()
    st.apply_action(1)
    c = st.clone()
    d = copy.deepcopy(st)
    child = st.child(st.legal_actions()[0])
    assert child.move_number() == st.move_number() + 1
    c.apply_action(c.legal_actions()[0])
    assert st.move_number() == d.move_number() == 1
    c.undo()
    assert c == st and c.serialize() == st.serialize()
    assert st.history() == [{"chance": 1}]


def test_a_state_pickles_and_serialises(kuhn):
    st = kuhn.new_initial_state()
    st.apply_action(5)
    st.apply_action(kuhn.action_id("bet"))
    back = pickle.loads(pickle.dumps(st))
    assert back.serialize() == st.serialize()
    assert back.information_state_string(1) == st.information_state_string(1)
    # One handle per game and walk in a process: a second pickle reads
    # back under the same handle.
    again = pickle.loads(pickle.dumps(st))
    assert again.spiel is back.spiel
    assert kuhn.deserialize_state(st.serialize()) == st


def test_the_tensor_keeps_its_shape_through_every_game(kuhn, goofspiel):
    tic = tabula.load_game("tic-tac-toe", games_dir=REFERENCE).spiel()
    rng = random.Random(5)
    for spiel in (kuhn, goofspiel, tic):
        size = spiel.tensor_size()
        assert size == sum(math.prod(shape) for _, shape in spiel.tensor_layout())
        for _ in range(20):
            st = spiel.new_initial_state()
            while True:
                for p in range(spiel.num_players()):
                    assert len(st.observation_tensor(p)) == size
                if st.is_terminal():
                    break
                if st.is_simultaneous_node():
                    st.apply_actions({p: rng.choice(st.legal_actions(p)) for p in st.players_to_move()})
                else:
                    st.apply_action(rng.choice(st.legal_actions()))


def test_an_open_game_refuses_num_distinct_actions():
    spiel = tabula.load_game("braverats").spiel(walk=100)
    assert not spiel.closed
    with pytest.raises(tabula.TabulaError) as caught:
        spiel.num_distinct_actions()
    assert caught.value.kind == "refused"
    st = spiel.new_initial_state()
    # It still plays: ids are numbered as they are met.
    while st.is_chance_node():
        st.sample_chance(1)
    assert st.legal_actions(0)


def test_the_walk_releases_the_gil():
    game = tabula.load_game("braverats")
    counted = []
    done = threading.Event()

    def count():
        while not done.is_set():
            counted.append(1)

    t = threading.Thread(target=count)
    t.start()
    try:
        game.spiel(walk=20_000)
    finally:
        done.set()
        t.join()
    assert len(counted) > 1000


def test_a_handle_keeps_moves_and_tells_the_same_as_one_that_keeps_none():
    game = tabula.load_game("leduc-poker", games_dir=REFERENCE)
    kept, fresh = game.spiel(), game.spiel(keep=0)
    rng = random.Random(3)
    for _ in range(40):
        a, b = kept.new_initial_state(), fresh.new_initial_state()
        while True:
            assert a.current_player() == b.current_player()
            assert str(a) == str(b)
            for p in range(2):
                assert a.legal_actions(p) == b.legal_actions(p)
                assert a.information_state_string(p) == b.information_state_string(p)
            assert a.returns() == b.returns()
            if a.is_terminal():
                break
            if a.is_chance_node():
                outs = a.chance_outcomes()
                assert outs == b.chance_outcomes()
                move = rng.choice(outs)[0]
            else:
                move = rng.choice(a.legal_actions())
            a.apply_action(move)
            b.apply_action(move)
    assert kept.moves_kept() > 0
    assert fresh.moves_kept() == 0


def test_the_first_chance_outcomes_are_a_new_list_each_time(kuhn):
    st = kuhn.new_initial_state()
    first = st.chance_outcomes()
    first.clear()
    again = kuhn.new_initial_state().chance_outcomes()
    assert len(again) == 6 and math.isclose(sum(p for _, p in again), 1.0)
    assert st.chance_outcomes() == again
