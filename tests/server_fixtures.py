"""Fixtures for the table server tests: a real ``liverpool serve`` in a subprocess, real clients.

The database is SQLite (a file in the test's folder) or PostgreSQL: the URL of a test database is in
``$LIVERPOOL_TEST_PG`` (``scripts/ensure_postgres.sh`` prints one), and each test gets a schema of
its own there. Without that URL the PostgreSQL cases skip, except in CI (``$CI`` set) or with
``LIVERPOOL_REQUIRE_PG=1``, where they fail.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from websockets.sync.client import ClientConnection, connect

from liverpool.engine.rules.presets import PRESETS
from liverpool.server import storage as storage_module
from liverpool.server.storage import database_url

PG_ENV = "LIVERPOOL_TEST_PG"
FIRST_ONLY = ("rules", "resumed", "talk")  # what only the first state after connecting carries
STARTUP_S = 30.0
WAIT_S = 20.0
SERVE = "import sys; from liverpool.cli import main; sys.argv[0] = 'liverpool'; main()"


def pg_required() -> bool:
    return bool(os.environ.get("CI")) or os.environ.get("LIVERPOOL_REQUIRE_PG") == "1"


# -- databases --------------------------------------------------------------------------------------


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


def pg_base() -> str:
    """The test database's URL from ``$LIVERPOOL_TEST_PG``; without it the test is skipped, or fails where
    PostgreSQL is required (:func:`pg_required`)."""
    base = os.environ.get(PG_ENV)
    if not base:
        message = f"${PG_ENV} is not set: run `export {PG_ENV}=$(bash scripts/ensure_postgres.sh)`"
        if pg_required():
            pytest.fail(message)
        pytest.skip(message)
    return base


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh schema in the test database (dropped afterwards), as the server's database URL."""
    base = pg_base()
    schema = f"test_{secrets.token_hex(6)}"
    admin = create_engine(database_url(base))
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    url = make_url(database_url(base)).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest) -> str:
    """Each test that uses it runs once on SQLite and once on PostgreSQL."""
    url: str = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    return url


# -- the server -------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def server_env(extra: dict[str, str]) -> dict[str, str]:
    """The environment of a server process: this one's, with ``extra``."""
    env = {**os.environ, **extra}
    # The server runs in another folder: a relative PYTHONPATH (``PYTHONPATH=.`` in a worktree)
    # must still name this checkout, or the server would import whatever liverpool is installed.
    paths = env.get("PYTHONPATH", "").split(os.pathsep)
    env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in paths if p)
    return env


