#!/usr/bin/env bash
# axe-core (the accessibility checker the browser tests inject into pages) from the npm registry, into
# tests/ui/node_modules; without npm the accessibility test is skipped and says why.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
target="$here/tests/ui"
if [ -f "$target/node_modules/axe-core/axe.min.js" ]; then
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "npm is missing: the accessibility test (tests/ui/test_accessibility.py) will be skipped" >&2
  exit 0
fi
npm install --prefix "$target" --no-save --no-audit --no-fund --silent axe-core@4
