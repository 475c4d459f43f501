"""Card notation and action records (issue: cards, records)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from liverpool.engine.actions import (
    Call,
    Discard,
    DrawDiscard,
    GoDown,
    LayOff,
    Reshuffle,
    Shuffle,
    SwapJoker,
    action_from_dict,
    action_to_dict,
)
from liverpool.engine.cards import JOKER_FACE, Card, CardNotationError, make_shoe, parse_cards
from liverpool.engine.melds import Meld

cards = st.builds(Card.make, st.integers(0, JOKER_FACE), st.integers(0, 7))


@given(cards)
def test_notation_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert eval(repr(card)) == card  # repr pastes back as code


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("7H", 7, "H"), ("10S", 10, "S"), ("TS", 10, "S"), ("qd", 12, "D"), ("AC", 1, "C"), ("KD#2", 13, "D")],
)
def test_notation_reads_ranks_and_suits(text: str, rank: int, suit: str) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit, card.is_joker) == (rank, suit, False)


def test_jokers_and_copies_are_distinct_cards() -> None:
    assert Card.parse("JK").is_joker and Card.parse("JK#1").is_joker
    assert Card.parse("JK") != Card.parse("JK#1")
    assert Card.parse("7H") != Card.parse("7H#1")
    assert Card.parse("7H").face == Card.parse("7H#1").face


@pytest.mark.parametrize("text", ["", "1H", "7X", "11S", "JK#", "7H#x", "H7", "JOKER"])
def test_bad_notation_names_the_text(text: str) -> None:
    with pytest.raises(CardNotationError, match=repr(text).replace("\\", "\\\\").replace("(", "\\(")):
        Card.parse(text)


def test_shoe_counts_every_physical_card_once() -> None:
    shoe = make_shoe(3, 6)
    assert len(shoe) == 162 == len(set(shoe))
    assert sum(c.is_joker for c in shoe) == 6
    assert sum(1 for c in shoe if c.face == Card.parse("7H").face) == 3


def test_actions_round_trip_through_their_json_form() -> None:
    melds = (Meld.parse("set: 7H 7S JK"), Meld.parse("run: JK 4C 5C 6C"))
    shoe = make_shoe(2, 4)
    for action in [
        Shuffle(shoe, 12),
        Reshuffle(shoe[:5]),
        DrawDiscard(1, 3),
        GoDown(0, melds),
        LayOff(2, Card.parse("8C"), 1, "high"),
        SwapJoker(3, Card.parse("3C"), 1, Card.parse("JK")),
        Discard(0, Card.parse("QS#1")),
        Call(1, Card.parse("2D")),
        Call(2),
    ]:
        assert action_from_dict(action_to_dict(action)) == action
    assert parse_cards("7H 8H JK") == tuple(Card.parse(t) for t in ("7H", "8H", "JK"))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "fly"}, "type"),
        ({"type": "discard", "seat": 0}, "card"),
        ({"type": "discard", "seat": "0", "card": "7H"}, "seat"),
        ({"type": "lay_off", "seat": 0, "card": "7H", "meld": 0, "end": "middle"}, "end"),
        ({"type": "draw_discard", "seat": 0, "depth": "deep"}, "depth"),
    ],
)
def test_malformed_actions_name_what_is_wrong(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        action_from_dict(data)


def test_an_action_whose_type_is_not_a_string_is_a_value_error() -> None:
    # found by tests/server/test_server_fuzz.py: a dict as the type raised TypeError (unhashable) and
    # stopped the table's actor
    from liverpool.engine import action_from_dict as read

    for odd in ({"a": 1}, ["buy"], 3, None):
        with pytest.raises(ValueError, match="an action needs a type"):
            read({"type": odd})
