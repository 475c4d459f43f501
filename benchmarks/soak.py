"""Soak: live tables for a long time, spectators that drop and come back, and server restarts.

Built on :mod:`load` (the same server in a subprocess on a SQLite file, the same tables of four
``medium`` bots at the default pace made through the lobby API, one spectator each pinging every 2 s).
For ``--duration`` seconds:

- every spectator drops its websocket now and then (after a random time, ``--drop-every`` seconds on
  average), stays away 0.2 to 3 s, and reconnects with ``?since=`` the ``seq`` of the last state it saw;
  it checks that it then gets exactly the events it missed and a state that says ``resumed``: every
  ``event`` must carry the next ``seq`` (a smaller one is a duplicate, a larger one a gap) and every
  state the count of events so far, whether sent whole or built from the one held by a ``delta``
  (whose ``base`` must be the ``seq`` held: anything else means a message was missed, an error, and the
  spectator asks for a ``resync``). Events read after the last state are dropped with the connection,
  as a browser would (the server sends them again, since they come after that state);
- the server is restarted at evenly spaced times (``--restarts``: ``term`` stops it with SIGTERM, a
  graceful stop; ``kill`` with SIGKILL, a crash) and started again on the same SQLite file and port;
  the spectators reconnect as they would after a drop;
- the server's RSS is read every ``--sample-every`` seconds.

Then the end: the server is stopped (SIGTERM) and started once more, every spectator reconnects and
must catch up with the actions the database held while the server was down (the count of actions a
spectator saw equals the database's), the spectators leave and the server stops. Every table's stored
actions are replayed through the engine up to the last state its spectator saw and must give that
state's observation; a spectator that saw more actions than were stored saw an action that was lost.

It fails (exit status 1) on any error (an ``error`` message, an unexpected close, a connection that
could not be made while the server was up, a gap, a duplicate, a resume that was not exact, a lost or
different action, a table missing, a traceback or ERROR line in the server's log, a SIGTERM stop that
did not exit 0 or -15) and when memory grows: for each server process that ran at least a minute past
its warm-up (``--warmup`` seconds after its start), the least-squares slope of its RSS against the
actions the spectators saw must stay within ``--max-bytes-per-action``. A live table keeps its game's
actions and its last 500 narrated events (what a reconnecting client is sent again), a few hundred bytes
an action, so the RSS of tables in mid-game grows with their games by design; a leak of what goes out
per message (two messages an action) or per connection shows as more. The slope in MB a minute is
reported beside it.

    python benchmarks/soak.py [--tables 200] [--duration 600] [--restarts term,kill] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import resource
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonpatch
from load import (
    PING_EVERY_S,
    WS_MAX_BYTES,
    Subprocess,
    Tally,
    _ping,
    create_tables,
    free_port,
    load_average,
    percentile,
    table_server,
)
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from liverpool.engine import GameRecord, Ruleset, action_from_dict, observe, replay
from liverpool.server.loading import display_name, table_position
from liverpool.server.messages import encode
from liverpool.server.storage import Storage

AWAY_S = (0.2, 3.0)
FIRST_ONLY = ("rules", "resumed", "talk")  # what only the first state after connecting carries
CATCH_UP_S = 120.0
MIN_MEASURED_S = 60.0  # a server process's RSS slope is judged over at least this long after its warm-up
console = Console(stderr=True, soft_wrap=True)


# -- one spectator ----------------------------------------------------------------------------------


@dataclass
class Watch:
    """What one table's spectator has seen, over all its connections."""

    token: str
    table_id: str = ""
    first: int | None = None  # the seq of the first event it got (0 when it joined before the game moved)
    seen: int | None = None  # the seq of the last state it holds: it has seen events first .. seen - 1
    held: dict[str, Any] | None = None  # that state (sent whole or built from deltas), as deltas apply to it
    resyncing: bool = False  # a resync was asked for: the deltas until the whole state are skipped
    unconfirmed: list[int] = field(default_factory=list)  # events read since that state
    connections: int = 0  # connections opened: their first state came
    drops: int = 0
    dropped_unconfirmed: int = 0
    resumes: int = 0

    def expected(self) -> int | None:
        """The seq the next event must carry."""
        if self.seen is not None:
            return self.seen + len(self.unconfirmed)
        if self.first is not None:
            return self.first + len(self.unconfirmed)
        return None

    @property
    def observation(self) -> Any:
        return None if self.held is None else self.held["observation"]

    def read(self, message: dict[str, Any], tally: Tally, reconnected: bool) -> bool:
        """Follow one message; True when the held state is lost and the whole state must be asked for."""
        kind = message["type"]
        if kind == "event":
            seq = message["seq"]
            expected = self.expected()
            if expected is None:
                self.first = seq
            elif seq < expected:
                tally.error("duplicate_event")
                return False
            elif seq > expected:
                tally.error("gap")
                self.unconfirmed += range(expected, seq)  # counted once, then followed as sent
            self.unconfirmed.append(seq)
        elif kind == "state":
            seq = message["seq"]
            if "resumed" in message:  # the state a connection opens with
                self.connections += 1  # counted here: one dropped before its first state never opened
                if reconnected and not message["resumed"]:
                    tally.error("not_resumed")
                if reconnected and self.seen is not None and seq < self.seen:
                    tally.error("went_back")  # the table is behind what this spectator saw: actions lost
                self.resumes += reconnected
            self.hold(seq, {k: v for k, v in message.items() if k not in FIRST_ONLY}, tally)
        elif kind == "delta":
            if self.resyncing:
                return False  # on a state this spectator no longer holds; the whole one is on its way
            if self.held is None or message["base"] != self.held["seq"]:
                tally.error("delta_on_other_base")  # a message was missed
                return self.resync()
            try:
                held = jsonpatch.apply_patch(self.held, message["patch"], in_place=True)
            except jsonpatch.JsonPatchException:
                tally.error("patch_failed")
                return self.resync()
            if held["seq"] != message["seq"]:
                tally.error("patch_failed")
            self.hold(message["seq"], held, tally)
        elif kind == "error":
            tally.error(f"error_message:{message.get('reason')}")
        return False

    def resync(self) -> bool:
        """Drop the state held and ask for the whole one, once (counted as one error by the caller)."""
        self.held, self.resyncing = None, True
        return True

    def hold(self, seq: int, state: dict[str, Any], tally: Tally) -> None:
        """A new state of ``seq`` actions: every event read since the last one must have led to it."""
        expected = self.expected()
        if self.first is None and self.seen is None:
            self.first = seq  # joined before any event
        elif expected is not None and seq != expected:
            tally.error("state_out_of_step")
        self.seen = seq
        self.held, self.resyncing = state, False
        self.unconfirmed = []

    def url(self, base: str) -> str:
        url = f"{base}/ws/watch/{self.token}"
        return url if self.seen is None else f"{url}?since={self.seen}"


