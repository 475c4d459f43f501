"""Where a table's bots think (issue 27, item 6): the quick bots (``medium`` here) decide on the event
loop, sparing a hop to a worker thread and back each decision; ``hard`` decides in a worker thread, and
so does a quick bot's seat from the decision after one that took longer than ``QUICK_LIMIT_S``.

The table's real bots are wrapped to note the thread each decision ran on (and, for one seat, to take
longer once); a table of bots plays at full speed in a real :class:`~liverpool.server.hub.Hub`."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

from liverpool.engine import Action, Agent, Observation, find_preset
from liverpool.server.actor import QUICK_LIMIT_S
from liverpool.server.hub import Hub
from liverpool.server.messages import Client
from liverpool.server.storage import NewSeat, Storage

SLOW_SEAT = 2  # its bot takes longer than the limit at its first decision
DECISIONS = 6  # each seat's, at least


class Noted:
    """A bot that notes, for each decision, whether it ran on the event loop's thread."""

    def __init__(self, bot: Agent, loop_thread: int, slow_once: bool = False) -> None:
        self.bot = bot
        self.loop_thread = loop_thread
        self.slow_once = slow_once
        self.on_loop: list[bool] = []

    def __call__(self, observation: Observation, options: list[Action], rng: Any) -> Action | None:
        self.on_loop.append(threading.get_ident() == self.loop_thread)
        if self.slow_once:
            self.slow_once = False
            time.sleep(QUICK_LIMIT_S * 1.5)
        return self.bot(observation, options, rng)


def decisions(tmp_path: Path, bots: list[str], slow_seat: int | None = None) -> dict[int, list[bool]]:
    """Play a table of ``bots`` until every seat has decided ``DECISIONS`` times: each seat's on-loop notes."""
    storage = Storage(f"sqlite:///{tmp_path / 'tables.db'}")
    storage.migrate()
    rules = find_preset("liverpool").to_dict()
    info = storage.create_table(rules, 0, {"bot_pace_ms": 0}, [NewSeat(bot=b) for b in bots])
    noted: dict[int, Noted] = {}

    async def play() -> None:
        hub = Hub(storage)
        actor = await hub.actor(info.id)
        assert actor is not None
        for seat, bot in list(actor.agents.items()):
            noted[seat] = actor.agents[seat] = Noted(bot, threading.get_ident(), seat == slow_seat)
        actor.attach(Client(None))
        deadline = time.monotonic() + 120
        while min(len(n.on_loop) for n in noted.values()) < DECISIONS and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        await hub.close()

    try:
        asyncio.run(play())
    finally:
        storage.close()
    return {seat: n.on_loop for seat, n in noted.items()}


def test_medium_bots_decide_on_the_loop_and_a_slow_seat_moves_to_a_thread(tmp_path: Path) -> None:
    seen = decisions(tmp_path, ["medium"] * 4, slow_seat=SLOW_SEAT)
    assert all(len(notes) >= DECISIONS for notes in seen.values()), seen
    for seat, notes in seen.items():
        if seat == SLOW_SEAT:
            assert notes[0] and not any(notes[1:]), f"seat {seat}: after a slow decision, a worker thread"
        else:
            assert all(notes), f"seat {seat}'s medium bot left the event loop"


def test_hard_bots_decide_in_a_worker_thread(tmp_path: Path) -> None:
    seen = decisions(tmp_path, ["hard", "medium", "hard", "medium"])
    assert not any(seen[0] + seen[2]), "a hard bot decided on the event loop"
    assert all(seen[1] + seen[3]), "a medium bot left the event loop"
