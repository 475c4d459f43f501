"""Calibrating the coach's judgements on games between bots (issue 30; figures in ``docs/coach.md``).

Seeded games of the default preset are played by the bots named (one per seat); the coach, at its
default budget, reviews every seat's decisions in the first ``deals`` deals of each game. For each
decision with more than one option measured, ``excess`` is the expected points the option played lost
against the best one beyond its standard error (0 when it was the best). The script prints, per bot, the
quantiles of ``excess`` and how often each judgement falls with the thresholds in force, and the
thresholds this sample suggests: an inaccuracy from the 97th and a mistake from the 99.5th percentile of
the strongest bot's (the first named) excess, so that it is told of at most about one inaccuracy in thirty
decisions and a mistake in two hundred; a blunder from just above the largest excess of any bot in the
sample, so that bots playing one another at the default budget do not blunder. Each rounded up to a point.

    python benchmarks/coach_calibration.py [--games 2] [--deals 2] [--bots hard,medium,medium,easy] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

from liverpool.bots.registry import make_bot
from liverpool.coach import THRESHOLDS, Coach, Judgement, review_record
from liverpool.engine import DEFAULT_PRESET, GameRecord, SeededChance, find_preset, run_game


def _quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--deals", type=int, default=2, help="deals reviewed per game (from the first)")
    parser.add_argument("--bots", default="hard,medium,medium,easy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--preset", default=DEFAULT_PRESET)
    args = parser.parse_args(argv)
    rules = find_preset(args.preset)
    names = args.bots.split(",")
    coach = Coach()
    excess: dict[str, list[float]] = {name: [] for name in names}
    judged: dict[str, list[Judgement]] = {name: [] for name in names}
    start = time.perf_counter()
    for game in range(args.seed, args.seed + args.games):
        state = run_game(rules, [make_bot(n) for n in names], random.Random(game), chance=SeededChance(game))
        record = GameRecord.of(state, names)
        for seat, name in enumerate(names):
            review = review_record(record, seat, coach, seed=game, deals=range(args.deals))
            for decision in review.decisions:
                if len(decision.advice.options) < 2:
                    continue
                excess[name].append(max(0.0, decision.lost))
                judged[name].append(decision.judgement)
        print(f"game {game}: reviewed, {time.perf_counter() - start:.0f} s so far", file=sys.stderr)
    print(f"coach: {coach.settings}; thresholds in force: {THRESHOLDS}")
    print(
        f"{'bot':<8} {'decisions':>9} {'p50':>6} {'p90':>6} {'p97':>6} {'p99.5':>6} {'max':>6} {'mean':>6}  judgements"
    )
    for name in dict.fromkeys(names):
        ordered = sorted(excess[name])
        if not ordered:
            continue
        counts = {j.value: judged[name].count(j) for j in Judgement}
        share = ", ".join(f"{k} {v / len(ordered):.1%}" for k, v in counts.items())
        qs = " ".join(f"{_quantile(ordered, q):6.1f}" for q in (0.5, 0.9, 0.97, 0.995))
        print(f"{name:<8} {len(ordered):>9} {qs} {ordered[-1]:6.1f} {sum(ordered) / len(ordered):6.2f}  {share}")
    strongest = sorted(excess[names[0]])
    largest = max((x for xs in excess.values() for x in xs), default=0.0)
    if strongest:
        inaccuracy, mistake = (math.ceil(_quantile(strongest, q)) for q in (0.97, 0.995))
        print(
            f"suggested: inaccuracy {inaccuracy}, mistake {mistake} ({names[0]}'s 97th and 99.5th percentiles), "
            f"blunder {math.floor(largest) + 1} (above the largest excess of any bot, {largest:.1f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
