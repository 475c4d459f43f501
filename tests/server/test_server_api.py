"""The lobby over HTTP against a real server (docs/protocol.md): presets, tables, invites, seats,
saved rulesets, refusals, and the pages."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import httpx
from server_fixtures import ServerProcess

from liverpool.bots.random_bot import random_bot
from liverpool.engine import GameRecord, field_registry, run_game
from liverpool.engine.rules.presets import PRESETS
from liverpool.engine.rules.ruleset import field_docs
from liverpool.server.schemas import MAX_MESSAGE_BYTES, MAX_RECORD_BYTES


def test_presets_hold_every_rule_and_the_field_docs(lobby_server: ServerProcess) -> None:
    data = lobby_server.get("/api/presets").json()
    by_name = {p["name"]: p for p in data["presets"]}
    assert set(by_name) == set(PRESETS)
    assert by_name["liverpool"]["rules"] == PRESETS["liverpool"].to_dict()
    assert "uk" in by_name["british"]["aliases"]
    assert data["fields"] == field_docs()
    assert "random" in data["bots"]
    assert "cheat" not in data["bots"]


def test_create_a_table_then_join_it_by_invite(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(preset="british", seats=4, bots={"2": "random"}, bot_pace_ms=0)
    assert created["invite_url"] == f"/join/{created['invite']}"
    assert created["spectator_url"] == f"/watch/{created['spectator']}"
    info = lobby_server.get(f"/api/invite/{created['invite']}").json()
    assert info["table_id"] == created["table_id"]
    assert info["ruleset"]["name"] == "british"
    assert info["status"] == "waiting"
    assert [s["free"] for s in info["seats"]] == [True, True, False, True]
    assert info["seats"][2]["bot"] == "random"

    answer = lobby_server.post(f"/api/invite/{created['invite']}/join", {"seat": 1, "name": " Ada "})
    assert answer.status_code == 200, answer.text
    joined = answer.json()
    assert joined["seat_url"] == f"/play/{joined['seat_token']}"
    info = lobby_server.get(f"/api/invite/{created['invite']}").json()
    assert info["seats"][1] == {"seat": 1, "name": "Ada", "bot": None, "free": False}

    taken = lobby_server.post(f"/api/invite/{created['invite']}/join", {"seat": 1, "name": "Bea"})
    assert taken.status_code == 409 and taken.json()["reason"] == "seat_taken"
    same_name = lobby_server.post(f"/api/invite/{created['invite']}/join", {"seat": 0, "name": "ada"})
    assert same_name.status_code == 409 and same_name.json()["reason"] == "name_taken"
    no_seat = lobby_server.post(f"/api/invite/{created['invite']}/join", {"seat": 5, "name": "Cy"})
    assert no_seat.status_code == 422 and no_seat.json()["reason"] == "no_such_seat"
    no_name = lobby_server.post(f"/api/invite/{created['invite']}/join", {"seat": 0, "name": "  "})
    assert no_name.status_code == 422 and no_name.json()["reason"] == "invalid"
    unknown = lobby_server.post("/api/invite/nope/join", {"seat": 0, "name": "Cy"})
    assert unknown.status_code == 404

    mine = lobby_server.get(f"/api/my-tables?tokens={joined['seat_token']},unknown-token").json()["tables"]
    assert len(mine) == 1
    assert mine[0]["table_id"] == created["table_id"]
    assert mine[0]["seat"] == 1
    assert mine[0]["status"] == "waiting"
    assert mine[0]["names"] == [None, "Ada", "bot 2 (random)", None]


def test_house_rules_are_a_preset_with_overrides(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(preset="liverpool", rules={"buy_limit": 2, "cut_bonus": 0}, seats=3)
    rules = lobby_server.get(f"/api/invite/{created['invite']}").json()["ruleset"]
    assert rules["buy_limit"] == 2
    assert rules["cut_bonus"] == 0
    assert rules["discard_call"] == PRESETS["liverpool"].discard_call.value


def test_bad_tables_are_refused_and_say_why(lobby_server: ServerProcess) -> None:
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"preset": "monopoly"}, "unknown_preset", "preset"),
        ({"rules": {"buy_limt": 2}}, "bad_rules", "rules.buy_limt"),
        ({"rules": {"buy_limit": -1}}, "bad_rules", "rules.buy_limit"),
        ({"preset": "contract", "seats": 6}, "bad_seats", "seats"),
        ({"seats": 4, "bots": {"1": "grandmaster"}}, "unknown_bot", "bots"),
        ({"seats": 4, "bots": {"1": "cheat"}}, "unknown_bot", "bots"),  # measurement only: docs/bots.md
        ({"seats": 3, "bots": {"5": "random"}}, "no_such_seat", "bots"),
    ]
    for body, reason, field in cases:
        answer = lobby_server.post("/api/tables", body)
        assert answer.status_code == 422, (body, answer.text)
        assert answer.json()["reason"] == reason, body
        assert answer.json()["field"] == field, body
    cheat = lobby_server.post("/api/tables", {"seats": 4, "bots": {"1": "cheat"}}).json()["message"]
    assert cheat == "no bot named 'cheat'; bots: random, easy, medium, hard"
    for body in ({"seats": 2}, {"seats": 9}, {"bot_pace_ms": -1}, {"colour": "red"}):
        answer = lobby_server.post("/api/tables", body)
        assert answer.status_code == 422, body
        assert answer.json()["reason"] == "invalid"
        assert [e["input"] for e in answer.json()["errors"]] == list(body), "the form's field, for input.<field>"
    nested = lobby_server.post("/api/tables", {"bots": {"1": 5}}).json()["errors"]
    assert [(e["field"], e["input"], e["kind"]) for e in nested] == [("bots.1", "bots", "string_type")]


def test_refused_house_rules_and_bots_carry_what_a_page_words_them_from(lobby_server: ServerProcess) -> None:
    """Issue 28 item 7: a refusal with details gives them as values, not only in its English ``message``: a
    house rule's ``rule`` (the field, without an index), its ``problem`` (``RulesetProblem``) and bound, a
    bot's name; a page says them in its language (``bad_rules.<problem>``, ``reason.unknown_bot``)."""
    cases: list[tuple[dict[str, Any], dict[str, Any]]] = [
        ({"rules": {"buy_limit": -1}}, {"rule": "buy_limit", "problem": "minimum", "limit": 0}),
        ({"rules": {"hand_size_bonus": 1}}, {"rule": "hand_size_bonus", "problem": "unknown_field"}),
        ({"rules": {"buy_limit": "two"}}, {"rule": "buy_limit", "problem": "whole_number"}),
        ({"rules": {"buying": "always"}}, {"rule": "buying", "problem": "choice"}),
        ({"rules": {"upcard": 1}}, {"rule": "upcard", "problem": "true_or_false"}),
        ({"rules": {"card_values": {"A": 1}}}, {"rule": "card_values"}),
        ({"seats": 4, "bots": {"1": "grandmaster"}}, {"bot": "grandmaster"}),
    ]
    for body, details in cases:
        answer = lobby_server.post("/api/tables", body).json()
        assert {k: answer[k] for k in ("rule", "problem", "limit", "bot") if k in answer} == details, answer
    maximum = next(f for f in field_registry() if f.maximum is not None)
    answer = lobby_server.post("/api/tables", {"rules": {maximum.name: maximum.maximum + 1}}).json()
    assert (answer["rule"], answer["problem"], answer["limit"]) == (maximum.name, "maximum", maximum.maximum)


