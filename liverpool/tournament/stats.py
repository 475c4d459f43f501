"""What a tournament's games say: paired statistics over duplicate groups, and openskill ratings.

Only complete groups (every rotation played) are counted; an interrupted run drops the rest, since a
group missing a rotation favours whoever sat in the lucky seats. Within a group each entrant's points
are its mean total over the rotations; the group is the unit of the bootstrap (groups are resampled
with replacement, the same resamples for every statistic, from a generator seeded by the tournament's
seed), and intervals are percentile intervals.

Ratings are openskill's Plackett-Luce, each game a ranking by total points (lower is better, equal
totals share a rank), updated game by game in (group, rotation) order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray
from openskill.models import PlackettLuce

from .games import GameResult, Setup

CONFIDENCE = 0.95
RESAMPLES = 2000
_BATCH = 250  # resamples drawn at once, to bound memory with many groups

Matrix = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean over groups and its bootstrap confidence interval."""

    mean: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "low": self.low, "high": self.high}


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate, ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


@dataclass(frozen=True, slots=True)
class EntrantStats:
    label: str
    bot: str
    points: Interval
    """Penalty points per game."""
    vs_field: Interval
    """Points per game minus the mean of all entrants in the same group (negative is better)."""
    win_share: float
    """Share of games won, a shared win counting 1/k for each of k winners."""
    go_out_rate: float
    """Share of deals this entrant went out in."""
    buys_per_game: float
    rating: Rating


@dataclass(frozen=True, slots=True)
class PairStats:
    """Entrant ``a``'s points per game minus entrant ``b``'s, paired within groups."""

    a: str
    b: str
    difference: Interval


@dataclass(frozen=True, slots=True)
class Summary:
    groups: int
    """Complete groups counted."""
    games: int
    """Games counted (complete groups times seats)."""
    dropped_groups: int
    dropped_games: int
    confidence: float
    resamples: int
    entrants: tuple[EntrantStats, ...]
    pairs: tuple[PairStats, ...]


def split_complete(results: Sequence[GameResult], seats: int) -> tuple[list[GameResult], list[GameResult]]:
    """The games of complete groups and the games of incomplete ones, each sorted by (group, rotation)."""
    played: dict[int, set[int]] = {}
    for result in results:
        played.setdefault(result.group, set()).add(result.rotation)
    complete = {group for group, rotations in played.items() if rotations == set(range(seats))}
    ordered = sorted(results, key=lambda r: r.key)
    return [r for r in ordered if r.group in complete], [r for r in ordered if r.group not in complete]


def group_points(games: Sequence[GameResult], seats: int) -> Matrix:
    """Row per complete group (in group order), column per entrant: mean total over the rotations."""
    groups = sorted({game.group for game in games})
    row = {group: i for i, group in enumerate(groups)}
    points = np.zeros((len(groups), seats))
    for game in games:
        points[row[game.group]] += game.totals
    return points / seats


def field_differences(points: Matrix) -> Matrix:
    """Each entrant's points minus the mean of all entrants in the same group."""
    means: Matrix = points.mean(axis=1, keepdims=True)
    return points - means


def pair_differences(points: Matrix) -> tuple[list[tuple[int, int]], Matrix]:
    """Every pair (a, b) with a < b, and per group a's points minus b's (one column per pair)."""
    pairs = list(combinations(range(points.shape[1]), 2))
    columns: Matrix = np.column_stack([points[:, a] - points[:, b] for a, b in pairs])
    return pairs, columns


