#!/usr/bin/env bash
# Instructions per game of `tabula sim --jobs 1` under callgrind, for each
# game of time_sim.py, with the typed VM (the default) and without
# (`--no-vm`): N and 2N games, the difference over N (the load drops out).
#   tests/reference/count_per_game.sh BINARY > counts.txt
# (docs/tuning.md, "The typed VM", holds the figures it gave.)
set -euo pipefail
cd "$(dirname "$0")/../.."
T=$1
R=tests/reference/games
E=examples
games=(
  "kuhn-poker $R/kuhn-poker.yaml 400"
  "leduc-poker $R/leduc-poker.yaml 200"
  "blotto $R/blotto.yaml 400"
  "goofspiel-13 $E/goofspiel/games/goofspiel.yaml 40 --set points_order=descending"
  "tic-tac-toe $R/tic-tac-toe.yaml 200"
  "liars-dice $R/liars-dice.yaml 400"
  "oshi-zumo $E/oshi-zumo/games/oshi-zumo.yaml 40"
  "pig $R/pig.yaml 200"
  "tic-tac-toe-grid $E/tic-tac-toe/games/tic-tac-toe.yaml 200"
  "connect-four $E/connect-four/games/connect-four.yaml 50"
  "othello $R/othello.yaml 3"
  "breakthrough $R/breakthrough.yaml 3"
  "hex-11 $R/hex.yaml 3"
  "mancala $R/mancala.yaml 20"
  "dots-and-boxes $R/dots-and-boxes.yaml 50"
  "hearts $R/hearts.yaml 10"
)
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$T" sim "$@" --jobs 1 2>&1 |
    awk '/Collected/ {gsub(",", "", $4); print $4}'
}
echo "game vm no-vm"
for g in "${games[@]}"; do
  # shellcheck disable=SC2086
  set -- $g
  name=$1 path=$2 n=$3
  shift 3
  line="$name"
  for mode in "" "--no-vm"; do
    # shellcheck disable=SC2086
    a=$(count "$path" --games "$n" --seed 1 "$@" $mode)
    # shellcheck disable=SC2086
    b=$(count "$path" --games $((2 * n)) --seed 1 "$@" $mode)
    line="$line $(((b - a) / n))"
  done
  echo "$line"
done
