"""What the deal summary shows (issue 28 item 1), read off a table page, and its comparison with the
engine's deal result as the server sends it (``observation.results``): each seat's remaining cards as the
page names them and its points, the final melds by owner and name, and why the deal ended."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from browser_fixtures import Tab

EN = json.loads((Path(__file__).resolve().parents[2] / "liverpool/server/static/i18n/en.json").read_text("utf-8"))

SUMMARY_JS = """() => {
  const box = document.querySelector('[data-testid=deal-summary]');
  return {
    deal: Number(box.dataset.deal),
    heading: box.querySelector('h3').textContent,
    seats: [...box.querySelectorAll('[data-testid^=summary-seat-]')].map((li) => ({
      seat: Number(li.dataset.testid.slice('summary-seat-'.length)),
      name: li.querySelector('.name').textContent,
      who: li.querySelector('.summary-who').textContent,
      cards: [...li.querySelectorAll('[data-testid=summary-card]')].map((c) => [c.dataset.card, c.getAttribute('aria-label')]),
    })),
    melds: [...box.querySelectorAll('[data-testid=summary-meld]')].map((m) => ({
      owner: Number(m.dataset.owner), name: m.getAttribute('aria-label'),
      cards: [...m.querySelectorAll('[data-card]')].map((c) => c.dataset.card),
    })),
  };
}"""

POINTS = re.compile(r" (\d+) points? · total -?\d+")


def read_summary(tab: Tab) -> dict[str, Any]:
    """The deal summary on ``tab`` (it must be up)."""
    tab.by("deal-summary").wait_for()
    shown: dict[str, Any] = tab.page.evaluate(SUMMARY_JS)
    return shown


def card_name(card: str) -> str:
    """A card named in words as the English catalogue names it ("seven of hearts")."""
    body = card.upper().split("#")[0]
    if body == "JK":
        return str(EN["card.joker"])
    rank = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}.get(body[:-1]) or int(body[:-1])
    return str(EN["card.name"]).format(rank=EN[f"card.rank.{rank}"], suit=EN[f"card.suit.{body[-1]}"])


def summary_problems(shown: dict[str, Any], result: dict[str, Any]) -> list[str]:
    """How the summary ``shown`` differs from the engine's deal ``result`` (a client form, with meld labels)."""
    problems = []
    if shown["deal"] != result["deal"] + 1:
        problems.append(f"the summary of deal {shown['deal']} for deal {result['deal'] + 1}")
    seats = {s["seat"]: s for s in shown["seats"]}
    if sorted(seats) != list(range(len(result["hands"]))):
        problems.append(f"seats shown {sorted(seats)}")
    for seat, hand in enumerate(result["hands"]):
        got = seats.get(seat)
        if got is None:
            continue
        want_cards = [[c, card_name(c)] for c in hand]
        if got["cards"] != want_cards:
            problems.append(f"seat {seat} shows {got['cards']}, the engine says {want_cards}")
        points = POINTS.search(got["who"])
        if points is None or int(points.group(1)) != result["points"][seat]:
            problems.append(f"seat {seat} shows {got['who']!r}, the engine counts {result['points'][seat]} points")
        if (result.get("cut_bonus_seat") == seat) != ("cut bonus" in got["who"]):
            problems.append(
                f"seat {seat} shows {got['who']!r}; the engine's cut bonus went to {result.get('cut_bonus_seat')}"
            )
    grouped: dict[int, list[dict[str, Any]]] = {}
    for meld in result["melds"]:
        grouped.setdefault(meld["owner"], []).append(
            {"owner": meld["owner"], "name": meld["label"], "cards": meld["cards"]}
        )
    want_melds = [m for melds in grouped.values() for m in melds]
    if shown["melds"] != want_melds:
        problems.append(f"the melds shown {shown['melds']}, the engine's {want_melds}")
    if result["went_out"] is not None:
        reason = str(EN["summary.went_out"]).format(name=seats[result["went_out"]]["name"])
    else:
        washed = result["reshuffles"] > 0
        text = EN[f"dealend.{result['reason']}.{'washed' if washed else 'plain'}"]
        if isinstance(text, dict):
            text = text["one" if result["reshuffles"] == 1 else "other"]
        reason = str(text).format(count=result["reshuffles"])
    heading = str(EN["summary.heading"]).format(n=result["deal"] + 1, reason=reason)
    if shown["heading"] != heading:
        problems.append(f"the heading {shown['heading']!r}, not {heading!r}")
    return problems
