#!/usr/bin/env bash
# Makes sure Caddy is installed for the test that puts two `liverpool serve` processes behind it
# (tests/server/test_server_cluster.py, issue 26 item 14). The test starts its own `caddy run` on a free
# port with the Caddyfile from docs/deploy.md; nothing here starts or enables the system's caddy service.
#
#   bash scripts/ensure_caddy.sh && .venv/bin/pytest -k caddy tests/server/test_server_cluster.py
set -euo pipefail
exec bash "$(dirname "$0")/ensure_apt.sh" caddy caddy
