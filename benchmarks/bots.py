"""Bot decision time per difficulty on seeded games of the default preset.

Each registered bot plays whole seeded games with 4 seats, all four seats that bot, until it has played
``games`` games or spent ``budget_s`` seconds (the game then in progress is cut short). Every call of the
bot (observation and legal actions in, an action or a decline out) is timed on its own in CPU time of the
process (``time.process_time``), so other load on the machine does not inflate the figures. ``hard``
budgets its search in sampled worlds, not seconds, so load changes its time but never its choices.

    .venv/bin/python benchmarks/bots.py [--games 2] [--budget 120] [--bots easy,medium,hard]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from liverpool.bots.registry import bot_names, make_bot
from liverpool.engine import DEFAULT_PRESET, Action, Agent, Observation, SeededChance, find_preset, run_game


class _OutOfTime(Exception):
    """The bot has used its budget: the game in progress stops here."""


def _timed(agent: Agent, into: list[float], deadline: float) -> Agent:
    def timed(observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        if time.perf_counter() > deadline:
            raise _OutOfTime
        start = time.process_time()
        choice = agent(observation, options, rng)
        into.append(time.process_time() - start)
        return choice

    return timed


def _quantile(ordered: Sequence[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure_bot(
    name: str, games: int = 2, seed: int = 0, budget_s: float = 120.0, preset: str = DEFAULT_PRESET
) -> dict[str, Any]:
    """Decision times of bot ``name`` (seconds): median, p99, max and mean, over its calls in seeded games."""
    rules = find_preset(preset)
    times: list[float] = []
    played = 0
    deadline = time.perf_counter() + budget_s
    for game in range(seed, seed + games):
        agents = [_timed(make_bot(name), times, deadline) for _ in range(4)]
        try:
            run_game(rules, agents, random.Random(game), chance=SeededChance(game))
        except _OutOfTime:
            break
        played += 1
    ordered = sorted(times)
    return {
        "bot": name,
        "preset": rules.name,
        "whole_games": played,
        "decisions": len(times),
        "median_s": statistics.median(ordered) if ordered else None,
        "p99_s": _quantile(ordered, 0.99) if ordered else None,
        "max_s": ordered[-1] if ordered else None,
        "mean_s": statistics.fmean(ordered) if ordered else None,
    }


def measure(
    games: int = 2,
    seed: int = 0,
    budget_s: float = 120.0,
    preset: str = DEFAULT_PRESET,
    bots: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Decision times of every bot (or of ``bots``), by name (see :func:`measure_bot`)."""
    return {name: measure_bot(name, games, seed, budget_s, preset) for name in (bots or bot_names())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="games per bot")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=120.0, help="seconds per bot at most")
    parser.add_argument("--preset", default=DEFAULT_PRESET)
    parser.add_argument("--bots", help="comma-separated bot names (default: every registered bot)")
    args = parser.parse_args(argv)
    names = args.bots.split(",") if args.bots else None
    figures = measure(args.games, args.seed, args.budget, args.preset, names)
    print(f"{'bot':<8} {'games':>5} {'decisions':>9} {'median ms':>10} {'p99 ms':>9} {'max ms':>9} {'mean ms':>9}")
    for name, row in figures.items():
        if not row["decisions"]:
            print(f"{name:<8} {row['whole_games']:>5} {0:>9}")
            continue
        print(
            f"{name:<8} {row['whole_games']:>5} {row['decisions']:>9} {row['median_s'] * 1e3:>10.2f} "
            f"{row['p99_s'] * 1e3:>9.1f} {row['max_s'] * 1e3:>9.1f} {row['mean_s'] * 1e3:>9.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
