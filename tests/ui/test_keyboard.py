"""Keyboard and screen readers at the table (issue 28 item 5): a turn played by keys alone with a visible
focus, going down through the builder, laying off, swapping a joker and buying by keys, the keys'
help dialog, cards named in words and the live region that says each turn change and buy window;
a Liverpool call by c, from a table set up with the engine's position API (random bots seldom give one)."""

from __future__ import annotations

import itertools
import re
import time
from typing import TYPE_CHECKING

import pytest
from browser_fixtures import TWO_SHORT_DEALS, body, browser, create_table, join, open_tab, visible, wait_for_move
from server_fixtures import ServerProcess

from liverpool.engine import Action, Call, Card, DrawStock, GameRecord, Position, action_from_dict, find_preset, replay
from liverpool.server.schemas import TableOptions
from liverpool.server.storage import NewSeat, Storage

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from browser_fixtures import Tab
    from playwright.sync_api import Browser

__all__ = ["browser"]

CARD_NAME = re.compile(
    r"^\S+: (joker|(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of (clubs|diamonds|hearts|spades))$"
)

# The focused element and the outline the stylesheet draws around it.
FOCUS_JS = """() => {
  const e = document.activeElement, style = getComputedStyle(e);
  return { element: e.dataset.testid ?? e.tagName, style: style.outlineStyle, width: style.outlineWidth };
}"""


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
    page.keyboard.press("Tab")  # the control the keyboard reached shows it has the focus
    focus = page.evaluate(FOCUS_JS)
    assert focus["style"] != "none" and focus["width"] != "0px", f"no visible focus outline: {focus}"
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


# Liverpool (RULES.md §5: buying after the next player declines) cut to two short deals of one set with
# jokers galore, and jokers swapped from sets too: going down, laying off, a swap and a buy come soon.
KEY_DEALS = {**TWO_SHORT_DEALS, "joker_swap_from_sets": True}

# Every text the live region is given, kept by the page (a bot's move may replace it within a moment).
HEAR_JS = """() => {
  const region = document.querySelector('[data-testid=announce]');
  window.heard = [];
  new MutationObserver(() => window.heard.push(region.textContent)).observe(region, { childList: true, characterData: true, subtree: true });
}"""

ASKED_JS = "() => document.querySelector('[data-testid=log]').innerText.includes('Ada asks to buy')"


def heard(tab: Tab) -> list[str]:
    said: list[str] = tab.page.evaluate("() => window.heard")
    return said


def last_lines(tab: Tab) -> str:
    """The log's last lines (a move may be followed by its announcement: "Ada announces: 1 card left!")."""
    return "\n".join(tab.by("log").inner_text().splitlines()[-3:])


def test_going_down_and_laying_off_by_keys(browser: Browser, lobby_server: ServerProcess) -> None:
    """m, 1 to 9 and g build a going-down and send it; l lays a card off (Enter on the meld or the end
    it asks for); j swaps a joker; b buys in a May I? window. The live region says every turn change by
    name and every buy window, to the seat and to a spectator, one message a change."""
    tab = open_tab(browser)
    links = create_table(tab, lobby_server.http, ["human", "random", "random"], house=KEY_DEALS, preset="liverpool")
    join(tab, links["invite"], 0, "Ada")
    watcher = open_tab(browser).goto(links["spectator"])
    page = tab.page
    for listener in (tab, watcher):
        listener.page.wait_for_selector("body[data-seq]")
        listener.page.evaluate(HEAR_JS)
    wanted = {"go_down", "lay_off", "swap", "buy"}
    used: set[str] = set()
    deadline = time.monotonic() + 150

    def both_bots_heard() -> bool:
        # The bots may have played their first turns before the listeners were attached (random bots move
        # at once): play on until each bot's turn has been said to both listeners since.
        return all({"bot 1 (random)'s turn.", "bot 2 (random)'s turn."} <= set(heard(t)) for t in (tab, watcher))

    while not wanted <= used or not both_bots_heard():
        assert time.monotonic() < deadline, f"only {sorted(used)} done by keys; heard {heard(tab)}"
        assert wait_for_move(tab) != "game_over", f"the game ended with only {sorted(used)} done by keys"
        seq = body(tab, "seq")
        fits = page.locator("[data-testid=hand-card].can-lay-off")
        if visible(tab, "next-deal"):
            page.keyboard.press("n")
        elif visible(tab, "buy") and "buy" not in used:
            page.keyboard.press("b")
            page.wait_for_function(ASKED_JS, timeout=5_000)  # b asked to buy the discard
            used.add("buy")
            continue
        elif visible(tab, "pass"):
            page.keyboard.press("p")
        elif visible(tab, "draw-stock"):
            page.keyboard.press("s")
        elif visible(tab, "godown-option-0") and "go_down" not in used:
            build_by_keys(tab)
            moved(tab, seq)
            assert tab.by("seat-0").get_attribute("data-down") == "1", "g sent the going-down built"
            used.add("go_down")
            continue
        elif visible(tab, "godown-option-0"):  # the next deal: go down with the first offer, by Enter on it
            tab.by("godown-option-0").focus()
            page.keyboard.press("Enter")
        elif page.locator("[data-testid^=swap-option-]").count() and "swap" not in used:
            page.keyboard.press("j")
            if focused(tab).startswith("swap-option-"):
                page.keyboard.press("Enter")
            moved(tab, seq)
            assert "joker" in last_lines(tab), "j swapped a joker"
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
            assert "Ada lays off" in last_lines(tab), "l laid the card off"
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
    for listener in (tab, watcher):  # each turn change and buy window said once, the other seats by name
        said = heard(listener)
        assert "bot 1 (random)'s turn." in said and "bot 2 (random)'s turn." in said, said
        assert any(line.startswith("May I?") for line in said), said
        assert all(a != b for a, b in itertools.pairwise(said)), f"a change said twice: {said}"
    assert "Ada's turn." in heard(watcher), "the spectator hears whose turn it is by name"
    assert tab.errors == [] and watcher.errors == []


