"""Tuning ``medium``'s weights on seeded duplicate deals against ``easy``, then re-checking on fresh seeds.

Each trial plays every deal of the preset on ``--seeds`` seeds as duplicate deals (:mod:`.arena`) between
``medium`` with the trial weights and ``easy``; the figure of merit is medium's points minus easy's per
game (lower is better). The search is coordinate descent over :data:`SPACE`, starting from the defaults.
The weights found and the defaults are then compared again on ``--fresh`` seeds never used for tuning.

    python -m liverpool.bots.tune --preset liverpool --seeds 30 --fresh 80 --jobs 2
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

from liverpool.engine import find_preset

from .arena import Score, duplicate, per_game
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
    return per_game(diffs, deals)


def tune(
    preset: str, seeds: Sequence[int], rounds: int = 1, jobs: int = 1, log: Callable[[str], None] = print
) -> Weights:
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

    def log(line: str) -> None:
        print(line, flush=True)

    found = tune(args.preset, range(args.seeds), args.rounds, args.jobs, log)
    log(f"found {found}")
    fresh = range(10_000, 10_000 + args.fresh)
    for name, weights in (("defaults", Weights()), ("found", found)):
        log(f"fresh seeds, medium ({name}) - easy: {evaluate(weights, args.preset, fresh, jobs=args.jobs)}")


if __name__ == "__main__":
    main()
