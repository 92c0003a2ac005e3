#!/usr/bin/env bash
# Fuzz the core: every docs/api.md example situation and every built-in ruleset file, mutated at
# random (seeded), about a million executions per target by default. No panic, exact sums.
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
