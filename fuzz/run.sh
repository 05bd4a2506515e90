#!/usr/bin/env bash
# Runs each cargo-fuzz target for FUZZ_SECONDS (default 60). Needs a nightly
# toolchain and cargo-fuzz (`cargo install cargo-fuzz`); without them it says
# so and exits 0: the stable property tests (tests/it/fuzz/) run in CI anyway.
# A crash is kept under fuzz/artifacts/TARGET/: turn it into a regression
# test (a case in the matching tests/it/fuzz/*.rs or unit test) before fixing it.
set -euo pipefail
cd "$(dirname "$0")"
if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "SKIP: no nightly toolchain (rustup toolchain install nightly); cargo fuzz needs one"
    exit 0
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "SKIP: cargo-fuzz is not installed (cargo install cargo-fuzz)"
    exit 0
fi
seconds="${FUZZ_SECONDS:-60}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
for t in "${targets[@]}"; do
    echo "== $t (${seconds}s)"
    cargo +nightly fuzz run "$t" -- -max_total_time="$seconds" -rss_limit_mb=2048
done
