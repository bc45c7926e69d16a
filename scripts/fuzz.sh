#!/usr/bin/env bash
# Runs each fuzz target for the given number of seconds (default 60).
# Needs cargo-fuzz (`cargo install cargo-fuzz`). Crashes land in
# fuzz/artifacts/<target>/; turn each into a regression test in tests/.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${1:-60}"
for target in parse pipeline; do
  mkdir -p "corpus/$target"
  cp -n ../models/*.csp "corpus/$target/" 2>/dev/null || true
  # --sanitizer none: the stable toolchain has no sanitizers; coverage guidance still works.
  cargo fuzz run --sanitizer none "$target" "corpus/$target" -- -max_total_time="$seconds" -max_len=4096 -timeout=10
done
