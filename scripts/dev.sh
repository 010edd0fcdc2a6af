#!/usr/bin/env bash
# Sets up everything (Node 24 if needed, dependencies, build) and runs `site-search dev` over this repository's own
# docs/: the embedded default (node:sqlite), a search page at http://127.0.0.1:4545/ (the CLI's default port; pass
# --port N to change it) and the endpoint at /api/search. It never rewrites package-lock.json (env.sh installs with npm ci).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
echo "[site-search] building the package (tsup)…" >&2
npm run build --silent
echo "[site-search] indexing docs/ and starting the dev server…" >&2
exec node dist/cli.js dev ./docs "$@"
