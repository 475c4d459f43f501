"""Every page and table state the browser can reach, at a phone's 390x844 (touch) and a laptop's 1366x900:
no horizontal overflow, nothing drawn outside its box, no control over the discard pile, and while acting
the discard top, the melds one can lay off on and the hand on screen together (issue 28 item 2).

One walk per screen size covers the lobby, the join page, the waiting room, draw, buy window, the going-down
builder (worked with taps), lay-off, the deal's end, the results, the replay and the spectator's view."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import pytest
from browser_fixtures import (
    TWO_SHORT_DEALS,
    Player,
    body,
    browser,
    create_table,
    join,
    open_tab,
    play_until,
    unselect_all,
    visible,
)
from layout_checks import ACTING, DESKTOP, PHONE, check_layout
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from server_fixtures import ServerProcess

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator

__all__ = ["browser"]

LONG_NAME = "W" * 32  # the server's limit, unbroken


# The element is drawn and inside the window (what check_layout asks of the controls one acts with).
IN_SIGHT = """(selector) => {
  const node = document.querySelector(selector);
  if (!node) return false;
  const box = node.getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
}"""


# Whether the melds the selected card fits can all lie between the sticky piles and the player's panel;
# when they cannot, the first of them (the one table.js brings into sight) is marked for the check.
TARGETS_FIT = """() => {
  const targets = [...document.querySelectorAll('[data-testid=meld].target')];
  if (!targets.length) return true;
  const top = document.querySelector('.piles').getBoundingClientRect().bottom;
  const bottom = document.getElementById('me').getBoundingClientRect().top;
  const boxes = targets.map((e) => e.getBoundingClientRect());
  const fit = Math.max(...boxes.map((b) => b.bottom)) - Math.min(...boxes.map((b) => b.top)) <= bottom - top;
  if (!fit) targets[0].setAttribute('data-first-target', '');
  return fit;
}"""


class Walker(Player):
    """A player that checks the layout in each state before making its move there."""

    seen: dict[str, list[str]]
    touch: bool

    def tap(self, locator: Locator) -> None:
        """A tap on a touch screen, else a click."""
        if self.touch:
            locator.tap()
        else:
            locator.click()

    def move(self, seq: str) -> str:
        tab = self.tab
        if visible(tab, "deal-summary"):
            if "deal-end" not in self.seen:
                self.seen["log at the deal's end"] = [tab.by("log").inner_text()]
            check_layout(tab, "deal-end", self.seen)
        elif visible(tab, "buy"):
            check_layout(tab, "buy-window", self.seen)
        elif visible(tab, "draw-stock"):
            check_layout(tab, "draw", self.seen, ACTING)
            assert tab.by("clock").inner_text().startswith("Your turn ·"), "the turn clock shows whose turn"
            cut = tab.by("clock").evaluate("(n) => n.scrollWidth > n.clientWidth")
            assert not cut, f"the turn clock is cut short on screen: {tab.by('clock').inner_text()!r}"
        elif visible(tab, "godown-option-0") and "builder" not in self.seen:
            return self.build_with_taps()
        else:
            fits = tab.page.locator("[data-testid=hand-card].can-lay-off")
            if fits.count() and "lay-off" not in self.seen:
                unselect_all(tab)
                fits.first.click()
                with contextlib.suppress(PlaywrightTimeout):  # a state that just arrived re-renders the table
                    tab.page.wait_for_function(IN_SIGHT, arg="[data-testid=meld].target", timeout=3000)
                # All the melds the card fits, when they fit on screen together between the piles and the
                # hand; else the table shows the first of them (table.js showTargets), and that one must be seen.
                together = tab.page.evaluate(TARGETS_FIT)
                shown = "[data-testid=meld].target" if together else "[data-testid=meld].target[data-first-target]"
                check_layout(tab, "lay-off", self.seen, [*ACTING, shown])
                unselect_all(tab)
        return super().move(seq)

    def build_with_taps(self) -> str:
        """Load the first going-down into the builder, take a card back out and put it in again by taps,
        then go down."""
        tab = self.tab
        self.tap(tab.by("godown-edit-0"))
        card = tab.page.locator("[data-testid=hand-card].assigned").first
        card_id = card.get_attribute("data-card")
        self.tap(card)
        self.tap(tab.page.locator(f"[data-testid=hand-card][data-card='{card_id}']:not(.assigned)"))
        self.tap(tab.by("builder-add-0"))
        assert tab.page.locator(f"[data-testid=hand-card][data-card='{card_id}'].assigned").count() == 1
        check_layout(tab, "builder", self.seen, ["[data-testid=builder-go-down]", "[data-testid=hand-card]"])
        self.tap(tab.by("builder-go-down"))
        return self.done("go_down")


@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_page_fits_the_screen(browser: Browser, lobby_server: ServerProcess, screen: dict[str, int]) -> None:
    touch = screen == PHONE
    seen: dict[str, list[str]] = {}
    host = open_tab(browser, screen, touch)
    links = create_table(host, lobby_server.http, ["human", "random", "human"], house=TWO_SHORT_DEALS)
    host.goto(lobby_server.http + "/")
    host.page.wait_for_selector("body[data-ready='1']")
    check_layout(host, "lobby", seen)
    host.goto(links["invite"])
    host.page.wait_for_selector("body[data-ready='1']")
    check_layout(host, "join", seen)
    join(host, links["invite"], 0, LONG_NAME)
    host.page.wait_for_selector("body[data-phase='waiting']")
    check_layout(host, "waiting", seen)
    guest = open_tab(browser, screen, touch)
    join(guest, links["invite"], 2, "Bea")
    spectator = open_tab(browser, screen, touch).goto(links["spectator"])
    ada, bea = Walker(host, buys=1), Walker(guest, buys=1)
    ada.seen = bea.seen = seen
    ada.touch = bea.touch = touch

    def spectator_checked() -> bool:
        if body(spectator, "phase") in ("draw", "play") and spectator.page.locator("[data-testid=meld]").count():
            check_layout(spectator, "spectator", seen)
            assert spectator.by("watching").is_visible() and "'s turn" in spectator.by("clock").inner_text()
        return body(host, "phase") == "game_over" and body(guest, "phase") == "game_over"

    play_until([ada, bea], spectator_checked, limit_s=240)
    log = seen.pop("log at the deal's end")[0]
    assert "gets the bought" in log and "Deal 1 is over: " in log, "the log says who got a bought card, and why"
    host.by("results").wait_for()
    check_layout(host, "results", seen)
    host.by("results-replay").click()
    host.page.wait_for_selector("body[data-ready='1']")
    host.by("replay-prev-deal").click()
    check_layout(host, "replay", seen)
    wanted = {"lobby", "join", "waiting", "draw", "buy-window", "builder", "lay-off", "deal-end", "results", "replay"}
    assert wanted | {"spectator"} <= set(seen), f"states not reached: {sorted(wanted - set(seen))}"
    problems = {where: found for where, found in seen.items() if found}
    assert not problems, "\n".join(f"{where}: {p}" for where, found in problems.items() for p in found)
    assert host.errors == [] and guest.errors == [] and spectator.errors == []
