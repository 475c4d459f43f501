"""Two ``liverpool serve`` processes on one PostgreSQL (issue 26, item 14; ``liverpool/server/cluster.py``).

Real processes, real websockets, a real PostgreSQL (``LIVERPOOL_TEST_PG``; skipped without it). A table
is owned by one process at a time (a lease row); players and spectators connected to either process
see every update; ``kill -9`` of the owner moves the table to the other, and play goes on with
nothing lost.
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from server_fixtures import Client, ServerProcess, action_seqs, free_port, pg_required, play_until
from sqlalchemy import create_engine, text

from liverpool.engine.actions import action_from_dict
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.observe import observe
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.server import storage as storage_module
from liverpool.server.app import create_app
from liverpool.server.settings import Settings, SettingsError
from liverpool.server.storage import Storage, database_url

Start = Callable[..., ServerProcess]
LEASE_S = 3
CLUSTER = {"LIVERPOOL_CLUSTER_LEASE_S": str(LEASE_S)}


def lease_owner(db: str, table_id: str) -> tuple[str, bool] | None:
    """The owner of ``table_id``'s lease and whether it is still live, straight from the database."""
    engine = create_engine(database_url(db))
    try:
        with engine.connect() as connection:
            row = connection.execute(
                text("SELECT owner, expires > now() FROM table_leases WHERE table_id = :t"), {"t": table_id}
            ).first()
            return None if row is None else (row[0], bool(row[1]))
    finally:
        engine.dispose()


def event_seqs(client: Client) -> list[int]:
    return [e["seq"] for e in client.events]


def stored_state(db: str, table_id: str) -> Any:
    storage = Storage(db)
    try:
        info = storage.table(table_id)
        assert info is not None
        state = new_game(Ruleset.from_dict(info.ruleset), info.seat_count, info.first_dealer)
        for raw in storage.actions(table_id):
            apply(state, action_from_dict(raw))
        return state
    finally:
        storage.close()


@pytest.mark.slow
def test_two_processes_share_a_table_and_the_survivor_takes_it_over(pg_url: str, start_server: Start) -> None:
    a = start_server(pg_url, env=CLUSTER, log_level="info")
    b = start_server(pg_url, env=CLUSTER, log_level="info")
    created = a.create(seats=3, bots={"2": "random"}, bot_pace_ms=50, away_timeout_s=0, next_deal_timeout_s=0)
    table_id = created["table_id"]
    ada_token = a.join(created["invite"], 0, "Ada")
    ada = a.player(ada_token)  # while Ada is connected to a, a holds the table
    bea_token = b.join(created["invite"], 1, "Bea")  # so this is asked of a through PostgreSQL
    bea = b.player(bea_token)
    watch_a = a.spectator(created["spectator"])
    watch_b = b.spectator(created["spectator"])
    owner = lease_owner(pg_url, table_id)
    assert owner is not None and owner[1], "the table has a live lease"

    # Both processes' clients see every update: the spectators get the same events, gap-free.
    play_until([ada, bea], 12, watchers=(watch_a, watch_b))
    for client in (watch_a, watch_b, ada, bea):
        client.quiet(0.5)
    assert event_seqs(watch_a) == event_seqs(watch_b) == list(range(len(watch_a.events)))
    assert watch_a.state is not None and watch_b.state is not None
    assert watch_a.state["observation"] == watch_b.state["observation"]
    assert ada.state is not None and bea.state is not None and ada.state["seq"] == bea.state["seq"]
    assert bea.state["observation"]["hand"], "the relayed seat sees its own hand"

    # Kill the owner (its log names its node).
    first = ada.state["seq"]
    dead, survivor = (a, b) if f"cluster node {owner[0]}:" in a.logged() else (b, a)
    assert dead is a, "the table is held by the process its first player is connected to"
    players = {a: (ada, ada_token, 0), b: (bea, bea_token, 1)}
    stayer, _, stayer_seat = players[survivor]
    leaver, leaver_token, _ = players[dead]
    watcher = watch_b if survivor is b else watch_a
    dead.kill()
    killed = time.monotonic()
    for client in (leaver, watch_a if survivor is b else watch_b):
        client.close()
    moved = stayer.state_where(lambda s: s.get("resumed") is True, timeout=LEASE_S * 5)
    took = time.monotonic() - killed
    now = lease_owner(pg_url, table_id)
    assert now is not None and now[0] != owner[0] and now[1], "the survivor holds the lease"
    assert moved["seq"] >= first
    # The other player comes back through the survivor with the seq they last saw: exactly what they missed.
    back = survivor.connect(f"/ws/play/{leaver_token}?since={first}")
    resumed = back.state_where(lambda s: True)
    assert resumed["resumed"] is True and event_seqs(back) == list(range(first, resumed["seq"]))

    # Play goes on at the survivor, the relayed spectator saw every event once, and the log is whole.
    assert stayer.state is not None
    play_until([stayer, back], stayer.state["seq"] + 12, watchers=(watcher,))
    for client in (stayer, back, watcher):
        client.quiet(0.5)
    seen = event_seqs(watcher)
    assert seen == list(range(len(seen))), "the spectator of the survivor missed or repeated an event"
    stored = action_seqs(pg_url, table_id)
    assert stored == list(range(len(stored))) and len(stored) >= len(seen)
    state = stored_state(pg_url, table_id)
    assert stayer.state is not None and stayer.state["seq"] == len(stored) == len(state.history)
    assert stayer.state["observation"] == observe(state, stayer_seat).to_client_dict(), "the table as stored"
    assert "Traceback" not in survivor.logged(), survivor.logged()[-3000:]
    print(f"failover: the surviving seat had its resumed state {took:.1f} s after kill -9 (lease {LEASE_S} s)")
    for client in (stayer, back, watcher):
        client.close()


