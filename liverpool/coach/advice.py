"""Ranking one seat's options with the ``hard`` bot's search, from that seat's information only.

:class:`Coach` takes ``medium``'s first few options (two discards of one face are one option), samples
``worlds`` worlds of the hidden cards from the observation (:func:`~liverpool.bots.worlds.sample_world`,
never the true hands), and in every world plays every option to the end of the deal with ``medium`` bots
at every seat (:meth:`~liverpool.bots.hard.HardBot.deal_points`), from the same deck and the same chance.
An option's *expected points* are the seat's deal points minus the mean of its opponents' (team against
team with partnerships), averaged over the worlds: Liverpool points are penalties, so lower is better.
Comparisons between options are paired (the same worlds), so an option's loss against the best has its
own, smaller, standard error. The budget is counted in worlds; the same seed gives the same answer.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from liverpool.bots.easy import Choice, must_act
from liverpool.bots.hard import HardBot, relative
from liverpool.bots.medium import Weights
from liverpool.bots.table import me
from liverpool.bots.worlds import sample_world
from liverpool.engine import Action, Discard, Observation, action_to_dict
from liverpool.phrases import Phrase, english

from .reasons import SEAT_NAMES, describe_words, reason_words

COACH_VERSION = "coach-1"
"""Changes whenever the search, its defaults or the bots it plays with change what a review says."""

WORLDS = 12
CANDIDATES = 4
ACCEPT = 2.0


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One option, measured: its name and why (``text`` and ``reason`` in English, ``words`` and ``why`` as
    phrases a page says in its language), ``expected`` points at the end of the deal (own minus opponents' mean, lower
    is better) with standard error ``se``, the seat's own ``points``, and ``loss`` against the best option
    over the same worlds with its standard error ``loss_se`` (0 for the best)."""

    choice: Choice
    words: Phrase
    why: Phrase
    expected: float
    se: float
    points: float
    loss: float
    loss_se: float
    acceptable: bool

    @property
    def text(self) -> str:
        """The option's name in English (``discard the 7♥``)."""
        return english(self.words, SEAT_NAMES)

    @property
    def reason(self) -> str:
        """Why, in English."""
        return english(self.why, SEAT_NAMES)

    def to_dict(self) -> dict[str, Any]:
        return {
            "option": None if self.choice is None else action_to_dict(self.choice),
            "text": self.text,
            "reason": self.reason,
            "words": self.words.to_dict(),
            "reason_words": self.why.to_dict(),
            "expected": round(self.expected, 3),
            "se": round(self.se, 3),
            "points": round(self.points, 3),
            "loss": round(self.loss, 3),
            "loss_se": round(self.loss_se, 3),
            "acceptable": self.acceptable,
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """A seat's options measured over ``worlds`` worlds, best first."""

    seat: int
    options: tuple[OptionValue, ...]
    worlds: int
    seed: int

    @property
    def best(self) -> OptionValue:
        return self.options[0]

    @property
    def margin(self) -> float | None:
        """How many expected points the best option is better than the next (None with one option), as a
        hint shows it."""
        return self.options[1].loss if len(self.options) > 1 else None

    @property
    def acceptable(self) -> tuple[OptionValue, ...]:
        """The options within two standard errors of the best."""
        return tuple(o for o in self.options if o.acceptable)

    def value_of(self, choice: Choice) -> OptionValue:
        """The measure of ``choice`` (a discard stands for every copy of its face); ``KeyError`` when it was
        not measured."""
        key = option_key(choice)
        for option in self.options:
            if option_key(option.choice) == key:
                return option
        raise KeyError(f"{choice!r} was not among the options measured")

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "worlds": self.worlds,
            "seed": self.seed,
            "options": [o.to_dict() for o in self.options],
        }


def option_key(choice: Choice) -> Hashable:
    """Options that play alike: two copies of one face discarded are one option."""
    return ("discard", choice.card.face) if isinstance(choice, Discard) else choice


