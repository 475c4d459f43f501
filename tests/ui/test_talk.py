"""Table talk in the browser (issue 28 item 9): a line and a reaction typed in one player's page appear in
another's and in the spectator's, as text (a hostile name and line stay inert), and a muted player's lines
disappear from the page that muted them, which remembers it after a reload."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from browser_fixtures import browser, create_table, join, open_tab
from server_fixtures import ServerProcess

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from browser_fixtures import Tab
    from playwright.sync_api import Browser

__all__ = ["browser"]

HOSTILE_NAME = "<img src=x onerror=alert(1)>"
HOSTILE_LINE = '<b id="pwned">bold?</b><script>document.title="pwned"</script> Oh my aching back!'


def lines(tab: Tab) -> list[str]:
    found: list[str] = tab.page.locator("[data-testid=talk-line]").all_inner_texts()
    return found


def wait_for_line(tab: Tab, text: str) -> None:
    tab.page.wait_for_function(
        "(text) => [...document.querySelectorAll('[data-testid=talk-line]')].some((l) => l.textContent.includes(text))",
        arg=text,
    )


def test_talk_reaches_the_others_as_text_and_can_be_muted(browser: Browser, lobby_server: ServerProcess) -> None:
    host = open_tab(browser)
    links = create_table(host, lobby_server.http, ["human", "human", "random"])
    join(host, links["invite"], 0, HOSTILE_NAME)
    guest = open_tab(browser)
    join(guest, links["invite"], 1, "Bea")
    watcher = open_tab(browser).goto(links["spectator"])
    dialogs: list[str] = []
    for tab in (host, guest, watcher):
        tab.page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        tab.by("talk-react-aching_back").wait_for()

    host.by("talk-input").fill(HOSTILE_LINE)
    host.by("talk-input").press("Enter")
    host.by("talk-react-joker").click()
    for tab in (guest, watcher):
        wait_for_line(tab, HOSTILE_LINE)
        wait_for_line(tab, "🃏 A joker!")
        assert lines(tab) == [f"{HOSTILE_NAME}: {HOSTILE_LINE}", f"{HOSTILE_NAME}: 🃏 A joker!"]
        talk = tab.by("talk-lines")
        assert talk.locator("img, b, script").count() == 0, "a name or a line never becomes markup"
        assert tab.page.title() != "pwned" and tab.page.locator("#pwned").count() == 0
    assert host.by("talk-input").input_value() == "", "a line sent clears the field"

    guest.by("talk-mute").locator("summary").click()
    guest.by("talk-mute-seat-0").check()
    assert lines(guest) == [], "a muted player's lines leave the page"
    watcher.by("talk-input").fill("the spectator says hello")
    watcher.by("talk-send").click()
    host.by("talk-react-laugh").click()
    wait_for_line(host, "😂 Ha!")
    wait_for_line(guest, "the spectator says hello")
    guest.page.wait_for_timeout(300)
    assert lines(guest) == ["a spectator: the spectator says hello"], "new lines of a muted player stay hidden"
    guest.page.reload()
    wait_for_line(guest, "the spectator says hello")
    assert lines(guest) == ["a spectator: the spectator says hello"], "the mute is remembered after a reload"
    guest.by("talk-mute").locator("summary").click()
    guest.by("talk-mute-seat-0").uncheck()
    assert len(lines(guest)) == 4, "unmuted, every line is back"
    assert dialogs == []
    assert host.errors == [] and guest.errors == [] and watcher.errors == []
