"""The terminal client's screen (issue 31 item 3): the four-colour deck, the no-colour fallback, larger cards
on a wide terminal, the sort toggle."""

from __future__ import annotations

import asyncio

import pytest

from liverpool.engine import Card, find_preset
from liverpool.tui.app import LiverpoolApp
from liverpool.tui.session import Session
from liverpool.tui.view import boxed_hand, card_text, hand_text


def _session() -> Session:
    return Session(find_preset("liverpool"), ["easy", "easy", "easy"], seed=3, name="ada")


def _screen(app: LiverpoolApp) -> str:
    return "\n".join(strip.text.rstrip() for strip in app.screen._compositor.render_strips())


@pytest.mark.parametrize(
    ("card", "two", "four"),
    [
        ("7H", "bold red", "bold red"),
        ("7D", "bold red", "bold blue"),
        ("7C", "bold", "bold green"),
        ("7S", "bold", "bold"),
    ],
)
def test_four_colour_deck(card: str, two: str, four: str) -> None:
    assert str(card_text(Card.parse(card)).style) == two
    assert str(card_text(Card.parse(card), four_colour=True).style) == four
    assert str(card_text(Card.parse(card), coloured=False, four_colour=True).style) == ""  # NO_COLOR wins


def test_boxed_cards() -> None:
    hand = [Card.parse(c) for c in ("10C", "7H", "JK")]
    rows = boxed_hand(hand, coloured=False, picks=[[2]], cursor=0).plain.split("\n")
    assert rows == ["  1   a2    3  ", "╭───╮╭───╮╭───╮", "│10 ││7  ││JK │", "│  ♣││  ♥││   │", "╰───╯╰───╯╰───╯"]
    assert "1:10♣ 2:7♥ 3:JK" in hand_text(hand, coloured=False).plain


def test_larger_cards_when_wider_and_four_colours(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)

    async def run(size: tuple[int, int]) -> tuple[str, LiverpoolApp]:
        app = LiverpoolApp(_session(), delay=0, four_colour=True)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            return _screen(app), app

    narrow, _ = asyncio.run(run((80, 24)))
    wide, app = asyncio.run(run((130, 36)))
    assert "╭───╮" not in narrow and "1:" in narrow
    assert wide.count("╭───╮") == len(app.session.hand()) and "1:" not in wide.split("Hand")[1]
