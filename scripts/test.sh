#!/usr/bin/env bash
# Sets up everything (Node 24 if needed, dependencies) and runs all tests: typecheck, build, vitest.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
# The real framework apps the adapter tests build and serve (Astro 5/7, Next 16, SvelteKit 2/3).
bash test/frameworks/install.sh
results="$ROOT/.tools/test-results.json"
rm -f "$results" "$results.unhandled.json"
status=0
npm test -- --reporter=default --reporter=json --reporter=./scripts/unhandled-errors-reporter.mjs --outputFile.json="$results" || status=$?
# A plain closing line that any CI can read, "Tests: N passed, N failed", counting suites that failed outside a test;
# it exits non-zero whenever anything failed.
node scripts/test-summary.mjs "$results" "$status"
