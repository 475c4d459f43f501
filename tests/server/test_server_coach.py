"""The coach at the server's tables (issue 30, items 3 and 4), over real websockets to a real server:
a hint measured in the worker pool from the seat's observation (and the table told that it was taken),
hints turned off by a table option, and undo against bots (refused where a card was shown since, and at a
table with other people), stored so that it survives a restart."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from server_fixtures import Client, ServerProcess, my_move, past
from sqlalchemy import create_engine, text

from liverpool.engine import GameRecord, Ruleset, action_from_dict, replay, snapshot
from liverpool.server.storage import database_url

Start = Callable[..., ServerProcess]
BOTS = {"1": "random", "2": "random"}


def _my_draw(me: Client, timeout: float = 60) -> dict[str, Any]:
    """The next state where this seat must draw (its turn, draw phase), passing in buy windows till then."""
    while True:
        state = me.current(my_move, timeout)
        if state["observation"]["phase"] == "draw" and state["next_deal"] is None:
            me.quiet(0.2)
            if me.state is state:
                return state
            continue
        if state["observation"]["phase"] != "buy":
            raise AssertionError(f"waiting for a draw, and the seat must do something else: {state['legal']}")
        me.act({"type": "pass"})
        me.state_where(past(state["seq"]), timeout)


def _stored_snapshot(db: str, table_id: str) -> tuple[int, str]:
    """The number of stored actions of a table and the engine's snapshot of the game they replay to."""
    engine = create_engine(database_url(db))
    try:
        with engine.connect() as connection:
            table = connection.execute(
                text("SELECT ruleset, seat_count, first_dealer FROM tables WHERE id = :t"), {"t": table_id}
            ).one()
            rows = connection.execute(
                text("SELECT action FROM actions WHERE table_id = :t ORDER BY seq"), {"t": table_id}
            ).all()
    finally:
        engine.dispose()
    ruleset, seats, dealer = table
    actions = [action_from_dict(json.loads(r[0]) if isinstance(r[0], str) else r[0]) for r in rows]
    rules = Ruleset.from_dict(json.loads(ruleset) if isinstance(ruleset, str) else ruleset)
    state = replay(GameRecord(rules, [f"s{i}" for i in range(seats)], dealer, actions))
    return len(actions), snapshot(state)


# -- hints (item 3) ---------------------------------------------------------------------------------


def test_a_hint_goes_to_its_seat_and_the_table_hears_it_was_taken(start_server: Start, sqlite_url: str) -> None:
    server = start_server(sqlite_url, env={"LIVERPOOL_HINT_WORLDS": "4", "LIVERPOOL_COACH_WORKERS": "1"})
    created = server.create(seats=3, bots=BOTS, bot_pace_ms=0, away_timeout_s=0)
    token = server.join(created["invite"], 0, "Ada")
    with server.player(token) as me, server.spectator(created["spectator"]) as watcher:
        state = _my_draw(me)
        me.send({"type": "hint"})
        hint = me.until(lambda m: m["type"] in ("hint", "error"), timeout=60)
        assert hint["type"] == "hint", hint
        assert hint["seq"] == state["seq"]
        assert hint["option"] in state["legal"], "the hint is one of the seat's legal options"
        assert hint["text"] and hint["reason"], "the best option in words, and why"
        assert hint["words"]["key"].startswith("advice.do.") and hint["reason_words"]["key"].startswith("advice.")
        assert hint["margin"] is None or hint["margin"] >= 0
        assert len(hint["options"]) >= 2 and hint["options"][0]["expected"] <= hint["options"][1]["expected"]
        note = watcher.until(lambda m: m["type"] == "note", timeout=20)
        assert note["kind"] == "hint" and note["seat"] == 0 and "Ada took a hint" in note["text"]
        assert "reason" not in note and hint["reason"] not in note["text"], "the others do not read the hint"
        watcher.send({"type": "hint"})
        refused = watcher.until(lambda m: m["type"] == "error")
        assert refused["reason"] == "spectator"
    with server.spectator(created["spectator"]) as later:
        later.state_where(lambda s: True)
        assert any(m["type"] == "note" and m["kind"] == "hint" for m in later.received), "the note is in the log"


