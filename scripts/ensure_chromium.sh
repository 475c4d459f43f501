#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed at /usr/bin/chromium for the browser tests
# (tests/ui/test_browser_ui.py drive it through the playwright package; no browser is downloaded).
# Idempotent: does nothing when the binary is already there. Installing needs root and apt-get.
#
#   bash scripts/ensure_chromium.sh && .venv/bin/pytest tests/ui/test_browser_ui.py
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_chromium: $CHROMIUM is missing and there is no apt-get to install it" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
echo "ensure_chromium: installing chromium with apt-get" >&2
$SUDO apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >&2
test -x "$CHROMIUM"
