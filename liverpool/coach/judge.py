"""Judgements of a decision by the expected points it lost.

A decision that lost ``loss`` expected points against the best option, measured with standard error ``se``
(both from paired worlds, :class:`~.advice.OptionValue`), lost ``excess = loss - se`` points beyond
the noise of the measure; the thresholds on ``excess`` are calibrated on games between bots
(``benchmarks/coach_calibration.py``, figures in ``docs/coach.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Judgement(Enum):
    """How a decision compares with the best option found."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def flagged(self) -> bool:
        """An inaccuracy, a mistake or a blunder."""
        return self in (Judgement.INACCURACY, Judgement.MISTAKE, Judgement.BLUNDER)


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Expected points lost beyond the standard error from which a decision is each judgement."""

    inaccuracy: float
    mistake: float
    blunder: float

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder:
            raise ValueError(
                f"thresholds must grow: 0 < inaccuracy <= mistake <= blunder, not {self.inaccuracy}, "
                f"{self.mistake}, {self.blunder}"
            )


THRESHOLDS = Thresholds(inaccuracy=5.0, mistake=7.0, blunder=14.0)
"""The calibrated thresholds (``docs/coach.md``: how they were chosen)."""


def judge(loss: float, se: float, best: bool, thresholds: Thresholds = THRESHOLDS) -> Judgement:
    """The judgement of a decision that lost ``loss`` expected points (standard error ``se``) against the
    best option; ``best``: it was the best option.

    >>> judge(0.0, 0.0, best=True).value, judge(3.0, 1.0, best=False).value, judge(30.0, 2.0, best=False).value
    ('best', 'good', 'blunder')
    """
    if best:
        return Judgement.BEST
    excess = loss - se
    if excess >= thresholds.blunder:
        return Judgement.BLUNDER
    if excess >= thresholds.mistake:
        return Judgement.MISTAKE
    if excess >= thresholds.inaccuracy:
        return Judgement.INACCURACY
    return Judgement.GOOD
