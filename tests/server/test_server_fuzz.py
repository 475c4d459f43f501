"""Every action validated (issue 26, item 3): fuzzed websocket and HTTP messages against a real server.

Hypothesis writes messages of every kind an attacker or a broken client could send: malformed JSON,
values of the wrong type, actions naming another seat, actions out of turn, cards not in the hand,
the same card twice, nesting past the limit, large bodies, unknown keys inside an action. They are
sent to a real ``liverpool serve`` (SQLite) over real websockets (by each seat and a spectator) and
to every HTTP route. Each must be answered with our error shape (``{"type": "error", "reason",
"message"}`` on a websocket, ``{"reason", "message"}`` and a 4xx status over HTTP), and afterwards

- no action was stored, no ``event`` or ``ack`` reached anyone,
- the state rebuilt from the stored log has the same hash (``snapshot``, every hidden card included)
  and every physical card of the shoe is in exactly one place (``liverpool.fuzz.card_problem``),
- a fresh connection of each seat and of a spectator sees exactly what it saw before.

The table has three humans and no bot, so nothing but these messages could change it.
``LIVERPOOL_FUZZ_MESSAGES=N`` sends N websocket messages (300 by default) and N/6 pairs of HTTP requests.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from server_fixtures import Client, ServerProcess, my_move, simple_choice

from liverpool.engine.actions import action_from_dict
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.record import snapshot
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import GameState
from liverpool.fuzz import card_problem
from liverpool.server.schemas import MAX_DEPTH, MAX_MESSAGE_BYTES
from liverpool.server.storage import Storage

MESSAGES = int(os.environ.get("LIVERPOOL_FUZZ_MESSAGES", "300"))
NAMES = ("Ada", "Bea", "Cy")
ACTION_TYPES = (
    "draw_stock",
    "draw_discard",
    "buy",
    "pass",
    "go_down",
    "lay_off",
    "swap_joker",
    "discard",
    "end_turn",
    "call",
    "shuffle",
    "reshuffle",
)
ACTION_KEYS = {"type", "seat", "card", "depth", "melds", "meld", "end", "joker", "deck", "cut", "stock"}
UNSTABLE = {"connected", "deadline", "clock"}  # what follows who is connected and the time


@dataclass
class Table:
    """The fuzzed table: its server, seat tokens, open connections and what each saw at the start."""

    server: ServerProcess
    table_id: str
    spectator: str
    tokens: list[str]
    clients: list[Client]
    watcher: Client
    current: int
    hand: list[str]
    others: list[str]
    stored: int
    digest: str
    views: list[dict[str, Any]] = field(default_factory=list)

    def client(self, sender: int) -> Client:
        return self.watcher if sender == len(self.clients) else self.clients[sender]


def stable(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in UNSTABLE}


def rebuilt(db: str, table_id: str) -> tuple[int, GameState]:
    """The number of stored actions and the state they rebuild, straight from the database."""
    storage = Storage(db)
    try:
        info = storage.table(table_id)
        assert info is not None
        state = new_game(Ruleset.from_dict(info.ruleset), info.seat_count, info.first_dealer)
        stored = storage.actions(table_id)
    finally:
        storage.close()
    for raw in stored:
        apply(state, action_from_dict(raw))
    return len(stored), state


def state_hash(state: GameState) -> str:
    return hashlib.sha256(snapshot(state).encode()).hexdigest()


def fresh_views(server: ServerProcess, tokens: list[str], spectator: str) -> list[dict[str, Any]]:
    """What a new connection of each seat, then of a spectator, is shown first."""
    views = []
    for path in [*(f"/ws/play/{t}" for t in tokens), f"/ws/watch/{spectator}"]:
        with server.connect(path) as client:
            views.append(stable(client.state_where(lambda s: True)))
    return views


def play_until_a_hand_is_held(clients: list[Client]) -> dict[str, Any]:
    """Play simple moves (passing any buy) until the seat to move has drawn; its state then."""
    for _ in range(20):
        for client in clients:
            client.quiet()
        for client in clients:
            state = client.current(lambda s: s["observation"] is not None)
            if state["observation"]["phase"] == "play" and state["observation"]["current"] == state["seat"]:
                return state
        mover = next(c for c in clients if c.state is not None and my_move(c.state))
        assert mover.state is not None
        before = mover.state["seq"]
        mover.act(simple_choice(mover.state))
        mover.state_where(lambda s, before=before: s["seq"] > before)
    pytest.fail("no seat came to hold a hand to play from")


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """Three humans; the seat to move has drawn, so it holds a hand it may discard from (RULES.md §2 turn)."""
    folder: Path = tmp_path_factory.mktemp("fuzz")
    # The per-connection rate limit is off: hypothesis sends faster than a person (the limit has its own test).
    env = {
        "LIVERPOOL_WS_MESSAGES_PER_10S": "0",
        "LIVERPOOL_TABLES_PER_MINUTE": "0",
        "LIVERPOOL_RULESETS_PER_MINUTE": "0",
    }
    server = ServerProcess(f"sqlite:///{folder / 'tables.db'}", folder, env=env).start()
    try:
        created = server.create(seats=3, bot_pace_ms=60_000, away_timeout_s=0)
        tokens = [server.join(created["invite"], seat, name) for seat, name in enumerate(NAMES)]
        clients = [server.player(t) for t in tokens]
        drawn = play_until_a_hand_is_held(clients)
        watcher = server.spectator(created["spectator"])
        watcher.state_where(lambda s: True)
        for client in clients:
            client.quiet()
        stored, state = rebuilt(server.db, created["table_id"])
        current = drawn["seat"]
        hand = list(drawn["observation"]["hand"])
        others = [str(c) for s, h in enumerate(state.hands) if s != current for c in h]
        fuzzed = Table(
            server,
            created["table_id"],
            created["spectator"],
            tokens,
            clients,
            watcher,
            current,
            hand,
            others,
            stored,
            state_hash(state),
        )
        fuzzed.views = fresh_views(server, tokens, created["spectator"])
        for client in [*clients, watcher]:
            client.quiet()
            client.events.clear()  # the setup's; from here on none may come
        yield fuzzed
        for client in [*clients, watcher]:
            client.close()
    finally:
        server.stop()


# -- what is sent -------------------------------------------------------------------------------------

JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@st.composite
def a_card(draw: st.DrawFn, table: Table, own: bool) -> Any:
    """A card text from the sender's hand (``own``), another hand, none at all, or not a card."""
    pools = [st.sampled_from(table.others), st.sampled_from(["ZZ", "1S", "11H", "JK#9", "", "7X", "AS#0"]), JUNK]
    if own:
        pools.append(st.sampled_from(table.hand))
    return draw(st.one_of(*pools))