# RULES.md §3 playable-discard call, "liverpool" (001a): Cy (seat 2, down) has just discarded the 8♦, which
# fits Cy's set of eights; Bob (seat 1, not down) is to draw. Ada (seat 0) is down, not the discarder and holds
# three cards, so she may call Liverpool, shedding one of them onto the pile. Bob and Cy are people who never
# move (no away bot), so the call stays open for as long as the test needs.
CALL_POSITION = Position.of(
    hands=["KH 9D 5C", "2C 2D 6H 7S 10C QC QD AH AS 9S", "JH 4H"],
    discard_pile="6D 8D",
    melds=[(0, "3C 3D 3S"), (0, "4C 4D 4S"), (2, "8H 8S 8C"), (2, "JD JS JC")],
    current=1,
    discarder=2,
)


def call_table(server: ServerProcess) -> tuple[str, str, GameRecord]:
    """A ``liverpool`` table at :data:`CALL_POSITION`, written to the server's database as the tutorial's
    is (no route of the server is added for it), Bob and Cy seated; its id, invite and empty record."""
    rules = find_preset("liverpool")
    position = CALL_POSITION.with_rest_in_stock(rules)
    options = TableOptions.model_validate({"away_timeout_s": 0, "bot_pace_ms": 0, "buy_timeout_s": 600}).model_dump()
    storage = Storage(server.db)
    try:
        info = storage.create_table(rules.to_dict(), 0, options, [NewSeat()] * 3, position=position.to_dict())
    finally:
        storage.close()
    record = GameRecord(rules, ["Ada", "Bob", "Cy"], 0, position=position)
    return info.id, info.invite, record


def stored_actions(server: ServerProcess, table_id: str) -> list[Action]:
    """The table's actions as the server stored them (the engine's values)."""
    storage = Storage(server.db)
    try:
        return [action_from_dict(a) for a in storage.actions(table_id)]
    finally:
        storage.close()


def test_a_liverpool_call_by_c(browser: Browser, lobby_server: ServerProcess) -> None:
    """RULES.md §3 playable-discard call ("liverpool"): offered a call, Ada selects the 9♦ by keys and
    presses c; the engine's log holds her Call shedding the 9♦, now the top discard. c does nothing while
    no card is selected, nor once no call is open."""
    table_id, invite, record = call_table(lobby_server)
    bob = lobby_server.join(invite, 1, "Bob")
    lobby_server.join(invite, 2, "Cy")
    tab = open_tab(browser)
    join(tab, f"{lobby_server.http}/join/{invite}", 0, "Ada")
    page = tab.page
    call = tab.by("call-liverpool")
    call.wait_for()  # the engine offers Ada the call: the page shows its control
    assert call.is_disabled(), "no card to shed is selected yet"
    seq = body(tab, "seq")
    page.keyboard.press("c")  # nothing to send without a card: nothing is sent (the stored log shows it below)
    assert body(tab, "pending") == "" and body(tab, "seq") == seq
    select_by_key(tab, "9D")
    page.keyboard.press("c")
    moved(tab, seq)
    assert "Ada calls Liverpool and sheds" in last_lines(tab)
    assert tab.by("discard-top").get_attribute("data-card") == "9D", "the page shows the 9♦ on the pile"
    actions = stored_actions(lobby_server, table_id)
    assert actions == [Call(seat=0, card=Card.parse("9D"))], actions
    state = replay(GameRecord(record.rules, record.seats, 0, actions, position=record.position))
    assert state.discard_pile[-1] == Card.parse("9D") and state.discarder == 0, "the 9♦ is shed onto the pile"
    assert sorted(map(str, state.hands[0])) == ["5C", "KH"] and not state.call_open
    assert not call.is_visible(), "no call is open once one is made"
    seq = body(tab, "seq")
    select_by_key(tab, "KH")
    page.keyboard.press("c")  # no call open: c sends nothing
    assert body(tab, "pending") == ""
    with lobby_server.player(bob) as socket:  # Bob draws: the table moves on, and nothing of Ada's came first
        socket.current(lambda s: s["seq"] == int(seq))
        socket.act({"type": "draw_stock", "seat": 1})
        socket.state_where(lambda s: s["seq"] > int(seq))
    moved(tab, seq)
    assert stored_actions(lobby_server, table_id) == [*actions, DrawStock(seat=1)]
    assert tab.by("error").is_hidden() and tab.errors == []
