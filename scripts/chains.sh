#!/usr/bin/env bash
# Operator chains load in linear time: for every kind of chain, load (and
# solve) a model with N operators and one with 4N, and print both times and
# their ratio. A ratio near 4 is linear; near 16 is quadratic. Usage:
#
#   scripts/chains.sh [N] [BINARY]   (default N = 8000, target/release/cspi; 4N
#   operators of every kind stay within the 200,000-operator limit)
#
# Exits non-zero if a run fails or a ratio exceeds 8 (twice linear, to
# allow for noise on a shared machine). Speed is measured here, never by
# timed assertions in the tests.
set -uo pipefail
cd "$(dirname "$0")/.."
n="${1:-8000}"
bin="${2:-target/release/cspi}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
kinds=(+ - '*' / % '^' '&&' '||' '->' '<->' xor == '!=' '<' '!' neg if exists sum-distinct)
status=0

model() { # kind count
  python3 - "$1" "$2" <<'PY'
import sys
kind, n = sys.argv[1], int(sys.argv[2])
head = "var x in 1..3;\n"
if kind in ("&&", "||", "->", "<->", "xor"):
    print(head + "constraint " + f" {kind} ".join(["x == 1"] * n) + ";")
elif kind in ("==", "!=", "<"):
    print(head + "constraint (" + f" {kind} ".join(["x"] * n) + ") == 1;")
elif kind == "!":
    print(head + "constraint " + "!" * n + "(x == 1);")
elif kind == "neg":
    print(head + "constraint " + "-" * n + "x == 1;")
elif kind == "if":
    print(head + "let c = x >= 2; let d = x == 3;\nconstraint "
          + "if c then " * n + "d" + " else false end" * n + ";")
elif kind == "exists":
    print(head + "constraint " + "exists i in 1..1: " * n + "x == 1;")
elif kind == "sum-distinct":
    print(f"var y[1..{n + 1}] in 0..1;\nconstraint "
          + " + ".join(f"y[{i}]" for i in range(1, n + 2)) + " >= 0;")
elif kind in ("*", "^"):
    # Values must fit in 64 bits (exact integers): 0 and 1 keep every power
    # and product within them.
    print("var x in 0..1;\nconstraint " + f" {kind} ".join(["x"] * n) + " >= 0;")
else:
    print(head + "constraint " + f" {kind} ".join(["x"] * n) + " >= 0;")
PY
}

seconds() { # file
  local start end
  start=$(date +%s.%N)
  if ! "$bin" solve "$1" >/dev/null 2>"$dir/err"; then
    echo "FAILED: $(head -c 300 "$dir/err")" >&2
    echo -1
    return
  fi
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

printf '%-14s %10s %10s %7s\n' kind "N=$n" "N=$((4 * n))" ratio
for kind in "${kinds[@]}"; do
  model "$kind" "$n" >"$dir/a.csp"
  model "$kind" $((4 * n)) >"$dir/b.csp"
  a=$(seconds "$dir/a.csp")
  b=$(seconds "$dir/b.csp")
  ratio=$(echo "scale=1; $b / ($a + 0.001)" | bc)
  printf '%-14s %10.3f %10.3f %7s\n' "$kind" "$a" "$b" "$ratio"
  if [ "$a" = -1 ] || [ "$b" = -1 ] || [ "$(echo "$ratio > 8" | bc)" = 1 ]; then
    status=1
  fi
done
exit $status
