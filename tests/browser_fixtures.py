"""Browser test helpers: Debian's Chromium driven by playwright's sync API, and a player that makes
its moves through the table page's controls (never through the API).

The server is the real ``liverpool serve`` of ``server_fixtures`` (a subprocess). Chromium is
``/usr/bin/chromium`` (``scripts/ensure_chromium.sh`` installs it); no browser is downloaded.
Screenshots go to ``artifacts/screenshots/`` (git-ignored).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Locator, Page

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"
VIEWPORT = {"width": 1400, "height": 1000}
# Two short deals of one set 3 with jokers galore: both players go down early and soon lay off; a deal
# ends when the stock runs out (no washing), so a deal's end and then the game's end come quickly.
TWO_SHORT_DEALS = {
    "deals": 2,
    "deals-contract-0": "set 3",
    "deals-contract-1": "set 3",
    "set_min_naturals": 1,
    "decks-jokers-0": 30,
    "decks-jokers-1": 30,
    "stock_out": "end_deal",
    "final_deal": "normal",
}

WAIT_MS = 20_000
STALE_MS = 1_500


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium, headless, with a fresh temporary profile (playwright makes one per launch)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: run scripts/ensure_chromium.sh"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class Tab:
    """One page in its own browser context (its own localStorage), with the page errors it logged."""

    page: Page
    errors: list[str] = field(default_factory=list)

    def goto(self, url: str) -> Tab:
        self.page.goto(url)
        return self

    def by(self, testid: str) -> Locator:
        return self.page.get_by_test_id(testid)

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


def open_tab(
    browser: Browser, viewport: dict[str, int] | None = None, touch: bool = False, locale: str | None = None
) -> Tab:
    """A new browser context and page (``touch``: a phone's touch screen; ``locale``: the browser's
    language, as ``navigator.languages`` and ``Accept-Language`` give it); JavaScript errors, CSP
    violations and messages missing from the page's catalogue are kept in ``Tab.errors``."""
    context = browser.new_context(viewport=viewport or VIEWPORT, has_touch=touch, is_mobile=touch, locale=locale)  # type: ignore[arg-type]
    context.set_default_timeout(WAIT_MS)
    tab = Tab(context.new_page())
    tab.page.on("pageerror", lambda error: tab.errors.append(str(error)))
    tab.page.on("console", lambda message: _csp_violation(tab, message))
    return tab


def _csp_violation(tab: Tab, message: ConsoleMessage) -> None:
    """A script, style or connection the Content-Security-Policy blocked, or a message missing from the
    page's catalogue (``i18n.js`` logs "no message KEY"), is an error of the page."""
    if "Content Security Policy" in message.text or message.text.startswith("no message "):
        tab.errors.append(message.text)


# -- the lobby and the join page ----------------------------------------------------------------------


def create_table(
    tab: Tab, base: str, seats: list[str], house: dict[str, Any] | None = None, preset: str | None = None
) -> dict[str, str]:
    """Create a table through the lobby form: ``seats`` holds "human" or a bot difficulty per seat;
    ``preset`` names the preset (the lobby's first when None); ``house`` fills the house-rules form
    (starting from the preset): ``{"deals": 2}`` keeps the first two deals, any other key names an input
    by its test id after ``rule-`` (``"buy_limit"``, ``"decks-jokers-0"``). Bots play at full speed.
    Returns the invite and spectator links."""
    tab.goto(base + "/")
    page = tab.page
    page.wait_for_selector("body[data-ready='1']")
    if preset is not None:
        tab.by("preset-select").select_option(preset)
    if house is not None:
        tab.by("mode-house").check()
        for name, value in house.items():
            if name == "deals":
                while page.locator("[data-testid^=rule-deals-remove-]").count() > value:
                    page.locator("[data-testid^=rule-deals-remove-]").last.click()
                continue
            control = tab.by(f"rule-{name}")
            if isinstance(value, bool):
                control.set_checked(value)
            elif control.evaluate("e => e.tagName") == "SELECT":
                control.select_option(str(value))
            else:
                control.fill(str(value))
    tab.by("seat-count").fill(str(len(seats)))
    tab.by("seat-count").dispatch_event("change")
    for seat, kind in enumerate(seats):
        tab.by(f"seat-kind-{seat}").select_option(kind)
    page.locator("[data-testid=pace] summary").click()
    tab.by("bot-pace").fill("0")
    tab.by("create-table").click()
    page.wait_for_selector("[data-testid=created]:not([hidden])")
    return {"invite": tab.by("invite-link").input_value(), "spectator": tab.by("spectator-link").input_value()}


def join(tab: Tab, invite_url: str, seat: int, name: str) -> str:
    """Take ``seat`` through the join page; returns the private seat link it goes to."""
    tab.goto(invite_url)
    tab.page.wait_for_selector("body[data-ready='1']")
    tab.by(f"seat-option-{seat}").check()
    tab.by("name-input").fill(name)
    tab.by("join-button").click()
    tab.page.wait_for_url("**/play/**")
    return tab.page.url


# -- the table page -------------------------------------------------------------------------------


def body(tab: Tab, key: str) -> str:
    return tab.page.evaluate(f"() => document.body.dataset.{key} ?? ''")  # type: ignore[no-any-return]


def wait_for_move(tab: Tab, timeout_ms: int = WAIT_MS) -> str:
    """Wait until this seat must act (and no action of its own is in flight) or the game is over;
    returns the phase."""
    tab.page.wait_for_function(
        "() => { const b = document.body.dataset;"
        " return b.phase === 'game_over' || (b.mustAct === '1' && b.pending === undefined"
        " && b.connection === 'open'); }",
        timeout=timeout_ms,
    )
    return body(tab, "phase")


