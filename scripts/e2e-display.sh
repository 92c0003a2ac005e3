#!/usr/bin/env bash
# Inside xvfb-run: tauri-driver on $REFEREE_DRIVER_PORT (4444 by default) with WebKitWebDriver on
# the port after it, then the node tests, then the driver is stopped. Another port lets a second
# run share the machine.
set -euo pipefail
port="${REFEREE_DRIVER_PORT:-4444}"
export REFEREE_DRIVER_PORT="$port"
log="/tmp/referee-tauri-driver-$port.log"
tauri-driver --port "$port" --native-port $((port + 1)) >"$log" 2>&1 &
driver=$!
trap 'kill $driver 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break
  sleep 0.1
done
# REFEREE_E2E_TESTS names test files to run alone (the whole folder by default).
node --test --test-concurrency=1 ${REFEREE_E2E_TESTS:-tests/e2e/}
