"""User text is rendered as text (issue 26, item 13, second half), in Chromium against a real server.

A player's name, a table's title (the ruleset's ``title``) and a saved ruleset's name are each markup
that would run script if a page put it in as HTML. Every page that shows them (the join page, the
table, the lobby's "my tables" and saved rules) must show the characters as typed, make no element
of them, and open no dialog.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from browser_fixtures import Tab, browser, open_tab
from server_fixtures import ServerProcess

pytestmark = pytest.mark.slow  # `make test-quick` leaves these out; `make test` runs them

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]

Start = Callable[..., ServerProcess]
NAME = "<img src=x onerror=alert(1)>"  # 28 characters: a name may have 32
TITLE = "<script>alert(2)</script><img src=x onerror=alert(2)>"
RULESET = "<img src=y onerror=alert(3)>&amp;"
INJECTED = "() => document.querySelectorAll('img[src=x], img[src=y], script:not([src])').length"


def check(tab: Tab, dialogs: list[str], *shown: str) -> None:
    """No element made of the hostile text, no dialog, no page error, and each of ``shown`` on the page."""
    tab.page.wait_for_load_state("networkidle")
    assert tab.page.evaluate(INJECTED) == 0, tab.page.content()[:3000]
    assert dialogs == [] and tab.errors == []
    text = tab.page.inner_text("body")
    for wanted in shown:
        assert wanted in text, (wanted, text[:2000])


def test_hostile_names_titles_and_ruleset_names_are_shown_as_text(
    browser: Browser, start_server: Start, sqlite_url: str
) -> None:
    server = start_server(sqlite_url)
    saved = server.post("/api/rulesets", {"name": RULESET, "rules": {"base": "liverpool", "title": TITLE}})
    assert saved.status_code == 201, saved.text
    created = server.create(rules={"title": TITLE}, seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=60_000)
    tab = open_tab(browser)
    dialogs: list[str] = []
    tab.page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))

    tab.goto(f"{server.http}/join/{created['invite']}")
    tab.page.wait_for_selector("body[data-ready='1']")
    check(tab, dialogs, TITLE)
    tab.by("seat-option-0").check()
    tab.by("name-input").fill(NAME)
    tab.by("join-button").click()
    tab.page.wait_for_url("**/play/**")
    tab.page.wait_for_function("() => document.body.dataset.connection === 'open' && document.body.dataset.phase")
    check(tab, dialogs, NAME)

    tab.goto(f"{server.http}/")
    tab.page.wait_for_selector("body[data-ready='1']")
    tab.by("my-table").first.wait_for()
    check(tab, dialogs, NAME, TITLE)
    options = tab.page.evaluate("() => [...document.querySelectorAll('option')].map((o) => o.textContent)")
    assert any(RULESET in option for option in options), options
