"""How long the contract search takes per hand, on a fixed seeded corpus (a script, not a test).

The corpus: hands of 13-20 cards with 0-4 jokers, dealt from each preset's largest shoe, for every
contract of every preset in turn; the options are those the engine passes when a seat goes down (the
whole hand in a final deal that asks for it, one card kept where the hand may not be emptied).

``python benchmarks/search.py [--hands N] [--seed S]`` prints microseconds per hand for each function:
``cold`` is the first call on each hand (the shape caches emptied before the first hand), ``warm`` the
best of three more calls. :func:`measure` returns the same figures for other scripts.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from liverpool.engine import (
    PRESETS,
    Card,
    EmptyHand,
    FinalDeal,
    MeldRule,
    Ruleset,
    best_leftover,
    can_meet,
    find_arrangements,
    make_shoe,
    run_shapes,
    set_shapes,
)

REPEATS = 3


@dataclass(frozen=True)
class Case:
    rules: Ruleset
    contract: tuple[MeldRule, ...]
    hand: tuple[Card, ...]
    whole_hand: bool
    keep: int


def corpus(n_hands: int, seed: int) -> list[Case]:
    """``n_hands`` seeded hands, cycling through every contract of every preset."""
    rng = random.Random(seed)
    deals = [(rules, i) for rules in PRESETS.values() for i in range(len(rules.deals))]
    cases = []
    for n in range(n_hands):
        rules, deal = deals[n % len(deals)]
        shoe = make_shoe(rules.decks[-1].decks, max(rules.decks[-1].jokers, 4))
        jokers = rng.randint(0, 4)
        naturals = rng.sample([c for c in shoe if not c.is_joker], rng.randint(13, 20) - jokers)
        hand = (*naturals, *rng.sample([c for c in shoe if c.is_joker], jokers))
        whole = rules.is_final(deal) and rules.final_deal is FinalDeal.WHOLE_HAND
        keep = 1 if rules.empty_hand is EmptyHand.MUST_DISCARD and not whole else 0
        cases.append(Case(rules, rules.deals[deal].contract, hand, whole, keep))
    return cases


SEARCHES: dict[str, Callable[[Case], object]] = {
    "can_meet": lambda c: can_meet(c.hand, c.contract, c.rules, whole_hand=c.whole_hand, keep=c.keep),
    "best_leftover": lambda c: best_leftover(c.hand, c.contract, c.rules, whole_hand=c.whole_hand, keep=c.keep),
    "find_arrangements": lambda c: find_arrangements(c.hand, c.contract, c.rules, whole_hand=c.whole_hand, keep=c.keep),
}


def _summary(seconds: Sequence[float]) -> dict[str, float]:
    ordered = sorted(s * 1e6 for s in seconds)
    return {
        "median": statistics.median(ordered),
        "p90": ordered[int(len(ordered) * 0.9)],
        "p99": ordered[int(len(ordered) * 0.99)],
        "max": ordered[-1],
        "mean": statistics.fmean(ordered),
    }


def _time(search: Callable[[Case], object], case: Case) -> float:
    start = time.perf_counter()
    search(case)
    return time.perf_counter() - start


def measure(n_hands: int = 2000, seed: int = 1) -> dict[str, Any]:
    """Microseconds per hand (``median``, ``p90``, ``p99``, ``max``, ``mean``) of each search on the corpus,
    ``cold`` and ``warm``; also how many hands meet their contract."""
    cases = corpus(n_hands, seed)
    out: dict[str, Any] = {"hands": n_hands, "seed": seed, "met": sum(bool(SEARCHES["can_meet"](c)) for c in cases)}
    enabled = gc.isenabled()
    gc.disable()
    try:
        for name, search in SEARCHES.items():
            run_shapes.cache_clear()
            set_shapes.cache_clear()
            cold = [_time(search, case) for case in cases]
            warm = [min(_time(search, case) for _ in range(REPEATS)) for case in cases]
            out[name] = {"cold": _summary(cold), "warm": _summary(warm)}
    finally:
        if enabled:
            gc.enable()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = measure(args.hands, args.seed)
    print(f"{result['hands']} hands (seed {result['seed']}), {result['met']} meet their contract; µs per hand")
    print(f"{'search':<18} {'':<5} {'median':>8} {'p90':>8} {'p99':>8} {'max':>9} {'mean':>8}")
    for name in SEARCHES:
        for when in ("cold", "warm"):
            s = result[name][when]
            print(
                f"{name:<18} {when:<5} {s['median']:8.1f} {s['p90']:8.1f} {s['p99']:8.1f} {s['max']:9.1f} {s['mean']:8.1f}"
            )


if __name__ == "__main__":
    main()
