"""The value search reads each contract's facts from a kept kit (``search.kit``): checked against the rules
and the contract read directly, for every deal of every preset (RULES.md §2 standard contracts), and the
kit kept for one ruleset is never handed out for another."""

from __future__ import annotations

import dataclasses

from liverpool.engine.cards import JOKER_FACE
from liverpool.engine.rules.parts import MeldKind
from liverpool.engine.rules.presets import PRESETS
from liverpool.engine.search.candidates import face_weights, lengths_allowed
from liverpool.engine.search.kit import value_shape
from liverpool.engine.search.members import rank_fields


def test_kits_hold_what_the_rules_say() -> None:
    for rules in PRESETS.values():
        for deal in range(len(rules.deals)):
            contract = rules.contract(deal)
            shape = value_shape(contract, rules)
            runs = [r.length for r in contract if r.kind is MeldKind.RUN]
            sets = [r.length for r in contract if r.kind is MeldKind.SET]
            assert (shape.run_slots, shape.set_slots) == (len(runs), len(sets))
            assert shape.uneven == (len(set(runs)) > 1 or len(set(sets)) > 1)
            for width in (2, 3, 4):
                for whole in (False, True):
                    kit = shape.kit(width, whole)
                    assert kit.weights == face_weights(rules.card_values, whole)
                    assert kit.run_lengths == lengths_allowed(contract, MeldKind.RUN, rules)
                    assert kit.set_rules.lengths == lengths_allowed(contract, MeldKind.SET, rules)
                    assert kit.set_rules.joker_weight == kit.weights[JOKER_FACE]
                    assert (kit.run_rules.width, kit.run_rules.min_naturals) == (width, rules.run_min_naturals)
                    assert kit.runs_tabled == (len(runs) == 1 or rules.run_distinct_suits)
                    assert kit.set_most == (1 if rules.set_distinct_ranks else len(sets))
                    assert kit.rank_fields[1:] == [rank_fields(rank, width) for rank in range(1, 14)]
                    assert kit.suit_fields == [((1 << (13 * width)) - 1) << (suit * 13 * width) for suit in range(4)]
                    assert shape.kit(width, whole) is kit
                    assert kit.book(1, 0) is kit.book(1, 2) is kit.run_rules.book(1, 3)


def test_a_kit_is_kept_for_its_own_ruleset_only() -> None:
    rules = PRESETS["liverpool"]
    other = dataclasses.replace(rules, run_min_naturals=2)
    contract = rules.contract(2)
    for _ in range(3):
        assert value_shape(contract, rules).kit(2, False).run_rules.min_naturals == rules.run_min_naturals
        assert value_shape(contract, other).kit(2, False).run_rules.min_naturals == 2
    assert value_shape(list(contract), rules) is not value_shape(list(contract), rules)