def test_oversized_bodies_are_refused(lobby_server: ServerProcess) -> None:
    answer = lobby_server.post("/api/tables", {"rules": {"notes": ["x" * 70_000]}})
    assert answer.status_code == 413
    assert answer.json()["reason"] == "too_large"


def test_saved_rulesets(lobby_server: ServerProcess) -> None:
    answer = lobby_server.post("/api/rulesets", {"name": "Friday night", "rules": {"base": "british", "buy_limit": 5}})
    assert answer.status_code == 201, answer.text
    assert answer.json()["rules"]["deals"] == PRESETS["british"].to_dict()["deals"]
    again = lobby_server.post("/api/rulesets", {"name": "Friday night", "rules": {}})
    assert again.status_code == 409 and again.json()["reason"] == "name_taken"
    bad = lobby_server.post("/api/rulesets", {"name": "broken", "rules": {"decks": "many"}})
    assert bad.status_code == 422 and bad.json()["field"] == "rules.decks"
    saved = {r["name"]: r["rules"] for r in lobby_server.get("/api/rulesets").json()["rulesets"]}
    assert saved["Friday night"]["buy_limit"] == 5
    assert "broken" not in saved
    table = lobby_server.create(rules=saved["Friday night"], seats=4)
    assert lobby_server.get(f"/api/invite/{table['invite']}").json()["ruleset"] == saved["Friday night"]