@st.composite
def an_action(draw: st.DrawFn, table: Table, sender: int) -> tuple[dict[str, Any], set[str] | None]:
    """An action no seat may play now, and the reasons it may be refused with (None: any reason)."""
    current = sender == table.current
    kind = draw(st.sampled_from(["wrong_seat", "out_of_turn", "not_in_hand", "duplicated", "unknown_key", "junk"]))
    if kind == "wrong_seat":
        other = draw(st.sampled_from([s for s in range(3) if s != sender] + [7, -1]))
        card = draw(st.sampled_from(table.hand))
        action = {"type": "discard", "seat": other, "card": card}
        return action, {"not_your_seat"} if sender < 3 else {"spectator"}
    if kind == "out_of_turn":
        # Whatever a seat sends, the seat to move has already drawn: a second draw is out of turn for
        # all, and the others may not discard before their turn.
        action = {"type": draw(st.sampled_from(["draw_stock", "draw_discard", "buy", "pass", "end_turn", "call"]))}
        if not current:
            action = draw(st.sampled_from([action, {"type": "discard", "card": draw(a_card(table, own=False))}]))
        return action, None
    if kind == "not_in_hand":
        card = draw(st.sampled_from(table.others) | st.sampled_from(["ZZ", "1S", "JK#9"]))
        action = draw(
            st.sampled_from(
                [
                    {"type": "discard", "card": card},
                    {"type": "lay_off", "card": card, "meld": 0},
                    {"type": "go_down", "melds": [{"kind": "set", "cards": [card, card, card], "low": 0}]},
                ]
            )
        )
        return action, None
    if kind == "duplicated":
        card = draw(st.sampled_from(table.hand))
        melds = [{"kind": draw(st.sampled_from(["set", "run"])), "cards": [card] * draw(st.integers(2, 5)), "low": 0}]
        return {"type": "go_down", "melds": melds * draw(st.integers(1, 3))}, None
    if kind == "unknown_key":
        action = {"type": draw(st.sampled_from(ACTION_TYPES[:10]))}
        if current and action["type"] == "discard":
            action["card"] = draw(st.sampled_from(table.hand))  # legal but for the unknown key
        key = draw(st.text(min_size=1, max_size=10).filter(lambda k: k not in ACTION_KEYS))
        action[key] = draw(JUNK)
        return action, {"unknown_keys", "malformed"}
    action = draw(
        st.dictionaries(st.sampled_from(["type", "seat", "card", "melds", "meld", "end", "depth", "joker"]), JUNK)
    )
    if draw(st.booleans()):
        action["type"] = draw(st.sampled_from(ACTION_TYPES) | st.text(max_size=10))
    if current and action.get("type") == "discard":
        assume(action.get("card") not in table.hand)
    return action, None


