#!/usr/bin/env bash
# Makes sure a program the tests need is installed, installing its Debian package with apt-get when it is
# missing. Idempotent: does nothing when the program is already there. Installing needs root (or sudo).
# The package's service, if it has one, is not started (policy-rc.d says no for the time of the install):
# the tests start their own processes on free ports with their own configuration.
#
#   bash scripts/ensure_apt.sh PROGRAM PACKAGE [PATH]
#
# PROGRAM is looked up on PATH, or PATH (an absolute file name) is checked for. Called by
# scripts/ensure_chromium.sh, ensure_nginx.sh and ensure_caddy.sh, which `make test` runs.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: ensure_apt.sh PROGRAM PACKAGE [PATH]" >&2
    exit 2
fi
PROGRAM=$1
PACKAGE=$2
WHERE=${3:-}

present() {
    if [ -n "$WHERE" ]; then
        [ -x "$WHERE" ]
    else
        command -v "$PROGRAM" >/dev/null 2>&1
    fi
}

if present; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_apt: $PROGRAM is missing and there is no apt-get to install $PACKAGE" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
POLICY=/usr/sbin/policy-rc.d
if [ ! -e "$POLICY" ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null
    $SUDO chmod 755 "$POLICY"
    trap '$SUDO rm -f "$POLICY"' EXIT
fi
echo "ensure_apt: installing $PACKAGE with apt-get for $PROGRAM (its service, if any, is not started)" >&2
$SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq "$PACKAGE" >&2
if ! present; then
    echo "ensure_apt: $PACKAGE was installed but $PROGRAM is still missing" >&2
    exit 1
fi
