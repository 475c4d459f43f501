"""The contract-search corpus, and timing of the engine's search and of the oracle on it.

The corpus is fixed by its size and seed. Hand ``i`` takes the ``i``-th (preset, deal) of every deal of
every preset in turn, so each contract is asked about equally often, and asks the question the engine
asks when that deal's player goes down (``liverpool.engine.game.checks.go_down_question``): a whole hand in a
final deal that needs one, otherwise keeping a card to discard where the preset requires it. A hand has
13 to 20 cards, 0 to 4 of them jokers; its naturals are drawn from one of the preset's shoes, a third of
the hands from all of it, a third from two suits only (rich in runs) and a third from five ranks only
(rich in sets), so that a good share of the hands can meet their contract.

Each answer is timed in CPU time of the process (``time.process_time_ns``), which other load on a
shared machine inflates less than wall time; on an idle core the two agree.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from liverpool.engine import (
    PRESETS,
    Card,
    DealOut,
    EmptyHand,
    Meld,
    MeldKind,
    Ruleset,
    best_leftover,
    contract_problem,
    make_shoe,
)

STYLES = ("whole shoe", "two suits", "five ranks")


@dataclass(frozen=True)
class Case:
    preset: str
    deal: int
    style: str
    hand: tuple[Card, ...]
    whole_hand: bool
    keep: int

    @property
    def rules(self) -> Ruleset:
        return PRESETS[self.preset]


def question(rules: Ruleset, deal: int) -> tuple[bool, int]:
    """``(whole_hand, keep)`` as the engine asks them when going down in ``deal``
    (``liverpool.engine.game.checks.go_down_question``): by the deal's out (``Ruleset.deal_out``), which is
    the deal's own or, in the last deal, ``final_deal``'s."""
    out = rules.deal_out(deal)
    if out is DealOut.WHOLE_HAND:
        return True, 0
    if out is DealOut.GOES_OUT:
        return False, 0
    return False, 1 if rules.empty_hand is EmptyHand.MUST_DISCARD else 0


def corpus(size: int, seed: int) -> list[Case]:
    contracts = [(name, deal) for name, rules in PRESETS.items() for deal in range(len(rules.deals))]
    cases = []
    for i in range(size):
        name, deal = contracts[i % len(contracts)]
        rules = PRESETS[name]
        rng = random.Random(f"{seed}:{i}")
        style = STYLES[(i // len(contracts)) % len(STYLES)]
        naturals = list(make_shoe(rng.choice(rules.decks).decks, 0))
        if style == "two suits":
            suits = rng.sample("CDHS", 2)
            naturals = [c for c in naturals if c.suit in suits]
        elif style == "five ranks":
            ranks = rng.sample(range(1, 14), 5)
            naturals = [c for c in naturals if c.rank in ranks]
        cards = rng.randint(13, 20)
        jokers = rng.randint(0, 4)
        hand = (*rng.sample(naturals, cards - jokers), *(Card.joker(copy) for copy in range(jokers)))
        cases.append(Case(name, deal, style, hand, *question(rules, deal)))
    return cases


def run_ours(cases: list[Case]) -> Iterator[tuple[int | None, int]]:
    """``(least penalty or None, nanoseconds)`` of ``best_leftover`` for each case."""
    clock = time.process_time_ns
    for case in cases:
        rules = case.rules
        contract = rules.contract(case.deal)
        start = clock()
        answer = best_leftover(case.hand, contract, rules, whole_hand=case.whole_hand, keep=case.keep)
        yield answer, clock() - start


def run_oracle(cases: list[Case]) -> Iterator[tuple[int | None, int, str | None]]:
    """``(least penalty or None, nanoseconds, problem)`` of the oracle for each case; ``problem`` says what
    is wrong with the oracle's own melds (checked with the engine's ``contract_problem``), if anything."""
    from oracle import least_penalty  # the benchmark venv's OR-Tools, imported only here

    clock = time.process_time_ns
    for case in cases:
        rules = case.rules
        contract = rules.contract(case.deal)
        start = clock()
        answer = least_penalty(case.hand, contract, rules, whole_hand=case.whole_hand, keep=case.keep)
        elapsed = clock() - start
        yield answer.penalty, elapsed, _certificate_problem(case, answer.melds, answer.penalty)


def _certificate_problem(case: Case, melds: tuple[Any, ...], penalty: int | None) -> str | None:
    """Whether the oracle's melds are a real going-down of ``case`` that leaves ``penalty``."""
    if penalty is None:
        return None
    rules = case.rules
    copies: dict[int, list[Card]] = {}
    for card in case.hand:
        copies.setdefault(card.face, []).append(card)
    laid: list[Meld] = []
    for meld in melds:
        faces: tuple[int, ...] = meld.faces
        if any(not copies.get(f) for f in faces):
            return f"the oracle lays faces the hand lacks: {faces}"
        cards = tuple(copies[f].pop() for f in faces)
        laid.append(Meld(MeldKind(meld.kind), cards, meld.low))
    problem = contract_problem(laid, rules.contract(case.deal), rules)
    if problem is not None:
        return problem
    left = [c for pile in copies.values() for c in pile]
    if case.whole_hand and left:
        return f"a whole hand was asked but {len(left)} cards are left"
    if len(left) < case.keep:
        return f"{case.keep} cards must stay in hand, {len(left)} do"
    shown = 0 if case.whole_hand else sum(rules.value(c) for c in left)
    return None if shown == penalty else f"the melds leave {shown} points, not {penalty}"


def summary(nanoseconds: list[int]) -> dict[str, float]:
    """Median, p99 and mean in microseconds."""
    us = sorted(n / 1000 for n in nanoseconds)
    return {
        "median_us": statistics.median(us),
        "p99_us": us[min(len(us) - 1, round(0.99 * (len(us) - 1)))],
        "mean_us": statistics.fmean(us),
        "max_us": us[-1],
    }


def describe(cases: list[Case], answers: list[int | None]) -> dict[str, object]:
    """How many hands of each style, and how many could meet their contract."""
    feasible = Counter(case.style for case, a in zip(cases, answers, strict=True) if a is not None)
    styles = Counter(case.style for case in cases)
    return {
        "hands": len(cases),
        "contracts": len({(c.preset, c.deal) for c in cases}),
        "whole_hand_questions": sum(c.whole_hand for c in cases),
        "feasible": sum(feasible.values()),
        "feasible_by_style": {s: f"{feasible[s]}/{styles[s]}" for s in STYLES},
    }
