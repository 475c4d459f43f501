"""The server's security properties (issue 26, items 9, 10, 11, 13 and part of 3), each a test named
after it, against a real ``liverpool serve`` and real websockets. ``docs/security.md`` lists them."""

from __future__ import annotations

import json
import re
import secrets
import socket
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import httpx
import pytest
from server_fixtures import Client, ServerProcess, my_move, old_waiting_table, play_moves, upgrade_to
from sqlalchemy import text
from websockets.exceptions import ConnectionClosed

from liverpool.engine.rules.presets import PRESETS
from liverpool.server import storage as storage_module
from liverpool.server.guard import CONTENT_SECURITY_POLICY
from liverpool.server.settings import Settings
from liverpool.server.storage import Storage, token_hash

Start = Callable[..., ServerProcess]
STATIC = Path(__file__).resolve().parents[2] / "liverpool" / "server" / "static"
HARDENING = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}


def closed_with(client: Client) -> tuple[int, str]:
    """Read until the server closes the connection; its close code and reason."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            client.receive()
    frame = closed.value.rcvd
    assert frame is not None, "the server closed without a close frame"
    return frame.code, frame.reason


def three_humans(server: ServerProcess) -> tuple[dict[str, Any], list[str]]:
    created = server.create(seats=3, bot_pace_ms=60_000, away_timeout_s=0)
    return created, [server.join(created["invite"], seat, name) for seat, name in enumerate(("Ada", "Bea", "Cy"))]


# -- item 9: seat tokens ------------------------------------------------------------------------------


def test_seat_tokens_are_random(lobby_server: ServerProcess) -> None:
    tokens = []
    for _ in range(4):
        created = lobby_server.create(seats=3)
        tokens += [lobby_server.join(created["invite"], seat, f"P{seat}") for seat in range(3)]
    assert len(set(tokens)) == len(tokens)
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token), f"{token!r} is not 32 random bytes in URL-safe base64"
    with mock.patch.object(storage_module.secrets, "token_urlsafe", wraps=secrets.token_urlsafe) as drawn:
        storage_module.new_token()
    drawn.assert_called_once_with(32)


def test_seat_tokens_are_stored_only_as_hashes(start_server: Start, sqlite_url: str, tmp_path: Path) -> None:
    server = start_server(sqlite_url)
    created, tokens = three_humans(server)
    with server.player(tokens[0]) as ada:
        ada.state_where(lambda s: s["observation"] is not None)
    server.stop()
    database = Path(sqlite_url.removeprefix("sqlite:///"))
    connection = sqlite3.connect(database)
    try:
        stored = {
            row[0]: row[1]
            for row in connection.execute("SELECT seat, token FROM seats WHERE table_id = ?", (created["table_id"],))
        }
        dump = "\n".join(connection.iterdump())
    finally:
        connection.close()
    assert stored == {seat: token_hash(token) for seat, token in enumerate(tokens)}
    files = b"".join(p.read_bytes() for p in tmp_path.glob("tables.db*"))
    for token in tokens:
        assert token not in dump
        assert token.encode() not in files


def test_seat_tokens_are_compared_in_constant_time(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 'tables.db'}")
    store.migrate()
    try:
        info = store.create_table(PRESETS["liverpool"].to_dict(), 0, {}, [storage_module.NewSeat()] * 3)
        token = store.claim_seat(info.id, 1, "Ada")
        compared: list[tuple[str, str]] = []
        real = storage_module.hmac.compare_digest

        def spy(a: str, b: str) -> bool:
            compared.append((a, b))
            return real(a, b)

        with mock.patch.object(storage_module.hmac, "compare_digest", spy):
            found = store.seat_by_token(token)
            mine = store.seats_by_tokens([token])
        assert found is not None and found[1] == 1
        assert [(t.id, seat) for t, seat, _ in mine] == [(info.id, 1)]
        assert compared == [(token_hash(token), token_hash(token))] * 2
        assert store.seat_by_token(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    finally:
        store.close()


def test_seat_tokens_are_never_broadcast(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bot_pace_ms=60_000, away_timeout_s=0)
    clients = [lobby_server.spectator(created["spectator"])]
    tokens = []
    try:
        for seat, name in enumerate(("Ada", "Bea", "Cy")):
            tokens.append(lobby_server.join(created["invite"], seat, name))
            clients.append(lobby_server.player(tokens[-1]))
        for client in clients:
            client.state_where(lambda s: s["observation"] is not None)
        for client in clients:
            current = client.current(lambda s: True)
            if my_move(current):
                client.act(next(a for a in current["legal"] if a["type"] == "draw_stock"))
        for client in clients:
            client.quiet()
        answers = [lobby_server.get(f"/api/invite/{created['invite']}").text]
        answers += [lobby_server.get(f"/api/my-tables?tokens={tokens[0]}").text]
        for seat, token in enumerate(tokens):
            for index, client in enumerate(clients):
                assert all(token not in json.dumps(m) for m in client.received), (
                    f"seat {seat}'s token reached client {index}"
                )
            if seat != 0:
                assert all(token not in answer for answer in answers), f"seat {seat}'s token in a lobby answer"
    finally:
        for client in clients:
            client.close()


def test_seat_tokens_are_never_logged(start_server: Start, sqlite_url: str) -> None:
    server = start_server(sqlite_url, log_level="info")
    created, tokens = three_humans(server)
    with server.player(tokens[0]) as ada:
        ada.state_where(lambda s: True)
    with server.spectator(created["spectator"]) as watcher:
        watcher.state_where(lambda s: True)
    for path in (
        f"/play/{tokens[1]}",
        f"/watch/{created['spectator']}",
        f"/join/{created['invite']}",
        f"/api/my-tables?tokens={tokens[2]},x",
    ):
        assert server.get(path).status_code == 200
    server.post(f"/api/seat/{tokens[1]}/rematch")
    server.stop()
    logged = server.logged()
    assert '"GET /play/[redacted] HTTP/1.1" 200' in logged, "the access log is written, with the token blanked"
    assert "/ws/play/[redacted]" in logged
    for secret in [*tokens, created["spectator"], created["invite"]]:
        assert secret not in logged


def test_refused_api_requests_are_logged_once_with_their_reason(start_server: Start, sqlite_url: str) -> None:
    server = start_server(sqlite_url, log_level="info")
    created, tokens = three_humans(server)
    assert server.post("/api/tables", {"seats": 99}).status_code == 422
    assert server.post(f"/api/invite/{created['invite']}/join", {"name": "late", "seat": 0}).status_code == 409
    server.stop()
    logged = server.logged()
    assert logged.count("refused POST /api/tables from 127.0.0.1: invalid") == 1
    assert logged.count("refused POST /api/invite/{invite}/join from 127.0.0.1:") == 1
    for secret in [*tokens, created["spectator"], created["invite"]]:
        assert secret not in logged


REFUSAL_LINE = re.compile(
    r"refused websocket (message|connection|\?since) at table (\S+) \((seat \d|spectator|unknown seat link)\): "
    r"([a-z_]+)(?:; closed with (\d+))?"
)


def test_websocket_refusals_are_logged_once_with_their_reason(start_server: Start, sqlite_url: str) -> None:
    """Issue 26, last paragraph: every refusal sent to a websocket (an illegal action, another seat's
    action, a spectator acting, malformed, too deep, stale, too much talk, too large, too many messages,
    an unknown link, a bad ``?since``, a foreign origin) is logged once at the server with its reason
    and table, and no log line holds a token or a card."""
    server = start_server(
        sqlite_url,
        log_level="info",
        env={"LIVERPOOL_WS_MAX_BYTES": "3000", "LIVERPOOL_WS_MESSAGES_PER_10S": "25", "LIVERPOOL_CHAT_PER_10S": "2"},
    )
    created = server.create(seats=3, bot_pace_ms=60_000, away_timeout_s=0, spectators_talk=False)
    tokens = [server.join(created["invite"], seat, name) for seat, name in enumerate(("Ada", "Bea", "Cy"))]
    table = created["table_id"]
    players = [server.player(t) for t in tokens]
    watcher = server.spectator(created["spectator"])
    clients = [*players, watcher]
    who = {**{id(c): f"seat {i}" for i, c in enumerate(players)}, id(watcher): "spectator"}

    def refused(client: Client, message: dict[str, Any] | str) -> str:
        client.send(message)
        reason: str = client.until(lambda m: m["type"] == "error")["reason"]
        return reason

    try:
        state = players[0].state_where(lambda s: s["observation"] is not None)
        current = state["observation"]["current"]
        mover, other = players[current], players[(current + 1) % 3]
        for client in clients:
            client.current(lambda s: s["observation"] is not None or s["seat"] is None)
            client.quiet()
        seat = (current + 1) % 3
        assert refused(other, {"type": "action", "action": {"type": "draw_stock", "seat": current}}) == "not_your_seat"
        assert refused(other, {"type": "action", "action": {"type": "draw_stock"}}) not in ("", "not_your_seat")
        assert refused(other, {"type": "action", "action": {"type": "draw_stock", "x": 1}}) == "unknown_keys"
        assert refused(other, {"type": "action", "action": {"type": "discard", "card": "nonsense"}}) == "malformed"
        assert refused(other, {"type": "bogus"}) == "malformed"
        assert refused(other, "[" * 40 + "]" * 40) == "too_deep"
        assert refused(other, {"type": "next_deal"}) == "no_pause"
        assert refused(other, {"type": "undo"}) == "not_against_bots"
        assert refused(other, {"type": "hint"}) in ("not_your_move", "no_coach")
        own = players[current].state
        assert own is not None
        hand = own["observation"]["hand"]
        discard = {"type": "discard", "card": hand[0]}  # before drawing: illegal
        assert refused(mover, {"type": "action", "action": discard}) not in ("", "malformed", "unknown_keys")
        ahead = {"type": "action", "action": {"type": "draw_stock"}, "seq": own["seq"] + 7}
        assert refused(mover, ahead) == "stale"
        mover.send({"type": "chat", "text": "one"})
        mover.send({"type": "chat", "text": "two"})
        assert refused(mover, {"type": "chat", "text": "three"}) == "too_much_talk"
        assert refused(watcher, {"type": "action", "action": {"type": "draw_stock", "seat": 0}}) == "spectator"
        assert refused(watcher, {"type": "next_deal"}) == "spectator"
        assert refused(watcher, {"type": "hint"}) == "spectator"
        assert refused(watcher, {"type": "chat", "text": "hello"}) == "spectators_silent"
        with server.spectator(created["spectator"]) as big:
            assert refused(big, {"type": "ping", "padding": "x" * 3100}) == "too_large"
            assert closed_with(big) == (1009, "too_large")
            clients.append(big)
            who[id(big)] = "spectator"
        with server.spectator(created["spectator"]) as chatty:
            for _ in range(26):
                chatty.send({"type": "ping"})
            assert chatty.until(lambda m: m["type"] == "error")["reason"] == "too_many_messages"
            assert closed_with(chatty) == (1008, "too_many_messages")
            clients.append(chatty)
            who[id(chatty)] = "spectator"
        with server.player(tokens[seat] + "x") as stranger:
            assert stranger.receive()["reason"] == "unknown_token"
        with server.connect(f"/ws/play/{tokens[seat]}?since=soon") as since:
            assert since.until(lambda m: m["type"] == "error")["reason"] == "malformed"
            clients.append(since)
            who[id(since)] = f"seat {seat}"
        path = f"/ws/watch/{created['spectator']}"
        with server.connect(path, origin="https://evil.example") as foreign:
            assert foreign.receive()["reason"] == "foreign_origin"
    finally:
        for client in clients:
            client.close()
    server.stop()
    logged = server.logged()
    for secret in [*tokens, created["spectator"], created["invite"]]:
        assert secret not in logged
    mark = " liverpool.server.messages: "
    lines = [line.split(mark, 1)[1] for line in logged.splitlines() if mark + "refused websocket" in line]
    found = [REFUSAL_LINE.fullmatch(line) for line in lines]
    assert all(found), [line for line, m in zip(lines, found, strict=True) if m is None]
    at_table = Counter((m[2], m[3], m[4]) for m in found if m is not None and m[1] != "connection")
    expected = Counter((table, who[id(client)], e["reason"]) for client in clients for e in client.errors)
    assert at_table == expected, "each refusal sent to a client is logged once, at its table and seat"
    assert any(m is not None and m[1] == "connection" and m[2] == "?" and m[4] == "unknown_token" for m in found)
    assert logged.count("refused websocket /ws/watch/[redacted] from 127.0.0.1: foreign_origin") == 1


def test_one_seats_token_cannot_act_for_another(lobby_server: ServerProcess) -> None:
    _, tokens = three_humans(lobby_server)
    clients = [lobby_server.player(t) for t in tokens]
    try:
        states = [c.state_where(lambda s: s["observation"] is not None) for c in clients]
        current = states[0]["observation"]["current"]
        other = next(c for c in clients if c is not clients[current])
        other.quiet()
        for action in ({"type": "draw_stock", "seat": current}, {"type": "draw_discard", "seat": current}):
            other.act(action)
            assert other.until(lambda m: m["type"] == "error")["reason"] == "not_your_seat"
        clients[current].quiet()
        assert clients[current].state is not None and clients[current].state["seq"] == states[current]["seq"]
        assert [s for c in clients for s in c.states if s["seq"] != states[0]["seq"]] == []
    finally:
        for client in clients:
            client.close()


def test_seat_links_handed_out_before_hashing_still_work(start_server: Start, db_url: str) -> None:
    legacy = secrets.token_urlsafe(16)
    engine = storage_module.make_engine(db_url)
    upgrade_to(engine, "0001")
    old_waiting_table(engine, [("Ada", None, legacy), (None, None, None), (None, None, None)])
    server = start_server(db_url)
    with server.player(legacy) as ada:
        assert ada.state_where(lambda s: True)["seat"] == 0
    with engine.connect() as connection:
        assert connection.execute(text("SELECT token FROM seats WHERE seat = 0")).scalar_one() == token_hash(legacy)
    engine.dispose()


# -- item 10: Origin and Host -------------------------------------------------------------------------


def test_foreign_origin_websockets_are_refused(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3)
    path = f"/ws/watch/{created['spectator']}"
    with lobby_server.connect(path, origin="https://evil.example") as stranger:
        assert stranger.receive()["reason"] == "foreign_origin"
        assert closed_with(stranger) == (1008, "foreign_origin")
    with lobby_server.connect(path, origin=lobby_server.http) as own_page:
        assert own_page.state_where(lambda s: True)["table_id"] == created["table_id"]


def test_foreign_origin_state_changing_requests_are_refused(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3)
    evil = {"Origin": "https://evil.example"}
    for method, path, body in [
        ("POST", "/api/tables", {"seats": 3}),
        ("POST", f"/api/invite/{created['invite']}/join", {"seat": 0, "name": "Mallory"}),
        ("POST", "/api/rulesets", {"name": "evil", "rules": {"base": "liverpool"}}),
        ("PUT", "/api/tables", {}),
        ("DELETE", "/api/tables", {}),
    ]:
        answer = httpx.request(method, f"{lobby_server.http}{path}", json=body, headers=evil, timeout=10)
        assert answer.status_code == 403, (method, path, answer.text)
        assert answer.json()["reason"] == "foreign_origin"
    assert lobby_server.get(f"/api/invite/{created['invite']}").json()["seats"][0]["free"]
    assert httpx.get(f"{lobby_server.http}/api/presets", headers=evil, timeout=10).status_code == 200
    same = httpx.post(
        f"{lobby_server.http}/api/tables", json={"seats": 3}, headers={"Origin": lobby_server.http}, timeout=10
    )
    assert same.status_code == 201


def test_host_header_is_checked(start_server: Start, sqlite_url: str) -> None:
    server = start_server(
        sqlite_url, "--allowed-host", "cards.example", env={"LIVERPOOL_ALLOWED_HOSTS": "games.example"}
    )
    port = server.port
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", "cards.example", f"games.example:{port}"):
        assert httpx.get(f"{server.http}/api/presets", headers={"Host": host}, timeout=10).status_code == 200, host
    for host in ("evil.example", f"evil.example:{port}", f"localhost.evil.example:{port}"):
        answer = httpx.get(f"{server.http}/", headers={"Host": host}, timeout=10)
        assert answer.status_code == 400, host
        assert answer.json()["reason"] == "unknown_host"
    created = server.create(seats=3)
    sock = socket.create_connection(("127.0.0.1", port))
    with Client(f"ws://rebound.example:{port}/ws/watch/{created['spectator']}", sock=sock) as stranger:
        assert stranger.receive()["reason"] == "unknown_host"
        assert closed_with(stranger) == (1008, "unknown_host")


def test_the_default_allows_localhost_only(start_server: Start, sqlite_url: str) -> None:
    """With no ``--allowed-host``, no ``$LIVERPOOL_ALLOWED_HOSTS`` and the default ``--host``, the server
    answers to the loopback names only; any other ``Host`` gets our error shape (400 ``unknown_host``)."""
    assert Settings.from_env({}).allowed_hosts == ("localhost", "127.0.0.1", "::1")
    server = start_server(sqlite_url, env={"LIVERPOOL_ALLOWED_HOSTS": ""}, log_level="info")
    assert "--host" not in server.args and "--allowed-host" not in server.args
    port = server.port
    for host in ("localhost", f"localhost:{port}", f"LocalHost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}"):
        assert httpx.get(f"{server.http}/api/presets", headers={"Host": host}, timeout=10).status_code == 200, host
    strangers = ("evil.example", f"evil.example:{port}", f"localhost.evil.example:{port}", "0.0.0.0", "127.0.0.2")
    for host in strangers:
        for method, path in (("GET", "/"), ("GET", "/api/presets"), ("POST", "/api/tables")):
            answer = httpx.request(
                method, f"{server.http}{path}", headers={"Host": host}, json={"seats": 3}, timeout=10
            )
            assert answer.status_code == 400, (host, method, path, answer.text)
            body = answer.json()
            assert set(body) == {"reason", "message"}, body
            assert body["reason"] == "unknown_host"
            assert "host name" in body["message"], body
    created = server.create(seats=3)
    sock = socket.create_connection(("127.0.0.1", port))
    with Client(f"ws://evil.example:{port}/ws/watch/{created['spectator']}", sock=sock) as stranger:
        refusal = stranger.receive()
        assert (refusal["type"], refusal["reason"]) == ("error", "unknown_host")
        assert closed_with(stranger) == (1008, "unknown_host")
    refusals = [line for line in server.logged().splitlines() if "refused" in line and "unknown_host" in line]
    assert len(refusals) == len(strangers) * 3 + 1, refusals


# -- item 11: limits ----------------------------------------------------------------------------------


def test_websocket_message_size_is_limited(start_server: Start, sqlite_url: str) -> None:
    server = start_server(sqlite_url, env={"LIVERPOOL_WS_MAX_BYTES": "2000"})
    created = server.create(seats=3)
    with server.spectator(created["spectator"]) as watcher:
        watcher.state_where(lambda s: True)
        watcher.send({"type": "ping", "padding": "x" * 1900})
        assert watcher.until(lambda m: m["type"] != "state")["reason"] == "malformed", (
            "under the limit: read and answered"
        )
        watcher.send({"type": "ping", "padding": "x" * 2100})
        assert watcher.until(lambda m: m["type"] == "error")["reason"] == "too_large"
        assert closed_with(watcher) == (1009, "too_large")


def test_websocket_message_rate_is_limited(start_server: Start, sqlite_url: str) -> None:
    server = start_server(sqlite_url, env={"LIVERPOOL_WS_MESSAGES_PER_10S": "20"})
    created = server.create(seats=3)
    with server.spectator(created["spectator"]) as watcher:
        watcher.state_where(lambda s: True)
        for _ in range(20):
            watcher.send({"type": "ping"})
        for _ in range(20):
            assert watcher.until(lambda m: m["type"] != "state") == {"type": "pong"}
        watcher.send({"type": "ping"})
        assert watcher.until(lambda m: m["type"] != "state")["reason"] == "too_many_messages"
        assert closed_with(watcher) == (1008, "too_many_messages")


def test_connections_per_client_are_limited(start_server: Start, sqlite_url: str) -> None:
    server = start_server(sqlite_url, env={"LIVERPOOL_CONNECTIONS_PER_CLIENT": "3"})
    created = server.create(seats=3)
    watchers = [server.spectator(created["spectator"]) for _ in range(3)]
    for watcher in watchers:
        watcher.state_where(lambda s: True)
    with server.spectator(created["spectator"]) as fourth:
        assert fourth.receive()["reason"] == "too_many_connections"
        assert closed_with(fourth) == (1008, "too_many_connections")
    watchers.pop().close()
    time.sleep(0.5)
    with server.spectator(created["spectator"]) as again:
        assert again.state_where(lambda s: True)["table_id"] == created["table_id"], (
            "a closed connection frees its place"
        )
    for watcher in watchers:
        watcher.close()


def test_tables_and_rulesets_created_per_client_are_limited(start_server: Start, sqlite_url: str) -> None:
    server = start_server(sqlite_url, env={"LIVERPOOL_TABLES_PER_MINUTE": "3", "LIVERPOOL_RULESETS_PER_MINUTE": "2"})
    for _ in range(3):
        server.create(seats=3)
    refused = server.post("/api/tables", {"seats": 3})
    assert refused.status_code == 429
    assert refused.json()["reason"] == "too_many_tables" and "3 tables a minute" in refused.json()["message"]
    assert 0 < int(refused.headers["retry-after"]) <= 60
    for name in ("one", "two"):
        assert server.post("/api/rulesets", {"name": name, "rules": {"base": "liverpool"}}).status_code == 201
    refused = server.post("/api/rulesets", {"name": "three", "rules": {"base": "liverpool"}})
    assert refused.status_code == 429 and refused.json()["reason"] == "too_many_rulesets"
    assert "three" not in {r["name"] for r in server.get("/api/rulesets").json()["rulesets"]}


def test_limits_are_not_hit_by_normal_play(lobby_server: ServerProcess) -> None:
    tables = [
        lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=0)
        for _ in range(10)
    ]
    lobby_server.post("/api/rulesets", {"name": "normal evening", "rules": {"base": "british"}})
    watchers = [lobby_server.spectator(t["spectator"]) for t in tables for _ in range(2)]
    token = lobby_server.join(tables[0]["invite"], 0, "Ada")
    try:
        with lobby_server.player(token) as ada:
            play_moves(ada, 20)
            for _ in range(5):
                ada.send({"type": "ping"})
                assert ada.until(lambda m: m["type"] == "pong")
            assert ada.errors == []
        for watcher in watchers:
            watcher.quiet(0.05)
            assert watcher.errors == []
    finally:
        for watcher in watchers:
            watcher.close()


# -- item 13: browser hardening -----------------------------------------------------------------------


def test_every_answer_carries_the_browser_hardening_headers(lobby_server: ServerProcess) -> None:
    answers = [
        lobby_server.get(p)
        for p in ("/", "/join/x", "/play/x", "/watch/x", "/replay/x", "/static/js/api.js", "/static/css/style.css")
    ]
    answers += [lobby_server.get(p) for p in ("/api/presets", "/api/invite/nope", "/no-such-page", "/static/nope.js")]
    answers += [lobby_server.post("/api/tables", {"seats": 99})]
    answers += [httpx.get(f"{lobby_server.http}/", headers={"Host": "evil.example"}, timeout=10)]
    assert {a.status_code for a in answers} == {200, 400, 404, 422}
    for answer in answers:
        for name, value in HARDENING.items():
            assert answer.headers.get(name) == value, (str(answer.url), name)
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY and "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY


def test_pages_have_no_inline_script_or_style() -> None:
    for page in STATIC.glob("*.html"):
        html = page.read_text()
        for script in re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.S):
            assert script.strip() == "", f"{page.name}: inline script"
        assert re.findall(r"<script\b(?![^>]*\bsrc=)[^>]*>", html) == [], f"{page.name}: a script without src"
        assert re.findall(r"\son[a-z]+\s*=", html) == [], f"{page.name}: an inline event handler"
        assert re.findall(r"\sstyle\s*=", html) == [], f"{page.name}: a style attribute"
    for script in STATIC.glob("js/*.js"):
        code = script.read_text()
        for banned in (
            r"\bstyle:\s*[`'\"]",
            r"setAttribute\(\s*['\"](style|on[a-z]+)['\"]",
            r"\binnerHTML\b",
            r"\beval\(",
            r"new Function\(",
        ):
            assert re.search(banned, code) is None, f"{script.name}: {banned} is blocked by the Content-Security-Policy"


def test_every_page_served_runs_under_the_content_security_policy(lobby_server: ServerProcess) -> None:
    """No HTML answer needs an inline script or a script from another site (FastAPI's /docs and /redoc did)."""
    paths = ["/", "/join/x", "/play/x", "/watch/x", "/replay/x", "/docs", "/redoc", "/docs/oauth2-redirect"]
    for path in paths:
        answer = lobby_server.get(path)
        if not answer.headers.get("content-type", "").startswith("text/html"):
            continue
        html = answer.text
        for script in re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.S):
            assert script.strip() == "", f"{path}: an inline script the policy blocks"
        for src in re.findall(r"<(?:script|link)\b[^>]*\b(?:src|href)=[\"']([^\"']+)", html):
            assert not re.match(r"(https?:)?//", src), f"{path}: {src} is from another site"


