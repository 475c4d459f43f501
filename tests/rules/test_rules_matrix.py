"""RULES.md §3, row by row: each rule option is accepted where a ruleset allows it and refused (with the right
``IllegalAction`` and an unchanged state) where it does not; then each preset's own choices (its ``notes``).

Situations are dealt exactly with ``helpers.deal`` (3 seats, dealer 0, so seat 1 plays first, then 2, then 0,
unless a test says otherwise) and driven through ``apply``; nothing reaches into the engine's internals.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest
from helpers import (
    STARTED,
    card,
    cards,
    check_started,
    deal,
    deal_next,
    discard_pile,
    go_down,
    hand,
    melds,
    pass_window,
    play,
    play_out_deal,
    refused,
    shuffle_for,
    stall_until,
    start,
    turn,
)

from liverpool.engine.actions import (
    Buy,
    Call,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    GoDown,
    LayOff,
    Pass,
    Reshuffle,
    Shuffle,
    SwapJoker,
)
from liverpool.engine.errors import (
    BadChance,
    CannotBuy,
    CannotCall,
    CannotDiscard,
    CannotDraw,
    CannotGoDown,
    CannotLayOff,
    CannotSwap,
    CardNotInHand,
    GameOver,
    MalformedAction,
    MustPlaceCard,
    NotYourTurn,
    WrongPhase,
)
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.game.legal import legal_actions
from liverpool.engine.game.verify import shoe
from liverpool.engine.observe import observe
from liverpool.engine.play import choose_first_dealer
from liverpool.engine.rules.parts import BuyPrecedence, DiscardCall, JokerSwap, RulesetError, StockOut, Ties
from liverpool.engine.rules.presets import PRESETS, find_preset
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import GameState, Phase

MAY_I = find_preset("may-i")
LIVERPOOL = find_preset("liverpool")
CONTRACT = find_preset("contract")
NORSK = find_preset("norsk")
BRITISH = find_preset("british")
BRITISH_9 = find_preset("british-9")
BRITISH_FIXED = find_preset("british-fixed")
BRITISH_NOBUY = find_preset("british-nobuy")

# Two sets of the first deal, with a spare card to discard: going down leaves 2C 5D 9H KS and the card drawn.
SEVENS_EIGHTS = "7H 7S 7D 8H 8S 8D 2C 5D 9H KS"


@pytest.fixture(autouse=True)
def _replayable() -> Iterator[None]:
    """Every game a test builds must replay, from its record, to the very state the test left it in."""
    STARTED.clear()
    yield
    check_started()


# -- players ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fewest", "most"),
    [("may-i", 3, 8), ("liverpool", 3, 8), ("contract", 3, 5), ("norsk", 3, 6), ("british", 3, 8)],
)
def test_players(name: str, fewest: int, most: int) -> None:
    """RULES.md §3.1 players (000: 4-6 best, more allowed; 001b: 3-5; 002: 3-6; 004: 3-8)."""
    rules = PRESETS[name]
    for seats in (fewest, most):
        assert new_game(rules, seats).seats == seats
    with pytest.raises(RulesetError, match=f"is for {fewest} to {most} players, not {fewest - 1}"):
        new_game(rules, fewest - 1)
    with pytest.raises(RulesetError, match=f"not {most + 1}"):
        new_game(rules, most + 1)


# -- decks / jokers --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "seats", "decks", "jokers"),
    [
        ("may-i", 5, 2, 4),
        ("may-i", 6, 3, 6),  # 000: 2 decks + 2 jokers each, a third deck when needed
        ("liverpool", 5, 2, 4),
        ("liverpool", 6, 3, 6),  # 001a: 2 decks for 3-5, 3 for more
        ("contract", 3, 1, 1),
        ("contract", 4, 2, 2),  # 001b: 1 deck + 1 joker, then 2 decks + 2 jokers
        ("norsk", 4, 2, 4),
        ("norsk", 5, 3, 6),  # 002: 3-4 two decks, 5-6 three, two jokers per deck
        ("british", 4, 2, 4),
        ("british", 5, 3, 6),  # 004: 3-4 two decks + 2-4 jokers, 5-8 three + 3-6
    ],
)
def test_decks_and_jokers(name: str, seats: int, decks: int, jokers: int) -> None:
    """RULES.md §3.2 decks / jokers: the shoe has the decks and jokers of the table size; a shuffle of any
    other shoe is refused."""
    state = new_game(PRESETS[name], seats)
    cards_in_shoe = shoe(state)
    assert len(cards_in_shoe) == decks * 52 + jokers
    assert sum(c.is_joker for c in cards_in_shoe) == jokers
    assert sum(c == card("7H#" + str(decks - 1)) for c in cards_in_shoe) == 1
    assert card(f"7H#{decks}") not in cards_in_shoe
    refused(state, Shuffle(cards_in_shoe[:-1]), BadChance, "every card of the shoe exactly once")
    refused(state, Shuffle((*cards_in_shoe[:-1], cards_in_shoe[0])), BadChance)
    refused(state, Shuffle((*cards_in_shoe[:-1], card(f"7H#{decks}"))), BadChance)  # a card of no deck here
    refused(state, Shuffle((*cards_in_shoe, card(f"7H#{decks}"))), BadChance)
    apply(state, Shuffle(cards_in_shoe))
    assert state.phase is Phase.DRAW


# -- upcard ----------------------------------------------------------------------------------------


def test_upcard_starts_the_discard_pile() -> None:
    """RULES.md §3.3 upcard at deal start: yes (000, 001a, 001b, 004); the first player may take it."""
    state = deal(LIVERPOOL, 3, upcard="KD")
    assert discard_pile(state) == "KD"
    assert len(state.stock) == 108 - 30 - 1
    assert DrawDiscard(1) in legal_actions(state)
    play(state, DrawDiscard(1))
    assert "KD" in hand(state, 1).split()


def test_no_upcard_first_player_draws_from_the_stock() -> None:
    """RULES.md §3.3 upcard at deal start: no, the first player must draw from stock (002)."""
    state = deal(NORSK, 3)
    assert state.discard_pile == []
    assert len(state.stock) == 108 - 30
    assert legal_actions(state) == [DrawStock(1)]
    refused(state, DrawDiscard(1), CannotDraw, "the discard pile is empty")
    with pytest.raises(ValueError, match="turns no upcard"):
        deal(NORSK, 3, upcard="KD")
    top = state.stock[-1]
    play(state, DrawStock(1))
    assert state.hands[1][-1] == top


# -- set constraints -------------------------------------------------------------------------------


def test_sets_of_a_contract_must_differ_in_rank_may_i() -> None:
    """RULES.md §3.4 set constraints: sets of a contract must be different ranks (000)."""
    state = deal(MAY_I, 3, hands=[None, "7H 7S 7D 7C 7H#1 7S#1 8H 8S 8D KS"], stock_top=["2C"])
    play(state, DrawStock(1))
    refused(state, go_down(1, "set: 7H 7S 7D", "set: 7C 7H#1 7S#1"), CannotGoDown, "different ranks")
    play(state, go_down(1, "set: 7H 7S 7D", "set: 8H 8S 8D"))
    assert state.down[1]


def test_sets_of_one_rank_are_fine_without_the_constraint() -> None:
    """RULES.md §3.4 set constraints: only 000 asks for different ranks; liverpool lets two sets share a rank
    and lets a set hold two cards of one suit (two decks)."""
    state = deal(LIVERPOOL, 3, hands=[None, "7H 7S 7D 7C 7H#1 7S#1 8H 8S 8D KS"], stock_top=["2C"])
    play(state, DrawStock(1))
    play(state, go_down(1, "set: 7H 7H#1 7S", "set: 7C 7D 7S#1"))
    assert state.down[1] and hand(state, 1) == "8H 8S 8D KS 2C"


def test_sets_of_distinct_suits_and_at_most_four_cards_contract() -> None:
    """RULES.md §3.4 set constraints: sets 3-4 cards, no two cards of one suit (001b); lay-offs too."""
    state = deal(CONTRACT, 4, hands=[None, "7H 7H#1 7S 7D 7C 8H 8S 8D 8H#1 JK"], stock_top=["2C"])
    play(state, DrawStock(1))
    refused(state, go_down(1, "set: 7H 7H#1 7S", "set: 8H 8S 8D"), CannotGoDown, "two 7H in one set")
    refused(state, go_down(1, "set: 7H 7S 7D 7C JK", "set: 8H 8S 8D"), CannotGoDown, "at most 4 cards")
    play(state, go_down(1, "set: 7H 7S 7D 7C", "set: 8H 8S 8D"))
    refused(state, LayOff(1, card("8H#1"), 1), CannotLayOff, "two 8H in one set")
    refused(state, LayOff(1, card("JK"), 0), CannotLayOff, "at most 4 cards")
    play(state, LayOff(1, card("JK"), 1))
    assert [str(tm.meld) for tm in state.melds] == ["set: 7H 7S 7D 7C", "set: 8H 8S 8D JK"]


# -- run constraints -------------------------------------------------------------------------------


def test_runs_of_a_contract_in_different_suits_of_four_or_more() -> None:
    """RULES.md §3.5 run constraints: runs of a contract in different suits (000, 001b); min length 4 (most)."""
    state = deal(LIVERPOOL, 3, hands=[None, "3H 4H 5H 6H 8H 9H 10H JH 2S KS"], stock_top=["5D"], deal_no=2)
    play(state, DrawStock(1))
    refused(state, go_down(1, "run: 3H 4H 5H 6H", "run: 8H 9H 10H JH"), CannotGoDown, "different suits")

    state = deal(LIVERPOOL, 3, hands=[None, "3H 4H 5H 6H 8C 9C 10C 2S KS QD"], stock_top=["JC"], deal_no=2)
    play(state, DrawStock(1))
    refused(state, go_down(1, "run: 3H 4H 5H 6H", "run: 8C 9C 10C"), CannotGoDown, "a run of 3 cards .* at least 4")
    play(state, go_down(1, "run: 3H 4H 5H 6H", "run: 8C 9C 10C JC"))
    assert hand(state, 1) == "2S KS QD"


def test_runs_of_three_contract() -> None:
    """RULES.md §3.5 run constraints: min length 3 (001b)."""
    state = deal(CONTRACT, 3, hands=[None, "7H 7S 7D 4C 5C 6C 2D 9S KH QD"], stock_top=["JH"], deal_no=1)
    play(state, DrawStock(1))
    play(state, go_down(1, "set: 7H 7S 7D", "run: 4C 5C 6C"))
    assert state.down[1]


@pytest.mark.parametrize("first_low", [True, False])
def test_joinable_runs_may_not_be_laid_as_two_norsk(first_low: bool) -> None:
    """RULES.md §3.5 run constraints: same suit allowed but two runs that could be joined may not be laid as
    two (002)."""
    state = deal(NORSK, 3, hands=[None, "3H 4H 5H 6H 7H 8H 9H 10H JH 2S"], stock_top=["KS"], deal_no=2)
    play(state, DrawStock(1))
    low, high = "run: 3H 4H 5H 6H", "run: 7H 8H 9H 10H"
    pair = (low, high) if first_low else (high, low)
    refused(state, go_down(1, *pair), CannotGoDown, "could be laid as one run")
    play(state, go_down(1, "run: 3H 4H 5H 6H", "run: 8H 9H 10H JH"))
    assert hand(state, 1) == "7H 2S KS"


def test_runs_have_aces_low_or_high_but_never_wrap() -> None:
    """RULES.md §1.2 (shared by every row of run constraints): A-2-3-4 and J-Q-K-A, never K-A-2."""
    state = deal(LIVERPOOL, 3, hands=[None, "AH 2H 3H 4H JS QS KS AS 2S 7D"], stock_top=["7H#1"], deal_no=2)
    play(state, DrawStock(1))
    refused(state, go_down(1, "run: QS KS AS 2S", "run: AH 2H 3H 4H"), CannotGoDown, "cannot go from rank 12 to 15")
    play(state, go_down(1, "run: AH 2H 3H 4H", "run: JS QS KS AS"))
    assert [tm.meld.low for tm in state.melds] == [1, 11]
    refused(state, LayOff(1, card("2S"), 1, "high"), CannotLayOff, "no wrap")


# -- laying more than the minimum ------------------------------------------------------------------


def test_longer_melds_but_no_extra_melds() -> None:
    """RULES.md §3.6 laying more than the minimum: longer melds allowed, no extra melds (000, 004);
    the contract is laid once."""
    state = deal(LIVERPOOL, 3, hands=[None, "7H 7S 7D 7C 8H 8S 8D 9H 9S 9D"], stock_top=["KS"])
    play(state, DrawStock(1))
    refused(
        state,
        go_down(1, "set: 7H 7S 7D", "set: 8H 8S 8D", "set: 9H 9S 9D"),
        CannotGoDown,
        r"asks for 2 set\(s\), not 3",
    )
    refused(state, go_down(1, "set: 7H 7S 7D 7C"), CannotGoDown, r"asks for 2 set\(s\), not 1")
    play(state, go_down(1, "set: 7H 7S 7D 7C", "set: 8H 8S 8D"))
    refused(state, go_down(1, "set: 9H 9S 9D", "set: 9H 9S 9D"), CannotGoDown, "already gone down")
    refused(state, go_down(1, "set: 9H 9S 9D"), CannotGoDown, "already gone down")


def test_melds_of_exactly_the_contract_when_longer_melds_are_off() -> None:
    """RULES.md §3.6 laying more than the minimum: the option off, a set of 4 does not fit 'set 3'."""
    rules = dataclasses.replace(LIVERPOOL, longer_melds=False)
    state = deal(rules, 3, hands=[None, "7H 7S 7D 7C 8H 8S 8D 9H 9S 9D"], stock_top=["KS"])
    play(state, DrawStock(1))
    refused(state, go_down(1, "set: 7H 7S 7D 7C", "set: 8H 8S 8D"), CannotGoDown, "longer melds are not allowed")
    play(state, go_down(1, "set: 7H 7S 7D", "set: 8H 8S 8D"))
    play(state, LayOff(1, card("7C"), 0))


# -- joker limits ----------------------------------------------------------------------------------


def test_joker_limits_two_naturals_in_a_set_three_in_a_run() -> None:
    """RULES.md §3.7 joker limits: set needs >= 2 naturals, run needs >= 3 naturals (001a, 002)."""
    state = deal(LIVERPOOL, 3, hands=[None, "7H 8H JK JK#1 10H 5S 5D 5C 2C KS"], stock_top=["QD"], deal_no=1)
    play(state, DrawStock(1))
    refused(
        state,
        go_down(1, "set: 5S 5D 5C", "run: 7H 8H JK JK#1"),
        CannotGoDown,
        "a run needs at least 3 natural cards, this one has 2",
    )
    refused(
        state,
        go_down(1, "set: 5C JK JK#1", "run: 7H 8H 10H 5S"),
        CannotGoDown,
        "a set needs at least 2 natural cards, this one has 1",
    )
    play(state, go_down(1, "set: 5S 5D JK", "run: 7H 8H JK#1 10H"))
    assert hand(state, 1) == "5C 2C KS QD"


def test_joker_limits_one_joker_per_four_cards_british() -> None:
    """RULES.md §3.7 joker limits: at most one joker per 4-card segment (004); liverpool has no such limit."""
    hands = [None, "5S 5D 5C 5H 6H 7H 9H JK JK#1 KS"]
    crowded = go_down(1, "set: 5S 5D 5C", "run: 5H JK 7H JK#1 9H")
    state = deal(BRITISH, 3, hands=hands, stock_top=["2C"], deal_no=1)
    play(state, DrawStock(1), Pass(2), Pass(0))
    refused(state, crowded, CannotGoDown, "at most one joker in any 4 cards in a row")
    play(state, go_down(1, "set: 5S 5D 5C", "run: JK 5H 6H 7H JK#1"))
    assert hand(state, 1) == "9H KS 2C"

    state = deal(LIVERPOOL, 3, hands=hands, stock_top=["2C"], deal_no=1)
    play(state, DrawStock(1), crowded)


def test_joker_limits_lay_off_a_second_joker() -> None:
    """RULES.md §3.7 joker limits: a second joker only where naturals fix its place (004), as laid off."""
    hands = [None, "5S 5D 5C 4H 5H 6H JK JK#1 KS 2D"]
    for rules, accepted in ((BRITISH, False), (LIVERPOOL, True)):
        state = deal(rules, 3, hands=hands, stock_top=["2C"], deal_no=1)
        play(state, DrawStock(1))
        pass_window(state)  # (british sells the upcard, liverpool does not)
        play(state, go_down(1, "set: 5S 5D 5C", "run: 4H 5H 6H JK"))
        lay = LayOff(1, card("JK#1"), 1, "high")
        if accepted:
            play(state, lay)
        else:
            refused(state, lay, CannotLayOff, "at most one joker")
            play(state, LayOff(1, card("JK#1"), 1, "low"))
            refused(state, LayOff(1, card("2D"), 1, "low"), CannotLayOff)


def test_joker_limits_runs_of_three_need_two_naturals_contract() -> None:
    """RULES.md §3.7 joker limits, read for 001b's runs of 3: two naturals."""
    state = deal(CONTRACT, 3, hands=[None, "7H 7S 7D JK 6C 2D 9S KH QD 3S"], stock_top=["5C"], deal_no=1)
    play(state, DrawStock(1))
    refused(state, go_down(1, "set: 7H 7S 7D", "run: JK 5C KH"), CannotGoDown)
    play(state, go_down(1, "set: 7H 7S 7D", "run: 5C 6C JK"))


