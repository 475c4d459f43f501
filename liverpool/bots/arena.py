"""Measuring bot strength on seeded games: duplicate deals and rotated whole games.

* :func:`compare` plays every deal of a preset as a *duplicate* deal: the same shuffle
  (:class:`~liverpool.engine.play.SeededChance`) twice, bots ``a`` and ``b`` in alternate seats and then
  swapped, so the luck of the deal cancels out. It reports ``a``'s points minus ``b``'s per seat, summed
  over the deals of a game (negative: ``a`` gives away fewer points per game). With ``--solo`` it plays
  one ``a`` among ``b`` bots against the same deal with ``b`` bots only (:func:`solo`).
* :func:`ladder` plays whole seeded games with one seat per bot, rotating the seats, and reports each
  bot's mean points per game.

Bots are named as in :mod:`.registry`; ``hard`` can be given a budget (``hard_worlds``, ``hard_time``).

    python -m liverpool.bots.arena compare medium easy --preset liverpool --seeds 40 --jobs 2
    python -m liverpool.bots.arena compare hard medium --solo --seeds 40 --hard-worlds 12 --jobs 2
    python -m liverpool.bots.arena ladder random easy medium --preset liverpool --games 20
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from liverpool.engine import Agent, GameState, Ruleset, SeededChance, find_preset, run_game, step

from .hard import WORLDS, HardBot, relative
from .registry import make_bot


@dataclass(frozen=True, slots=True)
class Score:
    """A mean difference of points per game and its standard error."""

    mean: float
    stderr: float

    def __str__(self) -> str:
        return f"{self.mean:+.1f} ± {self.stderr:.1f}"


@dataclass(frozen=True, slots=True)
class Budget:
    """The search budget of ``hard`` bots made here (``time`` None: no time limit, reproducible)."""

    worlds: int = WORLDS
    time: float | None = None


def factory(name: str, budget: Budget = Budget()) -> Callable[[], Agent]:
    """A maker of fresh bots named ``name``."""
    if name.strip().lower() == "hard":
        return lambda: HardBot(worlds=budget.worlds, time_limit=budget.time)
    return lambda: make_bot(name)


def deal_start(rules: Ruleset, seats: int, deal: int, seed: int) -> GameState:
    """The state before deal ``deal`` is dealt, played on its own from the shuffle of ``seed``."""
    return GameState(rules=rules, seats=seats, first_dealer=0, dealer=seed % seats, deal=deal)


def play_deal(
    rules: Ruleset,
    agents: Sequence[Agent],
    deal: int,
    seed: int,
    max_steps: int = 20_000,
    state: GameState | None = None,
) -> tuple[int, ...]:
    """Play deal ``deal`` on its own from the shuffle of ``seed``; return each seat's points. ``state``:
    the :func:`deal_start` to play from (made here by default), for callers that watch it."""
    state = deal_start(rules, len(agents), deal, seed) if state is None else state
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


def solo(
    rules: Ruleset,
    make_a: Callable[[], Agent],
    make_b: Callable[[], Agent],
    deal: int,
    seed: int,
    seats: int = 4,
    base: float | None = None,
) -> float:
    """One ``a`` among ``b`` bots against the same deal with ``b`` bots only: the change in that seat's
    points minus the mean of the others'. Where ``a`` plays as ``b`` would, the two deals are the same,
    so this measures only what ``a`` does differently (sharper than :func:`duplicate` for close bots).
    ``base``: the :func:`solo_base` of the deal, when the caller has it already."""
    seat = seed % seats
    alone = play_deal(rules, [make_a() if s == seat else make_b() for s in range(seats)], deal, seed)
    if base is None:
        base = solo_base(rules, make_b, deal, seed, seats)
    return relative(alone, seat, rules.partnerships) - base


def solo_base(rules: Ruleset, make_b: Callable[[], Agent], deal: int, seed: int, seats: int = 4) -> float:
    """The second half of :func:`solo`: the relative points of ``a``'s seat when ``b`` bots play every seat."""
    base = play_deal(rules, [make_b() for _ in range(seats)], deal, seed)
    return relative(base, seed % seats, rules.partnerships)


