"""The engine's faults (engine/problems.py): each problem code is met in a real situation, with the
parameters a client words it from and the engine's English sentence (issue 28 item 7, docs/i18n.md).

Situations are melds under the shipped presets (or a house rule of one), drafts and going-downs of dealt
hands (``helpers.deal``: 3 seats, seat 1 plays first)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from helpers import cards, deal, go_down, melds, play

from liverpool.engine import (
    Discard,
    DrawDiscard,
    DrawStock,
    Fault,
    Problem,
    contract_fault,
    draft_go_down,
    find_preset,
    meld_fault,
    refusal,
)
from liverpool.engine.melds import Meld
from liverpool.engine.rules.parts import JoinableRuns, MeldKind, MeldRule

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
