"""Bounded memory (issue 26, item 12): a table nobody is connected to, with no timer pending, is
unloaded from the server's memory and loaded again from the database when someone comes back."""

from __future__ import annotations

import gc
import os
import random
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest
import uvicorn
from server_fixtures import STARTUP_S, Client, ServerProcess, free_port, my_move, past, simple_choice
from sqlalchemy import insert

from liverpool.engine.actions import action_to_dict
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.game.legal import is_chance, legal_actions
from liverpool.engine.play import chance_action
from liverpool.engine.rules.presets import find_preset
from liverpool.engine.state import GameState
from liverpool.server.actor import TableActor
from liverpool.server.app import create_app
from liverpool.server.models import ActionRow
from liverpool.server.schemas import TableOptions
from liverpool.server.settings import Settings
from liverpool.server.storage import PLAYING, NewSeat, Storage

Start = Callable[..., ServerProcess]
TABLES = int(os.environ.get("LIVERPOOL_MEMORY_TABLES", "2000"))
WARMUP = 100
PARALLEL = 8
MOVES = 30
MEMO_CACHES = 1 << 20


@contextmanager
def server_in_this_process(db: str) -> Iterator[str]:
    """``liverpool serve``'s application under uvicorn, in a thread of this process (so that
    :mod:`tracemalloc` sees its memory); yields its websocket address."""
    port = free_port()
    config = uvicorn.Config(create_app(db, Settings(connections_per_client=0)), port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_S
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"ws://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def traced_after_settling() -> int:
    """The memory Python holds (traced by :mod:`tracemalloc`) once the unloads are done."""
    last = -1
    while True:
        time.sleep(0.5)
        gc.collect()
        now = tracemalloc.get_traced_memory()[0]
        if abs(now - last) < 64 * 1024:
            return now
        last = now


def stored_games(db: str, count: int, moves: int = MOVES) -> list[str]:
    """``count`` tables of three humans in the middle of a game (a deal and ``moves`` moves stored),
    written straight to the database; returns their spectator tokens."""
    rules = find_preset("liverpool")
    rng = random.Random(26)
    state = new_game(rules, 3, 0)
    log = []
    while len(log) < moves + 1:
        action = chance_action(state, rng) if is_chance(state) else rng.choice(legal_actions(state))
        apply(state, action)
        log.append(action_to_dict(action))
    storage = Storage(db)
    storage.migrate()
    options = TableOptions(away_timeout_s=0, bot_pace_ms=0).model_dump()
    spectators = []
    try:
        for _ in range(count):
            info = storage.create_table(rules.to_dict(), 0, options, [NewSeat() for _ in range(3)])
            for seat, name in enumerate(("Ann", "Bob", "Cy")):
                storage.claim_seat(info.id, seat, name)
            storage.set_status(info.id, PLAYING)
            with storage.engine.begin() as connection:
                connection.execute(
                    insert(ActionRow), [{"table_id": info.id, "seq": n, "action": a} for n, a in enumerate(log)]
                )
            spectators.append(info.spectator)
    finally:
        storage.close()
    return spectators


def look_at(ws: str, spectator: str) -> int:
    """Connect as a spectator, read the table's state, leave; returns its seq."""
    with Client(f"{ws}/ws/watch/{spectator}") as watcher:
        state = watcher.state_where(lambda s: True)
        return int(state["seq"])


def live(kind: type) -> int:
    """How many objects of ``kind`` are alive in this process."""
    gc.collect()
    return sum(isinstance(o, kind) for o in gc.get_objects())


@pytest.mark.slow
def test_idle_tables_are_unloaded_and_memory_returns(sqlite_url: str) -> None:
    """2,000 tables in play are loaded (each by a spectator who comes and goes); once they are all
    left alone, no table actor and no game state is left in the server's memory, and the memory its
    Python objects take is back within 10% of what it was after the first 100 tables (plus the
    engine's memo caches, which hold at most 64 rulesets' shoes and meld rules whatever the number of
    tables). Kept in memory, 2,000 tables in play would take some 100 MB more (about 53 KB each)."""
    spectators = stored_games(sqlite_url, WARMUP + TABLES)
    tracemalloc.start()
    try:
        with server_in_this_process(sqlite_url) as ws, ThreadPoolExecutor(PARALLEL) as pool:
            assert set(pool.map(partial(look_at, ws), spectators[:WARMUP])) == {MOVES + 1}
            start = traced_after_settling()
            seqs = list(pool.map(partial(look_at, ws), spectators[WARMUP:]))
            assert seqs == [MOVES + 1] * TABLES, "every table was loaded from its stored log"
            end = traced_after_settling()
            peak = tracemalloc.get_traced_memory()[1]
            print(f"Python heap: {start >> 10} KiB after {WARMUP} tables, {end >> 10} KiB after {TABLES} more")
            assert live(TableActor) == 0 and live(GameState) == 0, "an idle table is still in memory"
            assert end <= start * 1.10 + MEMO_CACHES, f"{start >> 10} KiB at first, {end >> 10} KiB after {TABLES}"
            assert peak > start, "the measure sees the tables while they are loaded"
            assert look_at(ws, spectators[0]) == MOVES + 1, "an unloaded table is loaded again on demand"
    finally:
        tracemalloc.stop()


def test_an_unloaded_table_is_loaded_again_and_play_goes_on(sqlite_url: str, start_server: Start) -> None:
    """A table whose players have all left (no bot, no away deadline) is dropped from memory; when a
    player comes back it is rebuilt from the database exactly as it was, and play continues."""
    server = start_server(sqlite_url)
    created = server.create(seats=3, away_timeout_s=0)
    tokens = [server.join(created["invite"], seat, name) for seat, name in enumerate(("Ann", "Bob", "Cy"))]
    for _ in range(12):
        watched = look_at_state(server, created["spectator"])
        seat = mover(watched["observation"])
        with server.player(tokens[seat]) as me:
            before = me.state_where(lambda s: True)
        time.sleep(0.3)  # nobody is connected and no timer runs: the table is unloaded
        with server.player(tokens[seat]) as me:
            again = me.state_where(lambda s: True)
            for key in ("seq", "observation", "legal", "names"):
                assert again[key] == before[key], key
            assert my_move(again)
            me.act(simple_choice(again))
            me.state_where(past(again["seq"]))
            assert not me.errors, me.errors
    assert watch(server, created["spectator"]) >= 13
    assert "Traceback" not in server.logged()


def watch(server: ServerProcess, spectator: str) -> int:
    return look_at(server.ws, spectator)


def look_at_state(server: ServerProcess, spectator: str) -> dict[str, Any]:
    with server.spectator(spectator) as watcher:
        return watcher.state_where(lambda s: True)


def mover(observation: dict[str, Any]) -> int:
    """The seat that must act now: the first silent seat of a buy window, else the current player."""
    if observation["phase"] == "buy":
        answered = {s for s, _ in observation["window_answers"]}
        return int(next(s for s in observation["window"] if s not in answered))
    return int(observation["current"])