def per_game(diffs: Sequence[float], deals: int) -> Score:
    """Sum over deals of the mean difference per deal (``diffs`` deal by deal, seeds within)."""
    seeds = len(diffs) // deals
    mean = variance = 0.0
    for deal in range(deals):
        part = diffs[deal * seeds : (deal + 1) * seeds]
        m = sum(part) / len(part)
        mean += m
        if len(part) > 1:
            variance += sum((x - m) ** 2 for x in part) / (len(part) - 1) / len(part)
    return Score(mean, math.sqrt(variance))


def _compare_job(args: tuple[str, str, str, Budget, bool, int, int]) -> float:
    preset, a, b, budget, alone, deal, seed = args
    play = solo if alone else duplicate
    return play(find_preset(preset), factory(a, budget), factory(b, budget), deal, seed)


def compare(
    a: str, b: str, preset: str, seeds: Sequence[int], jobs: int = 1, budget: Budget = Budget(), alone: bool = False
) -> Score:
    """Per-game points of bot ``a`` minus bot ``b`` from duplicate deals, or with ``alone`` from one ``a``
    among ``b`` bots (:func:`solo`); see the module docstring."""
    deals = len(find_preset(preset).deals)
    work = [(preset, a, b, budget, alone, deal, seed) for deal in range(deals) for seed in seeds]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            diffs = list(pool.map(_compare_job, work))
    else:
        diffs = [_compare_job(w) for w in work]
    return per_game(diffs, deals)


def ladder(names: Sequence[str], preset: str, games: int, seed: int = 0, budget: Budget = Budget()) -> dict[str, float]:
    """Mean points per game of each bot, over ``games`` whole games per seating (seats rotated)."""
    rules = find_preset(preset)
    totals = dict.fromkeys(names, 0.0)
    played = 0
    for game in range(seed, seed + games):
        for shift in range(len(names)):
            seating = [names[(s + shift) % len(names)] for s in range(len(names))]
            agents = [factory(n, budget)() for n in seating]
            state = run_game(rules, agents, random.Random(game), chance=SeededChance(game))
            for seat, name in enumerate(seating):
                totals[name] += state.totals[seat]
            played += 1
    return {name: total / played for name, total in totals.items()}


def main(argv: Sequence[str] | None = None) -> None:
    """``compare A B`` or ``ladder BOT...`` (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("compare", "ladder"))
    parser.add_argument("bots", nargs="+")
    parser.add_argument("--preset", default="liverpool")
    parser.add_argument("--seeds", type=int, default=20, help="seeds of duplicate deals (compare)")
    parser.add_argument("--games", type=int, default=10, help="games per seating (ladder)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--solo", action="store_true", help="compare: one A among B bots against B bots only")
    parser.add_argument("--hard-worlds", type=int, default=Budget().worlds)
    parser.add_argument("--hard-time", type=float, default=None, help="seconds per hard decision (default: none)")
    args = parser.parse_args(argv)
    budget = Budget(args.hard_worlds, args.hard_time)
    if args.command == "compare":
        if len(args.bots) != 2:
            parser.error("compare takes two bots")
        a, b = args.bots
        seeds = range(args.first_seed, args.first_seed + args.seeds)
        how = f"one {a} among {b} bots" if args.solo else "duplicate"
        print(f"{a} - {b}, points per game ({args.preset}, {args.seeds} seeds, {how}): "
              f"{compare(a, b, args.preset, seeds, args.jobs, budget, args.solo)}")  # fmt: skip
    else:
        means = ladder(args.bots, args.preset, args.games, args.first_seed, budget)
        print(f"mean points per game ({args.preset}, {args.games} games per seating, seats rotated):")
        for name, mean in means.items():
            print(f"  {name:<8} {mean:7.1f}")


if __name__ == "__main__":
    main()
