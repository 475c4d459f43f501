"""axe-core (from the npm registry, `scripts/ensure_axe.sh`) run in every page and table state (issue 28
item 5): no serious or critical accessibility violation on the lobby, the join page, the waiting room, a
turn, a buy window, the open going-down builder, a lay-off, the table talk, a deal's end, the results, a
spectator's view, the replay of the finished game and the coach's review of it; once on a laptop's screen
and once on a phone's 390x844 touch screen (the phone's layout hides, stacks and folds other elements)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_fixtures import (
    TWO_SHORT_DEALS,
    Player,
    Tab,
    body,
    browser,
    create_table,
    join,
    open_tab,
    play_until,
    unselect_all,
    visible,
)
from layout_checks import PHONE
from server_fixtures import ServerProcess

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
# The coach's review of the finished game, measured with few worlds (what it shows, not how well it judges).
REVIEW_ENV = {"LIVERPOOL_REVIEW_WORLDS": "2", "LIVERPOOL_COACH_WORKERS": "1"}
SCREENS = {"laptop": None, "phone": PHONE}
Start = Callable[..., ServerProcess]
RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}"""


def violations(tab: Tab) -> list[str]:
    tab.page.evaluate(AXE.read_text() + "\n;true")  # through the debugger: the pages' CSP forbids inline scripts
    found: list[Any] = tab.page.evaluate(RUN_AXE)
    return [str(v) for v in found]


class Checker(Player):
    """A player that runs axe in each table state the first time it meets it, before its move there."""

    found: dict[str, list[str]]

    def check(self, state: str) -> None:
        if state not in self.found:
            self.found[state] = violations(self.tab)

    def move(self, seq: str) -> str:
        tab = self.tab
        if visible(tab, "deal-summary"):
            self.check("deal end")
        elif visible(tab, "buy"):
            self.check("buy window")
        elif visible(tab, "draw-stock"):
            self.check("draw")
        elif visible(tab, "godown-option-0") and "builder" not in self.found:
            tab.by("godown-edit-0").click()
            tab.page.wait_for_selector("[data-testid=builder-go-down]:not([disabled])")
            self.check("builder")
            tab.by("builder-go-down").click()
            return self.done("go_down")
        else:
            fits = tab.page.locator("[data-testid=hand-card].can-lay-off")
            if fits.count() and "lay-off" not in self.found:
                unselect_all(tab)
                fits.first.click()
                tab.page.wait_for_selector("[data-testid=meld].target")
                self.check("lay-off")
                unselect_all(tab)
        return super().move(seq)


@pytest.mark.parametrize("screen", list(SCREENS))
def test_no_serious_accessibility_violation_on_any_page(
    browser: Browser, start_server: Start, sqlite_url: str, screen: str
) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run scripts/ensure_axe.sh (make test does)")
    server = start_server(sqlite_url, env=REVIEW_ENV)
    viewport, touch = SCREENS[screen], SCREENS[screen] is PHONE
    found: dict[str, list[str]] = {}
    tab = open_tab(browser, viewport, touch)
    links = create_table(tab, server.http, ["human", "random", "human"], house=TWO_SHORT_DEALS)
    tab.goto(server.http + "/")
    tab.page.wait_for_selector("body[data-ready='1']")
    found["lobby"] = violations(tab)
    tab.goto(links["invite"])
    tab.page.wait_for_selector("body[data-ready='1']")
    found["join"] = violations(tab)
    join(tab, links["invite"], 0, "Ada")
    tab.page.wait_for_selector("body[data-phase='waiting']")
    found["waiting"] = violations(tab)
    guest = open_tab(browser, viewport, touch)
    join(guest, links["invite"], 2, "Bea")
    tab.by("talk-input").fill("Oh my aching back!")
    tab.by("talk-send").click()
    tab.by("talk-react-joker").click()
    tab.page.wait_for_selector("[data-testid=talk-line] >> text=A joker!")
    tab.by("talk-mute").locator("summary").click()
    found["table talk"] = violations(tab)
    watcher = open_tab(browser, viewport, touch).goto(links["spectator"])
    ada, bea = Checker(tab, buys=1), Checker(guest, buys=1)
    ada.found = bea.found = found

    def spectator_checked() -> bool:
        playing = body(watcher, "phase") in ("draw", "play")
        if "spectator" not in found and playing and watcher.page.locator("[data-testid=meld]").count():
            found["spectator"] = violations(watcher)
        return body(tab, "phase") == "game_over"

    play_until([ada, bea], spectator_checked, limit_s=240)
    tab.by("results").wait_for()
    found["results"] = violations(tab)
    review_url = tab.by("results-review").get_attribute("href")
    tab.by("results-replay").click()
    tab.page.wait_for_selector("body[data-ready='1']")
    tab.by("replay-prev-deal").click()
    found["replay"] = violations(tab)
    review = open_tab(browser, viewport, touch).goto(f"{server.http}{review_url}")
    review.page.wait_for_function("() => document.body.dataset.review === 'done'", timeout=600_000)
    found["review"] = violations(review)
    wanted = {"lobby", "join", "waiting", "table talk", "draw", "buy window", "builder", "lay-off", "deal end"}
    wanted |= {"spectator", "results", "replay", "review"}
    assert wanted <= set(found), f"states not reached: {sorted(wanted - set(found))}"
    problems = {page: v for page, v in found.items() if v}
    assert not problems, "\n".join(f"{page}: {v}" for page, vs in problems.items() for v in vs)
