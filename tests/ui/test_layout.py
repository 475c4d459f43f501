"""Every page and table state the browser can reach, at a phone's 390x844 (touch) and a laptop's 1366x900:
no horizontal overflow, nothing drawn outside its box, no control over the discard pile, and while acting
the discard top, the melds one can lay off on and the hand on screen together, the cards one taps at least
44 px on a phone (issue 28 item 2).

One walk per screen size covers the lobby (its house-rules form and "Pace and timeouts" open, the links of
the table just created), the join page, the waiting room, draw (and a turn starting with the table's grid
scrolled to the log), the table's open Rules panel, the keys help,
a buy window, a seat showing many cards it picked up (one that buys every discard, seen as the other draws), the
going-down builder (worked with taps), lay-off, the deal's end, the results, the replay, the coach's review
and the spectator's view.

A box that scrolls up and down is allowed; one that scrolls sideways is not (``LAYOUT_JS``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    press,
    unselect_all,
    visible,
)
from layout_checks import ACTING, DESKTOP, PHONE, check_layout, lay_off_problems, layout_problems
from server_fixtures import ServerProcess
from summary_checks import read_summary, summary_problems

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from collections.abc import Iterator

    from browser_fixtures import Tab
    from playwright.sync_api import Browser, Locator

__all__ = ["browser"]

LONG_NAME = "W" * 32  # the server's limit, unbroken
# A seat shows this many cards it took from the discard pile (its buys, in `.known`): checked once (issue 28).
PICKUPS = 6
# The coach's review of the finished game, measured with few worlds (how it looks, not how well it judges).
REVIEW_ENV = {"LIVERPOOL_REVIEW_WORLDS": "2", "LIVERPOOL_COACH_WORKERS": "1"}
# Generous buying: a buy costs no card from the stock (RULES.md §3.14), so the deals last while a seat buys.
GENEROUS = {**TWO_SHORT_DEALS, "buy_penalty_cards": 0}
# The most cards picked up shown in another seat's box than the viewer's own.
READ_THE_LOG = "() => { const grid = document.getElementById('table-grid'); grid.scrollTop = grid.scrollHeight; }"
# Each seat name's text, title and the lines it takes on screen.
SEAT_NAMES = """(names) => names.map((n) => {
  const range = document.createRange();
  range.selectNodeContents(n);
  const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  return { text: n.textContent, title: n.title, lines: tops.size };
})"""
MOST_KNOWN = "() => Math.max(0, ...[...document.querySelectorAll('.seats > .seat:not(.mine)')].map((s) => s.querySelectorAll('.known .card').length))"


@pytest.fixture(scope="module")
def layout_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The module's server (SQLite), its coach measuring reviews with two worlds (the fewest)."""
    folder = tmp_path_factory.mktemp("layout")
    server = ServerProcess(f"sqlite:///{folder / 'tables.db'}", folder, env=REVIEW_ENV).start()
    yield server
    server.stop()


class Buyer(Player):
    """Buys every discard it is offered and keeps them, never going down, until the walk has seen its
    seat with many pickups (``seen`` is the walk's)."""

    seen: dict[str, list[str]]

    def move(self, seq: str) -> str:
        self.hold = "pickups" not in self.seen
        return super().move(seq)