def bootstrap(
    columns: Matrix, rng: np.random.Generator, resamples: int = RESAMPLES, confidence: float = CONFIDENCE
) -> list[Interval]:
    """The mean of each column over rows (groups) with a percentile bootstrap interval.

    Every column is resampled with the same draws of rows, so statistics of one run stay paired.

    >>> values = np.array([[1.0, 10.0], [2.0, 10.0], [3.0, 10.0]])
    >>> [(i.mean, i.low <= i.mean <= i.high) for i in bootstrap(values, np.random.default_rng(0))]
    [(2.0, True), (10.0, True)]
    """
    n = columns.shape[0]
    means = []
    for start in range(0, resamples, _BATCH):
        counts = rng.multinomial(n, np.full(n, 1.0 / n), size=min(_BATCH, resamples - start))
        means.append(counts @ columns / n)
    tail = (1.0 - confidence) / 2
    low, high = np.quantile(np.concatenate(means), [tail, 1.0 - tail], axis=0)
    return [Interval(float(m), float(lo), float(hi)) for m, lo, hi in zip(columns.mean(axis=0), low, high, strict=True)]


def ratings(games: Sequence[GameResult], labels: Sequence[str]) -> list[Rating]:
    """Plackett-Luce ratings after every game in (group, rotation) order, ranked by total points."""
    model = PlackettLuce()
    current = [model.rating(name=label) for label in labels]
    for game in sorted(games, key=lambda g: g.key):
        teams = model.rate([[rating] for rating in current], ranks=[float(total) for total in game.totals])
        current = [team[0] for team in teams]
    return [Rating(r.mu, r.sigma) for r in current]


def bootstrap_rng(seed: int) -> np.random.Generator:
    """The bootstrap's generator: a function of the tournament seed alone."""
    return np.random.default_rng(random.Random(f"{seed}:bootstrap").getrandbits(64))


def summarize(
    setup: Setup, results: Sequence[GameResult], resamples: int = RESAMPLES, confidence: float = CONFIDENCE
) -> Summary | None:
    """The statistics of ``results``' complete groups, or None when no group is complete."""
    n = setup.seats
    games, dropped = split_complete(results, n)
    if not games:
        return None
    points = group_points(games, n)
    pairs, differences = pair_differences(points)
    intervals = bootstrap(
        np.hstack([points, field_differences(points), differences]), bootstrap_rng(setup.seed), resamples, confidence
    )
    wins, went_out, buys = np.zeros(n), np.zeros(n), np.zeros(n)
    deals = 0
    for game in games:
        for winner in game.winners:
            wins[winner] += 1 / len(game.winners)
        for entrant in game.went_out:
            if entrant is not None:
                went_out[entrant] += 1
        buys += game.buys
        deals += len(game.went_out)
    labels = setup.labels
    rated = ratings(games, labels)
    entrants = tuple(
        EntrantStats(
            label=labels[i],
            bot=setup.bots[i],
            points=intervals[i],
            vs_field=intervals[n + i],
            win_share=float(wins[i] / len(games)),
            go_out_rate=float(went_out[i] / deals),
            buys_per_game=float(buys[i] / len(games)),
            rating=rated[i],
        )
        for i in range(n)
    )
    pair_stats = tuple(PairStats(labels[a], labels[b], intervals[2 * n + k]) for k, (a, b) in enumerate(pairs))
    return Summary(
        groups=points.shape[0],
        games=len(games),
        dropped_groups=len({game.group for game in dropped}),
        dropped_games=len(dropped),
        confidence=confidence,
        resamples=resamples,
        entrants=entrants,
        pairs=pair_stats,
    )


def summary_to_dict(summary: Summary) -> dict[str, Any]:
    """The JSON form of a summary (see :mod:`.report` for the whole file)."""
    return {
        "groups": summary.groups,
        "games": summary.games,
        "dropped_groups": summary.dropped_groups,
        "dropped_games": summary.dropped_games,
        "confidence": summary.confidence,
        "resamples": summary.resamples,
        "entrants": [
            {
                "label": e.label,
                "bot": e.bot,
                "points": e.points.to_dict(),
                "vs_field": e.vs_field.to_dict(),
                "win_share": e.win_share,
                "go_out_rate": e.go_out_rate,
                "buys_per_game": e.buys_per_game,
                "rating": e.rating.to_dict(),
            }
            for e in summary.entrants
        ],
        "pairs": [{"a": p.a, "b": p.b, "difference": p.difference.to_dict()} for p in summary.pairs],
    }