# -- joker swap ------------------------------------------------------------------------------------


def _seat_1_down_with_jokers(rules: Ruleset, seat_2: str, deal_no: int, first: str, second: str) -> GameState:
    """Seat 1 goes down with ``first`` and ``second`` (jokers among them) and discards KS; seat 2 has drawn."""
    state = deal(
        rules,
        3,
        hands=[None, "7H 7S JK 4C 5C JK#1 7C 9H 9S 9D", seat_2],
        stock_top=["KS", "3S", "10D"],
        deal_no=deal_no,
    )
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, first, second), Discard(1, card("KS")))
    play(state, DrawStock(2))
    pass_window(state)
    return state


def test_joker_swap_after_down_from_runs_only_liverpool() -> None:
    """RULES.md §3.8 joker swap: while laying off, from a *run*, joker must be placed elsewhere the same turn
    (001a, 002: only after you are down); jokers in sets are dead (001a, 001b, 002)."""
    state = _seat_1_down_with_jokers(
        LIVERPOOL, "8H 8S 8D 9C 10C JC QC 6C 7D 5S", 1, "set: 7H 7S JK", "run: 4C 5C JK#1 7C"
    )
    refused(state, SwapJoker(2, card("6C"), 1, card("JK#1")), CannotSwap, "only be swapped once you are down")
    play(state, go_down(2, "set: 8H 8S 8D", "run: 9C 10C JC QC"))
    refused(state, SwapJoker(2, card("7D"), 0, card("JK")), CannotSwap, "jokers in sets are dead")
    refused(state, SwapJoker(2, card("5S"), 1, card("JK#1")), CannotSwap, "stands for 6C, not 5S")
    play(state, SwapJoker(2, card("6C"), 1, card("JK#1")))
    # 001a: "so long as that Joker is placed somewhere else before the player concludes their turn".
    assert str(state.melds[1].meld) == "run: 4C 5C 6C 7C" and state.reclaimed == [card("JK#1")]
    assert state.must_place is None
    refused(state, Discard(2, card("5S")), MustPlaceCard, "JK#1, taken from the table by a swap, must be placed")
    play(state, LayOff(2, card("7D"), 0), LayOff(2, card("JK#1"), 2), Discard(2, card("5S")))
    assert str(state.melds[2].meld) == "set: 8H 8S 8D JK#1"


