"""Norwegian and English (issue 28 item 7): a browser whose language is Norwegian gets the lobby and the
table in bokmål; the header's switch turns the page to English, and the choice outlives a reload. The
guided game, the melds, the table log and the replay's steps are said from the server's codes."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_fixtures import Player, body, browser, draw_and_open_the_builder, open_tab, play_until
from server_fixtures import ServerProcess
from test_coach_ui import ENV, Start, _my_draw

from liverpool.engine import find_preset
from liverpool.engine.cards import SUIT_SYMBOLS, rank_text

I18N = Path(__file__).resolve().parents[2] / "liverpool" / "server" / "static" / "i18n"

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
    assert " · sett på 3 og sett på 3 · " in tab.by("contract").inner_text(), "the contract worded, not `set 3, set 3`"
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
    bokmal_notes = json.loads((I18N / "nb.json").read_text(encoding="utf-8"))
    notes = [bokmal_notes[f"note.liverpool.{n}"] for n in range(len(find_preset("liverpool").notes))]
    assert all(note in rules for note in notes), "the preset's notes by their keys (docs/i18n.md)"
    assert "Sets of one contract may share a rank" not in rules

    tab.by("language").select_option("en")
    page.wait_for_selector("html[lang='en'] body[data-phase]:not([data-phase='waiting'])")
    assert re.match(r"Your hand · \d+ cards$", page.locator("#hand-title").inner_text())
    assert tab.by("contract").inner_text().startswith("Deal 1 of ")
    assert " · set of 3 and set of 3 · " in tab.by("contract").inner_text()
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


# One short deal of a single set with jokers galore (as test_browser_ui's LAY_OFF_DEAL): everyone goes
# down soon, and the deal ends when a seat goes out or the stock runs out.
SHORT_DEAL = {
    "deals": [{"contract": ["set 3"], "hand_size": 10}],
    "set_min_naturals": 1,
    "decks": [{"max_players": 5, "decks": 2, "jokers": 30}, {"max_players": 8, "decks": 3, "jokers": 30}],
    "stock_out": "end_deal",
    "final_deal": "normal",
}
ENGLISH_IN_LOG = re.compile(
    r"\b(draws|takes|from|the|stock|discards?|pile|asks|buy|passes|goes|down|set|run|lays|off|swaps|calls|"
    r"sheds|ends|gets|bought|with|penalty|cards?|deals?|each|is|went|out|nobody|washed|before|first)\b",
    re.IGNORECASE,
)
"""Words of the English log lines that no bokmål line has."""
SEEN = """() => {
  window.seenLog = [...document.querySelectorAll('#log li')].map((li) => li.textContent);
  new MutationObserver((changes) => changes.forEach((change) => change.addedNodes.forEach((li) =>
    window.seenLog.push(li.textContent)))).observe(document.getElementById('log'), { childList: true });
  window.builderTitles = new Set();
  new MutationObserver(() => document.querySelectorAll('.builder-head strong').forEach((title) =>
    window.builderTitles.add(title.textContent))).observe(document.body, { childList: true, subtree: true });
}"""
"""Keeps every line the log shows (``seenLog``) and every title the going-down builder shows."""


def test_the_table_log_and_the_replay_speak_bokmal(browser: Browser, lobby_server: ServerProcess) -> None:
    """The log's lines are said from the server's phrases (issue 28 item 7): a table opened in English shows
    the server's English line; switched to bokmål, every line of the deal (drawing, discarding, a buy with
    its penalty card, going down, the deal's end) is in bokmål with no English word left, and so are the
    replay's steps (RULES.md §3 buying: the buyer gets the discard and a penalty card from the stock).
    Kari goes down through the builder, whose meld title is bokmål too."""
    created = lobby_server.create(rules=SHORT_DEAL, seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0)
    token = lobby_server.join(created["invite"], 0, "Kari")
    tab = open_tab(browser, locale="en-GB")
    page = tab.page
    tab.goto(f"{lobby_server.http}/play/{token}")
    page.wait_for_selector("#log li")
    first = page.locator("#log li").first.inner_text()
    assert re.fullmatch(r"Deal 1: set 3; 10 cards each; (Kari|bot \d \(random\)) deals", first), first

    tab.by("language").select_option("nb")
    page.wait_for_selector("html[lang='nb'] body[data-phase]:not([data-phase='waiting'])")
    page.evaluate(SEEN)
    kari = Player(tab, buys=99, builder=True)
    play_until([kari], lambda: body(tab, "phase") == "game_over", limit_s=300)
    lines: list[str] = page.evaluate("window.seenLog")
    assert re.fullmatch(r"Giv 1: sett på 3; 10 kort hver; .+ gir", lines[0]), "the lines sent on connect, in bokmål"
    english = [line for line in lines if ENGLISH_IN_LOG.search(line)]
    assert not english, english
    said = "\n".join(lines)
    assert "Kari trekker fra bunken" in said and re.search(r"^Kari kaster \S+$", said, re.M), said
    assert re.search(r"^Kari vil kjøpe \S+ \(«Kan jeg\?»\)", said, re.M), said
    bought = re.findall(r"(\S+) får det kjøpte kortet \S+, med 1 straffekort fra bunken\.", said)
    assert bought, f"no buy went through: {kari.moves}"
    assert re.search(r" går ned: sett \S+ \S+ \S+", said), said
    titles = set(page.evaluate("[...window.builderTitles]"))
    assert not [title for title in titles if ENGLISH_IN_LOG.search(title)], titles
    if kari.moves.get("go_down"):
        assert "Sett 1: minst 3 kort" in titles, titles
    print(f"Kari: {kari.moves}; builder titles: {sorted(titles)}")
    assert re.search(r"Giv 1 er ferdig: (.+ gikk ut|ingen gikk ut: bunken gikk tom)\.$", said, re.M), said

    tab.goto(f"{lobby_server.http}/replay/{created['table_id']}")
    page.wait_for_selector("body[data-ready='1']")
    steps = page.locator("#actions li").all_inner_texts()
    assert steps[0] == "0. Før første giv" and steps[1].startswith("1. Giv 1: sett på 3; 10 kort hver; "), steps[:2]
    assert not [step for step in steps if ENGLISH_IN_LOG.search(step)], steps
    assert any(" vil kjøpe " in step for step in steps) and any(" går ned: " in step for step in steps)
    assert tab.errors == []


def test_the_builder_says_the_engines_problems_in_bokmal(browser: Browser, lobby_server: ServerProcess) -> None:
    """The going-down builder's problems come from the engine as codes (``faults``, docs/i18n.md): a
    Norwegian page says them in bokmål, with counts in plural and cards as the page shows cards (RULES.md
    §1 a set is 3+ cards of one rank)."""
    created = lobby_server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0)
    token = lobby_server.join(created["invite"], 0, "Kari")
    tab = open_tab(browser, locale="nb-NO")
    page = tab.page
    tab.goto(f"{lobby_server.http}/play/{token}")
    draw_and_open_the_builder(tab)
    hand: list[str] = page.locator("[data-testid=hand-card]").evaluate_all("cards => cards.map((c) => c.dataset.card)")
    naturals = [card for card in hand if not card.startswith("JK")]
    first = naturals[0]
    other = next(card for card in naturals if card.split("#")[0][:-1] != first.split("#")[0][:-1])
    page.locator(f"[data-testid=hand-card][data-card='{first}']").click()
    tab.by("builder-add-0").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=builder-missing-0]').textContent.includes('kort til')"
    )
    assert tab.by("builder-missing-0").inner_text() == "trenger 2 kort til"
    assert tab.by("builder-missing").inner_text() == "Mangler: sett 1: trenger 2 kort til"
    page.locator(f"[data-testid=hand-card][data-card='{other}']").click()
    tab.by("builder-add-0").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=builder-missing-0]').textContent.includes('blander')"
    )
    assert tab.by("builder-missing-0").inner_text() == "trenger 1 kort til; blander valører: et sett er av én valør"
    assert tab.by("builder-go-down").is_disabled()
    assert tab.errors == []


def test_the_coachs_hint_speaks_bokmal(browser: Browser, start_server: Start, sqlite_url: str) -> None:
    """The coach's best option and its reason come as phrases (``words``, ``reason_words``: the
    ``advice.*`` keys, docs/i18n.md): at the draw, a bokmål page says both in bokmål, with no English left."""
    server = start_server(sqlite_url, env=ENV)
    created = server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=0)
    token = server.join(created["invite"], 0, "Kari")
    tab = open_tab(browser, locale="nb-NO").goto(f"{server.http}/play/{token}")
    _my_draw(tab)
    tab.by("hint").click()
    tab.page.wait_for_selector("[data-testid=hint-text]", timeout=120_000)
    text = tab.by("hint-text").inner_text()
    print(f"hint: {text}")
    option, _, why = text.partition(": ")
    assert option == "trekk fra bunken" or option.startswith("ta "), text
    assert why.startswith(("trekker blindt", "tar ")), text
    english = re.compile(r"\b(draw|draws|take|takes|blind|stock|which|contract|cards?|away|jokers?|unseen|down)\b")
    assert not english.search(text.replace("joker ikke sett", "").replace("jokere ikke sett", "")), text
    assert tab.errors == []