class Walker(Player):
    """A player that checks the layout in each state before making its move there. Its hand stays a real
    hand's size (it buys once); the seat that buys every discard is a plain :class:`Player`, checked from here."""

    seen: dict[str, list[str]]
    touch: bool
    spectator: Tab
    summaries: dict[str, dict[str, Any]]
    most_known: int = 0  # the most cards picked up shown in another seat's box, as this seat draws
    read_log: bool = False  # whether it scrolled the table's grid to its end (the log) after a discard

    def tap(self, locator: Locator) -> None:
        """A tap on a touch screen, else a click."""
        if self.touch:
            locator.tap()
        else:
            locator.click()

    def move(self, seq: str) -> str:
        tab = self.tab
        # once it has built a going-down and laid off, it stays up (the deal lasts) until the pickups are seen
        self.hold = {"builder", "lay-off"} <= set(self.seen) and "pickups" not in self.seen
        if visible(tab, "deal-summary"):
            if "deal-end" not in self.seen:
                self.seen["log at the deal's end"] = [tab.by("log").inner_text()]
            if not self.summaries:  # the first deal's end, as the first seat to see it and the spectator see it
                self.summaries["seat"] = read_summary(tab)
                self.summaries["spectator"] = read_summary(self.spectator)
            check_layout(tab, "deal-end", self.seen)
        elif visible(tab, "buy"):
            check_layout(tab, "buy-window", self.seen)
        elif visible(tab, "draw-stock"):
            check_layout(tab, "draw", self.seen, ACTING)
            if self.read_log:  # its turn starts with the grid scrolled to the log: the piles are brought back
                # (on a laptop, where the seats stand beside the piles, the whole table from its top)
                seats = [".seats > .seat .seat-head"] if tab.page.viewport_size == DESKTOP else []
                check_layout(tab, "turn-start", self.seen, ACTING + seats)
            # another seat shows many cards it picked up: the pile and this seat's hand stay in sight
            known = tab.page.evaluate(MOST_KNOWN)
            Walker.most_known = max(Walker.most_known, known)
            if known >= PICKUPS:
                check_layout(tab, "pickups", self.seen, ACTING)
            assert tab.by("clock").inner_text().startswith("Your turn ·"), "the turn clock shows whose turn"
            cut = tab.by("clock").evaluate("(n) => n.scrollWidth > n.clientWidth")
            assert not cut, f"the turn clock is cut short on screen: {tab.by('clock').inner_text()!r}"
            if "rules-panel" not in self.seen:
                self.open_the_panels()
        elif visible(tab, "godown-option-0") and "builder" not in self.seen:
            return self.build_with_taps()
        else:
            fits = tab.page.locator("[data-testid=hand-card].can-lay-off")
            if fits.count() and "lay-off" not in self.seen:
                unselect_all(tab)
                fits.first.click()
                tab.page.wait_for_selector("[data-testid=meld].target")
                # Every meld the card fits, in sight (itself or its button above the hand) with the hand and the pile.
                check_layout(tab, "lay-off", self.seen, ACTING, targets=True)
                unselect_all(tab)
        moved = super().move(seq)
        if moved == "discard":  # between its turns it reads the log, at the table grid's end
            tab.page.evaluate(READ_THE_LOG)
            self.read_log = True
        return moved

    def open_the_panels(self) -> None:
        """Open the table's Rules panel and the keys help, each checked, and close them again."""
        tab = self.tab
        self.tap(tab.by("rules-toggle"))
        tab.by("rules-text").wait_for()
        check_layout(tab, "rules-panel", self.seen)
        self.tap(tab.by("rules-toggle"))
        self.tap(tab.by("keys-button"))
        tab.by("keys-help").wait_for()
        check_layout(tab, "keys-help", self.seen, ["[data-testid=keys-help-close]"])
        self.tap(tab.by("keys-help-close"))
        tab.by("keys-help").wait_for(state="hidden")

    def seat_names_compact(self) -> list[str]:
        """While the builder is open every seat's name takes one line on screen (the seats column holds
        them all, issue 28), cut short there but whole in its text and title (a screen reader reads it)."""
        names = self.tab.page.locator(".seats > .seat .seat-head strong").evaluate_all(SEAT_NAMES)
        problems = [f"{n['text']!r} takes {n['lines']} lines while building" for n in names if n["lines"] > 1]
        problems += [f"{n['text']!r} has the title {n['title']!r}" for n in names if n["title"] != n["text"]]
        if LONG_NAME not in [n["text"] for n in names]:
            problems.append(f"no seat's name is {LONG_NAME!r} in full: {[n['text'] for n in names]}")
        return problems

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
        must_see = ["[data-testid=builder-go-down]", "[data-testid=hand-card]"]
        if tab.page.viewport_size == DESKTOP:  # a laptop has room for the seats and the melds beside the builder
            must_see += [".seats > .seat .seat-head"]
            must_see += ["[data-testid=meld]"] * bool(tab.page.locator("[data-testid=meld]").count())
        check_layout(tab, "builder", self.seen, must_see)
        if tab.page.viewport_size == DESKTOP:
            self.seen["builder"] += self.seat_names_compact()
        self.tap(tab.by("builder-go-down"))
        return self.done("go_down")