def test_joker_swap_placed_at_once_norsk() -> None:
    """RULES.md §3.8 joker swap (002): "Du må med en gang legge jokeren på et annet sted": the next play places it."""
    rules = dataclasses.replace(NORSK, upcard=True)  # (the helper's situation turns an upcard)
    state = _seat_1_down_with_jokers(rules, "8H 8S 8D 9C 10C JC QC 6C 7D 5S", 1, "set: 7H 7S JK", "run: 4C 5C JK#1 7C")
    play(state, go_down(2, "set: 8H 8S 8D", "run: 9C 10C JC QC"), SwapJoker(2, card("6C"), 1, card("JK#1")))
    assert str(state.melds[1].meld) == "run: 4C 5C 6C 7C" and state.must_place == card("JK#1")
    assert {type(a) for a in legal_actions(state)} == {LayOff}
    assert {a.card for a in legal_actions(state) if isinstance(a, LayOff)} == {card("JK#1")}
    refused(state, Discard(2, card("5S")), MustPlaceCard, "JK#1 must be melded or laid off first")
    refused(state, LayOff(2, card("7D"), 0), MustPlaceCard, "JK#1 must be laid off first")
    play(state, LayOff(2, card("JK#1"), 2), LayOff(2, card("7D"), 0), Discard(2, card("5S")))
    assert str(state.melds[2].meld) == "set: 8H 8S 8D JK#1"


def test_joker_swap_only_when_going_down_may_i() -> None:
    """RULES.md §3.8 joker swap: only when coming down, for a joker anyone laid (000); may-i swaps from sets."""
    seat_2 = "7D 9C 8H 8S 4H 4D 4S 2S 2D 2H"
    state = _seat_1_down_with_jokers(MAY_I, seat_2, 0, "set: 7H 7S JK", "set: 9H 9S JK#1")
    play(state, SwapJoker(2, card("7D"), 0, card("JK")))
    assert str(state.melds[0].meld) == "set: 7H 7S 7D" and state.must_place == card("JK")
    refused(state, Discard(2, card("2S")), MustPlaceCard, "JK must be melded or laid off first")
    refused(state, go_down(2, "set: 4H 4D 4S", "set: 2S 2D 2H"), MustPlaceCard, "JK must be in the melds")
    play(state, go_down(2, "set: 8H 8S JK", "set: 4H 4D 4S"))
    refused(state, SwapJoker(2, card("9C"), 1, card("JK#1")), CannotSwap, "only be swapped as you go down")
    play(state, Discard(2, card("2S")))
    # seat 0 cannot go down even with the joker, so it may not take it
    state = deal(
        MAY_I,
        3,
        hands=["9C#1 KH QD 3C 6D 10S 5H JD AC 2C#1", "7H 7S JK 4C 5C JK#1 7C 9H 9S 9D", seat_2],
        stock_top=["KS", "3S", "10D"],
    )
    play(state, DrawStock(1), go_down(1, "set: 7H 7S JK", "set: 9H 9S JK#1"), Discard(1, card("KS")))
    play(state, DrawStock(2), Discard(2, card("3S")), DrawStock(0))
    refused(state, SwapJoker(0, card("9C#1"), 1, card("JK#1")), CannotSwap, "JK#1 could not be played again at once")


def test_joker_swap_going_down_or_after_british() -> None:
    """RULES.md §3.8 joker swap: during meld or lay-off phase, reclaimed joker used at once (004); jokers in
    books may be swapped (preset note)."""
    seat_2 = "7D 9C 8H 8S 4H 4D 4S 2S 2D 2H"
    state = _seat_1_down_with_jokers(BRITISH, seat_2, 0, "set: 7H 7S JK", "set: 9H 9S JK#1")
    play(state, SwapJoker(2, card("7D"), 0, card("JK")), go_down(2, "set: 8H 8S JK", "set: 4H 4D 4S"))
    play(state, SwapJoker(2, card("9C"), 1, card("JK#1")))
    refused(state, Discard(2, card("2S")), MustPlaceCard)
    play(state, LayOff(2, card("JK#1"), 3), Discard(2, card("2S")))
    assert [str(tm.meld) for tm in state.melds] == [
        "set: 7H 7S 7D",
        "set: 9H 9S 9C",
        "set: 8H 8S JK",
        "set: 4H 4D 4S JK#1",
    ]


def test_joker_swap_never() -> None:
    """RULES.md §3.8 joker swap, turned off (a table's house rule)."""
    rules = dataclasses.replace(BRITISH, joker_swap=JokerSwap.NEVER)
    state = _seat_1_down_with_jokers(rules, "7D 9C 8H 8S 4H 4D 4S 2S 2D 2H", 0, "set: 7H 7S JK", "set: 9H 9S JK#1")
    refused(state, SwapJoker(2, card("7D"), 0, card("JK")), CannotSwap, "joker swaps are off")
    assert not any(isinstance(a, SwapJoker) for a in legal_actions(state))


# -- draw from discard (digging) -------------------------------------------------------------------


def _pile_of_two(rules: Ruleset, seat_2: str) -> GameState:
    """The pile is 9C (the upcard) under KC (seat 1's discard); seat 2 is to draw."""
    state = deal(rules, 3, hands=[None, "2C 3D 4H 5S 6C 8D 10H QS KC JD", seat_2], upcard="9C", stock_top=["AH"])
    play(state, DrawStock(1), Discard(1, card("KC")))
    assert discard_pile(state) == "9C KC"
    return state


def test_dig_into_the_discard_pile_contract() -> None:
    """RULES.md §3.9 draw from discard: any depth if the taken card is melded at once and all cards above it
    are taken too (001b); one of the cards taken may be discarded again."""
    state = _pile_of_two(CONTRACT, "9D 9H 5C 5D 5H 7S 2H 3S 4C 6D")
    assert DrawDiscard(2, 2) in legal_actions(state)
    refused(state, DrawDiscard(2, 3), CannotDraw, "the pile holds 2 cards; cannot dig 3 deep")
    play(state, DrawDiscard(2, 2))
    assert state.discard_pile == [] and state.must_place == card("9C")
    refused(state, Discard(2, card("KC")), MustPlaceCard, "9C must be melded or laid off first")
    play(state, go_down(2, "set: 5C 5D 5H", "set: 9C 9D 9H"), Discard(2, card("KC")))
    assert discard_pile(state) == "KC"


def test_dig_refused_when_the_card_cannot_be_melded_at_once() -> None:
    """RULES.md §3.9 draw from discard: the dug card must be melded at once (001b)."""
    state = _pile_of_two(CONTRACT, "9D 8H 5C 5D 5H 7S 2H 3S 4C 6D")
    refused(state, DrawDiscard(2, 2), CannotDraw, "9C could not be melded at once")
    assert legal_actions(state) == [DrawStock(2), DrawDiscard(2)]


