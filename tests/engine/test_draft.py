"""Drafts of a going-down (engine/draft.py): what the browser's builder asks the engine instead of checking
melds itself. Situations are dealt with ``helpers.deal`` (3 seats, seat 1 plays first)."""

from __future__ import annotations

import dataclasses

import pytest
from helpers import cards, deal, play

from liverpool.engine import DrawStock, apply, draft_go_down, find_preset, joker_stands, meld_label
from liverpool.engine.melds import Meld

LIVERPOOL = find_preset("liverpool")
BRITISH = find_preset("british")


def drawn(rules=LIVERPOOL, hand="7H 7S JK 9C 9D 9S 2C 3C 4C 5C", deal_no=0):  # type: ignore[no-untyped-def]
    state = deal(rules, 3, hands=[None, hand], stock_top="KD", deal_no=deal_no)
    return play(state, DrawStock(1))


def test_a_ready_draft_gives_the_go_down_the_engine_accepts() -> None:
    """RULES.md §2 standard contracts: deal 1 is two sets of 3."""
    state = drawn()
    draft = draft_go_down(state, 1, [cards("7H 7S JK"), cards("9C 9D 9S")])
    assert draft.problem is None and draft.go_down is not None
    assert [m.label for m in draft.melds] == ["set of 7s", "set of 9s"]
    assert draft.melds[0].stands == (None, None, "7")
    apply(state, draft.go_down)
    assert state.down[1]


def test_each_meld_says_what_is_missing() -> None:
    draft = draft_go_down(drawn(), 1, [cards("7H 7S"), []])
    assert draft.melds[0].problems == ("needs 1 more card",)
    assert draft.melds[1].problems == ("needs 3 more cards", "needs a natural card")
    assert draft.go_down is None and draft.problem == "set 1 needs 1 more card"


def test_the_engines_meld_rules_are_the_ones_checked() -> None:
    """RULES.md §3.7 joker limits: a set needs >= 2 naturals (001a)."""
    draft = draft_go_down(drawn(hand="7H JK JK#1 9C 9D 9S 2C 3C 4C 5C"), 1, [cards("7H JK JK#1"), cards("9C 9D 9S")])
    assert draft.melds[0].problems == ("a set needs at least 2 natural cards, this one has 1",)
    mixed = draft_go_down(drawn(), 1, [cards("7H 7S 9C"), []])
    assert "mixes ranks: a set is of one rank" in mixed.melds[0].problems


def test_the_whole_going_down_is_refused_as_apply_would() -> None:
    """RULES.md §3.4 set constraints: sets of a contract must be different ranks (000, may-i)."""
    may_i = find_preset("may-i")
    state = drawn(may_i, hand="7H 7S 7D 7C JK 7H#1 2C 3C 4C 5C")
    draft = draft_go_down(state, 1, [cards("7H 7S 7D"), cards("7C JK 7H#1")])
    assert all(not m.problems for m in draft.melds)
    assert draft.go_down is None and draft.problem == "the sets of a contract must be of different ranks"


def test_a_run_lists_every_way_it_could_lie() -> None:
    """RULES.md §1.2: aces low or high, never both; a joker's place is chosen."""
    state = drawn(hand="7H 7S JK 9C 9D 9S 2C 3C 4C 5C", deal_no=1)  # deal 2: set 3 + run 4
    draft = draft_go_down(state, 1, [cards("9C 9D 9S"), cards("2C 3C 4C JK")])
    run = draft.melds[1]
    assert run.placements == ("run A♣–4♣", "run 2♣–5♣")
    assert run.label == "run A♣–4♣" and run.stands == ("A♣", None, None, None)
    other = draft_go_down(state, 1, [cards("9C 9D 9S"), cards("2C 3C 4C JK")], [0, 1]).melds[1]
    assert other.choice == 1 and other.stands == (None, None, None, "5♣")


def test_a_run_of_two_suits_is_refused_with_a_reason() -> None:
    state = drawn(hand="7H 7S JK 9C 9D 9S 2C 3C 4C 5H", deal_no=1)
    run = draft_go_down(state, 1, [[], cards("2C 3C 4C 5H")]).melds[1]
    assert run.problems == ("mixes suits: a run is of one suit",) and run.meld is None