@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_page_fits_the_screen(browser: Browser, layout_server: ServerProcess, screen: dict[str, int]) -> None:
    touch = screen == PHONE
    seen: dict[str, list[str]] = {}
    host = open_tab(browser, screen, touch)
    links = create_table(host, layout_server.http, ["human", "random", "human"], house=GENEROUS)
    # the lobby as the table's creator leaves it: house rules and "Pace and timeouts" open, the links shown
    assert host.by("rules-form").is_visible() and host.page.locator("[data-testid=pace][open]").count() == 1
    check_layout(host, "created", seen)
    host.goto(layout_server.http + "/")
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
    # Bea buys every discard she is offered, at no stock cost, and keeps them: her seat shows many pickups,
    # and her hand grows past any real hand, so only Ada, whose hand stays a real size, checks the states
    # (Bea's seat among them).
    ada, bea = Walker(host, buys=1), Buyer(guest, buys=99)
    ada.seen, ada.touch, ada.spectator, bea.seen = seen, touch, spectator, seen
    summaries: dict[str, dict[str, Any]] = {}
    ada.summaries = summaries
    Walker.most_known = 0

    def spectator_checked() -> bool:
        if body(spectator, "phase") in ("draw", "play") and spectator.page.locator("[data-testid=meld]").count():
            check_layout(spectator, "spectator", seen)
            assert spectator.by("watching").is_visible() and "'s turn" in spectator.by("clock").inner_text()
        return body(host, "phase") == "game_over" and body(guest, "phase") == "game_over"

    play_until([ada, bea], spectator_checked, limit_s=480)  # two deals of buys on a shared, loaded machine
    log = seen.pop("log at the deal's end")[0]
    with layout_server.spectator(links["spectator"].rsplit("/", 1)[-1]) as watcher:
        results = watcher.state_where(lambda s: s["observation"] is not None)["observation"]["results"]
    assert set(summaries) == {"seat", "spectator"}, "no deal summary was read"
    for who, shown in summaries.items():  # issue 28 item 1: the summary is the engine's deal result
        problems = summary_problems(shown, results[shown["deal"] - 1])
        assert not problems, f"the {who}'s deal summary: {problems}"
    assert "gets the bought" in log and "Deal 1 is over: " in log, "the log says who got a bought card, and why"
    host.by("results").wait_for()
    check_layout(host, "results", seen)
    href = str(host.by("results-review").get_attribute("href"))
    assert href.endswith("?seat=0"), f"the results link to the coach's review of another seat: {href}"
    # Ada's review (she went down through the builder, the card taken out and back in last)
    review = open_tab(browser, screen, touch).goto(layout_server.http + href)
    host.by("results-replay").click()
    host.page.wait_for_selector("body[data-ready='1']")
    host.by("replay-prev-deal").click()
    check_layout(host, "replay", seen)
    review.page.wait_for_function("() => document.body.dataset.review === 'done'", timeout=600_000)
    check_layout(review, "review", seen)
    wanted = {"created", "lobby", "join", "waiting", "draw", "turn-start", "rules-panel", "keys-help", "buy-window"}
    wanted |= {"builder", "lay-off", "deal-end", "results", "replay", "review", "spectator"}
    assert "pickups" in seen, f"no seat showed {PICKUPS} cards it picked up (at most {Walker.most_known})"
    assert wanted <= set(seen), f"states not reached: {sorted(wanted - set(seen))}"
    problems = {where: found for where, found in seen.items() if found}
    assert not problems, "\n".join(f"{where}: {p}" for where, found in problems.items() for p in found)
    assert host.errors == [] and guest.errors == [] and spectator.errors == [] and review.errors == []


# Three sets a deal from 16 cards and jokers galore, with bots that seldom go out (random ones): the deals
# last until the stock runs out, the seats go down and there are many sets on the table; a joker in hand fits
# every one of them (RULES.md §1: jokers are wild; once down, a player lays off on any meld), more than lie
# between the piles and the hand on a phone.
THREE_SETS = {
    **TWO_SHORT_DEALS,
    "deals": 4,
    **{f"deals-contract-{deal}": "set 3, set 3, set 3" for deal in range(4)},
    **{f"deals-hand-{deal}": 16 for deal in range(4)},
}


