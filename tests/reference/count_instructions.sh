#!/usr/bin/env bash
# Instructions per run of `tabula sim --jobs 1` under callgrind, for each
# binary given (the build before a change, then after): unlike games per
# second, the count does not move with the machine's load.
#   tests/reference/count_instructions.sh OLD_BINARY NEW_BINARY > counts.txt
set -euo pipefail
cd "$(dirname "$0")/../.."
run() {
  local label=$1 bin=$2 out
  shift 2
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" sim "$@" --jobs 1 >/dev/null 2>&1
  callgrind_annotate "$out" 2>/dev/null | awk -v l="$label" '/PROGRAM TOTALS/ {gsub(",", "", $1); print l, $1}'
  rm -f "$out"
}
for bin in "$@"; do
  echo "== $bin"
  run kuhn "$bin" tests/reference/games/kuhn-poker.yaml --games 20000
  run leduc "$bin" tests/reference/games/leduc-poker.yaml --games 20000
  run blotto "$bin" tests/reference/games/blotto.yaml --games 20000
  run goofspiel-13 "$bin" examples/goofspiel/games/goofspiel.yaml --set points_order=descending --games 5000
  run tic-tac-toe "$bin" tests/reference/games/tic-tac-toe.yaml --games 10000
  run liars-dice "$bin" tests/reference/games/liars-dice.yaml --games 20000
  run oshi-zumo "$bin" examples/oshi-zumo/games/oshi-zumo.yaml --games 5000
  run pig "$bin" tests/reference/games/pig.yaml --games 20000
  run braverats "$bin" games/braverats.yaml --games 5000
  run experior "$bin" games/experior.yaml --games 2000
  run the-path-4 "$bin" games/the-path.yaml --set players=4 --games 500
  run the-path-4-no-memo "$bin" games/the-path.yaml --set players=4 --games 200 --no-memo
  run tic-tac-toe-no-memo "$bin" tests/reference/games/tic-tac-toe.yaml --games 1000 --no-memo
done
