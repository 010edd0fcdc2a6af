#!/usr/bin/env bash
# Sets up everything (Node 24 if needed, dependencies, build) and runs `site-search dev` over this repository's own
# docs/: the embedded default (node:sqlite), a search page at http://127.0.0.1:4321/ and the endpoint at /api/search.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
npm run build --silent
exec node dist/cli.js dev ./docs "$@"