class Soak:
    """The run's shared state: the server (restarted on one port and database) and the spectators."""

    def __init__(self, workdir: Path, args: argparse.Namespace) -> None:
        self.workdir = workdir
        self.db = workdir / "tables.db"
        self.port = free_port()
        self.args = args
        self.rng = random.Random(args.seed)
        self.tally = Tally(measuring=True)
        self.up = asyncio.Event()
        self.restarting = False
        self.finish = asyncio.Event()
        self.server: Subprocess | None = None
        self.watches: list[Watch] = []
        self.starts: list[float] = []  # when each server process was ready, seconds into the run
        self.stops: list[dict[str, Any]] = []
        self.rss: list[tuple[float, int, float, int]] = []  # (seconds into the run, server process, MB, actions seen)
        self.t0 = time.monotonic()

    def now(self) -> float:
        return time.monotonic() - self.t0

    def seen(self) -> int:
        """Actions seen by all the spectators so far."""
        return sum((w.seen or 0) - (w.first or 0) for w in self.watches)

    @property
    def base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    # -- the server

    async def start(self) -> None:
        began = time.monotonic()
        self.server = await asyncio.to_thread(table_server, self.workdir, self.port)
        self.starts.append(self.now())
        if self.stops:
            self.stops[-1]["down_s"] = round(time.monotonic() - self.stops[-1]["at_monotonic"], 2)
            self.stops[-1]["start_s"] = round(time.monotonic() - began, 2)
        self.up.set()

    async def stop(self, how: str) -> dict[str, int]:
        """Stop the server with SIGTERM (``term``) or SIGKILL (``kill``); the actions each table had stored."""
        assert self.server is not None
        self.restarting = True
        self.up.clear()
        process = self.server.process
        began = time.monotonic()
        process.send_signal(signal.SIGTERM if how == "term" else signal.SIGKILL)
        code = await asyncio.to_thread(process.wait, 60)
        stop = {
            "how": how,
            "at_s": round(self.now(), 1),
            "exit_code": code,
            "stop_s": round(time.monotonic() - began, 2),
        }
        if how == "term" and code not in (0, -signal.SIGTERM):  # uvicorn raises the signal again once it has stopped
            self.tally.error("term_exit_code")
        stored = await asyncio.to_thread(stored_counts, self.db)
        stop["actions_stored"] = sum(stored.values())
        # Stored but not yet seen when it stopped: in flight, or (on SIGTERM) played after the server closed
        # the websockets; each spectator must get them after the restart.
        stop["stored_not_seen"] = sum(max(0, stored.get(w.table_id, 0) - (w.seen or 0)) for w in self.watches)
        self.stops.append({**stop, "at_monotonic": time.monotonic()})
        return stored

    async def restart(self, how: str) -> dict[str, int]:
        stored = await self.stop(how)
        await self.start()
        self.restarting = False
        return stored

    async def sample(self) -> None:
        while True:
            server = self.server
            if server is not None and server.process.poll() is None and self.up.is_set():
                with contextlib.suppress(OSError, RuntimeError):
                    self.rss.append((self.now(), len(self.starts) - 1, server.rss_mb(), self.seen()))
            await asyncio.sleep(self.args.sample_every)

    # -- the spectators

    async def spectate(self, watch: Watch, offset: float) -> None:
        """One spectator, reconnecting after each drop and restart until the end of the run."""
        reconnected = False
        while not self.finish.is_set():
            await self.up.wait()
            try:
                async with connect(
                    watch.url(self.base), max_size=WS_MAX_BYTES, open_timeout=60, ping_interval=None
                ) as websocket:
                    dropped = await self._session(websocket, watch, offset, reconnected)
            except (OSError, ConnectionClosed, TimeoutError, InvalidHandshake):
                if not self.restarting:
                    self.tally.error("connect_failed")
                    await asyncio.sleep(1.0)
                continue
            reconnected = True
            watch.dropped_unconfirmed += len(watch.unconfirmed)
            watch.unconfirmed = []
            if dropped:
                watch.drops += 1
                await asyncio.sleep(self.rng.uniform(*AWAY_S))
            elif self.restarting:
                await self.up.wait()
                await asyncio.sleep(self.rng.uniform(0, 1))  # not all at once
            elif not self.finish.is_set():
                self.tally.error("closed")

    async def _session(self, websocket: ClientConnection, watch: Watch, offset: float, reconnected: bool) -> bool:
        """Read one connection until it closes (False) or this spectator drops it (True)."""
        sent: list[float] = []
        reader = asyncio.create_task(self._read(websocket, watch, sent, reconnected))
        pinger = asyncio.create_task(_ping(websocket, sent, offset))
        drop = asyncio.create_task(asyncio.sleep(self.rng.expovariate(1 / self.args.drop_every)))
        finish = asyncio.create_task(self.finish.wait())
        done, _ = await asyncio.wait([reader, drop, finish], return_when=asyncio.FIRST_COMPLETED)
        for task in (reader, pinger, drop, finish):
            task.cancel()
        await asyncio.gather(reader, pinger, return_exceptions=True)
        if reader in done:
            return False
        with contextlib.suppress(ConnectionClosed, TimeoutError):
            await websocket.close()
        return drop in done

    async def _read(self, websocket: ClientConnection, watch: Watch, sent: list[float], reconnected: bool) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in websocket:
                message = json.loads(raw)
                self.tally.messages += 1
                kind = message["type"]
                self.tally.by_type[kind] = self.tally.by_type.get(kind, 0) + 1
                if kind == "pong":
                    if sent:
                        self.tally.rtts_ms.append((time.perf_counter() - sent.pop()) * 1000)
                    continue
                if watch.read(message, self.tally, reconnected):
                    await websocket.send('{"type":"resync"}')


