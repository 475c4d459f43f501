"""The engine's faults (engine/problems.py): each problem code is met in a real situation, with the
parameters a client words it from and the engine's English sentence (issue 28 item 7, docs/i18n.md).

Situations are melds under the shipped presets (or a house rule of one), drafts and going-downs of dealt
hands, and every other refusal a player can meet (``helpers.deal``: 3 seats, seat 1 plays first, unless said)."""

from __future__ import annotations

import dataclasses
import random
import string
from collections.abc import Callable

import pytest
from helpers import british_stranded, card, cards, deal, go_down, melds, pass_window, play, play_out_deal, stall_until

from liverpool import fuzz
from liverpool.engine import (
    PRESETS,
    Buy,
    Call,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    Fault,
    GameState,
    LayOff,
    Pass,
    Phase,
    Problem,
    Reason,
    Reshuffle,
    Shuffle,
    SwapJoker,
    apply,
    chance_action,
    contract_fault,
    draft_go_down,
    find_preset,
    is_chance,
    legal_actions,
    meld_fault,
    new_game,
    refusal,
)
from liverpool.engine.melds import Meld
from liverpool.engine.problems import ENGLISH
from liverpool.engine.rules.parts import (
    Buying,
    DiscardCall,
    JoinableRuns,
    JokerSwap,
    JokerSwapPlace,
    JokerSwapTarget,
    MeldKind,
    MeldRule,
)

LIVERPOOL = find_preset("liverpool")
MAY_I = find_preset("may-i")
CONTRACT = find_preset("contract")
BRITISH = find_preset("british")
NORSK = find_preset("norsk")


def meld(text: str, rules=LIVERPOOL) -> Fault | None:  # type: ignore[no-untyped-def]
    return meld_fault(Meld.parse(text), rules)


def contract(rules, deal_no: int, *texts: str) -> Fault | None:  # type: ignore[no-untyped-def]
    return contract_fault(melds(*texts), rules.deals[deal_no].contract, rules)


def drawn(rules=LIVERPOOL, hand="7H 7S JK 9C 9D 9S 2C 3C 4C 5C", deal_no=0):  # type: ignore[no-untyped-def]
    return play(deal(rules, 3, hands=[None, hand], stock_top="KD", deal_no=deal_no), DrawStock(1))


def slot_fault(slots: list[str], deal_no: int = 0, index: int = 0, rules=LIVERPOOL) -> Fault:  # type: ignore[no-untyped-def]
    hand = "7H 7S JK 9C 9D 9S 2C 3C 4C 5H"
    draft = draft_go_down(drawn(rules, hand, deal_no), 1, [cards(s) for s in slots])
    return draft.melds[index].faults[-1]


def refused(state, action) -> Fault:  # type: ignore[no-untyped-def]
    err = refusal(state, action)
    assert err is not None and err.fault is not None, err
    assert err.detail == err.fault.text()
    return err.fault


def gone_down():  # type: ignore[no-untyped-def]
    state = drawn()
    return play(state, go_down(1, "set: 7H 7S JK", "set: 9C 9D 9S"))


def dug():  # type: ignore[no-untyped-def]
    """RULES.md §3.9 draw from discard: 001b digs into the pile; the dug card must be melded at once."""
    hand = "QS QD 5C 5D 5S 8C 8D 8S 2H 3H"
    state = deal(CONTRACT, 3, hands=[None, None, hand], upcard="QH", stock_top="KD")
    return play(state, DrawStock(1), Discard(1, cards("KD")[0]), DrawDiscard(2, 2))


def final_deal():  # type: ignore[no-untyped-def]
    """may-i's seventh deal: three runs and out, with the whole hand (RULES.md §3.20 final deal)."""
    return drawn(MAY_I, "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H", deal_no=6)


def whole_hand_down(rules, taken: bool):  # type: ignore[no-untyped-def]
    """Seat 1 draws (the upcard KD, or the stock's 9S#1) and lays down every card it held before."""
    hand = "7H 7S 7D 7C 7H#1 9C 9D 9S 9H 9C#1"
    state = deal(rules, 3, hands=[None, hand], upcard="KD", stock_top="9S#1")
    play(state, DrawDiscard(1, 1) if taken else DrawStock(1))
    sets = ("set: 7H 7S 7D 7C 7H#1", "set: 9C 9D 9S 9H 9C#1" + ("" if taken else " 9S#1"))
    return state, go_down(1, *sets)


