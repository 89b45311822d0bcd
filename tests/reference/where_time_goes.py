"""Where a playout's instructions go, per game, under callgrind: the
share of `tabula sim GAME --jobs 1` spent in hook calls (memo replays,
script runs and the API functions they call, asks, recording runs for
the memo), in the bots, in each game's setup, and in the engine's own
flow, with the allocator's share across all of them.

    python3 tests/reference/where_time_goes.py target/release/tabula > where.md

Prints a Markdown table. Needs valgrind; CI reads none of this. A share
is of the instructions spent playing games (`play_one`), inclusive: a
hook's script run counts the API functions it calls. `replays`, `script
runs` and `recording` are parts of `hooks` (with the memo's lookups);
`API calls` and `asks` parts of `script runs`; `engine` is the rest once
hooks and bots are out (the flow, options, states). `setup` (each game's
start, its hooks included) and `alloc` (the allocator's own functions, wherever called)
overlap the others.
"""

import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Label, then `tabula sim` arguments (fewer games than time_sim.py: callgrind
# runs some fifty times slower).
GAMES = [
    ("Kuhn poker", ["tests/reference/games/kuhn-poker.yaml", "--games", "5000"]),
    ("Leduc poker", ["tests/reference/games/leduc-poker.yaml", "--games", "5000"]),
    ("Colonel Blotto", ["tests/reference/games/blotto.yaml", "--games", "5000"]),
    ("Goofspiel 13", ["examples/goofspiel/games/goofspiel.yaml", "--set", "points_order=descending", "--games", "3000"]),
    ("tic-tac-toe", ["tests/reference/games/tic-tac-toe.yaml", "--games", "5000"]),
    ("Liar's dice", ["tests/reference/games/liars-dice.yaml", "--games", "5000"]),
    ("Oshi-Zumo", ["examples/oshi-zumo/games/oshi-zumo.yaml", "--games", "2000"]),
    ("Pig", ["tests/reference/games/pig.yaml", "--games", "5000"]),
    ("tic-tac-toe (grid)", ["examples/tic-tac-toe/games/tic-tac-toe.yaml", "--games", "5000"]),
    ("Connect Four", ["examples/connect-four/games/connect-four.yaml", "--games", "1000"]),
    ("BraveRats", ["games/braverats.yaml", "--games", "3000"]),
    ("Experior", ["games/experior.yaml", "--games", "1000"]),
    ("The Path, 4 players", ["games/the-path.yaml", "--set", "players=4", "--games", "300"]),
]

# Column, then the function (as callgrind_annotate names it, without its
# file) whose inclusive count it takes.
FUNCS = [
    ("total", "tabula::analysis::sim::play_one"),
    ("hooks", "<tabula::hooks::memo::Memo<H> as tabula::core::hooks::Hooks>::run"),
    ("replays", "tabula::hooks::memo::Trie::replay"),
    ("script runs", "tabula::hooks::script::RhaiHooks::call"),
    ("API calls", "tabula::hooks::script::tier::call::<impl tabula::hooks::script::tier::run::Run>::native"),
    ("asks", "tabula::hooks::script::api::flow::ask"),
    ("recording", "tabula::hooks::memo::Trie::insert"),
    ("bots", "<tabula::analysis::bot::RandomBot as tabula::analysis::bot::Bot>::choose"),
    ("setup", "tabula::core::state::State::new_quiet"),
]
ALLOC = {"malloc", "free", "_int_malloc", "_int_free", "realloc", "_int_realloc", "malloc_consolidate"}


def is_alloc(name):
    """glibc's malloc (before mimalloc) or mimalloc's own functions."""
    return name in ALLOC or name.startswith(("mi_", "_mi_"))

LINE = re.compile(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*?)(?: \[[^\]]*\])?$")


def annotate(out, inclusive):
    text = subprocess.run(
        ["callgrind_annotate", "--auto=no", f"--inclusive={'yes' if inclusive else 'no'}", "--threshold=100", out],
        capture_output=True, text=True, check=True,
    ).stdout
    counts = {}
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        n = int(m.group(1).replace(",", ""))
        # "file:function": a function's code inlined from several files is
        # listed once per file; its inclusive count is the largest.
        name = m.group(2).split(":", 1)[1] if ":" in m.group(2) else m.group(2)
        counts[name] = max(counts.get(name, 0), n) if inclusive else counts.get(name, 0) + n
    return counts


def measure(binary, args):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "sim", *args, "--jobs", "1"],
            cwd=ROOT, capture_output=True, check=True,
        )
        inc = annotate(out, True)
        own = annotate(out, False)
    row = {col: inc.get(fn, 0) for col, fn in FUNCS}
    row["alloc"] = sum(n for name, n in own.items() if is_alloc(name))
    return row


def main():
    binary = os.path.abspath(sys.argv[1])
    cols = ["hooks", "replays", "script runs", "API calls", "asks", "recording", "bots", "engine", "setup", "alloc"]
    print("| game | instructions a game | " + " | ".join(cols) + " |")
    print("|---|---:|" + "---:|" * len(cols))
    for label, args in GAMES:
        r = measure(binary, args)
        games = int(args[args.index("--games") + 1])
        total = max(r["total"], 1)
        r["engine"] = total - r["hooks"] - r["bots"]
        cells = [f"{100 * r[c] / total:.0f}%" for c in cols]
        print(f"| {label} | {r['total'] // games:,} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
