#!/usr/bin/env bash
# How long `referee db backup` takes while another process writes, against the same database
# idle. The database holds one battle of N turn events (imported at once, default 20,000) and a
# small battle a writer advances turn after turn meanwhile (`battle script`). Prints each
# backup's time; the backup is one step of SQLite's backup API under the write lock, so a
# writer's commits can neither restart nor starve it.
#   bash bench/backup_under_writer.sh [events] [backups]
# REFEREE_BIN times another build of the CLI (an older one, say) instead of building this one.
set -euo pipefail
cd "$(dirname "$0")/.."
events="${1:-20000}"
backups="${2:-10}"
if [ -z "${REFEREE_BIN:-}" ]; then
  cargo build --release -q -p referee-cli
fi
target="${REFEREE_BIN:-${CARGO_TARGET_DIR:-target}/release/referee}"
work="$(mktemp -d)"
trap 'kill "${writer:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
export REFEREE_DB="$work/referee.db"
echo '{"name": "Seed", "ruleset": "itacs", "sides": [{"name": "A"}, {"name": "B"}]}' | "$target" battle new >/dev/null
"$target" battle export 1 --out "$work/seed.json" >/dev/null
python3 - "$work/seed.json" "$events" "$work/big.json" <<'PY'
import json, sys
seed, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
f = json.load(open(seed))
created = f["events"][0]
events = [{"seq": 1, "at": created["at"], "body": created["body"]}]
for i in range(2, n + 1):
    events.append({"seq": i, "at": created["at"], "body": {"kind": "turn_advanced", "turn": 2 + (i % 9000)}})
json.dump({"format": "referee-battle", "version": 1, "ruleset": f["ruleset"], "fingerprint": f["fingerprint"], "events": events}, open(out, "w"))
PY
"$target" battle import "$work/big.json" >/dev/null
python3 -c 'import json; print(json.dumps({"steps": [{"op": "turn", "turn": 2 + i % 9000} for i in range(100000)]}))' > "$work/writer.json"
echo "database: $(du -h "$REFEREE_DB" | cut -f1), $events events in one battle"
time_backups() {
  for _ in $(seq "$backups"); do
    start=$(date +%s.%N)
    "$target" db backup >/dev/null
    end=$(date +%s.%N)
    python3 -c "print(f'{$end - $start:.3f}')"
  done | sort -n | tr '\n' ' '
  echo
}
echo -n "idle backups (s):         "; time_backups
"$target" battle script "$work/writer.json" --battle 1 >/dev/null 2>&1 &
writer=$!
sleep 1
echo -n "under a writer (s):       "; time_backups
kill "$writer" 2>/dev/null || true