# -- refusals of other actions than a going-down ---------------------------------------------------


def started(rules=LIVERPOOL, seats: int = 3) -> GameState:  # type: ignore[no-untyped-def]
    """Seat 1 (seat ``seats``-1's left) is to draw the first card of a deal dealt at random but for the filler."""
    return deal(rules, seats)


def game_over() -> GameState:
    """A one-deal house rule of liverpool, stalled to its end (RULES.md §3.21 stock exhausted)."""
    rules = dataclasses.replace(LIVERPOOL, deals=LIVERPOOL.deals[:1])
    state = play_out_deal(deal(rules, 3))
    assert state.phase is Phase.GAME_OVER
    return state


def pile_of_two(seat_2: str) -> GameState:
    """RULES.md §3.9 draw from discard (001b digs): the pile is 9C (upcard) under KC; seat 2 is to draw."""
    state = deal(CONTRACT, 3, hands=[None, "2C 3D 4H 5S 6C 8D 10H QS KC JD", seat_2], upcard="9C", stock_top=["AH"])
    return play(state, DrawStock(1), Discard(1, card("KC")))


def window(seats: int = 3) -> GameState:
    """RULES.md §3.12 buying: who, when (british: after the next player declines): seat 1 discards KS, seat 2 draws from
    the stock and the buy window opens for the other seats."""
    state = deal(BRITISH, seats, stock_top=["KS", "QD"])
    play(state, DrawStock(1))
    pass_window(state)
    play(state, Discard(1, card("KS")), DrawStock(2))
    assert state.phase is Phase.BUY and set(state.window) == set(range(seats)) - {1, 2}, state.window
    return state


def answered() -> tuple[GameState, Buy]:
    """At four seats, the first asked declines the window, which stays open for the other: it may not buy now."""
    state = window(4)
    first = state.window[0]
    return play(state, Pass(first)), Buy(first)


def may_i() -> GameState:
    """RULES.md §3.12 buying: who, when (000, May I before the next draw): seat 1 has discarded KS; seat 2 is to draw."""
    state = deal(MAY_I, 3, stock_top=["KS"])
    return play(state, DrawStock(1), Discard(1, card("KS")))


def bought_once() -> GameState:
    """A house rule of british with one buy a deal, four seats: seat 0 bought seat 1's KS (and QD, its penalty
    card); seat 2 discarded 2C, seat 3 declined it and the window is open for seat 1 alone."""
    state = deal(dataclasses.replace(BRITISH, buy_limit=1), 4, stock_top=["KS", "QD", "2C", "JH"])
    play(state, DrawStock(1))
    pass_window(state)
    play(state, Discard(1, card("KS")), DrawStock(2))
    for seat in list(state.window):
        play(state, Buy(seat) if seat == 0 else Pass(seat))
    play(state, Discard(2, card("2C")), DrawStock(3))
    assert state.buys[0] == 1 and state.window == [1], state.window
    return state


def low_stock() -> tuple[GameState, Buy]:
    """May I with one card left in the stock: no penalty card to pay (RULES.md §3.14 buying: price); the seat asking is neither
    the one to draw nor the discarder."""
    state = stall_until(may_i(), lambda s: len(s.stock) == 1 and s.phase is Phase.DRAW and s.fresh)
    asker = next(s for s in range(3) if s not in (state.current, state.discarder))
    return state, Buy(asker)


def seat_0_calls(state: GameState) -> tuple[GameState, Call]:
    """Seat 0, not down, calls shedding its first card."""
    return state, Call(0, state.hands[0][0])


SEVENS_EIGHTS = "7H 7S 7D 8H 8S 8D 2C 5D KS 3H"


def two_down(
    rules=LIVERPOOL,
    seat_1: str = SEVENS_EIGHTS,
    seat_1_melds=("set: 7H 7S 7D", "set: 8H 8S 8D"),
    seat_1_discard="KS",
    seat_2_discard="7C",
) -> GameState:  # type: ignore[no-untyped-def]
    """RULES.md §3.17 playable-discard call: seats 1 and 2 are down (7s and 8s; 9s and 10s), seat 2 discarded
    ``seat_2_discard``; seat 0 is to draw."""
    state = deal(rules, 3, hands=[None, seat_1, "9C 9D 9S 10C 10D 10S 7C 6H JD 2S"], stock_top=["QD", "3C"])
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, *seat_1_melds), Discard(1, card(seat_1_discard)), DrawStock(2))
    pass_window(state)
    return play(state, go_down(2, "set: 9C 9D 9S", "set: 10C 10D 10S"), Discard(2, card(seat_2_discard)))