# -- the database -----------------------------------------------------------------------------------


def stored_counts(db: Path) -> dict[str, int]:
    """Actions stored per table (the server may be down after a crash: the WAL is read back as SQLite does)."""
    with contextlib.closing(sqlite3.connect(db, timeout=30)) as connection:
        rows = connection.execute("SELECT table_id, COUNT(*) FROM actions GROUP BY table_id").fetchall()
    return {table_id: count for table_id, count in rows}


def check_tables(db: Path, watches: list[Watch], tally: Tally) -> dict[str, Any]:
    """Replay each table's stored actions up to the last state its spectator saw; compare the observations."""
    storage = Storage(f"sqlite:///{db}")
    lost = differ = missing = replayed = 0
    try:
        for watch in watches:
            info = storage.table(watch.table_id)
            if info is None or watch.seen is None:
                missing += 1
                tally.error("table_missing")
                continue
            actions = [action_from_dict(a) for a in storage.actions(watch.table_id)]
            if watch.seen > len(actions):
                lost += watch.seen - len(actions)
                tally.error("action_lost")
                continue
            names = [display_name(s.seat, s.name, s.bot) for s in info.seats]
            record = GameRecord(
                Ruleset.from_dict(info.ruleset), names, info.first_dealer, actions[: watch.seen], table_position(info)
            )
            observation = json.loads(encode(observe(replay(record), None).to_client_dict()))
            replayed += watch.seen
            if observation != watch.observation:
                differ += 1
                tally.error("replay_differs")
    finally:
        storage.close()
    return {"actions_replayed": replayed, "actions_lost": lost, "tables_differing": differ, "tables_missing": missing}


