#!/usr/bin/env bash
# Every test: formatting, lints, Rust tests (unit, property, golden, CLI, bindings), UI unit
# tests and type check, and the end-to-end test of the real app under Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
# No incremental caches unless asked for: on a clean machine they only add gigabytes to target/.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
echo "== cargo fmt"
cargo fmt --all -- --check
echo "== ui build (the app embeds ui/dist)"
npm run --silent build:ui
echo "== clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== rust tests"
cargo test --workspace --exclude referee-app
echo "== ui type check and unit tests"
npm run --silent typecheck
npx vitest run
echo "== end to end"
bash scripts/e2e.sh
