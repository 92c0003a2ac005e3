#!/usr/bin/env bash
# Installs whatever this machine lacks to build, run and test the referee; skips what is there.
# Where it cannot install (no root, no sudo), it prints the exact command to run and stops.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(libwebkit2gtk-4.1-dev build-essential file libxdo-dev libssl-dev
  libayatana-appindicator3-dev librsvg2-dev xvfb xauth webkit2gtk-driver xdotool)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${missing[*]}"
  if [ "$(id -u)" = 0 ]; then
    echo "installing system packages: ${missing[*]}"
    bash -c "$cmd" >/tmp/referee-apt.log 2>&1 || { tail -20 /tmp/referee-apt.log; exit 1; }
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo bash -c "$cmd"
  else
    echo "Missing system packages. Run this as root, then try again:" >&2
    echo "  sudo bash -c '$cmd'" >&2
    exit 1
  fi
fi

for tool in cargo node npm; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: install Rust (rustup) and Node.js 20+ first" >&2; exit 1; }
done
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  echo "rustfmt and clippy are needed: rustup component add rustfmt clippy" >&2
  exit 1
fi
if ! command -v tauri-driver >/dev/null && [ ! -x "$HOME/.cargo/bin/tauri-driver" ]; then
  echo "installing tauri-driver"
  cargo install tauri-driver --locked --quiet
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
fi
