#!/usr/bin/env python3
"""Who knows which card after Hearts' pass, as OpenSpiel's information
states say: the figures tests/knowledge.rs checks tabula's views, keys and
resampling against (knowledge.json, committed: CI needs no Python).

    python3 tests/reference/knowledge.py [--tabula PATH] > tests/reference/knowledge.json

For each seed, tabula's deal and pass direction are read off its views
(`tabula replay FILE --json --as P`, as crosscheck.py does); OpenSpiel's
`hearts` gets the same chance outcomes, and each player passes the three
highest of their cards (OpenSpiel's card order). After the pass each
player's information state string is read: its "Passed Cards" are the
cards that player knows in the receiver's hand (the pass direction's
seat), its "Received Cards" they hold. Needs a built tabula (default
target/debug/tabula) and pyspiel.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import pyspiel

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "../.."))
GAME = os.path.join(HERE, "games", "hearts.yaml")
SEATS = ["north", "east", "south", "west"]
DIRECTIONS = ["No Pass", "Left", "Across", "Right"]


def card(text):
    """`qs` -> OpenSpiel's card: rank * 4 + suit (ranks 2..A, suits C D H S)."""
    return "23456789tjqka".index(text[0]) * 4 + "cdhs".index(text[1])


def tabula_id(word):
    """OpenSpiel's `QS` -> tabula's `qs`."""
    return word[:-1].lower() + word[-1].lower()


def tabula_view(tabula, seed, moves, viewer, tmp):
    path = os.path.join(tmp, "replay.json")  # JSON is YAML
    with open(path, "w") as f:
        json.dump({"game": GAME, "seed": seed, "moves": moves}, f)
    out = subprocess.run(
        [tabula, "replay", path, "--json", "--as", viewer], capture_output=True, text=True
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return json.loads(out.stdout)


def section(info, name):
    for line in info.splitlines():
        if line.startswith(name + ":"):
            return sorted(tabula_id(w) for w in line.split(":")[1].split())
    return []


def one(tabula, seed, tmp):
    views = {p: tabula_view(tabula, seed, [], p, tmp) for p in SEATS}
    direction = views["north"]["vars"]["pass"]
    hands = {p: views[p]["zones"]["hand"][p] for p in SEATS}
    state = pyspiel.load_game("hearts").new_initial_state()
    state.apply_action(direction)
    # OpenSpiel gives its k-th card to player k % 4.
    for k in range(52):
        state.apply_action(card(sorted(hands[SEATS[k % 4]], key=card)[k // 4]))
    passes = {}
    moves = []
    if direction != 0:
        for i, p in enumerate(SEATS):
            passes[p] = sorted(hands[p], key=card)[-3:]
            for c in passes[p]:
                assert state.current_player() == i, (seed, p)
                state.apply_action(card(c))
                moves.append({p: c})
    knows = {}
    for i, p in enumerate(SEATS):
        info = state.information_state_string(i)
        assert DIRECTIONS[direction] in info.splitlines()[0], info
        passed = section(info, "Passed Cards")
        assert passed == sorted(passes.get(p, [])), (seed, p, info)
        to = SEATS[(i + direction) % 4]
        knows[p] = {to: passed} if passed else {}
    return {"seed": seed, "pass": direction, "moves": moves, "knows": knows}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tabula", default=os.path.join(REPO, "target/debug/tabula"))
    ap.add_argument("--deals", type=int, default=8)
    args = ap.parse_args()
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        seed = 0
        while len(out) < args.deals:
            seed += 1
            out.append(one(args.tabula, seed, tmp))
    json.dump(
        {"source": "tests/reference/knowledge.py", "game": "hearts", "deals": out},
        sys.stdout,
        indent=1,
    )
    print()


if __name__ == "__main__":
    main()
