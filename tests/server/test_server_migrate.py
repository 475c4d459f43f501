"""Two ``liverpool serve`` processes starting at the same moment on an old database (issue 26).

Each process brings the schema up to date at startup (``storage.migrate``). The database here is left at
the first migration, ``0001``, with tables, seats (their links stored in plain text, as before ``0002``)
and games in play, as an old server wrote them. Both processes must come up, the schema must reach head
once (``alembic_version`` holds one row), each seat's link must be hashed once, and the old games must
load and go on. Real processes, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import random
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from server_fixtures import (
    OLD_SEATS,
    OLD_TABLES,
    SERVE,
    ServerProcess,
    action_seqs,
    free_port,
    play_until,
    server_env,
    upgrade_to,
)
from sqlalchemy import text

from liverpool.engine import PRESETS, action_to_dict, apply, chance_action, is_chance, legal_actions, new_game
from liverpool.server import storage as storage_module
from liverpool.server.storage import make_engine, token_hash

OLD = "0001"
HEAD = ScriptDirectory(str(storage_module.MIGRATIONS)).get_current_head()
NAMES = ("Ada", "Bea", "Cy")
WAITING_TABLES = 3000  # old tables waiting for a third player: the migrations take about a second here
PLAYED_ACTIONS = 12
CLUSTER = {"LIVERPOOL_CLUSTER_LEASE_S": "3"}
KILLED_AFTER_S = (0.0, 0.15)  # when a migrating server is killed, after its first migration begins

ACTIONS = sa.table("actions", sa.column("table_id"), sa.column("seq"), sa.column("action", sa.JSON))


@dataclass(frozen=True)
class OldTable:
    id: str
    invite: str
    links: tuple[str | None, ...]  # each seat's plain token, as handed out before 0002
    actions: int


def at_revision(url: str, revision: str) -> None:
    engine = make_engine(url)
    try:
        upgrade_to(engine, revision)
    finally:
        engine.dispose()


def old_game(seed: int) -> list[dict[str, Any]]:
    """The first ``PLAYED_ACTIONS`` actions of a 3-seat game, random but legal (the deal included)."""
    rng = random.Random(seed)
    state = new_game(PRESETS["liverpool"], 3, 0)
    log = []
    while len(log) < PLAYED_ACTIONS:
        action = chance_action(state, rng) if is_chance(state) else rng.choice(legal_actions(state))
        apply(state, action)
        log.append(action_to_dict(action))
    return log


def old_database(url: str, waiting: int = WAITING_TABLES) -> list[OldTable]:
    """A database at ``0001`` holding two 3-seat games in play (three humans each) and ``waiting`` tables
    with two of three seats taken. Returns the games in play and then the waiting tables."""
    at_revision(url, OLD)
    tables: list[OldTable] = []
    rows: dict[str, list[dict[str, Any]]] = {"tables": [], "seats": [], "actions": []}
    # options as an old server stored them: no hints, talk or turn limit yet; nobody is replaced when away
    options = {"bot_pace_ms": 0, "away_timeout_s": 0, "buy_timeout_s": 20, "next_deal_timeout_s": 30}
    for number in range(2 + waiting):
        playing = number < 2
        table_id = f"old{number}"
        links = tuple(secrets.token_urlsafe(32) if playing or seat < 2 else None for seat in range(3))
        log = old_game(number) if playing else []
        table = OldTable(table_id, secrets.token_urlsafe(32), links, len(log))
        tables.append(table)
        rows["tables"].append(
            {
                "id": table_id,
                "ruleset": PRESETS["liverpool"].to_dict(),
                "seat_count": 3,
                "first_dealer": 0,
                "options": options,
                "invite_token": table.invite,
                "spectator_token": secrets.token_urlsafe(32),
                "status": "playing" if playing else "waiting",
                "created": datetime.now(UTC),
            }
        )
        for seat, link in enumerate(links):
            name = NAMES[seat] if link is not None else None
            rows["seats"].append({"table_id": table_id, "seat": seat, "name": name, "bot": None, "token": link})
        rows["actions"] += [{"table_id": table_id, "seq": seq, "action": a} for seq, a in enumerate(log)]
    engine = make_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(OLD_TABLES.insert(), rows["tables"])
            connection.execute(OLD_SEATS.insert(), rows["seats"])
            connection.execute(ACTIONS.insert(), rows["actions"])
    finally:
        engine.dispose()
    return tables


def stored(url: str, query: str) -> list[tuple[Any, ...]]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(query))]
    finally:
        engine.dispose()


def links_hashed_once(db: str, tables: list[OldTable]) -> None:
    """Every old seat's link is stored hashed exactly once (a second pass would hash the hash)."""
    links = {(t.id, seat): link for t in tables for seat, link in enumerate(t.links)}
    seats = stored(db, "SELECT table_id, seat, token FROM seats")
    assert len(seats) == len(links)
    assert {(t, s): h for t, s, h in seats} == {key: link and token_hash(link) for key, link in links.items()}


