"""``legal_actions`` lists every joker swap ``apply`` accepts, and only those (RULES.md §3.8 joker swap).

Compared with trying every swap there is, in seeded games of ``easy`` bots, where seats do swap jokers
(a swap before going down must go down at once; after, the joker must be laid off at once).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from helpers import card, deal, go_down, play

from liverpool.bots.registry import make_bot
from liverpool.engine.actions import Discard, DrawDiscard, DrawStock, SwapJoker
from liverpool.engine.game import checks
from liverpool.engine.game.core import new_game
from liverpool.engine.game.legal import legal_actions
from liverpool.engine.game.verify import is_legal
from liverpool.engine.melds import Meld
from liverpool.engine.play import step
from liverpool.engine.rules.presets import PRESETS, find_preset
from liverpool.engine.state import GameState, Phase

MAY_I = find_preset("may-i")


def _moments(preset: str, games: int) -> Iterator[GameState]:
    """Every moment of ``games`` seeded games of four ``easy`` bots (the state moves on after each)."""
    for seed in range(1, games + 1):
        rng = random.Random(seed)
        agents = [make_bot("easy") for _ in range(4)]
        state = new_game(PRESETS[preset], 4)
        while not state.is_over:
            yield state
            step(state, agents, rng)


def _every_swap(state: GameState) -> set[SwapJoker]:
    me = state.current
    return {
        SwapJoker(me, card, index, joker)
        for index, table_meld in enumerate(state.melds)
        for joker in table_meld.meld.cards
        if joker.is_joker
        for card in state.hands[me]
        if not card.is_joker
    }


@pytest.mark.parametrize("preset", ["liverpool", "british", "may-i", "contract"])
def test_listed_swaps_are_exactly_the_legal_ones(preset: str) -> None:
    compared = listed_swaps = 0
    for state in _moments(preset, 4):
        if (
            state.phase is Phase.PLAY
            and state.must_place is None
            and any(c.is_joker for tm in state.melds for c in tm.meld.cards)
        ):
            listed = {a for a in legal_actions(state) if isinstance(a, SwapJoker)}
            legal = {a for a in _every_swap(state) if is_legal(state, a)}
            assert listed == legal, (state.situation(), listed ^ legal)
            compared += 1
            listed_swaps += len(listed)
    assert compared > 50 and listed_swaps > 0, (compared, listed_swaps)


@pytest.mark.parametrize("preset", ["liverpool", "british", "may-i", "norsk"])
def test_can_go_down_agrees_with_the_listing(preset: str) -> None:
    """The swap and dig checks ask ``can_go_down`` (the search's first arrangement met); it must say
    whether ``go_down_options`` finds any, for every card that must be melded, the taken card included."""
    asked = found = 0
    for state in _moments(preset, 3):
        me = state.current
        if state.phase is Phase.PLAY and not state.down[me] and state.hands[me]:
            hand = list(state.hands[me])
            joker = next((c for tm in state.melds for c in tm.meld.cards if c.is_joker), None)
            hands = [hand] if joker is None else [hand, [*hand[1:], joker]]
            for cards in hands:
                for must in [None, *dict.fromkeys(cards)]:
                    listed = bool(checks.go_down_options(state, me, cards, must, 1))
                    assert checks.can_go_down(state, me, cards, must) == listed, (state.situation(), cards, must)
                    asked += 1
                    found += listed
    assert asked > 500 and found > 20, (asked, found)


def test_can_go_down_keeps_the_taken_card_rule() -> None:
    """RULES.md §3.10 discard after drawing from discard (may-i): a card just taken from the pile may not be the only card left to discard. Three
    4s, three 5s and the KS just taken meet two sets only by leaving the KS alone: no going down."""
    state = deal(MAY_I, 3, hands=[None, "7H 7S 7D 9H 9S JK 2C 6D 10H KS", "4C 4D 4H 4S 4C#1 5C 5D 5H 5S 9D"],
                 stock_top=["QD"])  # fmt: skip
    play(state, DrawStock(1), go_down(1, "set: 7H 7S 7D", "set: 9H 9S JK"), Discard(1, card("KS")), DrawDiscard(2))
    cards = [card(c) for c in ["4C", "4D", "4H", "5C", "5D", "5H", "KS"]]
    assert checks.can_meet(cards, state.deal_rule.contract, MAY_I, keep=1)  # the rule alone stands in the way
    assert not checks.go_down_options(state, 2, cards, None, 1)
    assert not checks.can_go_down(state, 2, cards, None)
    with_joker = [*cards, card("JK#1")]  # a card besides the KS can stay: now it may
    assert checks.can_go_down(state, 2, with_joker, None) == bool(checks.go_down_options(state, 2, with_joker, None, 1))
    assert checks.can_go_down(state, 2, with_joker, None)


@pytest.mark.parametrize("preset", ["may-i", "british", "liverpool"])
def test_joker_goes_down_only_when_the_search_agrees(preset: str) -> None:
    """RULES.md §3.8 joker swap (before going down, the joker must go down at once). The listing
    learns that from its own going-down arrangements where it can (the joker in the natural's place, or
    laid off onto a meld): each time it says so, ``can_go_down`` must too, and it must say so often."""
    asked = shown = 0
    for state in _moments(preset, 4):
        me = state.current
        if state.phase is not Phase.PLAY or state.down[me] or state.must_place is not None:
            continue
        jokers = [c for tm in state.melds for c in tm.meld.cards if c.is_joker]
        if not jokers:
            continue
        hand = list(state.hands[me])
        going_down = checks.go_down_options(state, me, hand, None, 8)
        if not going_down:
            continue
        for natural in dict.fromkeys(c for c in hand if not c.is_joker):
            after = [c for c in hand if c != natural] + [jokers[0]]
            asked += 1
            if checks.joker_goes_down(state, after, natural, jokers[0], going_down):
                shown += 1
                assert checks.can_go_down(state, me, after, jokers[0]), (state.situation(), natural)
    assert asked > 100 and shown > 20, (asked, shown)


def test_a_swap_shown_by_the_going_down_is_listed() -> None:
    """RULES.md §3.8 joker swap (may-i: before going down, the joker must go down at once). A seat
    that can go down with 7H 7S 7D and 4C 5C 6C 7C gives its 5H for the joker of the table run JK 6H 7H 8H:
    the joker then goes down with it (laid off onto the run or the set), so the swap is listed, and its
    own going-down arrangements show it without a search."""
    state = deal(MAY_I, 3, deal_no=1, hands=[None, "JK 6H 7H 8H 9S 9D 9C 2D 3D KS", "7H#1 7S 7D 4C 5C 6C 7C QD KC 5H"],
                 stock_top=["3S", "QH"])  # fmt: skip
    play(state, DrawStock(1), go_down(1, "run: JK 6H 7H 8H", "set: 9S 9D 9C"), Discard(1, card("KS")), DrawStock(2))
    joker, natural = card("JK"), card("5H")
    swap = SwapJoker(2, natural, 0, joker)
    assert swap in legal_actions(state) and is_legal(state, swap)
    going_down = checks.go_down_options(state, 2, state.hands[2], None, 8)
    after = [c for c in state.hands[2] if c != natural] + [joker]
    assert checks.joker_goes_down(state, after, natural, joker, going_down)
    assert not checks.joker_goes_down(state, after, natural, joker, [])  # nothing shown: the search must answer
    # A hand of just those melds and the joker: laying the joker off leaves no card to discard (may-i keeps one).
    melds = (Meld.parse("set: 7H#1 7S 7D"), Meld.parse("run: 4C 5C 6C 7C"))
    bare = [c for m in melds for c in m.cards] + [joker]
    assert not checks.joker_goes_down(state, bare, card("QD"), joker, [melds])
    assert checks.joker_goes_down(state, [*bare, card("QD")], card("KC"), joker, [melds])
