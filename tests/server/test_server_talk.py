"""Table talk (issue 28 item 9) over real websockets: lines and quick reactions reach every seat and
spectator, are limited in length, characters and rate, are refused to spectators when the table says so,
are stored and sent again after a restart, and never enter the game's record or replay."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from server_fixtures import Client, ServerProcess, action_seqs

from liverpool.server.talk import REACTIONS, REPLAYED

Start = Callable[..., ServerProcess]
HOSTILE = '<img src=x onerror="alert(1)"> Oh my aching back!'
ONE_DEAL = {"deals": [{"contract": ["set 3", "set 3"], "hand_size": 7}]}


def talk(client: Client) -> dict[str, Any]:
    """The ``talk`` of the first state a client is sent on connecting (the last lines, the reactions)."""
    talk: dict[str, Any] = client.state_where(lambda s: "talk" in s)["talk"]
    return talk


def said(client: Client, count: int = 1) -> list[dict[str, Any]]:
    """The next ``count`` chat messages this client is sent."""
    return [client.until(lambda m: m["type"] == "chat") for _ in range(count)]


def refusal(client: Client) -> dict[str, Any]:
    return client.until(lambda m: m["type"] == "error")


def chats(client: Client) -> list[dict[str, Any]]:
    return [m for m in client.received if m["type"] == "chat"]


def two_players(server: ServerProcess, **options: Any) -> tuple[dict[str, Any], str, str]:
    created = server.create(seats=3, bots={"2": "random"}, bot_pace_ms=60_000, away_timeout_s=0, **options)
    return created, server.join(created["invite"], 0, "Ada"), server.join(created["invite"], 1, "Bea")


def test_talk_reaches_every_seat_and_spectator(lobby_server: ServerProcess) -> None:
    created, ada_token, bea_token = two_players(lobby_server)
    with (
        lobby_server.player(ada_token) as ada,
        lobby_server.player(bea_token) as bea,
        lobby_server.spectator(created["spectator"]) as watcher,
    ):
        for client in (ada, bea, watcher):
            first = talk(client)
            assert first["lines"] == [] and first["may_talk"] is True
            assert [r["id"] for r in first["reactions"]] == list(REACTIONS)
        ada.send({"type": "chat", "text": f"  {HOSTILE}  "})
        for client in (ada, bea, watcher):
            (line,) = said(client)
            assert (line["seat"], line["name"], line["text"]) == (0, "Ada", HOSTILE), "stripped, otherwise as sent"
        watcher.send({"type": "react", "reaction": "joker"})
        for client in (ada, bea, watcher):
            (line,) = said(client)
            assert (line["seat"], line["name"], line["reaction"]) == (None, "a spectator", "joker")
            assert "text" not in line
        assert ada.errors == bea.errors == watcher.errors == []


def test_a_line_is_limited_in_length_and_characters(lobby_server: ServerProcess) -> None:
    _, ada_token, bea_token = two_players(lobby_server)
    with lobby_server.player(ada_token) as ada, lobby_server.player(bea_token) as bea:
        talk(ada), talk(bea)
        longest = "x" * 200
        ada.send({"type": "chat", "text": longest + "   "})
        assert said(bea)[0]["text"] == longest
        ada.send({"type": "chat", "text": longest + "y"})
        assert refusal(ada)["message"] == "The chat text may be at most 200 characters long."
        for bad, why in [
            ("two\nlines", "U+000A at character 4"),
            ("bell\x07", "U+0007"),
            ("turned \u202eback", "U+202E"),
            ("   ", "may not be empty"),
        ]:
            ada.send({"type": "chat", "text": bad})
            answer = refusal(ada)
            assert answer["reason"] == "malformed" and why in answer["message"], answer
        ada.send({"type": "react", "reaction": "<script>"})
        answer = refusal(ada)
        assert answer["reason"] == "malformed" and "is not a reaction" in answer["message"], answer
        ada.send({"type": "chat", "text": "hi", "seat": 1})
        assert refusal(ada)["reason"] == "malformed"
        bea.quiet(0.5)
        assert len(chats(bea)) == 1, "no refused line reached anyone"


def test_talk_is_rate_limited_per_connection(lobby_server: ServerProcess) -> None:
    """Five lines and reactions in any 10 seconds (LIVERPOOL_CHAT_PER_10S); more are refused with a
    sentence, the connection stays open, and another connection is not affected."""
    _, ada_token, bea_token = two_players(lobby_server)
    with lobby_server.player(ada_token) as ada, lobby_server.player(bea_token) as bea:
        talk(ada), talk(bea)
        for n in range(5):
            ada.send({"type": "chat", "text": f"line {n}"} if n % 2 else {"type": "react", "reaction": "laugh"})
        said(bea, 5)
        ada.send({"type": "chat", "text": "one too many"})
        answer = refusal(ada)
        assert answer["reason"] == "too_much_talk", answer
        assert answer["message"].startswith("at most 5 chat lines and reactions in 10 seconds: wait ")
        ada.send({"type": "ping"})
        ada.until(lambda m: m["type"] == "pong")
        bea.send({"type": "chat", "text": "my turn to moan"})
        assert said(ada)[-1]["text"] == "my turn to moan"
        bea.quiet(0.5)
        assert "one too many" not in [m.get("text") for m in chats(bea)]


def test_spectators_may_not_talk_when_the_table_says_so(lobby_server: ServerProcess) -> None:
    created, ada_token, _ = two_players(lobby_server, spectators_talk=False)
    with lobby_server.player(ada_token) as ada, lobby_server.spectator(created["spectator"]) as watcher:
        assert talk(watcher)["may_talk"] is False and talk(ada)["may_talk"] is True
        watcher.send({"type": "chat", "text": "let me in"})
        assert refusal(watcher)["reason"] == "spectators_silent"
        watcher.send({"type": "react", "reaction": "oops"})
        assert refusal(watcher)["reason"] == "spectators_silent"
        ada.send({"type": "chat", "text": "players still talk"})
        assert said(watcher)[0]["text"] == "players still talk", "spectators still read the talk"
        ada.quiet(0.5)
        assert [m["text"] for m in chats(ada)] == ["players still talk"]


def test_talk_is_stored_and_sent_again_after_a_restart(db_url: str, start_server: Start) -> None:
    """The last REPLAYED lines come back to whoever connects, in order, after a kill -9 and a restart."""
    no_limit = {"LIVERPOOL_CHAT_PER_10S": "0"}
    server = start_server(db_url, env=no_limit)
    created, ada_token, bea_token = two_players(server)
    lines = [f"line {n}" for n in range(REPLAYED + 3)]
    with server.player(ada_token) as ada:
        talk(ada)
        for text in lines:
            ada.send({"type": "chat", "text": text})
        ada.send({"type": "react", "reaction": "aching_back"})
        said(ada, len(lines) + 1)
    server.kill()
    server = start_server(db_url, env=no_limit)
    with server.player(bea_token) as bea, server.spectator(created["spectator"]) as watcher:
        for client in (bea, watcher):
            replayed = talk(client)["lines"]
            assert len(replayed) == REPLAYED
            assert [m.get("text") for m in replayed] == [*lines[-(REPLAYED - 1) :], None]
            assert replayed[-1]["reaction"] == "aching_back" and replayed[-1]["name"] == "Ada"
            assert [m["id"] for m in replayed] == sorted(m["id"] for m in replayed)


def test_talk_is_never_in_the_game_record(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(
        seats=3, bots={str(s): "random" for s in range(3)}, bot_pace_ms=20, rules=ONE_DEAL, next_deal_timeout_s=0
    )
    secret = "a moan that is no part of the game"
    with lobby_server.spectator(created["spectator"]) as watcher:
        watcher.state_where(lambda s: s["seq"] > 2)
        watcher.send({"type": "chat", "text": secret})
        watcher.send({"type": "react", "reaction": "good_game"})
        said(watcher, 2)
        watcher.state_where(lambda s: s["status"] == "over", 120)
    table_id = created["table_id"]
    deadline = time.monotonic() + 20
    while (record := lobby_server.get(f"/api/tables/{table_id}/record")).status_code != 200:
        assert time.monotonic() < deadline, record.text
        time.sleep(0.2)
    replay = lobby_server.get(f"/api/tables/{table_id}/replay")
    assert replay.status_code == 200
    for text in (record.text, replay.text):
        assert secret not in text and "good_game" not in text and "a spectator" not in text
    assert action_seqs(lobby_server.db, table_id) == list(range(len(record.json()["actions"])))
