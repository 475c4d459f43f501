"""Keyboard and screen readers at the table (issue 28 item 5): a turn played by keys alone, going down
through the builder and laying off by keys, the keys' help dialog, cards named in words and the live
region that says when one must act."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

import pytest
from browser_fixtures import TWO_SHORT_DEALS, body, browser, create_table, join, open_tab, visible, wait_for_move
from server_fixtures import ServerProcess

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from browser_fixtures import Tab
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
    listed = tab.by("keys-help").locator("dt").all_inner_texts()
    assert {"l", "j", "m", "1 to 9", "g", "d"} <= set(listed), listed
    page.keyboard.press("Escape")
    assert not tab.by("keys-help").is_visible()
    names = page.locator("[data-testid=hand-card]").evaluate_all("cs => cs.map(c => c.textContent)")  # the names
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


def focused(tab: Tab) -> str:
    testid: str = tab.page.evaluate("() => document.activeElement?.dataset?.testid ?? ''")
    return testid


def moved(tab: Tab, seq: str, timeout_ms: int = 5_000) -> None:
    tab.page.wait_for_function(f"() => document.body.dataset.seq !== {seq!r}", timeout=timeout_ms)


def select_by_key(tab: Tab, card: str) -> None:
    """Focus a card of the hand and select it with Enter."""
    tab.page.locator(f"[data-testid=hand-card][data-card='{card}']").focus()
    tab.page.keyboard.press("Enter")
    tab.page.locator(f"[data-testid=hand-card][data-card='{card}'].selected").wait_for()


def build_by_keys(tab: Tab) -> None:
    """m opens the builder, the first offer's cards are selected by keys and put in with 1, 2, ...; g goes down."""
    page = tab.page
    offer = [
        meld.locator("[data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
        for meld in page.locator("[data-testid=godown-options] .godown-option").first.locator(".meld").all()
    ]
    page.keyboard.press("m")
    tab.by("godown-builder").wait_for()
    assert focused(tab) == "builder-summary", "m opens the builder and moves the focus to it"
    for number, cards in enumerate(offer, 1):
        for card in cards:
            select_by_key(tab, card)
        page.keyboard.press(str(number))
        for card in cards:
            page.locator(f"[data-testid=hand-card][data-card='{card}'].assigned").wait_for()
    page.wait_for_selector("[data-testid=builder-go-down]:not([disabled])")
    page.keyboard.press("g")


def test_going_down_and_laying_off_by_keys(browser: Browser, lobby_server: ServerProcess) -> None:
    """m, 1 to 9 and g build a going-down and send it; l lays a card off (Enter on the meld or the end
    it asks for); j swaps a joker when one is offered. Short deals of a set 3 with many jokers."""
    tab = open_tab(browser)
    links = create_table(tab, lobby_server.http, ["human", "random", "random"], house=TWO_SHORT_DEALS)
    join(tab, links["invite"], 0, "Ada")
    page = tab.page
    used: set[str] = set()
    deadline = time.monotonic() + 150
    while not {"go_down", "lay_off"} <= used:
        assert time.monotonic() < deadline, f"only {sorted(used)} done by keys"
        assert wait_for_move(tab) != "game_over", f"the game ended with only {sorted(used)} done by keys"
        seq = body(tab, "seq")
        fits = page.locator("[data-testid=hand-card].can-lay-off")
        if visible(tab, "next-deal"):
            page.keyboard.press("n")
        elif visible(tab, "pass"):
            page.keyboard.press("p")
        elif visible(tab, "draw-stock"):
            page.keyboard.press("s")
        elif visible(tab, "godown-option-0"):
            build_by_keys(tab)
            moved(tab, seq)
            assert tab.by("seat-0").get_attribute("data-down") == "1", "g sent the going-down built"
            used.add("go_down")
            continue
        elif page.locator("[data-testid^=swap-option-]").count() and "swap" not in used:
            page.keyboard.press("j")
            if focused(tab).startswith("swap-option-"):
                page.keyboard.press("Enter")
            moved(tab, seq)
            assert "joker" in tab.by("log").inner_text().splitlines()[-1].lower()
            used.add("swap")
            continue
        elif fits.count():
            card = fits.first.get_attribute("data-card")
            assert card is not None
            select_by_key(tab, card)
            page.keyboard.press("l")
            answered = True
            for _ in range(3):  # several melds: the focus is on the first; both ends: on "low end"
                for _ in range(100):  # the page answers the key after a moment: a move sent, or the focus moved
                    if body(tab, "seq") != seq or body(tab, "pending") or focused(tab) in ("meld", "layoff-end-low"):
                        break
                    page.wait_for_timeout(50)
                if body(tab, "seq") != seq or body(tab, "pending"):
                    break
                if focused(tab) not in ("meld", "layoff-end-low"):
                    # A state that arrived between the selection and the key drew the hand again (the
                    # selection and focus go with it): select and press l again from the top of the loop.
                    answered = False
                    break
                page.keyboard.press("Enter")
            if not answered:
                continue
            moved(tab, seq)
            assert "lays off" in tab.by("log").inner_text().splitlines()[-1]
            used.add("lay_off")
            continue
        else:
            for card in page.locator("[data-testid=hand-card]").evaluate_all("cs => cs.map(c => c.dataset.card)"):
                select_by_key(tab, card)
                if tab.by("discard-button").is_enabled():
                    break
                page.keyboard.press("Enter")
            page.keyboard.press("d")
        moved(tab, seq)
    assert tab.errors == []
