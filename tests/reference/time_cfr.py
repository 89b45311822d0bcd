#!/usr/bin/env python3
"""Time CFR+ to a target exploitability: OpenSpiel's C++ `CFRPlusSolver`
against `tabula solve` (its CFR+), in the same run, on one core each.

    python3 tests/reference/time_cfr.py [TABULA ...]   # writes tests/reference/timing.json

TABULA: tabula binaries to time (default target/release/tabula); each is
timed on the same games, so that an old and a new build compare in one run.
OpenSpiel checks its exploitability on tabula's schedule (after iteration
t, next after max(t + 1, 1.1 t)), so both pay for the same checks; the time
is wall-clock for the whole solve, tree building included (tabula stops at
120 s if it has not reached the target). Run it on a
quiet machine: nothing else should be running.
"""

import json
import os
import subprocess
import sys
import time

import pyspiel

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GAMES = [
    # (entry, tabula game, --set, OpenSpiel game, target)
    ("liars-dice", "liars-dice", [], "liars_dice(players=2,numdice=1,dice_sides=6)", 1e-3),
    ("leduc-poker", "leduc-poker", [], "leduc_poker", 1e-5),
    ("kuhn-poker", "kuhn-poker", [], "kuhn_poker", 1e-5),
]


def openspiel(game_string, target):
    game = pyspiel.load_game(game_string)
    start = time.perf_counter()
    solver = pyspiel.CFRPlusSolver(game)
    t, next_check, expl = 0, 1, None
    while True:
        t += 1
        solver.evaluate_and_update_policy()
        if t >= next_check:
            next_check = max(t + 1, t * 11 // 10)
            expl = pyspiel.exploitability(game, solver.average_policy())
            if expl <= target or t >= 100_000:
                break
    return {"iterations": t, "exploitability": expl, "seconds": time.perf_counter() - start}


def tabula(binary, game, sets, target):
    args = [binary, "--games-dir", os.path.join(HERE, "games"), "solve", game, "--json",
            "--jobs", "1", "--target", str(target), "--seconds", "120"]
    for s in sets:
        args += ["--set", s]
    start = time.perf_counter()
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    v = json.loads(out)
    return {"iterations": v["iterations"], "exploitability": v["exploitability"],
            "seconds": wall, "value": v["worth"]["value"], "infosets": v["infosets"]}


def main():
    binaries = sys.argv[1:] or [os.path.join(ROOT, "target/release/tabula")]
    out = {"_about": {"generator": "tests/reference/time_cfr.py",
                      "open_spiel": getattr(pyspiel, "__version__", "?"),
                      "doc": "wall-clock seconds to reach `target`, one core each, same run"}}
    for entry, game, sets, gs, target in GAMES:
        row = {"target": target, "openspiel_cpp_cfr_plus": openspiel(gs, target)}
        for b in binaries:
            row["tabula " + os.path.relpath(b, ROOT)] = tabula(b, game, sets, target)
        out[entry] = row
        print(entry, json.dumps(row, indent=1), flush=True)
    with open(os.path.join(HERE, "timing.json"), "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
