"""Durability on SQLite and PostgreSQL: a server killed with ``kill -9`` and started again on the same
database resumes every table exactly where it was, and the stored log is one action per sequence
number per table."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from server_fixtures import ServerProcess, action_seqs, my_move, play_moves
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError

from liverpool.server.storage import database_url

Start = Callable[[str], ServerProcess]


def test_a_killed_server_resumes_every_table_where_it_was(db_url: str, start_server: Start) -> None:
    server = start_server(db_url)
    created = server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=0)
    token = server.join(created["invite"], 0, "Ada")
    bots_only = server.create(seats=3, bots={"0": "random", "1": "random", "2": "random"}, bot_pace_ms=200)
    with server.player(token) as me:
        play_moves(me, 8)
        me.quiet(0.5)
        before = me.current(my_move)
    with server.spectator(bots_only["spectator"]) as watcher:
        watcher.state_where(lambda s: s["seq"] > 5)
    server.kill()

    server = start_server(db_url)
    with server.player(token) as me:
        after = me.state_where(lambda s: True)
        assert after["seq"] == before["seq"]
        assert after["observation"] == before["observation"]
        assert after["legal"] == before["legal"]
        assert after["names"] == before["names"]
        assert me.events[-1]["seq"] == before["seq"] - 1, "the table log is sent again"
        play_moves(me, 4)
        assert me.state is not None and me.state["seq"] > before["seq"]
    with server.spectator(bots_only["spectator"]) as watcher:
        resumed = watcher.state_where(lambda s: True)["seq"]
        watcher.state_where(lambda s: s["seq"] > resumed + 3)
    for table in (created, bots_only):
        seqs = action_seqs(db_url, table["table_id"])
        assert seqs == list(range(len(seqs)))


def test_the_database_refuses_a_second_action_at_one_place_in_the_log(db_url: str, start_server: Start) -> None:
    server = start_server(db_url)
    created = server.create(seats=3, bots={"0": "random", "1": "random", "2": "random"}, bot_pace_ms=0)
    with server.spectator(created["spectator"]) as watcher:
        watcher.state_where(lambda s: s["seq"] > 3)
    server.stop()
    engine = create_engine(database_url(db_url))
    try:
        with pytest.raises(IntegrityError), engine.begin() as connection:
            connection.execute(
                text("INSERT INTO actions (table_id, seq, action) VALUES (:t, 1, :a)"),
                {"t": created["table_id"], "a": '{"type": "draw_stock", "seat": 0}'},
            )
    finally:
        engine.dispose()
