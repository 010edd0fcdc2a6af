#!/usr/bin/env bash
# Installs the real framework apps under test/frameworks/apps (each links this package with file:../../../..).
# npm's cache (~/.npm) makes repeat runs fast; an app whose node_modules is newer than its package.json is skipped.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/apps"
LOGS="$(pwd)/../.logs" && mkdir -p "$LOGS"
install_app() {
  local app=$1
  if [ -f "$app/node_modules/.package-lock.json" ] && [ "$app/node_modules/.package-lock.json" -nt "$app/package.json" ]; then
    return 0
  fi
  (cd "$app" && npm install --no-audit --no-fund --prefer-offline --loglevel=error >"$LOGS/$app.log" 2>&1) ||
    { echo "[site-search] npm install failed in test/frameworks/apps/$app:" >&2; tail -20 "$LOGS/$app.log" >&2; return 1; }
}
pids=()
for app in */; do
  install_app "${app%/}" &
  pids+=($!)
  # Two at a time: the machine has two cores.
  if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for pid in "${pids[@]}"; do wait "$pid"; done