def play_on(server: ServerProcess, db: str, table: OldTable) -> None:
    """Each player of the old game ``table`` connects to ``server`` with the link they had before the
    migrations and finds the game where it was left (their seat, its stored seq); four more actions are
    played and stored in order after the old ones."""
    players = [server.player(link) for link in table.links if link is not None]
    try:
        for seat, player in enumerate(players):
            state = player.state_where(lambda s: s["observation"] is not None)
            assert (state["seat"], state["seq"]) == (seat, table.actions)
        play_until(players, table.actions + 4)
    finally:
        for player in players:
            player.close()
    assert action_seqs(db, table.id)[: table.actions + 4] == list(range(table.actions + 4))


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[..., list[ServerProcess]]]:
    """Starts ``liverpool serve`` processes on one database at the same moment; all are stopped at the end."""
    started: list[ServerProcess] = []

    def start_together(db: str, count: int = 2, env: dict[str, str] | None = None) -> list[ServerProcess]:
        pending = [ServerProcess(db, tmp_path, env=env, log_level="info") for _ in range(count)]
        started.extend(pending)
        ready = threading.Barrier(count)

        def start(server: ServerProcess) -> ServerProcess:
            ready.wait()
            return server.start()

        with ThreadPoolExecutor(count) as pool:
            return [f.result() for f in [pool.submit(start, s) for s in pending]]

    yield start_together
    for server in started:
        server.stop()


@pytest.mark.slow
def test_two_servers_starting_at_once_migrate_an_old_database_once(
    db_url: str, servers: Callable[..., list[ServerProcess]]
) -> None:
    tables = old_database(db_url)
    cluster = db_url.startswith("postgresql")  # two processes on one PostgreSQL run as deploy.md shows
    a, b = servers(db_url, env=CLUSTER if cluster else None)

    assert stored(db_url, "SELECT version_num FROM alembic_version") == [(HEAD,)]
    links_hashed_once(db_url, tables)

    # both serve, and each plays on one of the old games from where it was left
    for server, table in ((a, tables[0]), (b, tables[1])):
        assert server.get("/api/presets").status_code == 200
        invite = server.get(f"/api/invite/{tables[-1].invite}")
        assert invite.status_code == 200, invite.text
        play_on(server, db_url, table)
    for server in (a, b):
        assert "Traceback" not in server.logged(), server.logged()


def test_a_server_waits_for_a_migration_in_progress(db_url: str, tmp_path: Path) -> None:
    """While another process holds the migration lock, a starting server says it waits, and neither
    migrates nor serves; once the lock is let go, it finds the schema as the other left it and comes up."""
    tables = old_database(db_url, waiting=1)
    engine = make_engine(db_url)
    server = ServerProcess(db_url, tmp_path, env={"LIVERPOOL_MIGRATE_WAIT_S": "60"})
    try:
        with ThreadPoolExecutor(1) as pool:
            with engine.connect() as holder:
                storage_module.lock_for_migration(holder, wait_s=10)
                starting = pool.submit(server.start)
                deadline = time.monotonic() + 30
                while not (server.log.exists() and "waiting up to 60 s for it to finish" in server.logged()):
                    assert time.monotonic() < deadline and not starting.done(), server.logged()
                    time.sleep(0.1)
                time.sleep(1)
                assert not starting.done(), "the server came up while another process held the migration lock"
                assert stored(db_url, "SELECT version_num FROM alembic_version") == [(OLD,)]
                holder.rollback()
            starting.result()
        assert stored(db_url, "SELECT version_num FROM alembic_version") == [(HEAD,)]
        with server.player(tables[0].links[0] or "") as ada:
            assert ada.state_where(lambda s: s["observation"] is not None)["seq"] == tables[0].actions
    finally:
        server.stop()
        engine.dispose()