def test_record_and_rematch_wait_for_the_end(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=5000)
    token = lobby_server.join(created["invite"], 0, "Ada")
    early = lobby_server.get(f"/api/tables/{created['table_id']}/record")
    assert early.status_code == 409 and early.json()["reason"] == "not_over"
    rematch = lobby_server.post(f"/api/seat/{token}/rematch")
    assert rematch.status_code == 409 and rematch.json()["reason"] == "not_over"
    assert lobby_server.get("/api/tables/no-such-table/record").status_code == 404
    assert lobby_server.post("/api/seat/no-such-token/rematch").status_code == 404


def test_pages_are_the_static_ui(lobby_server: ServerProcess) -> None:
    for path, name in [
        ("/", "index.html"),
        ("/join/abc", "join.html"),
        ("/play/abc", "table.html"),
        ("/watch/abc", "table.html"),
        ("/replay/abc", "replay.html"),
    ]:
        answer = lobby_server.get(path)
        assert answer.status_code == 200, path
        assert answer.headers["content-type"].startswith("text/html")
        assert answer.text == lobby_server.get(f"/static/{name}").text


def test_the_name_fields_limit_is_the_servers_and_refusals_are_sentences(lobby_server: ServerProcess) -> None:
    from liverpool.server.schemas import Join

    limit = next(m.max_length for m in Join.model_fields["name"].metadata if hasattr(m, "max_length"))
    page = (Path(__file__).resolve().parents[2] / "liverpool/server/static/join.html").read_text()
    field = re.search(r'<input[^>]*data-testid="name-input"[^>]*>', page)
    assert field is not None and 'data-limit="join.name"' in field.group(0), field
    assert lobby_server.get("/api/limits").json()["join"]["name"]["maxLength"] == limit, "the page's limit"
    created = lobby_server.create(seats=3)
    too_long = lobby_server.post(f"/api/invite/{created['invite']}/join", {"seat": 0, "name": "x" * (limit + 8)})
    assert too_long.status_code == 422
    assert too_long.json()["message"] == f"The name may be at most {limit} characters long."
    blank = lobby_server.post(f"/api/invite/{created['invite']}/join", {"seat": 0, "name": "  "})
    assert blank.json()["message"] == "The name may not be empty."


def test_a_whole_game_record_may_be_uploaded_but_not_an_endless_one(lobby_server: ServerProcess) -> None:
    """A record is larger than any message (a 4-seat game at the browser table is about 66 KB, a 3-seat
    `british-9` game 145 KB): POST /api/replay takes up to MAX_RECORD_BYTES, every other route 64 KiB."""
    state = run_game(PRESETS["british-9"], [random_bot] * 3, random.Random(5))
    text = GameRecord.of(state, ["a", "b", "c"], {"seed": 5}).to_json()
    assert MAX_MESSAGE_BYTES < len(text.encode()) < MAX_RECORD_BYTES
    answer = httpx.post(f"{lobby_server.http}/api/replay", content=text.encode(), timeout=60)
    assert answer.status_code == 200, answer.text
    assert answer.json()["steps"][-1]["table"]["phase"] == "game_over"
    endless = b'{"notes": "' + b"x" * MAX_RECORD_BYTES + b'"}'
    refused = httpx.post(f"{lobby_server.http}/api/replay", content=endless, timeout=60)
    assert refused.status_code == 413 and refused.json()["reason"] == "too_large"
    assert str(MAX_RECORD_BYTES) in refused.json()["message"]