# -- item 3 (in part): bodies and actions -------------------------------------------------------------


def test_deep_or_malformed_bodies_get_our_error_shape(lobby_server: ServerProcess) -> None:
    bodies = [
        ("[" * 1000 + "]" * 1000, "too_deep"),
        ('{"rules": ' + '{"n": ' * 1000 + "1" + "}" * 1000 + "}", "too_deep"),
        ("{", "invalid"),
        ('{"seats": 3', "invalid"),
        ("not json at all", "invalid"),
    ]
    for path in ("/api/tables", "/api/rulesets", "/api/invite/nope/join"):
        for body, reason in bodies:
            answer = httpx.post(
                f"{lobby_server.http}{path}", content=body, headers={"Content-Type": "application/json"}, timeout=10
            )
            assert answer.status_code == 422, (path, body[:20], answer.text)
            data = answer.json()
            assert data["reason"] == reason and isinstance(data["message"], str), (path, body[:20], data)
    for answer in (lobby_server.get("/api/nope"), httpx.delete(f"{lobby_server.http}/api/presets", timeout=10)):
        assert set(answer.json()) == {"reason", "message"}, answer.text
    created = lobby_server.create(seats=3)
    with lobby_server.spectator(created["spectator"]) as watcher:
        watcher.state_where(lambda s: True)
        watcher.send('{"type": "action", "action": ' + "[" * 1000 + "]" * 1000 + "}")
        assert watcher.until(lambda m: m["type"] == "error")["reason"] == "too_deep"
        watcher.send({"type": "ping"})
        assert watcher.until(lambda m: m["type"] != "state") == {"type": "pong"}


def test_unknown_keys_inside_an_action_are_refused(lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=60_000, away_timeout_s=0)
    token = lobby_server.join(created["invite"], 0, "Ada")
    with lobby_server.player(token) as ada:
        state = ada.state_where(lambda s: s["observation"] is not None)
        ada.quiet()
        state = ada.state or state
        for action in (
            {"type": "draw_stock", "depth": 2},
            {"type": "pass", "card": "2C"},
            {"type": "draw_stock", "seat": 0, "x": 1},
        ):
            ada.act(action)
            answer = ada.until(lambda m: m["type"] == "error")
            assert answer["reason"] == "unknown_keys", (action, answer)
        ada.send({"type": "ping"})
        assert ada.until(lambda m: m["type"] != "state") == {"type": "pong"}
        assert ada.state is not None and ada.state["seq"] == state["seq"]
        if my_move(state) and any(a["type"] == "draw_stock" for a in state["legal"]):
            ada.act({"type": "draw_stock", "seat": 0})
            assert ada.state_where(lambda s: s["seq"] > state["seq"])["seq"] == state["seq"] + 1, (
                "known keys are still read"
            )
