#!/usr/bin/env bash
# Scaling benchmark (issue 14): counting by components, threads, the split.
#
# 1. Counting by components against leaf by leaf (--no-product-count), one
#    thread: crossword puzzles 2 and 4 with words-3000.
# 2. Two threads against one on the same workload, alternately, REPEAT times:
#    n-queens 13 and 14 counts, crossword puzzle 2 x words-3000 counted leaf
#    by leaf (enumeration without printing). CPU (user+sys) and wall seconds
#    of the whole process; the ratio is one thread's wall time over two
#    threads'. Other jobs share the machine: the load average is printed.
# 3. The split into PARTS parts as separate processes (--threads 1): the sum of
#    their CPU against one whole run's, and their times replayed over 16, 64
#    and 256 workers (scripts/split-sim.py).
#
# Usage: benches/scale.sh [REPEAT] [PARTS]     (from the repository root;
#        CSPI_BIN=path skips the build and times that binary)
set -euo pipefail
cd "$(dirname "$0")/.."
REPEAT=${1:-2}
PARTS=${2:-64}
if [ -z "${CSPI_BIN:-}" ]; then
    cargo build --release --quiet
fi
BIN=${CSPI_BIN:-$PWD/target/release/cspi}
DATA=../shared/data/crossword
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# Runs cspi, output to $OUT (default $WORK/out); prints "cpu wall" in
# seconds: the user + system time of that process alone, from wait4 (GNU time
# rounds to 10 ms, too coarse for the parts of a split).
measure() {
    python3 -c '
import os, subprocess, sys, time
began = time.monotonic()
with open(sys.argv[1], "w") as out:
    p = subprocess.Popen(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL)
    _, _, r = os.wait4(p.pid, 0)
print(f"{r.ru_utime + r.ru_stime:.4f} {time.monotonic() - began:.4f}")
' "${OUT:-$WORK/out}" "$BIN" "$@"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
declare -a NAMES ARGS
NAMES+=("queens 13 count");   ARGS+=("solve models/n-queens.csp --param n=13 --count")
NAMES+=("queens 14 count");   ARGS+=("solve models/n-queens.csp --param n=14 --count")
if [ -d "$DATA" ]; then
    XW="solve models/crossword-slots.csp --param dict=$DATA/words-3000.txt --count"
    echo
    echo "## Counting by components (one thread)"
    echo
    echo "| puzzle | leaf by leaf: CPU s | by components: CPU s | ratio |"
    echo "| --- | ---: | ---: | ---: |"
    for p in 2 4; do
        read -r lc _ < <(measure $XW --param slots=$DATA/puzzle-$p.txt --threads 1 --no-product-count)
        read -r cc _ < <(measure $XW --param slots=$DATA/puzzle-$p.txt --threads 1)
        echo "| $p | $lc | $cc | $(awk "BEGIN{printf \"%.0f\", $lc / ($cc > 0.005 ? $cc : 0.005)}") |"
    done
    NAMES+=("crossword 2 leaf by leaf"); ARGS+=("$XW --param slots=$DATA/puzzle-2.txt --no-product-count")
else
    echo "skipped: $DATA not found (crossword workloads)"
fi

echo
echo "## Two threads against one (same run, alternating, $REPEAT times)"
echo
echo "| workload | 1 thread: CPU / wall s | 2 threads: CPU / wall s | wall ratio | CPU ratio |"
echo "| --- | ---: | ---: | ---: | ---: |"
for i in "${!NAMES[@]}"; do
    c1=0; w1=0; c2=0; w2=0
    for _ in $(seq "$REPEAT"); do
        read -r c w < <(measure ${ARGS[$i]} --threads 1); c1=$(awk "BEGIN{print $c1+$c}"); w1=$(awk "BEGIN{print $w1+$w}")
        read -r c w < <(measure ${ARGS[$i]} --threads 2); c2=$(awk "BEGIN{print $c2+$c}"); w2=$(awk "BEGIN{print $w2+$w}")
    done
    awk -v n="${NAMES[$i]}" -v r="$REPEAT" -v c1="$c1" -v w1="$w1" -v c2="$c2" -v w2="$w2" \
        'BEGIN{printf "| %s | %.2f / %.2f | %.2f / %.2f | %.2f | %.2f |\n", n, c1/r, w1/r, c2/r, w2/r, w1/w2, c2/c1}'
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
echo "## The split into $PARTS parts (separate processes, one thread each)"
echo
for i in "${!NAMES[@]}"; do
    read -r whole _ < <(measure ${ARGS[$i]} --threads 1)
    mkdir -p "$WORK/parts-$i"
    sum=0
    for k in $(seq "$PARTS"); do
        read -r cpu _ < <(OUT="$WORK/parts-$i/part-$k.jsonl" measure ${ARGS[$i]} --threads 1 \
            --part "$k/$PARTS" --format json)
        echo "$cpu" > "$WORK/parts-$i/part-$k.cpu"
        sum=$(awk "BEGIN{print $sum + $cpu}")
    done
    merged=$("$BIN" merge "$WORK"/parts-$i/part-*.jsonl | head -1)
    awk -v n="${NAMES[$i]}" -v w="$whole" -v s="$sum" -v m="$merged" \
        'BEGIN{printf "%s: one run %.3f s CPU, %d parts %.3f s CPU in all (%+.1f%%); merged: %s\n", n, w, '"$PARTS"', s, 100*(s-w)/w, m}'
    python3 scripts/split-sim.py "$WORK"/parts-$i/part-*.cpu --workers 16,64,256
    echo
done