def test_a_server_that_waits_too_long_for_the_migration_lock_says_so(db_url: str, tmp_path: Path) -> None:
    old_database(db_url, waiting=1)
    engine = make_engine(db_url)
    try:
        with engine.connect() as holder:
            storage_module.lock_for_migration(holder, wait_s=10)
            port = free_port()
            done = subprocess.run(
                [sys.executable, "-c", SERVE, "serve", "--port", str(port), "--db", db_url],
                env=server_env({"LIVERPOOL_MIGRATE_WAIT_S": "1"}),
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=60,
            )
            holder.rollback()
    finally:
        engine.dispose()
    assert done.returncode != 0
    assert "waited 1 s for another process to finish migrating" in done.stderr + done.stdout, done.stderr
    with pytest.raises(httpx.TransportError):
        httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=1)
    assert stored(db_url, "SELECT version_num FROM alembic_version") == [(OLD,)]


def killed_while_migrating(db: str, tmp_path: Path, after_s: float) -> str:
    """Spawn a server and ``kill -9`` it ``after_s`` seconds after it logs that it runs its first migration
    (``0001`` to ``0002``, which rewrites every seat's link: 2 to 3 s for the 6,000 links here); its log."""
    server = ServerProcess(db, tmp_path, log_level="info").spawn()
    try:
        deadline = time.monotonic() + 60
        while f"Running upgrade {OLD} -> " not in (server.logged() if server.log.exists() else ""):
            assert server.process is not None and server.process.poll() is None, server.logged()
            assert time.monotonic() < deadline, f"the server did not start migrating:\n{server.logged()}"
            time.sleep(0.005)
        time.sleep(after_s)
        server.kill()
    finally:
        server.stop()
    return server.logged()


@pytest.mark.slow
def test_a_server_killed_while_migrating_leaves_the_schema_to_the_next(db_url: str, tmp_path: Path) -> None:
    """A ``liverpool serve`` killed with ``kill -9`` in the middle of its migrations (as the first begins,
    and 0.15 s into it) leaves the database as it was: the migrations run in one transaction under the lock,
    so nothing of them is kept and the lock ends with the process. The next server to start finds the schema where it was, brings it
    to head and serves; nothing stored before is lost (each old link is hashed exactly once and still
    works, the old games load from their stored logs and go on)."""
    tables = old_database(db_url)
    seats_before = stored(db_url, "SELECT table_id, seat, name, token FROM seats ORDER BY table_id, seat")
    actions_before = stored(db_url, "SELECT table_id, seq FROM actions ORDER BY table_id, seq")
    for after_s in KILLED_AFTER_S:
        log = killed_while_migrating(db_url, tmp_path, after_s)
        assert "Application startup complete" not in log, "killed after it had finished migrating"
        assert stored(db_url, "SELECT version_num FROM alembic_version") == [(OLD,)], "a migration was kept"
        assert stored(db_url, "SELECT table_id, seat, name, token FROM seats ORDER BY table_id, seat") == seats_before
    server = ServerProcess(db_url, tmp_path, env={"LIVERPOOL_MIGRATE_WAIT_S": "60"}, log_level="info").start()
    try:
        assert stored(db_url, "SELECT version_num FROM alembic_version") == [(HEAD,)]
        links_hashed_once(db_url, tables)
        assert stored(db_url, "SELECT table_id, seq FROM actions ORDER BY table_id, seq") == actions_before
        assert server.get(f"/api/invite/{tables[-1].invite}").status_code == 200
        play_on(server, db_url, tables[0])
        assert "Traceback" not in server.logged(), server.logged()
    finally:
        server.stop()
