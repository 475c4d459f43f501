"""Norwegian and English (issue 28 item 7): a browser whose language is Norwegian gets the lobby and the
table in bokmål; the header's switch turns the page to English, and the choice outlives a reload."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

import pytest
from browser_fixtures import browser, open_tab
from server_fixtures import ServerProcess

from liverpool.engine.cards import SUIT_SYMBOLS, rank_text

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]


def test_a_norwegian_browser_gets_bokmal_and_the_switch_is_remembered(
    browser: Browser, lobby_server: ServerProcess
) -> None:
    tab = open_tab(browser, locale="nb-NO")
    page = tab.page
    tab.goto(lobby_server.http + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("document.documentElement.lang") == "nb"
    assert page.locator("[data-testid=new-table] h2").inner_text() == "Nytt bord"
    assert tab.by("create-table").inner_text() == "Opprett bord"
    assert tab.by("seat-kind-0").locator("option").first.inner_text() == "en spiller (invitasjon)"
    assert tab.by("language").input_value() == "nb"
    summary = tab.by("preset-summary").inner_text()
    assert "kjøp: etter at neste har trukket" in summary, "the summary by field and choice (RULES.md §3 buying)"
    assert "giv 1: sett på 3 og sett på 3, 10 kort" in summary, summary

    created = lobby_server.create(seats=3, bots={"1": "easy", "2": "easy"}, bot_pace_ms=60_000)
    token = lobby_server.join(created["invite"], 0, "Kari")
    tab.goto(f"{lobby_server.http}/play/{token}")
    page.wait_for_selector("body[data-phase]:not([data-phase='waiting'])")
    assert re.match(r"Din hånd · \d+ kort$", page.locator("#hand-title").inner_text())
    assert tab.by("contract").inner_text().startswith("Giv 1 av ")
    assert tab.by("sort-suit").inner_text() == "sorter etter farge"
    assert tab.by("stock").locator(".pile-label").inner_text().startswith("bunken · ")
    names = page.locator("[data-testid=hand-card]").evaluate_all(
        "cards => cards.map((c) => c.querySelector('.sr-only')?.textContent ?? c.getAttribute('aria-label'))"
    )
    assert names and all(re.search(r": ((kløver|ruter|hjerter|spar) \w+|joker)$", name) for name in names), names
    assert page.locator("[data-testid=seat-1] .badge.bot").inner_text() == "bot · lett"
    tab.by("rules-toggle").click()
    page.wait_for_selector("[data-testid=rules-group]")
    rules = tab.by("rules-text").inner_text()
    assert "Kjøp («Kan jeg?»)" in rules and "straffekort ved kjøp: 1" in rules, rules

    tab.by("language").select_option("en")
    page.wait_for_selector("html[lang='en'] body[data-phase]:not([data-phase='waiting'])")
    assert re.match(r"Your hand · \d+ cards$", page.locator("#hand-title").inner_text())
    assert tab.by("contract").inner_text().startswith("Deal 1 of ")
    page.reload()
    page.wait_for_selector("body[data-phase]:not([data-phase='waiting'])")
    assert page.evaluate("document.documentElement.lang") == "en", "the switch is remembered"
    assert tab.by("sort-suit").inner_text() == "sort by suit"
    assert tab.by("language").input_value() == "en"
    tab.goto(lobby_server.http + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("[data-testid=new-table] h2").inner_text() == "New table", "remembered by the browser"
    assert tab.errors == []


def test_the_guided_game_speaks_bokmal(browser: Browser, lobby_server: ServerProcess) -> None:
    """The tutorial's step is said from its code (``tutorial.draw`` with the server's card), not the
    server's English sentence; the lobby's tutorial panel and Hints box are in bokmål too."""
    tab = open_tab(browser, locale="nb-NO")
    page = tab.page
    tab.goto(lobby_server.http + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert tab.by("tutorial").inner_text() == "Start spillet med veiledning"
    assert (
        page.locator("label:has([data-testid=hints])").text_content() or ""
    ).strip() == "Tips fra treneren (av for seriøse spill)"
    tab.by("tutorial").click()
    page.wait_for_selector("[data-testid=tutorial-step][data-step='draw']")
    text = tab.by("tutorial-step").inner_text()
    assert text.startswith("Turen din starter med et trekk") and "6♥ fra kastebunken" in text, text
    assert tab.errors == []


def test_melds_are_named_in_the_page_language(browser: Browser, lobby_server: ServerProcess) -> None:
    """A meld's name is worded by the page from the engine's ``words`` (issue 28 item 7): in bokmål on a
    Norwegian page, and in English exactly as the engine's own ``label``."""
    created = lobby_server.create(
        rules={"deals": [{"contract": ["set 3", "run 4"], "hand_size": 10}]},
        seats=3,
        bots={str(s): "easy" for s in range(3)},
        bot_pace_ms=0,
    )
    table_id = created["table_id"]
    deadline = time.monotonic() + 120
    while lobby_server.get(f"/api/tables/{table_id}/replay").status_code != 200:
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.2)
    steps = lobby_server.get(f"/api/tables/{table_id}/replay").json()["steps"]
    # the last step with melds on the table (a deal can end with nobody down)
    at = max(i for i, step in enumerate(steps) if step["table"]["melds"])
    melds = steps[at]["table"]["melds"]

    def bokmal(words: dict[str, Any]) -> str:
        if words["kind"] == "set":
            return f"sett med {rank_text(words['rank'])}-ere"
        suit = SUIT_SYMBOLS[words["suit"]]
        return f"rekke {rank_text(words['low'])}{suit}–{rank_text(words['high'])}{suit}"

    for locale, expected in (("nb-NO", [bokmal(m["words"]) for m in melds]), ("en-GB", [m["label"] for m in melds])):
        tab = open_tab(browser, locale=locale)
        tab.goto(f"{lobby_server.http}/replay/{table_id}")
        tab.page.wait_for_selector("body[data-ready='1']")
        tab.page.locator(f"#actions li[data-step='{at}']").click()
        shown = tab.page.locator(".meld-label").all_inner_texts()
        assert shown == expected, (locale, shown)
        assert tab.errors == []
