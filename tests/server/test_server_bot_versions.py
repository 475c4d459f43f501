"""A table stores the version of each bot seat when its game starts, and each bot seat's style (issue 29,
item 4): a real server process, a real websocket player, a real database (SQLite and PostgreSQL). The
versions come back from the table's API answer and from its game record; tables and records from before
(migration 0008, no ``meta.bot_versions``) still load."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from server_fixtures import ServerProcess, my_move, next_deal_waits_for_me, old_waiting_table, simple_choice, upgrade_to
from sqlalchemy import text

from liverpool.bots.registry import version_of
from liverpool.engine import GameRecord
from liverpool.server import storage as storage_module

Start = Callable[..., ServerProcess]
ONE_DEAL = {"deals": [{"contract": ["set 3", "set 3"], "hand_size": 7}]}


def play_to_the_end(server: ServerProcess, token: str, timeout: float = 120.0) -> None:
    """The simple player at ``token``'s seat until the game is over."""
    deadline = time.monotonic() + timeout
    with server.player(token) as me:
        while time.monotonic() < deadline:
            me.quiet(0.2)
            state = me.state
            if state is not None and state["status"] == "over":
                return
            if state is None or not my_move(state):
                continue
            if next_deal_waits_for_me(state):
                me.send({"type": "next_deal"})
            else:
                me.send({"type": "action", "action": simple_choice(state), "seq": state["seq"]})
    pytest.fail(f"the game did not end within {timeout}s")


def stored_seats(db: str, table_id: str) -> list[tuple[Any, ...]]:
    engine = storage_module.make_engine(db)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT seat, bot, bot_style, bot_version FROM seats WHERE table_id = :t ORDER BY seat"),
                {"t": table_id},
            )
            return [tuple(r) for r in rows]
    finally:
        engine.dispose()


@pytest.mark.slow  # a whole deal with a websocket player: 13-28 s on a loaded machine
def test_a_table_stores_the_versions_its_bots_played(start_server: Start, db_url: str) -> None:
    server = start_server(db_url)
    created = server.create(
        rules=ONE_DEAL,
        seats=3,
        bots={"0": "easy", "1": "medium"},
        styles={"0": "aggressive", "1": "balanced"},
        bot_pace_ms=0,
    )
    table = created["table_id"]
    before = server.get(f"/api/tables/{table}").json()
    assert before["status"] == "waiting"
    assert before["bots"] == [
        {"seat": 0, "bot": "easy", "style": "aggressive", "version": None},
        {"seat": 1, "bot": "medium", "style": "balanced", "version": None},
    ], "no version before the game starts"
    assert stored_seats(db_url, table) == [
        (0, "easy", "aggressive", None),
        (1, "medium", None, None),
        (2, None, None, None),
    ]

    token = server.join(created["invite_url"].rsplit("/", 1)[1], 2, "Ada")
    play_to_the_end(server, token)

    played = [
        {"seat": 0, "bot": "easy", "style": "aggressive", "version": version_of("easy")},
        {"seat": 1, "bot": "medium", "style": "balanced", "version": version_of("medium")},
    ]
    answer = server.get(f"/api/tables/{table}").json()
    assert answer["status"] == "over" and answer["bots"] == played
    invite = server.get(created["invite_url"].replace("/join/", "/api/invite/")).json()
    assert invite["bots"] == played
    assert stored_seats(db_url, table) == [
        (0, "easy", "aggressive", version_of("easy")),
        (1, "medium", None, version_of("medium")),
        (2, None, None, None),
    ]
    record = GameRecord.from_json(server.get(f"/api/tables/{table}/record").text)
    assert record.meta["bot_versions"] == played
    replayed = server.post("/api/replay", record.to_dict())
    assert replayed.status_code == 200 and replayed.json()["meta"]["bot_versions"] == played


def test_an_old_record_without_versions_still_loads(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(rules=ONE_DEAL, seats=3, bots={"0": "easy", "1": "easy", "2": "easy"}, bot_pace_ms=0)
    table = created["table_id"]
    deadline = time.monotonic() + 120
    while (answer := lobby_server.get(f"/api/tables/{table}/record")).status_code != 200:
        assert time.monotonic() < deadline, answer.text
        time.sleep(0.3)
    record = GameRecord.from_json(answer.text)
    assert [b["version"] for b in record.meta["bot_versions"]] == [version_of("easy")] * 3
    old = GameRecord(record.rules, record.seats, record.first_dealer, record.actions, {"seed": 1})
    replayed = lobby_server.post("/api/replay", old.to_dict())
    assert replayed.status_code == 200, replayed.text
    assert "bot_versions" not in replayed.json()["meta"]


@pytest.mark.parametrize(
    ("bots", "styles", "reason", "words"),
    [
        ({"1": "medium"}, {"1": "bold"}, "unknown_style", "seat 1: no style named 'bold'; styles: cautious, balanced"),
        ({"1": "random"}, {"1": "aggressive"}, "unknown_style", "bot 'random' has no style 'aggressive'"),
        ({"1": "easy"}, {"2": "cautious"}, "style_without_bot", "a style for seat 2, which has no bot"),
    ],
)
def test_a_bad_style_is_refused_by_name(
    lobby_server: ServerProcess, bots: dict[str, str], styles: dict[str, str], reason: str, words: str
) -> None:
    answer = lobby_server.post("/api/tables", {"seats": 3, "bots": bots, "styles": styles})
    assert answer.status_code == 422, answer.text
    error = answer.json()
    assert error["reason"] == reason and words in error["message"], error
    assert error["field"] == "styles"


def test_presets_list_each_levels_styles(lobby_server: ServerProcess) -> None:
    data = lobby_server.get("/api/presets").json()
    assert data["styles"] == ["cautious", "balanced", "aggressive"] and data["default_style"] == "balanced"
    assert data["bot_styles"]["random"] == ["balanced"]
    assert data["bot_styles"]["medium"] == ["cautious", "balanced", "aggressive"]


def test_migration_0008_keeps_older_tables_with_no_style_or_version(start_server: Start, db_url: str) -> None:
    """A database at 0007 with a bot table gets ``seats.bot_style`` and ``seats.bot_version`` (both null for
    its rows); a server then answers for that table with the style ``balanced`` and no version."""
    engine = storage_module.make_engine(db_url)
    try:
        upgrade_to(engine, "0007")
        assert "bot_version" not in {c["name"] for c in sa.inspect(engine).get_columns("seats")}
        old_waiting_table(engine, [(None, "medium", None), (None, None, None), (None, None, None)])
        storage_module.migrate(engine)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0008"
        columns = {c["name"]: c for c in sa.inspect(engine).get_columns("seats")}
        assert columns["bot_style"]["nullable"] and columns["bot_version"]["nullable"]
    finally:
        engine.dispose()
    assert stored_seats(db_url, "old") == [(0, "medium", None, None), (1, None, None, None), (2, None, None, None)]
    server = start_server(db_url)
    answer = server.get("/api/tables/old").json()
    assert answer["bots"] == [{"seat": 0, "bot": "medium", "style": "balanced", "version": None}]
    assert server.get("/api/invite/inv").json()["bots"] == answer["bots"]
