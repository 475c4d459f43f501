"""Away players (issue 26, item 8): the time at which a bot takes over an away player's seat is stored
in the database, so a restart neither forgets it nor starts it again; the player takes the seat back
with their link; and a human may call "May I?" even when bots play at full speed. (``test_server_play.py``
has the bot playing for an away player until they return.)"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from server_fixtures import ServerProcess, my_move, simple_choice
from sqlalchemy import create_engine, text

from liverpool.server.storage import database_url

Start = Callable[..., ServerProcess]
AWAY_S = 10


def away_at(db: str, table_id: str, seat: int) -> datetime | None:
    engine = create_engine(database_url(db))
    try:
        with engine.connect() as connection:
            row = connection.execute(
                text("SELECT away_at FROM seats WHERE table_id = :t AND seat = :s"), {"t": table_id, "s": seat}
            ).one()
    finally:
        engine.dispose()
    value = row[0]
    if isinstance(value, str):  # SQLite
        value = datetime.fromisoformat(value)
    return value if value is None or value.tzinfo is not None else value.replace(tzinfo=UTC)


def wait_for(check: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"not so within {seconds}s")
        time.sleep(0.2)


@pytest.mark.slow
def test_away_deadlines_are_stored_and_survive_a_restart(db_url: str, start_server: Start) -> None:
    server = start_server(db_url)
    created = server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=300, away_timeout_s=AWAY_S)
    table = created["table_id"]
    token = server.join(created["invite"], 0, "Ada")
    with server.player(token) as me:
        me.state_where(lambda s: s["observation"] is not None)
        assert away_at(db_url, table, 0) is None, "no deadline while the player is here"
    left = time.monotonic()
    wait_for(lambda: away_at(db_url, table, 0) is not None)
    deadline = away_at(db_url, table, 0)
    assert deadline is not None
    assert 0 < (deadline - datetime.now(UTC)).total_seconds() <= AWAY_S
    server.kill()
    time.sleep(max(0.0, left + AWAY_S + 1 - time.monotonic()))

    # The deadline passed while the server was down: after the restart the seat is played by a bot
    # at once (a timer started afresh would wait another AWAY_S seconds).
    server = start_server(db_url)
    with server.spectator(created["spectator"]) as watcher:
        away = watcher.state_where(lambda s: s["away"] == [0], timeout=AWAY_S / 2)
        watcher.state_where(lambda s: s["seq"] > away["seq"] + 3, timeout=30)
    assert away_at(db_url, table, 0) == deadline, "the deadline is kept while the player is away"

    # The player comes back with their link and has the seat again; the deadline is cleared.
    with server.player(token) as me:
        back = me.state_where(lambda s: s["away"] == [] and 0 in s["connected"])
        assert back["seat"] == 0
        wait_for(lambda: away_at(db_url, table, 0) is None)
    assert "Traceback" not in server.logged()


@pytest.mark.slow
def test_a_human_gets_a_may_i_window_when_bots_play_at_pace_0(lobby_server: ServerProcess) -> None:
    """RULES.md §3 buying: who, when ("May I?" before the next player draws, `may-i` preset): with
    bots at full speed, a connected human who may call it still has time to, answering after a
    second as a person would, each time the chance comes."""
    created = lobby_server.create(
        preset="may-i", seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=0
    )
    token = lobby_server.join(created["invite"], 0, "Ada")
    calls = 0
    deadline = time.monotonic() + 120
    with lobby_server.player(token) as me:
        while calls < 3:
            assert time.monotonic() < deadline, f"only {calls} chances to call May I in 120 s"
            state = me.current(lambda s: s["observation"] is not None and bool(s["legal"]), timeout=60)
            me.quiet(0.05)
            state = me.state or state
            if any(a["type"] == "buy" for a in state["legal"]):
                time.sleep(1.0)
                me.act({"type": "buy"})
                seq = state["seq"]
                called = me.until(lambda m, q=seq: m["type"] == "error" or (m["type"] == "state" and m["seq"] > q))
                assert called["type"] == "state", f"the May I came too late: {called}"
                obs = called["observation"]
                assert 0 in obs["may_i_calls"] or obs["seats"][0]["buys"] > 0, "a bot moved before the May I"
                calls += 1
            elif my_move(state):
                me.act(simple_choice(state))
                me.state_where(lambda s, q=state["seq"]: s["seq"] > q)
