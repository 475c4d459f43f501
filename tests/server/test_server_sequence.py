"""Issue 26, items 4 and 7: actions bound to the state they answer, and gap-free reconnects.

Each test runs a real ``liverpool serve`` (``tests/server_fixtures.py``) and talks to it over real
websockets. ``docs/security.md`` lists what each test promises; ``docs/protocol.md`` has the rules.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from browser_fixtures import Player, body, browser, open_tab, play_until
from server_fixtures import Client, ServerProcess, action_seqs, drive_to_a_buy_window, my_move, past, play_moves

from liverpool.server.actor import BACKLOG, RESUME_EVENTS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, WebSocket

__all__ = ["browser"]

GAME_S = 120.0


# -- helpers ----------------------------------------------------------------------------------------


def bound(action: dict[str, Any], seq: int, action_id: str) -> dict[str, Any]:
    """An action message bound to the state of ``seq`` actions, with a client-chosen id."""
    return {"type": "action", "action": action, "seq": seq, "id": action_id}


def all_humans(server: ServerProcess, seats: int = 3) -> tuple[dict[str, Any], list[str]]:
    created = server.create(seats=seats, away_timeout_s=0)
    tokens = [server.join(created["invite"], s, f"P{s}") for s in range(seats)]
    return created, tokens


def started(client: Client) -> dict[str, Any]:
    """The first state in which the game is under way and someone must draw."""
    return client.current(lambda s: s["observation"] is not None and s["observation"]["phase"] == "draw")


def of_type(kind: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: bool(m["type"] == kind)


def pick(state: dict[str, Any], *kinds: str) -> dict[str, Any]:
    for kind in kinds:
        for action in state["legal"]:
            if action["type"] == kind:
                return dict(action)
    pytest.fail(f"none of {kinds} in {state['legal']}")


def event_seqs(messages: list[dict[str, Any]]) -> list[int]:
    return [m["seq"] for m in messages if m["type"] == "event"]


def no_hidden_cards(messages: list[dict[str, Any]], seat: int | None) -> None:
    """Every state shows the hand of ``seat`` only (none to a spectator); nothing names the stock or hands,
    but for the hands of the deals that have ended, which everyone sees (issue 24 item 10: a deal's end is public)."""
    during = copy.deepcopy(messages)
    for m in during:
        if m["type"] == "state" and m["observation"] is not None:
            for result in m["observation"].get("results", []):
                assert len(result.pop("hands")) == len(m["observation"]["seats"]), "a deal's end shows every hand"
    assert '"hands"' not in json.dumps(during) and '"stock":' not in json.dumps(during)
    for m in messages:
        if m["type"] == "state" and m["observation"] is not None:
            obs = m["observation"]
            assert m["seat"] == seat and obs["viewer"] == seat
            if seat is None:
                assert obs["hand"] == [] and m["legal"] == []
            else:
                assert len(obs["hand"]) == obs["seats"][seat]["hand_count"]
                assert all(a["seat"] == seat for a in m["legal"])


def wait_for_actions(server: ServerProcess, table_id: str, count: int, timeout: float = GAME_S) -> None:
    deadline = time.monotonic() + timeout
    while len(action_seqs(server.db, table_id)) < count:
        if time.monotonic() > deadline:
            pytest.fail(f"the table did not reach {count} actions in {timeout}s")
        time.sleep(0.2)


# -- item 4: actions bound to the state they answer -------------------------------------------------


def test_an_action_chosen_at_an_older_seq_is_refused_as_stale(lobby_server: ServerProcess) -> None:
    """A draw chosen before the discard pile changed is refused (``stale``), followed by a fresh state,
    and nothing changes; the same draw chosen at the current seq is played."""
    created, tokens = all_humans(lobby_server)
    clients = [lobby_server.player(t) for t in tokens]
    try:
        first = started(clients[0])
        seq, current = first["seq"], first["observation"]["current"]
        nxt = (current + 1) % 3
        before = started(clients[nxt])
        assert before["seq"] == seq
        pile_then = before["observation"]["discard_pile"]
        mover = clients[current]
        mover.send(bound(pick(started(mover), "draw_discard"), seq, "a1"))
        assert mover.until(of_type("ack")) == {"type": "ack", "id": "a1", "seq": seq + 1}
        after_draw = mover.current(lambda s: s["seq"] == seq + 1)
        mover.send(bound(pick(after_draw, "discard"), seq + 1, "a2"))
        assert mover.until(of_type("ack"))["seq"] == seq + 2
        waiting = clients[nxt]
        now = waiting.state_where(
            lambda s: (
                s["seq"] == seq + 2 and nxt in {a["seat"] for a in s["legal"]} and s["observation"]["current"] == nxt
            )
        )
        assert now["observation"]["discard_pile"] != pile_then, "the pile changed between the choice and the send"
        draw = pick(now, "draw_discard", "draw_stock")
        stored = action_seqs(lobby_server.db, created["table_id"])
        waiting.send(bound(draw, seq, "b1"))  # chosen when the pile was pile_then
        refusal = waiting.until(lambda m: m["type"] in ("error", "ack"))
        assert refusal["type"] == "error" and refusal["reason"] == "stale", refusal
        assert refusal["seq"] == seq + 2 and "seq " + str(seq) in refusal["message"]
        fresh = waiting.receive()
        assert fresh["type"] == "state" and fresh["seq"] == seq + 2 and fresh["seat"] == nxt
        assert action_seqs(lobby_server.db, created["table_id"]) == stored
        waiting.send(bound(draw, seq + 2, "b2"))
        assert waiting.until(lambda m: m["type"] in ("error", "ack")) == {"type": "ack", "id": "b2", "seq": seq + 3}
        assert action_seqs(lobby_server.db, created["table_id"]) == list(range(seq + 3))
    finally:
        for c in clients:
            c.close()


def pass_the_window(clients: list[Client], window: dict[str, Any]) -> None:
    """Every seat of the buy window open in ``window`` that has not answered yet passes."""
    obs = window["observation"]
    answered, seq = {s for s, _ in obs["window_answers"]}, window["seq"]
    for seat in [s for s in obs["window"] if s not in answered]:
        state = clients[seat].current(lambda s, q=seq: s["seq"] == q)
        clients[seat].send({"type": "action", "action": pick(state, "pass"), "seq": seq})
        clients[seat].state_where(past(seq))
        seq += 1


def buy_window_with(clients: list[Client], buyer: int, after: int) -> dict[str, Any]:
    """Play on, every buy window closing unanswered, until a window opens after ``after`` actions in which
    ``buyer`` may buy; that window's state as ``buyer`` sees it."""
    while True:
        window = drive_to_a_buy_window(clients)
        assert window is not None, "the game ended before another buy window"
        mine = clients[buyer].current(lambda s, q=window["seq"]: s["seq"] == q)
        if mine["seq"] > after and any(a["type"] == "buy" for a in mine["legal"]):
            return mine
        pass_the_window(clients, window)


def test_a_buy_chosen_for_an_older_discard_is_refused_as_stale(lobby_server: ServerProcess) -> None:
    """RULES.md §3 buying: who, when (``contract``: after the next player declines the discard). A buy
    chosen while one discard was on offer, and sent only after that window closed and another discard is
    on offer, is refused with ``stale`` and buys nothing: it would otherwise buy a card its sender never
    saw. The same buy chosen at the current ``seq`` buys the discard on offer now."""
    created = lobby_server.create(preset="contract", seats=4, away_timeout_s=0, buy_timeout_s=600)
    tokens = [lobby_server.join(created["invite"], s, f"P{s}") for s in range(4)]
    clients = [lobby_server.player(t) for t in tokens]
    try:
        for client in clients:
            started(client)
        first = drive_to_a_buy_window(clients)
        assert first is not None
        buyer = first["observation"]["window"][0]
        then = clients[buyer].current(lambda s: s["seq"] == first["seq"])
        old_buy = pick(then, "buy")
        chosen_at, pile_then = then["seq"], then["observation"]["discard_pile"]
        now = buy_window_with(clients, buyer, chosen_at)
        assert now["observation"]["discard_pile"] != pile_then, "another discard is on offer"
        stored = action_seqs(lobby_server.db, created["table_id"])
        assert len(stored) == now["seq"] > chosen_at
        buyer_client = clients[buyer]
        buyer_client.send(bound(old_buy, chosen_at, "old-buy"))
        refusal = buyer_client.until(lambda m: m["type"] in ("error", "ack"))
        assert refusal["type"] == "error" and refusal["reason"] == "stale", refusal
        assert refusal["seq"] == now["seq"] and f"seq {chosen_at}" in refusal["message"]
        fresh = buyer_client.receive()
        assert fresh["type"] == "state" and fresh["seq"] == now["seq"]
        assert fresh["observation"]["hand"] == now["observation"]["hand"]
        assert fresh["observation"]["seats"][buyer]["buys"] == now["observation"]["seats"][buyer]["buys"]
        assert action_seqs(lobby_server.db, created["table_id"]) == stored, "the stale buy stored nothing"
        for client in clients:
            client.quiet()
            assert all(e["seq"] < now["seq"] for e in client.events), "no event came of the stale buy"
        offered = now["observation"]["discard_pile"][-1]
        buyer_client.send(bound(pick(fresh, "buy"), now["seq"], "new-buy"))
        assert buyer_client.until(lambda m: m["type"] in ("error", "ack"))["type"] == "ack"
        pass_the_window(clients, buyer_client.current(past(now["seq"])))
        bought = buyer_client.state_where(lambda s: s["observation"]["seats"][buyer]["buys"] > 0)
        assert (
            len(bought["observation"]["hand"]) == len(fresh["observation"]["hand"]) + 2
        )  # the discard and a penalty card
        assert offered in bought["observation"]["hand"]
    finally:
        for c in clients:
            c.close()


def test_a_repeated_action_id_is_applied_once_and_acknowledged_twice(lobby_server: ServerProcess) -> None:
    created, tokens = all_humans(lobby_server)
    clients = [lobby_server.player(t) for t in tokens]
    try:
        first = started(clients[0])
        seq = first["seq"]
        mover = clients[first["observation"]["current"]]
        message = bound(pick(started(mover), "draw_stock"), seq, "same-id")
        mover.send(message)
        assert mover.until(lambda m: m["type"] in ("ack", "error")) == {"type": "ack", "id": "same-id", "seq": seq + 1}
        mover.send(message)
        assert mover.until(lambda m: m["type"] in ("ack", "error")) == {"type": "ack", "id": "same-id", "seq": seq + 1}
        mover.send({**message, "seq": seq + 1})  # the same id, even re-bound to the new state, is not played again
        assert mover.until(lambda m: m["type"] in ("ack", "error")) == {"type": "ack", "id": "same-id", "seq": seq + 1}
        mover.quiet()
        assert not mover.errors
        assert action_seqs(lobby_server.db, created["table_id"]) == list(range(seq + 1))
        assert [e["seq"] for e in mover.events if e["seq"] >= seq] == [seq]
        assert mover.state is not None and mover.state["seq"] == seq + 1
    finally:
        for c in clients:
            c.close()


def test_actions_without_seq_and_id_are_played_as_before(lobby_server: ServerProcess) -> None:
    """Older clients (no ``seq``, no ``id``) are accepted: the action is played against the state of the
    moment and not acknowledged. A ``seq`` or ``id`` of the wrong type is ``malformed``."""
    created, tokens = all_humans(lobby_server)
    clients = [lobby_server.player(t) for t in tokens]
    try:
        first = started(clients[0])
        seq = first["seq"]
        mover = clients[first["observation"]["current"]]
        draw = pick(started(mover), "draw_stock")
        for bad in ({"seq": "3"}, {"seq": -1}, {"seq": 1.5}, {"seq": True}, {"id": 7}, {"id": ""}, {"id": "x" * 65}):
            mover.send({"type": "action", "action": draw, **bad})
            refusal = mover.until(of_type("error"))
            assert refusal["reason"] == "malformed", (bad, refusal)
        assert action_seqs(lobby_server.db, created["table_id"]) == list(range(seq))
        mover.act(draw)
        mover.state_where(lambda s: s["seq"] == seq + 1)
        mover.quiet()
        assert not [m for m in mover.received if m["type"] == "ack"]
        assert len(mover.errors) == 7
        assert action_seqs(lobby_server.db, created["table_id"]) == list(range(seq + 1))
    finally:
        for c in clients:
            c.close()


# -- item 7: gap-free reconnect -----------------------------------------------------------------------


def test_a_reconnect_with_since_gets_exactly_the_missed_updates(
    start_server: Callable[..., ServerProcess], sqlite_url: str
) -> None:
    """A seat and a spectator drop, the game goes on without them (a bot plays the away seat), and each
    reconnects with ``?since=`` the seq of the last state it saw: each gets the missed events, with no
    gap and no duplicate, then its own state; the seat sees only its own hand, the spectator none."""
    server = start_server(sqlite_url)
    created = server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=20, away_timeout_s=1)
    token = server.join(created["invite"], 0, "Ada")
    me, watcher = server.player(token), server.spectator(created["spectator"])
    play_moves(me, 3)
    me.quiet(0.5)
    watcher.quiet(0.5)
    assert me.state is not None and watcher.state is not None
    mine, theirs = me.state["seq"], watcher.state["seq"]
    assert mine == theirs and my_move(me.state), "the table waits for seat 0"
    before = {"seat": me.received, "spectator": watcher.received}
    me.close()
    watcher.close()
    wait_for_actions(server, created["table_id"], mine + 40)
    again = {
        "seat": server.connect(f"/ws/play/{token}?since={mine}"),
        "spectator": server.connect(f"/ws/watch/{created['spectator']}?since={theirs}"),
    }
    try:
        for who, client in again.items():
            first_state = client.state_where(lambda s: True)
            client.quiet(0.5)
            resumed = client.received[: client.received.index(first_state) + 1]
            old = event_seqs(before[who])
            assert old == list(range(old[0], mine)), f"{who}: the first connection had a gap"
            assert first_state["resumed"] is True
            assert event_seqs(resumed) == list(range(mine, first_state["seq"])), f"{who}: not exactly the missed events"
            assert first_state["seq"] >= mine + 40
            every = old + event_seqs(client.received)
            assert every == list(range(old[0], every[-1] + 1)), f"{who}: a gap or a duplicate"
            assert client.state is not None and client.state["seq"] == every[-1] + 1
            no_hidden_cards(client.received, 0 if who == "seat" else None)
    finally:
        for client in again.values():
            client.close()