def test_a_table_created_with_hints_off_refuses_them(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots=BOTS, bot_pace_ms=0, away_timeout_s=0, hints=False)
    assert lobby_server.get(f"/api/invite/{created['invite']}").json()["options"]["hints"] is False, "stored"
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.player(token) as me:
        _my_draw(me)
        me.send({"type": "hint"})
        refused = me.until(lambda m: m["type"] in ("error", "hint"))
        assert refused["type"] == "error" and refused["reason"] == "hints_off", refused
        assert "turned off" in refused["message"]


def test_another_table_is_answered_while_a_hint_is_measured(start_server: Start, sqlite_url: str) -> None:
    """The hint is measured off the actors (a worker process): a table's actions are answered meanwhile.
    With the coach run on the event loop instead, the other table's answer comes after the hint."""
    server = start_server(sqlite_url, env={"LIVERPOOL_HINT_WORLDS": "400", "LIVERPOOL_COACH_WORKERS": "1"})
    first = server.create(seats=3, bots=BOTS, bot_pace_ms=0, away_timeout_s=0)
    second = server.create(seats=3, bots=BOTS, bot_pace_ms=0, away_timeout_s=0)
    with (
        server.player(server.join(first["invite"], 0, "Ada")) as asker,
        server.player(server.join(second["invite"], 0, "Bo")) as other,
    ):
        _my_draw(asker)
        state = _my_draw(other)
        asker.send({"type": "hint"})
        asker.quiet(0.3)
        other.act({"type": "draw_stock"})
        other.state_where(lambda s: s["seq"] > state["seq"], timeout=20)
        asker.quiet(0.1)
        assert not [m for m in asker.received if m["type"] in ("hint", "error")], "answered before the hint"
        hint = asker.until(lambda m: m["type"] in ("hint", "error"), timeout=240)
        assert hint["type"] == "hint", hint


# -- undo against bots (item 4) -------------------------------------------------------------------


def test_undo_restores_the_state_exactly_and_survives_a_restart(start_server: Start, db_url: str) -> None:
    server = start_server(db_url)
    created = server.create(seats=3, bots=BOTS, bot_pace_ms=0, away_timeout_s=0)
    table = created["table_id"]
    token = server.join(created["invite"], 0, "Ada")
    with server.player(token) as me:
        before = _my_draw(me)
        me.quiet(0.3)
        stored = _stored_snapshot(db_url, table)
        assert stored[0] == before["seq"]
        me.act({"type": "draw_discard", "depth": 1})  # shows no card Ada had not seen
        me.state_where(lambda s: s["seq"] == before["seq"] + 1)
        me.send({"type": "undo"})
        back = me.state_where(lambda s: s["seq"] == before["seq"])
        assert back["observation"] == before["observation"] and back["legal"] == before["legal"]
        note = me.until(lambda m: m["type"] == "note") if not _has_note(me, "undo") else _note(me, "undo")
        assert note["at"] == before["seq"] and "Ada takes back: Ada takes" in note["text"], note
    assert _stored_snapshot(db_url, table) == stored, "the stored log is the game before the decision, exactly"
    server.kill()
    server = start_server(db_url)
    with server.player(token) as me:
        again = me.state_where(lambda s: True)
        assert again["seq"] == before["seq"] and again["observation"] == before["observation"]
        assert _has_note(me, "undo"), "the take-back is in the log after a restart"
        me.act({"type": "draw_stock"})
        me.state_where(lambda s: s["seq"] == before["seq"] + 1)
        assert not me.errors


def test_undo_takes_back_the_bots_moves_after_the_decision(start_server: Start, sqlite_url: str) -> None:
    """Each bot moves 3 s after the last action: a take-back sent after the first of them takes it back too."""
    server = start_server(sqlite_url)
    created = server.create(seats=3, bots=BOTS, bot_pace_ms=3000, away_timeout_s=0, buy_timeout_s=30)
    token = server.join(created["invite"], 0, "Ada")
    with server.player(token) as me:
        start = _my_draw(me)
        me.act({"type": "draw_discard", "depth": 1})
        play = me.state_where(lambda s: s["seq"] == start["seq"] + 1)
        discard = next(a for a in play["legal"] if a["type"] == "discard")
        me.act(discard)
        me.state_where(lambda s: s["seq"] == play["seq"] + 1)
        me.state_where(lambda s: s["seq"] == play["seq"] + 2, timeout=30)  # a bot's move after the discard
        me.send({"type": "undo"})
        back = me.state_where(lambda s: s["seq"] == play["seq"], timeout=20)
        assert back["observation"] == play["observation"], "the discard and the bot's move after it are taken back"
        assert not me.errors, me.errors


