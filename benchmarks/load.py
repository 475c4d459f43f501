"""Server load: live tables with bots and spectators on a real ``liverpool serve``, beside a bare echo server.

One run starts, in subprocesses, ``liverpool serve`` on a fresh SQLite file and a bare websocket echo
server (Starlette on uvicorn, with the same uvicorn options: this file run with ``--echo-server PORT``).
Against the table server it creates ``--tables`` tables through the HTTP API, each with four ``medium``
bots at the default pace, and opens one spectator websocket on each; every spectator sends an application
ping (``{"type": "ping"}``, answered ``pong`` through the table's outbox) every 2 s, the first ones spread
over those 2 s. After ``--warmup`` seconds it measures for ``--duration`` seconds:

- messages delivered to the spectators per second (pongs included), against actions played per second
  (rows added to the ``actions`` table over the window, read from the SQLite file), and the messages
  other than pongs per action (a spectator gets an ``event`` and a ``delta`` per action: 2.0 means no
  backlog), and the bytes of those messages per action (what one spectator receives for each action);
- each ping's round trip (sent to pong received), p50 and p99;
- the server's CPU (user + system time from ``/proc/PID/stat`` over the window, in % of one core) and its
  memory (RSS from ``/proc/PID/status`` at the end), in all and per table (RSS minus the RSS before the
  tables were made, divided by the tables); and its CPU time per action played, which moves less than
  the rest when other work shares the machine;
- errors: ``error`` messages, connections closed or failed, refused requests, tracebacks in the server log;
- the CPU of this (client) process, which shares the machine: when it nears 100% the figures are the
  client's limit, not the server's.

The table server runs the build ``make run`` serves: the mypyc-compiled copy in ``build/mypyc`` when it has
been built (``make compile``), else the pure source, or the pure source with ``--pure``; the output and the
JSON say which (``build``).

Then the same spectators-and-pings against the echo server, for the same time. With ``--search`` it then
looks for the most tables one process holds with ping p99 <= ``--p99-ms``: from ``--tables`` it doubles
until the p99 is over, then halves the gap ``--steps`` times, each step on a fresh server and database.

With ``--database postgresql://...`` each run (each search step too) is on a schema of its own in that
database, made for it and dropped after, and the servers run with the cluster on (``cluster.py``); with
``--processes N`` too, N servers share it, each on its own port: the tables are made round-robin
through their lobby APIs, and each spectator watches on the process that made its table (no relay). The
actions are counted from the ``actions`` table; CPU and RSS are summed over the servers, and given for
each (``processes``). A spectator that sees an ``event`` number skipped counts an error
(``event_skipped``: an update lost).

    python benchmarks/load.py [--tables 200] [--duration 30] [--warmup 10] [--search] [--pure] [--out FILE.json]
                              [--database postgresql://... [--processes 2]]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import httpx
import psycopg
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parent.parent
COMPILED_DIR = ROOT / "build" / "mypyc"  # what `make compile` builds and `make run` serves
PING_EVERY_S = 2.0
SEATS = 4
BOT = "medium"
WS_MAX_BYTES = 1024 * 1024  # as liverpool serve
CREATE_AT_ONCE = 16
CLUSTER_LEASE_S = 10  # on PostgreSQL the servers run with the cluster on, as a scale-out would
console = Console(stderr=True)


# -- the two servers --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def compiled_built() -> bool:
    """Whether ``build/mypyc`` holds a compiled build (its C extensions)."""
    return (COMPILED_DIR / "liverpool").is_dir() and any(COMPILED_DIR.glob("*__mypyc*.so"))


def package_root(pure: bool = False) -> Path:
    """Where the server imports ``liverpool`` from: the compiled build when built (as ``make run``), else the source."""
    return ROOT if pure or not compiled_built() else COMPILED_DIR


def server_env(root: Path) -> dict[str, str]:
    """The environment of a child process importing ``liverpool`` from ``root``."""
    env = dict(os.environ)
    paths = [str(root), *env.get("PYTHONPATH", "").split(os.pathsep)]
    env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in paths if p)
    return env


def build_of(root: Path) -> str:
    """The build a server importing from ``root`` runs, as ``liverpool --version`` says it."""
    code = "from liverpool.buildinfo import describe_build; print(describe_build())"
    done = subprocess.run(
        [sys.executable, "-P", "-c", code], env=server_env(root), capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


class Subprocess:
    """A server in a child process, with its CPU time and memory read from /proc."""

    def __init__(
        self, args: list[str], workdir: Path, env: dict[str, str], port: int | None = None, root: Path = ROOT
    ) -> None:
        self.port = free_port() if port is None else port
        self.log = workdir / f"server-{self.port}.log"  # appended to: a server restarted on its port adds on
        full_env = {**server_env(root), **env}
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, *[a.replace("{port}", str(self.port)) for a in args]],
                cwd=workdir,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=full_env,
            )

    def wait_ready(self, url: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited ({self.process.returncode}):\n{self.log.read_text()}")
            try:
                httpx.get(url, timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not answer within {timeout} s:\n{self.log.read_text()}")

    def cpu_s(self) -> float:
        """User + system CPU seconds used so far."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS in /proc status")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def tracebacks(self) -> int:
        return self.log.read_text(errors="replace").count("Traceback")

    def traceback_text(self, limit: int = 8000) -> str:
        """The server's log from its first traceback on (at most ``limit`` characters), kept in the report
        since the log itself goes with the run's temporary folder; empty when there is none."""
        text = self.log.read_text(errors="replace")
        at = text.find("Traceback")
        return "" if at < 0 else text[max(0, at - 500) : at + limit]


