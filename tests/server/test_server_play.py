"""Play over websockets against a real server: views, refusals, bots, away players, buy deadlines,
records and rematches (docs/protocol.md)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from server_fixtures import ServerProcess, action_seqs, my_move, play_moves
from websockets.exceptions import ConnectionClosed

from liverpool.engine.record import GameRecord, replay

GAME_S = 120.0


def _finished(server: ServerProcess, table_id: str, timeout: float = GAME_S) -> GameRecord:
    """Wait for the end of a game, then download its record."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = server.get(f"/api/tables/{table_id}/record")
        if answer.status_code == 200:
            assert answer.headers["content-disposition"] == f'attachment; filename="liverpool-{table_id}.json"'
            return GameRecord.from_json(answer.text)
        assert answer.status_code == 409, answer.text
        time.sleep(0.2)
    pytest.fail(f"the game at {table_id} did not end within {timeout}s")


def test_a_bots_only_game_at_full_speed_replays_to_its_totals(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(preset="may-i", seats=4, bots={str(s): "random" for s in range(4)}, bot_pace_ms=0)
    record = _finished(lobby_server, created["table_id"])
    # A spectator that came in at the end: one that read nothing during a whole game at full speed
    # would have been closed as too slow (1013) once its outbox was full.
    with lobby_server.spectator(created["spectator"]) as watcher:
        final = watcher.state_where(lambda s: s["status"] == "over")
    state = replay(record)
    assert state.is_over
    assert list(state.totals) == final["observation"]["totals"]
    assert record.seats == [f"bot {s} (random)" for s in range(4)]
    assert action_seqs(lobby_server.db, created["table_id"]) == list(range(len(record.actions)))


def test_a_spectator_never_sees_a_hand(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=1)
    with lobby_server.spectator(created["spectator"]) as watcher:
        first = watcher.state_where(lambda s: True)
        assert first["status"] == "waiting" and first["observation"] is None
        assert first["rules"]["name"] == "liverpool"
        lobby_server.join(created["invite"], 0, "Ada")
        watcher.state_where(lambda s: s["status"] == "over", GAME_S)
    states = watcher.states
    assert len(states) > 100
    for state in states:
        assert state["seat"] is None
        assert state["legal"] == []
        if state["observation"] is not None:
            assert state["observation"]["hand"] == []
            assert state["observation"]["viewer"] is None
    assert any(0 in s["away"] for s in states), "the absent player's seat was played by a bot"
    record = _finished(lobby_server, created["table_id"])
    assert record.seats[0] == "Ada"
    assert [e["seq"] for e in watcher.events] == list(range(watcher.events[0]["seq"], len(record.actions)))


def test_a_player_sees_only_their_own_hand(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=0)
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.player(token) as me:
        state = me.state_where(lambda s: s["observation"] is not None and s["observation"]["hand"] != [])
        obs = state["observation"]
        assert state["seat"] == 0 and obs["viewer"] == 0
        assert state["names"] == ["Ada", None, None] and state["bots"] == [None, "random", "random"]
        assert all(a["seat"] == 0 for a in state["legal"])
        assert len(obs["hand"]) == obs["seats"][0]["hand_count"]
        serialized = json.dumps(me.received)
        assert '"hands"' not in serialized and '"stock":' not in serialized


def test_bad_messages_get_an_error_and_change_nothing(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=60_000, away_timeout_s=0)
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.player(token) as me:
        me.state_where(lambda s: s["observation"] is not None)
        me.quiet()
        assert me.state is not None
        state = me.state
        obs = state["observation"]
        my_turn = obs["current"] == 0
        absent = next(c for c in ["2C", "3D", "4H", "5S", "6C", "7D", "8H", "9S"] if c not in obs["hand"])
        bad: list[tuple[Any, str]] = [
            ("not json", "malformed"),
            ({"type": "shout"}, "malformed"),
            ({"type": "action"}, "malformed"),
            ({"type": "action", "action": {"type": "discard", "card": "ZZ"}}, "malformed"),
            ({"type": "action", "action": {"type": "teleport"}}, "malformed"),
            ({"type": "action", "action": {"type": "shuffle", "deck": [], "cut": 0}}, "malformed"),
            ({"type": "action", "action": {"type": "draw_stock", "seat": 1}}, "not_your_seat"),
            # (seat 0 to draw: discarding is wrong in the draw phase; another seat's turn: not seat 0's)
            (
                {"type": "action", "action": {"type": "discard", "card": absent}},
                "wrong_phase" if my_turn else "not_your_turn",
            ),
            ({"type": "action", "action": {"type": "pass"}}, "wrong_phase"),
        ]
        if not my_turn:
            bad.append(({"type": "action", "action": {"type": "draw_stock"}}, "not_your_turn"))
        for message, reason in bad:
            me.send(message if isinstance(message, str) else json.dumps(message))
            answer = me.receive()
            assert answer["type"] == "error", (message, answer)
            assert answer["reason"] == reason, (message, answer)
            me.send({"type": "ping"})
            assert me.receive() == {"type": "pong"}, "nothing else was sent: the table did not change"
    with lobby_server.player(token) as again:
        after = again.state_where(lambda s: True)
        assert after["seq"] == state["seq"]
        assert after["observation"] == state["observation"]
        assert after["legal"] == state["legal"]


def test_spectators_cannot_act_and_unknown_links_are_refused(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={"0": "random", "1": "random", "2": "random"}, bot_pace_ms=60_000)
    with lobby_server.spectator(created["spectator"]) as watcher:
        watcher.state_where(lambda s: True)
        watcher.act({"type": "draw_stock"})
        assert watcher.until(lambda m: m["type"] == "error")["reason"] == "spectator"
    for path in ("/ws/play/nobody", "/ws/watch/nobody"):
        with lobby_server.connect(path) as stranger:
            assert stranger.receive()["reason"] == "unknown_token"
            with pytest.raises(ConnectionClosed) as closed:
                stranger.receive()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


def test_a_human_plays_against_bots_then_gets_a_rematch(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=1)
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.player(token) as me:
        play_moves(me, 6)
        assert me.state is not None and me.state["away"] == []
    record = _finished(lobby_server, created["table_id"])
    first = lobby_server.post(f"/api/seat/{token}/rematch")
    assert first.status_code == 200, first.text
    again = lobby_server.post(f"/api/seat/{token}/rematch").json()
    assert again == first.json()
    rematch = first.json()
    assert rematch["table_id"] != created["table_id"]
    mine = lobby_server.get(f"/api/my-tables?tokens={token},{rematch['seat_token']}").json()["tables"]
    assert [t["table_id"] for t in mine] == [created["table_id"], rematch["table_id"]]
    assert mine[0]["rematch"] is True
    assert mine[1]["names"] == ["Ada", "bot 1 (random)", "bot 2 (random)"]
    assert mine[1]["status"] == "playing"
    assert record.seats[0] == "Ada"


def test_a_silent_player_passes_when_the_buy_window_closes(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(
        seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=0, buy_timeout_s=1
    )
    token = lobby_server.join(created["invite"], 0, "Ada")

    def offered(state: dict[str, Any]) -> bool:
        obs = state["observation"]
        return obs is not None and obs["phase"] == "buy" and 0 in obs["window"] and state["deadline"] is not None

    with lobby_server.player(token) as me:
        deadline = time.monotonic() + GAME_S
        while True:
            assert time.monotonic() < deadline, "never offered a buy that was left to time out"
            state = me.current(lambda s: my_move(s) or offered(s))
            if not offered(state):
                play_moves(me, 1)
                continue
            assert 0 < state["deadline"] <= 1
            assert {a["type"] for a in state["legal"]} == {"buy", "pass"}
            opened, seen = time.monotonic(), len(me.events)
            me.state_where(lambda s: not offered(s), timeout=5)
            if any(e["text"].startswith("Ada passes") for e in me.events[seen:]):
                break  # else an earlier seat in the window bought first, which closes it
        assert time.monotonic() - opened > 0.5


def test_an_away_player_is_played_by_a_bot_until_they_come_back(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=300, away_timeout_s=1)
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.spectator(created["spectator"]) as watcher:
        with lobby_server.player(token) as me:
            me.state_where(lambda s: s["observation"] is not None)
            watcher.state_where(lambda s: s["connected"] == [0])
        gone = watcher.state_where(lambda s: s["away"] == [0], timeout=10)
        assert gone["connected"] == []
        moved = watcher.until(lambda m: m["type"] == "event" and m["text"].startswith("Ada "), timeout=30)
        assert moved["seq"] >= gone["seq"]
        with lobby_server.player(token) as me:
            back = me.state_where(lambda s: True)
            assert back["away"] == [] and back["connected"] == [0]
        watcher.state_where(lambda s: s["away"] == [] and s["connected"] == [0])
