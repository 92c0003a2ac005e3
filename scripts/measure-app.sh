#!/usr/bin/env bash
# The app's numbers for docs/performance.md: the release binary's size, and — from three launches
# of the release build under Xvfb — cold start to the interactive battles screen, input change →
# odds redrawn, idle memory (the sum of PSS over the app's process tree) and the roster's tap
# count. Plus a short criterion run.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -p referee-core --bench itacs -- --warm-up-time 1 --measurement-time 3 2>/dev/null | grep -E '^itacs/|time:'
REFEREE_PROFILE=release bash scripts/e2e.sh >/dev/null 2>&1 || true
ls -l target/release/referee-app | awk '{ printf "release binary: %.1f MB (%d bytes)\n", $5 / 1048576, $5 }'
for _ in 1 2 3; do
  REFEREE_PROFILE=release bash scripts/e2e.sh 2>/dev/null | grep -E -o '(cold start|input change|idle memory|roster:).*|^# (pass|fail) [0-9]+'
done
