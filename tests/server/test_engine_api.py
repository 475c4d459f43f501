"""What the browser asks the engine through the server instead of working it out (issue 25.4): buys left,
meld labels, drafts of a going-down, and replays at every step. Real server, real websockets."""

from __future__ import annotations

import time
from typing import Any

import httpx
from server_fixtures import ServerProcess
from test_server_coach import _my_draw

from liverpool.engine import GameRecord, Ruleset, find_preset, replay

ONE_DEAL = {"deals": [{"contract": ["set 3", "set 3"], "hand_size": 7}]}


def _over(server: ServerProcess, table_id: str, timeout: float = 120.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = server.get(f"/api/tables/{table_id}/record")
        if answer.status_code == 200:
            return answer.text
        time.sleep(0.2)
    raise AssertionError(f"the game at {table_id} did not end within {timeout}s")


def test_the_view_says_how_many_buys_are_left(lobby_server: ServerProcess) -> None:
    """RULES.md §3.15 buying: limits: 3 per player per deal (004)."""
    created = lobby_server.create(preset="british", seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=50)
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.player(token) as ada:
        view = ada.state_where(lambda s: s["observation"] is not None and s["observation"]["phase"] != "deal")
    obs = view["observation"]
    assert obs["buys_allowed"] == find_preset("british").buy_limit_for(obs["deal"]) == 3
    assert [s["buys_left"] for s in obs["seats"]] == [3 - s["buys"] for s in obs["seats"]]


def test_a_draft_is_checked_by_the_engine(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=5000)
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.player(token) as ada:
        ada.state_where(lambda s: s["observation"] is not None and s["observation"]["phase"] != "deal")
    answer = lobby_server.post(f"/api/seat/{token}/draft", {"slots": [["7H", "7S", "JK"], ["9C", "9D"]]})
    assert answer.status_code == 200, answer.text
    draft: dict[str, Any] = answer.json()
    assert [m["rule"] for m in draft["melds"]] == ["set 3", "set 3"]
    assert draft["melds"][0]["label"] == "set of 7s" and draft["melds"][0]["stands"] == [None, None, "7"]
    assert draft["melds"][1]["problems"] == ["needs 1 more card"]
    assert draft["go_down"] is None and draft["problem"] == "set 2 needs 1 more card"
    needs = {"code": "needs_more", "params": {"count": 1}}
    assert draft["melds"][1]["faults"] == [needs] and draft["reason"] == "cannot_go_down"
    assert draft["fault"] == {"code": "draft_set", "params": {"n": 2, "faults": {"faults": [needs]}}}

    bad = lobby_server.post(f"/api/seat/{token}/draft", {"slots": [["7X"]]})
    assert bad.status_code == 422 and bad.json()["reason"] == "bad_draft" and "7X" in bad.json()["message"]
    assert lobby_server.post("/api/seat/nope/draft", {"slots": []}).status_code == 404
    assert lobby_server.post(f"/api/seat/{token}/draft", {"slots": "7H"}).status_code == 422


def test_a_refused_going_down_carries_the_engines_fault(lobby_server: ServerProcess) -> None:
    """RULES.md §1: a set is 3+ cards of one rank. A going-down the engine refuses is answered with its
    reason, its English message and its fault (code and parameters, docs/protocol.md "Faults")."""
    created = lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=0)
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.player(token) as me:
        state = _my_draw(me)
        me.act({"type": "draw_stock", "seat": 0})
        state = me.state_where(lambda s: s["seq"] > state["seq"] and s["observation"]["phase"] == "play")
        hand = state["observation"]["hand"]
        by_rank: dict[str, str] = {}
        for card in hand:
            if not card.startswith("JK"):
                by_rank.setdefault(card.split("#")[0][:-1], card)
        ones = list(by_rank.values())
        assert len(ones) >= 3, hand
        mixed = ones[:3]
        # The engine judges the melds in order (engine/melds.py contract_fault), so the second one may be any
        # three other cards: a deal need not hold six ranks.
        others = [c for c in hand if c not in mixed and not c.startswith("JK")][:3]
        assert len(others) == 3, hand

        def mixed_set(cards: list[str]) -> dict[str, Any]:
            rank = cards[0].split("#")[0][:-1]
            return {"kind": "set", "cards": cards, "low": {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank) or int(rank)}

        me.act({"type": "go_down", "seat": 0, "melds": [mixed_set(mixed), mixed_set(others)]})
        error = me.until(lambda m: m["type"] == "error", timeout=20)
    assert error["reason"] == "cannot_go_down" and "is not of the set's rank" in error["message"], error
    assert error["fault"]["code"] == "contract_meld", error
    assert error["fault"]["params"]["fault"]["code"] == "set_wrong_rank"
    assert error["fault"]["params"]["meld"]["cards"] == mixed


def test_a_replay_is_every_step_built_by_the_engine(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(
        preset="liverpool", rules=ONE_DEAL, seats=3, bots={str(s): "random" for s in range(3)}, bot_pace_ms=0
    )
    text = _over(lobby_server, created["table_id"])
    record = GameRecord.from_json(text)
    final = replay(record)

    served = lobby_server.get(f"/api/tables/{created['table_id']}/replay").json()
    uploaded = lobby_server.post("/api/replay", None)
    assert uploaded.status_code == 422 and uploaded.json()["reason"] == "bad_record"
    posted = httpx.post(f"{lobby_server.http}/api/replay", content=text.encode(), timeout=30).json()
    for answer in (served, posted):
        steps = answer["steps"]
        assert len(steps) == len(record.actions) + 1
        assert steps[0]["action"] is None and steps[1]["text"].startswith("Deal 1")
        last = steps[-1]["table"]
        assert last["phase"] == "game_over" and last["totals"] == list(final.totals)
        assert last["hands"] == [[str(c) for c in hand] for hand in final.hands]
        for step in steps:
            for meld in step["table"]["melds"]:
                assert meld["label"].split()[0] == meld["kind"] and len(meld["stands"]) == len(meld["cards"])
    assert lobby_server.get("/api/tables/nope/replay").status_code == 404


def test_presets_and_tables_give_their_rules_in_words(lobby_server: ServerProcess) -> None:
    """Issue 28.3: the summaries and the words are the engine's (engine/rulestext.py)."""
    from liverpool.engine import PRESETS, Group
    from liverpool.engine.rules.text import rules_in_fields, rules_in_words, summary

    presets = {p["name"]: p for p in lobby_server.get("/api/presets").json()["presets"]}
    assert {name: p["summary"] for name, p in presets.items()} == {n: summary(r) for n, r in PRESETS.items()}
    created = lobby_server.create(preset="norsk", rules={"discard_optional": False}, seats=3)
    words = lobby_server.get(f"/api/tables/{created['table_id']}/rules").json()
    house = Ruleset.from_dict({"base": "norsk", "discard_optional": False})
    fields = rules_in_fields(house)
    groups = [
        {"group": g, "key": Group(g).name.lower(), "sentences": s, "fields": fields[g]}
        for g, s in rules_in_words(house)
    ]
    assert words["groups"] == groups, "each group with its key, which the pages translate (docs/i18n.md)"
    assert "A turn ends with a discard." in str(words["groups"])
    assert lobby_server.get("/api/tables/nope/rules").status_code == 404
