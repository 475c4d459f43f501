#!/usr/bin/env bash
# Makes sure a PostgreSQL server runs on 127.0.0.1 with a role and a database for the tests, then
# prints the database URL on stdout (everything else goes to stderr). Idempotent; when the server
# already answers with these credentials it only prints the URL.
#
#   export LIVERPOOL_TEST_PG="$(bash scripts/ensure_postgres.sh)"
#
# Installs PostgreSQL with apt-get when it is missing and starts a cluster when none runs: both need
# root (or the postgres user for starting). Settings: LIVERPOOL_PG_USER, LIVERPOOL_PG_PASSWORD,
# LIVERPOOL_PG_DB, LIVERPOOL_PG_PORT.
set -euo pipefail

ROLE="${LIVERPOOL_PG_USER:-liverpool}"
PASSWORD="${LIVERPOOL_PG_PASSWORD:-liverpool}"
DATABASE="${LIVERPOOL_PG_DB:-liverpool_test}"
PORT="${LIVERPOOL_PG_PORT:-5432}"
HOST=127.0.0.1
URL="postgresql://${ROLE}:${PASSWORD}@${HOST}:${PORT}/${DATABASE}"

log() { echo "ensure_postgres: $*" >&2; }

answers() {
    command -v psql >/dev/null 2>&1 &&
        PGPASSWORD="$PASSWORD" PGCONNECT_TIMEOUT=3 psql -h "$HOST" -p "$PORT" -U "$ROLE" -d "$DATABASE" -Atqc 'select 1' >/dev/null 2>&1
}

as_postgres() {
    if [ "$(id -un)" = postgres ]; then
        "$@"
    else
        su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
    fi
}

bindir() {
    local dir
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    if [ -n "$dir" ] && [ -x "$dir/postgres" ]; then
        echo "$dir"
    elif command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(readlink -f "$(command -v pg_ctl)")"
    fi
}

if answers; then
    echo "$URL"
    exit 0
fi

if [ -z "$(bindir)" ]; then
    log "installing PostgreSQL with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
fi
BIN="$(bindir)"
if [ -z "$BIN" ]; then
    log "PostgreSQL is not installed and could not be installed"
    exit 1
fi
VERSION="$("$BIN/postgres" --version | sed -E 's/[^0-9]*([0-9]+).*/\1/')"

ready() { "$BIN/pg_isready" -q -h "$HOST" -p "$PORT"; }

if ! ready; then
    if command -v pg_ctlcluster >/dev/null 2>&1; then
        if ! pg_lsclusters -h 2>/dev/null | awk -v v="$VERSION" -v p="$PORT" '$1 == v && $3 == p' | grep -q .; then
            log "creating cluster $VERSION/main on port $PORT"
            pg_createcluster "$VERSION" main --port "$PORT" >&2
        fi
        CLUSTER="$(pg_lsclusters -h | awk -v v="$VERSION" -v p="$PORT" '$1 == v && $3 == p {print $2; exit}')"
        log "starting cluster $VERSION/$CLUSTER"
        pg_ctlcluster "$VERSION" "$CLUSTER" start >&2 || true
    else
        DATA=/var/lib/postgresql/liverpool-data
        if [ ! -s "$DATA/PG_VERSION" ]; then
            log "initdb in $DATA"
            mkdir -p "$DATA" && chown postgres: "$DATA"
            as_postgres "$BIN/initdb" -D "$DATA" -A scram-sha-256 --auth-local=peer -U postgres >&2
        fi
        mkdir -p /var/run/postgresql && chown postgres: /var/run/postgresql
        log "starting the server in $DATA"
        as_postgres "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -o "-p $PORT -c listen_addresses=$HOST" -w start >&2
    fi
    for _ in $(seq 1 60); do
        ready && break
        sleep 0.5
    done
    if ! ready; then
        log "the server did not come up on $HOST:$PORT"
        exit 1
    fi
fi

psql_admin() { as_postgres "$BIN/psql" -p "$PORT" -v ON_ERROR_STOP=1 -Atq "$@"; }

if [ "$(psql_admin -c "select 1 from pg_roles where rolname = '$ROLE'")" != 1 ]; then
    log "creating role $ROLE"
    psql_admin -c "create role \"$ROLE\" login password '$PASSWORD'"
else
    psql_admin -c "alter role \"$ROLE\" login password '$PASSWORD'"
fi
if [ "$(psql_admin -c "select 1 from pg_database where datname = '$DATABASE'")" != 1 ]; then
    log "creating database $DATABASE"
    psql_admin -c "create database \"$DATABASE\" owner \"$ROLE\""
fi

if ! answers; then
    log "$URL does not answer (check pg_hba.conf allows password logins from $HOST)"
    exit 1
fi
echo "$URL"