def test_undo_is_refused_after_a_stock_card_was_shown(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots=BOTS, bot_pace_ms=0, away_timeout_s=0)
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.player(token) as me:
        before = _my_draw(me)
        me.act({"type": "draw_stock"})
        # (the upcard may first be offered to the others: the card comes once they have passed)
        held = len(before["observation"]["hand"])
        drawn = me.state_where(lambda s: len(s["observation"]["hand"]) > held)
        me.send({"type": "undo"})
        refused = me.until(lambda m: m["type"] == "error")
        assert refused["reason"] == "card_shown", refused
        assert "shown to you since" in refused["message"]
        me.quiet(0.3)
        assert me.state is not None and me.state["seq"] == drawn["seq"], "nothing changed"


def test_undo_is_refused_at_a_table_with_other_people(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={"2": "random"}, bot_pace_ms=0, away_timeout_s=0)
    ada = lobby_server.join(created["invite"], 0, "Ada")
    bo = lobby_server.join(created["invite"], 1, "Bo")
    with lobby_server.player(ada) as me, lobby_server.player(bo) as them:
        me.state_where(lambda s: s["observation"] is not None)
        them.state_where(lambda s: s["observation"] is not None)
        for client in (me, them):
            client.send({"type": "undo"})
            refused = client.until(lambda m: m["type"] == "error")
            assert refused["reason"] == "not_against_bots", refused
        assert "Bo also play" in me.errors[-1]["message"]


def _has_note(client: Client, kind: str) -> bool:
    return any(m["type"] == "note" and m["kind"] == kind for m in client.received)


def _note(client: Client, kind: str) -> dict[str, Any]:
    return next(m for m in client.received if m["type"] == "note" and m["kind"] == kind)


ONE_DEAL = {"deals": [{"contract": ["set 3", "set 3"], "hand_size": 7}]}


def test_the_record_keeps_the_undone_actions_and_the_replay_shows_them(start_server: Start, sqlite_url: str) -> None:
    """Ada takes the discard and takes it back, then leaves: a bot plays her seat (away after 1 s) to the end of
    the one-deal game. The record's ``meta.undone`` keeps the action taken back and the replay narrates it where
    it was played."""
    server = start_server(sqlite_url)
    created = server.create(rules=ONE_DEAL, seats=3, bots=BOTS, bot_pace_ms=0, away_timeout_s=1)
    table = created["table_id"]
    with server.player(server.join(created["invite"], 0, "Ada")) as me:
        before = _my_draw(me)
        taken = next(a for a in before["legal"] if a["type"] == "draw_discard")
        me.act(taken)
        me.state_where(lambda s: s["seq"] == before["seq"] + 1)
        me.send({"type": "undo"})
        me.state_where(lambda s: s["seq"] == before["seq"])
        if not _has_note(me, "undo"):
            me.until(lambda m: m["type"] == "note" and m["kind"] == "undo")
    deadline = time.monotonic() + 180
    while (answer := server.get(f"/api/tables/{table}/record")).status_code != 200:
        assert time.monotonic() < deadline, f"the game did not end: {answer.json()}"
        time.sleep(0.3)
    record = GameRecord.from_json(answer.text)
    assert record.meta["undone"] == [{"at": before["seq"], "seat": 0, "actions": [{**taken, "seat": 0}]}]
    shown = server.get(f"/api/tables/{table}/replay").json()["undone"]
    assert len(shown) == 1 and shown[0]["at"] == before["seq"] and shown[0]["seat"] == 0, shown
    assert shown[0]["lines"] and shown[0]["lines"][0].startswith("Ada takes"), shown
