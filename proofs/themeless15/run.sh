#!/usr/bin/env bash
# Runs (or takes up again) the proof by parts of themeless15 at minimum score 50:
# 256 parts, two at a time at the lowest priority, each finished part kept in parts/,
# each part's empty sub-problems in its log and the nogoods of the sub-problem in flight
# beside it, so that a part cut off goes on from there, even inside one sub-problem.
# CSPI: the build to run (default target/release/cspi); STWL: Spread the Wordlist.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CSPI=${CSPI:-$ROOT/target/release/cspi}
STWL=${STWL:-$HOME/.cache/cspi-peers/spreadthewordlist.dict}
cd "$ROOT"
exec nice -n 19 python3 scripts/run-parts.py --dir "$HERE/parts" --parts 256 --jobs 2 --logs --resplit 8 \
    --cspi "$CSPI" -- solve models/crossword.csp \
    --param grid=benches/crossword-grids/themeless15.txt --param "dict=$STWL" --param min_score=50 \
    >> "$HERE/log.txt" 2>&1