def test_dig_when_down_lays_the_card_off_at_once_contract() -> None:
    """RULES.md §3.9 draw from discard (001b): a player who is down digs for a card to lay off, then may discard one
    of the cards taken above it."""
    state = deal(
        CONTRACT,
        3,
        hands=["2H 3S 4D 6C JC QH 10S AS KD 5C", SEVENS_EIGHTS, "9C 9D 9S 10C 10D 10H 3C 6H JD 2S"],
        upcard="7C",
        stock_top=["QD", "3D", "4H"],
    )
    play(state, DrawStock(1), go_down(1, "set: 7H 7S 7D", "set: 8H 8S 8D"), Discard(1, card("KS")))
    turn(state)
    turn(state)
    assert discard_pile(state) == "7C KS 3D 4H" and state.current == 1
    assert [a for a in legal_actions(state) if isinstance(a, DrawDiscard)] == [DrawDiscard(1), DrawDiscard(1, 4)]
    refused(state, DrawDiscard(1, 3), CannotDraw, "KS could not be melded at once")
    play(state, DrawDiscard(1, 4))
    assert legal_actions(state) == [LayOff(1, card("7C"), 0)]
    refused(state, Discard(1, card("KS")), MustPlaceCard)
    play(state, LayOff(1, card("7C"), 0), Discard(1, card("KS")))
    assert discard_pile(state) == "KS"


def test_top_card_only() -> None:
    """RULES.md §3.9 draw from discard: top card only (most)."""
    state = _pile_of_two(LIVERPOOL, "9D 9H 5C 5D 5H 7S 2H 3S 4C 6D")
    refused(state, DrawDiscard(2, 2), CannotDraw, "only the top discard may be taken")
    play(state, DrawDiscard(2))
    assert state.hands[2][-1] == card("KC") and discard_pile(state) == "9C"


# -- discard after drawing from discard ------------------------------------------------------------


@pytest.mark.parametrize("rules", [LIVERPOOL, CONTRACT, MAY_I, BRITISH], ids=lambda r: r.name)
def test_may_not_discard_the_card_just_taken(rules: Ruleset) -> None:
    """RULES.md §3.10 discard after drawing from discard: may not discard the card just taken (001a, 001b, 002);
    may-i and british notes: their texts are silent, the others' rule is taken."""
    state = deal(rules, 3, upcard="KD")
    play(state, DrawDiscard(1))
    refused(state, Discard(1, card("KD")), CannotDiscard, "KD was just taken from the pile")
    assert Discard(1, card("KD")) not in legal_actions(state)
    other = state.hands[1][0]
    play(state, Discard(1, other))
    assert state.discard_pile[-1] == other


def test_may_discard_the_card_just_taken_when_the_option_is_off() -> None:
    """RULES.md §3.10 discard after drawing from discard, turned off (000 and 004 are silent)."""
    state = deal(dataclasses.replace(LIVERPOOL, no_discard_taken_card=False), 3, upcard="KD")
    play(state, DrawDiscard(1), Discard(1, card("KD")))
    assert discard_pile(state) == "KD" and state.current == 2


# -- discard optional ------------------------------------------------------------------------------


def test_discard_is_optional_norsk() -> None:
    """RULES.md §3.11 discard optional: discarding is optional (002)."""
    state = deal(NORSK, 3)
    play(state, DrawStock(1))
    assert EndTurn(1) in legal_actions(state)
    play(state, EndTurn(1))
    assert state.current == 2 and len(state.hands[1]) == 11 and state.discard_pile == []


def test_discard_is_required_to_end_the_turn() -> None:
    """RULES.md §3.11 discard optional: required to end the turn (others)."""
    state = deal(LIVERPOOL, 3)
    play(state, DrawStock(1))
    assert EndTurn(1) not in legal_actions(state)
    refused(state, EndTurn(1), CannotDiscard, "a turn ends with a discard in this ruleset")


# -- buying: who, when -----------------------------------------------------------------------------


def _seat_1_discarded(rules: Ruleset, seats: int = 3, deal_no: int = 0) -> GameState:
    """Seat 1 drew 2C and discarded it; the stock's next cards are 3C (top), 4C, 5C."""
    state = deal(rules, seats, stock_top=["2C", "3C", "4C", "5C"], deal_no=deal_no)
    return turn(state)


def test_may_i_before_the_next_player_draws() -> None:
    """RULES.md §3.12 buying: who, when: after discard, before the next player draws (000); the next player takes
    it free; after a successful May I (000) the next player must draw from stock."""
    state = _seat_1_discarded(MAY_I)
    assert discard_pile(state) != "" and state.current == 2
    refused(state, Buy(2), CannotBuy, "the player about to draw takes the discard by drawing it")
    refused(state, Buy(1), CannotBuy, "you cannot buy your own discard")
    assert [a for a in legal_actions(state) if isinstance(a, Buy)] == [Buy(0)]
    play(state, Buy(0))
    assert state.may_i_calls == [0]
    refused(state, Buy(0), CannotBuy, "you have already asked for this card")
    refused(state, DrawDiscard(2), CannotDraw, "someone has called May I, so you must draw from the stock")
    before = hand(state, 0)
    play(state, DrawStock(2))
    assert hand(state, 0) == before + " 2C 3C" and state.hands[2][-1] == card("4C")
    assert state.buys == [1, 0, 0]
    refused(state, Buy(0), WrongPhase, "May I is asked after a discard and before the next player draws")


def test_next_player_takes_the_discard_free() -> None:
    """RULES.md §3.12 buying: who, when: the next player may take it free (000)."""
    state = _seat_1_discarded(MAY_I)
    play(state, DrawDiscard(2))
    assert state.hands[2][-1] == card("2C") and len(state.hands[2]) == 11 and state.buys == [0, 0, 0]


def test_after_a_may_i_the_next_player_may_still_take_it_when_the_option_is_off() -> None:
    """RULES.md §3.16 after a successful May I: marked as varying (000); off, the next player still takes it free."""
    state = _seat_1_discarded(dataclasses.replace(MAY_I, buy_blocks_next_player=False))
    before = hand(state, 0)
    play(state, Buy(0), DrawDiscard(2))
    assert state.hands[2][-1] == card("2C") and hand(state, 0) == before and state.buys == [0, 0, 0]
    assert state.may_i_calls == []


def test_buy_only_after_the_next_player_declines() -> None:
    """RULES.md §3.12 buying: who, when: only after the next player declines it (001a, 002, 004)."""
    state = _seat_1_discarded(LIVERPOOL)
    refused(state, Buy(0), WrongPhase, "buying opens only once the next player has declined the discard")
    assert not any(isinstance(a, Buy) for a in legal_actions(state))
    play(state, DrawStock(2))
    assert state.phase is Phase.BUY and state.window == [0]
    assert legal_actions(state) == [Buy(0), Pass(0)]
    refused(state, Discard(2, state.hands[2][0]), WrongPhase)
    refused(state, Buy(1), CannotBuy, "you cannot buy your own discard")
    refused(state, Pass(1), NotYourTurn, "you have no open buy offer to decline")
    play(state, Buy(0))
    assert (state.phase, state.current) == (Phase.PLAY, 2)
    assert state.hands[0][-2:] == [card("2C"), card("3C")] and state.hands[2][-1] == card("4C")


def test_taking_the_discard_opens_no_buying() -> None:
    """RULES.md §3.12 buying: who, when: a discard the next player takes cannot be bought."""
    state = _seat_1_discarded(LIVERPOOL)
    play(state, DrawDiscard(2))
    assert state.phase is Phase.PLAY
    refused(state, Buy(0), WrongPhase)


# -- buying: precedence ----------------------------------------------------------------------------


@pytest.mark.parametrize("first_answer", ["far", "near"])
def test_nearest_buyer_wins(first_answer: str) -> None:
    """RULES.md §3.13 buying: precedence: nearest in turn order to the player about to draw (001a, 002, 004)."""
    state = _seat_1_discarded(LIVERPOOL, seats=4)
    play(state, DrawStock(2))
    assert state.window == [3, 0]
    if first_answer == "far":
        play(state, Buy(0))
        assert state.phase is Phase.BUY, "seat 0 must wait for seat 3, who is nearer"
        play(state, Buy(3))
    else:
        play(state, Buy(3))
    assert state.buys == [0, 0, 0, 1] and state.hands[3][-2:] == [card("2C"), card("3C")]


def test_a_farther_buyer_wins_when_the_nearer_passes() -> None:
    """RULES.md §3.13 buying: precedence (turn order): the window closes once the nearer seat has passed."""
    state = _seat_1_discarded(LIVERPOOL, seats=4)
    play(state, DrawStock(2), Buy(0), Pass(3))
    assert state.buys == [1, 0, 0, 0]


def test_may_i_nearest_caller_wins() -> None:
    """RULES.md §3.13 buying: precedence: nearest to the player about to draw (000), whoever called first."""
    state = _seat_1_discarded(MAY_I, seats=4)
    play(state, Buy(0), Buy(3), DrawStock(2))
    assert state.buys == [0, 0, 0, 1]