def table_server(workdir: Path, port: int | None = None, pure: bool = False, db: str | None = None) -> Subprocess:
    """``liverpool serve`` on ``workdir``'s SQLite file (made on the first start, reopened on the next), or
    on the PostgreSQL database ``db`` with the cluster on (``cluster.py``: several may share it), on the
    compiled build when built (``pure``: the source)."""
    serve = "import sys; from liverpool.cli import main; sys.argv[0] = 'liverpool'; main()"
    db = db or f"sqlite:///{workdir / 'tables.db'}"
    args = ["-c", serve, "serve", "--port", "{port}", "--db", db, "--log-level", "warning"]
    # A load client holds every spectator from one address: the per-address limits are off.
    env = {"LIVERPOOL_TABLES_PER_MINUTE": "0", "LIVERPOOL_CONNECTIONS_PER_CLIENT": "0"}
    if db.startswith("postgres"):
        env["LIVERPOOL_CLUSTER_LEASE_S"] = str(CLUSTER_LEASE_S)
    server = Subprocess(args, workdir, env, port, package_root(pure))
    server.wait_ready(f"http://127.0.0.1:{server.port}/api/presets")
    return server


def echo_server(workdir: Path) -> Subprocess:
    server = Subprocess([str(Path(__file__).resolve()), "--echo-server", "{port}"], workdir, {})
    server.wait_ready(f"http://127.0.0.1:{server.port}/")
    return server