class ServerProcess:
    """``liverpool serve`` on a free port of 127.0.0.1, started, killed and restarted on one database."""

    def __init__(
        self,
        db: str,
        workdir: Path,
        args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        log_level: str = "warning",
    ) -> None:
        self.db = db
        self.workdir = workdir
        self.args = args
        self.env = env or {}
        self.log_level = log_level
        self.port = free_port()
        self.log = workdir / f"server-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        """Spawn the process and wait until it answers."""
        return self.spawn().ready()

    def spawn(self) -> ServerProcess:
        """Start the process and return at once: it migrates the schema, then starts answering."""
        args = [
            sys.executable,
            "-c",
            SERVE,
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db,
            "--log-level",
            self.log_level,
            *self.args,
        ]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                args, cwd=self.workdir, stdout=log, stderr=subprocess.STDOUT, env=server_env(self.env)
            )
        return self

    def ready(self) -> ServerProcess:
        """Wait until the spawned process answers; fails if it exits or takes longer than ``STARTUP_S``."""
        assert self.process is not None, "spawn() first"
        deadline = time.monotonic() + STARTUP_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the server exited with status {self.process.returncode}:\n{self.log.read_text()}")
            try:
                if httpx.get(f"{self.http}/api/presets", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        pytest.fail(f"the server did not answer within {STARTUP_S}s:\n{self.log.read_text()}")

    def kill(self) -> None:
        """``kill -9``: no shutdown, no goodbye to clients."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def logged(self) -> str:
        return self.log.read_text(errors="replace")

    # lobby shortcuts

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return httpx.post(f"{self.http}{path}", json=body if body is not None else {}, timeout=10)

    def get(self, path: str) -> httpx.Response:
        return httpx.get(f"{self.http}{path}", timeout=10)

    def create(self, **body: Any) -> dict[str, Any]:
        answer = self.post("/api/tables", body)
        assert answer.status_code == 201, answer.text
        created: dict[str, Any] = answer.json()
        return created

    def join(self, invite: str, seat: int, name: str) -> str:
        answer = self.post(f"/api/invite/{invite}/join", {"seat": seat, "name": name})
        assert answer.status_code == 200, answer.text
        token: str = answer.json()["seat_token"]
        return token

    def connect(self, path: str, **options: Any) -> Client:
        return Client(f"{self.ws}{path}", **options)

    def player(self, token: str) -> Client:
        return self.connect(f"/ws/play/{token}")

    def spectator(self, token: str) -> Client:
        return self.connect(f"/ws/watch/{token}")


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """Starts a server on a database URL; every server started is stopped at the end."""
    started: list[ServerProcess] = []

    def start(db: str, *args: str, env: dict[str, str] | None = None, log_level: str = "warning") -> ServerProcess:
        server = ServerProcess(db, tmp_path, args, env, log_level).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="module")
def lobby_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server on SQLite shared by a module's tests (for tests that only use their own tables)."""
    folder = tmp_path_factory.mktemp("lobby")
    server = ServerProcess(f"sqlite:///{folder / 'tables.db'}", folder).start()
    yield server
    server.stop()


# -- a websocket client -----------------------------------------------------------------------------


