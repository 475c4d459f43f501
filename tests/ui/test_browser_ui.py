"""The browser UI against a live ``liverpool serve``: players act only through the page's controls.

Chromium is Debian's (``scripts/ensure_chromium.sh``); bots play at full speed (``bot_pace_ms`` 0).
Screenshots of the lobby, a table and the results page are saved under ``artifacts/screenshots/``.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_fixtures import (
    Player,
    Tab,
    body,
    browser,
    create_table,
    draw_and_open_the_builder,
    join,
    open_tab,
    play_until,
    wait_for_move,
)
from server_fixtures import ServerProcess

from liverpool.engine.cards import Card
from liverpool.engine.record import GameRecord, replay

pytestmark = pytest.mark.slow  # `make test-quick` leaves these out; `make test` runs them

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]

StartServer = Callable[[str], ServerProcess]

# One deal of a single set, with 30 jokers in the shoe and one natural enough for a set: both players
# go down at once and soon hold a card to lay off. With no washed stock the deal ends with the stock.
LAY_OFF_DEAL = {
    "deals": 1,
    "deals-contract-0": "set 3",
    "set_min_naturals": 1,
    "decks-jokers-0": 30,
    "decks-jokers-1": 30,
    "stock_out": "end_deal",
    "final_deal": "normal",
}


# The replay the page is given for a record file (POST /api/replay): the final table it shows.
REPLAY_JS = """async (text) => {
  const answer = await (await fetch('/api/replay', { method: 'POST', body: text })).json();
  const last = answer.steps.at(-1).table;
  return { totals: last.totals, hands: last.hands, melds: last.melds.map((m) => m.cards) };
}"""


def hand(tab: Tab) -> list[str]:
    cards: list[str] = tab.page.locator("[data-testid=hand-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
    return cards


def seated(browser: Browser, invite: str, seat: int, name: str, buys: int = 0) -> Player:
    tab = open_tab(browser)
    join(tab, invite, seat, name)
    return Player(tab, buys=buys)


def moves_made(*players: Player) -> int:
    return sum(sum(p.moves.values()) for p in players)


def test_one_human_and_three_bots_play_a_whole_game(
    browser: Browser, start_server: StartServer, sqlite_url: str, tmp_path: Path
) -> None:
    server = start_server(sqlite_url)
    tab = open_tab(browser)
    links = create_table(tab, server.http, ["human", "random", "easy", "random"])
    tab.screenshot("lobby")
    join(tab, links["invite"], 0, "Ada")
    player = Player(tab)
    seen: set[str] = set()

    def over() -> bool:
        if "table" not in seen and tab.by("godown-options").is_visible():
            tab.screenshot("table")
            seen.add("table")
        if tab.by("deal-summary").is_visible():
            seen.add("summary")
        return body(tab, "phase") == "game_over"

    started = time.monotonic()
    play_until([player], over, limit_s=600)
    elapsed = time.monotonic() - started
    tab.by("results").wait_for()
    tab.screenshot("results")
    assert tab.errors == []
    assert "summary" in seen, "no end-of-deal summary was shown"
    assert player.moves["draw_stock"] > 0 and player.moves["discard"] > 0, player.moves
    assert "win" in tab.by("results-winners").inner_text()
    assert tab.page.locator("[data-testid=final-scores] [data-testid=score-row]").count() == 7
    shown = [
        int(tab.page.locator(f"[data-testid=final-scores] [data-testid=total-{s}]").inner_text()) for s in range(4)
    ]

    replay_href = tab.by("results-replay").get_attribute("href")
    assert replay_href is not None
    table_id = replay_href.rsplit("/", 1)[-1]
    record = server.get(f"/api/tables/{table_id}/record").text
    engine_totals = list(replay(GameRecord.from_json(record)).totals)
    assert shown == engine_totals

    finished = tab.page.url
    tab.by("results-replay").click()
    tab.page.wait_for_selector("body[data-ready='1']")
    tab.by("replay-next").click()
    assert tab.by("replay-action").inner_text().startswith("Deal 1")
    tab.by("replay-last").click()
    assert body(tab, "phase") == "game_over"
    assert [int(t) for t in body(tab, "totals").split(",")] == engine_totals
    assert tab.by("replay-download").get_attribute("href") == f"/api/tables/{table_id}/record"
    tab.by("replay-prev-deal").click()
    tab.screenshot("replay")
    saved = tmp_path / "game.json"
    saved.write_text(record)
    tab.goto(server.http + "/static/replay.html")
    tab.by("replay-file").set_input_files(str(saved))
    tab.page.wait_for_selector("body[data-ready='1']")
    tab.by("replay-last").click()
    assert [int(t) for t in body(tab, "totals").split(",")] == engine_totals, "a record file replays the same"

    tab.goto(finished)
    tab.by("results-rematch").click()
    tab.page.wait_for_url(lambda url: "/play/" in url and url != finished)
    wait_for_move(tab)
    assert body(tab, "phase") != "game_over" and body(tab, "deal") == "0"
    tab.goto(server.http + "/")
    tab.page.wait_for_selector("body[data-ready='1']")
    assert tab.page.locator("[data-testid=my-table]").count() == 2
    print(f"a whole game through the UI: {elapsed:.0f}s, moves {player.moves}")


def test_two_humans_play_a_deal_with_a_buy_and_a_lay_off(
    browser: Browser, start_server: StartServer, sqlite_url: str
) -> None:
    server = start_server(sqlite_url)
    host = open_tab(browser)
    links = create_table(host, server.http, ["human", "random", "human"], house=LAY_OFF_DEAL)
    ada = Player(host, buys=1, builder=True)
    join(host, links["invite"], 0, "Ada")
    host.page.wait_for_selector("body[data-phase='waiting']")
    assert host.by("waiting-invite").input_value() == links["invite"], "the waiting room shows the invite link"
    bea = seated(browser, links["invite"], 2, "Bea", buys=1)
    bea.drag = True
    spectator = open_tab(browser).goto(links["spectator"])
    windows: list[str] = []

    def deal_over() -> bool:
        for player in (ada, bea):
            if not windows and player.tab.by("buy").is_visible():
                windows.append(player.tab.by("buy-window").inner_text())
        return all(body(p.tab, "phase") == "game_over" for p in (ada, bea))

    play_until([ada, bea], deal_over, limit_s=300)
    assert ada.moves.get("buy", 0) + bea.moves.get("buy", 0) >= 1, (ada.moves, bea.moves)
    assert ada.moves.get("lay_off", 0) + bea.moves.get("lay_off", 0) >= 1, (ada.moves, bea.moves)
    assert windows and "May I?" in windows[0]
    assert bea.moves.get("discard", 0) >= 1, "Bea drags her discards to the pile"
    spectator.by("results").wait_for()
    log = spectator.by("log").inner_text()
    assert "asks to buy" in log and "lays off" in log
    assert host.errors == [] and bea.tab.errors == [] and spectator.errors == []

    record_href = host.by("results-record").get_attribute("href")
    assert record_href is not None
    table_id = record_href.split("/")[-2]
    text = server.get(f"/api/tables/{table_id}/record").text
    engine = replay(GameRecord.from_json(text))
    shown = spectator.page.evaluate(REPLAY_JS, text)
    assert shown["totals"] == list(engine.totals)
    assert [sorted(h) for h in shown["hands"]] == [sorted(map(str, h)) for h in engine.hands]
    assert shown["melds"] == [[str(c) for c in m.meld.cards] for m in engine.melds]
    print(f"Ada (builder): {ada.moves}; Bea (drag): {bea.moves}")


def test_server_killed_and_restarted_mid_deal(browser: Browser, start_server: StartServer, sqlite_url: str) -> None:
    server = start_server(sqlite_url)
    host = open_tab(browser)
    links = create_table(host, server.http, ["human", "random", "human"])
    ada = Player(host)
    join(host, links["invite"], 0, "Ada")
    bea = seated(browser, links["invite"], 2, "Bea")
    target = moves_made(ada, bea) + 8

    def waiting_for_a_human_turn() -> bool:
        """Enough moves made, and the table waits for Ada or Bea to draw or play (nothing else moves)."""
        return moves_made(ada, bea) >= target and any(
            body(p.tab, "mustAct") == "1" and body(p.tab, "phase") in ("draw", "play") for p in (ada, bea)
        )

    play_until([ada, bea], waiting_for_a_human_turn, limit_s=60)
    bea.tab.by("sort-rank").click()
    ranks = [99 if c.startswith("JK") else Card.parse(c).rank for c in hand(bea.tab)]
    assert ranks == sorted(ranks)
    cards = bea.tab.page.locator("[data-testid=hand-card]")
    last = hand(bea.tab)[-1]
    cards.last.drag_to(cards.first, target_position={"x": 3, "y": 30})
    assert hand(bea.tab)[0] == last, "a card dragged onto the first one goes before it"
    before = {"ada": hand(ada.tab), "bea": hand(bea.tab), "deal": body(ada.tab, "deal")}

    server.kill()
    for tab in (ada.tab, bea.tab):
        tab.page.wait_for_function("() => document.body.dataset.connection !== 'open'")
    assert ada.tab.by("connection").inner_text() == "reconnecting…"
    server.start()
    for tab in (ada.tab, bea.tab):
        tab.page.wait_for_function("() => document.body.dataset.connection === 'open'", timeout=30_000)
    bea.tab.goto(bea.tab.page.url)
    bea.tab.page.wait_for_selector("body[data-phase]")
    if body(ada.tab, "deal") == before["deal"]:
        assert hand(ada.tab) == before["ada"]
        assert hand(bea.tab) == before["bea"], "reopening the seat link restores the hand in its order"

    target = moves_made(ada, bea) + 8
    play_until([ada, bea], lambda: moves_made(ada, bea) >= target, limit_s=60)
    assert ada.tab.by("log").inner_text().count("Deal 1:") == 1, "events resent on reconnecting are shown once"
    assert ada.tab.errors == [] and bea.tab.errors == []


@pytest.mark.parametrize("path", ["/", "/join/nope", "/play/nope", "/watch/nope", "/replay/nope"])
def test_pages_load_without_script_errors(browser: Browser, lobby_server: ServerProcess, path: str) -> None:
    tab = open_tab(browser).goto(lobby_server.http + path)
    tab.page.wait_for_load_state("networkidle")
    assert tab.errors == []


def test_house_rules_are_checked_saved_and_played(browser: Browser, lobby_server: ServerProcess) -> None:
    tab = open_tab(browser).goto(lobby_server.http + "/")
    page = tab.page
    page.wait_for_selector("body[data-ready='1']")
    tab.by("preset-select").select_option("british")
    tab.by("mode-house").check()
    tab.by("rule-min_players").fill("9")
    tab.by("create-table").click()
    expect_text = "min_players 9 exceeds max_players 8"
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=create-error]').textContent.includes({expect_text!r})"
    )

    tab.by("rule-min_players").fill("3")
    tab.by("rule-buy_limit").fill("5")
    while page.locator("[data-testid^=rule-deals-remove-]").count() > 3:
        page.locator("[data-testid^=rule-deals-remove-]").last.click()
    tab.by("rule-deals-hand-0").fill("11")
    name = f"tuesday-{secrets.token_hex(3)}"
    tab.by("save-rules-name").fill(name)
    tab.by("save-rules").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=save-rules-status]').textContent.startsWith('saved')"
    )

    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    tab.by("mode-saved").check()
    tab.by("saved-rules-select").select_option(name)
    tab.by("seat-count").fill("3")
    tab.by("seat-count").dispatch_event("change")
    tab.by("seat-kind-1").select_option("random")
    tab.by("create-table").click()
    page.wait_for_selector("[data-testid=created]:not([hidden])")
    invite = tab.by("invite-link").input_value().rsplit("/", 1)[-1]
    rules = lobby_server.get(f"/api/invite/{invite}").json()["ruleset"]
    assert (rules["name"], rules["buy_limit"], len(rules["deals"]), rules["deals"][0]["hand_size"]) == (name, 5, 3, 11)
    assert rules["run_joker_spacing"] == 4, "the other fields are british's"
    assert tab.errors == []


def test_rules_at_hand_in_the_lobby_and_at_the_table(browser: Browser, lobby_server: ServerProcess) -> None:
    """Issue 28.3: the lobby shows each preset's summary, the table a Rules panel, both the engine's words."""
    from liverpool.engine.rules.presets import find_preset
    from liverpool.engine.rules.text import rules_in_words, summary

    tab = open_tab(browser).goto(lobby_server.http + "/")
    tab.page.wait_for_selector("body[data-ready='1']")
    tab.by("preset-select").select_option("british")
    shown = tab.by("preset-summary").locator("li").all_inner_texts()
    assert shown == summary(find_preset("british"))
    assert "deal 7: 1 run of 7" in shown[0]

    created = lobby_server.create(preset="may-i", seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0)
    tab.goto(lobby_server.http + f"/watch/{created['spectator']}")
    tab.page.wait_for_selector("body[data-phase]")
    assert not tab.by("rules-text").is_visible()
    tab.by("rules-toggle").click()
    tab.by("rules-group").first.wait_for()
    # every group of the panel, heading and sentences in order, is the engine's description of the ruleset
    groups = tab.by("rules-group").evaluate_all(
        "gs => gs.map(g => [g.querySelector('h4').textContent, [...g.querySelectorAll('li')].map(l => l.textContent)])"
    )
    assert [(head, lines) for head, lines in groups] == rules_in_words(find_preset("may-i"))
    assert "deal 7: 3 runs of 4, using every card in hand" in tab.by("rules-text").inner_text()
    assert tab.errors == []


def test_the_builder_shows_what_the_engine_says_is_missing(browser: Browser, lobby_server: ServerProcess) -> None:
    """Issue 25.4: the builder checks nothing itself; each meld's state is the engine's draft answer."""
    created = lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0)
    tab = open_tab(browser)
    join(tab, lobby_server.http + created["invite_url"], 0, "Ada")
    draw_and_open_the_builder(tab)
    # a natural card (a joker alone would also need "a natural card" in some presets)
    tab.page.locator("[data-testid=hand-card]:not([data-card^='JK'])").first.click()
    tab.by("builder-add-0").click()
    tab.page.wait_for_function(
        "() => document.querySelector('[data-testid=builder-missing-0]').textContent.includes('more card')"
    )
    assert tab.by("builder-missing-0").inner_text() == "needs 2 more cards"
    assert tab.by("builder-missing").inner_text() == "Missing: set 1 needs 2 more cards"
    assert tab.by("builder-go-down").is_disabled()
    assert tab.errors == []


@pytest.mark.parametrize(("locale", "aggressive"), [("en-GB", "aggressive"), ("nb-NO", "offensiv")])
def test_the_lobby_picks_a_style_per_bot_seat(
    browser: Browser, lobby_server: ServerProcess, locale: str, aggressive: str
) -> None:
    """Issue 29 item 4: a style select beside each bot seat whose level has styles (hidden for people and
    for `random`), in the page's language; the table stores the style chosen."""
    tab = open_tab(browser, locale=locale).goto(lobby_server.http + "/")
    page = tab.page
    page.wait_for_selector("body[data-ready='1']")
    tab.by("seat-count").fill("3")
    tab.by("seat-count").dispatch_event("change")
    assert not tab.by("seat-style-0").is_visible(), "no style for a person's seat"
    tab.by("seat-kind-1").select_option("medium")
    tab.by("seat-kind-2").select_option("random")
    assert tab.by("seat-style-1").is_visible() and not tab.by("seat-style-2").is_visible()
    assert tab.by("seat-style-1").input_value() == "balanced"
    assert aggressive in tab.by("seat-style-1").locator("option[value=aggressive]").inner_text()
    tab.by("seat-style-1").select_option("aggressive")
    tab.by("create-table").click()
    page.wait_for_selector("[data-testid=created]:not([hidden])")
    invite = tab.by("invite-link").input_value().rsplit("/", 1)[-1]
    bots = lobby_server.get(f"/api/invite/{invite}").json()["bots"]
    assert [(b["seat"], b["bot"], b["style"]) for b in bots] == [(1, "medium", "aggressive"), (2, "random", "balanced")]
    assert tab.errors == []