def test_first_to_call_wins() -> None:
    """RULES.md §3.13 buying: precedence: first to call wins ("Me", 001a)."""
    rules = dataclasses.replace(LIVERPOOL, buy_precedence=BuyPrecedence.FIRST_CALL)
    state = _seat_1_discarded(rules, seats=4)
    play(state, DrawStock(2), Buy(0))
    assert state.phase is Phase.PLAY and state.buys == [1, 0, 0, 0]
    state = _seat_1_discarded(dataclasses.replace(MAY_I, buy_precedence=BuyPrecedence.FIRST_CALL), seats=4)
    play(state, Buy(0), Buy(3), DrawStock(2))
    assert state.buys == [1, 0, 0, 0]


# -- buying: price ---------------------------------------------------------------------------------


def test_buying_costs_one_penalty_card_from_the_stock() -> None:
    """RULES.md §3.14 buying: price: the discard plus 1 penalty card from stock (all); the penalty card stays
    hidden from the others, the bought card does not."""
    state = _seat_1_discarded(LIVERPOOL)
    stock = len(state.stock)
    before = list(state.hands[0])
    play(state, DrawStock(2), Buy(0))
    assert state.hands[0] == [*before, card("2C"), card("3C")]
    assert len(state.stock) == stock - 2
    seen_by_1 = observe(state, 1).seats[0]
    assert seen_by_1.hand_count == 12 and seen_by_1.known == (card("2C"),) and seen_by_1.buys == 1
    assert card("3C") not in observe(state, 1).visible_cards()
    assert card("3C") in observe(state, 0).visible_cards()


def test_no_buy_when_the_stock_cannot_pay_the_penalty() -> None:
    """RULES.md §3.14 buying: price: the penalty card must be there (and a card for the next player's draw)."""
    state = deal(MAY_I, 3)
    stall_until(state, lambda s: s.phase is Phase.DRAW and len(s.stock) == 1 and s.fresh)
    refused(state, Buy(state.next_seat(state.current)), CannotBuy, "the stock is too low to pay the penalty card")


# -- buying: limits --------------------------------------------------------------------------------


def _buy_at_every_chance(state: GameState, buyer: int, buys: int) -> GameState:
    """Turns in which ``buyer`` buys every discard it may, until it has bought ``buys`` times."""
    while state.buys[buyer] < buys:
        turn(state, buyer=buyer)
    return state


def test_three_buys_per_deal_british() -> None:
    """RULES.md §3.15 buying: limits: 3 per player per deal (004)."""
    state = _buy_at_every_chance(deal(BRITISH, 4), 0, 3)
    stall_until(state, lambda s: s.phase is Phase.DRAW and s.current == 2 and s.discarder == 1)
    play(state, DrawStock(2))
    assert state.phase is Phase.BUY and state.window == [3]
    refused(state, Buy(0), CannotBuy, "you have used all 3 buys of this deal")
    play(state, Pass(3))
    assert state.buys[0] == 3
    # a new deal, new buys
    play_out_deal(state)
    _buy_at_every_chance(deal_next(state), 0, 1)


def test_no_buy_limit_liverpool() -> None:
    """RULES.md §3.15 buying: limits: none (001a)."""
    state = _buy_at_every_chance(deal(LIVERPOOL, 4), 0, 5)
    assert state.buys[0] == 5


def _may_i_rounds(state: GameState, rounds: int) -> GameState:
    """Rounds of three turns (3 seats) in which the seat that plays third calls May I on the first one's discard."""
    first = state.current
    second, third = state.next_seat(first), state.next_seat(state.next_seat(first))
    for _ in range(rounds):
        play(state, DrawStock(first), Discard(first, state.hands[first][-1]), Buy(third), DrawStock(second))
        play(state, Discard(second, state.hands[second][-1]), DrawStock(third), Discard(third, state.hands[third][-1]))
    return state


def test_four_may_is_in_the_final_deal() -> None:
    """RULES.md §3.15 buying: limits: four May I's max in deal 7 (000), per seat (may-i note)."""
    state = _may_i_rounds(deal(MAY_I, 3, deal_no=6), 4)
    assert state.buys == [4, 0, 0] and len(state.hands[0]) == 12 + 8
    play(state, DrawStock(1), Discard(1, state.hands[1][-1]))
    refused(state, Buy(0), CannotBuy, "you have used all 4 buys of this deal")
    play(state, DrawStock(2))
    assert state.buys == [4, 0, 0]
    # in the earlier deals of may-i there is no limit
    state = _may_i_rounds(deal(MAY_I, 3, deal_no=5), 5)
    assert state.buys == [5, 0, 0]


# -- playable-discard call -------------------------------------------------------------------------

SEAT_2_NINES_TENS = "9C 9D 9S 10C 10D 10S 7C 6H JD 2S"


def _two_seats_down(
    rules: Ruleset,
    seat_1: str = SEVENS_EIGHTS,
    seat_1_melds: tuple[str, ...] = ("set: 7H 7S 7D", "set: 8H 8S 8D"),
    seat_1_discard: str = "KS",
    seat_2_discard: str = "7C",
) -> GameState:
    """Seats 1 and 2 go down (7s and 8s; 9s and 10s); seat 2 then discards ``seat_2_discard``; seat 0 is to draw."""
    state = deal(rules, 3, hands=[None, seat_1, SEAT_2_NINES_TENS], stock_top=["QD", "3C"])
    play(state, DrawStock(1))
    pass_window(state)
    play(state, GoDown(1, melds(*seat_1_melds)), Discard(1, card(seat_1_discard)), DrawStock(2))
    pass_window(state)
    play(state, go_down(2, "set: 9C 9D 9S", "set: 10C 10D 10S"), Discard(2, card(seat_2_discard)))
    return state


@pytest.mark.parametrize("rules", [LIVERPOOL, NORSK], ids=lambda r: r.name)
def test_liverpool_call(rules: Ruleset) -> None:
    """RULES.md §3.17 playable-discard call: "Liverpool": a player who is down may call it when someone who is down
    discards a card that could be laid off; first caller sheds one card of their own onto the pile (001a, 002)."""
    state = _two_seats_down(rules)
    assert state.call_open and state.current == 0
    assert {a for a in legal_actions(state) if isinstance(a, Call)} == {Call(1, c) for c in state.hands[1]}
    refused(state, Call(0, state.hands[0][0]), CannotCall, "only a player who is down may call Liverpool")
    refused(state, Call(2, card("6H")), CannotCall, "you cannot call your own discard")
    refused(state, Call(1), CannotCall, "a Liverpool call sheds a card: say which")
    refused(state, Call(1, card("6H")), CannotCall, "6H is not in your hand")
    play(state, Call(1, card("2C")))
    assert discard_pile(state).endswith("7C 2C") and state.discarder == 1 and state.fresh
    assert "2C" not in hand(state, 1).split()
    refused(state, Call(1, card("5D")), CannotCall, "no playable discard can be called now")
    play(state, DrawDiscard(0))
    assert state.hands[0][-1] == card("2C")


def test_liverpool_call_needs_a_playable_discard_and_closes_with_the_next_draw() -> None:
    """RULES.md §3.17 playable-discard call: only a discard that could be laid off; not once the next player drew."""
    state = _two_seats_down(LIVERPOOL, seat_2_discard="JD")
    assert not state.call_open
    refused(state, Call(1, card("2C")), CannotCall, "no playable discard can be called now")
    state = _two_seats_down(LIVERPOOL)
    play(state, DrawStock(0))
    refused(state, Call(1, card("2C")), WrongPhase, "calls are made before the next player starts their turn")


def test_liverpool_caller_keeps_a_card() -> None:
    """RULES.md §3.17 playable-discard call (liverpool note): a caller must keep at least one card."""
    state = _two_seats_down(
        LIVERPOOL,
        seat_1="7H 7S 7D 7S#1 7H#1 8H 8S 8D 8C 9H",
        seat_1_melds=("set: 7H 7S 7D 7S#1 7H#1", "set: 8H 8S 8D 8C"),
        seat_1_discard="QD",
    )
    assert hand(state, 1) == "9H" and state.call_open
    refused(state, Call(1, card("9H")), CannotCall, "you must keep a card in hand")


def test_rummy_call() -> None:
    """RULES.md §3.17 playable-discard call: "rummy": the offender takes the discard back plus a penalty card (001a)."""
    rules = dataclasses.replace(LIVERPOOL, discard_call=DiscardCall.RUMMY)
    state = _two_seats_down(rules)
    assert state.call_open and legal_actions(state, 0)[-1] == Call(0)
    refused(state, Call(0, state.hands[0][0]), CannotCall, "a rummy call does not shed a card")
    refused(state, Call(2), CannotCall, "you cannot call your own discard")
    top = state.stock[-1]
    before = list(state.hands[2])
    play(state, Call(0))
    assert state.hands[2] == [*before, card("7C"), top]
    assert card("7C") in observe(state, 0).seats[2].known and top not in observe(state, 0).visible_cards()
    assert state.current == 0 and state.phase is Phase.DRAW and not state.fresh