def settle(tab: Tab) -> None:
    """Wait until the server has answered the last action sent."""
    tab.page.wait_for_function("() => document.body.dataset.pending === undefined")


def visible(tab: Tab, testid: str) -> bool:
    return tab.by(testid).is_visible()


def press(locator: Locator) -> bool:
    """Click, unless the control went away first (the table moved on: another seat won a May I?)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        locator.click(timeout=STALE_MS)
    except PlaywrightTimeout:
        return False
    return True


def draw_and_open_the_builder(tab: Tab, limit_s: float = 60) -> None:
    """Pass buy windows until this seat is to draw, draw from the stock and open the going-down builder."""
    deadline = time.monotonic() + limit_s
    while not visible(tab, "draw-stock"):
        assert time.monotonic() < deadline, "the seat never came to draw"
        wait_for_move(tab)
        if visible(tab, "pass"):
            press(tab.by("pass"))
            settle(tab)
    tab.by("draw-stock").click()
    settle(tab)
    tab.by("builder-toggle").locator("summary").click()


def unselect_all(tab: Tab) -> None:
    selected = tab.page.locator("[data-testid=hand-card].selected")
    while selected.count():
        selected.first.click()


@dataclass
class Player:
    """Makes this seat's moves through the page: draws from the stock, goes down with the first
    option offered, lays off whatever fits, otherwise discards its first card that may be discarded.
    ``buys`` says how many May I? offers to take (the rest are passed); with ``builder`` it goes down
    through the builder (the first option loaded into it), with ``drag`` it drags cards to the melds
    and the discard pile instead of clicking; while ``hold`` is true it does not go down (it keeps its cards)."""

    tab: Tab
    buys: int = 0
    builder: bool = False
    drag: bool = False
    hold: bool = False
    moves: dict[str, int] = field(default_factory=dict)

    def done(self, what: str, pressed: bool = True) -> str:
        if not pressed:
            return "stale"
        self.moves[what] = self.moves.get(what, 0) + 1
        settle(self.tab)
        return what

    def dropped(self, what: str, seq: str) -> str:
        """After a drag and drop: the drop must have sent the action, so the table moves on."""
        self.tab.page.wait_for_function(f"() => document.body.dataset.seq !== {seq!r}", timeout=5_000)
        return self.done(what)

    def move(self, seq: str) -> str:
        """One move in the table as of ``seq``; "stale" when the table moved on before a control
        could be pressed."""
        tab = self.tab
        if visible(tab, "next-deal"):
            return self.done("next_deal", press(tab.by("next-deal")))
        if visible(tab, "buy") and self.buys > 0:
            self.buys -= 1
            return self.done("buy", press(tab.by("buy")))
        if visible(tab, "pass"):
            return self.done("pass", press(tab.by("pass")))
        if visible(tab, "draw-stock"):
            return self.done("draw_stock", press(tab.by("draw-stock")))
        if visible(tab, "godown-option-0") and not self.hold:
            if not self.builder:
                return self.done("go_down", press(tab.by("godown-option-0")))
            tab.by("godown-edit-0").click()
            return self.done("go_down", press(tab.by("builder-go-down")))
        fits = tab.page.locator("[data-testid=hand-card].can-lay-off")
        if fits.count():
            unselect_all(tab)
            fits.first.click()
            target = tab.page.locator("[data-testid=meld].target").first
            if self.drag:
                tab.page.locator("[data-testid=hand-card].selected").drag_to(target, target_position={"x": 2, "y": 20})
                return self.dropped("lay_off", seq)
            pressed = press(target)
            if pressed and visible(tab, "layoff-end-high"):
                pressed = press(tab.by("layoff-end-high"))
            return self.done("lay_off", pressed)
        if visible(tab, "discard-button"):
            unselect_all(tab)
            cards = tab.page.locator("[data-testid=hand-card]")
            for index in range(cards.count()):
                cards.nth(index).click()
                if tab.by("discard-button").is_enabled():
                    if self.drag:
                        cards.nth(index).drag_to(tab.by("discard-pile"))
                        return self.dropped("discard", seq)
                    return self.done("discard", press(tab.by("discard-button")))
                cards.nth(index).click()
        if visible(tab, "end-turn"):
            return self.done("end_turn", press(tab.by("end-turn")))
        if body(tab, "seq") != seq:
            return "stale"
        raise AssertionError(f"no move found; the page says: {tab.by('status').inner_text()!r}")


def play_until(players: list[Player], done: Any, limit_s: float, poll_ms: int = 50) -> None:
    """Let each player move whenever it must, until ``done()`` is true; fails after ``limit_s``."""
    deadline = time.monotonic() + limit_s
    while not done():
        if time.monotonic() > deadline:
            states = [(body(p.tab, "phase"), p.tab.by("status").inner_text()) for p in players]
            raise AssertionError(f"not done within {limit_s}s: {states}")
        moved = False
        for player in players:
            seq = player.tab.page.evaluate(
                "() => { const b = document.body.dataset;"
                " return b.mustAct === '1' && b.pending === undefined && b.connection === 'open'"
                " && b.phase !== 'game_over' ? b.seq : null; }"
            )
            if seq is not None:
                player.move(seq)
                moved = True
        if not moved:
            players[0].tab.page.wait_for_timeout(poll_ms)
