#!/usr/bin/env python3
"""Play the same games in tabula and in OpenSpiel, move for move.

    python3 tests/reference/crosscheck.py [--tabula PATH] [--games N] [GAME ...]

For each game it plays N games (default 30) with random legal moves: tabula
is driven through replay files (`tabula replay FILE --json --as P`, one
call per seat per step; the seed is the game's number), OpenSpiel gets the
same moves, and its chance outcomes are read off tabula's views (the cards
dealt, the dice rolled). At every step the legal moves must be the same
sets, both games must end together, and the returns must agree. Needs a
built tabula (default: `tabula` on the PATH, else target/release/tabula).
"""

import argparse
import ast
import math
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

import pyspiel

HERE = os.path.dirname(os.path.abspath(__file__))
GAMES_DIR = os.path.join(HERE, "games")
REPO = os.path.normpath(os.path.join(HERE, "../.."))
sys.path.insert(0, HERE)
from openspiel import ENTRIES  # noqa: E402


def game_path(game):
    """An entry's game: an id in games/, or a path from the repository's root."""
    if "/" in game:
        return os.path.join(REPO, game)
    return os.path.join(GAMES_DIR, game + ".yaml")


def tabula_view(tabula, key, seed, moves, viewer, tmp):
    game, params, _, _ = ENTRIES[key]
    path = os.path.join(tmp, "replay.json")  # JSON is YAML
    replay = {"game": game_path(game), "seed": seed, "moves": moves}
    if params:
        replay["params"] = params
    with open(path, "w") as f:
        json.dump(replay, f)
    out = subprocess.run(
        [tabula, "replay", path, "--json", "--as", viewer], capture_output=True, text=True
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return json.loads(out.stdout)


# ---- Per game: tabula's option text -> OpenSpiel action, and chance. ----


def kuhn_action(state, p, text):
    return {"check": 0, "fold": 0, "bet": 1, "call": 1}[text]


def leduc_action(state, p, text):
    return {"fold": 0, "call": 1, "check": 1, "raise": 2}[text]


def liars_action(state, p, text):
    params = state.get_game().get_parameters()
    sides = params["dice_sides"]
    if text == "liar":
        # After every bid: one per quantity of all the dice and face.
        return params["players"] * params["numdice"] * sides
    q, f = map(int, text.split("x"))
    return (q - 1) * sides + (f - 1)


def ttt_action(state, p, text):
    return int(text) - 1


def ttt_grid_action(state, p, text):
    # Cell `b2`: column b, row 2 from the bottom; OpenSpiel counts rows from the top.
    col, row = ord(text[0]) - ord("a"), int(text[1:])
    return (3 - row) * 3 + col


def column_action(state, p, text):
    return ord(text) - ord("a")


def blotto_action(state, p, text):
    want = [int(x) for x in text.split("-")]
    for a in state.legal_actions(p):
        if ast.literal_eval(state.action_to_string(p, a)) == want:
            return a
    raise KeyError(text)


def goofspiel_action(state, p, text):
    return int(text.split("-")[1]) - 1


def pig_action(state, p, text):
    return {"roll": 0, "stop": 1}[text]


RANKS = {"jack": 0, "queen": 1, "king": 2}


def own(view, zone, p):
    z = view["zones"][zone][p]
    return z if isinstance(z, list) else None


def kuhn_chance(state, views, prev, history):
    # Cards are dealt to the first player, then the second.
    who = ["first", "second"][state.move_number()]
    card = own(views[who], "hand", who)[0]
    return RANKS[card]


def leduc_chance(state, views, prev, history):
    outs = dict(state.chance_outcomes())
    n = state.move_number()
    if n == 0:
        rank = RANKS[own(views["first"], "hand", "first")[0]]
    elif n == 1:
        rank = RANKS[own(views["second"], "hand", "second")[0]]
    else:
        rank = RANKS[views["first"]["zones"]["board"][""][0]]
    # Any card of that rank still in the deck (suits do not matter).
    for c in (2 * rank, 2 * rank + 1):
        if c in outs:
            return c
    raise RuntimeError("no card of that rank left")


def liars_chance(state, views, prev, history):
    who = ["first", "second"][state.move_number()]
    die = own(views[who], "cup", who)[0]
    return int(die.split("-")[1]) - 1


def cup_chance(state, views, prev, history):
    # Dice are rolled in seat order, each player's in turn; a cup lists its
    # dice in face order, and OpenSpiel is given them in that order.
    k = state.get_game().get_parameters()["numdice"]
    i = state.move_number()
    who = ["first", "second"][i // k]
    die = sorted(own(views[who], "cup", who), key=lambda d: int(d.split("-")[1]))[i % k]
    return int(die.split("-")[1]) - 1


def pig_chance(state, views, prev, history):
    v, pv = views["first"], prev["first"]
    tt, ptt = v["vars"]["turn_total"], pv["vars"]["turn_total"]
    if tt == 0:
        return 0  # a 1: the turn is lost
    return tt - ptt - 1


# ---- Board games for issue #54 (Othello, Breakthrough, Hex). Each option
# text is OpenSpiel's own action string, so besides the arithmetic each
# mapping checks that the names agree.


def same_name(state, p, text, action):
    name = state.action_to_string(p, action)
    assert name == text, (text, name)
    return action


def othello_action(state, p, text):
    # OpenSpiel: action row * 8 + column, its row r named r + 1 (`d3` is
    # column d, row index 2), 64 a pass. tabula's cells have the same names.
    if text == "pass":
        return same_name(state, p, text, 64)
    col, row = ord(text[0]) - ord("a"), int(text[1:])
    return same_name(state, p, text, (row - 1) * 8 + col)


def breakthrough_action(state, p, text):
    # `a2b3` or `a2b3*` (a capture). OpenSpiel's row index r is named
    # rows - r (its row 0 is the top row, named `8`); an action is ranked
    # in the mixed base (rows, columns, direction, capture), the directions
    # 0-2 Black's (down-left, down, down-right) and 3-5 White's (up-left,
    # up, up-right).
    params = state.get_game().get_parameters()
    rows, cols = params["rows"], params["columns"]
    capture = text.endswith("*")
    c1, r1 = ord(text[0]) - ord("a"), rows - int(text[1])
    c2 = ord(text[2]) - ord("a")
    direction = 3 * p + (c2 - c1 + 1)
    return same_name(state, p, text, ((r1 * cols + c1) * 6 + direction) * 2 + int(capture))


def hex_action(state, p, text):
    # OpenSpiel: cell (row index r, column c) is action r * columns + c,
    # named column letter and r + 1; tabula's cells have the same names.
    cols = state.get_game().get_parameters()["board_size"]
    col, row = ord(text[0]) - ord("a"), int(text[1:])
    return same_name(state, p, text, (row - 1) * cols + col)


BOARD_GAMES = {
    "othello": (othello_action, None),
    "breakthrough": (breakthrough_action, None),
    "breakthrough-6x5": (breakthrough_action, None),
    "breakthrough-4x3": (breakthrough_action, None),
    "hex": (hex_action, None),
    "hex-5": (hex_action, None),
    "hex-3": (hex_action, None),
}
# ---- end of the board games for issue #54.


SPEC = {
    "kuhn-poker": (kuhn_action, kuhn_chance),
    "leduc-poker": (leduc_action, leduc_chance),
    "liars-dice": (liars_action, liars_chance),
    "liars-dice-sides3": (liars_action, liars_chance),
    "liars-dice-cup-sides3": (liars_action, cup_chance),
    "liars-dice-cup-2dice": (liars_action, cup_chance),
    "tic-tac-toe": (ttt_action, None),
    "blotto": (blotto_action, None),
    "goofspiel": (goofspiel_action, None),
    "pig": (pig_action, pig_chance),
    "pig-small": (pig_action, pig_chance),
    "tic-tac-toe-grid": (ttt_grid_action, None),
    "connect-four-3x4": (column_action, None),
    "connect-four-4x4": (column_action, None),
    "connect-four": (column_action, None),
    **BOARD_GAMES,
}


# ---- Issue #54's benchmark games: Mancala, Dots and Boxes, Hearts. ----


def mancala_action(state, p, text):
    # Pit 1..6 of the first player (south) is OpenSpiel's 1..6; of the
    # second (north), 8..13 (7 is south's store, 0 north's).
    return int(text) + (0 if p == 0 else 7)


def dots_action(state, p, text):
    # Cell `b5` of the grid of 2R+1 by 2C+1 (rows from the bottom); OpenSpiel
    # counts dot rows from the top: horizontal lines first, row by row, then
    # vertical ones.
    params = state.get_game().get_parameters()
    rows, cols = params["num_rows"], params["num_cols"]
    x, y = ord(text[0]) - ord("a"), int(text[1:]) - 1
    t = 2 * rows - y  # grid row from the top, from 0
    if t % 2 == 0:
        assert x % 2 == 1, text
        return (t // 2) * cols + (x - 1) // 2
    assert x % 2 == 0, text
    return (rows + 1) * cols + ((t - 1) // 2) * (cols + 1) + x // 2


def hearts_card(text):
    """`qs` -> OpenSpiel's card: rank * 4 + suit (ranks 2..A, suits C D H S)."""
    return "23456789tjqka".index(text[0]) * 4 + "cdhs".index(text[1])


def hearts_action(state, p, text):
    return hearts_card(text)


HEARTS_SEATS = ["north", "east", "south", "west"]


def hearts_chance(state, views, prev, history):
    # First the pass direction (tabula's var `pass`, OpenSpiel's 0 no pass,
    # 1 left, 2 across, 3 right), then the deal: OpenSpiel gives its k-th
    # card to player k % 4, so each player's hand (as dealt, before any
    # pass: these are the views before the first move) is given in turn.
    n = state.move_number()
    if n == 0:
        return views["north"]["vars"]["pass"]
    k = n - 1
    who = HEARTS_SEATS[k % 4]
    hand = sorted(own(views[who], "hand", who), key=hearts_card)
    return hearts_card(hand[k // 4])


def hearts_views(views, where, state=None):
    """No view shows a card its viewer may not know: another player's hand
    or cards to pass, and the deck, are counts only, but for the cards the
    viewer passed into a hand (`known`), which must be those OpenSpiel's
    information state lists as passed and still held there."""
    for viewer, v in views.items():
        passed = set()
        if state is not None and not state.is_chance_node():
            info = state.information_state_string(HEARTS_SEATS.index(viewer))
            for line in info.splitlines():
                if line.startswith("Passed Cards:"):
                    passed = {w[:-1].lower() + w[-1].lower() for w in line.split(":")[1].split()}
        known, played = {}, set()
        for zone, owners in v["zones"].items():
            for owner, z in owners.items():
                public = zone in ("trick", "taken")
                if public or owner == viewer:
                    assert isinstance(z, list), (where, viewer, zone, owner, z)
                    # Seen here: not (or not yet) passed on.
                    played |= set(z)
                elif "known" in z:
                    assert zone == "hand" and set(z) == {"count", "known"}, (where, viewer, zone, owner, z)
                    known[owner] = set(z["known"])
                else:
                    assert set(z) == {"count"}, (where, viewer, zone, owner, z)
        if state is not None and not state.is_chance_node():
            # The passed cards neither played nor still the viewer's
            # (a pass under way), in the receiver's hand.
            to = HEARTS_SEATS[(HEARTS_SEATS.index(viewer) + v["vars"]["pass"]) % 4]
            want = {to: passed - played} if passed - played else {}
            assert known == want, (where, viewer, known, want)
        d = v.get("decision")
        if d:
            for p, c in (d.get("chosen") or {}).items():
                assert p == viewer or c in (None, "(chosen)") or d["name"] != "pass", (where, viewer, d)


SPEC.update(
    {
        "mancala": (mancala_action, None),
        "dots-and-boxes": (dots_action, None),
        "dots-and-boxes-3x2": (dots_action, None),
        "dots-and-boxes-3x3": (dots_action, None),
        "dots-and-boxes-1x4": (dots_action, None),
        "hearts": (hearts_action, hearts_chance),
        "hearts-options": (hearts_action, hearts_chance),
        "hearts-options-pass": (hearts_action, hearts_chance),
    }
)
VIEW_CHECKS = {
    "hearts": hearts_views,
    "hearts-options": hearts_views,
    "hearts-options-pass": hearts_views,
}
# ---- End of issue #54's benchmark games. ----


def returns_of(view, players):
    if "payoff" in view and view["payoff"] is not None:
        return [view["payoff"][p] for p in players]
    if view.get("draw") or view["winner"] is None:
        return [0.0, 0.0]
    return [1.0 if p == view["winner"] else -1.0 for p in players]


def play_one(tabula, tid, seed, tmp, rng):
    to_action, chance = SPEC[tid]
    game = pyspiel.load_game(ENTRIES[tid][2])
    state = game.new_initial_state()
    moves = []
    history = []  # the player who made each move
    prev = None
    steps = 0
    while True:
        first = tabula_view(tabula, tid, seed, moves, players_of(tid)[0], tmp)
        players = list(first["players"])
        views = {players[0]: first}
        for p in players[1:]:
            views[p] = tabula_view(tabula, tid, seed, moves, p, tmp)
        if tid in VIEW_CHECKS:
            VIEW_CHECKS[tid](views, (tid, seed, moves), state)
        while state.is_chance_node():
            a = chance(state, views, prev, history)
            assert a in dict(state.chance_outcomes()), (tid, seed, a)
            state.apply_action(a)
        if first["over"]:
            assert state.is_terminal(), (tid, seed, moves, "tabula ended, OpenSpiel did not")
            tr = returns_of(first, players)
            assert tr == list(state.returns()), (tid, seed, moves, tr, state.returns())
            return steps, tr
        assert not state.is_terminal(), (tid, seed, moves, "OpenSpiel ended, tabula did not")
        waiting = first["decision"]["waiting"]
        move = {}
        joint = {}
        for p in waiting:
            opts = views[p]["decision"]["options"]
            pi = players.index(p)
            legal = sorted(state.legal_actions(pi))
            if any(" " in o for o in opts):
                # Several at once (an ask's `pick`: Hearts' three cards
                # passed), which OpenSpiel takes one at a time: every set
                # of k of its legal actions, each once.
                k = len(opts[0].split())
                sets = sorted(tuple(sorted(to_action(state, pi, x) for x in o.split())) for o in opts)
                assert len(set(sets)) == len(sets) == math.comb(len(legal), k), (tid, seed, moves, p, len(opts))
                assert sorted({a for s in sets for a in s}) == legal, (tid, seed, moves, p, opts, legal)
                o = rng.choice(opts)
                move[p] = o
                joint[pi] = [to_action(state, pi, x) for x in o.split()]
                continue
            mapped = sorted(to_action(state, pi, o) for o in opts)
            assert mapped == legal, (tid, seed, moves, p, opts, legal)
            o = rng.choice(opts)
            move[p] = o
            joint[pi] = to_action(state, pi, o)
        if any(isinstance(a, list) for a in joint.values()):
            assert len(waiting) == 1, (tid, seed, moves)
            for a in joint[players.index(waiting[0])]:
                assert a in state.legal_actions(), (tid, seed, moves, a)
                state.apply_action(a)
        elif state.is_simultaneous_node():
            assert len(waiting) == 2, (tid, seed, moves)
            state.apply_actions([joint[0], joint[1]])
        else:
            assert [players.index(p) for p in waiting] == [state.current_player()], (tid, seed, moves)
            state.apply_action(joint[state.current_player()])
        moves.append(move)
        history.append(waiting[0])
        prev = views
        steps += 1


_PLAYERS = {}


def players_of(tid):
    """The player ids, in seat order, from the game file's `players:` list."""
    if tid not in _PLAYERS:
        path = game_path(ENTRIES[tid][0])
        ids = []
        with open(path) as f:
            inside = False
            for line in f:
                if line.startswith("players:"):
                    inside = True
                    continue
                if inside:
                    if line.strip().startswith("- {id:"):
                        ids.append(line.split("id:")[1].split(",")[0].strip())
                    elif line.strip() and not line.startswith(" "):
                        break
        _PLAYERS[tid] = ids
    return _PLAYERS[tid]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tabula", default=shutil.which("tabula") or os.path.join(HERE, "../../target/release/tabula"))
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("ids", nargs="*")
    args = ap.parse_args()
    ids = args.ids or list(SPEC)
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as tmp:
        for tid in ids:
            total = 0
            results = {}
            for seed in range(args.games):
                steps, r = play_one(args.tabula, tid, seed, tmp, rng)
                total += steps
                results[tuple(r)] = results.get(tuple(r), 0) + 1
            print(f"{tid}: {args.games} games, {total} moves, all agree; returns {results}")


if __name__ == "__main__":
    main()
