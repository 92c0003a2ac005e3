#!/usr/bin/env bash
# One command on a fresh machine: install what is missing, build, and open the referee.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
npm run --silent build:ui
cargo build -p referee-app
exec ./target/debug/referee-app
