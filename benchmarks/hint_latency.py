"""Hint latency: how long the coach takes to rank one seat's options at its default budget.

Seeded games of the default preset are played by ``medium`` bots at 4 seats; at every decision of seat 0
with more than one option, the coach (:class:`liverpool.coach.Coach` at its defaults) ranks the options,
and that call is timed on its own in CPU time of the process (``time.process_time``), so other load on
the machine does not inflate the figures. It stops after ``hints`` hints or ``budget`` seconds. Goal
(issue 30): p99 at most 1 s on one core. ``scripts/bench.sh`` runs it pinned to one core.

    python benchmarks/hint_latency.py [--hints 200] [--budget 300] [--seed 0] [--preset liverpool]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

from liverpool.bots.medium import MediumBot
from liverpool.coach import Coach
from liverpool.engine import DEFAULT_PRESET, Action, Observation, SeededChance, find_preset, run_game


class _Enough(Exception):
    """Hints or seconds used up: the game in progress stops here."""


def measure(hints: int = 200, budget_s: float = 300.0, seed: int = 0, preset: str = DEFAULT_PRESET) -> dict[str, Any]:
    """Seconds per hint (median, p99, max, mean) at the coach's default budget."""
    rules = find_preset(preset)
    coach = Coach()
    times: list[float] = []
    deadline = time.perf_counter() + budget_s
    medium = MediumBot()

    def seat0(observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        if len(times) >= hints or time.perf_counter() > deadline:
            raise _Enough
        if len(options) > 1:
            start = time.process_time()
            coach.advise(observation, options, seed=len(times))
            times.append(time.process_time() - start)
        return medium(observation, options, rng)

    game = seed
    while len(times) < hints and time.perf_counter() <= deadline:
        try:
            run_game(
                rules, [seat0, MediumBot(), MediumBot(), MediumBot()], random.Random(game), chance=SeededChance(game)
            )
        except _Enough:
            break
        game += 1
    ordered = sorted(times)
    return {
        "preset": rules.name,
        "worlds": coach.worlds,
        "candidates": coach.candidates,
        "hints": len(ordered),
        "median_s": statistics.median(ordered) if ordered else None,
        "p99_s": ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))] if ordered else None,
        "max_s": ordered[-1] if ordered else None,
        "mean_s": statistics.fmean(ordered) if ordered else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hints", type=int, default=200, help="hints to time")
    parser.add_argument("--budget", type=float, default=300.0, help="seconds at most")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--preset", default=DEFAULT_PRESET)
    args = parser.parse_args(argv)
    row = measure(args.hints, args.budget, args.seed, args.preset)
    if not row["hints"]:
        print("hint latency: no hint timed")
        return 1
    print(
        f"hint latency ({row['preset']}, {row['worlds']} worlds, {row['candidates']} options): {row['hints']} hints, "
        f"median {row['median_s'] * 1e3:.0f} ms, p99 {row['p99_s'] * 1e3:.0f} ms, max {row['max_s'] * 1e3:.0f} ms, "
        f"mean {row['mean_s'] * 1e3:.0f} ms (goal: p99 <= 1000 ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
