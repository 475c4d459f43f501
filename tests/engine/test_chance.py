"""Chance draws from an explicit random source (STYLE.md 5, seeded chance: seeded games replay exactly): the driver's own
shuffle must order cards as ``random.Random.shuffle`` does and leave the source in the same state, so that a
seed deals the same decks whichever way the shuffle is run."""

from __future__ import annotations

import random

import pytest

from liverpool.engine import play
from liverpool.engine.cards import make_shoe


@pytest.mark.parametrize("seed", range(6))
def test_the_shuffle_orders_as_random_shuffle_and_leaves_the_source_as_it_does(seed: int) -> None:
    for length in [0, 1, 2, 3, 7, 52, 54, 108, 162]:
        cards = list(make_shoe(3, 6))[:length]
        mine, theirs = list(cards), list(cards)
        rng_mine, rng_theirs = random.Random(seed * 1000 + length), random.Random(seed * 1000 + length)
        play.shuffle(mine, rng_mine)
        rng_theirs.shuffle(theirs)
        assert mine == theirs
        assert rng_mine.getstate() == rng_theirs.getstate()


def test_the_shuffle_draws_itself_for_a_plain_random_and_defers_to_any_other_source() -> None:
    assert play._DRAWS_AS_SHUFFLE  # this Python's Random.shuffle draws as the driver does

    class Reversing(random.Random):
        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            x.reverse()

    cards = list(make_shoe(1, 2))
    play.shuffle(cards, Reversing(1))
    assert cards == list(reversed(make_shoe(1, 2)))