class Coach:
    """Ranks a seat's options (see the module docstring); ``worlds`` is the budget, ``candidates`` how many
    of ``medium``'s first options are measured."""

    def __init__(
        self, worlds: int = WORLDS, candidates: int = CANDIDATES, weights: Weights | None = None, max_steps: int = 3000
    ) -> None:
        if worlds < 2:
            raise ValueError(f"the coach needs at least 2 worlds for a standard error, not {worlds}")
        if candidates < 1:
            raise ValueError(f"the coach measures at least 1 option, not {candidates}")
        self.worlds = worlds
        self.candidates = candidates
        self.search = HardBot(worlds=worlds, weights=weights, max_steps=max_steps)

    @property
    def settings(self) -> dict[str, Any]:
        """What a stored verdict depends on besides the seed."""
        return {"version": COACH_VERSION, "worlds": self.worlds, "candidates": self.candidates}

    def shortlist(
        self, observation: Observation, options: Sequence[Action], include: Sequence[Choice] = ()
    ) -> list[Choice]:
        """The options to measure: ``medium``'s first ``candidates`` (one per discarded face), then each of
        ``include`` not among them (the option a player took, say)."""
        out: list[Choice] = []
        keys: set[Hashable] = set()
        for choice in self.search.guide.rank(observation, options):
            key = option_key(choice)
            if key not in keys and len(out) < self.candidates:
                keys.add(key)
                out.append(choice)
        for choice in include:
            if choice is None and must_act(observation):
                raise ValueError(f"seat {me(observation)} must act here: declining is not an option")
            if choice is not None and choice not in options:
                raise ValueError(f"{choice!r} is not among the seat's legal options")
            key = option_key(choice)
            if key not in keys:
                keys.add(key)
                out.append(choice)
        return out

    def advise(
        self, observation: Observation, options: Sequence[Action], seed: int = 0, include: Sequence[Choice] = ()
    ) -> Advice:
        """Measure the seat's options (see :meth:`shortlist`) over the coach's worlds, from ``observation``
        alone; the same observation, options and seed give the same advice."""
        seat = me(observation)
        if not options:
            raise ValueError(f"seat {seat} has no option to rank ({observation.phase.value} phase)")
        shortlist = self.shortlist(observation, options, include)
        rng = random.Random(seed)
        partnerships = observation.rules.partnerships
        rel: list[list[float]] = [[] for _ in shortlist]
        own: list[list[float]] = [[] for _ in shortlist]
        for _ in range(self.worlds):
            world = sample_world(observation, rng)
            chance_seed = rng.getrandbits(64)
            for j, choice in enumerate(shortlist):
                scores = self.search.deal_points(world.clone(), seat, choice, random.Random(chance_seed))
                rel[j].append(relative(scores, seat, partnerships))
                own[j].append(float(scores[seat]))
        means = [sum(r) / len(r) for r in rel]
        order = sorted(range(len(shortlist)), key=lambda j: (means[j], j))
        best = order[0]
        ranked = []
        for j in order:
            diffs = [a - b for a, b in zip(rel[j], rel[best], strict=True)]
            loss, loss_se = _mean_se(diffs)
            ranked.append(
                OptionValue(
                    choice=shortlist[j],
                    words=describe_words(shortlist[j], observation),
                    why=reason_words(shortlist[j], observation),
                    expected=means[j],
                    se=_mean_se(rel[j])[1],
                    points=sum(own[j]) / len(own[j]),
                    loss=loss,
                    loss_se=loss_se,
                    acceptable=acceptable(loss, loss_se),
                )
            )
        return Advice(seat=seat, options=tuple(ranked), worlds=self.worlds, seed=seed)


def acceptable(loss: float, loss_se: float) -> bool:
    """Whether an option that lost ``loss`` points (standard error ``loss_se``) against the best is within two
    standard errors of it.

    >>> acceptable(2.0, 1.0), acceptable(2.5, 1.0), acceptable(0.0, 0.0)
    (True, False, True)
    """
    return loss <= ACCEPT * loss_se


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
