"""Bots, sim, solve and exploitability from Python give the figures the
`tabula` program gives for the same game, seed and settings."""

import pytest

import tabula
from conftest import ROOT, without_timings

KUHN = ROOT / "examples" / "kuhn-poker" / "games"
TIC_TAC_TOE = ROOT / "examples" / "tic-tac-toe" / "games"


def test_play_gives_a_finished_game_between_named_bots():
    game = tabula.load_game("braverats")
    r = game.play({"red": "random", "blue": "random"}, seed=3)
    assert r["over"] is True
    assert r["winner"] in ("red", "blue") or r["draw"]
    assert r["bots"] == ["random", "random"]
    assert r["plays"] and all(p in ("red", "blue") for p, _ in r["plays"])
    # The same seed, the same game; a list of kinds by seat is the same.
    assert tabula.play(game, ["random", "random"], seed=3) == r
    assert game.play(("random", "random"), seed=3) == r
    assert game.play(seed=4) != r


def test_play_refuses_an_unknown_bot_or_player():
    game = tabula.load_game("braverats")
    with pytest.raises(tabula.TabulaError, match="nonsense") as caught:
        game.play({"red": "nonsense"})
    assert caught.value.kind == "usage" and caught.value.at is None
    with pytest.raises(tabula.TabulaError, match="no player `green`"):
        game.play({"green": "random"})
    with pytest.raises(tabula.TabulaError, match="one per seat"):
        game.play(["random"])


def test_sim_on_braverats_matches_the_program(run_json):
    game = tabula.load_game("braverats")
    mine = tabula.sim(game, games=3000, seed=11, jobs=1)
    theirs = run_json("sim", "braverats", "--games", "3000", "--seed", "11")
    assert mine["games"] == 3000 and mine["seed"] == 11
    assert mine["seats"][0]["wins"] == theirs["seats"][0]["wins"]
    assert mine == theirs
    # Another seed gives other figures (the seed is used).
    assert tabula.sim(game, games=3000, seed=12)["seats"] != mine["seats"]


def test_sim_with_a_variant_and_bots_matches_the_program(run_json):
    game = tabula.load_game("braverats", variants=["fast-rat"])
    mine = game.sim(games=200, seed=5, bots={"red": "mcts:30"}, jobs=2)
    theirs = run_json(
        "sim", "braverats", "--variant", "fast-rat", "--games", "200", "--seed", "5",
        "--bot", "red=mcts:30",
    )
    assert mine == theirs


def test_solve_of_a_small_game_gives_the_programs_value(run_json):
    game = tabula.load_game("tic-tac-toe", games_dir=TIC_TAC_TOE)
    mine = game.solve(exploit=["random"])
    theirs = run_json("--games-dir", str(TIC_TAC_TOE), "solve", "tic-tac-toe", "--exploit", "random")
    assert mine.pop("method") == "exact"
    assert mine["worth"] == theirs["worth"]
    assert without_timings(mine) == without_timings(theirs)


def test_solve_with_hidden_cards_is_cfr_and_reaches_kuhns_value(run_json):
    game = tabula.load_game("kuhn-poker", games_dir=KUHN)
    mine = tabula.solve(game, exploit=["random"])
    theirs = run_json("--games-dir", str(KUHN), "solve", "kuhn-poker", "--exploit", "random")
    assert mine["method"] == "cfr+"
    assert abs(mine["worth"]["value"] - (-1 / 18)) < 0.01
    assert mine["exploitability"] < 1e-3
    assert without_timings(mine) == without_timings(theirs)


def test_exploitability_matches_the_programs(run_json):
    kuhn = tabula.load_game("kuhn-poker", games_dir=KUHN)
    mine = tabula.exploitability(kuhn, "random")
    theirs = run_json("--games-dir", str(KUHN), "solve", "kuhn-poker", "--exploit", "random")
    entry = theirs["exploit"][0]
    assert mine["exploitability"] == entry["exploitability"]
    assert mine["best_response"] == entry["best_response"]
    assert mine["exploitability"] > 0.1

    ttt = tabula.load_game("tic-tac-toe", games_dir=TIC_TAC_TOE)
    mine = ttt.exploitability("random")
    theirs = run_json("--games-dir", str(TIC_TAC_TOE), "solve", "tic-tac-toe", "--exploit", "random")
    assert without_timings(mine) == without_timings(theirs["exploit"][0])


def test_a_refused_solve_raises_with_the_refusal():
    game = tabula.load_game("the-path", variants=["three-players"])
    with pytest.raises(tabula.TabulaError) as caught:
        game.solve()
    assert caught.value.kind == "refused"
    assert caught.value.refusal["why"] == "players"


def test_long_work_lets_other_python_threads_run():
    # sim releases the GIL: a Python thread keeps counting while it runs.
    import threading
    import time

    game = tabula.load_game("braverats")
    done = threading.Event()
    ticks = 0

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    started = time.monotonic()
    try:
        game.sim(games=40_000, seed=1, jobs=1)
    finally:
        done.set()
        counter.join()
    took = time.monotonic() - started
    assert took > 0.1, "the run was too short to tell"
    # Held, the counter would run only before and after the run.
    assert ticks > 20, (ticks, took)