def jokers_down(rules, seat_2: str, deal_no: int, first: str, second: str) -> GameState:  # type: ignore[no-untyped-def]
    """RULES.md §3.8 joker swap: seat 1 is down with ``first`` and ``second`` (jokers among them) and
    discarded KS; seat 2 has drawn 3S."""
    state = deal(rules, 3, hands=[None, "7H 7S JK 4C 5C JK#1 7C 9H 9S 9D", seat_2], stock_top=["KS", "3S", "10D"],
                 deal_no=deal_no)  # fmt: skip
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, first, second), Discard(1, card("KS")), DrawStock(2))
    pass_window(state)
    return state


def liverpool_swap(rules=LIVERPOOL, seat_2: str = "8H 8S 8D 9C 10C JC QC 6C 7D 5S") -> GameState:  # type: ignore[no-untyped-def]
    """Liverpool's deal 2: seat 1 is down with 'set: 7H 7S JK' (meld 0) and 'run: 4C 5C JK#1 7C' (meld 1),
    seat 2 with 'set: 8H 8S 8D' (meld 2) and 'run: 9C 10C JC QC' (meld 3), holding 6C 7D 5S 3S."""
    state = jokers_down(rules, seat_2, 1, "set: 7H 7S JK", "run: 4C 5C JK#1 7C")
    return play(state, go_down(2, "set: 8H 8S 8D", "run: 9C 10C JC QC"))


def taken_swap(rules=LIVERPOOL) -> GameState:  # type: ignore[no-untyped-def]
    """As :func:`liverpool_swap`, but seat 2 took seat 1's KS from the pile (RULES.md §3.10 discard after drawing from discard: it may not be its
    last card to discard) and holds 6C 7D 8C KS."""
    state = deal(rules, 3, deal_no=1, hands=[None, "7H 7S JK 4C 5C JK#1 7C 9H 9S 9D", "8H 8S 8D 9C 10C JC QC 6C 7D 8C"],
                 upcard="2D", stock_top=["KS", "3S"])  # fmt: skip
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "set: 7H 7S JK", "run: 4C 5C JK#1 7C"), Discard(1, card("KS")), DrawDiscard(2))
    return play(state, go_down(2, "set: 8H 8S 8D", "run: 9C 10C JC QC"))


TAKEN_SWAP = SwapJoker(2, card("6C"), 1, card("JK#1"))


def taken_stuck(rules=LIVERPOOL) -> GameState:  # type: ignore[no-untyped-def]
    """:func:`taken_swap` once 7D and 8C are laid off: swapping 6C for the joker would leave KS, just taken,
    as the only card besides the joker."""
    return play(taken_swap(rules), LayOff(2, card("7D"), 0, None), LayOff(2, card("8C"), 2, None))


def british_swap() -> GameState:
    """RULES.md §3.8 (004): british's first deal; seat 1 is down with 'set: 7H 7S JK' (meld 0) and 'set: 9H 9S JK#1'
    (meld 1), seat 2 with 'set: 4H 4D 4S' (meld 2) and 'set: 2S 2D 2H' (meld 3), holding 7D 9C 8H 8S 3S."""
    state = jokers_down(BRITISH, "7D 9C 8H 8S 4H 4D 4S 2S 2D 2H", 0, "set: 7H 7S JK", "set: 9H 9S JK#1")
    return play(state, go_down(2, "set: 4H 4D 4S", "set: 2S 2D 2H"))


def may_i_cannot_go_down() -> GameState:
    """May I: seat 0 holds 9C#1 for seat 1's joker in 'set: 9H 9S JK#1' but could not go down with the joker."""
    state = deal(MAY_I, 3, hands=["9C#1 KH QD 3C 6D 10S 5H JD AC 2C#1", "7H 7S JK 4C 5C JK#1 7C 9H 9S 9D"],
                 stock_top=["KS", "3S", "10D"])  # fmt: skip
    play(state, DrawStock(1), go_down(1, "set: 7H 7S JK", "set: 9H 9S JK#1"), Discard(1, card("KS")))
    return play(state, DrawStock(2), Discard(2, card("3S")), DrawStock(0))


