#!/usr/bin/env bash
# The long test runs, for a nightly job. Usage:
#
#   scripts/nightly.sh [CASES] [FUZZ_SECONDS]
#
#   CASES         random models for tests/it/differential (default 50000; the
#                 plain `cargo test` runs 2000) and a tenth as many long-sum
#                 models for tests/long_sums
#   FUZZ_SECONDS  seconds per fuzz target for scripts/fuzz.sh (default 600;
#                 0 skips fuzzing, which needs a C++ compiler for libFuzzer)
#   CSPI_DIFF_SEED  draws other models than the default run (default: the
#                 date, YYYYMMDD, so each night tests new ones; printed so a
#                 failure can be rerun)
#
# Runs, in order: the differential tests with CASES models, the ignored
# tests (the full data sets), wide-value models against an exact brute force,
# the outside oracle (MiniZinc with Gecode, where installed: CASES / 100
# models), the operator-chain timings, and fuzzing. Every step runs even when an
# earlier one fails; the exit status is non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
cases="${1:-50000}"
fuzz_seconds="${2:-600}"
seed="${CSPI_DIFF_SEED:-$(date +%Y%m%d)}"
failed=()

step() {
  echo "== $1"
  shift
  "$@" || failed+=("$*")
}

step "differential: $cases models, CSPI_DIFF_SEED=$seed" \
  env CSPI_DIFF_CASES="$cases" CSPI_DIFF_SEED="$seed" \
  cargo test --release --test it -- differential:: long_sums::
step "ignored tests (full data sets)" cargo test --release -- --ignored
step "exact integers: $cases wide models" \
  env CSPI_DIFF_CASES="$cases" cargo test --release --test it exact_integers::
step "outside oracle: MiniZinc/Gecode" scripts/oracle.py "$((cases / 100))" "$seed"
step "operator chains load in linear time" scripts/chains.sh 8000
if [ "$fuzz_seconds" -gt 0 ]; then
  step "fuzzing, $fuzz_seconds s per target" scripts/fuzz.sh "$fuzz_seconds"
fi

if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "all passed"
