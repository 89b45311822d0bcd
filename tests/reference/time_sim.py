"""Random-bot games per second, one thread: OpenSpiel's C++ games and bots
(`pyspiel.evaluate_bots` with `pyspiel.make_uniform_random_bot`) against
`tabula sim GAME --jobs 1` compiled and with `--no-compile`, in one run.

    python3 tests/reference/time_sim.py target/release/tabula > tests/reference/sim_timing.json
    python3 tests/reference/time_sim.py NEW_BINARY OLD_BINARY > ...  (also the build before a change)
    python3 tests/reference/time_sim.py NEW@89ee001 OLD@93f7df4 > ...  (labelled in the JSON)
    python3 tests/reference/time_sim.py BINARY --jit --only othello,pig > ...
        (also `--jit`, native code; only the games named, not `--no-compile`)

Each figure is the median of five runs (a run is a fraction of a second, and the machine is noisy). CI reads none of this: the JSON
is committed data beside the script that made it.
"""

import json
import os
import statistics
import subprocess
import sys
import time

import pyspiel

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REF = os.path.join(ROOT, "tests", "reference", "games")
EX = os.path.join(ROOT, "examples")

# tabula file, its --set flags, OpenSpiel's game string, games per run.
GAMES = [
    ("kuhn-poker", os.path.join(REF, "kuhn-poker.yaml"), [], "kuhn_poker(players=2)", 20000),
    ("leduc-poker", os.path.join(REF, "leduc-poker.yaml"), [], "leduc_poker(players=2)", 20000),
    ("blotto", os.path.join(REF, "blotto.yaml"), [], "blotto(players=2,coins=4,fields=3)", 20000),
    (
        "goofspiel-13",
        os.path.join(EX, "goofspiel", "games", "goofspiel.yaml"),
        ["--set", "points_order=descending"],
        "goofspiel(players=2,num_cards=13,points_order=descending)",
        5000,
    ),
    ("tic-tac-toe", os.path.join(REF, "tic-tac-toe.yaml"), [], "tic_tac_toe", 10000),
    (
        "liars-dice",
        os.path.join(REF, "liars-dice.yaml"),
        [],
        "liars_dice(players=2,numdice=1,dice_sides=6,bidding_rule=reset-face)",
        20000,
    ),
    (
        "oshi-zumo",
        os.path.join(EX, "oshi-zumo", "games", "oshi-zumo.yaml"),
        [],
        "oshi_zumo(coins=50,size=3,horizon=1000,min_bid=0)",
        5000,
    ),
    ("pig", os.path.join(REF, "pig.yaml"), [], "pig(players=2,winscore=10,horizon=20,diceoutcomes=6)", 20000),
    # Grid boards (a zone with `grid:`): the examples.
    ("tic-tac-toe-grid", os.path.join(EX, "tic-tac-toe", "games", "tic-tac-toe.yaml"), [], "tic_tac_toe", 10000),
    (
        "connect-four",
        os.path.join(EX, "connect-four", "games", "connect-four.yaml"),
        [],
        "connect_four(rows=6,columns=7,x_in_row=4)",
        5000,
    ),
    # ---- Board games for issue #54, written as a newcomer writes them.
    ("othello", os.path.join(REF, "othello.yaml"), [], "othello", 200),
    ("breakthrough", os.path.join(REF, "breakthrough.yaml"), [], "breakthrough(rows=8,columns=8)", 200),
    ("hex-11", os.path.join(REF, "hex.yaml"), [], "hex(board_size=11,swap=false)", 200),
    # ---- end of the board games for issue #54.
]

# ---- Issue #54's benchmark games: Mancala, Dots and Boxes, Hearts, written
# as a newcomer writes them (tests/reference/README.md). ----
GAMES += [
    ("mancala", os.path.join(REF, "mancala.yaml"), [], "mancala", 2000),
    (
        "dots-and-boxes",
        os.path.join(REF, "dots-and-boxes.yaml"),
        [],
        "dots_and_boxes(num_rows=2,num_cols=2,utility_margin=false)",
        5000,
    ),
    ("hearts", os.path.join(REF, "hearts.yaml"), [], "hearts", 2000),
]
# ---- End of issue #54's benchmark games. ----