def test_a_reconnect_from_too_long_ago_gets_a_full_state(
    start_server: Callable[..., ServerProcess], sqlite_url: str
) -> None:
    """When the missed events are no longer all kept (more than the server keeps, or a ``since`` the
    table never had), the client gets the last events and a full state, marked ``resumed: false``; a
    ``since`` that is not a number is answered ``malformed`` and gets the same."""
    server = start_server(sqlite_url)
    created = server.create(seats=3, bots={str(s): "random" for s in range(3)}, bot_pace_ms=0)
    with server.spectator(created["spectator"]) as watcher:
        watcher.state_where(lambda s: s["status"] == "over", GAME_S)
    total = len(action_seqs(server.db, created["table_id"]))
    assert total > RESUME_EVENTS + 1, "the game must be longer than the events kept"
    for since, problem in ((1, None), (total + 5, None), ("abc", "malformed"), ("-3", "malformed")):
        with server.connect(f"/ws/watch/{created['spectator']}?since={since}") as client:
            state = client.state_where(lambda s: True)
            assert state["resumed"] is False and state["seq"] == total, since
            assert event_seqs(client.received) == list(range(total - BACKLOG, total)), since
            assert [e["reason"] for e in client.errors] == ([problem] if problem else []), since
    with server.connect(f"/ws/watch/{created['spectator']}?since={total - 10}") as client:
        state = client.state_where(lambda s: True)
        assert state["resumed"] is True and event_seqs(client.received) == list(range(total - 10, total))


