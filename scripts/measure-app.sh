#!/usr/bin/env bash
# The app's numbers for docs/performance.md: the release binary's size, and — from three launches
# of the release build under Xvfb with JavaScriptCore's JIT on (the app's default) and three with
# it off — cold start to the interactive battles screen, input change → odds painted (the ITACS
# quick melee and the heaviest form, DBMM close combat) and idle memory (the sum of PSS over the
# app's process tree); then the roster's tap count from one run of the battles test. Plus a short
# criterion run. The machine's load is printed before each run: state it beside the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -p referee-core --bench itacs -- --warm-up-time 1 --measurement-time 3 2>/dev/null | grep -E '^itacs/|time:'
REFEREE_PROFILE=release REFEREE_E2E_TESTS=tests/e2e/battles.test.mjs bash scripts/e2e.sh 2>/dev/null | grep -E -o 'roster:.*|^# (pass|fail) [0-9]+'
ls -l target/release/referee-app | awk '{ printf "release binary: %.1f MB (%d bytes)\n", $5 / 1048576, $5 }'
for jit in 1 0; do
  for _ in 1 2 3; do
    echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
    JSC_useJIT=$jit REFEREE_PROFILE=release REFEREE_E2E_TESTS=tests/e2e/speed.test.mjs bash scripts/e2e.sh 2>/dev/null \
      | grep -E -o '(cold start|input change|idle memory).*|^# (pass|fail) [0-9]+'
  done
done
