"""Cards everyone can tell apart (issue 28 item 6): a four-colour deck and a colour-blind-safe palette,
suits always shown by symbol too, the choice remembered by the browser; the score chart's line of each
seat has the colour of the seat's swatch in either palette."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from browser_fixtures import browser, open_tab
from server_fixtures import ServerProcess

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]

# One card of each suit drawn by the page's own card module; their text colours and symbols.
SUITS_JS = """async () => {
  const { cardElement } = await import('/static/js/cards.js');
  document.querySelector('[data-testid=colour-probe]')?.remove();
  const probe = document.createElement('div');
  probe.dataset.testid = 'colour-probe';
  const cards = ['5C', '5D', '5H', '5S'].map((c) => cardElement(c));
  probe.append(...cards);
  document.body.append(probe);
  return cards.map((c) => [getComputedStyle(c).color, c.textContent]);
}"""

# A score table and chart drawn by the page's own scores module: each seat's swatch colour and its line's.
SEATS_JS = """async () => {
  const { scoreTable, scoreChart } = await import('/static/js/scores.js');
  document.querySelector('[data-testid=seat-probe]')?.remove();
  const probe = document.createElement('div');
  probe.dataset.testid = 'seat-probe';
  const results = [{ deal: 0, went_out: 0, scores: [0, 30, 55] }];
  probe.append(scoreTable(results, [0, 30, 55], ['a', 'b', 'c']), scoreChart(results, ['a', 'b', 'c']));
  document.body.append(probe);
  const swatches = [...probe.querySelectorAll('.swatch')].map((n) => getComputedStyle(n).backgroundColor);
  const lines = [...probe.querySelectorAll('polyline')].map((n) => getComputedStyle(n).stroke);
  const filled = [...probe.querySelectorAll('polyline')].map((n) => getComputedStyle(n).fill);
  return { swatches, lines, filled };
}"""


def test_four_colours_and_a_colour_blind_safe_palette_are_remembered(
    browser: Browser, lobby_server: ServerProcess
) -> None:
    created = lobby_server.create(seats=3)
    tab = open_tab(browser).goto(lobby_server.http + created["spectator_url"])
    tab.page.wait_for_selector("body[data-phase='waiting']")
    two = tab.page.evaluate(SUITS_JS)
    assert [text[-1] for _, text in two] == ["♣", "♦", "♥", "♠"], "each suit is shown by its symbol"
    assert len({colour for colour, _ in two}) == 2
    tab.by("card-colours").select_option("four")
    four = tab.page.evaluate(SUITS_JS)
    assert len({colour for colour, _ in four}) == 4, four
    tab.page.reload()
    tab.page.wait_for_selector("body[data-phase='waiting']")
    assert tab.by("card-colours").input_value() == "four", "the choice is remembered"
    assert tab.page.evaluate(SUITS_JS) == four
    seats = tab.page.evaluate(SEATS_JS)
    assert seats["lines"] == seats["swatches"] and len(set(seats["lines"])) == 3, seats
    assert set(seats["filled"]) == {"none"}, "a line, not a filled shape"
    tab.by("card-colours").select_option("safe")
    safe = tab.page.evaluate(SUITS_JS)
    assert len({colour for colour, _ in safe}) == 4 and safe != four
    safe_seats = tab.page.evaluate(SEATS_JS)
    assert safe_seats["lines"] == safe_seats["swatches"], "the chart follows the colour-blind-safe palette"
    assert safe_seats["swatches"] != seats["swatches"]
    assert tab.errors == []
