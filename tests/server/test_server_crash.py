"""Crash-safe on both stores (issue 26, item 6): ``kill -9`` at random points of live games.

Several tables play at once (bots at full speed, and a table where a human plays through a real
websocket as fast as it can); the server is killed with SIGKILL after a random pause, several times,
on SQLite and on PostgreSQL. After each restart, for every table:

- the stored log has one action per sequence number, and replays through the engine;
- nothing any client saw before the kill is missing from the log (an action is stored before it is
  broadcast), and what was stored matches what was broadcast;
- the restarted server's state for it (seen by a spectator and by the human seat) equals the
  engine's observation of the game rebuilt from the log, action for action;
- bots go on playing by themselves, and the human's moves are played.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from server_fixtures import Client, ServerProcess, action_seqs, my_move, next_deal_waits_for_me, simple_choice
from websockets.exceptions import ConnectionClosed

from liverpool.bots.registry import make_bot
from liverpool.engine.actions import action_from_dict, action_to_dict
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.game.legal import is_chance, legal_actions
from liverpool.engine.observe import observe
from liverpool.engine.play import step
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import GameState
from liverpool.server.storage import Storage

Start = Callable[..., ServerProcess]
KILLS = int(os.environ.get("LIVERPOOL_CRASH_KILLS", "3"))


def stored_log(db: str, table_id: str) -> tuple[GameState, list[dict[str, Any]]]:
    """A table's first state (its ruleset, seats and dealer) and its stored log of actions."""
    storage = Storage(db)
    try:
        info = storage.table(table_id)
        assert info is not None
        log = storage.actions(table_id)
    finally:
        storage.close()
    state = new_game(Ruleset.from_dict(info.ruleset), info.seat_count, info.first_dealer)
    return state, log


def rebuilt(db: str, table_id: str, upto: int | None = None) -> tuple[GameState, int]:
    """The game of a table rebuilt from its stored log, or its first ``upto`` actions (every action
    checked by the engine); and how many actions there are."""
    state, log = stored_log(db, table_id)
    assert upto is None or upto <= len(log), f"seq {upto} was shown, but only {len(log)} actions are stored"
    for raw in log[:upto]:
        action = action_from_dict(raw)
        apply(state, action)
        assert action_to_dict(action) == raw
    return state, len(log)


class Human(threading.Thread):
    """A player who makes the simple player's move whenever it is theirs, until the connection dies."""

    def __init__(self, server: ServerProcess, token: str) -> None:
        super().__init__(daemon=True)
        self.client = server.player(token)
        self.seen = 0

    def run(self) -> None:
        try:
            while True:
                message = self.client.receive(timeout=30)
                if message["type"] == "state":
                    self.seen = max(self.seen, message["seq"])
                    if next_deal_waits_for_me(message):
                        self.client.send({"type": "next_deal"})
                    elif my_move(message):
                        self.client.send({"type": "action", "action": simple_choice(message), "seq": message["seq"]})
        except (ConnectionClosed, TimeoutError, OSError):
            return


class Watcher(threading.Thread):
    """A spectator that remembers the highest seq it was shown and every event text by seq."""

    def __init__(self, server: ServerProcess, spectator: str) -> None:
        super().__init__(daemon=True)
        self.client = server.spectator(spectator)
        self.seen = 0
        self.events: dict[int, str] = {}

    def run(self) -> None:
        try:
            while True:
                message = self.client.receive(timeout=30)
                if message["type"] == "state":
                    self.seen = max(self.seen, message["seq"])
                elif message["type"] == "event":
                    self.events[message["seq"]] = message["text"]
        except (ConnectionClosed, TimeoutError, OSError):
            return


def state_of(client: Client) -> dict[str, Any]:
    client.quiet(0.3)
    return client.current(lambda s: s["observation"] is not None)


