"""Keyboard and screen readers at the table (issue 28 item 5): a turn played by keys alone, the keys'
help dialog, cards named in words and the live region that says when one must act."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from browser_fixtures import body, browser, create_table, join, open_tab, wait_for_move
from server_fixtures import ServerProcess

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]

CARD_NAME = re.compile(
    r"^\S+: (joker|(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of (clubs|diamonds|hearts|spades))$"
)


def test_a_turn_played_by_keyboard_alone(browser: Browser, lobby_server: ServerProcess) -> None:
    tab = open_tab(browser)
    links = create_table(tab, lobby_server.http, ["human", "random", "random"])
    join(tab, links["invite"], 0, "Ada")
    page = tab.page
    page.keyboard.press("?")
    assert tab.by("keys-help").is_visible(), "? opens the list of keys"
    page.keyboard.press("Escape")
    assert not tab.by("keys-help").is_visible()
    names = page.locator("[data-testid=hand-card]").evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))")
    assert names and all(CARD_NAME.match(n) for n in names), names
    while wait_for_move(tab) != "draw" or not tab.by("draw-stock").is_visible():
        page.keyboard.press("p")  # a May I? offer first: pass it by key
        page.wait_for_function("() => document.body.dataset.pending === undefined")
    assert tab.by("announce").inner_text(), "the live region says it is Ada's turn"
    seq = body(tab, "seq")
    page.keyboard.press("s")
    page.wait_for_function(f"() => document.body.dataset.seq !== {seq!r} && document.body.dataset.phase === 'play'")
    if tab.by("godown-option-0").is_visible():
        page.keyboard.press("g")
        page.wait_for_function("() => document.body.dataset.pending === undefined")
    for _ in range(40):  # Tab to a card, select it with Enter, discard it with d
        page.keyboard.press("Tab")
        focused = page.evaluate("() => document.activeElement?.dataset?.testid ?? ''")
        if focused != "hand-card":
            continue
        page.keyboard.press("Enter")
        if tab.by("discard-button").is_enabled():
            break
        page.keyboard.press("Enter")
    seq = body(tab, "seq")
    page.keyboard.press("d")
    page.wait_for_function(f"() => document.body.dataset.seq !== {seq!r}")
    assert "Ada discards" in tab.by("log").inner_text()
    assert tab.errors == []
