#!/usr/bin/env bash
# Inside xvfb-run: tauri-driver on :4444, then the node tests, then the driver is stopped.
set -euo pipefail
tauri-driver --port 4444 >/tmp/referee-tauri-driver.log 2>&1 &
driver=$!
trap 'kill $driver 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  (exec 3<>/dev/tcp/127.0.0.1/4444) 2>/dev/null && break
  sleep 0.1
done
# REFEREE_E2E_TESTS names test files to run alone (the whole folder by default).
node --test --test-concurrency=1 ${REFEREE_E2E_TESTS:-tests/e2e/}
