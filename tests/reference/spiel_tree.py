#!/usr/bin/env python3
"""Tree figures of OpenSpiel games for tabula's state API (tests/spiel.rs).

    python3 tests/reference/spiel_tree.py      # writes tests/reference/spiel_tree.json

Needs the pip package `open-spiel` (tested with 2.0.2). For each game it
walks every history of OpenSpiel's own tree (a position's figures kept by
its history-independent key, so tic-tac-toe's 550k histories take seconds)
and counts: histories by kind (terminal, one player, simultaneous), the
histories with each number of legal actions (a simultaneous node's as
"n0xn1"), terminal histories by their returns, the expected returns under
uniform random play (chance weighted), the distinct information states of
each player where they act, the number of distinct actions, and the
root's chance outcomes, and the game's own max_chance_outcomes,
min_utility, max_utility, max_game_length, utility_sum and whether its
information is perfect. No timings.
"""

import json
import os
from collections import Counter

import pyspiel

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "spiel_tree.json")

GAMES = {
    "kuhn-poker": "kuhn_poker(players=2)",
    "goofspiel": "goofspiel(players=2,num_cards=4,points_order=descending,returns_type=win_loss)",
    "tic-tac-toe": "tic_tac_toe",
}


def walk(game):
    n = game.num_players()
    memo = {}
    infosets = [set() for _ in range(n)]

    def key(s):
        return str(s)

    def go(s):
        """(Counter of figures, expected returns under uniform play)."""
        if s.is_terminal():
            r = s.returns()
            c = Counter({"terminal": 1, "histories": 1, "returns " + " ".join(f"{x:g}" for x in r): 1})
            return c, r
        if s.is_chance_node():
            c = Counter({"histories": 1, "chance": 1})
            ev = [0.0] * n
            for a, p in s.chance_outcomes():
                cc, e = go(s.child(a))
                c.update(cc)
                ev = [x + p * y for x, y in zip(ev, e)]
            return c, ev
        k = key(s) + "|" + s.history_str() if game.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION else key(s)
        if k in memo:
            return memo[k]
        c = Counter({"histories": 1})
        ev = [0.0] * n
        if s.is_simultaneous_node():
            legal = [s.legal_actions(p) for p in range(n)]
            c["simultaneous"] += 1
            c["legal " + "x".join(str(len(l)) for l in legal)] += 1
            for p in range(n):
                infosets[p].add(s.information_state_string(p))
            joints = [[a, b] for a in legal[0] for b in legal[1]]
            for j in joints:
                t = s.clone()
                t.apply_actions(j)
                cc, e = go(t)
                c.update(cc)
                ev = [x + y / len(joints) for x, y in zip(ev, e)]
        else:
            p = s.current_player()
            legal = s.legal_actions()
            c["one"] += 1
            c[f"legal {len(legal)}"] += 1
            infosets[p].add(s.information_state_string(p))
            for a in legal:
                cc, e = go(s.child(a))
                c.update(cc)
                ev = [x + y / len(legal) for x, y in zip(ev, e)]
        memo[k] = (c, ev)
        return c, ev

    root = game.new_initial_state()
    figures, ev = go(root)
    out = {
        "counts": dict(sorted(figures.items())),
        "uniform_returns": ev,
        "information_states": [len(i) for i in infosets],
        "num_distinct_actions": game.num_distinct_actions(),
        "max_chance_outcomes": game.max_chance_outcomes(),
        "min_utility": game.min_utility(),
        "max_utility": game.max_utility(),
        "max_game_length": game.max_game_length(),
        "utility_sum": game.utility_sum(),
        "perfect_information": game.get_type().information
        == pyspiel.GameType.Information.PERFECT_INFORMATION,
        "root_chance": [p for _, p in root.chance_outcomes()] if root.is_chance_node() else None,
    }
    return out


def main():
    data = {"_about": {"generator": "tests/reference/spiel_tree.py", "open_spiel": "2.0.2"}}
    for name, spec in GAMES.items():
        fig = walk(pyspiel.load_game(spec))
        fig["openspiel_game"] = spec
        data[name] = fig
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