# -- memory -----------------------------------------------------------------------------------------


def memory(soak: Soak, warmup: float) -> dict[str, Any]:
    """Each server process's RSS after its warm-up: first, last, and the least-squares slopes in MB a
    minute and in bytes an action seen (the tables' logs grow with their games)."""
    processes = []
    for index, started in enumerate(soak.starts):
        samples = [(t, mb, n) for t, i, mb, n in soak.rss if i == index]
        after = [(t, mb, n) for t, mb, n in samples if t >= started + warmup]
        row: dict[str, Any] = {"process": index, "started_s": round(started, 1), "samples": len(samples)}
        if samples:
            row.update(rss_first_mb=round(samples[0][1], 1), rss_max_mb=round(max(s[1] for s in samples), 1))
        if len(after) >= 3 and after[-1][2] > after[0][2]:
            per_s = statistics.linear_regression([t for t, _, _ in after], [mb for _, mb, _ in after]).slope
            per_action = statistics.linear_regression([n for _, _, n in after], [mb for _, mb, _ in after]).slope
            row.update(
                measured_s=round(after[-1][0] - after[0][0], 1),
                actions=after[-1][2] - after[0][2],
                rss_after_warmup_mb=round(after[0][1], 1),
                rss_last_mb=round(after[-1][1], 1),
                slope_mb_per_min=round(60 * per_s, 3),
                bytes_per_action=round(per_action * 1024 * 1024),
                judged=after[-1][0] - after[0][0] >= MIN_MEASURED_S,
            )
        processes.append(row)
    return {"processes": processes, "samples": [(round(t, 1), i, round(mb, 1), n) for t, i, mb, n in soak.rss]}


# -- the run ----------------------------------------------------------------------------------------


