"""A Python loop playing uniform random games through the package
(`tabula.State`) against the same loop on OpenSpiel's C++ game through
pyspiel, in one run, interleaved: the binding's cost per step.

    pip install .   (from the repository; then)
    python3 tests/reference/python_loop.py > tests/reference/python_loop.json

The loop is what an agent's code does each step: who acts, chance's
outcomes or the legal actions, one drawn, applied; the returns at the end.
Each figure is the median of five rounds. CI reads none of this: the
JSON is committed data beside the script that made it.
"""

import json
import os
import random
import statistics
import sys
import time

import pyspiel
import tabula

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REF = os.path.join(ROOT, "tests", "reference", "games")

# tabula file, OpenSpiel's game string, games per round.
GAMES = [
    ("kuhn-poker", os.path.join(REF, "kuhn-poker.yaml"), "kuhn_poker(players=2)", 20000),
    ("leduc-poker", os.path.join(REF, "leduc-poker.yaml"), "leduc_poker(players=2)", 10000),
    ("liars-dice", os.path.join(REF, "liars-dice.yaml"),
     "liars_dice(players=2,numdice=1,dice_sides=6,bidding_rule=reset-face)", 5000),
    ("tic-tac-toe", os.path.join(REF, "tic-tac-toe.yaml"), "tic_tac_toe", 5000),
]


def play(game, n, rng):
    """n random games; returns the steps taken."""
    steps = 0
    for _ in range(n):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outs = s.chance_outcomes()
                a = rng.choices([o for o, _ in outs], [p for _, p in outs])[0]
            else:
                a = rng.choice(s.legal_actions())
            s.apply_action(a)
            steps += 1
        s.returns()
    return steps


def rate(game, n, seed):
    rng = random.Random(seed)
    t = time.perf_counter()
    steps = play(game, n, rng)
    dt = time.perf_counter() - t
    return n / dt, steps / dt


def main():
    out = {"command": "python3 tests/reference/python_loop.py", "games": []}
    for name, path, spec, n in GAMES:
        ours = tabula.load_game(path).spiel()
        theirs = pyspiel.load_game(spec)
        play(ours, 100, random.Random(0))  # warm: the handle's walk, caches
        a, b = [], []
        for r in range(5):
            a.append(rate(ours, n, r))
            b.append(rate(theirs, n, r))
        ga = statistics.median(x[0] for x in a)
        gb = statistics.median(x[0] for x in b)
        row = {
            "game": name,
            "tabula_games_per_s": round(ga),
            "openspiel_games_per_s": round(gb),
            "tabula_steps_per_s": round(statistics.median(x[1] for x in a)),
            "openspiel_steps_per_s": round(statistics.median(x[1] for x in b)),
            "ratio": round(ga / gb, 2),
        }
        print(json.dumps(row), file=sys.stderr)
        out["games"].append(row)
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