@st.composite
def a_message(draw: st.DrawFn, table: Table) -> tuple[int, str | bytes, set[str] | None]:
    """Who sends (a seat, or 3 for the spectator), the raw message, and the reasons it may get."""
    sender = draw(st.integers(0, 3))
    kind = draw(st.sampled_from(["action"] * 6 + ["malformed", "wrong_type", "deep", "large", "bytes"]))
    if kind == "action":
        action, reasons = draw(an_action(table, sender))
        message: dict[str, Any] = {"type": "action", "action": action}
        if draw(st.booleans()):
            message["id"] = draw(st.text(min_size=1, max_size=64))
        if sender == 3:
            reasons = {"spectator"}  # a spectator's action is refused before it is read
        return sender, json.dumps(message), reasons
    if kind == "malformed":
        text = draw(st.text(max_size=40))
        try:
            json.loads(text)
        except ValueError:
            return sender, text, {"malformed", "too_deep"}
        return sender, text + "{", {"malformed", "too_deep"}
    if kind == "wrong_type":
        message = draw(
            st.sampled_from(
                [
                    {"type": "action", "action": draw(JUNK.filter(lambda v: not isinstance(v, dict)))},
                    {"type": "action", "action": {"type": "draw_stock"}, "seq": draw(JUNK.filter(_not_seq))},
                    {"type": draw(st.text(max_size=8).filter(lambda t: t not in ("action", "ping", "next_deal")))},
                    {"type": "ping", draw(st.text(min_size=1, max_size=5).filter(lambda k: k != "type")): draw(JUNK)},
                ]
            )
        )
        top = draw(st.sampled_from([message, [message], draw(JUNK.filter(lambda v: not isinstance(v, dict)))]))
        return sender, json.dumps(top), {"malformed"}
    if kind == "deep":
        depth = draw(st.integers(MAX_DEPTH + 1, 2_000))
        return sender, '{"type": "action", "action": ' + nested(depth) + "}", {"too_deep"}
    if kind == "large":
        size = draw(st.integers(1_000, MAX_MESSAGE_BYTES - 200))
        key = draw(st.sampled_from(["card", "melds", "padding"]))
        body = json.dumps({"type": "action", "action": {"type": "discard", key: "x" * size}})
        return sender, body, None
    raw = draw(st.binary(max_size=40))
    return sender, raw, {"malformed", "too_deep"}


