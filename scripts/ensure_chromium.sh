#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed at /usr/bin/chromium for the browser tests
# (tests/ui/test_browser_ui.py drive it through the playwright package; no browser is downloaded).
#
#   bash scripts/ensure_chromium.sh && .venv/bin/pytest tests/ui/test_browser_ui.py
set -euo pipefail
exec bash "$(dirname "$0")/ensure_apt.sh" chromium chromium /usr/bin/chromium
