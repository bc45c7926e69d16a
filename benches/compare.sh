#!/usr/bin/env bash
# Compares two cspi binaries on the same workloads, run alternately so that
# machine noise hits both alike; prints each one's median wall time and the
# ratio new/base (below 1: the new binary is faster).
#
#   benches/compare.sh BASE_BINARY NEW_BINARY [ROUNDS=5]
#
# Build the base from another commit, e.g.
#   git worktree add /tmp/base <commit> && (cd /tmp/base && cargo build --release)
set -euo pipefail
cd "$(dirname "$0")/.."
base="$1"
new="$2"
rounds="${3:-5}"
data=../shared/data/crossword

workloads=(
  "solve models/sudoku.csp"
  "solve models/n-queens.csp --param n=11 --count"
  "solve models/magic-square.csp --param n=4 --count"
  "solve models/eight-puzzle.csp"
)
if [ -d "$data" ]; then
  xw="solve models/crossword-slots.csp --param slots=$data/puzzle-2.txt --param dict=$data/words-1000.txt --count --no-product-count"
  workloads+=("$xw --var mrv --propagation fc" "$xw --var input --val lcv --propagation ac")
else
  echo "note: $data not found; crossword workloads skipped" >&2
fi

# Wall time of one run in milliseconds.
run_ms() {
  local start end
  start=$(date +%s%N)
  # shellcheck disable=SC2086
  "$1" $2 >/dev/null 2>&1
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '| workload | base ms | new ms | new/base |\n|---|---:|---:|---:|\n'
for w in "${workloads[@]}"; do
  b=()
  n=()
  for ((i = 0; i < rounds; i++)); do
    b+=("$(run_ms "$base" "$w")")
    n+=("$(run_ms "$new" "$w")")
  done
  mb=$(printf '%s\n' "${b[@]}" | median)
  mn=$(printf '%s\n' "${n[@]}" | median)
  ratio=$(awk -v a="$mn" -v b="$mb" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  printf '| `%s` | %s | %s | %s |\n' "${w#solve models/}" "$mb" "$mn" "$ratio"
done