async def run(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    soak = Soak(workdir, args)
    restarts = [r for r in args.restarts.split(",") if r]
    await soak.start()
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:.0f}/{task.total:.0f}"))
    sampler = asyncio.create_task(soak.sample())
    with Progress(*columns, TimeRemainingColumn(), console=console, transient=True) as progress:
        tokens, refused = await create_tables(f"http://127.0.0.1:{soak.port}", args.tables, progress)
        if refused:
            soak.tally.error("table_refused")
        ids = await asyncio.to_thread(table_ids, soak.db, tokens)
        soak.watches = [Watch(token, table_id) for token, table_id in zip(tokens, ids, strict=True)]
        n = max(1, len(tokens))
        clients = [asyncio.create_task(soak.spectate(w, PING_EVERY_S * i / n)) for i, w in enumerate(soak.watches)]
        job = progress.add_task("soak", total=args.duration)
        began = soak.now()
        restart_at = [args.duration * (i + 1) / (len(restarts) + 1) for i in range(len(restarts))]
        last_line = 0.0
        # Every restart asked for happens, even when a slow one (a loaded machine) has used up the duration.
        while (elapsed := soak.now() - began) < args.duration or restart_at:
            progress.update(job, completed=min(elapsed, args.duration))
            if restart_at and elapsed >= restart_at[0]:
                restart_at.pop(0)
                how = restarts.pop(0)
                progress.console.print(f"{elapsed:5.0f} s  restarting the server ({how})")
                await soak.restart(how)
                progress.console.print(f"{elapsed:5.0f} s  {describe_stop(soak.stops[-1])}")
            if elapsed - last_line >= args.every:
                last_line = elapsed
                progress.console.print(line(soak, elapsed))
            await asyncio.sleep(0.5)
        progress.remove_task(job)
        progress.console.print(line(soak, soak.now() - began))

        # The end: stop, start once more, every spectator catches up with what was stored, then all stops.
        progress.console.print("the end: stopping the server (term), starting it again, catching up")
        stored = await soak.restart("term")
        progress.console.print(f"          {describe_stop(soak.stops[-1])}")
        behind = await catch_up(soak, stored)
        soak.finish.set()
        await asyncio.gather(*clients)
        sampler.cancel()
        await soak.stop("term")
        del soak.stops[-1]["stored_not_seen"]  # the spectators had left: the bots played on without them
    assert soak.server is not None
    log = soak.server.log.read_text(errors="replace")
    tracebacks, error_lines = log.count("Traceback"), sum(1 for ln in log.splitlines() if ln.startswith("ERROR"))
    if tracebacks or error_lines:
        soak.tally.error("server_log")
    checked = await asyncio.to_thread(check_tables, soak.db, soak.watches, soak.tally)
    return report(soak, args, behind, checked, tracebacks, error_lines)


async def catch_up(soak: Soak, stored: dict[str, int]) -> int:
    """Wait until every spectator has seen what its table had stored while the server was down; the
    spectators still behind after ``CATCH_UP_S`` seconds."""
    deadline = time.monotonic() + CATCH_UP_S
    while True:
        behind = [w for w in soak.watches if (w.seen or 0) < stored.get(w.table_id, 0)]
        if not behind or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.25)
    if behind:
        soak.tally.error("not_caught_up")
    return len(behind)


def table_ids(db: Path, tokens: list[str]) -> list[str]:
    with contextlib.closing(sqlite3.connect(db, timeout=30)) as connection:
        found = dict(connection.execute("SELECT spectator_token, id FROM tables").fetchall())
    return [found.get(t, "") for t in tokens]


def describe_stop(stop: dict[str, Any]) -> str:
    return (
        f"server stopped by {stop['how']} in {stop['stop_s']} s (exit {stop['exit_code']}), "
        f"{stop['actions_stored']:,} actions stored, up again after {stop.get('down_s')} s"
    )


