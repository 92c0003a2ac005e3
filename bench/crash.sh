#!/usr/bin/env bash
# Crash safety as a report: a scripted battle killed with SIGKILL at random points, N times
# (default 200); prints kills, events reported committed, events recovered and compared in full
# with an uninterrupted run's, and integrity checks. Then two processes writing one database at
# once (same battle, a battle each): writes, refusals, time.
#   bash bench/crash.sh [kills] [seed]
set -euo pipefail
cd "$(dirname "$0")/.."
CRASH_KILLS="${1:-200}" CRASH_SEED="${2:-$RANDOM}" \
  cargo test --release -q -p referee-cli --test crash -- --nocapture 2>&1 | grep -E '^crash:|test result|panicked'
TWO_WRITER_STEPS="${TWO_WRITER_STEPS:-500}" \
  cargo test --release -q -p referee-cli --test two_writers -- --nocapture 2>&1 | grep -E '^two writers:|test result|panicked'
