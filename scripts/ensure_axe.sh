#!/usr/bin/env bash
# axe-core (the accessibility checker the browser tests inject into pages) from the npm registry, into
# tests/ui/node_modules; npm itself comes from Debian (apt-get) when it is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
target="$here/tests/ui"
if [ -f "$target/node_modules/axe-core/axe.min.js" ]; then
  exit 0
fi
if ! command -v npm >/dev/null; then
  if command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq npm >/dev/null
  fi
  if ! command -v npm >/dev/null; then
    echo "npm is missing and could not be installed: the accessibility test cannot run" >&2
    exit 1
  fi
fi
npm install --prefix "$target" --no-save --no-audit --no-fund --silent axe-core@4