def run_echo_server(port: int) -> None:
    """A bare websocket echo (``ping`` answered ``pong``, anything else sent back), on uvicorn as
    ``liverpool serve`` runs it."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            while True:
                text = await websocket.receive_text()
                await websocket.send_text('{"type":"pong"}' if text == '{"type":"ping"}' else text)
        except WebSocketDisconnect:
            return

    async def index(_request: Any) -> PlainTextResponse:
        return PlainTextResponse("echo")

    app = Starlette(routes=[Route("/", index), WebSocketRoute("/ws", echo)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=WS_MAX_BYTES)


# -- the clients ------------------------------------------------------------------------------------


@dataclass
class Tally:
    """What the spectators saw; only what happens inside the measured window is counted."""

    measuring: bool = False
    messages: int = 0
    by_type: dict[str, int] = field(default_factory=dict)
    bytes_by_type: dict[str, int] = field(default_factory=dict)
    rtts_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def spectate(url: str, tally: Tally, offset: float, stop: asyncio.Event) -> None:
    """One spectator: reads everything, pings every 2 s (one ping in flight at a time)."""
    try:
        async with connect(url, max_size=WS_MAX_BYTES, open_timeout=60, ping_interval=None) as websocket:
            sent: list[float] = []
            reader = asyncio.create_task(_read(websocket, tally, sent))
            pinger = asyncio.create_task(_ping(websocket, sent, offset))
            stopped = asyncio.create_task(stop.wait())
            done, _ = await asyncio.wait([reader, pinger, stopped], return_when=asyncio.FIRST_COMPLETED)
            for task in (reader, pinger, stopped):
                task.cancel()
            if reader in done and not stop.is_set():
                tally.error("closed")
    except (OSError, ConnectionClosed, TimeoutError):
        tally.error("connect_failed")


async def _ping(websocket: ClientConnection, sent: list[float], offset: float) -> None:
    await asyncio.sleep(offset)
    while True:
        if not sent:
            sent.append(time.perf_counter())
            await websocket.send('{"type":"ping"}')
        await asyncio.sleep(PING_EVERY_S)


async def _read(websocket: ClientConnection, tally: Tally, sent: list[float]) -> None:
    last_event = None
    with contextlib.suppress(ConnectionClosed):
        async for raw in websocket:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "event":  # one per action, numbered: a number skipped is an update lost
                if last_event is not None and message["seq"] != last_event + 1:
                    tally.error("event_skipped")
                last_event = message["seq"]
            if kind == "pong" and sent:
                rtt = (time.perf_counter() - sent.pop()) * 1000
                if tally.measuring:
                    tally.rtts_ms.append(rtt)
            if not tally.measuring:
                continue
            tally.messages += 1
            tally.by_type[kind] = tally.by_type.get(kind, 0) + 1
            size = len(raw.encode() if isinstance(raw, str) else raw)
            tally.bytes_by_type[kind] = tally.bytes_by_type.get(kind, 0) + size
            if kind == "error":
                tally.error("error_message")


@dataclass(frozen=True)
class Made:
    """A table made through the lobby API of process ``process`` (an index into the servers)."""

    process: int
    table_id: str
    spectator: str


async def create_tables(base: str, count: int, progress: Progress) -> tuple[list[str], int]:
    """``count`` tables of four bots through the lobby API at ``base``: their spectator tokens, and refusals."""
    made, refused = await create_round_robin([base], count, progress)
    return [m.spectator for m in made], refused


async def create_round_robin(bases: list[str], count: int, progress: Progress) -> tuple[list[Made], int]:
    """``count`` tables of four bots, the i-th through the lobby API at ``bases[i % len(bases)]``, and refusals
    (an answer other than 201, or a request the server dropped)."""
    job = progress.add_task("creating tables", total=count)
    made: list[Made] = []
    refused = 0
    gate = asyncio.Semaphore(CREATE_AT_ONCE)
    body = {"seats": SEATS, "bots": {str(s): BOT for s in range(SEATS)}}
    clients = [httpx.AsyncClient(base_url=base, timeout=60) for base in bases]

    async def one(i: int) -> None:
        nonlocal refused
        process = i % len(bases)
        try:
            async with gate:
                answer = await clients[process].post("/api/tables", json=body)
        except httpx.TransportError as exc:  # the server dropped the request: an error of the run, not its end
            print(f"creating a table through {bases[process]}: {type(exc).__name__}: {exc}", file=sys.stderr)
            refused += 1
            progress.advance(job)
            return
        if answer.status_code == 201:
            made.append(Made(process, answer.json()["table_id"], answer.json()["spectator"]))
        else:
            refused += 1
        progress.advance(job)

    try:
        await asyncio.gather(*(one(i) for i in range(count)))
    finally:
        for client in clients:
            await client.aclose()
    progress.remove_task(job)
    return made, refused


def actions_by_table(db: str) -> dict[str, int]:
    """The actions stored in the database at ``db`` (a SQLAlchemy URL), by table."""
    query = "SELECT table_id, COUNT(*) FROM actions GROUP BY table_id"
    if db.startswith("sqlite:///"):
        path = db.removeprefix("sqlite:///")
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)) as connection:
            return dict(connection.execute(query).fetchall())
    with psycopg.connect(libpq(db)) as connection:
        return dict(connection.execute(query).fetchall())


def libpq(url: str) -> str:
    """A PostgreSQL URL as psycopg takes it (no ``+psycopg`` driver name)."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


