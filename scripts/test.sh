#!/usr/bin/env bash
# `npm test`: setup, then every test layer from cheapest to dearest; stops at the first failure.
#   typecheck → lint → format check → unit/property/conformance/CLI tests → build → end-to-end in code-server.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() {
  local name="$1"; shift
  local start=$SECONDS
  echo "=== $name"
  if ! "$@"; then
    echo "=== $name FAILED after $((SECONDS - start)) s" >&2
    exit 1
  fi
  echo "=== $name done in $((SECONDS - start)) s"
}

step setup bash scripts/setup.sh
step typecheck npm run --silent typecheck
step lint npm run --silent lint
step "format check" npm run --silent format:check
step "unit tests" npm run --silent test:unit
step build npm run --silent build
step "e2e tests" npm run --silent test:e2e
