#!/usr/bin/env bash
# Runs each fuzz target for the given number of seconds (default 60),
# starting from the bundled models (FlatZinc: fuzz/seeds/fzn/), the fuzz
# regressions and any corpus kept in fuzz/corpus/<target>/ from earlier runs.
# Targets: parse (the .csp parser), pipeline (.csp text to checked
# solutions), fzn (FlatZinc text to checked solutions), crossword (grid and
# word-list files through the bundled crossword models to checked fills;
# seeds in fuzz/seeds/crossword/), data (a model with a JSON, .dzn or text
# data file to checked solutions; seeds in fuzz/seeds/data/). CI runs each
# for a minute.
#
# Uses cargo-fuzz when installed; otherwise builds the targets with plain
# cargo and the same coverage flags (stable toolchain, no sanitizers), so
# only the Rust toolchain and a C++ compiler (for libFuzzer) are needed.
# A crash, a hang (over 10 s for one input) or a rejected solution stops the
# run with a non-zero exit; the input lands in fuzz/artifacts/<target>/.
# Fix the bug, then copy the input to tests/fuzz-regressions/.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${1:-60}"
# CSPI_FUZZ_TARGETS="pipeline" runs a subset.
read -r -a targets <<<"${CSPI_FUZZ_TARGETS:-parse pipeline fzn crossword data}"
flags=(-max_total_time="$seconds" -max_len=4096 -timeout=10 -print_final_stats=1)

for target in "${targets[@]}"; do
  mkdir -p "corpus/$target" "artifacts/$target"
  if [ "$target" = fzn ]; then
    cp -n seeds/fzn/*.fzn ../tests/fuzz-regressions/*.fzn "corpus/$target/" 2>/dev/null || true
  elif [ "$target" = crossword ] || [ "$target" = data ]; then
    cp -n "seeds/$target"/* "corpus/$target/" 2>/dev/null || true
  else
    cp -n ../models/*.csp ../tests/fuzz-regressions/*.csp "corpus/$target/" 2>/dev/null || true
  fi
done

if command -v cargo-fuzz >/dev/null 2>&1; then
  for target in "${targets[@]}"; do
    cargo fuzz run --sanitizer none "$target" "corpus/$target" -- "${flags[@]}"
  done
  exit 0
fi

# The flags cargo-fuzz passes for `--sanitizer none` (coverage guidance,
# debug assertions so that integer overflow panics).
host="$(rustc -vV | sed -n 's/^host: //p')"
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing \
-Cllvm-args=-simplifycfg-branch-fold-threshold=0 -Cdebug-assertions -Ccodegen-units=1"
# --target keeps the flags off build scripts and procedural macros.
cargo build --release --target "$host" --bins
for target in "${targets[@]}"; do
  "${CARGO_TARGET_DIR:-target}/$host/release/$target" -artifact_prefix="artifacts/$target/" "corpus/$target" "${flags[@]}"
done
