"""Bot decision time per difficulty, used when ``benchmarks/bots.py`` (which owns this figure) is missing.

Every registered bot plays whole seeded games of the default preset with 4 seats, all four seats that
bot, until it has played ``games`` games or spent ``budget_s`` seconds (a game still running then is cut
short); each call of a bot (observation and legal actions in, an action or a decline out) is timed on its
own, in CPU time of the process (``time.process_time``).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from liverpool.bots.registry import bot_names, make_bot
from liverpool.engine.actions import Action
from liverpool.engine.observe import Observation
from liverpool.engine.play import Agent, run_game
from liverpool.engine.presets import PRESETS


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


def measure_bot(name: str, games: int, seed: int, budget_s: float, preset: str = "liverpool") -> dict[str, Any]:
    times: list[float] = []
    played = 0
    deadline = time.perf_counter() + budget_s
    for game in range(seed, seed + games):
        try:
            run_game(PRESETS[preset], [_timed(make_bot(name), times, deadline) for _ in range(4)], random.Random(game))
        except _OutOfTime:
            break
        played += 1
    ordered = sorted(times)
    return {
        "bot": name,
        "preset": preset,
        "whole_games": played,
        "decisions": len(times),
        "median_s": statistics.median(ordered),
        "p99_s": ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))],
        "max_s": ordered[-1],
    }


def measure_all(games: int, seed: int, budget_s: float) -> dict[str, Any]:
    return {name: measure_bot(name, games, seed, budget_s) for name in bot_names()}
