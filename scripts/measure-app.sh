#!/usr/bin/env bash
# The numbers of docs/performance.md: criterion for every action, the release binary's size, and
# its cold start to the first resolution on screen under Xvfb (three launches).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -p referee-core --bench itacs -- --warm-up-time 1 --measurement-time 3 2>/dev/null | grep -E '^itacs/|time:'
REFEREE_PROFILE=release bash scripts/e2e.sh >/dev/null 2>&1 || true
ls -l target/release/referee-app | awk '{ printf "release binary: %.1f MB (%d bytes)\n", $5 / 1048576, $5 }'
for _ in 1 2 3; do
  REFEREE_PROFILE=release bash scripts/e2e.sh 2>/dev/null | grep -o 'cold start.*'
done
