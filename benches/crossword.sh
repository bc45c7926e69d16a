#!/usr/bin/env bash
# Crossword benchmark: counting every fill of the assignment's puzzle 2 with
# words-3000 (10,538,886 fills), per propagation level, with peak memory;
# and loading a 500k-word dictionary.
#
# The baseline, run in the same script, is `ac` counting leaf by leaf
# (--no-product-count); ratios are baseline time / run time. The original
# Java program's figures (6 s with its best strategy, up to 160 s with others)
# come from its report and are quoted, not measured.
#
# Usage: benches/crossword.sh            (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=../shared/data/crossword
if [ ! -d "$DATA" ]; then
    echo "skipped: $DATA not found"
    exit 0
fi
cargo build --release --quiet
BIN=target/release/cspi
TIME=/usr/bin/time
[ -x "$TIME" ] || TIME=""

# Runs cspi; prints "seconds peak_kb solutions nodes" (wall time from the
# shell's clock in ms resolution; peak RSS from /usr/bin/time -v, or else the
# peak_memory_kb statistic).
run() {
    local out err t0 t1 secs kb nodes
    err=$(mktemp)
    t0=$(date +%s%N)
    if [ -n "$TIME" ]; then
        out=$($TIME -v "$BIN" solve "$@" --stats 2>"$err")
    else
        out=$("$BIN" solve "$@" --stats 2>"$err")
    fi
    t1=$(date +%s%N)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b-a)/1e9}')
    if [ -n "$TIME" ]; then
        kb=$(grep 'Maximum resident set size' "$err" | awk '{print $NF}')
    else
        kb=$(grep peak_memory_kb "$err" | awk '{print $2}')
    fi
    nodes=$(grep ' nodes:' "$err" | awk '{print $2}')
    rm -f "$err"
    # The count, with its status when the search did not complete.
    local n
    n=$(echo "$out" | awk '{ print ($3 == "(ALL_SOLUTIONS)" || $3 == "(UNSATISFIABLE)") ? $1 : $1 "+" $3 }')
    echo "$secs $kb $n $nodes"
}

P2=(models/crossword-slots.csp --param slots=$DATA/puzzle-2.txt --param dict=$DATA/words-3000.txt --count)

echo "== puzzle 2, words-3000, --count (one core) =="
printf "%-34s %9s %9s %10s %10s %8s %10s\n" run seconds peak_KB solutions nodes ratio vs_java_6s
read -r base_s base_kb base_n base_nodes < <(run "${P2[@]}" --propagation ac --no-product-count)
line() {
    local name=$1 s=$2 kb=$3 n=$4 nodes=$5
    printf "%-34s %9s %9s %10s %10s %8s %10s\n" "$name" "$s" "$kb" "$n" "$nodes" \
        "$(awk -v b="$base_s" -v s="$s" 'BEGIN{printf "%.1fx", (s>0? b/s : 0)}')" \
        "$(awk -v s="$s" 'BEGIN{printf "%.1fx", (s>0? 6/s : 0)}')"
}
line "ac leaf-by-leaf (baseline)" "$base_s" "$base_kb" "$base_n" "$base_nodes"
for var in mrv degree; do
    read -r s kb n nodes < <(run "${P2[@]}" --propagation ac --var "$var")
    line "ac by product, var $var" "$s" "$kb" "$n" "$nodes"
done
read -r s kb n nodes < <(run "${P2[@]}" --propagation fc)
line "fc (leaf by leaf), var mrv" "$s" "$kb" "$n" "$nodes"
read -r s kb n nodes < <(run "${P2[@]}" --propagation fc --var input)
line "fc (leaf by leaf), var input" "$s" "$kb" "$n" "$nodes"
# Under none a crossing is only checked once both words are decided; input
# order (neighbouring slots in turn) is its best order. Capped at 300 s.
read -r s kb n nodes < <(run "${P2[@]}" --propagation none --var input --time-limit 300)
line "none (leaf by leaf), var input" "$s" "$kb" "$n" "$nodes"

echo
echo "== all puzzles, words-3000, ac by product, var mrv =="
for p in 1 2 3 4; do
    read -r s kb n nodes < <(run models/crossword-slots.csp --param slots=$DATA/puzzle-$p.txt \
        --param dict=$DATA/words-3000.txt --count)
    echo "puzzle $p: $n fills in $s s, $nodes nodes, peak $kb KB"
done

echo
echo "== dictionary loading =="
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# 500,000 pseudo-random words of 3-12 letters (fixed seed), plus a 3x3 grid.
awk 'BEGIN { srand(7); for (i = 0; i < 500000; i++) { n = 3 + int(rand() * 10); w = "";
      for (j = 0; j < n; j++) w = w sprintf("%c", 97 + int(rand() * 26)); print w } }' >"$TMP/words.txt"
printf '...\n.#.\n...\n' >"$TMP/grid.txt"
read -r s kb n nodes < <(run models/crossword.csp --param grid="$TMP/grid.txt" --param dict="$TMP/words.txt")
echo "500k generated words: first fill in $s s (load + solve), peak $kb KB"
if [ -f /usr/share/dict/words ]; then
    grep -E '^[[:alpha:]]+$' /usr/share/dict/words >"$TMP/dict.txt"
    read -r s kb n nodes < <(run models/crossword.csp --param grid="$TMP/grid.txt" --param dict="$TMP/dict.txt")
    echo "/usr/share/dict/words ($(wc -l <"$TMP/dict.txt") words): first fill in $s s, peak $kb KB"
fi