# How far apart the melds the selected card fits lie, against the room between the sticky piles and the
# player's panel: more than that room, and the table's grid cannot show them all at once, whatever its scroll.
TARGETS_SPREAD = """() => {
  const boxes = [...document.querySelectorAll('[data-testid=meld].target')].map((e) => e.getBoundingClientRect());
  const room = document.getElementById('me').getBoundingClientRect().top - document.querySelector('.piles').getBoundingClientRect().bottom;
  return boxes.length ? { spread: Math.max(...boxes.map((b) => b.bottom)) - Math.min(...boxes.map((b) => b.top)), room } : null;
}"""


class Hoarder(Player):
    """Goes down, never lays off (the melds stay many and the cards that fit them, jokers last, stay in hand),
    and each turn selects every card that fits a meld: the first whose melds do not fit on screen together is
    checked."""

    problems: list[str] | None = None
    most: int = 0
    laid: tuple[str | None, int] = (None, 0)  # the meld tapped in the lay-off strip, and the card's copies there

    def move(self, seq: str) -> str:
        tab = self.tab
        fits = tab.page.locator("[data-testid=hand-card].can-lay-off")
        if not fits.count() or not visible(tab, "discard-button") or self.problems is not None:
            return super().move(seq)
        for card in fits.evaluate_all("cs => cs.map(c => c.dataset.card)"):
            unselect_all(tab)
            tab.page.locator(f"[data-testid=hand-card][data-card='{card}']").click()
            tab.page.wait_for_selector("[data-testid=meld].target")
            spread = tab.page.evaluate(TARGETS_SPREAD)
            problems, count = lay_off_problems(tab)
            self.most = max(self.most, count)
            if spread and spread["spread"] > spread["room"]:
                tab.screenshot("layout-390-many-lay-off-targets")
                self.problems = layout_problems(tab, ACTING) + problems
                if self.problems:
                    break
                # and a tap on the last meld's button lays the card off there
                button = tab.page.locator("[data-testid=layoff-target]").last
                meld = button.get_attribute("data-meld")
                button.tap()
                tab.page.wait_for_function(f"() => document.body.dataset.seq !== {seq!r}")
                self.laid = (
                    meld,
                    tab.page.locator(f"[data-testid=meld][data-meld='{meld}'] [data-card='{card}']").count(),
                )
                return self.done("lay_off")
        unselect_all(tab)
        # discard a card that fits no meld if there is one, else one that does (never lay off, never go out)
        keep = set(fits.evaluate_all("cs => cs.map(c => c.dataset.card)"))
        cards = tab.page.locator("[data-testid=hand-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
        for card in sorted(cards, key=lambda c: (c in keep, c.startswith("JK"))):
            tab.page.locator(f"[data-testid=hand-card][data-card='{card}']").click()
            if tab.by("discard-button").is_enabled():
                return self.done("discard", press(tab.by("discard-button")))
            unselect_all(tab)
        return super().move(seq)


def test_every_lay_off_target_in_sight_on_a_phone(browser: Browser, lobby_server: ServerProcess) -> None:
    """A card that fits more melds than the table's grid shows at once on a 390x844 touch screen: every one
    of them is in sight, with the discard pile's top and the hand, without scrolling (issue 28 item 2)."""
    tab = open_tab(browser, PHONE, touch=True)
    links = create_table(tab, lobby_server.http, ["human", "random", "random", "random"], house=THREE_SETS)
    join(tab, links["invite"], 0, LONG_NAME)
    hoarder = Hoarder(tab)
    play_until([hoarder], lambda: hoarder.problems is not None or body(tab, "phase") == "game_over", limit_s=180)
    assert hoarder.problems is not None, f"no card fitted more melds than the grid shows (at most {hoarder.most})"
    assert not hoarder.problems, "\n".join(hoarder.problems)
    assert hoarder.laid[1] == 1, f"a tap on the button of meld {hoarder.laid[0]} did not lay the card off there"
    assert tab.errors == []
