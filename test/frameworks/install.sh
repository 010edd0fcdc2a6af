#!/usr/bin/env bash
# Installs the real framework apps under test/frameworks/apps with this package as a user gets it: built and packed
# once into test/frameworks/.pack/site-search.tgz (npm pack), which every app depends on ("file:../../.pack/…").
# Repeat runs are fast: npm's cache (~/.npm) serves the apps' other packages; an app whose node_modules is newer than
# its package.json and holds the current tarball is skipped, and a new tarball replaces only its site-search.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
LOGS="$HERE/.logs" && mkdir -p "$LOGS"
PACK="$HERE/.pack" && mkdir -p "$PACK"

echo "[site-search] building and packing the package for the framework test apps (npm pack)…" >&2
(cd "$ROOT" && npx tsup --silent)
rm -f "$PACK"/site-search-*.tgz
(cd "$ROOT" && npm pack --silent --pack-destination "$PACK" >/dev/null)
mv "$PACK"/site-search-*.tgz "$PACK/site-search.tgz"
SHA="$(sha256sum "$PACK/site-search.tgz" | cut -d' ' -f1)"

install_app() {
  local app=$1 stamp="$1/node_modules/.site-search-unpacked"
  if [ ! -f "$app/node_modules/.package-lock.json" ] || [ "$app/package.json" -nt "$app/node_modules/.package-lock.json" ]; then
    echo "[site-search] installing test/frameworks/apps/$app…" >&2
    (cd "$app" && npm install --no-audit --no-fund --prefer-offline --loglevel=error >"$LOGS/$app.log" 2>&1) ||
      { echo "[site-search] npm install failed in test/frameworks/apps/$app:" >&2; tail -20 "$LOGS/$app.log" >&2; return 1; }
  fi
  [ "$(cat "$stamp" 2>/dev/null)" = "$SHA" ] && return 0
  # npm keeps serving a file: tarball it has seen from its cache (keyed by the app's lockfile integrity), so the
  # current tarball is unpacked over node_modules/site-search, as npm would. When the package's own dependencies
  # change, delete the app's node_modules and package-lock.json once.
  rm -rf "$app/node_modules/site-search" && mkdir -p "$app/node_modules/site-search"
  tar xzf "$PACK/site-search.tgz" --strip-components=1 -C "$app/node_modules/site-search"
  echo "$SHA" >"$stamp"
}
cd "$HERE/apps"
# `install.sh sveltekit2 next16` installs only those apps.
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=(*/)
pids=()
for app in "${apps[@]}"; do
  install_app "${app%/}" &
  pids+=($!)
  # Two at a time: the machine has two cores.
  if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for pid in "${pids[@]}"; do wait "$pid"; done
