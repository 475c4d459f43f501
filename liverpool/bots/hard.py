"""``hard``: determinized Monte Carlo search over ``medium``'s best few options.

For a decision worth searching, the bot keeps the first ``candidates`` options of ``medium``'s ranking,
samples worlds consistent with its observation (:mod:`.worlds`), and in each world plays every candidate
to the end of the deal with ``medium`` bots at every seat (:mod:`.rollout`). Every candidate meets the
same worlds and the same chance, so the comparison is paired. A candidate scores its own deal points minus
the mean of the others' (with partnerships: its team's minus the other team's); the lowest mean wins,
but an option other than ``medium``'s first must beat it by ``confidence`` standard errors of the paired
differences: a few noisy rollouts should not overturn a good heuristic.

Budget: at most ``worlds`` worlds, and no new world once ``time_limit`` seconds have passed (``None``: no
time limit, so the choice depends only on the observation and the random source). Lay-offs, swaps,
calls and placing a swapped joker follow ``medium`` without search, as do decisions with one option.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from liverpool.engine.actions import Action, Buy, Discard, DrawDiscard, DrawStock, EndTurn, GoDown, Pass
from liverpool.engine.game import apply
from liverpool.engine.observe import Observation
from liverpool.engine.state import GameState

from .easy import Choice, must_act
from .medium import MediumBot, Weights
from .rollout import playout
from .table import me, relevant
from .worlds import sample_world

SEARCHED = (Buy, Pass, DrawStock, DrawDiscard, GoDown, Discard, EndTurn)


class HardBot:
    """The search bot (see the module docstring)."""

    def __init__(
        self,
        worlds: int = 24,
        candidates: int = 4,
        time_limit: float | None = 0.8,
        weights: Weights | None = None,
        max_steps: int = 3000,
        confidence: float = 1.0,
    ) -> None:
        self.worlds = worlds
        self.confidence = confidence
        self.candidates = candidates
        self.time_limit = time_limit
        self.max_steps = max_steps
        self.guide = MediumBot(weights)
        self.policy = MediumBot(weights, counting=False)
        self.last_worlds = 0

    def __call__(self, observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        self.last_worlds = 0
        if len(options) == 1 and must_act(observation):
            return options[0]
        ranked = self.guide.rank(observation, options)
        shortlist = self.shortlist(observation, ranked)
        if len(shortlist) < 2:
            return ranked[0]
        return self.search(observation, shortlist, random.Random(rng.getrandbits(64)))

    def shortlist(self, observation: Observation, ranked: Sequence[Choice]) -> list[Choice]:
        """The options worth comparing: ``medium``'s first few, when its first is a searched kind."""
        first = ranked[0]
        if first is not None and not isinstance(first, SEARCHED):
            return [first]
        top = observation.top_discard
        about_top = first is None or isinstance(first, Buy | Pass | DrawStock | DrawDiscard)
        if about_top and (top is None or not relevant(observation, top)):
            return [first]
        if isinstance(first, GoDown):
            going_down = [c for c in ranked if isinstance(c, GoDown)][:2]
            staying_up = [c for c in ranked if isinstance(c, Discard | EndTurn)][:1]
            return [*going_down, *staying_up]
        out: list[Choice] = [c for c in ranked if c is None or isinstance(c, SEARCHED)]
        return out[: self.candidates]

    def search(self, observation: Observation, shortlist: Sequence[Choice], rng: random.Random) -> Choice:
        """The candidate with the best mean score over sampled worlds."""
        seat = me(observation)
        results: list[list[float]] = []
        start = time.perf_counter()
        for _ in range(self.worlds):
            world = sample_world(observation, rng)
            chance_seed = rng.getrandbits(64)
            results.append([self._play(world.clone(), seat, c, random.Random(chance_seed)) for c in shortlist])
            self.last_worlds += 1
            if self.time_limit is not None and time.perf_counter() - start > self.time_limit:
                break
        return shortlist[self.pick(results)]

    def pick(self, results: Sequence[Sequence[float]]) -> int:
        """The candidate to play, from each world's scores: the best mean, if it beats ``medium``'s first
        choice (index 0) by more than ``confidence`` standard errors of the paired differences; else 0."""
        n = len(results)
        means = [sum(r[i] for r in results) / n for i in range(len(results[0]))]
        best = min(range(len(means)), key=lambda i: (means[i], i))
        if best == 0:
            return 0
        if n < 2:
            return best if self.confidence <= 0 else 0
        diffs = [r[best] - r[0] for r in results]
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        return best if mean + self.confidence * spread < 0 else 0

    def _play(self, world: GameState, seat: int, choice: Choice, rng: random.Random) -> float:
        agents = [self.policy] * world.seats
        deal = world.deal
        if choice is None:
            scores = playout(world, agents, rng, skip_through=seat, max_steps=self.max_steps)
        else:
            apply(world, choice)
            scores = playout(world, agents, rng, deal=deal, max_steps=self.max_steps)
        return relative(scores, seat, world.rules.partnerships)


def relative(scores: Sequence[int], seat: int, partnerships: bool) -> float:
    """A seat's deal points minus the mean of its opponents' (team against team with partnerships)."""
    if partnerships and len(scores) == 4:
        return float(scores[seat] + scores[(seat + 2) % 4] - scores[(seat + 1) % 4] - scores[(seat + 3) % 4])
    others = [p for s, p in enumerate(scores) if s != seat]
    return scores[seat] - sum(others) / len(others)
