"""``hard``: determinized Monte Carlo search over ``medium``'s best few options.

For a decision worth searching, the bot keeps the first ``candidates`` options of ``medium``'s ranking,
samples worlds consistent with its observation (:mod:`.worlds`), and in each world plays every candidate
to the end of the deal with ``medium`` bots at every seat (:mod:`.rollout`). Every candidate meets the
same worlds and the same chance, so the comparison is paired. A candidate scores its own deal points minus
the mean of the others' (with partnerships: its team's minus the other team's). The candidates race
against ``medium``'s first choice: after ``screen`` worlds, one that is not better on average drops out,
as does, at any time, one that is worse by ``confidence`` standard errors of the paired differences.
Another option is played only if it beats the first choice by ``confidence`` standard errors, since a
few noisy rollouts should not overturn a good heuristic.

Budget: at most ``worlds`` worlds. The default budget counts worlds only, so a choice depends only on
the observation and the random source and a seeded game replays exactly (tournaments rely on it); it is
sized so that 99% of decisions take under a second on one core (``docs/bots.md``). ``time_limit``
(seconds, off by default) adds a wall-clock cap for callers that prefer a bounded wait to reproducibility.
Lay-offs, swaps, calls and placing a swapped joker
follow ``medium`` without search, as do decisions with one option.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from liverpool.engine import (
    Action,
    Buy,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    GameState,
    GoDown,
    Observation,
    Pass,
    apply,
)

from .easy import Choice, must_act
from .medium import MediumBot, Weights
from .rollout import playout
from .style import Style
from .table import me, relevant
from .worlds import sample_world

SEARCHED = (Buy, Pass, DrawStock, DrawDiscard, GoDown, Discard, EndTurn)
WORLDS = 12
CANDIDATES = 3
SCREEN = 4

Sampler = Callable[[Observation, random.Random], GameState]


class HardBot:
    """The search bot (see the module docstring).

    ``sample`` draws the worlds (default :func:`~.worlds.sample_world`: uniform among those the observation
    allows; the measurement-only :mod:`.cheat` passes one that knows every hand). After each decision,
    ``last_worlds`` is how many worlds it searched and ``last_diffs[j]`` candidate ``j``'s score minus the
    first choice's in each world it met (empty when nothing was searched; ``last_diffs[0]`` stays empty).
    """

    def __init__(
        self,
        worlds: int = WORLDS,
        candidates: int = CANDIDATES,
        time_limit: float | None = None,
        weights: Weights | None = None,
        max_steps: int = 3000,
        confidence: float = 2.0,
        screen: int = SCREEN,
        sample: Sampler = sample_world,
        style: Style = Style.BALANCED,
    ) -> None:
        self.style = style
        self.worlds = worlds
        self.sample = sample
        self.confidence = confidence
        self.screen = screen
        self.candidates = candidates
        self.time_limit = time_limit
        self.max_steps = max_steps
        self.guide = MediumBot(weights, style=style)
        self.policy = MediumBot(weights, counting=False, style=style)
        # the other seats of a rollout play ``balanced`` (the same bot when this one is)
        self.others = self.policy if style is Style.BALANCED else MediumBot(weights, counting=False)
        self.last_worlds = 0
        self.last_diffs: list[list[float]] = []

    def __call__(self, observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        self.last_worlds = 0
        self.last_diffs = []
        if len(options) == 1 and must_act(observation):
            return options[0]
        ranked = self.guide.rank(observation, options)
        shortlist = self.shortlist(observation, ranked)
        if len(shortlist) < 2:
            return ranked[0]
        return self.search(observation, shortlist, random.Random(rng.getrandbits(64)))

    def shortlist(self, observation: Observation, ranked: Sequence[Choice]) -> list[Choice]:
        """The options worth comparing: ``medium``'s first few, when its first is a searched kind (two
        discards of the same face are one option)."""
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
        out: list[Choice] = []
        seen: set[object] = set()
        for choice in ranked:
            key = ("discard", choice.card.face) if isinstance(choice, Discard) else choice
            if (choice is None or isinstance(choice, SEARCHED)) and key not in seen:
                seen.add(key)
                out.append(choice)
        return out[: self.candidates]

    def search(self, observation: Observation, shortlist: Sequence[Choice], rng: random.Random) -> Choice:
        """Race the candidates against ``medium``'s first choice over sampled worlds (see :meth:`pick`).

        Each world plays every candidate still in the race from the same deck and chance; a candidate
        drops out once it is worse than the first choice by ``confidence`` standard errors, or after
        ``screen`` worlds when it is not better on average. The search stops when only the first choice
        is left, after ``worlds`` worlds, or when another world would likely overrun ``time_limit`` (a
        world cut short by the limit is dropped).
        """
        seat = me(observation)
        diffs: list[list[float]] = [[] for _ in shortlist]
        self.last_diffs = diffs
        racing = list(range(1, len(shortlist)))
        start = time.perf_counter()
        deadline = None if self.time_limit is None else start + self.time_limit
        for done in range(1, self.worlds + 1):
            world = self.sample(observation, rng)
            chance_seed = rng.getrandbits(64)
            scores: dict[int, float] = {}
            for j in [0, *racing]:
                if deadline is not None and time.perf_counter() > deadline:
                    return shortlist[self.pick(diffs)]
                scores[j] = self.outcome(world.clone(), seat, shortlist[j], random.Random(chance_seed))
            for j in racing:
                diffs[j].append(scores[j] - scores[0])
            self.last_worlds = done
            racing = [j for j in racing if not self.drops(diffs[j])]
            now = time.perf_counter()
            if not racing or (deadline is not None and now + (now - start) / done > deadline):
                break
        return shortlist[self.pick(diffs)]

    def pick(self, diffs: Sequence[Sequence[float]]) -> int:
        """The candidate to play, from its score minus the first choice's in each world (``diffs[j]``;
        ``diffs[0]`` is unused): the best mean among those better than the first choice by more than
        ``confidence`` standard errors, else the first choice (0)."""
        better = [j for j in range(1, len(diffs)) if self._clearly(diffs[j], worse=False)]
        return min(better, key=lambda j: (sum(diffs[j]) / len(diffs[j]), j), default=0)

    def drops(self, diffs: Sequence[float]) -> bool:
        """Whether a candidate leaves the race: clearly worse, or after ``screen`` worlds no better on
        average than the first choice."""
        return self._clearly(diffs, worse=True) or (len(diffs) >= self.screen and sum(diffs) >= 0)

    def _clearly(self, diffs: Sequence[float], worse: bool) -> bool:
        """Whether paired differences show a candidate worse (or better) than the first choice."""
        n = len(diffs)
        if n < 3:
            return False
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        if worse:
            return mean - self.confidence * spread > 0
        return mean + self.confidence * spread < 0

    def outcome(self, world: GameState, seat: int, choice: Choice, rng: random.Random) -> float:
        """``seat`` plays ``choice`` in ``world`` (changed in place), then ``medium`` bots play to the end of
        the deal: the seat's points minus its opponents' (:func:`relative`)."""
        scores = self.deal_points(world, seat, choice, rng)
        return relative(scores, seat, world.rules.partnerships)

    def deal_points(self, world: GameState, seat: int, choice: Choice, rng: random.Random) -> tuple[int, ...]:
        """``seat`` plays ``choice`` in ``world`` (changed in place; ``None`` declines), then ``medium`` bots
        play to the end of the deal: each seat's points for the deal."""
        agents = [self.policy if s == seat else self.others for s in range(world.seats)]
        deal = world.deal
        if choice is None:
            return playout(world, agents, rng, skip_through=seat, max_steps=self.max_steps)
        apply(world, choice)
        return playout(world, agents, rng, deal=deal, max_steps=self.max_steps)


def relative(scores: Sequence[int], seat: int, partnerships: bool) -> float:
    """A seat's deal points minus the mean of its opponents' (team against team with partnerships)."""
    if partnerships and len(scores) == 4:
        return float(scores[seat] + scores[(seat + 2) % 4] - scores[(seat + 1) % 4] - scores[(seat + 3) % 4])
    others = [p for s, p in enumerate(scores) if s != seat]
    return scores[seat] - sum(others) / len(others)
