"""Bots keep no memory between decisions (issue 26, item 6: after a restart "bots resume with the memory
they would have had").

A restarted server makes its bots afresh (``make_bot``) and asks them about the game rebuilt from its
log. That is only the same game if a bot that has played every earlier move decides exactly as a bot
made a moment ago, given the same observation, options and random source. Here both are asked at every
decision of seeded games of every bot, on several presets and table sizes, and must agree, drawing as
much from the random source. (The server's random source is the operating system's, which has no
stream a restart could reset; ``tests/server/test_server_crash.py`` checks the same on a real server
killed with ``kill -9``.)
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from liverpool.bots.hard import HardBot
from liverpool.bots.registry import bot_names, make_bot
from liverpool.engine import Action, Agent, GameState, Observation, SeededChance, find_preset, new_game, step

GAMES = [("liverpool", 4, 1), ("contract", 3, 2), ("may-i", 5, 3), ("british", 4, 4)]


def factory(name: str) -> Callable[[], Agent]:
    """How the server makes a bot of ``name``; ``hard`` with a small budget, to keep the test short
    (the budget is a number, not memory)."""
    if name == "hard":
        return lambda: HardBot(worlds=3)
    return lambda: make_bot(name)


class Compared:
    """A bot that has played since the start of the game, checked at each decision against a fresh one."""

    def __init__(self, make: Callable[[], Agent]) -> None:
        self.make = make
        self.veteran = make()
        self.decisions = 0

    def __call__(self, observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        fresh_rng = random.Random()
        fresh_rng.setstate(rng.getstate())
        fresh = self.make()(observation, list(options), fresh_rng)
        played = self.veteran(observation, options, rng)
        assert played == fresh, (
            f"after {self.decisions} decisions the bot chose {played!r}, a fresh one {fresh!r} "
            f"(deal {observation.deal}, seat {observation.viewer})"
        )
        assert rng.getstate() == fresh_rng.getstate(), "both drew as much from the random source"
        self.decisions += 1
        return played


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n == "hard" else n for n in bot_names()])
def test_a_fresh_bot_decides_as_one_that_played_the_whole_game(name: str) -> None:
    steps = 80 if name == "hard" else 1500
    decisions = 0
    for preset, seats, seed in GAMES:
        rules = find_preset(preset)
        chance = SeededChance(seed)
        agents = [Compared(factory(name)) for _ in range(seats)]
        state: GameState = new_game(rules, seats, chance.first_dealer(rules, seats))
        rng = random.Random(seed)
        for _ in range(steps):
            if state.is_over or step(state, agents, rng, chance=chance) is None:
                break
        decisions += sum(a.decisions for a in agents)
    assert decisions >= (200 if name == "hard" else 3000)
