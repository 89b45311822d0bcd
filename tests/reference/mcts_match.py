#!/usr/bin/env python3
"""tabula's search bot against OpenSpiel's C++ MCTSBot in Connect Four, at
an equal time per move (issue #29's check).

    python3 tests/reference/mcts_match.py [--tabula PATH] [--games N] [--seconds T] [--solve]

tabula plays `examples/connect-four` (a grid game) through `tabula play
--bot SEAT=mcts:Ts`, reading its moves off the log ("Red drops a disc into
column d") and typing OpenSpiel's; OpenSpiel plays `connect_four` with
its C++ `MCTSBot` (UCT c=2, one random rollout per leaf) stopped by the
wall clock at T seconds (`max_wall_clock_time`), without its MCTS-Solver
unless `--solve` (tabula's bot always proves where it can); its
simulations per second are measured first, for the record. Seats
alternate. Run it on a quiet machine: the figures are times.
Writes mcts_match.json beside itself.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

import pyspiel

HERE = os.path.dirname(os.path.abspath(__file__))
GAME = os.path.normpath(os.path.join(HERE, "../../examples/connect-four/games/connect-four.yaml"))
NAMES = ["Red", "Yellow"]
IDS = ["red", "yellow"]
MOVE = re.compile(r"^(Red|Yellow) drops a disc into column ([a-z])")


def openspiel_bot(game, sims, seed, seconds=-1.0, solve=False):
    """OpenSpiel's C++ MCTSBot: UCT c=2, one random rollout per leaf, its
    solver if `solve`; stopped by `sims` or by the wall clock at `seconds`."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.MCTSBot(game, evaluator, 2.0, sims, 1000, solve, seed, False,
                           pyspiel.ChildSelectionPolicy.UCT, seconds)


def sims_per_second(game):
    bot = openspiel_bot(game, 20000, 0)
    state = game.new_initial_state()
    t = time.perf_counter()
    for _ in range(3):
        bot.step(state)
    return 3 * 20000 / (time.perf_counter() - t)


def play(tabula, game, sims, seconds, tabula_seat, seed, solve):
    os_seat = 1 - tabula_seat
    cmd = [
        tabula, "play", GAME, "--as", IDS[os_seat],
        "--bot", f"{IDS[tabula_seat]}=mcts:{seconds}s", "--seed", str(seed),
    ]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    bot = openspiel_bot(game, 10**8, seed, seconds, solve)
    state = game.new_initial_state()
    result = None
    for line in p.stdout:
        m = MOVE.match(line)
        if m and m.group(1) == NAMES[tabula_seat]:
            state.apply_action(ord(m.group(2)) - ord("a"))
        elif line.startswith(f"{NAMES[os_seat]} - "):
            a = bot.step(state)
            state.apply_action(a)
            p.stdin.write(chr(ord("a") + a) + "\n")
            p.stdin.flush()
        elif line.startswith("Game over:"):
            r = state.returns()
            result = "draw" if r[0] == 0 else ("tabula" if r[tabula_seat] > 0 else "openspiel")
            assert state.is_terminal(), line
            p.stdin.write("quit\nn\n")
            p.stdin.flush()
            break
    p.wait(timeout=30)
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tabula", default=shutil.which("tabula") or os.path.join(HERE, "../../target/release/tabula"))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=0.25)
    ap.add_argument("--solve", action="store_true", help="OpenSpiel's MCTSBot proves wins and losses too")
    args = ap.parse_args()
    game = pyspiel.load_game("connect_four")
    rate = sims_per_second(game)
    sims = int(rate * args.seconds)
    print(f"OpenSpiel MCTSBot: {rate:.0f} simulations/s, about {sims} per move", file=sys.stderr)
    tally = {"tabula": 0, "openspiel": 0, "draw": 0}
    for g in range(args.games):
        r = play(args.tabula, game, sims, args.seconds, g % 2, g, args.solve)
        tally[r] += 1
        print(f"game {g}: tabula as {IDS[g % 2]}: {r}", file=sys.stderr)
    out = {
        "_about": "tests/reference/mcts_match.py: Connect Four, tabula mcts:Ts against OpenSpiel C++ MCTSBot stopped at T s a move (max_wall_clock_time); seats alternate",
        "open_spiel": getattr(pyspiel, "__version__", "?"),
        "seconds_per_move": args.seconds,
        "openspiel_solver": args.solve,
        "openspiel_simulations_per_second": round(rate),
        "openspiel_simulations_per_move_about": sims,
        "games": args.games,
        "result": tally,
    }
    with open(os.path.join(HERE, "mcts_match.json"), "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")
    print(json.dumps(tally))


if __name__ == "__main__":
    main()