def test_no_discard_calls() -> None:
    """RULES.md §3.17 playable-discard call: none (000, 001b, 004)."""
    state = _two_seats_down(BRITISH)
    assert not state.call_open
    refused(state, Call(1, card("2C")), CannotCall, "calls on discards are off in this ruleset")


# -- going out / floating --------------------------------------------------------------------------


def test_going_out_by_discarding_the_last_card() -> None:
    """RULES.md §3.18 going out: by discarding the last card (000, 001a, 002, 004)."""
    state = deal(LIVERPOOL, 3, hands=["KS QS", "7H 7S 7D 7C 7H#1 8H 8S 8D 8C 8H#1"], stock_top=["2C"])
    play(state, DrawStock(1))
    play(state, go_down(1, "set: 7H 7S 7D 7C 7H#1", "set: 8H 8S 8D 8C 8H#1"))
    assert hand(state, 1) == "2C" and observe(state, 0).seats[1].announced
    value_0 = sum(LIVERPOOL.value(c) for c in state.hands[0])
    play(state, Discard(1, card("2C")))
    result = state.results[0]
    assert result.went_out == 1 and result.scores[1] == 0 and result.scores[0] == value_0
    assert state.phase is Phase.DEAL and state.deal == 1 and state.dealer == 1


WHOLE_HAND_DEAL_2 = ["AS", "7H 7S 7C 7D 8D 9D 10D JD QD KD"]
WHOLE_HAND_MELDS = ("set: 7H 7S 7C 7D", "run: 8D 9D 10D JD QD KD AD")


def test_melding_every_card_goes_out_contract() -> None:
    """RULES.md §3.18 going out: melding every card also goes out (001b)."""
    state = deal(CONTRACT, 3, hands=WHOLE_HAND_DEAL_2, stock_top=["AD"], deal_no=1)
    play(state, DrawStock(1), GoDown(1, melds(*WHOLE_HAND_MELDS)))
    assert state.results[-1].went_out == 1 and state.results[-1].scores[1] == 0 and state.phase is Phase.DEAL


@pytest.mark.parametrize("rules", [LIVERPOOL, NORSK], ids=["liverpool", "norsk"])
def test_floating(rules: Ruleset) -> None:
    """RULES.md §3.19 floating: a player who empties their hand without a discard does not go out; play continues
    until they draw and discard (001a, 002)."""
    state = deal(rules, 3, hands=WHOLE_HAND_DEAL_2, stock_top=["AD"], deal_no=1)
    play(state, DrawStock(1))
    pass_window(state)
    play(state, GoDown(1, melds(*WHOLE_HAND_MELDS)))
    assert state.hands[1] == [] and state.phase is Phase.PLAY and state.deal == 1
    assert legal_actions(state) == [EndTurn(1)]
    play(state, EndTurn(1))
    turn(state)
    turn(state)
    assert state.current == 1 and state.discard_pile
    if rules.discard_optional:
        assert DrawDiscard(1) in legal_actions(state)
    else:
        refused(state, DrawDiscard(1), CannotDraw, "with an empty hand you must draw from the stock")
    turn(state)
    assert state.results[-1].went_out == 1 and state.deal == 2


@pytest.mark.parametrize("rules", [MAY_I, BRITISH], ids=["may-i", "british"])
def test_no_floating_keep_a_card_to_discard(rules: Ruleset) -> None:
    """RULES.md §3.19 floating / going out: where neither applies, the last card must be discarded, so a hand may
    not be emptied by melding."""
    state = deal(rules, 3, hands=WHOLE_HAND_DEAL_2, stock_top=["AD"], deal_no=1)
    play(state, DrawStock(1))
    pass_window(state)
    refused(state, GoDown(1, melds(*WHOLE_HAND_MELDS)), CannotGoDown, "you must keep a card to discard")
    play(state, go_down(1, "set: 7H 7S 7C 7D", "run: 8D 9D 10D JD QD KD"))
    refused(state, LayOff(1, card("AD"), 1, "high"), CannotLayOff, "you must keep a card to discard")
    play(state, Discard(1, card("AD")))
    assert state.results[-1].went_out == 1


# -- final deal ------------------------------------------------------------------------------------


def test_final_deal_contract_uses_the_whole_hand_liverpool() -> None:
    """RULES.md §3.20 final deal: contract must use the whole hand, no discard (000, 001a: "3 runs and out");
    liverpool note: with 10 cards dealt, the 12 cards of three runs come from buying."""
    state = deal(
        LIVERPOOL,
        3,
        hands=["2H 3H 4H 5H 2S 3S 4S 5S 2D 3D"],
        upcard="KH",
        stock_top=["4D", "5D", "QC", "6D"],
        deal_no=6,
    )
    assert state.is_final_deal and len(state.hands[1]) == 10
    play(state, DrawStock(1))  # (liverpool's upcard is not for sale: seat 0 buys seat 1's discard)
    assert not any(isinstance(a, GoDown) for a in legal_actions(state)), "11 cards cannot make three runs of 4"
    play(state, Discard(1, card("4D")), DrawStock(2), Buy(0), Discard(2, card("QC")), DrawStock(0), Pass(1))
    assert len(state.hands[0]) == 13
    refused(
        state,
        go_down(0, "run: 2H 3H 4H 5H", "run: 2S 3S 4S 5S", "run: 2D 3D 4D 5D"),
        CannotGoDown,
        "the final contract must use every card in your hand",
    )
    play(state, go_down(0, "run: 2H 3H 4H 5H", "run: 2S 3S 4S 5S", "run: 2D 3D 4D 5D 6D"))
    assert state.results[-1].went_out == 0 and state.is_over


def test_final_deal_three_runs_and_out_may_i() -> None:
    """RULES.md §3.20 final deal: contract must use the whole hand, no discard (000)."""
    state = deal(MAY_I, 3, hands=[None, "2H 3H 4H 5H 2S 3S 4S 5S 2D 3D 4D 5D"], stock_top=["6D"], deal_no=6)
    play(state, DrawStock(1))
    refused(
        state,
        go_down(1, "run: 2H 3H 4H 5H", "run: 2S 3S 4S 5S", "run: 2D 3D 4D 5D"),
        CannotGoDown,
        "must use every card",
    )
    play(state, go_down(1, "run: 2H 3H 4H 5H", "run: 2S 3S 4S 5S", "run: 2D 3D 4D 5D 6D"))
    assert state.results[-1].went_out == 1 and state.results[-1].scores[1] == 0 and state.is_over


@pytest.mark.parametrize("rules", [BRITISH, BRITISH_FIXED], ids=["british", "british-fixed"])
def test_final_deal_going_down_goes_out_british(rules: Ruleset) -> None:
    """RULES.md §3.20 final deal: going out by completing the run of 7, no discard (004); british note: going down
    with the run of seven goes out at once, whatever is left in hand."""
    size = rules.deals[6].hand_size
    rest = "KS KD QC 9S 4C JD"[: 3 * (size - 6) - 1]
    state = deal(rules, 3, hands=[None, "2H 3H 4H 5H 6H 7H " + rest], stock_top=["8H"], deal_no=6)
    assert len(state.hands[1]) == size
    play(state, DrawStock(1), Pass(2), Pass(0))
    refused(state, go_down(1, "run: 2H 3H 4H 5H 6H 7H"), CannotGoDown, "at least 7 cards")
    play(state, go_down(1, "run: 2H 3H 4H 5H 6H 7H 8H"))
    result = state.results[-1]
    assert result.went_out == 1 and result.scores[1] == 0 and state.is_over
    assert result.scores[0] == sum(rules.value(c) for c in state.hands[0]) > 0


def test_the_last_deal_is_ordinary_in_nine_deals_british_9() -> None:
    """RULES.md §2.8 extra lists (9-deal, 004) with §3.20 final deal: the last deal (two runs of 5) is played
    normally (deal 7's run of seven goes out wherever it stands: tests/rules/test_fidelity_turns.py)."""
    state = deal(BRITISH_9, 3, hands=[None, "2H 3H 4H 5H 6H 7H KS KD QC 9S 4C JD"], stock_top=["8H"], deal_no=6)
    play(state, DrawStock(1), Pass(2), Pass(0), go_down(1, "run: 2H 3H 4H 5H 6H 7H 8H"))
    assert state.results[-1].went_out == 1 and state.deal == 7
    state = deal(BRITISH_9, 3, hands=[None, "2H 3H 4H 5H 6H 2S 3S 4S 5S KD QC 9C"], stock_top=["6S"], deal_no=8)
    assert state.is_final_deal
    play(state, DrawStock(1), Pass(2), Pass(0), go_down(1, "run: 2H 3H 4H 5H 6H", "run: 2S 3S 4S 5S 6S"))
    assert state.phase is Phase.PLAY and hand(state, 1) == "KD QC 9C"
    play(state, Discard(1, card("9C")))
    assert not state.is_over