@pytest.mark.slow
def test_a_server_killed_at_random_points_loses_nothing(db_url: str, start_server: Start) -> None:
    rng = random.Random(int(os.environ.get("LIVERPOOL_CRASH_SEED", "6")))
    server = start_server(db_url, env={"LIVERPOOL_TABLES_PER_MINUTE": "0"})
    tables = [
        server.create(seats=seats, bots={str(s): "random" for s in range(seats)}, bot_pace_ms=0) for seats in (3, 4, 5)
    ]
    mixed = server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=0)
    token = server.join(mixed["invite"], 0, "Ada")
    tables.append(mixed)
    for kill in range(KILLS):
        human = Human(server, token)
        watchers = [Watcher(server, t["spectator"]) for t in tables]
        for thread in (human, *watchers):
            thread.start()
        time.sleep(rng.uniform(0.3, 2.5))
        server.kill()
        for thread in (human, *watchers):
            thread.join(timeout=40)
        server = start_server(db_url, env={"LIVERPOOL_TABLES_PER_MINUTE": "0"})
        for table, watcher in zip(tables, watchers, strict=True):
            stored = rebuilt(db_url, table["table_id"])[1]
            seqs = action_seqs(db_url, table["table_id"])
            assert seqs == list(range(len(seqs))) and len(seqs) >= stored
            assert watcher.seen <= stored, f"kill {kill}: a spectator saw seq {watcher.seen}, only {stored} stored"
            with server.spectator(table["spectator"]) as spectator:
                after = state_of(spectator)
                state = rebuilt(db_url, table["table_id"], after["seq"])[0]
                assert after["observation"] == observe(state, None).to_client_dict()
                assert after["seq"] >= stored
                for event in spectator.events:
                    if event["seq"] in watcher.events:
                        assert event["text"] == watcher.events[event["seq"]], "the log differs from what was shown"
        assert human.seen <= rebuilt(db_url, mixed["table_id"])[1]
        with server.player(token) as me:
            now = state_of(me)
            state = rebuilt(db_url, mixed["table_id"], now["seq"])[0]
            assert now["observation"] == observe(state, 0).to_client_dict()
            assert now["legal"] == [action_to_dict(a) for a in legal_actions(state) if a.seat == 0]
    # play goes on after the last restart: the bots by themselves, the human with them
    for table in tables[:-1]:
        before = rebuilt(db_url, table["table_id"])[1]
        if not rebuilt(db_url, table["table_id"])[0].is_over:
            with server.spectator(table["spectator"]) as spectator:
                spectator.state_where(lambda s, b=before: s["seq"] > b + 3 or s["status"] == "over", timeout=60)
    human = Human(server, token)
    human.start()
    before = rebuilt(db_url, mixed["table_id"])[1]
    deadline = time.monotonic() + 60
    while rebuilt(db_url, mixed["table_id"])[1] < before + 6 and not rebuilt(db_url, mixed["table_id"])[0].is_over:
        assert time.monotonic() < deadline, "the mixed table did not go on after the restart"
        time.sleep(0.5)
    human.client.close()
    assert "Traceback" not in server.logged()


def bot_choices_replayed(db: str, table_id: str, names: list[str]) -> int:
    """Replay a table's stored log with bots that play it through from the start, never restarted, asked
    as the engine asks seats (:func:`~liverpool.engine.play.step`); every stored bot action must be what
    they choose there. How many actions were checked."""
    state, log = stored_log(db, table_id)
    veterans = [make_bot(name) for name in names]
    checked = 0
    for seq, raw in enumerate(log):
        action = action_from_dict(raw)
        if not is_chance(state):
            chosen = step(state.clone(), veterans, random.Random(seq))
            assert chosen == action, f"seq {seq}: the stored action is {action!r}, the bots playing on chose {chosen!r}"
            checked += 1
        apply(state, action)
    return checked


@pytest.mark.slow
def test_bots_resume_with_the_memory_they_would_have_had(db_url: str, start_server: Start) -> None:
    """Issue 26, item 6. Bots keep no memory between decisions: each decides from its seat's observation
    and the table's random source, which is the operating system's (no stream for a restart to reset),
    and ``easy`` and ``medium`` draw nothing from it. So a table of ``medium`` and ``easy`` bots killed
    with ``kill -9`` in the middle of a game and started again must go on exactly as bots that never
    stopped would have: every bot action in its stored log, before and after the kill, is the one that
    bots playing the stored game through from its start choose at that moment
    (``tests/bots/test_bot_memory.py`` shows the same for every bot at every decision)."""
    names = ["medium", "easy", "medium", "easy"]
    server = start_server(db_url)
    table = server.create(seats=4, bots={str(s): n for s, n in enumerate(names)}, bot_pace_ms=0)
    deadline = time.monotonic() + 60
    while len(action_seqs(db_url, table["table_id"])) < 150:
        assert time.monotonic() < deadline, "the bots did not play 150 actions within 60 s"
        time.sleep(0.05)
    server.kill()
    killed_at = len(action_seqs(db_url, table["table_id"]))
    server = start_server(db_url)
    deadline = time.monotonic() + 90
    while (stored := rebuilt(db_url, table["table_id"]))[1] < killed_at + 300 and not stored[0].is_over:
        assert time.monotonic() < deadline, f"the bots did not go on after the restart (at {stored[1]} of {killed_at})"
        time.sleep(0.2)
    server.stop()
    after = rebuilt(db_url, table["table_id"])[1]
    checked = bot_choices_replayed(db_url, table["table_id"], names)
    assert after > killed_at and checked > 0
    print(f"killed at {killed_at} stored actions; {after} stored at the end; {checked} bot actions checked")
    assert "Traceback" not in server.logged()