def may_i_swap() -> GameState:
    """May I's first deal: seat 1 is down with 'set: 7H 7S JK' and 'set: 9H 9S JK#1'; seat 2 has drawn."""
    return jokers_down(MAY_I, "7D 9C 8H 8S 4H 4D 4S 2S 2D 2H", 0, "set: 7H 7S JK", "set: 9H 9S JK#1")


def contract_swap(down: bool = True) -> GameState:
    """RULES.md §3.8 (001b): contract's deal 2; seat 1 is down with 'run: 4C 5C JK' (meld 1), seat 2 has just gone
    down too (or not, with ``down`` false), holding 6C."""
    state = deal(CONTRACT, 3, deal_no=1, hands=[None, "7H 7S 7D 4C 5C JK 9H 9S 2D KD", "8H 8S 8D 9C 10C JC 6C QC KS QH"],
                 upcard="2S", stock_top=["AS", "3S", "4S", "5S", "6S"])  # fmt: skip
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "set: 7H 7S 7D", "run: 4C 5C JK"), Discard(1, card("AS")), DrawStock(2))
    pass_window(state)
    return play(state, go_down(2, "set: 8H 8S 8D", "run: 9C 10C JC")) if down else state


FLOATER = "7H 7S 7D 7C 7H#1 8H 8S 8D 8C 8H#1"


def floating(drawn: str, rules=LIVERPOOL) -> GameState:  # type: ignore[no-untyped-def]
    """RULES.md §3.19 floating (001a): seat 1 went down with its whole hand and laid off the card it drew;
    seats 2 and 0 played; seat 1, with no cards, is to draw (``drawn`` tops the stock)."""
    state = deal(rules, 3, hands=[None, FLOATER], stock_top=["7D#1", "2C", "3D", drawn])
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "set: 7H 7S 7D 7C 7H#1", "set: 8H 8S 8D 8C 8H#1"), LayOff(1, card("7D#1"), 0, None))
    play(state, EndTurn(1), DrawStock(2))
    pass_window(state)
    play(state, Discard(2, card("2C")), DrawStock(0))
    pass_window(state)
    play(state, Discard(0, card("3D")))
    assert state.current == 1 and not state.hands[1]
    return state


def floated(drawn: str) -> GameState:
    state = play(floating(drawn), DrawStock(1))
    return pass_window(state)


def taken_floater() -> GameState:
    """A floater takes the discard 3D, under a house rule of liverpool with discarding optional (so an empty
    hand may take from the pile) and the card taken discardable."""
    rules = dataclasses.replace(LIVERPOOL, no_discard_taken_card=False, discard_optional=True)
    state = floating("KC", rules)
    return play(state, DrawDiscard(1))