@contextlib.contextmanager
def fresh_database(workdir: Path, postgres: str | None) -> Iterator[str]:
    """The database of one run: a SQLite file in ``workdir``, or a schema of its own in the PostgreSQL
    database ``postgres`` (the servers' search path; dropped afterwards)."""
    if postgres is None:
        yield f"sqlite:///{workdir / 'tables.db'}"
        return
    schema = f"load_{secrets.token_hex(6)}"
    with psycopg.connect(libpq(postgres), autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    parts = urlsplit(postgres)
    query = urlencode([*parse_qsl(parts.query), ("options", f"-csearch_path={schema}")])
    try:
        yield urlunsplit(parts._replace(query=query))
    finally:
        with psycopg.connect(libpq(postgres), autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def measure_window(
    servers: list[Subprocess],
    urls: list[str],
    tally: Tally,
    warmup: float,
    duration: float,
    progress: Progress,
    what: str,
    played: Callable[[], list[int]] = lambda: [],
) -> dict[str, Any]:
    """Connect a spectator to each url, wait ``warmup``, measure ``duration`` seconds, disconnect;
    ``played`` counts the actions stored so far, by server."""
    stop = asyncio.Event()
    n = max(1, len(urls))
    clients = [asyncio.create_task(spectate(u, tally, PING_EVERY_S * i / n, stop)) for i, u in enumerate(urls)]
    job = progress.add_task(f"{what}: warm-up", total=warmup + duration)
    start = time.monotonic()
    while time.monotonic() - start < warmup:
        await asyncio.sleep(0.25)
        progress.update(job, completed=time.monotonic() - start)
    before = measures(servers)
    played_before = await asyncio.to_thread(played)
    tally.measuring = True
    progress.update(job, description=f"{what}: measuring")
    while time.monotonic() - start < warmup + duration:
        await asyncio.sleep(0.25)
        progress.update(job, completed=time.monotonic() - start)
    tally.measuring = False
    after = measures(servers)
    played_after = await asyncio.to_thread(played)
    stop.set()
    await asyncio.gather(*clients)
    progress.remove_task(job)
    seconds = after["wall"] - before["wall"]
    cpu_pct = [100 * (a - b) / seconds for a, b in zip(after["cpu"], before["cpu"], strict=True)]
    actions_per_s = [(a - b) / seconds for a, b in zip(played_after, played_before, strict=True)]
    processes = [
        {"port": s.port, "cpu_pct": round(c, 1), "rss_mb": round(r, 1)}
        for s, c, r in zip(servers, cpu_pct, after["rss"], strict=True)
    ]
    for process, n in zip(processes, actions_per_s, strict=False):
        process["actions_per_s"] = round(n, 1)
    return {
        "seconds": round(seconds, 2),
        "messages_per_s": round(tally.messages / seconds, 1),
        "actions_per_s": round(sum(actions_per_s), 1),
        "by_type": tally.by_type,
        "bytes_by_type": tally.bytes_by_type,
        "pings": len(tally.rtts_ms),
        "ping_p50_ms": _round(percentile(tally.rtts_ms, 0.5)),
        "ping_p99_ms": _round(percentile(tally.rtts_ms, 0.99)),
        "ping_max_ms": _round(max(tally.rtts_ms, default=None)),
        "server_cpu_pct": round(sum(cpu_pct), 1),
        "client_cpu_pct": round(100 * (after["client_cpu"] - before["client_cpu"]) / seconds, 1),
        "server_rss_mb": round(sum(after["rss"]), 1),
        "processes": processes,
        "errors": dict(tally.errors),
    }


def measures(servers: list[Subprocess]) -> dict[str, Any]:
    return {
        "wall": time.monotonic(),
        "cpu": [s.cpu_s() for s in servers],
        "rss": [s.rss_mb() for s in servers],
        "client_cpu": time.process_time(),
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


async def run_tables(
    tables: int,
    warmup: float,
    duration: float,
    progress: Progress,
    pure: bool = False,
    postgres: str | None = None,
    processes: int = 1,
) -> dict[str, Any]:
    """``processes`` table servers on one fresh database (SQLite, or a schema in ``postgres``) with ``tables``
    live tables made round-robin through them, each watched on its own server: the figures of one window."""
    with tempfile.TemporaryDirectory(prefix="liverpool-load-") as folder, fresh_database(Path(folder), postgres) as db:
        workdir = Path(folder)
        servers: list[Subprocess] = []
        try:
            for _ in range(processes):  # one after the other: the first migrates the database
                servers.append(table_server(workdir, pure=pure, db=db))
            idle_rss = sum(s.rss_mb() for s in servers)
            bases = [f"http://127.0.0.1:{s.port}" for s in servers]
            made, refused = await create_round_robin(bases, tables, progress)
            urls = [f"ws://127.0.0.1:{servers[m.process].port}/ws/watch/{m.spectator}" for m in made]
            tally = Tally()
            what = f"{tables} tables"

            def played() -> list[int]:
                stored = actions_by_table(db)
                return [sum(stored.get(m.table_id, 0) for m in made if m.process == i) for i in range(processes)]

            row = await measure_window(servers, urls, tally, warmup, duration, progress, what, played)
        finally:
            for server in servers:
                server.stop()
        if refused:
            tally.error("table_refused")
        row["errors"] = dict(tally.errors)
        for i, (process, server) in enumerate(zip(row["processes"], servers, strict=True)):
            process.update(tables=sum(m.process == i for m in made), tracebacks=server.tracebacks())
            if process["tracebacks"]:
                process["traceback_text"] = server.traceback_text()
                print(f"server {i} logged a traceback:\n{process['traceback_text']}", file=sys.stderr)
        row["server_tracebacks"] = sum(process["tracebacks"] for process in row["processes"])
    actions_per_s = row["actions_per_s"]
    table_messages = sum(n for kind, n in row["by_type"].items() if kind != "pong")
    table_bytes = sum(n for kind, n in row["bytes_by_type"].items() if kind != "pong")
    row.update(
        tables=tables,
        spectators=len(urls),
        messages_per_action=round(table_messages / row["seconds"] / actions_per_s, 2) if actions_per_s else None,
        bytes_per_action=round(table_bytes / row["seconds"] / actions_per_s) if actions_per_s else None,
        idle_rss_mb=round(idle_rss, 1),
        rss_per_table_kb=round(1024 * (row["server_rss_mb"] - idle_rss) / max(1, tables)),
        cpu_per_table_pct=round(row["server_cpu_pct"] / max(1, tables), 3),
        cpu_ms_per_action=round(10 * row["server_cpu_pct"] / actions_per_s, 3) if actions_per_s else None,
    )
    return row


async def run_echo(clients: int, warmup: float, duration: float, progress: Progress) -> dict[str, Any]:
    """The bare echo server with ``clients`` websockets pinging as the spectators do."""
    with tempfile.TemporaryDirectory(prefix="liverpool-echo-") as folder:
        server = echo_server(Path(folder))
        try:
            idle_rss = server.rss_mb()
            urls = [f"ws://127.0.0.1:{server.port}/ws"] * clients
            row = await measure_window([server], urls, Tally(), warmup, duration, progress, f"echo x{clients}")
        finally:
            server.stop()
        row["server_tracebacks"] = server.tracebacks()
    row.update(clients=clients, idle_rss_mb=round(idle_rss, 1), actions_per_s=None)
    return row


# -- the run ----------------------------------------------------------------------------------------


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


async def search_most(
    start: int, good: dict[str, Any] | None, limit_ms: float, steps: int, args: argparse.Namespace, progress: Progress
) -> list[dict[str, Any]]:
    """Double from ``start`` until the p99 is over ``limit_ms``, then halve the gap ``steps`` times."""
    rows: list[dict[str, Any]] = []

    def ok(row: dict[str, Any]) -> bool:
        p99 = row["ping_p99_ms"]
        return p99 is not None and p99 <= limit_ms and not row["errors"]

    async def holds(n: int) -> bool:
        """Measure ``n`` tables, keep and print the row, and say whether the p99 stayed within the limit."""
        row = await run_tables(n, args.warmup, args.search_duration, progress, args.pure, args.database, args.processes)
        rows.append({**row, "load_average": load_average()})
        _print_row(row)
        return ok(row)

    low, high = (start, None) if good is not None and ok(good) else (0, start)
    while high is None and low < args.max_tables:
        n = min(2 * low, args.max_tables)
        if await holds(n):
            low = n
        else:
            high = n
    for _ in range(steps):
        if high is None or high - low <= max(10, low // 20):
            break
        n = (low + high) // 2
        if await holds(n):
            low = n
        else:
            high = n
    rows.append({"most_tables_with_p99_ok": low, "first_over": high, "p99_limit_ms": limit_ms})
    return rows


def _print_row(row: dict[str, Any]) -> None:
    console.print(
        f"{row['tables']} tables: {row['messages_per_s']} msg/s for {row['actions_per_s']} actions/s "
        f"({row['messages_per_action']} a action, {row['bytes_per_action']} bytes), ping p50 {row['ping_p50_ms']} / p99 {row['ping_p99_ms']} ms, "
        f"server CPU {row['server_cpu_pct']}% ({row['cpu_ms_per_action']} ms an action), RSS {row['server_rss_mb']} MB, client CPU {row['client_cpu_pct']}%, "
        f"errors {row['errors'] or 'none'}"
    )
    if len(row["processes"]) > 1:
        console.print(f"  by process: {row['processes']}")


def show(tables: dict[str, Any], echo: dict[str, Any], build: str) -> None:
    title = f"{tables['tables']} live tables ({SEATS} {BOT} bots, 1 spectator each; {build}) and a bare echo"
    out = Table(title=title)
    out.add_column("")
    out.add_column("liverpool serve", justify="right")
    out.add_column("bare echo", justify="right")
    rows = [
        ("messages/s delivered", "messages_per_s"),
        ("actions/s played", "actions_per_s"),
        ("messages per action (pongs left out)", "messages_per_action"),
        ("bytes per action a spectator receives", "bytes_per_action"),
        ("pings timed", "pings"),
        ("ping p50 (ms)", "ping_p50_ms"),
        ("ping p99 (ms)", "ping_p99_ms"),
        ("ping max (ms)", "ping_max_ms"),
        ("server CPU (% of a core)", "server_cpu_pct"),
        ("server CPU per table (%)", "cpu_per_table_pct"),
        ("server CPU per action (ms)", "cpu_ms_per_action"),
        ("server RSS (MB)", "server_rss_mb"),
        ("server RSS idle (MB)", "idle_rss_mb"),
        ("RSS per table (kB)", "rss_per_table_kb"),
        ("client CPU (% of a core)", "client_cpu_pct"),
        ("errors", "errors"),
        ("server tracebacks", "server_tracebacks"),
    ]
    for label, key in rows:
        out.add_row(label, str(tables.get(key, "")), str(echo.get(key, "")))
    Console().print(out)
    for i, process in enumerate(tables["processes"] if len(tables["processes"]) > 1 else []):
        Console().print(f"process {i + 1}: {process}")


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    build = build_of(package_root(args.pure))
    console.print(f"table server: {build}")
    result: dict[str, Any] = {"build": build, "load_average_start": load_average(), "cores": os.cpu_count()}
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:.0f}/{task.total:.0f}"))
    with Progress(*columns, TimeRemainingColumn(), console=console, transient=True) as progress:
        tables = await run_tables(
            args.tables, args.warmup, args.duration, progress, args.pure, args.database, args.processes
        )
        echo = {} if args.skip_echo else await run_echo(tables["spectators"], args.warmup, args.duration, progress)
        result.update(tables=tables, echo=echo, load_average_end=load_average())
        show(tables, echo, build)
        if args.search:
            result["search"] = await search_most(args.tables, tables, args.p99_ms, args.steps, args, progress)
            last = result["search"][-1]
            console.print(
                f"most tables with ping p99 <= {args.p99_ms} ms: {last['most_tables_with_p99_ok']} "
                f"(first over: {last['first_over']})"
            )
    result["load_average_end"] = load_average()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200, help="live tables in the main run")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds after connecting, not measured")
    parser.add_argument("--search", action="store_true", help="then search the most tables with p99 <= --p99-ms")
    parser.add_argument("--search-duration", type=float, default=20.0, help="seconds measured at each search step")
    parser.add_argument("--p99-ms", type=float, default=50.0)
    parser.add_argument("--steps", type=int, default=3, help="halvings of the gap after the doubling")
    parser.add_argument("--max-tables", type=int, default=3200)
    parser.add_argument("--pure", action="store_true", help="serve the pure source even when build/mypyc is built")
    parser.add_argument("--skip-echo", action="store_true", help="measure the table server only (no echo run)")
    parser.add_argument(
        "--database", metavar="URL", help="a PostgreSQL database: each run on a schema of its own there, cluster on"
    )
    parser.add_argument("--processes", type=int, default=1, help="table servers on the one database (PostgreSQL)")
    parser.add_argument("--out", type=Path, help="write every figure as JSON here")
    parser.add_argument("--echo-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.database is not None and not args.database.startswith(("postgresql://", "postgres://")):
        parser.error(f"--database must be a postgresql:// URL, not {args.database.split(':')[0]!r}")
    if args.processes < 1 or (args.processes > 1 and args.database is None):
        parser.error(f"--processes {args.processes}: give 1, or more with --database postgresql://...")
    if args.echo_server is not None:
        run_echo_server(args.echo_server)
        return 0
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per spectator, here and in the servers
    result = asyncio.run(main_async(args))
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
