"""The guided first game (issue 30, item 6): a table set up from the tutorial's position (the engine's
position API), whose state explains each step and names the control to highlight, through drawing, going
down, a joker swap, a lay-off and the discard; stored with its position, so it survives a restart, and
undo works from it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server_fixtures import Client, ServerProcess

Start = Callable[..., ServerProcess]


def _do(me: Client, state: dict[str, Any], kind: str) -> dict[str, Any]:
    """Play the seat's first legal action of ``kind``; the next state."""
    me.act(next(a for a in state["legal"] if a["type"] == kind))
    return me.state_where(lambda s: s["seq"] == state["seq"] + 1)


def test_the_tutorial_explains_each_step_and_survives_a_restart(start_server: Start, sqlite_url: str) -> None:
    server = start_server(sqlite_url)
    answer = server.post("/api/tutorial")
    assert answer.status_code == 201, answer.text
    token = answer.json()["seat_token"]
    with server.player(token) as me:
        state = me.state_where(lambda s: s["observation"] is not None)
        assert state["observation"]["deal"] == 1 and state["observation"]["current"] == 0, "the position's deal"
        assert state["tutorial"]["key"] == "draw" and state["tutorial"]["highlight"] == "take-discard"
        assert "6♥" in state["tutorial"]["text"]
        # the page says the step in its language from the code and these words (docs/i18n.md)
        assert state["tutorial"]["params"] == {"card": "6H", "penalty": 1, "contract": ["set 3", "run 4"]}
        taken = _do(me, state, "draw_discard")
        assert taken["tutorial"]["key"] == "go_down" and "set 3 and run 4" in taken["tutorial"]["text"]
        me.send({"type": "undo"})
        again = me.state_where(lambda s: s["seq"] == state["seq"])
        assert again["observation"] == state["observation"], "undo from a position-started game"
        taken = _do(me, again, "draw_discard")
        down = _do(me, taken, "go_down")
        assert down["tutorial"]["key"] == "swap"
    server.kill()
    server = start_server(sqlite_url)
    with server.player(token) as me:
        resumed = me.state_where(lambda s: True)
        assert resumed["observation"] == down["observation"], "the position and the log are stored"
        swapped = _do(me, resumed, "swap_joker")
        assert swapped["tutorial"]["key"] == "lay_off"
        laid = _do(me, swapped, "lay_off")
        while laid["tutorial"]["key"] == "lay_off":
            laid = _do(me, laid, "lay_off")
        assert laid["tutorial"]["key"] == "discard" and laid["tutorial"]["highlight"] == "discard-button"


def test_an_ordinary_table_has_no_tutorial(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0)
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.player(token) as me:
        assert me.state_where(lambda s: s["observation"] is not None)["tutorial"] is None
