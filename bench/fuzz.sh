#!/usr/bin/env bash
# Fuzz the core and battle import: every docs/api.md example situation, every built-in ruleset
# file and exported battle files of each system, mutated at random (seeded), about a million
# executions per target by default. No panic, exact sums, typed errors; every accepted battle file
# is stored, reopened equal and written to once more.
#   bash bench/fuzz.sh [seed]
set -euo pipefail
cd "$(dirname "$0")/.."
seed="${1:-$RANDOM}"
examples=$(grep -c '^```json example=' docs/api.md)
rulesets=$(ls rulesets/*.toml | wc -l)
per_example=$(( (1000000 + examples - 1) / examples ))
per_ruleset=$(( (1000000 + rulesets - 1) / rulesets ))
echo "seed $seed: $per_example runs for each of $examples examples, $per_ruleset for each of $rulesets rulesets"
FUZZ_SEED="$seed" FUZZ_ITERATIONS="$per_example" FUZZ_RULESET_ITERATIONS="${FUZZ_RULESET_ITERATIONS:-$per_ruleset}" \
  cargo test --release -q -p referee-core --test fuzz -- --nocapture --test-threads 2
echo "battle import: ${FUZZ_IMPORT_ITERATIONS:-1000000} mutated battle files (every accepted one stored, reopened and given one more turn)"
FUZZ_SEED="$seed" FUZZ_IMPORT_ITERATIONS="${FUZZ_IMPORT_ITERATIONS:-1000000}" \
  cargo test --release -q -p referee-api --test fuzz_import -- --nocapture
