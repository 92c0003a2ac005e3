#!/usr/bin/env bash
# The end-to-end test: the real built app in Xvfb, driven by tauri-driver + WebKitWebDriver.
set -euo pipefail
cd "$(dirname "$0")/.."
# REFEREE_PROFILE=release tests (and times) the release build instead.
profile="${REFEREE_PROFILE:-debug}"
npm run --silent build:ui
if [ "$profile" = release ]; then
  cargo build --release -p referee-app -p referee-cli
else
  cargo build -p referee-app -p referee-cli
fi
target="${CARGO_TARGET_DIR:-$PWD/target}"
export REFEREE_APP="$target/$profile/referee-app" REFEREE_CLI="$target/$profile/referee"
export PATH="$HOME/.cargo/bin:$PATH"
# A fresh data, config and cache home: no earlier run's files leak in.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache"
xvfb-run -a --server-args="-screen 0 1280x900x24" bash scripts/e2e-display.sh
