"""The terminal client's screen (issue 31 item 3): the four-colour deck, the no-colour fallback, larger cards
on a wide terminal, the sort toggle."""

from __future__ import annotations

import asyncio

import pytest

from liverpool.engine import Card, Discard, DrawStock, GoDown, LayOff, find_preset
from liverpool.tui.app import LiverpoolApp
from liverpool.tui.commands import parse
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


def _at_a_lay_off() -> Session:
    """Seed 19: the scripted player of test_tui goes down, then may lay off."""
    session = Session(find_preset("liverpool"), ["easy", "easy", "easy"], seed=19, name="ada")
    for _ in range(400):
        while session.step():
            pass
        options = session.turn().options
        if any(isinstance(a, LayOff) for a in options):
            return session
        hand = session.hand()
        downs = [a for a in options if isinstance(a, GoDown)]
        discards = [a for a in options if isinstance(a, Discard)]
        if downs:
            command = "l " + " ".join(",".join(str(hand.index(c) + 1) for c in m.cards) for m in downs[0].melds)
        elif discards:
            command = f"x {hand.index(discards[-1].card) + 1}"
        else:
            command = "d" if any(isinstance(a, DrawStock) for a in options) else "p"
        session.act(parse(command))
    raise AssertionError("no lay-off in 400 moves")


def test_valid_targets_key() -> None:
    """Cursor mode's v: where the card may go, from the engine's options; a single place is played."""
    session = _at_a_lay_off()
    lays = [a for a in session.turn().options if isinstance(a, LayOff)]
    hand = session.hand()
    card = lays[0].card
    position = hand.index(card) + 1
    places, swaps = session.targets(position)
    assert places == sorted({a.meld + 1 for a in lays if a.card == card}) and not swaps
    nowhere = next(p for p, c in enumerate(hand, 1) if c not in {a.card for a in lays})
    assert session.targets(nowhere) == ([], [])

    async def run() -> None:
        app = LiverpoolApp(session, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("tab", *["right"] * (nowhere - 1), "v")
            assert app.message == f"{hand[nowhere - 1].pretty()}: no meld takes it now"
            await pilot.press("escape", *["left"] * (nowhere - 1), *["right"] * (position - 1), "v")
            if len(places) == 1:
                assert session.log[-1].startswith(f"ada lays off {card.pretty()}"), session.log[-2:]
            else:
                assert app.message.startswith(f"{card.pretty()}: lay off on meld ")

    asyncio.run(run())
