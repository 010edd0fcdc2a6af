#!/usr/bin/env bash
# Sets up everything (Node 24 if needed, dependencies) and runs all tests: typecheck, build, vitest.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
npm test