@pytest.mark.slow
def test_the_owner_forgets_the_connections_of_a_relaying_process_that_died(pg_url: str, start_server: Start) -> None:
    a = start_server(pg_url, env=CLUSTER)
    b = start_server(pg_url, env=CLUSTER)
    created = a.create(seats=3, bot_pace_ms=60_000, away_timeout_s=0)
    ada = a.player(a.join(created["invite"], 0, "Ada"))  # a holds the table while Ada is connected to it
    bea = b.player(b.join(created["invite"], 1, "Bea"))
    ada.state_where(lambda s: s["connected"] == [0, 1])
    bea.state_where(lambda s: s["connected"] == [0, 1])
    b.kill()
    # Bea's connection was relayed by b: once b's own lease expires, the owner drops it, as if she had left.
    ada.state_where(lambda s: s["connected"] == [0], timeout=LEASE_S * 5)
    ada.close()


@pytest.mark.slow
def test_relays_survive_lost_connections_to_postgresql(pg_url: str, start_server: Start) -> None:
    a = start_server(pg_url, env=CLUSTER)
    b = start_server(pg_url, env=CLUSTER)
    created = a.create(seats=3, bots={"2": "random"}, bot_pace_ms=50, away_timeout_s=0, next_deal_timeout_s=0)
    ada = a.player(a.join(created["invite"], 0, "Ada"))  # a holds the table while Ada is connected to it
    bea = b.player(b.join(created["invite"], 1, "Bea"))
    watcher = b.spectator(created["spectator"])  # relayed by b
    play_until([ada, bea], 6, watchers=(watcher,))
    # PostgreSQL drops every connection the two processes hold (their LISTEN and their own).
    engine = create_engine(database_url(pg_url))
    try:
        with engine.begin() as connection:
            ended = connection.execute(
                text(
                    "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name LIKE 'liverpool-%' AND pid <> pg_backend_pid()) AS t"
                )
            ).scalar_one()
    finally:
        engine.dispose()
    assert ended >= 4, "each process had a LISTEN connection and one of its own"
    assert ada.state is not None
    play_until([ada, bea], ada.state["seq"] + 10, watchers=(watcher,))
    for client in (ada, bea, watcher):
        client.quiet(0.5)
    seen = event_seqs(watcher)
    assert seen == list(range(len(seen))), "the relayed spectator missed or repeated an event"
    assert watcher.state is not None and bea.state is not None and ada.state is not None
    assert watcher.state["seq"] == bea.state["seq"] == ada.state["seq"] == len(action_seqs(pg_url, created["table_id"]))
    for client in (ada, bea, watcher):
        client.close()


