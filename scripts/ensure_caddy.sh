#!/usr/bin/env bash
# Makes sure Caddy is installed for the test that puts two `liverpool serve` processes behind it
# (tests/server/test_server_cluster.py, issue 26 item 14). The test starts its own `caddy run` on a free
# port with the Caddyfile from docs/deploy.md; nothing here starts or enables the system's caddy service.
# Idempotent: does nothing when caddy is already there. Installing needs root (or sudo) and apt-get.
#
#   bash scripts/ensure_caddy.sh && .venv/bin/pytest -k caddy tests/server/test_server_cluster.py
set -euo pipefail

if command -v caddy >/dev/null 2>&1 || [ -x /usr/bin/caddy ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_caddy: caddy is missing and there is no apt-get to install it" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
# Debian's package starts the caddy service on port 80 when it is installed, unless policy-rc.d says
# no: say no for the time of the install (only if no policy is there already), and take it away after.
POLICY=/usr/sbin/policy-rc.d
if [ ! -e "$POLICY" ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null
    $SUDO chmod 755 "$POLICY"
    trap '$SUDO rm -f "$POLICY"' EXIT
fi
echo "ensure_caddy: installing caddy with apt-get (its service is not started)" >&2
$SUDO apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq caddy >&2
command -v caddy >/dev/null 2>&1 || [ -x /usr/bin/caddy ]