class Client:
    """A websocket to a table that keeps what it received: the latest state, events and errors.

    Deltas are applied as the browser applies them: each ``delta`` on the state held (without what only
    the first state carries, ``FIRST_ONLY``) gives the full state it stands for, which is kept, returned
    and listed as a ``state`` (so that tests read whole states); ``frames`` keeps every message as it came.
    A delta whose ``base`` is not the ``seq`` held asks for a ``resync`` (counted in ``resyncs``), and the
    deltas until the whole state comes are skipped (``skipped``)."""

    def __init__(self, url: str, **options: Any) -> None:
        """``options`` go to :func:`websockets.sync.client.connect` (``origin``, ``sock``, ...)."""
        self._opened = connect(url, open_timeout=10, **options)
        self.connection: ClientConnection = self._opened.__enter__()
        self.state: dict[str, Any] | None = None
        self.states: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        self.frames: list[dict[str, Any]] = []
        self.held: dict[str, Any] | None = None
        self.resyncs = 0
        self.skipped: list[dict[str, Any]] = []
        self.resyncing = False

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._opened.__exit__(None, None, None)

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        self.connection.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def act(self, action: dict[str, Any]) -> None:
        self.send({"type": "action", "action": action})

    def receive(self, timeout: float = WAIT_S) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.connection.recv(timeout=timeout))
        self.frames.append(message)
        if message["type"] == "delta":
            if self.resyncing or self.held is None or message["base"] != self.held["seq"]:
                if not self.resyncing:
                    self.resyncs += 1
                    self.resyncing = True
                    self.send({"type": "resync"})
                self.skipped.append(message)
                return message
            self.held = jsonpatch.apply_patch(self.held, message["patch"])
            assert self.held is not None and self.held["seq"] == message["seq"], (message, self.held)
            message = self.held
        elif message["type"] == "state":
            self.held = {key: value for key, value in message.items() if key not in FIRST_ONLY}
            self.resyncing = False
        self.received.append(message)
        match message["type"]:
            case "state":
                self.state = message
                self.states.append(message)
            case "event":
                self.events.append(message)
            case "error":
                self.errors.append(message)
        return message

    def until(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = WAIT_S) -> dict[str, Any]:
        """Read messages until one satisfies ``wanted``; fails after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"no wanted message within {timeout}s; the last state: {json.dumps(self.state)[:2000]}")
            try:
                message = self.receive(timeout=left)
            except TimeoutError:
                continue
            if wanted(message):
                return message

    def state_where(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = WAIT_S) -> dict[str, Any]:
        """The next state message that satisfies ``wanted``."""
        return self.until(lambda m: m["type"] == "state" and wanted(m), timeout)

    def current(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = WAIT_S) -> dict[str, Any]:
        """The latest state if it satisfies ``wanted``, else the next one that does."""
        if self.state is not None and wanted(self.state):
            return self.state
        return self.state_where(wanted, timeout)

    def quiet(self, seconds: float = 0.3) -> None:
        """Read everything that arrives until nothing has come for ``seconds``."""
        while True:
            try:
                self.receive(timeout=seconds)
            except TimeoutError:
                return


# -- a simple player ------------------------------------------------------------------------------

# Two short deals of one set: jokers galore, so each deal ends after a few turns (RULES.md §6 scoring:
# a deal ends when a seat goes out or, here, when the stock runs out).
TWO_SHORT_DEALS: dict[str, Any] = {
    "deals": [{"contract": ["set 3"], "hand_size": 4}, {"contract": ["set 3"], "hand_size": 4}],
    "decks": [{"max_players": 8, "decks": 1, "jokers": 30}],
    "set_min_naturals": 1,
    "stock_out": "end_deal",
    "final_deal": "normal",
}


PREFERENCE = ("go_down", "lay_off", "draw_stock", "pass", "discard", "end_turn")


def next_deal_waits_for_me(state: dict[str, Any]) -> bool:
    """Whether the summary of the deal that just ended is up and the next deal waits for this seat."""
    pause = state.get("next_deal")
    return pause is not None and state["seat"] in pause["waiting"]


def my_move(state: dict[str, Any]) -> bool:
    """Whether this seat must act now (its turn, an open buy offer, or Next deal under a deal's summary),
    not merely may (a May I)."""
    obs, seat = state["observation"], state["seat"]
    if next_deal_waits_for_me(state):
        return True
    if obs is None or not state["legal"]:
        return False
    if obs["phase"] == "buy":
        return seat in obs["window"] and seat not in [s for s, _ in obs["window_answers"]]
    return bool(obs["current"] == seat and obs["phase"] in ("draw", "play"))


def simple_choice(state: dict[str, Any]) -> dict[str, Any]:
    legal: list[dict[str, Any]] = state["legal"]
    for kind in PREFERENCE:
        for action in legal:
            if action["type"] == kind:
                return action
    return legal[0]


def past(seq: int) -> Callable[[dict[str, Any]], bool]:
    """A test for states after ``seq`` actions."""
    return lambda state: bool(state["seq"] > seq)


def play_moves(client: Client, moves: int, timeout: float = WAIT_S) -> None:
    """Make ``moves`` moves as the simple player, each when it is this seat's move."""
    for _ in range(moves):
        client.quiet(0.2)
        state = client.current(my_move, timeout)
        if next_deal_waits_for_me(state):
            client.send({"type": "next_deal"})
        else:
            client.act(simple_choice(state))
        client.state_where(past(state["seq"]), timeout)
        assert not client.errors, client.errors


def play_until(players: list[Client], seq: int, timeout: float = 60, watchers: tuple[Client, ...] = ()) -> None:
    """The simple player on every seat in ``players`` (the others are bots) until the table is past ``seq``.
    ``watchers`` are read on every round too, as a browser reads its socket: a client that stops reading stops
    answering the server's pings and is rightly closed as dead."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for player in (*players, *watchers):
            player.quiet(0.2)
        if max(p.state["seq"] for p in players if p.state is not None) > seq:
            return
        for player in players:
            state = player.state
            if state is None or not my_move(state):
                continue
            if next_deal_waits_for_me(state):
                player.send({"type": "next_deal"})
            else:
                player.send({"type": "action", "action": simple_choice(state), "seq": state["seq"]})
    pytest.fail(f"the table did not get past seq {seq} within {timeout}s")


def latest(clients: list[Client], seq: int) -> list[dict[str, Any]]:
    """Each client's state once it has seen at least ``seq`` actions and nothing more is coming."""
    out = []
    for client in clients:
        client.current(lambda s: s["seq"] >= seq)
        client.quiet(0.1)
        assert client.state is not None
        out.append(client.state)
    return out


def drive_to_a_buy_window(clients: list[Client]) -> dict[str, Any] | None:
    """Play plain moves (draw from the stock, discard) until a buy window is open; its state (None when
    the game ends first)."""
    while True:
        states = latest(clients, max(c.state["seq"] if c.state else 0 for c in clients))
        obs = states[0]["observation"]
        if obs is not None and obs["phase"] == "buy":
            return states[0]
        if obs is not None and obs["phase"] == "game_over":
            return None
        if obs is None or obs["phase"] not in ("draw", "play"):
            clients[0].state_where(lambda s: s["observation"] is not None)
            continue
        mover = clients[obs["current"]]
        state = mover.state
        assert state is not None
        legal = [a for a in state["legal"] if a["type"] in ("draw_stock", "discard", "go_down", "end_turn")]
        action = simple_choice({**state, "legal": legal or state["legal"]})
        mover.send({"type": "action", "action": action, "seq": state["seq"]})
        mover.state_where(lambda s, q=state["seq"]: s["seq"] > q)


def action_seqs(db: str, table_id: str) -> list[int]:
    """The stored sequence numbers of a table's actions, read straight from the database."""
    engine = create_engine(database_url(db))
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT seq FROM actions WHERE table_id = :t ORDER BY seq"), {"t": table_id})
            return [row[0] for row in rows]
    finally:
        engine.dispose()


# -- an older database ------------------------------------------------------------------------------


# The ``tables`` and ``seats`` tables in the columns every schema since 0001 has (to write as an older server).
OLD_TABLES = sa.table(
    "tables",
    *(sa.column(c) for c in ("id", "seat_count", "first_dealer", "invite_token", "spectator_token", "status")),
    sa.column("ruleset", sa.JSON),
    sa.column("options", sa.JSON),
    sa.column("created", sa.DateTime(timezone=True)),
)
OLD_SEATS = sa.table("seats", *(sa.column(c) for c in ("table_id", "seat", "name", "bot", "token")))


def upgrade_to(engine: sa.Engine, revision: str) -> None:
    """Bring ``engine``'s database to the Alembic ``revision``: an older schema, as an older server left it."""
    config = Config()
    config.set_main_option("script_location", str(storage_module.MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def old_waiting_table(engine: sa.Engine, seats: list[tuple[str | None, str | None, str | None]]) -> None:
    """Write, in the columns every schema since 0001 has, a waiting table ``old`` (invite link ``inv``,
    spectator link ``spec``, bots paced at 60 s) with one ``(name, bot, token)`` row a seat."""
    with engine.begin() as connection:
        connection.execute(
            OLD_TABLES.insert().values(
                id="old",
                ruleset=PRESETS["liverpool"].to_dict(),
                seat_count=len(seats),
                first_dealer=0,
                options={"bot_pace_ms": 60_000},
                invite_token="inv",
                spectator_token="spec",
                status="waiting",
                created=datetime.now(UTC),
            )
        )
        for seat, (name, bot, token) in enumerate(seats):
            connection.execute(OLD_SEATS.insert().values(table_id="old", seat=seat, name=name, bot=bot, token=token))
