"""The pause under a deal's summary and the turn clock, over websockets against a real server
(docs/protocol.md, "Between deals" and "The turn clock")."""

from __future__ import annotations

from typing import Any

from server_fixtures import TWO_SHORT_DEALS, ServerProcess, my_move, next_deal_waits_for_me, past, simple_choice

GAME_S = 60.0


def _play_to_the_deal_end(me: Any) -> dict[str, Any]:
    """Play seat 0 simply until the first deal's summary is up; returns that state."""
    while True:
        state = me.current(lambda s: my_move(s) or s["next_deal"] is not None, GAME_S)
        if state["next_deal"] is not None:
            return state
        me.act(simple_choice(state))
        me.state_where(past(state["seq"]), GAME_S)


def _play_to_the_end(me: Any) -> dict[str, Any]:
    """Play seat 0 simply (and press Next deal) until the game is over; returns that state."""
    while True:
        state = me.current(lambda s: s["observation"]["phase"] == "game_over" or my_move(s), GAME_S)
        if state["observation"]["phase"] == "game_over":
            return state
        if next_deal_waits_for_me(state):
            me.send({"type": "next_deal"})
        else:
            me.act(simple_choice(state))
        me.state_where(past(state["seq"]), GAME_S)


def test_the_next_deal_waits_until_every_connected_player_has_read_the_summary(lobby_server: ServerProcess) -> None:
    """RULES.md §6 scoring: the hands are laid open; the table holds the next deal's shuffle meanwhile."""
    created = lobby_server.create(
        seats=3, rules=TWO_SHORT_DEALS, bots={"1": "random", "2": "random"}, bot_pace_ms=0, next_deal_timeout_s=600
    )
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.spectator(created["spectator"]) as watcher, lobby_server.player(token) as me:
        held = _play_to_the_deal_end(me)
        obs = held["observation"]
        assert obs["phase"] == "deal" and len(obs["results"]) == 1
        assert held["next_deal"]["waiting"] == [0] and 0 < held["next_deal"]["deadline"] <= 600
        assert held["legal"] == [] and held["deadline"] is None and held["clock"] is None
        result = obs["results"][0]
        assert len(result["hands"]) == 3 and len(result["points"]) == 3 and result["reason"]
        me.quiet(1.0)
        assert me.state is not None and me.state["seq"] == held["seq"], "no shuffle, bot move or buy window"
        assert me.state["observation"]["window"] == [] and me.state["observation"]["phase"] == "deal"
        seen = watcher.state_where(lambda s: s["next_deal"] is not None)
        assert seen["observation"]["results"][0] == result, "a spectator sees the same summary"
        watcher.send({"type": "next_deal"})
        assert watcher.until(lambda m: m["type"] == "error")["reason"] == "spectator"
        assert next_deal_waits_for_me(me.state)
        me.send({"type": "next_deal"})
        dealt = me.state_where(lambda s: s["observation"]["deal"] == 1 and s["observation"]["phase"] != "deal")
        assert dealt["next_deal"] is None and dealt["clock"] is not None
        me.send({"type": "next_deal"})
        assert me.until(lambda m: m["type"] == "error")["reason"] == "no_pause"


def test_the_next_deal_starts_by_itself_when_its_time_runs_out(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(
        seats=3, rules=TWO_SHORT_DEALS, bots={"1": "random", "2": "random"}, bot_pace_ms=0, next_deal_timeout_s=1
    )
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.player(token) as me:
        held = _play_to_the_deal_end(me)
        assert held["next_deal"]["waiting"] == [0]
        dealt = me.state_where(lambda s: s["observation"]["deal"] == 1, timeout=10)
        assert dealt["next_deal"] is None
        over = _play_to_the_end(me)
    # RULES.md §6 scoring: the melds of a deal's result are the table as the deal left it, as the engine's
    # replay of the game record shows it after the action that ended each deal.
    results = over["observation"]["results"]
    steps = lobby_server.get(f"/api/tables/{created['table_id']}/replay").json()["steps"]
    for deal, result in enumerate(results):
        left = next(step["table"] for step in steps if len(step["table"]["results"]) > deal)
        assert result["melds"] == left["melds"], f"deal {deal + 1}"
    assert any(result["melds"] for result in results), "no deal left a meld on the table"


def test_a_turn_past_the_tables_time_limit_is_played_by_the_away_bot(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(
        seats=3,
        bots={"1": "random", "2": "random"},
        bot_pace_ms=0,
        turn_limit_s=1,
        away_timeout_s=0,
        buy_timeout_s=1,
    )
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.player(token) as me:
        mine = me.current(lambda s: s["observation"] is not None and s["observation"]["current"] == 0 and my_move(s))
        clock = mine["clock"]
        assert clock["seat"] == 0 and clock["elapsed"] >= 0 and 0 < clock["left"] <= 1 and not clock["expired"]
        played = me.until(lambda m: m["type"] == "event" and m["text"].startswith("Ada "), timeout=15)
        assert played["seq"] >= mine["seq"], "Ada's turn was played for her while she sat connected"
        assert me.state is not None and me.state["away"] == [] and me.state["connected"] == [0]
