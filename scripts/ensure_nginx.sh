#!/usr/bin/env bash
# Makes sure nginx is installed for the test that puts two `liverpool serve` processes behind it
# (tests/server/test_server_cluster.py, issue 26 item 14). The test starts its own nginx on a free port
# with its own config file; nothing here starts or enables the system's nginx service.
#
#   bash scripts/ensure_nginx.sh && .venv/bin/pytest -k nginx tests/server/test_server_cluster.py
set -euo pipefail
if [ -x /usr/sbin/nginx ]; then
    exit 0
fi
exec bash "$(dirname "$0")/ensure_apt.sh" nginx nginx-light
