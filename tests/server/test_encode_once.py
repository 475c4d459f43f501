"""Encode once (issue 27, item 3): a message for many clients is encoded once, and each gets the same text.

A table of bots plays at full speed in a real :class:`~liverpool.server.hub.Hub` on a SQLite file, with
two spectators and a client of seat 0 attached; what the actor put in their outboxes is compared (an
event, or a delta of the spectators' view, is one text object for both spectators). And a
real ``liverpool serve`` does not compress frames (permessage-deflate would compress each again for
each client), even for a client that asks.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from server_fixtures import ServerProcess

from liverpool.engine import find_preset
from liverpool.server.hub import Hub
from liverpool.server.messages import Client
from liverpool.server.storage import NewSeat, Storage

SHARED = 20


def drained(client: Client) -> list[str]:
    """What the actor sent ``client``, up to its closing."""
    out = []
    while not client.outbox.empty():
        text = client.outbox.get_nowait()
        if text is None:
            break
        out.append(text)
    return out


def test_every_spectator_gets_the_same_encoded_text(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'tables.db'}")
    storage.migrate()
    rules = find_preset("liverpool").to_dict()
    info = storage.create_table(rules, 0, {"bot_pace_ms": 0}, [NewSeat(bot="random")] * 4)
    first, second, seat0 = Client(None), Client(None), Client(0)

    async def watch() -> None:
        hub = Hub(storage)
        actor = await hub.actor(info.id)
        assert actor is not None
        for client in (first, second, seat0):
            actor.attach(client)
        while second.outbox.qsize() < 4 * SHARED:
            await asyncio.sleep(0.02)
        await hub.close()

    try:
        asyncio.run(watch())
    finally:
        storage.close()
    a, b, mine = drained(first), drained(second), drained(seat0)
    tail = min(len(a), len(b), len(mine)) - 4
    assert tail >= SHARED
    assert all(x is y for x, y in zip(a[-tail:], b[-tail:], strict=True)), "each spectator's copy was encoded apart"
    events = [(x, y) for x, y in zip(a[-tail:], mine[-tail:], strict=True) if json.loads(x)["type"] == "event"]
    assert events and all(x is y for x, y in events), "an event is the same text for spectators and players"
    pairs = [(json.loads(x), json.loads(y)) for x, y in zip(a[-tail:], mine[-tail:], strict=True)]
    assert {x["type"] for x, _ in pairs} == {"event", "delta"}, "after the first state, only what changed"
    assert any(x["type"] == "delta" and x["patch"] != y["patch"] for x, y in pairs), "seat 0's deltas are its own"


def test_the_server_sends_frames_uncompressed(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={"0": "random", "1": "random", "2": "random"})
    with lobby_server.spectator(created["spectator"]) as spectator:
        assert spectator.connection.protocol.extensions == [], "permessage-deflate was negotiated"
        message = json.loads(spectator.connection.recv(timeout=10))
        assert message["type"] in ("state", "event")