SITUATIONS: dict[Problem, Callable[[], Fault | None]] = {
    Problem.SET_TOO_SHORT: lambda: meld("set: 7H 7S"),
    Problem.RUN_TOO_SHORT: lambda: meld("run: 7H 8H"),
    Problem.SET_WRONG_RANK: lambda: meld("set: 7H 7S 8S"),
    Problem.SET_SUIT_TWICE: lambda: meld("set: 7H 7S 7H#1", CONTRACT),
    Problem.SET_FEW_NATURALS: lambda: meld("set: 7H JK JK#1"),
    Problem.SET_TOO_LONG: lambda: meld("set: 7H 7S 7D 7C JK", CONTRACT),
    Problem.SET_DISTINCT_TOO_LONG: lambda: meld(
        "set: 7H 7S 7D 7C JK", dataclasses.replace(CONTRACT, set_max_length=None)
    ),
    Problem.RUN_OUT_OF_RANKS: lambda: meld_fault(
        Meld(Meld.parse("run: QH KH AH JK").kind, cards("QH KH AH JK"), 12), LIVERPOOL
    ),
    Problem.ACES_NOT_LOW: lambda: meld("run: AH 2H 3H 4H", dataclasses.replace(LIVERPOOL, aces_low=False)),
    Problem.ACES_NOT_HIGH: lambda: meld("run: JH QH KH AH", dataclasses.replace(LIVERPOOL, aces_high=False)),
    Problem.RUN_WRONG_SUIT: lambda: meld_fault(
        Meld(Meld.parse("run: 4H 5H 6H 7H").kind, cards("4H 5H 6S 7H"), 4), LIVERPOOL
    ),
    Problem.RUN_WRONG_PLACE: lambda: meld_fault(
        Meld(Meld.parse("run: 4H 5H 6H 7H").kind, cards("4H 5H 7H 6H"), 4), LIVERPOOL
    ),
    Problem.RUN_FEW_NATURALS: lambda: meld("run: 4H JK JK#1 7H"),
    Problem.RUN_JOKER_SPACING: lambda: meld("run: 4H JK 6H JK#1 8H 9H", BRITISH),
    Problem.CONTRACT_MELD: lambda: contract(LIVERPOOL, 0, "set: 7H JK JK#1", "set: 9C 9D 9S"),
    Problem.CONTRACT_SETS: lambda: contract(LIVERPOOL, 0, "set: 7H 7S 7D"),
    Problem.CONTRACT_RUNS: lambda: contract(LIVERPOOL, 1, "set: 7H 7S 7D"),
    Problem.SET_SHORT_FOR_CONTRACT: lambda: contract_fault(
        melds("set: 7H 7S 7D"), (MeldRule(MeldKind.SET, 4),), LIVERPOOL
    ),
    Problem.RUN_SHORT_FOR_CONTRACT: lambda: contract(LIVERPOOL, 1, "set: 7H 7S 7D", "run: 2C 3C 4C"),
    Problem.SET_LONGER_NOT_ALLOWED: lambda: contract(
        dataclasses.replace(LIVERPOOL, longer_melds=False), 0, "set: 7H 7S 7D 7C", "set: 9C 9D 9S"
    ),
    Problem.RUN_LONGER_NOT_ALLOWED: lambda: contract(
        dataclasses.replace(LIVERPOOL, longer_melds=False), 1, "set: 7H 7S 7D", "run: 2C 3C 4C 5C 6C"
    ),
    Problem.SETS_SAME_RANK: lambda: contract(MAY_I, 0, "set: 7H 7S 7D", "set: 7C JK 7H#1"),
    Problem.RUNS_SAME_SUIT: lambda: contract(MAY_I, 2, "run: 2C 3C 4C 5C", "run: 8C 9C 10C JC"),
    Problem.RUNS_TOUCH: lambda: contract(
        dataclasses.replace(NORSK, joinable_runs=JoinableRuns.TOUCHING), 2, "run: 2C 3C 4C 5C", "run: 6C 7C 8C 9C"
    ),
    Problem.RUNS_COULD_JOIN: lambda: contract(NORSK, 2, "run: 3S 4S 5S JK", "run: 8S 9S 10S JK#1"),
    Problem.ALREADY_DOWN: lambda: refused(gone_down(), go_down(1, "set: 2C JK 2C#1", "set: 3C 3D 3S")),
    Problem.CARD_TWICE: lambda: refused(drawn(), go_down(1, "set: 7H 7S JK", "set: 7H 7S JK")),
    Problem.NOT_IN_HAND: lambda: refused(drawn(), go_down(1, "set: 7H 7S 7D", "set: 9C 9D 9S")),
    Problem.MUST_MELD_TAKEN: lambda: refused(dug(), go_down(2, "set: 5C 5D 5S", "set: 8C 8D 8S")),
    Problem.FINAL_USES_ALL: lambda: refused(
        final_deal(), go_down(1, "run: 2C 3C 4C 5C", "run: 2D 3D 4D 5D", "run: 2H 3H 4H 5H")
    ),
    Problem.KEEP_A_CARD: lambda: refused(*whole_hand_down(MAY_I, taken=False)),
    Problem.ONLY_TAKEN_LEFT: lambda: refused(*whole_hand_down(LIVERPOOL, taken=True)),
    Problem.NEEDS_MORE: lambda: slot_fault(["7H 7S"]),
    Problem.TOO_MANY_CARDS: lambda: slot_fault(
        ["7H 7S JK 7C"], rules=dataclasses.replace(LIVERPOOL, longer_melds=False)
    ),
    Problem.NEEDS_NATURAL: lambda: slot_fault(["JK"]),
    Problem.SET_MIXES_RANKS: lambda: slot_fault(["7H 7S 9C"]),
    Problem.RUN_MIXES_SUITS: lambda: slot_fault(["9C", "2C 3C 4C 5H"], deal_no=1, index=1),
    Problem.RANK_TWICE: lambda: slot_fault(["9C", "2C 3C 3C#1 5C"], deal_no=1, index=1),
    Problem.TOO_FAR_APART: lambda: slot_fault(["9C", "2C 3C 4C 9C"], deal_no=1, index=1),
    Problem.DRAFT_SET: lambda: draft_go_down(drawn(), 1, [cards("7H 7S"), []]).fault,
    Problem.DRAFT_RUN: lambda: draft_go_down(drawn(deal_no=1), 1, [cards("9C 9D 9S"), cards("2C")]).fault,
    Problem.GAME_IS_OVER: lambda: refused(game_over(), DrawStock(1)),
    Problem.OTHERS_TURN: lambda: refused(started(), DrawStock(2)),
    Problem.OTHER_PHASE: lambda: refused(started(), Discard(1, card("2C"))),
    Problem.MUST_PLACE_FIRST: lambda: refused(dug(), Discard(2, card("2H"))),
    Problem.RECLAIMED_UNPLACED: lambda: refused(
        play(liverpool_swap(), SwapJoker(2, card("6C"), 1, card("JK#1"))), Discard(2, card("5S"))
    ),
    Problem.DISCARD_ENDS_TURN: lambda: refused(drawn(), EndTurn(1)),
    Problem.PILE_EMPTY: lambda: refused(started(NORSK), DrawDiscard(1)),
    Problem.MAY_I_CALLED: lambda: refused(play(may_i(), Buy(0)), DrawDiscard(2)),
    Problem.EMPTY_HAND_DRAWS_STOCK: lambda: refused(floating("KC"), DrawDiscard(1)),
    Problem.TOP_DISCARD_ONLY: lambda: refused(started(), DrawDiscard(1, 2)),
    Problem.DIG_TOO_DEEP: lambda: refused(pile_of_two("9D 9H 5C 5D 5H 7S 2H 3S 4C 6D"), DrawDiscard(2, 3)),
    Problem.DIG_UNPLAYABLE: lambda: refused(pile_of_two("9D 8H 5C 5D 5H 7S 2H 3S 4C 6D"), DrawDiscard(2, 2)),
    Problem.NO_BUY_WINDOW: lambda: refused(started(), Pass(0)),
    Problem.NO_OFFER_TO_DECLINE: lambda: refused(window(), Pass(1)),
    Problem.BUY_AFTER_DECLINE: lambda: refused(started(), Buy(0)),
    Problem.BUY_ANSWERED: lambda: refused(*answered()),
    Problem.MAY_I_WHEN: lambda: refused(play(may_i(), DrawStock(2)), Buy(0)),
    Problem.BUYING_OFF: lambda: refused(started(dataclasses.replace(MAY_I, buying=Buying.NONE)), Buy(0)),
    Problem.NO_FRESH_DISCARD: lambda: refused(started(dataclasses.replace(MAY_I, upcard=False)), Buy(0)),
    Problem.UPCARD_NOT_BUYABLE: lambda: refused(started(MAY_I), Buy(0)),
    Problem.NEXT_PLAYER_DRAWS: lambda: refused(may_i(), Buy(2)),
    Problem.OWN_DISCARD_BUY: lambda: refused(may_i(), Buy(1)),
    Problem.BUY_LIMIT: lambda: refused(bought_once(), Buy(0)),
    Problem.STOCK_TOO_LOW: lambda: refused(*low_stock()),
    Problem.ALREADY_ASKED: lambda: refused(play(may_i(), Buy(0)), Buy(0)),
    Problem.CALL_TOO_LATE: lambda: refused(play(two_down(), DrawStock(0)), Call(1, card("2C"))),
    Problem.CALLS_OFF: lambda: refused(two_down(BRITISH), Call(1, card("2C"))),
    Problem.NOTHING_TO_CALL: lambda: refused(two_down(seat_2_discard="JD"), Call(1, card("2C"))),
    Problem.OWN_DISCARD_CALL: lambda: refused(two_down(), Call(2, card("6H"))),
    Problem.LIVERPOOL_NOT_DOWN: lambda: refused(*seat_0_calls(two_down())),
    Problem.LIVERPOOL_SHEDS: lambda: refused(two_down(), Call(1)),
    Problem.CARD_NOT_HELD: lambda: refused(two_down(), Call(1, card("6H"))),
    Problem.CALL_LAST_CARD: lambda: refused(
        two_down(
            seat_1="7H 7S 7D 7S#1 7H#1 8H 8S 8D 8C 9H",
            seat_1_melds=("set: 7H 7S 7D 7S#1 7H#1", "set: 8H 8S 8D 8C"),
            seat_1_discard="QD",
        ),
        Call(1, card("9H")),
    ),
    Problem.RUMMY_SHEDS_NONE: lambda: refused(
        *seat_0_calls(two_down(dataclasses.replace(LIVERPOOL, discard_call=DiscardCall.RUMMY)))
    ),
    Problem.LAY_OFF_NOT_DOWN: lambda: refused(drawn(), LayOff(1, card("2C"), 0)),
    Problem.LAY_OFF_TAKEN_FIRST: lambda: refused(
        play(liverpool_swap(dataclasses.replace(NORSK, upcard=True)), SwapJoker(2, card("6C"), 1, card("JK#1"))),
        LayOff(2, card("7D"), 0),
    ),
    Problem.NO_SUCH_MELD: lambda: refused(gone_down(), LayOff(1, card("2C"), 9)),
    Problem.RECLAIMED_OWN_MELDS: lambda: refused(
        play(british_swap(), SwapJoker(2, card("7D"), 0, card("JK"))), LayOff(2, card("JK"), 1, None)
    ),
    Problem.RECLAIMED_STRANDED: lambda: refused(
        play(taken_swap(), SwapJoker(2, card("6C"), 1, card("JK#1")), LayOff(2, card("7D"), 0, None)),
        LayOff(2, card("8C"), 2, None),
    ),
    Problem.SWAPS_OFF: lambda: refused(
        jokers_down(
            dataclasses.replace(BRITISH, joker_swap=JokerSwap.NEVER),
            "7D 9C 8H 8S 4H 4D 4S 2S 2D 2H",
            0,
            "set: 7H 7S JK",
            "set: 9H 9S JK#1",
        ),
        SwapJoker(2, card("7D"), 0, card("JK")),
    ),
    Problem.SWAP_GOING_DOWN_ONLY: lambda: refused(
        play(may_i_swap(), go_down(2, "set: 4H 4D 4S", "set: 2S 2D 2H")), SwapJoker(2, card("9C"), 1, card("JK#1"))
    ),
    Problem.SWAP_ONCE_DOWN: lambda: refused(
        jokers_down(LIVERPOOL, "8H 8S 8D 9C 10C JC QC 6C 7D 5S", 1, "set: 7H 7S JK", "run: 4C 5C JK#1 7C"),
        SwapJoker(2, card("6C"), 1, card("JK#1")),
    ),
    Problem.SWAP_DOWN_EARLIER_NOT_NOW: lambda: refused(contract_swap(), SwapJoker(2, card("6C"), 1, card("JK"))),
    Problem.SWAP_DOWN_EARLIER: lambda: refused(contract_swap(down=False), SwapJoker(2, card("6C"), 1, card("JK"))),
    Problem.SET_JOKERS_DEAD: lambda: refused(liverpool_swap(), SwapJoker(2, card("7D"), 0, card("JK"))),
    Problem.NOT_A_JOKER_OF: lambda: refused(liverpool_swap(), SwapJoker(2, card("6C"), 1, card("7C"))),
    Problem.SWAP_FOR_NATURAL: lambda: refused(
        liverpool_swap(seat_2="8H 8S 8D 9C 10C JC QC JK#2 7D 5S"), SwapJoker(2, card("JK#2"), 1, card("JK#1"))
    ),
    Problem.JOKER_STANDS_FOR: lambda: refused(liverpool_swap(), SwapJoker(2, card("5S"), 1, card("JK#1"))),
    Problem.SWAP_UNPLAYABLE_GOING_DOWN: lambda: refused(
        may_i_cannot_go_down(), SwapJoker(0, card("9C#1"), 1, card("JK#1"))
    ),
    Problem.SWAP_UNPLAYABLE_AT_ONCE: lambda: refused(
        taken_stuck(dataclasses.replace(LIVERPOOL, joker_swap_place=JokerSwapPlace.AT_ONCE)), TAKEN_SWAP
    ),
    Problem.SWAP_UNPLAYABLE_AT_ONCE_OWN: lambda: refused(british_stranded(), SwapJoker(2, card("6C"), 0, card("JK#2"))),
    Problem.SWAP_UNPLAYABLE_THIS_TURN: lambda: refused(taken_stuck(), TAKEN_SWAP),
    Problem.SWAP_UNPLAYABLE_THIS_TURN_OWN: lambda: refused(
        taken_stuck(dataclasses.replace(LIVERPOOL, joker_swap_target=JokerSwapTarget.OWN_MELDS)), TAKEN_SWAP
    ),
    Problem.TAKEN_NOT_DISCARDED: lambda: refused(
        play(deal(LIVERPOOL, 3, upcard="KD"), DrawDiscard(1)), Discard(1, card("KD"))
    ),
    Problem.FLOATER_TAKEN: lambda: refused(taken_floater(), Discard(1, card("3D"))),
    Problem.FLOATER_FITS: lambda: refused(floated("7S#1"), Discard(1, card("7S#1"))),
}


