"""The fast contract search against its specification, ``liverpool.engine.search.reference``, on a
committed corpus of questions (``tests/data/search_corpus.json``): small hands dealt from each preset's
shoe for the two-meld contracts of deals 1 to 3, with and without jokers, ``keep`` and a card that must be
laid. The corpus holds each question's answer as the reference gave it when it was recorded, so a change
of either side shows: the reference must still give it, and the fast search must agree with the reference.

Re-record (only with a reason, in the commit body): ``python tests/search/test_reference.py --write``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from liverpool.engine import PRESETS, best_leftover, can_meet, find_arrangements, format_cards, make_shoe, parse_cards
from liverpool.engine.search.reference import face_melds, penalty_left, reference_arrangements

CORPUS = Path(__file__).resolve().parents[1] / "data" / "search_corpus.json"
PER_PRESET = 40


def _questions() -> list[dict[str, Any]]:
    out = []
    for name, rules in PRESETS.items():
        rng = random.Random(f"reference corpus {name}")
        deck = rules.decks[0]
        shoe = list(make_shoe(deck.decks, deck.jokers))
        for i in range(PER_PRESET):
            deal = i % 3
            hand = _planted(rng, shoe, rules.contract(deal)) if rng.random() < 0.7 else rng.sample(shoe, 8)
            question: dict[str, Any] = {"preset": name, "deal": deal, "hand": format_cards(hand)}
            roll = rng.random()
            if roll < 0.2:
                question["keep"] = 1
            elif roll < 0.35:
                question["must_include"] = format_cards([rng.choice(hand)])
            out.append(question)
    return out


def _planted(rng: random.Random, shoe: list[Any], contract: Any) -> list[Any]:
    """A hand that holds most of a meld of each kind the contract asks (a joker maybe standing in), and a
    few other cards: about half such hands meet the contract."""
    left = list(shoe)
    hand: list[Any] = []
    for meld in contract:
        if meld.kind.value == "set":
            rank = rng.randint(1, 13)
            wanted = [c for c in left if c.rank == rank][: meld.length]
        else:
            suit, low = rng.randint(0, 3), rng.randint(1, 10)
            wanted = []
            for rank in range(low, low + meld.length):
                wanted += [c for c in left if c.suit == suit and c.rank == rank][:1]
        jokers = [c for c in left if c.is_joker]
        if rng.random() < 0.3 and wanted and jokers:
            wanted[rng.randrange(len(wanted))] = jokers[0]
        for card in wanted:
            left.remove(card)
        hand += wanted
    hand += rng.sample(left, rng.randint(1, 3))
    rng.shuffle(hand)
    return hand


def _ask(question: dict[str, Any]) -> tuple[Any, ...]:
    rules = PRESETS[question["preset"]]
    hand = parse_cards(question["hand"])
    options: dict[str, Any] = {"keep": question.get("keep", 0)}
    if "must_include" in question:
        options["must_include"] = parse_cards(question["must_include"])[0]
    return hand, rules.contract(question["deal"]), rules, options


def _reference_answer(question: dict[str, Any]) -> dict[str, Any]:
    hand, contract, rules, options = _ask(question)
    every = reference_arrangements(hand, contract, rules, **options)
    return {"leftover": min(every.values()) if every else None, "arrangements": len(every)}


def _corpus() -> list[dict[str, Any]]:
    return json.loads(CORPUS.read_text(encoding="utf-8"))


def test_the_corpus_covers_every_preset_and_both_answers() -> None:
    corpus = _corpus()
    assert {q["preset"] for q in corpus} == set(PRESETS)
    met = sum(q["answer"]["leftover"] is not None for q in corpus)
    assert 0.2 * len(corpus) < met < 0.9 * len(corpus)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_reference_still_gives_the_recorded_answers(preset: str) -> None:
    for question in (q for q in _corpus() if q["preset"] == preset):
        assert _reference_answer(question) == question["answer"], question


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_fast_search_agrees_with_the_reference(preset: str) -> None:
    for question in (q for q in _corpus() if q["preset"] == preset):
        hand, contract, rules, options = _ask(question)
        every = reference_arrangements(hand, contract, rules, **options)
        best = min(every.values()) if every else None
        assert best_leftover(hand, contract, rules, **options) == best, question
        assert can_meet(hand, contract, rules, **options) == (best is not None), question
        found = find_arrangements(hand, contract, rules, **options, limit=None)
        assert {face_melds(a) for a in found} == set(every), question
        assert [penalty_left(hand, a, rules) for a in found] == sorted(every.values()), question


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    recorded = [{**q, "answer": _reference_answer(q)} for q in _questions()]
    CORPUS.write_text(json.dumps(recorded, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(recorded)} questions to {CORPUS}")