def openspiel_rate(game_string, n):
    game = pyspiel.load_game(game_string)
    bots = [pyspiel.make_uniform_random_bot(p, 1234 + p) for p in range(game.num_players())]
    start = time.perf_counter()
    for _ in range(n):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, 42)
    return n / (time.perf_counter() - start)


def tabula_rate(tabula, path, sets, n, extra):
    """Games per second, or None where this build cannot play the game (a
    build before a feature the game uses)."""
    out = subprocess.run(
        [tabula, "sim", path, "--games", str(n), "--jobs", "1", *sets, *extra],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        return None
    for line in (out.stdout + out.stderr).splitlines():
        if "games/s" in line:
            return float(line.split("(")[1].split(" games/s")[0])
    raise RuntimeError(out.stdout + out.stderr)


def main():
    args = sys.argv[1:]
    # `--jit`: native code timed too; `--only a,b`: those games, without
    # `--no-compile` (a quicker run).
    jit = "--jit" in args
    only = None
    if "--only" in args:
        only = set(args[args.index("--only") + 1].split(","))
        del args[args.index("--only") : args.index("--only") + 2]
    args = [a for a in args if a != "--jit"]
    # A binary may carry a label for the report (`path@label`: its commit).
    tabula, _, after_label = args[0].partition("@")
    # An optional second binary, the build before a change, timed in the same run.
    before, _, before_label = args[1].partition("@") if len(args) > 1 else (None, "", "")
    report = {
        "_about": {
            "generator": "tests/reference/time_sim.py",
            "open_spiel": getattr(pyspiel, "__version__", "?"),
            "doc": "random-bot games per second, one thread, median of 5, same run",
        }
    }
    for name, path, sets, gs, n in GAMES:
        if only is not None and name not in only:
            continue
        rows = {"openspiel_cpp": [], "tabula": []}
        if only is None:
            rows["tabula_no_compile"] = []
        if jit:
            rows["tabula_jit"] = []
        if before:
            rows["tabula_before"] = []
        for _ in range(5):
            rows["openspiel_cpp"].append(openspiel_rate(gs, n))
            rows["tabula"].append(tabula_rate(tabula, path, sets, n, []))
            if only is None:
                rows["tabula_no_compile"].append(tabula_rate(tabula, path, sets, n, ["--no-compile"]))
            if jit:
                rows["tabula_jit"].append(tabula_rate(tabula, path, sets, n, ["--jit"]))
            if before:
                r = tabula_rate(before, path, sets, n, [])
                if r is not None:
                    rows["tabula_before"].append(r)
        med = {k: statistics.median(v) for k, v in rows.items() if v}
        med["ratio"] = med["tabula"] / med["openspiel_cpp"]
        if "tabula_no_compile" in med:
            med["ratio_no_compile"] = med["tabula_no_compile"] / med["openspiel_cpp"]
        if "tabula_jit" in med:
            med["ratio_jit"] = med["tabula_jit"] / med["openspiel_cpp"]
        if "tabula_before" in med:
            med["ratio_before"] = med["tabula_before"] / med["openspiel_cpp"]
        report[name] = {k: round(v, 3) for k, v in med.items()}
        print(name, report[name], file=sys.stderr)
    ratios = [v["ratio"] for k, v in report.items() if not k.startswith("_")]
    report["_about"]["geometric_mean_ratio"] = round(statistics.geometric_mean(ratios), 3)
    plain = [v["ratio_no_compile"] for k, v in report.items() if not k.startswith("_") and "ratio_no_compile" in v]
    if plain:
        report["_about"]["geometric_mean_ratio_no_compile"] = round(statistics.geometric_mean(plain), 3)
    native = [v["ratio_jit"] for k, v in report.items() if not k.startswith("_") and "ratio_jit" in v]
    if native:
        report["_about"]["geometric_mean_ratio_jit"] = round(statistics.geometric_mean(native), 3)
    if before:
        # Over the games both builds play (a grid game is new).
        both = [v for k, v in report.items() if not k.startswith("_") and "ratio_before" in v]
        report["_about"]["geometric_mean_ratio_before"] = round(
            statistics.geometric_mean([v["ratio_before"] for v in both]), 3)
        report["_about"]["geometric_mean_ratio_on_those"] = round(
            statistics.geometric_mean([v["ratio"] for v in both]), 3)
        report["_about"]["before"] = before_label or before
    if after_label:
        report["_about"]["after"] = after_label
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
