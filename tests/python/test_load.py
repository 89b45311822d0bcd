"""Loading games: shipped ones, variants, parameters, and errors with
their positions."""

import re

import pytest

import tabula
from conftest import ROOT


def test_a_shipped_game_loads_with_its_players_parameters_and_variants():
    game = tabula.load_game("braverats")
    assert game.id == "braverats"
    assert game.name == "BraveRats"
    assert game.players == ["red", "blue"]
    assert game.applied_variants == []
    assert "fast-rat" in game.variants
    assert game.variants["fast-rat"]["name"].endswith("Fast rat (express)")
    assert "braverats" in tabula.games()
    # The shipped files are written out where errors can point.
    assert game.path.name == "braverats.yaml"
    assert game.path.parent.samefile(tabula.library_dir())


def test_a_variant_and_a_parameter_are_applied():
    base = tabula.load_game("experior")
    wound_limit = base.parameters["wound_limit"]
    assert wound_limit["value"] == wound_limit["default"]
    game = tabula.load_game("experior", variants="short", params={"wound_limit": 50})
    assert game.applied_variants == ["short"]
    assert game.parameters["wound_limit"]["value"] == 50
    assert repr(game) == "<tabula.Game 'experior' variants=['short']>"


def test_a_game_of_a_folder_of_ones_own_loads():
    game = tabula.load_game("kuhn-poker", games_dir=ROOT / "examples" / "kuhn-poker" / "games")
    assert game.players == ["first", "second"]
    # and by path
    path = ROOT / "examples" / "kuhn-poker" / "games" / "kuhn-poker.yaml"
    assert tabula.load_game(str(path)).id == "kuhn-poker"


def test_a_bad_game_file_raises_with_its_file_line_and_column(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nname: Bad\nplayers: [a, b]\nflow:\n  - nonsense: 3\n")
    with pytest.raises(tabula.TabulaError) as caught:
        tabula.load_game(str(bad))
    message = str(caught.value)
    # FILE:LINE:COLUMN first, as the program prints it.
    assert re.match(r".*bad\.yaml:\d+:\d+: ", message), message
    assert caught.value.at is not None and caught.value.at.startswith(str(bad))
    assert caught.value.kind in ("yaml", "invalid")


def test_an_unknown_variant_raises_naming_it_and_the_variants():
    with pytest.raises(tabula.TabulaError) as caught:
        tabula.load_game("braverats", variants=["fast-ratt"])
    message = str(caught.value)
    assert "fast-ratt" in message
    assert "fast-rat" in message.replace("fast-ratt", "")
    assert caught.value.kind == "usage"


def test_a_variant_that_breaks_the_game_raises_at_its_line(tmp_path):
    # A game that extends a shipped one with a variant naming no parameter.
    (tmp_path / "rats.yaml").write_text(
        "extends: braverats\nid: rats\nvariants:\n  - id: odd\n    name: Odd\n    params:\n      no_such_param: 3\n"
    )
    with pytest.raises(tabula.TabulaError) as caught:
        tabula.load_game("rats", variants=["odd"], games_dir=tmp_path)
    assert re.search(r"rats\.yaml:\d+:\d+: ", str(caught.value)), str(caught.value)


def test_a_missing_game_raises_with_the_games_there():
    with pytest.raises(tabula.TabulaError) as caught:
        tabula.load_game("bravrats")
    assert "no game `bravrats`" in str(caught.value)
    assert "braverats" in str(caught.value)
    with pytest.raises(tabula.TabulaError, match="no such file"):
        tabula.load_game("nowhere/missing.yaml")


def test_a_bad_parameter_value_raises():
    with pytest.raises(tabula.TabulaError):
        tabula.load_game("experior", params={"wound_limit": "lots"})
    with pytest.raises(TypeError):
        tabula.load_game("experior", params={"wound_limit": True})
