"""Tuning ``medium``'s weights on seeded deals against an opponent, then re-checking on fresh seeds.

Each trial plays every deal of the preset on ``--seeds`` seeds (:mod:`.arena`) between ``medium`` with the
trial weights (the *candidate*) and ``--opponent`` bots (default ``easy``), at ``--seats`` seats (default
4). By default the deals are duplicate deals (:func:`.arena.duplicate`): the figure of merit is the
candidate's points minus the opponent's per game. With ``--solo`` each deal seats one candidate among
opponents and plays it again with opponents only (:func:`.arena.solo`): the figure is the candidate's
relative points minus the opponent's, per game. Lower is better in both. The search is coordinate descent
over :data:`SPACE` (``--space wide``: :data:`WIDE_SPACE`), starting from the defaults or ``--start``.
The weights found and the defaults are then compared again on ``--fresh`` seeds never used for tuning
(from ``--fresh-from``); ``--check`` skips the search and only measures ``--start`` and the defaults.

    python -m liverpool.bots.tune --preset liverpool --seeds 30 --fresh 80 --jobs 2
    python -m liverpool.bots.tune --opponent medium --solo --seats 4 --seeds 400 --fresh 2500
    python -m liverpool.bots.tune --opponent medium --solo --check --start pair=8,hold=4 --fresh 2500
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

from liverpool.engine import find_preset

from .arena import Score, duplicate, factory, per_game, solo, solo_base
from .medium import MediumBot, Weights

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
# SPACE, the weights it leaves out around their defaults, and ``value_down`` (for tuning against ``medium``).
WIDE_SPACE: dict[str, tuple[float, ...]] = {
    **SPACE,
    "joker": (20.0, 40.0, 80.0),
    "dead": (0.0, 0.5, 1.0),
    "take_margin": (0.25, 0.5, 1.0),
    "buy_margin": (0.25, 0.5, 1.0),
    "value_down": (0.0, 0.5, 1.0, 2.0),
}
SPACES = {"default": SPACE, "wide": WIDE_SPACE}
ONLY_WITH_OPTIONAL_DISCARD = ("hold",)


@dataclasses.dataclass(frozen=True, slots=True)
class Table:
    """Whom a trial plays and how: ``opponent`` bots (a :mod:`.registry` name), ``seats`` seats, duplicate
    deals or with ``solo`` one candidate among opponents (see the module docstring)."""

    opponent: str = "easy"
    solo: bool = False
    seats: int = 4

    def __post_init__(self) -> None:
        if self.seats < 2:
            raise ValueError(f"seats must be at least 2, not {self.seats}")
        factory(self.opponent)()  # an unknown name fails here, naming the bots there are


_BASES: dict[tuple[str, str, int, int, int], float] = {}


def _base(preset: str, table: Table, deal: int, seed: int) -> float:
    """:func:`.arena.solo_base`, kept per process: every trial of a search plays the same opponents-only
    deals, so each is played once (the bots are seeded, so a kept figure is the figure)."""
    key = (preset, table.opponent, table.seats, deal, seed)
    if key not in _BASES:
        _BASES[key] = solo_base(find_preset(preset), factory(table.opponent), deal, seed, table.seats)
    return _BASES[key]


def _job(args: tuple[str, Weights | None, Table, int, int]) -> float:
    preset, weights, table, deal, seed = args
    rules, candidate, opponent = find_preset(preset), lambda: MediumBot(weights), factory(table.opponent)
    if table.solo:
        return solo(rules, candidate, opponent, deal, seed, table.seats, _base(preset, table, deal, seed))
    return duplicate(rules, candidate, opponent, deal, seed, table.seats)


def evaluate(
    weights: Weights | None,
    preset: str,
    seeds: Sequence[int],
    opponent: str | Table = "easy",
    jobs: int = 1,
) -> Score:
    """Per-game points of medium (``weights``) minus ``opponent`` (a bot name: duplicate deals at 4 seats;
    or a :class:`Table`), from every deal of ``preset`` on ``seeds``."""
    table = opponent if isinstance(opponent, Table) else Table(opponent)
    deals = len(find_preset(preset).deals)
    work = [(preset, weights, table, deal, seed) for deal in range(deals) for seed in seeds]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            diffs = list(pool.map(_job, work, chunksize=4))
    else:
        diffs = [_job(w) for w in work]
    return per_game(diffs, deals)


def tune(
    preset: str,
    seeds: Sequence[int],
    rounds: int = 1,
    jobs: int = 1,
    log: Callable[[str], None] = print,
    table: Table = Table(),
    space: dict[str, tuple[float, ...]] = SPACE,
    start: Weights | None = None,
) -> Weights:
    """Coordinate descent over ``space`` from ``start`` (the defaults): for each weight keep the value with
    the best score against ``table``."""
    best = start if start is not None else Weights()
    best_score = evaluate(best, preset, seeds, table, jobs)
    log(f"start {best_score}")
    optional_discard = find_preset(preset).discard_optional
    for _ in range(rounds):
        for name, values in space.items():
            if name in ONLY_WITH_OPTIONAL_DISCARD and not optional_discard:
                continue
            for value in values:
                if getattr(best, name) == value:
                    continue
                trial = dataclasses.replace(best, **{name: value})
                score = evaluate(trial, preset, seeds, table, jobs)
                log(f"{name}={value}: {score}")
                if score.mean < best_score.mean:
                    best, best_score = trial, score
            log(f"kept {name}={getattr(best, name)} ({best_score})")
    return best


def parse_weights(text: str) -> Weights:
    """``name=value,...`` over the defaults, e.g. ``pair=8,hold=4``."""
    fields = {f.name for f in dataclasses.fields(Weights)}
    changes: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        if not sep or name.strip() not in fields:
            raise ValueError(f"bad weight {part!r}: want name=value with name one of {', '.join(sorted(fields))}")
        try:
            changes[name.strip()] = float(value)
        except ValueError:
            raise ValueError(f"bad weight {part!r}: {value!r} is not a number") from None
    return dataclasses.replace(Weights(), **changes)


def changed(weights: Weights) -> str:
    """The weights that differ from the defaults, as ``--start`` takes them (empty: the defaults)."""
    default = Weights()
    return ",".join(
        f"{f.name}={getattr(weights, f.name):g}"
        for f in dataclasses.fields(Weights)
        if getattr(weights, f.name) != getattr(default, f.name)
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Tune on ``--seeds`` seeds, then re-check the result and the defaults on ``--fresh`` other seeds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="liverpool")
    parser.add_argument("--seeds", type=int, default=30, help="tuning seeds 0..N-1")
    parser.add_argument("--fresh", type=int, default=60, help="fresh seeds for the re-check")
    parser.add_argument("--fresh-from", type=int, default=10_000, help="the first fresh seed")
    parser.add_argument("--fresh-defaults", type=int, default=None, help="fresh seeds for the defaults (--fresh)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--opponent", default="easy", help="the bot the candidate plays against")
    parser.add_argument("--solo", action="store_true", help="one candidate among opponents (arena.solo)")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--space", choices=sorted(SPACES), default="default")
    parser.add_argument("--start", default="", help="weights to start from, name=value,... over the defaults")
    parser.add_argument("--check", action="store_true", help="no search: re-check --start and the defaults")
    args = parser.parse_args(argv)
    try:
        table = Table(args.opponent, args.solo, args.seats)
        start = parse_weights(args.start)
    except ValueError as exc:
        parser.error(str(exc))

    def log(line: str) -> None:
        print(f"{time.strftime('%H:%M:%S')} {line}", flush=True)

    how = f"one candidate among {table.opponent} bots" if table.solo else f"duplicate deals against {table.opponent}"
    log(f"{args.preset}, {table.seats} seats, {how}")
    if args.check:
        found = start
    else:
        found = tune(args.preset, range(args.seeds), args.rounds, args.jobs, log, table, SPACES[args.space], start)
    log(f"found {found}")
    log(f"found (changed) {changed(found) or '(the defaults)'}")
    defaults_fresh = args.fresh if args.fresh_defaults is None else args.fresh_defaults
    for name, weights, count in (("defaults", Weights(), defaults_fresh), ("found", found, args.fresh)):
        if count <= 0 or (name == "found" and found == Weights()):
            continue
        fresh = range(args.fresh_from, args.fresh_from + count)
        score = evaluate(weights, args.preset, fresh, table, args.jobs)
        low, high = score.mean - 1.96 * score.stderr, score.mean + 1.96 * score.stderr
        log(
            f"fresh seeds {fresh.start}..{fresh.stop - 1}, medium ({name}) - {table.opponent}: {score} "
            f"(95% interval {low:+.1f} to {high:+.1f})"
        )


if __name__ == "__main__":
    main()
