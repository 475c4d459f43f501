"""Refusals are shown to the user in words (issue 26: "the lobby and the table show it to the user in
words"), in Chromium against a real ``liverpool serve`` with low limits.

- The lobby: a second table created within the minute when one a minute is allowed shows the server's
  sentence, with how long to wait.
- The table: a seat page opened while its address already holds every connection it may shows the
  server's sentence, and the page connects by itself once a connection is free.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from browser_fixtures import browser, create_table, open_tab
from server_fixtures import ServerProcess

pytestmark = pytest.mark.slow  # `make test-quick` leaves these out; `make test` runs them

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]

Start = Callable[..., ServerProcess]


def test_the_lobby_says_in_words_why_a_table_was_not_created(
    browser: Browser, start_server: Start, sqlite_url: str
) -> None:
    server = start_server(sqlite_url, env={"LIVERPOOL_TABLES_PER_MINUTE": "1"})
    tab = open_tab(browser)
    create_table(tab, server.http, ["human", "random", "random"])
    tab.by("create-table").click()
    error = tab.by("create-error")
    tab.page.wait_for_function(
        "() => document.querySelector('[data-testid=create-error]').textContent.includes('try again in')"
    )
    text = error.text_content() or ""
    assert text.startswith("At most 1 tables a minute from one address; try again in "), text
    assert text.endswith(" s."), text
    assert tab.errors == []


def test_the_table_says_in_words_why_its_connection_was_refused(
    browser: Browser, start_server: Start, sqlite_url: str
) -> None:
    server = start_server(sqlite_url, env={"LIVERPOOL_CONNECTIONS_PER_CLIENT": "2"})
    created = server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=60_000, away_timeout_s=0)
    token = server.join(created["invite"], 0, "Ada")
    held = [server.spectator(created["spectator"]) for _ in range(2)]  # the address's two connections
    for client in held:
        client.state_where(lambda s: True)
    tab = open_tab(browser).goto(f"{server.http}/play/{token}")
    tab.page.wait_for_function(
        "() => document.querySelector('[data-testid=error]').textContent.includes('connections at once')"
    )
    text = tab.by("error").text_content() or ""
    assert text == "One address may hold at most 2 connections at once.", text
    assert tab.by("error").is_visible()
    for client in held:
        client.close()
    tab.page.wait_for_function("() => document.body.dataset.connection === 'open' && document.body.dataset.phase")
    assert tab.errors == []
