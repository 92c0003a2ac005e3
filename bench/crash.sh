#!/usr/bin/env bash
# Crash safety as a report: a scripted battle killed with SIGKILL at random points, N times
# (default 200); then backups, daily backups, restores and imports killed M times (default 200):
# kills, events compared in full, leftovers cleared on start (none may remain), integrity. Then
# two processes writing one database at once (same battle, a battle each): writes, refusals,
# time; and a backup and a restore against 1, 2 and 4 writers: writes lost (none), backup times.
#   bash bench/crash.sh [kills] [seed] [operation kills]
set -euo pipefail
cd "$(dirname "$0")/.."
CRASH_KILLS="${1:-200}" CRASH_SEED="${2:-$RANDOM}" CRASH_OPERATION_KILLS="${3:-200}" \
  cargo test --release -q -p referee-cli --test crash -- --nocapture --test-threads=1 2>&1 | grep -oE '(crash|crash operations): .*|test result.*|panicked.*'
TWO_WRITER_STEPS="${TWO_WRITER_STEPS:-500}" \
  cargo test --release -q -p referee-cli --test two_writers -- --nocapture 2>&1 | grep -oE 'two writers: .*|test result.*|panicked.*'
RACE_WRITES="${RACE_WRITES:-300}" \
  cargo test --release -q -p referee-cli --test restore_race -- --nocapture 2>&1 | grep -oE 'race: .*|test result.*|panicked.*'
