"""Scenario checks of the contract search's quick test (``search.feasible.surely_unmet``) on whole-hand
contracts: it may only rule out hands that truly cannot meet the contract, and the exact search must agree
(RULES.md §3.20 final deal: the contract must use the whole hand; set constraints: sets of 3-4 cards)."""

from __future__ import annotations

import dataclasses

from liverpool.engine.cards import parse_cards
from liverpool.engine.rules.parts import MeldRule
from liverpool.engine.rules.presets import find_preset
from liverpool.engine.search import can_meet
from liverpool.engine.search.feasible import surely_unmet

SETS_OF_THREE = (MeldRule.parse("set 3"), MeldRule.parse("set 3"))


def test_one_rank_may_fill_two_sets_when_sets_are_capped() -> None:
    # Six sevens, sets of at most four cards: the whole hand goes as two sets of three sevens, though the
    # rank holds more cards than one set may.
    rules = dataclasses.replace(find_preset("liverpool"), set_max_length=4)
    hand = parse_cards("7C 7D 7H 7S 7C#1 7D#1")
    assert can_meet(hand, SETS_OF_THREE, rules, whole_hand=True)
    assert not surely_unmet(hand, SETS_OF_THREE, rules, whole_hand=True)


def test_a_capped_rank_cannot_fill_the_only_set_it_is_given() -> None:
    # Five sevens and three kings for two sets of at most four: each rank gets one set, and five sevens do
    # not fit in one.
    rules = dataclasses.replace(find_preset("liverpool"), set_max_length=4)
    hand = parse_cards("7C 7D 7H 7S 7C#1 KC KD KH")
    assert not can_meet(hand, SETS_OF_THREE, rules, whole_hand=True)
    assert surely_unmet(hand, SETS_OF_THREE, rules, whole_hand=True)


def test_whole_hand_runs_need_the_jokers_between_a_suits_ends() -> None:
    # Three runs for the whole hand: clubs and diamonds need no joker; the spades hold a run of four, but
    # all five must go in one run, 4S to 9S, which needs a joker for the 8S.
    rules = find_preset("liverpool")
    runs = tuple(MeldRule.parse("run 4") for _ in range(3))
    short = parse_cards("2C 3C 4C 5C 2D 3D 4D 5D 4S 5S 6S 7S 9S")
    assert not can_meet(short, runs, rules, whole_hand=True)
    assert surely_unmet(short, runs, rules, whole_hand=True)
    enough = parse_cards("2C 3C 4C 5C 2D 3D 4D 5D 4S 5S 6S 7S 9S JK")
    assert can_meet(enough, runs, rules, whole_hand=True)
    assert not surely_unmet(enough, runs, rules, whole_hand=True)
