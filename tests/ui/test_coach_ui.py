"""The coach in the browser (issue 30, items 3 to 5): a player presses Hint and reads the coach's best
option (the log tells the table a hint was taken), presses Undo after taking the discard and is back
before it, and opens the Review of a finished table with its graphs drawn. Real server, real Chromium."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_fixtures import Tab, body, browser, open_tab, visible
from server_fixtures import ServerProcess
from test_accessibility import AXE, violations

from liverpool.engine import (
    DrawDiscard,
    DrawStock,
    GameRecord,
    action_to_dict,
    apply,
    chance_action,
    find_preset,
    new_game,
)

pytestmark = pytest.mark.slow  # a game's review is measured: about a minute or more on a shared machine

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]

Start = Callable[..., ServerProcess]
ONE_DEAL = {"deals": [{"contract": ["set 3", "set 3"], "hand_size": 7}]}
ENV = {"LIVERPOOL_HINT_WORLDS": "4", "LIVERPOOL_REVIEW_WORLDS": "2", "LIVERPOOL_COACH_WORKERS": "2"}


def _my_draw(tab: Tab) -> str:
    """Pass buy windows until this seat is to draw; returns the seq then."""
    page = tab.page
    for _ in range(50):
        page.wait_for_function(
            "() => document.body.dataset.mustAct === '1' && document.body.dataset.pending === undefined"
        )
        if visible(tab, "take-discard"):
            return body(tab, "seq")
        seq = body(tab, "seq")
        tab.by("pass").click()
        page.wait_for_function(f"() => document.body.dataset.seq !== {seq!r}")
    raise AssertionError("the seat never came to draw")


def test_hint_undo_and_review_in_the_browser(browser: Browser, start_server: Start, sqlite_url: str) -> None:
    server = start_server(sqlite_url, env=ENV)
    over = server.create(rules=ONE_DEAL, seats=3, bots={str(s): "random" for s in range(3)}, bot_pace_ms=0)
    created = server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=0)
    token = server.join(created["invite"], 0, "Ada")
    tab = open_tab(browser).goto(f"{server.http}/play/{token}")
    page = tab.page

    before = _my_draw(tab)
    tab.by("hint").click()
    page.wait_for_selector("[data-testid=hint-text]", timeout=120_000)
    assert tab.by("hint-text").inner_text().strip(), "the best option and its reason"
    assert (
        "better than the next" in tab.by("hint-margin").inner_text()
        or "only option" in tab.by("hint-margin").inner_text()
    )
    page.wait_for_function("() => document.getElementById('log').textContent.includes('Ada took a hint')")
    found = {"table with a hint": violations(tab)} if AXE.exists() else {}

    tab.by("take-discard").click()
    page.wait_for_function(f"() => document.body.dataset.seq === '{int(before) + 1}'")
    tab.by("undo").click()
    page.wait_for_function(f"() => document.body.dataset.seq === {before!r}")
    page.wait_for_function("() => document.getElementById('log').textContent.includes('Ada takes back')")
    assert visible(tab, "take-discard"), "back at the draw, the discard still there to take"
    tab.screenshot("coach-table")

    deadline = time.monotonic() + 120
    while server.get(f"/api/tables/{over['table_id']}/record").status_code != 200:
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.3)
    review = open_tab(browser).goto(f"{server.http}/review/{over['table_id']}?seat=0")
    review.page.wait_for_function("() => document.body.dataset.review === 'done'", timeout=600_000)
    assert review.page.locator("[data-testid=review-graph] svg").count() == 1, "one graph per deal"
    assert review.page.locator("[data-testid=review-dot]").count() > 0, "a dot per decision"
    assert "Review of bot 0" in review.by("review-title").inner_text()
    review.screenshot("coach-review")
    if AXE.exists():
        found["review"] = violations(review)
        assert not any(found.values()), found
    assert tab.errors == [] and review.errors == []


def test_the_guided_first_game_starts_from_the_lobby(browser: Browser, lobby_server: ServerProcess) -> None:
    tab = open_tab(browser).goto(lobby_server.http + "/")
    page = tab.page
    page.wait_for_selector("body[data-ready='1']")
    tab.by("tutorial").click()
    page.wait_for_url("**/play/**")
    page.wait_for_selector("[data-testid=tutorial-step][data-step=draw]")
    assert "take-discard" in page.locator(".tutorial-next").evaluate("e => e.dataset.testid")
    tab.by("take-discard").click()
    page.wait_for_selector("[data-testid=tutorial-step][data-step=go_down]")
    assert page.locator(".tutorial-next").evaluate("e => e.dataset.testid") == "godown-option-0"
    tab.screenshot("tutorial")
    tab.by("godown-option-0").click()
    page.wait_for_selector("[data-testid=tutorial-step][data-step=swap]")
    assert page.locator(".tutorial-next").evaluate("e => e.dataset.testid") == "swap-option-0"
    if AXE.exists():
        assert violations(tab) == []
    assert tab.errors == []


def test_the_replay_shows_a_move_taken_back(browser: Browser, lobby_server: ServerProcess, tmp_path: Path) -> None:
    """A record whose ``meta.undone`` keeps a take-back (the draw of the discard, then the stock drawn
    instead): the replay page lists it, struck through, before the move played in its place."""
    state = new_game(find_preset("liverpool"), seats=3)
    apply(state, chance_action(state, random.Random(1)))
    seat = state.current
    apply(state, DrawStock(seat))
    undone = [{"at": 1, "seat": seat, "actions": [action_to_dict(DrawDiscard(seat))]}]
    saved = tmp_path / "game.json"
    saved.write_text(GameRecord.of(state, meta={"undone": undone}).to_json(), encoding="utf-8")
    tab = open_tab(browser).goto(lobby_server.http + "/static/replay.html")
    tab.by("replay-file").set_input_files(str(saved))
    tab.page.wait_for_selector("body[data-ready='1']")
    taken = tab.by("replay-undone")
    assert taken.count() == 1 and "takes" in taken.inner_text(), taken.inner_text()
    assert taken.evaluate("e => getComputedStyle(e).textDecorationLine") == "line-through"
    assert taken.evaluate("e => e.nextElementSibling.dataset.step") == "2", "listed before the move played instead"
    assert tab.errors == []