def test_cluster_mode_needs_postgresql(sqlite_url: str) -> None:
    # The lease and the notifications live in PostgreSQL: on SQLite the server refuses to start.
    app = create_app(sqlite_url, Settings(cluster_lease_s=LEASE_S))
    with pytest.raises(SettingsError, match="PostgreSQL"), TestClient(app):
        pass


def test_cluster_mode_is_off_by_default() -> None:
    assert Settings.from_env({}).cluster_lease_s == 0
    assert Settings.from_env({"LIVERPOOL_CLUSTER_LEASE_S": "5"}).cluster_lease_s == 5


# What servers before migration 0007 ran when started in cluster mode.
OLD_LEASES_DDL = (
    "CREATE TABLE IF NOT EXISTS table_leases ("
    " table_id VARCHAR(64) PRIMARY KEY, owner VARCHAR(32) NOT NULL, expires TIMESTAMPTZ NOT NULL)"
)


@pytest.mark.parametrize("start", ["fresh", "0006", "0006 with the old lease table"])
def test_the_lease_table_is_made_by_the_migrations(db_url: str, start: str, start_server: Start) -> None:
    """``table_leases`` comes from Alembic migration 0007, like the rest of the schema: a fresh database
    gets it, and so does an older one (at 0006), whether or not an older server in cluster mode had
    made it itself (its rows are kept). On PostgreSQL a server in cluster mode then starts on the
    upgraded database and keeps its own lease there."""
    engine = storage_module.make_engine(db_url)
    try:
        if start != "fresh":
            config = Config()
            config.set_main_option("script_location", str(storage_module.MIGRATIONS))
            with engine.begin() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, "0006")
            assert "table_leases" not in sa.inspect(engine).get_table_names()
            if start.endswith("old lease table"):
                with engine.begin() as connection:
                    connection.execute(text(OLD_LEASES_DDL))
                    connection.execute(
                        text("INSERT INTO table_leases VALUES ('t1', 'n1', :at)"), {"at": datetime.now(UTC)}
                    )
        storage_module.migrate(engine)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0008"
            rows = connection.execute(text("SELECT table_id, owner FROM table_leases")).all()
        columns = {c["name"]: c for c in sa.inspect(engine).get_columns("table_leases")}
        assert set(columns) == {"table_id", "owner", "expires"}
        assert not columns["owner"]["nullable"] and not columns["expires"]["nullable"]
        assert sa.inspect(engine).get_pk_constraint("table_leases")["constrained_columns"] == ["table_id"]
        assert [tuple(r) for r in rows] == ([("t1", "n1")] if start.endswith("old lease table") else [])
    finally:
        engine.dispose()
    if db_url.startswith("postgresql") and start != "fresh":
        server = start_server(db_url, env=CLUSTER)
        deadline = time.monotonic() + 10
        while not (nodes := node_leases(db_url)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(nodes) == 1, "the cluster process keeps its own lease in the migrated table"
        server.stop()


def node_leases(db: str) -> list[tuple[str, str]]:
    engine = create_engine(database_url(db))
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT table_id, owner FROM table_leases WHERE table_id LIKE 'node:%'"))
            return [(row[0], row[1]) for row in rows]
    finally:
        engine.dispose()


class TcpProxy:
    """The simplest reverse proxy: each connection goes to the next backend in turn that accepts it."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.turn = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                incoming, _ = self.listener.accept()
            except OSError:
                return
            for _ in self.ports:
                port = self.ports[self.turn % len(self.ports)]
                self.turn += 1
                try:
                    outgoing = socket.create_connection(("127.0.0.1", port), timeout=2)
                except OSError:
                    continue
                outgoing.settimeout(None)
                for source, sink in ((incoming, outgoing), (outgoing, incoming)):
                    threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()
                break
            else:
                incoming.close()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for each in (source, sink):
                with contextlib.suppress(OSError):
                    each.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.listener.close()


def play_through_a_failover(pg_url: str, start_server: Start, front_of: Callable[[list[int]], Any]) -> list[str]:
    """The failover scenario behind a reverse proxy (``front_of(ports)``: a context manager that yields
    the port it listens on). Everything goes through the proxy: the table is created and joined, two players
    and a spectator (whose ``Origin`` is the proxy's address, as a browser's would be) play and watch; the
    owner is killed with ``kill -9``; each client reconnects through the proxy with the seq it last saw and
    is resumed by the survivor; play goes on with nothing lost. Returns the table's secret links."""
    a = start_server(pg_url, env=CLUSTER, log_level="info")
    b = start_server(pg_url, env=CLUSTER, log_level="info")
    with front_of([a.port, b.port]) as port:
        front = f"127.0.0.1:{port}"
        created = httpx.post(
            f"http://{front}/api/tables",
            json={
                "seats": 3,
                "bots": {"2": "random"},
                "bot_pace_ms": 50,
                "away_timeout_s": 0,
                "next_deal_timeout_s": 0,
            },
            headers={"Origin": f"http://{front}"},
            timeout=10,
        )
        assert created.status_code == 201, created.text
        table = created.json()
        tokens = []
        for seat, name in ((0, "Ada"), (1, "Bea")):
            answer = httpx.post(
                f"http://{front}/api/invite/{table['invite']}/join", json={"seat": seat, "name": name}, timeout=10
            )
            assert answer.status_code == 200, answer.text
            tokens.append(answer.json()["seat_token"])
        paths = [f"/ws/play/{t}" for t in tokens] + [f"/ws/watch/{table['spectator']}"]
        clients = [Client(f"ws://{front}{path}", origin=f"http://{front}") for path in paths]
        players, watcher = clients[:2], clients[2]
        play_until(players, 10, watchers=(watcher,))
        for client in clients:
            client.quiet(0.5)
        owner = lease_owner(pg_url, table["table_id"])
        assert owner is not None and owner[1]
        dead, survivor = (a, b) if f"cluster node {owner[0]}:" in a.logged() else (b, a)
        dead.kill()
        events = list(watcher.events)
        reconnected = []
        for client, path in zip(clients, paths, strict=True):
            assert client.state is not None
            client.close()
            again = Client(f"ws://{front}{path}?since={client.state['seq']}", origin=f"http://{front}")
            state = again.state_where(lambda s: True, timeout=LEASE_S * 5)
            assert state["resumed"] is True and state["seq"] >= client.state["seq"]
            reconnected.append(again)
        players, watcher = reconnected[:2], reconnected[2]
        play_until(players, max(p.state["seq"] for p in players if p.state) + 10, watchers=(watcher,))
        for client in reconnected:
            client.quiet(0.5)
        seen = [e["seq"] for e in events + watcher.events]
        assert seen == list(range(len(seen))), "the spectator behind the proxy missed or repeated an event"
        stored = action_seqs(pg_url, table["table_id"])
        assert stored == list(range(len(stored))) and len(seen) <= len(stored)
        state = stored_state(pg_url, table["table_id"])
        for seat, player in enumerate(players):
            assert player.state is not None and player.state["seq"] == len(state.history)
            assert player.state["observation"] == observe(state, seat).to_client_dict(), "the table as stored"
        now = lease_owner(pg_url, table["table_id"])
        assert now is not None and now[0] != owner[0], "the survivor holds the table"
        assert "Traceback" not in survivor.logged(), survivor.logged()[-3000:]
        for client in reconnected:
            client.close()
    return [*tokens, table["spectator"], table["invite"]]


@contextlib.contextmanager
def tcp_proxy_in_front(ports: list[int]) -> Iterator[int]:
    """A ``TcpProxy`` in front of the servers on ``ports``; yields the port it listens on."""
    proxy = TcpProxy(ports)
    try:
        yield proxy.port
    finally:
        proxy.close()


@pytest.mark.slow
def test_clients_behind_one_proxy_see_every_update_across_a_failover(pg_url: str, start_server: Start) -> None:
    """The scenario of ``play_through_a_failover`` behind ``TcpProxy``: when the clients connect again, the
    proxy skips the dead process and each is resumed by the survivor."""
    play_through_a_failover(pg_url, start_server, tcp_proxy_in_front)


@contextlib.contextmanager
def proxy_running(
    command: list[str], listen: int, out: Path, errors: Path, env: dict[str, str] | None = None
) -> Iterator[int]:
    """Runs a reverse proxy's ``command`` (what it prints appended to ``out``) and yields ``listen`` once
    ``/api/presets`` answers there; stops it (terminate, then kill) when the block ends. If it exits or
    does not answer within 20 s, the failure shows ``errors`` or names it."""
    name = Path(command[0]).name
    with out.open("ab") as written:
        process = subprocess.Popen(command, stdout=written, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 20
        while True:
            assert process.poll() is None, errors.read_text(errors="replace")
            try:
                if httpx.get(f"http://127.0.0.1:{listen}/api/presets", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"{name} did not answer"
            time.sleep(0.1)
        yield listen
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


# -- behind nginx -----------------------------------------------------------------------------------

DEPLOY_DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def deploy_block(language: str) -> str:
    """The configuration docs/deploy.md shows for ``language`` (its one code block in it), as it stands."""
    blocks = re.findall(rf"^```{language}\n(.*?)^```", DEPLOY_DOC.read_text(), re.DOTALL | re.MULTILINE)
    assert len(blocks) == 1, f"docs/deploy.md shows one {language} block"
    return str(blocks[0])


def proxy_binary(name: str, off_path: str | None = None) -> str:
    """Where the ``name`` binary is (on PATH, or at ``off_path``); skips the test without it (fails in CI)."""
    found = shutil.which(name) or (off_path if off_path and os.access(off_path, os.X_OK) else None)
    if found is None:
        message = f"{name} is not installed: run `bash scripts/ensure_{name}.sh`"
        if pg_required():
            pytest.fail(message)
        pytest.skip(message)
    return found


@contextlib.contextmanager
def nginx_in_front(workdir: Path, ports: list[int]) -> Iterator[int]:
    """A real nginx, in front of the servers on ``ports``, with deploy.md's block in a configuration file of
    its own (only the two ports, the listening address and the access log's file changed); yields the
    port it listens on. Its access log is ``workdir / "nginx-access.log"``."""
    binary = proxy_binary("nginx", "/usr/sbin/nginx")
    listen = free_port()
    block = deploy_block("nginx")
    for old, new in (("127.0.0.1:8001", f"127.0.0.1:{ports[0]}"), ("127.0.0.1:8002", f"127.0.0.1:{ports[1]}")):
        assert block.count(old) == 1, f"deploy.md's nginx block names {old} once"
        block = block.replace(old, new)
    for old, new in (
        ("listen 80;", f"listen 127.0.0.1:{listen};"),
        ("/var/log/nginx/liverpool.access.log", str(workdir / "nginx-access.log")),
    ):
        assert block.count(old) == 1, f"deploy.md's nginx block has {old} once"
        block = block.replace(old, new)
    # nginx's workers must be able to reach its temporary files: a folder of its own outside pytest's
    # (which only its owner may enter).
    home = Path(tempfile.mkdtemp(prefix="liverpool-nginx-"))
    home.chmod(0o755)
    for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (home / name).mkdir(mode=0o777)
        (home / name).chmod(0o777)
    (home / "liverpool.conf").write_text(block)
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name} {grp.getgrgid(os.getegid()).gr_name};"
    (home / "nginx.conf").write_text(
        f"""{user}
worker_processes 1;
daemon off;
pid {home}/nginx.pid;
error_log {workdir}/nginx-error.log info;
events {{ worker_connections 256; }}
http {{
    access_log {workdir}/nginx-access.log;
    client_body_temp_path {home}/body;
    proxy_temp_path {home}/proxy;
    fastcgi_temp_path {home}/fastcgi;
    uwsgi_temp_path {home}/uwsgi;
    scgi_temp_path {home}/scgi;
    include {home}/liverpool.conf;
}}
"""
    )
    command = [binary, "-p", str(home), "-c", str(home / "nginx.conf"), "-e", str(workdir / "nginx-error.log")]
    try:
        with proxy_running(command, listen, workdir / "nginx-out.log", workdir / "nginx-error.log"):
            yield listen
    finally:
        shutil.rmtree(home, ignore_errors=True)


@pytest.mark.slow
def test_clients_behind_nginx_see_every_update_across_a_failover(
    pg_url: str, start_server: Start, tmp_path: Path
) -> None:
    """Issue 26, item 14, behind a real reverse proxy: two processes behind nginx configured as
    docs/deploy.md shows (the scenario of ``play_through_a_failover``), and no link in nginx's access log."""
    secrets = play_through_a_failover(pg_url, start_server, lambda ports: nginx_in_front(tmp_path, ports))
    served = (tmp_path / "nginx-access.log").read_text()
    assert served.count('"GET /ws/play/[redacted]"') >= 4, "the players went through nginx, twice each"
    assert not [t for t in secrets if t in served], "nginx's access log shows a secret link"


# -- behind Caddy -----------------------------------------------------------------------------------


@contextlib.contextmanager
def caddy_in_front(workdir: Path, ports: list[int]) -> Iterator[int]:
    """A real ``caddy run``, in front of the servers on ``ports``, with deploy.md's Caddyfile (only the two
    ports and the site's address changed) after a global block that turns off Caddy's admin endpoint (port
    2019, which other tests' Caddies would want too); yields the port it listens on. Everything Caddy
    writes goes to ``workdir / "caddy.log"``; its data and config folders are in ``workdir``."""
    binary = proxy_binary("caddy")
    listen = free_port()
    block = deploy_block("caddyfile")
    for old, new in (
        ("127.0.0.1:8001", f"127.0.0.1:{ports[0]}"),
        ("127.0.0.1:8002", f"127.0.0.1:{ports[1]}"),
        ("cards.example {", f"http://127.0.0.1:{listen} {{"),
    ):
        assert block.count(old) == 1, f"deploy.md's Caddyfile has {old} once"
        block = block.replace(old, new)
    config = workdir / "Caddyfile"
    config.write_text("{\n\tadmin off\n}\n\n" + block)
    home = workdir / "caddy-home"
    home.mkdir()
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }
    log = workdir / "caddy.log"
    command = [binary, "run", "--config", str(config), "--adapter", "caddyfile"]
    with proxy_running(command, listen, log, log, env=env):
        yield listen


@pytest.mark.slow
def test_clients_behind_caddy_see_every_update_across_a_failover(
    pg_url: str, start_server: Start, tmp_path: Path
) -> None:
    """Issue 26, item 14, behind Caddy: the scenario of ``play_through_a_failover`` through a real
    ``caddy run`` with the Caddyfile docs/deploy.md shows, and no link in anything Caddy wrote."""
    secrets = play_through_a_failover(pg_url, start_server, lambda ports: caddy_in_front(tmp_path, ports))
    logged = (tmp_path / "caddy.log").read_text()
    assert "serving initial configuration" in logged, "Caddy's own log was read"
    assert not [t for t in secrets if t in logged], "Caddy's log shows a secret link"
