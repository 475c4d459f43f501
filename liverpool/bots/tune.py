"""Tuning ``medium``'s weights on seeded duplicate deals against ``easy``, then re-checking on fresh seeds.

A *duplicate* deal is played twice from the same shuffle (:class:`~liverpool.engine.play.SeededChance`),
with the two bots in alternate seats and then swapped, so luck of the deal cancels out. The figure of merit
is the mean of (candidate's deal points - opponent's deal points) per seat, summed over the deals of a
game: negative means the candidate gives away fewer points than the opponent per game.

Usage (the search is a few rounds of coordinate descent over :data:`SPACE`)::

    python -m liverpool.bots.tune --preset liverpool --seeds 40 --fresh 80 --jobs 2
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from liverpool.engine.play import Agent, SeededChance, step
from liverpool.engine.presets import find_preset
from liverpool.engine.rules import Ruleset
from liverpool.engine.state import GameState

from .medium import MediumBot, Weights
from .registry import make_bot

SPACE: dict[str, tuple[float, ...]] = {
    "value": (0.5, 1.0, 1.5),
    "used": (8.0, 14.0, 24.0),
    "pair": (2.0, 4.0, 8.0),
    "neighbour": (1.5, 3.0, 6.0),
    "near_table": (0.0, 3.0, 6.0),
    "feed_table": (0.0, 12.0, 24.0),
    "feed_known": (0.0, 2.0, 5.0),
    "outs": (0.0, 0.05, 0.2),
    "buy_gain": (6.0, 12.0, 24.0),
    "buy_risk": (0.0, 0.5),
    "wait_left": (3.0, 99.0),
    "hold": (4.0, 8.0, 16.0),
}
ONLY_WITH_OPTIONAL_DISCARD = ("hold",)


@dataclass(frozen=True, slots=True)
class Score:
    """Mean points per game given away by the candidate minus the opponent, and its standard error."""

    mean: float
    stderr: float

    def __str__(self) -> str:
        return f"{self.mean:+.1f} ± {self.stderr:.1f}"


def play_deal(rules: Ruleset, agents: Sequence[Agent], deal: int, seed: int, max_steps: int = 20_000) -> tuple[int, ...]:
    """Play deal ``deal`` alone (seat 0 deals) from the shuffle of ``seed``; return each seat's points."""
    state = GameState(rules=rules, seats=len(agents), first_dealer=0, dealer=seed % len(agents), deal=deal)
    rng = random.Random(seed)
    chance = SeededChance(seed)
    for _ in range(max_steps):
        if state.deal != deal or state.is_over:
            return state.results[-1].scores
        step(state, agents, rng, chance=chance)
    raise RuntimeError(f"deal {deal + 1} did not end within {max_steps} steps")


def duplicate(
    rules: Ruleset, make_a: Callable[[], Agent], make_b: Callable[[], Agent], deal: int, seed: int, seats: int = 4
) -> float:
    """Mean points per seat of ``a`` minus ``b`` over one deal played twice with the seats swapped."""
    total = 0.0
    for shift in (0, 1):
        is_a = [(s + shift) % 2 == 0 for s in range(seats)]
        scores = play_deal(rules, [make_a() if a else make_b() for a in is_a], deal, seed)
        a_points = [p for p, a in zip(scores, is_a, strict=True) if a]
        b_points = [p for p, a in zip(scores, is_a, strict=True) if not a]
        total += sum(a_points) / len(a_points) - sum(b_points) / len(b_points)
    return total / 2


def _job(args: tuple[str, Weights | None, str, int, int]) -> float:
    preset, weights, opponent, deal, seed = args
    return duplicate(find_preset(preset), lambda: MediumBot(weights), lambda: make_bot(opponent), deal, seed)


def evaluate(
    weights: Weights | None, preset: str, seeds: Sequence[int], opponent: str = "easy", jobs: int = 1
) -> Score:
    """Per-game points of medium (``weights``) minus ``opponent``, from every deal of ``preset`` on ``seeds``."""
    deals = len(find_preset(preset).deals)
    work = [(preset, weights, opponent, deal, seed) for deal in range(deals) for seed in seeds]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            diffs = list(pool.map(_job, work, chunksize=4))
    else:
        diffs = [_job(w) for w in work]
    mean = variance = 0.0
    for deal in range(deals):
        part = diffs[deal * len(seeds) : (deal + 1) * len(seeds)]
        m = sum(part) / len(part)
        mean += m
        if len(part) > 1:
            variance += sum((x - m) ** 2 for x in part) / (len(part) - 1) / len(part)
    return Score(mean, math.sqrt(variance))


def tune(preset: str, seeds: Sequence[int], rounds: int = 1, jobs: int = 1, log: Callable[[str], None] = print) -> Weights:
    """Coordinate descent over :data:`SPACE`: for each weight keep the value with the best score."""
    best = Weights()
    best_score = evaluate(best, preset, seeds, jobs=jobs)
    log(f"start {best_score}")
    optional_discard = find_preset(preset).discard_optional
    for _ in range(rounds):
        for name, values in SPACE.items():
            if name in ONLY_WITH_OPTIONAL_DISCARD and not optional_discard:
                continue
            for value in values:
                if getattr(best, name) == value:
                    continue
                trial = dataclasses.replace(best, **{name: value})
                score = evaluate(trial, preset, seeds, jobs=jobs)
                log(f"{name}={value}: {score}")
                if score.mean < best_score.mean:
                    best, best_score = trial, score
            log(f"kept {name}={getattr(best, name)} ({best_score})")
    return best


def main(argv: Sequence[str] | None = None) -> None:
    """Tune on ``--seeds`` seeds, then re-check the result and the defaults on ``--fresh`` other seeds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="liverpool")
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--fresh", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    found = tune(args.preset, range(args.seeds), args.rounds, args.jobs)
    print("found", found)
    fresh = range(10_000, 10_000 + args.fresh)
    for name, weights in (("defaults", Weights()), ("found", found)):
        print(f"fresh seeds, {name} vs easy: {evaluate(weights, args.preset, fresh, jobs=args.jobs)}")
    print(f"fresh seeds, found vs random: {evaluate(found, args.preset, fresh, 'random', args.jobs)}")


if __name__ == "__main__":
    main()