# -- stock exhausted -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [MAY_I, LIVERPOOL, CONTRACT, NORSK, BRITISH], ids=lambda r: r.name)
def test_stock_washed_three_times_then_the_deal_ends(rules: Ruleset) -> None:
    """RULES.md §3.21 stock exhausted: discards (all but the top card) reshuffled as new stock, at most 3 times,
    then the deal ends and all score (000); the notes of liverpool, contract, norsk and british take this."""
    state = deal(rules, 3)
    for wash in range(3):
        stall_until(state, lambda s: s.phase is Phase.RESHUFFLE)
        assert state.stock == [] and state.reshuffles == wash
        pile = list(state.discard_pile)
        refused(state, DrawStock(state.current), WrongPhase)
        refused(state, Reshuffle(tuple(pile)), BadChance, "exactly the discard pile without its top card")
        new_stock = tuple(reversed(pile[:-1]))
        play(state, Reshuffle(new_stock))
        assert state.discard_pile == pile[-1:] and state.phase is Phase.DRAW
        assert state.stock[-1] == new_stock[0] and len(state.stock) == len(pile) - 1
    hands = [list(h) for h in state.hands]
    play_out_deal(state)
    result = state.results[0]
    assert state.reshuffles == 3 and result.went_out is None
    assert result.scores == tuple(sum(rules.value(c) for c in h) for h in hands)


def test_stock_exhausted_ends_the_deal() -> None:
    """RULES.md §3.21 stock exhausted: end the deal and score (004's other choice)."""
    state = deal(dataclasses.replace(BRITISH, stock_out=StockOut.END_DEAL), 3)
    stall_until(state, lambda s: s.deal == 1)
    assert state.results[0].went_out is None and not any(isinstance(a, Reshuffle) for a in state.history)


# -- cut bonus -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("cut", "bonus"), [(31, True), (30, False), (32, False)])
def test_cut_bonus(cut: int, bonus: bool) -> None:
    """RULES.md §3.24 cut bonus: cutter who cuts exactly the cards needed for the deal plus the upcard gets -50
    (001a); the cutter sits left of the dealer."""
    state = play_out_deal(deal(LIVERPOOL, 3, dealer=2, cut=cut))
    result = state.results[0]
    plain = play_out_deal(deal(LIVERPOOL, 3, dealer=2, cut=0)).results[0]
    assert result.cut_bonus_seat == (0 if bonus else None)
    assert result.scores == (plain.scores[0] - 50 * bonus, *plain.scores[1:])


def test_no_cut_bonus() -> None:
    """RULES.md §3.24 cut bonus: only 001a has it."""
    for rules in (MAY_I, CONTRACT, NORSK, BRITISH):
        exact = 3 * rules.deals[0].hand_size + rules.upcard
        assert play_out_deal(deal(rules, 3, cut=exact)).results[0].cut_bonus_seat is None


# -- first dealer ----------------------------------------------------------------------------------


class _Cut(random.Random):
    """A random source whose one sample is the cards each seat cuts."""

    def __init__(self, drawn: str) -> None:
        super().__init__(0)
        self.drawn = list(cards(drawn))

    def sample(self, population, k, *, counts=None):  # type: ignore[no-untyped-def]
        assert k == len(self.drawn)
        return self.drawn


def test_first_dealer_low_card() -> None:
    """RULES.md §3.25 first dealer: low card after a cut (001a, 001b); aces are low, the first seat wins a tie."""
    assert choose_first_dealer(LIVERPOOL, 4, _Cut("KH 3S 3D 9C")) == 1
    assert choose_first_dealer(CONTRACT, 3, _Cut("2C AH 5D")) == 1
    state = deal(LIVERPOOL, 4, dealer=3)
    assert state.current == 0
    play_out_deal(state)
    assert state.dealer == 0 and play(state, shuffle_for(state)).current == 1


def test_first_dealer_any() -> None:
    """RULES.md §3.25 first dealer: any (the table picks: the first seat)."""
    from liverpool.engine.rules.parts import FirstDealer

    rules = dataclasses.replace(LIVERPOOL, first_dealer=FirstDealer.FIRST_SEAT)
    assert choose_first_dealer(rules, 5, _Cut("KH 3S 3D 9C AH")) == 0
    with pytest.raises(ValueError, match=r"first_dealer must be a seat 0\.\.2"):
        new_game(LIVERPOOL, 3, first_dealer=3)


# -- card values -----------------------------------------------------------------------------------

VALUED = "2C 9D 10H JS QC KD AH JK 3S 4S"


@pytest.mark.parametrize(
    ("name", "values"),
    [
        ("may-i", [2, 9, 10, 10, 10, 10, 15, 20, 3, 4]),  # 000: face value, J/Q/K 10, A 15, joker 20
        ("liverpool", [5, 5, 10, 10, 10, 10, 15, 20, 5, 5]),  # 001a: 2-9 = 5, 10-K = 10, A 15, joker 20
        ("contract", [2, 9, 10, 10, 10, 10, 15, 15, 3, 4]),  # 001b: face value, A 15, joker 15
        ("norsk", [5, 5, 10, 10, 10, 10, 15, 20, 5, 5]),  # 002's table is missing: 001a's (norsk note)
        ("british", [5, 5, 10, 10, 10, 10, 15, 15, 5, 5]),  # 004: 2-9 = 5, 10-K = 10, A 15, joker 15
    ],
)
def test_card_values(name: str, values: list[int]) -> None:
    """RULES.md §3.26 card values: the penalty of each card left in hand when the deal ends."""
    rules = PRESETS[name]
    assert [rules.value(c) for c in cards(VALUED)] == values
    state = play_out_deal(deal(rules, 3, hands=[VALUED]))
    assert state.results[0].scores[0] == sum(values)


# -- announcements ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "at"), [("may-i", 3), ("liverpool", 1), ("british", 0), ("contract", 0)])
def test_announcements(name: str, at: int) -> None:
    """RULES.md §3.27 announcements: announce count at 3 or fewer cards (000); knock at one card (001a); none."""
    rules = PRESETS[name]
    state = deal(rules, 3, hands=[None, "7H 7S 7D 7C 8H 8S 8D 8C 2C 5D"], stock_top=["9H"])
    play(state, DrawStock(1))
    pass_window(state)
    assert not observe(state, 0).seats[1].announced
    play(state, go_down(1, "set: 7H 7S 7D 7C", "set: 8H 8S 8D 8C"))
    assert len(state.hands[1]) == 3
    # mid-turn: only where the count shows whenever the hand is that small (000 announces after discarding)
    assert observe(state, 0).seats[1].announced is (at >= 3 and not rules.announce_after_discard)
    play(state, Discard(1, card("5D")))
    assert len(state.hands[1]) == 2
    assert observe(state, 2).seats[1].announced is (at >= 2)
    assert observe(state, None).to_dict()["seats"][1]["announced"] is (at >= 2)
    # one card: see test_going_out_by_discarding_the_last_card (liverpool's knock)


# -- ties ------------------------------------------------------------------------------------------

FIVES_A = "2C 3C 4C 5C 6C 7C 8C 9C 2D 3D 4D 5D"  # 5 points each under 001a and 004 values
FIVES_B = "2H 3H 4H 5H 6H 7H 8H 9H 2S 3S 4S 5S"
COURT = "KC KD KH KS QC QD QH QS JC JD JH JS"


def _hand(cards_text: str, size: int, worse: bool) -> str:
    """The first ``size`` cards, the last one swapped for a 10 (5 points more) when ``worse``."""
    chosen = cards_text.split()[:size]
    if worse:
        last = card(chosen[-1])
        chosen[-1] = f"10{last.suit}" + (f"#{last.copy}" if last.copy else "")
    return " ".join(chosen)


def _play_game(rules: Ruleset, seats: int, worse: dict[int, set[int]], hands: tuple[str, ...]) -> GameState:
    """A whole game of stalled deals: seat s holds ``hands[s]`` (made worse in the deals ``worse[s]``)."""
    state = start(rules, seats)
    while not state.is_over:
        size = state.deal_rule.hand_size
        dealt = [_hand(hands[s], size, state.deal in worse.get(s, set())) for s in range(seats)]
        play_out_deal(deal_next(state, hands=dealt))
    return state


def test_ties_shared() -> None:
    """RULES.md §3.28 ties: without a tie-break (000, 001a, 001b, 002 are silent) the lowest totals share the win."""
    state = _play_game(LIVERPOOL, 3, {}, (FIVES_A, FIVES_B, COURT))
    assert state.totals[0] == state.totals[1] < state.totals[2]
    assert state.winners == (0, 1)


def test_ties_compare_final_deal_british() -> None:
    """RULES.md §3.28 ties: compare deal-7 totals (004; british note)."""
    state = _play_game(BRITISH, 3, {0: {6}, 1: {0}}, (FIVES_A, FIVES_B, COURT))
    assert state.totals[0] == state.totals[1] and len(state.results) == 7
    assert state.results[6].scores[1] < state.results[6].scores[0]
    assert state.winners == (1,)


