#!/usr/bin/env bash
# One command on a fresh machine: install what is missing, build, and open the referee.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
npm run --silent build:ui
# The same package set as scripts/e2e.sh, so both reuse one build of tauri.
cargo build -p referee-app -p referee-cli
exec "${CARGO_TARGET_DIR:-target}/debug/referee-app"