def test_aces_high_off_leaves_only_the_low_run() -> None:
    """RULES.md §1 what every version shares (aces_high false: a house rule)."""
    rules = dataclasses.replace(LIVERPOOL, aces_high=False)
    state = drawn(rules, hand="QC KC AC JK 9C 9D 9S 2C 3C 4C", deal_no=1)
    run = draft_go_down(state, 1, [[], cards("QC KC AC JK")]).melds[1]
    assert run.meld is None and run.problems  # J-Q-K-A would be aces high; A can't be low here


def test_labels_and_joker_stands_of_table_melds() -> None:
    meld = Meld.parse("run: 9H JK JH QH")
    assert meld_label(meld) == "run 9♥–Q♥" and joker_stands(meld) == (None, "10♥", None, None)
    assert meld_label(Meld.parse("set: KD KS JK")) == "set of Ks"
    assert BRITISH.buy_limit_for(6) == 3


@pytest.mark.parametrize(
    ("run", "label", "stands", "placements"),
    [
        ("5H JK 7H 8H", "run 5♥–8♥", (None, "6♥", None, None), ("run 5♥–8♥",)),
        ("QS KS AS JK", "run J♠–A♠", ("J♠", None, None, None), ("run J♠–A♠",)),
        ("AD 2D JK 4D", "run A♦–4♦", (None, None, "3♦", None), ("run A♦–4♦",)),
        ("5C 6C 7C JK", "run 4♣–7♣", ("4♣", None, None, None), ("run 4♣–7♣", "run 5♣–8♣")),
    ],
)
def test_runs_lie_where_their_naturals_say(
    run: str, label: str, stands: tuple[str | None, ...], placements: tuple[str, ...]
) -> None:
    """RULES.md §1: runs in consecutive rank, aces low or high; a joker fills the gap or an end."""
    state = drawn(hand=f"9C 9D 9S {run} 2H 3H 4S", deal_no=1)
    part = draft_go_down(state, 1, [cards("9C 9D 9S"), cards(run)]).melds[1]
    assert (part.label, part.stands, part.placements, part.problems) == (label, stands, placements, ())


@pytest.mark.parametrize(
    ("run", "problem"),
    [("5H 6S 7H 8H", "mixes suits: a run is of one suit"), ("2H 3H 9H JK", "the cards are too far apart for one run")],
)
def test_runs_that_cannot_lie_say_why(run: str, problem: str) -> None:
    state = drawn(hand=f"9C 9D 9S {run} 2C 3C 4S", deal_no=1)
    assert draft_go_down(state, 1, [[], cards(run)]).melds[1].problems == (problem,)


def test_titles_and_placements_come_as_data_for_a_page_to_word() -> None:
    """What a page in another language words itself (docs/i18n.md): whether a meld may be longer than the
    contract's length (RULES.md §3.6 laying more than the minimum), the meld's words and each placement's words, the same
    as the English labels say."""
    state = drawn(hand="7H 7S JK 9C 9D 9S 2C 3C 4C 5C", deal_no=1)
    run = draft_go_down(state, 1, [cards("9C 9D 9S"), cards("2C 3C 4C JK")]).to_dict()["melds"][1]
    assert run["at_least"] is True and run["title"] == "Run 2: 4+ cards"
    assert run["placement_words"] == [
        {"kind": "run", "suit": "C", "low": 1, "high": 4},
        {"kind": "run", "suit": "C", "low": 2, "high": 5},
    ]
    assert run["words"] == run["placement_words"][0] and run["label"] == run["placements"][0]
    exact = dataclasses.replace(LIVERPOOL, longer_melds=False)
    part = draft_go_down(drawn(exact), 1, [cards("7H 7S JK"), []]).to_dict()["melds"][0]
    assert part["at_least"] is False and part["title"] == "Set 1: 3 cards"
    assert part["words"] == {"kind": "set", "rank": 7} and part["placement_words"] == []
