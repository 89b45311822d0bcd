#!/usr/bin/env bash
# Instructions per round of ops.rhai's loop under callgrind, in each tier:
# the typed VM (the default), native code (--jit), the tree tier
# (--no-vm) and Rhai (--no-compile); 0 and N rounds, the difference over
# N. GAME is ops.yaml, or numbers.yaml (the loop in a function of numbers
# alone, which --jit compiles to native code).
#   benches/ops/count.sh BINARY [N] [GAME]
# (docs/tuning.md, "Per operation", holds the figures it gave.)
set -euo pipefail
cd "$(dirname "$0")"
T=$1
N=${2:-20000}
GAME=${3:-ops.yaml}
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$T" sim "$GAME" \
    --games 1 --jobs 1 --no-memo "$@" 2>&1 | awk '/Collected/ {gsub(",", "", $4); print $4}'
}
echo "tier instructions-per-round"
for tier in vm --jit --no-vm --no-compile; do
  flag=$tier
  [ "$tier" = vm ] && flag=
  # shellcheck disable=SC2086
  a=$(count --set rounds=0 $flag)
  # shellcheck disable=SC2086
  b=$(count --set rounds="$N" $flag)
  echo "$tier $(( (b - a) / N ))"
done
