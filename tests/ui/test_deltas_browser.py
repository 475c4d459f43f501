"""The table page and the server's deltas (issue 27, item 2; docs/protocol.md): ``static/js/patch.js`` applies
the patches :func:`liverpool.server.deltas.diff` makes to what the server's own states become, and a page
that misses a delta (dropped here by a websocket route between the page and a real server) asks for a
``resync`` and goes on from the whole state it is sent."""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import TYPE_CHECKING, Any

from browser_fixtures import body, browser, open_tab
from server_fixtures import ServerProcess

from liverpool.engine import (
    action_to_dict,
    apply,
    chance_action,
    find_preset,
    is_chance,
    legal_actions,
    new_game,
    observe,
)
from liverpool.server.deltas import diff

if TYPE_CHECKING:
    from playwright.sync_api import Browser, WebSocketRoute

__all__ = ["browser"]

SEED = 27
APPLY = """async (cases) => {
  const { applyPatch } = await import("/static/js/patch.js");
  return cases.map(([doc, patch]) => {
    try { return { value: applyPatch(doc, patch), doc }; } catch (error) { return { error: error.reason, doc }; }
  });
}"""


def game_views(seat: int | None, seed: int = SEED) -> list[dict[str, Any]]:
    """The ``observation`` and ``legal`` of ``seat`` after each action of a seeded game of random moves."""
    rng = random.Random(seed)
    state = new_game(find_preset("liverpool"), 4, 0)
    views = []
    while not state.is_over and len(views) < 400:
        apply(state, chance_action(state, rng) if is_chance(state) else rng.choice(legal_actions(state)))
        legal = [action_to_dict(a) for a in legal_actions(state) if seat is not None and a.seat == seat]
        views.append({"seq": len(state.history), "observation": observe(state, seat).to_client_dict(), "legal": legal})
    return views


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(6 if depth < 3 else 3)
    if kind == 0:
        return rng.choice([None, True, False, "", "a/b", "~0", "7♥"])
    if kind in (1, 2):
        return rng.randrange(-3, 4)
    if kind in (3, 4):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice(["a", "b", "c/d", "~", ""]): random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def test_patch_js_turns_each_state_into_the_next(browser: Browser, lobby_server: ServerProcess) -> None:
    cases: list[tuple[Any, Any]] = []
    for seat in (None, 0):
        views = game_views(seat)
        cases += list(itertools.pairwise(views))
    rng = random.Random(SEED)
    while len(cases) < 1200:
        old, new = random_value(rng), random_value(rng)
        if json.dumps(old) != json.dumps(new) and old == new:
            continue  # 0 and False, which the diff takes as equal
        cases.append((old, new))
    tab = open_tab(browser).goto(f"{lobby_server.http}/")
    results = tab.page.evaluate(APPLY, [[old, diff(old, new)] for old, new in cases])
    for (old, new), result in zip(cases, results, strict=True):
        assert "error" not in result, (old, new, result)
        assert json.dumps(result["value"], sort_keys=True) == json.dumps(new, sort_keys=True), (old, new)
        assert json.dumps(result["doc"], sort_keys=True) == json.dumps(old, sort_keys=True), "the state held changed"
    assert tab.errors == []


def test_patch_js_does_every_operation_and_refuses_what_does_not_apply(
    browser: Browser, lobby_server: ServerProcess
) -> None:
    doc = {"a": [1, 2, 3], "b": {"c": "x"}, "d/e": 0}
    good = [
        ([{"op": "move", "from": "/a/0", "path": "/a/-"}], {**doc, "a": [2, 3, 1]}),
        ([{"op": "copy", "from": "/b", "path": "/f"}], {**doc, "f": {"c": "x"}}),
        ([{"op": "test", "path": "/d~1e", "value": 0}, {"op": "remove", "path": "/d~1e"}], {"a": [1, 2, 3], "b": {"c": "x"}}),
        ([{"op": "replace", "path": "", "value": [7]}], [7]),
    ]  # fmt: skip
    bad = [
        [{"op": "remove", "path": "/nothing"}],
        [{"op": "replace", "path": "/a/3", "value": 9}],
        [{"op": "add", "path": "/a/5", "value": 9}],
        [{"op": "test", "path": "/b/c", "value": "y"}],
        [{"op": "jump", "path": "/a"}],
        [{"op": "add", "path": "a", "value": 1}],
    ]
    tab = open_tab(browser).goto(f"{lobby_server.http}/")
    results = tab.page.evaluate(APPLY, [[doc, patch] for patch, _ in good] + [[doc, patch] for patch in bad])
    assert [r.get("value") for r in results[: len(good)]] == [want for _, want in good]
    reasons = ["no_such_path", "out_of_range", "out_of_range", "test_failed", "unknown_op", "not_a_pointer"]
    assert [r.get("error") for r in results[len(good) :]] == reasons, results[len(good) :]
    assert all(r["doc"] == doc for r in results)


def test_a_page_that_misses_a_delta_asks_for_the_whole_state(browser: Browser, lobby_server: ServerProcess) -> None:
    created = lobby_server.create(seats=3, bots={str(s): "random" for s in range(3)}, bot_pace_ms=150)
    sent: list[dict[str, Any]] = []
    received: list[dict[str, Any]] = []
    deltas = [0]

    def route(page_side: WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()

        def from_server(message: str | bytes) -> None:
            parsed = json.loads(message)
            if parsed["type"] == "delta":
                deltas[0] += 1
                if deltas[0] == 5:
                    return  # lost on the way: the next delta's base is not the state the page holds
            received.append(parsed)
            page_side.send(message)

        def from_page(message: str | bytes) -> None:
            sent.append(json.loads(message))
            server_side.send(message)

        server_side.on_message(from_server)
        page_side.on_message(from_page)

    tab = open_tab(browser)
    tab.page.route_web_socket(re.compile(r"/ws/watch/"), route)
    tab.goto(f"{lobby_server.http}/watch/{created['spectator']}")
    tab.page.wait_for_function("() => document.body.dataset.resyncs === '1'")
    tab.page.wait_for_function("() => Number(document.body.dataset.seq) > 0")
    with lobby_server.spectator(created["spectator"]) as watcher:
        now = watcher.state_where(lambda s: True)["seq"]
    tab.page.wait_for_function(f"() => Number(document.body.dataset.seq) >= {now}")
    assert {"type": "resync"} in sent, sent
    whole = [m for m in received if m["type"] == "state"]
    assert len(whole) == 2 and "rules" not in whole[1], "the first state, then the whole state asked for"
    assert body(tab, "resyncs") == "1", "the deltas after the whole state apply again"
    assert tab.errors == []