def test_ties_replay_the_final_deal() -> None:
    """RULES.md §3.28 ties: replay the final deal (004's other choice): the replay decides."""
    rules = dataclasses.replace(BRITISH, ties=Ties.REPLAY_FINAL_DEAL)
    state = _play_game(rules, 3, {0: {6}, 1: {0, 7}}, (FIVES_A, FIVES_B, COURT))
    assert len(state.results) == 8 and state.results[7].deal == 7
    assert state.totals[0] < state.totals[1], "the replay counts"
    assert state.winners == (0,)


# -- no-buy ----------------------------------------------------------------------------------------


def test_no_buying_british_nobuy() -> None:
    """RULES.md §3.29 no-buy: buying disabled (004)."""
    state = _seat_1_discarded(BRITISH_NOBUY)
    refused(state, Buy(0), CannotBuy, "buying is off in this ruleset")
    play(state, DrawStock(2))
    assert state.phase is Phase.PLAY
    assert not any(isinstance(a, Buy) for a in legal_actions(state))


# -- partnerships ----------------------------------------------------------------------------------


def test_partnerships() -> None:
    """RULES.md §3.30 partnerships: Shanghai's 4-player teams (004): seats 0+2 and 1+3 add their totals, and
    both partners of the lowest team win."""
    rules = dataclasses.replace(LIVERPOOL, partnerships=True)
    with pytest.raises(ValueError, match="partnerships need 4 seats"):
        new_game(rules, 3)
    everyone = set(range(7))
    state = _play_game(
        rules, 4, {0: everyone, 2: everyone}, (FIVES_A, FIVES_B, FIVES_A.replace(" ", "#1 ") + "#1", COURT)
    )
    assert min(state.totals) == state.totals[1]
    assert state.totals[0] + state.totals[2] < state.totals[1] + state.totals[3]
    assert state.winners == (0, 2)


# -- each preset's own choices (the notes in presets.py) ------------------------------------------
# Notes covered above: may-i decks (test_decks_and_jokers), four May I's per seat (test_four_may_is_in_the_final_deal),
# May I blocks the next player (test_may_i_before_the_next_player_draws); liverpool: every note (runs of different
# suits, sets sharing a rank, washing, joker swap, Liverpool call, deal 7); contract: decks, runs of 3 with 2 naturals,
# washing; norsk: card values, washing, joinable runs; british: jokers, deal 7, joker spacing, swaps, ties, washing,
# the card just taken; british-9, british-fixed and british-nobuy: their own tests.


def test_preset_may_i_choices() -> None:
    """may-i notes: joker limits of 001a/002 (a set needs 2 naturals); the card just taken may not be discarded
    (test_may_not_discard_the_card_just_taken); the low card of a cut deals first."""
    state = deal(MAY_I, 3, hands=[None, "7H 7S JK JK#1 8H 8S 8D 2C 5D KS"], stock_top=["QD"])
    play(state, DrawStock(1))
    refused(state, go_down(1, "set: 7H JK JK#1", "set: 8H 8S 8D"), CannotGoDown, "at least 2 natural cards")
    play(state, go_down(1, "set: 7H 7S JK", "set: 8H 8S 8D"))
    assert choose_first_dealer(MAY_I, 3, _Cut("QH 9S 4D")) == 2


def test_preset_contract_choices() -> None:
    """contract notes: buying after the next player declines, nearest first (001b is silent); the seventh deal
    melds every card at once, in runs of 3 or more."""
    state = _seat_1_discarded(CONTRACT)
    refused(state, Buy(0), WrongPhase)
    play(state, DrawStock(2), Buy(0))
    assert state.buys == [1, 0, 0]

    state = deal(CONTRACT, 3, hands=[None, "2H 3H 4H 2S 3S 4S 5S 2D 3D 4D 5D KS"], stock_top=["5H"], deal_no=6)
    play(state, DrawStock(1))
    refused(
        state,
        go_down(1, "run: 2H 3H 4H 5H", "run: 2S 3S 4S 5S", "run: 2D 3D 4D 5D"),
        CannotGoDown,
        "must use every card",
    )
    refused(state, go_down(1, "run: 2H 3H 4H 5H KS", "run: 2S 3S 4S 5S", "run: 2D 3D 4D 5D"), CannotGoDown)
    assert not any(isinstance(a, GoDown) for a in legal_actions(state))
    state = deal(CONTRACT, 3, hands=[None, "2H 3H 4H 2S 3S 4S 5S 2D 3D 4D 5D 6D"], stock_top=["5H"], deal_no=6)
    play(state, DrawStock(1), go_down(1, "run: 2H 3H 4H 5H", "run: 2S 3S 4S 5S", "run: 2D 3D 4D 5D 6D"))
    assert state.results[-1].went_out == 1 and state.is_over


def test_preset_norsk_choices() -> None:
    """norsk notes: standard contracts and 10 cards (002's table is missing); the final deal must use the whole
    hand, and with 10 cards dealt the cards for it come from buying."""
    assert [d.hand_size for d in NORSK.deals] == [10] * 7 and NORSK.deals == LIVERPOOL.deals
    state = deal(
        NORSK,
        3,
        hands=["2H 3H 4H 5H 2S 3S 4S 5S 2D 3D", "4D 9C 9D JC JD KC KD 6C 6S QH"],
        stock_top=["KS", "5D", "QC", "6D"],
        deal_no=6,
    )
    play(state, DrawStock(1), Discard(1, card("4D")), DrawStock(2), Buy(0))
    assert state.hands[0][-2:] == [card("4D"), card("5D")]
    play(state, Discard(2, card("QC")), DrawStock(0), Pass(1))
    refused(
        state,
        go_down(0, "run: 2H 3H 4H 5H", "run: 2S 3S 4S 5S", "run: 2D 3D 4D 5D"),
        CannotGoDown,
        "must use every card",
    )
    play(state, go_down(0, "run: 2H 3H 4H 5H", "run: 2S 3S 4S 5S", "run: 2D 3D 4D 5D 6D"))
    assert state.results[-1].went_out == 0 and state.is_over


# -- error messages --------------------------------------------------------------------------------


def test_refusals_name_the_action_and_the_situation() -> None:
    """An illegal action's message names the action (its repr), why, and the situation; ``reason`` is machine-readable."""
    state = deal(LIVERPOOL, 3, hands=[None, SEVENS_EIGHTS], upcard="KD")
    err = refused(state, Discard(1, card("7H")), WrongPhase)
    assert str(err) == (
        "Discard(seat=1, card=Card.parse('7H')) is illegal: this is the draw phase, not the play phase "
        "(deal 1, draw phase, seat 1's turn)"
    )
    assert (err.action, err.situation, err.reason) == (
        "Discard(seat=1, card=Card.parse('7H'))",
        "deal 1, draw phase, seat 1's turn",
        "wrong_phase",
    )
    err = refused(state, DrawStock(2), NotYourTurn)
    assert str(err) == "DrawStock(seat=2) is illegal: it is seat 1's turn (deal 1, draw phase, seat 1's turn)"
    play(state, DrawDiscard(1))
    err = refused(state, go_down(1, "set: 7H 7S 8D", "set: 8H 8S KD"), CannotGoDown)
    assert str(err).startswith(
        "GoDown(seat=1, melds=(Meld.parse('set: 7H 7S 8D'), Meld.parse('set: 8H 8S KD'))) "
        "is illegal: set: 7H 7S 8D: 8D is not of the set's rank 7"
    )
    assert str(err).endswith("(deal 1, play phase, seat 1's turn)")
    err = refused(state, Discard(1, card("AS")), CardNotInHand)
    assert "AS not in your hand" in str(err) and err.reason == "card_not_in_hand"
    err = refused(state, Discard(7, card("AS")), MalformedAction)
    assert "there is no seat 7 at this 3-seat table" in str(err)
    err = refused(state, LayOff(1, card("7H"), 0, "middle"), MalformedAction)  # type: ignore[arg-type]
    assert "the end of a run is 'low' or 'high', not 'middle'" in str(err)
    state = _two_seats_down(LIVERPOOL)
    err = refused(state, Call(0, state.hands[0][0]), CannotCall)
    assert str(err).endswith("only a player who is down may call Liverpool (deal 1, draw phase, seat 0's turn)")


def test_a_finished_game_refuses_everything() -> None:
    """After the last deal every action is refused as GameOver, naming the game's end."""
    state = deal(BRITISH, 3, hands=[None, "2H 3H 4H 5H 6H 7H KS KD QC 9S 4C JD"], stock_top=["8H"], deal_no=6)
    play(state, DrawStock(1), Pass(2), Pass(0), go_down(1, "run: 2H 3H 4H 5H 6H 7H 8H"))
    err = refused(state, DrawStock(2), GameOver)
    assert str(err) == "DrawStock(seat=2) is illegal: the game is over (the game is over)"
    refused(state, shuffle_for(start(BRITISH, 3)), GameOver)
    assert legal_actions(state) == []