def test_every_problem_has_a_situation() -> None:
    assert set(SITUATIONS) == set(Problem)


@pytest.mark.parametrize("code", list(Problem), ids=str)
def test_each_problem_is_met_in_a_real_situation(code: Problem) -> None:
    fault = SITUATIONS[code]()
    assert fault is not None and fault.code is code, fault
    wire = fault.to_dict()
    assert wire["code"] == code.value and set(wire["params"]) == set(fault.params)
    assert fault.text() and "{" not in fault.text()


def test_a_fault_without_parameters_says_its_own_sentence_each_time() -> None:
    """The sentence of a fault without parameters is made once and kept (every refusal's exception says it, the
    listing's quiet checks too): kept or new, it is that problem's sentence; a fault with parameters still says
    its own values."""
    plain = [code for code in Problem if not any(f for _, f, _, _ in string.Formatter().parse(ENGLISH[code]))]
    assert len(plain) > 10
    for code in plain:
        assert Fault(code).text() == ENGLISH[code].format(), code
        assert Fault(code).text() == ENGLISH[code].format(), code
    assert "2" in Fault(Problem.BUY_LIMIT, {"limit": 2}).text()
    assert "3" in Fault(Problem.BUY_LIMIT, {"limit": 3}).text()


def test_a_lay_off_that_does_not_fit_says_the_grown_melds_fault() -> None:
    """RULES.md §3.4 set constraints: 2C laid off does not join the set of sevens; the refusal names the card and
    the rank."""
    fault = refused(gone_down(), LayOff(1, card("2C"), 0, None))
    assert fault.to_dict() == {"code": "set_wrong_rank", "params": {"card": {"card": "2C"}, "rank": {"rank": 7}}}