def _not_seq(value: Any) -> bool:
    return not (isinstance(value, int) and not isinstance(value, bool) and value >= 0) and value is not None


def answer_to(client: Client, sent: str | bytes) -> dict[str, Any]:
    """Send ``sent`` and read until its error, then a ping until its pong: exactly one error, and no event
    and no ack, may come (a ping is answered by the connection at once, an action by the table in turn)."""
    client.send(sent)
    errors: list[dict[str, Any]] = []
    pinged = False
    while True:
        message = client.receive(timeout=10)
        assert message["type"] not in ("event", "ack"), f"{sent[:200]!r} was played: {message}"
        if message["type"] == "error":
            errors.append(message)
            if not pinged:
                client.send({"type": "ping"})
                pinged = True
        if message["type"] == "pong":
            break
    assert len(errors) == 1, f"{sent[:200]!r} got {len(errors)} errors: {errors}"
    return errors[0]


def check_unchanged(table: Table) -> None:
    stored, state = rebuilt(table.server.db, table.table_id)
    assert stored == table.stored, "an action was stored"
    assert state_hash(state) == table.digest, "the state rebuilt from the log changed"
    assert card_problem(state) is None, card_problem(state)
    for now, then in zip(fresh_views(table.server, table.tokens, table.spectator), table.views, strict=True):
        changed = {k: (then.get(k), now.get(k)) for k in set(now) | set(then) if now.get(k) != then.get(k)}
        assert changed == {}, f"seat {then['seat']} is shown something else: {changed}"
    for client in [*table.clients, table.watcher]:
        client.quiet(0.1)
        assert not client.events, client.events


@settings(max_examples=MESSAGES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data())
def test_fuzzed_websocket_messages_are_refused_and_change_nothing(table: Table, data: st.DataObject) -> None:
    sender, sent, reasons = data.draw(a_message(table))
    error = answer_to(table.client(sender), sent)
    extra = set(error) - {"type", "reason", "message"}
    # the engine's fault (docs/protocol.md, "Faults"): its code and parameters, for a page to word
    assert extra <= ({"seq"} if error["reason"] == "stale" else {"fault"}), error
    if "fault" in error:
        assert set(error["fault"]) == {"code", "params"} and isinstance(error["fault"]["code"], str), error
    assert isinstance(error["reason"], str) and error["reason"], error
    assert isinstance(error["message"], str) and error["message"], error
    if reasons is not None and "*" not in reasons:
        assert error["reason"] in reasons, (sent[:200], error)


def test_the_table_is_unchanged_after_the_websocket_fuzz(table: Table) -> None:
    # Runs after the fuzz above (same module fixture); also valid alone, on an untouched table.
    check_unchanged(table)


# -- HTTP ---------------------------------------------------------------------------------------------


@st.composite
def a_body(draw: st.DrawFn, table: Table) -> tuple[str, bytes]:
    """A body no route may accept: not JSON, not an object, an unknown key, a field of the wrong type,
    too deep or too large."""
    kind = draw(st.sampled_from(["not_json", "not_object", "unknown_key", "wrong_type", "deep", "large"]))
    if kind == "not_json":
        text = draw(st.text(min_size=1, max_size=40))
        try:
            json.loads(text)
            text += "}"
        except ValueError:
            pass
        return kind, text.encode()
    if kind == "not_object":
        return kind, json.dumps(draw(JUNK.filter(lambda v: not isinstance(v, dict)))).encode()
    if kind == "unknown_key":
        key = draw(st.text(min_size=1, max_size=8).filter(lambda k: k not in KNOWN_FIELDS))
        return kind, json.dumps({key: draw(JUNK)}).encode()
    if kind == "wrong_type":
        name = draw(st.sampled_from(["seats", "seat", "name", "slots", "rules", "bots", "bot_pace_ms", "preset"]))
        # (not None for rules, which may be null, nor booleans, which pydantic reads as 0 and 1)
        value = draw(st.sampled_from([[1, 2], {"a": 1}, "many", -5, 10**9] + ([] if name == "rules" else [None])))
        body: dict[str, Any] = {name: value}
        if name in ("seat", "name"):
            body = {"seat": 0, "name": "Eve", name: value}
        return kind, json.dumps(body).encode()
    if kind == "deep":
        return kind, ('{"rules": ' + nested(draw(st.integers(MAX_DEPTH + 1, 3_000))) + "}").encode()
    return kind, b'{"name": "' + b"x" * draw(st.integers(MAX_MESSAGE_BYTES + 1, 2 * MAX_MESSAGE_BYTES)) + b'"}'


