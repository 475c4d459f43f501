"""The contract search's packed face counts (``search.candidates.count_hand``), the per-contract layout's
allowed lengths (``search.layout``) and a rank's counts by suit (``search.members.naturals_left``): checked
against plain recomputation, since the search trusts them without looking again (RULES.md §1.2 melds: the
counts are what a hand can lay)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from liverpool.engine.cards import JOKER_FACE
from liverpool.engine.rules.parts import MeldKind
from liverpool.engine.rules.presets import PRESETS
from liverpool.engine.search import _holds_a_card_twice
from liverpool.engine.search.candidates import count_hand, lengths_allowed
from liverpool.engine.search.feasible import cards_needed
from liverpool.engine.search.layout import contract_layout
from liverpool.engine.search.members import naturals_left

# Faces with their deck bits (a card is face | copy << 6); up to 40 copies of one face, past any
# packing kept ready, so that the wide packings are made too.
cards = st.lists(st.tuples(st.integers(0, JOKER_FACE), st.integers(0, 39)), max_size=60, unique=True).map(
    lambda pairs: [face | copy << 6 for face, copy in pairs]
)


@given(cards)
def test_count_hand_packs_every_face_in_its_field(hand: list[int]) -> None:
    counts, packing, start = count_hand(hand)
    expected = Counter(card & 63 for card in hand)
    assert counts == [expected[face] for face in range(JOKER_FACE + 1)]
    largest = max(expected.values(), default=1)
    assert packing.width == max(1, largest).bit_length() + 1
    field = (1 << packing.width) - 1
    assert [start >> (face * packing.width) & field for face in range(JOKER_FACE + 1)] == counts
    assert start >> ((JOKER_FACE + 1) * packing.width) == 0
    # No count reaches its field's guard bit, so a subtraction that borrows shows there.
    assert start & packing.guard == 0


@given(cards, st.integers(1, 13))
def test_naturals_left_reads_a_ranks_counts_by_suit_fewest_first(hand: list[int], rank: int) -> None:
    # (the value search reads a rank's sets off these counts: RULES.md §1.2 melds, sets)
    counts, packing, start = count_hand(hand)
    by_suit = [counts[suit * 13 + rank - 1] for suit in range(4)]
    assert naturals_left(start, rank, packing.width) == tuple(sorted(by_suit))


def test_layouts_hold_the_lengths_each_contract_allows() -> None:
    for rules in PRESETS.values():
        for deal in range(len(rules.deals)):
            contract = rules.contract(deal)
            layout = contract_layout(contract, rules)
            assert layout.run_lengths == lengths_allowed(contract, MeldKind.RUN, rules)
            assert layout.set_lengths == lengths_allowed(contract, MeldKind.SET, rules)


@given(st.lists(st.integers(0, 4095), max_size=40))
def test_a_card_twice_is_told_as_a_set_tells_it(cards_held: list[int]) -> None:
    # search._holds_a_card_twice (a bit per copy of each face) against a set of the cards
    assert _holds_a_card_twice(tuple(cards_held)) == (len(set(cards_held)) != len(cards_held))


def test_cards_needed_is_the_sum_of_the_lengths() -> None:
    for rules in PRESETS.values():
        for deal in range(len(rules.deals)):
            contract = rules.contract(deal)
            assert cards_needed(contract) == cards_needed(list(contract)) == sum(r.length for r in contract)