def test_every_refusal_of_a_well_formed_action_has_its_fault() -> None:
    """Seeded games of every preset, each step tried with the fuzzer's illegal and mutated actions: every refusal
    a player can meet (all but a malformed action's and a chance action's) carries a fault, and its English
    ``detail`` is the fault's sentence, so a client says it in its own language (docs/i18n.md)."""
    seen: set[str] = set()
    mutators = [m for name, m in fuzz.MUTATORS.items() if name != "wrong_type"]
    for number, rules in enumerate(PRESETS.values()):
        rng = random.Random(number)
        state = new_game(rules, 3 if not rules.partnerships else 4, first_dealer=0)
        for _ in range(160):
            if state.is_over:
                break
            if is_chance(state):
                apply(state, chance_action(state, rng))
                continue
            listed = legal_actions(state)
            for mutate in mutators:
                action = mutate(state, listed, rng)
                if action is None or isinstance(action, Shuffle | Reshuffle):
                    continue
                err = refusal(state, action)
                if err is None or err.reason in (Reason.MALFORMED, Reason.BAD_CHANCE):
                    continue
                assert err.fault is not None, err
                assert err.detail == err.fault.text()
                seen.add(err.fault.code.value)
            apply(state, fuzz.choose_legal(state, listed, rng))
    assert len(seen) >= 15, sorted(seen)