KNOWN_FIELDS = {
    "seats",
    "seat",
    "name",
    "slots",
    "choices",
    "rules",
    "bots",
    "preset",
    "away_timeout_s",
    "bot_pace_ms",
    "buy_timeout_s",
    "next_deal_timeout_s",
    "turn_limit_s",
}


def post_routes(table: Table, other_token: str) -> list[str]:
    """Every route that takes a body or changes something, with real and made-up links."""
    return [
        "/api/tables",
        "/api/rulesets",
        "/api/replay",
        "/api/invite/nope/join",
        f"/api/seat/{table.tokens[table.current]}/draft",
        f"/api/seat/{other_token}/draft",
        "/api/seat/not-a-token/draft",
        f"/api/seat/{table.tokens[table.current]}/rematch",
        "/api/seat/not-a-token/rematch",
    ]


GET_ROUTES = (
    "/api/invite/{x}",
    "/api/tables/{x}/record",
    "/api/tables/{x}/replay",
    "/api/tables/{x}/rules",
    "/api/my-tables?tokens={x}",
    "/api/{x}",
)


def refused(answer: httpx.Response, what: str) -> None:
    assert 400 <= answer.status_code < 500, (what, answer.status_code, answer.text[:300])
    data = answer.json()
    assert isinstance(data, dict) and {"reason", "message"} <= set(data), (what, data)
    # the details a page words a refusal from: numbers; a house rule and its problem, a bot's name (docs/protocol.md)
    assert set(data) <= {"reason", "message", "field", "errors", "limit", "wait_s", "rule", "problem", "bot"}, (
        what,
        data,
    )
    assert all(isinstance(data[number], int) for number in {"limit", "wait_s"} & set(data)), (what, data)
    assert all(isinstance(data[name], str) for name in {"rule", "problem", "bot"} & set(data)), (what, data)
    assert isinstance(data["reason"], str) and isinstance(data["message"], str) and data["message"], (what, data)


@settings(max_examples=max(MESSAGES // 6, 10), deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data())
def test_fuzzed_http_requests_are_refused_and_change_nothing(table: Table, data: st.DataObject) -> None:
    routes = post_routes(table, table.tokens[(table.current + 1) % 3])
    route = data.draw(st.sampled_from(routes))
    kind, body = data.draw(a_body(table))
    # (The rematch route reads no body: before the game is over it is refused whatever is sent.)
    answer = httpx.post(
        f"{table.server.http}{route}", content=body, headers={"Content-Type": "application/json"}, timeout=10
    )
    refused(answer, f"POST {route} with a {kind} body {body[:80]!r}")
    junk = "zz" + data.draw(st.text(max_size=80))  # "zz": never a real route's name
    path = data.draw(st.sampled_from(GET_ROUTES)).format(x=quote(junk, safe=""))
    answer = httpx.get(f"{table.server.http}{path}", timeout=10)
    if path.startswith("/api/my-tables"):
        assert answer.status_code == 200 and answer.json() == {"tables": []}, answer.text  # no such link: nothing
    else:
        refused(answer, f"GET {path}")


def test_the_table_is_unchanged_after_the_http_fuzz(table: Table) -> None:
    check_unchanged(table)