def line(soak: Soak, elapsed: float) -> str:
    seen = soak.seen()
    rss = soak.rss[-1][2] if soak.rss else 0.0
    p99 = percentile(soak.tally.rtts_ms[-2000:], 0.99)
    errors = sum(soak.tally.errors.values())
    return (
        f"{elapsed:5.0f} s  {len(soak.watches)} tables  {seen:,} actions seen  "
        f"{soak.tally.messages:,} messages  {sum(w.drops for w in soak.watches):,} drops  "
        f"{len(soak.stops)} restarts  RSS {rss:.1f} MB  ping p99 {p99 or 0:.1f} ms  errors {errors}"
    )


def report(
    soak: Soak, args: argparse.Namespace, behind: int, checked: dict[str, Any], tracebacks: int, error_lines: int
) -> dict[str, Any]:
    watches = soak.watches
    mem = memory(soak, args.warmup)
    slopes = [p["bytes_per_action"] for p in mem["processes"] if p.get("judged")]
    if slopes and max(slopes) > args.max_bytes_per_action:
        soak.tally.error("memory_growth")
    seen = sum((w.seen or 0) - (w.first or 0) for w in watches)
    return {
        "tables": args.tables,
        "duration_s": args.duration,
        "restarts": [{k: v for k, v in s.items() if k != "at_monotonic"} for s in soak.stops],
        "actions_seen": seen,
        "actions_per_s": round(seen / max(1.0, soak.now()), 1),
        "spectators_joined_late": sum(1 for w in watches if (w.first or 0) > 0),
        "connections": sum(w.connections for w in watches),
        "drops": sum(w.drops for w in watches),
        "resumes": sum(w.resumes for w in watches),
        "events_dropped_unconfirmed": sum(w.dropped_unconfirmed for w in watches),
        "spectators_behind_after_catch_up": behind,
        **checked,
        "messages": soak.tally.messages,
        "by_type": soak.tally.by_type,
        "pings": len(soak.tally.rtts_ms),
        "ping_p50_ms": _round(percentile(soak.tally.rtts_ms, 0.5)),
        "ping_p99_ms": _round(percentile(soak.tally.rtts_ms, 0.99)),
        "server_tracebacks": tracebacks,
        "server_error_lines": error_lines,
        "max_bytes_per_action": args.max_bytes_per_action,
        "memory": mem,
        "errors": dict(soak.tally.errors),
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200, help="live tables")
    parser.add_argument("--duration", type=float, default=600.0, help="seconds of play before the end's checks")
    parser.add_argument(
        "--restarts", default="term,kill", help="restarts spread over the run, in order: term (SIGTERM), kill (SIGKILL)"
    )
    parser.add_argument("--drop-every", type=float, default=60.0, help="seconds a spectator stays on, on average")
    parser.add_argument("--warmup", type=float, default=60.0, help="seconds after a start left out of the memory slope")
    parser.add_argument(
        "--max-bytes-per-action",
        type=float,
        default=1024,
        help="most RSS growth allowed after warm-up, per action seen",
    )
    parser.add_argument("--sample-every", type=float, default=5.0, help="seconds between RSS samples")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between progress lines")
    parser.add_argument("--seed", type=int, default=1, help="seed of the drops' timing")
    parser.add_argument("--out", type=Path, help="write every figure as JSON here")
    args = parser.parse_args(argv)
    bad = {r for r in args.restarts.split(",") if r} - {"term", "kill"}
    if bad:
        parser.error(f"--restarts takes term and kill, not {', '.join(sorted(bad))}")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    result: dict[str, Any] = {"load_average_start": load_average()}
    with tempfile.TemporaryDirectory(prefix="liverpool-soak-") as folder:
        result.update(asyncio.run(run(args, Path(folder))))
    result["load_average_end"] = load_average()
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=2) + "\n")
    summary = {k: v for k, v in result.items() if k not in ("memory", "by_type")}
    console.print(json.dumps(summary, indent=None))
    for process in result["memory"]["processes"]:
        console.print(f"server process {process['process']}: {process}")
    if result["errors"]:
        console.print(f"[red]FAILED[/red]: {result['errors']}")
        return 1
    console.print("no errors, no action lost")
    return 0


if __name__ == "__main__":
    sys.exit(main())
