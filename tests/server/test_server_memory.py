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
from typing import Any, TypeVar

import httpx
import pytest
import uvicorn
from server_fixtures import (
    STARTUP_S,
    TWO_SHORT_DEALS,
    Client,
    ServerProcess,
    action_seqs,
    free_port,
    my_move,
    past,
    simple_choice,
)
from sqlalchemy import insert

from liverpool.engine.actions import action_to_dict
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.game.legal import is_chance, legal_actions
from liverpool.engine.observe import observe
from liverpool.engine.play import chance_action
from liverpool.engine.rules.presets import find_preset
from liverpool.engine.state import GameState
from liverpool.server.actor import TableActor
from liverpool.server.app import create_app
from liverpool.server.loading import load
from liverpool.server.models import ActionRow
from liverpool.server.schemas import TableOptions
from liverpool.server.settings import Settings
from liverpool.server.storage import PLAYING, NewSeat, Storage

Start = Callable[..., ServerProcess]
T = TypeVar("T")
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


def alive(kind: type[T]) -> list[T]:
    """The objects of ``kind`` alive in this process."""
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, kind)]


def live(kind: type, besides: list[Any] | None = None) -> int:
    """How many objects of ``kind`` are alive in this process, not counting those of ``besides`` (objects
    that were alive before the server started: an earlier test in the same worker process may have left
    one in an engine cache, such as the last buy window ``liverpool.engine.play`` holds; ``besides`` keeps
    them alive, so no new object can take one's ``id``)."""
    old = {id(o) for o in besides or ()}
    return sum(id(o) not in old for o in alive(kind))


@pytest.mark.slow
def test_idle_tables_are_unloaded_and_memory_returns(sqlite_url: str) -> None:
    """2,000 tables in play are loaded (each by a spectator who comes and goes); once they are all
    left alone, no table actor and no game state is left in the server's memory, and the memory its
    Python objects take is back within 10% of what it was after the first 100 tables (plus the
    engine's memo caches, which hold at most 64 rulesets' shoes and meld rules whatever the number of
    tables). Kept in memory, 2,000 tables in play would take some 100 MB more (about 53 KB each)."""
    spectators = stored_games(sqlite_url, WARMUP + TABLES)
    earlier = alive(GameState) + alive(TableActor)
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
            assert live(TableActor, earlier) == 0 and live(GameState, earlier) == 0, "an idle table is still in memory"
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


def finished_views(db: str, table_id: str, seats: int) -> dict[int | None, dict[str, Any]]:
    """Each viewer's observation of the game rebuilt from the stored log (spectators under None)."""
    storage = Storage(db)
    try:
        loaded = load(storage, table_id)
    finally:
        storage.close()
    assert loaded is not None and loaded.state is not None and loaded.state.is_over
    return {seat: observe(loaded.state, seat).to_client_dict() for seat in (None, *range(seats))}


def test_finished_games_hold_no_engine_state_in_memory(sqlite_url: str) -> None:
    """Once a game is over, its table keeps each viewer's last view and nothing of the engine: with a
    spectator and the player still looking at the results, no ``GameState`` is alive in the server's
    process; they are shown the game's end as the engine has it, actions and hints are refused with
    ``game_over``, table talk and a rematch still work. The same when the finished table is loaded again
    from the database for a spectator who comes later."""
    earlier = alive(GameState) + alive(TableActor)
    with server_in_this_process(sqlite_url) as ws:
        http = ws.replace("ws://", "http://")
        answer = httpx.post(
            f"{http}/api/tables",
            json={
                "seats": 3,
                "rules": TWO_SHORT_DEALS,
                "bots": {"1": "random", "2": "random"},
                "bot_pace_ms": 0,
                "next_deal_timeout_s": 0,
                "away_timeout_s": 0,
            },
            timeout=10,
        )
        assert answer.status_code == 201, answer.text
        created = answer.json()
        joined = httpx.post(f"{http}/api/invite/{created['invite']}/join", json={"seat": 0, "name": "Ada"}, timeout=10)
        token = joined.json()["seat_token"]
        with Client(f"{ws}/ws/watch/{created['spectator']}") as watcher, Client(f"{ws}/ws/play/{token}") as me:
            while True:
                state = me.current(lambda s: my_move(s) or s["observation"]["phase"] == "game_over", 60)
                if state["observation"]["phase"] == "game_over":
                    break
                me.send({"type": "action", "action": simple_choice(state), "seq": state["seq"]})
                me.state_where(past(state["seq"]), 60)
            end = watcher.state_where(lambda s: s["observation"]["phase"] == "game_over")
            me.quiet()
            watcher.quiet()
            assert live(TableActor, earlier) == 1, "the table is in memory while it is looked at"
            assert live(GameState, earlier) == 0, "a finished game keeps its engine state in memory"
            stored = action_seqs(sqlite_url, created["table_id"])
            me.send({"type": "action", "action": {"type": "draw_stock", "seat": 0}, "seq": end["seq"]})
            assert me.until(lambda m: m["type"] == "error")["reason"] == "game_over"
            me.send({"type": "hint"})
            assert me.until(lambda m: m["type"] == "error")["reason"] == "game_over"
            assert action_seqs(sqlite_url, created["table_id"]) == stored
            me.send({"type": "chat", "text": "good game"})
            assert watcher.until(lambda m: m["type"] == "chat")["text"] == "good game"
            truth = finished_views(sqlite_url, created["table_id"], 3)
            assert end["observation"] == truth[None]
            assert me.state is not None and me.state["observation"] == truth[0] and me.state["legal"] == []
        del truth
        time.sleep(0.5)  # nobody looks any more: the table leaves memory
        assert live(TableActor, earlier) == 0
        with Client(f"{ws}/ws/watch/{created['spectator']}") as later:
            again = later.state_where(lambda s: True)
            later.quiet()
            assert live(TableActor, earlier) == 1 and live(GameState, earlier) == 0, (
                "a finished table loaded again holds no game"
            )
            assert again["observation"] == end["observation"] and again["seq"] == end["seq"]
            assert [e["seq"] for e in later.events][-1] == end["seq"] - 1, "the last events are shown"
        # A rematch is made from a finished table (the new table's game then starts: a GameState again).
        with Client(f"{ws}/ws/watch/{created['spectator']}") as watcher:
            watcher.state_where(lambda s: True)
            rematch = httpx.post(f"{http}/api/seat/{token}/rematch", json={}, timeout=10)
            assert rematch.status_code == 200, rematch.text
            assert watcher.state_where(lambda s: s["rematch"])["seq"] == end["seq"]
            (table,) = [a for a in alive(TableActor) if a.id == created["table_id"]]
            assert table.state is None and table.final is not None
