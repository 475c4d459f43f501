"""Rules at hand (issue 28.3): each preset's summary and every ruleset in words, written by the engine from
the field registry (engine/rulestext.py), never by a client."""

from __future__ import annotations

import dataclasses
import re

import pytest

from liverpool.engine import PRESETS, field_registry
from liverpool.engine.rules.parts import Buying, DiscardCall
from liverpool.engine.rules.text import SENTENCES, contract_words, rules_in_words, summary

NAMES = list(PRESETS)
DATA_WORDS = re.compile(r"\b[a-z]+_[a-z_]+\b|\bNone\b|\btrue\b|\bfalse\b|[{}\[\]]")


def test_every_registry_field_has_a_sentence_maker() -> None:
    assert list(SENTENCES) == [info.name for info in field_registry()]


@pytest.mark.parametrize("name", NAMES)
def test_the_summary_gives_contracts_hands_buying_calls_and_jokers(name: str) -> None:
    rules = PRESETS[name]
    contracts, hands, buying, calls, jokers = summary(rules)
    for i, deal in enumerate(rules.deals):
        assert f"eal {i + 1}: {contract_words(deal.contract)}" in contracts
    assert all(str(d.hand_size) in hands for d in rules.deals)
    assert buying.startswith("Buying: ") and ("nobody" in buying) == (rules.buying is Buying.NONE)
    if rules.buy_limit is not None:
        assert f"at most {rules.buy_limit} buys a deal" in buying
    assert calls.startswith("Calls: ") and ("no call" in calls) == (rules.discard_call is DiscardCall.NONE)
    assert jokers.startswith("Jokers: ") and f"a set needs {rules.set_min_naturals} natural" in jokers


@pytest.mark.parametrize("name", NAMES)
def test_every_rule_is_a_sentence_not_data(name: str) -> None:
    rules = PRESETS[name]
    groups = rules_in_words(rules)
    assert [g for g, _ in groups][:2] == ["Seats and decks", "Deals"]
    for group, sentences in groups:
        for text in sentences:
            if group == "Notes":
                continue  # (the preset's own notes, as written)
            assert text[:1].isupper() and text.endswith("."), (group, text)
            assert not DATA_WORDS.search(text), (group, text)


def test_a_changed_field_changes_its_sentence() -> None:
    """RULES.md §3.11 discard optional: the words follow the ruleset, not the preset's name."""
    base = PRESETS["liverpool"]
    changed = dataclasses.replace(base, discard_optional=True, buy_limit=2)
    words = dict(rules_in_words(changed))
    assert "A turn may end without a discard." in words["Drawing and discarding"]
    assert "A turn ends with a discard." in dict(rules_in_words(base))["Drawing and discarding"]
    assert "at most 2 buys a deal" in summary(changed)[2]