def test_a_reconnect_after_a_server_restart_gets_exactly_the_missed_updates(
    start_server: Callable[..., ServerProcess], sqlite_url: str
) -> None:
    """The events kept for reconnects are rebuilt from the stored log when the server starts again."""
    server = start_server(sqlite_url)
    created = server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=0)
    token = server.join(created["invite"], 0, "Ada")
    with server.player(token) as me:
        play_moves(me, 2)
        me.quiet(0.3)
        assert me.state is not None
        mine = me.state["seq"]
    play = server.connect(f"/ws/play/{token}")
    state = play.state_where(lambda s: True)
    play.act(simple(state))
    play.state_where(lambda s: s["seq"] > mine)
    play.close()
    server.kill()
    server.start()
    total = len(action_seqs(server.db, created["table_id"]))
    with server.connect(f"/ws/play/{token}?since={mine}") as client:
        state = client.state_where(lambda s: True)
        assert state["resumed"] is True and state["seq"] >= total
        assert event_seqs(client.received) == list(range(mine, state["seq"]))
        no_hidden_cards(client.received, 0)


def simple(state: dict[str, Any]) -> dict[str, Any]:
    return pick(state, "draw_stock", "pass", "discard", "end_turn")


# -- the browser -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_browser_binds_its_actions_and_resumes_with_since(
    browser: Browser, start_server: Callable[..., ServerProcess], sqlite_url: str
) -> None:
    """The table page sends every action with the ``seq`` it shows and a new ``id``, and after a lost
    connection reconnects with ``?since=`` the ``seq`` of the last state it showed."""
    server = start_server(sqlite_url)
    created = server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=0)
    token = server.join(created["invite"], 0, "Ada")
    tab = open_tab(browser)
    urls: list[str] = []
    sent: list[dict[str, Any]] = []

    def opened(socket: WebSocket) -> None:
        urls.append(socket.url)
        socket.on("framesent", lambda payload: sent.append(json.loads(payload)))

    tab.page.on("websocket", opened)
    tab.goto(f"{server.http}/play/{token}")
    ada = Player(tab)
    play_until([ada], lambda: sum(ada.moves.values()) >= 4, limit_s=60)
    actions = [m for m in sent if m["type"] == "action"]
    assert len(actions) >= 4
    assert all(isinstance(m["seq"], int) and m["seq"] > 0 for m in actions)
    assert len({m["id"] for m in actions}) == len(actions), "a new id for each action"
    assert "?since=" not in urls[0]
    server.kill()
    tab.page.wait_for_function("() => document.body.dataset.connection !== 'open'")
    # Read once the connection is gone: bots keep playing until the kill, so a state can still arrive
    # between any earlier reading and the kill.
    shown = int(body(tab, "seq"))
    server.start()
    tab.page.wait_for_function("() => document.body.dataset.connection === 'open'", timeout=30_000)
    assert urls[-1].endswith(f"?since={shown}")
    play_until([ada], lambda: sum(ada.moves.values()) >= 8, limit_s=60)
    assert tab.errors == []
