"""A review of one seat's play in a game record: every decision measured and judged, every stock draw's luck.

:func:`review_record` replays the record through the engine and, before each action the seat took, asks
the :class:`~.advice.Coach` about the seat's observation and legal options (the option taken is always
measured). A decline left implicit (letting a discard go without a word) is not a recorded action and is
not reviewed. The luck of a stock draw is the expected points of drawing from the stock, measured before
the draw (the average over the cards the stock could hold), less the best expected points at the seat's
next decision, once the card is known: positive when the card drawn was better than the average draw.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from liverpool.bots.easy import Choice
from liverpool.engine import (
    Action,
    Card,
    DrawStock,
    GameRecord,
    GameState,
    Reshuffle,
    Shuffle,
    action_to_dict,
    apply,
    legal_actions,
    new_game,
    new_position,
    observe,
)

from .advice import Advice, Coach
from .judge import THRESHOLDS, Judgement, Thresholds, judge

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the seat: the record's action ``index``, what it ``played``, the coach's advice and
    the judgement of the option played."""

    index: int
    deal: int
    played: Choice
    advice: Advice
    judgement: Judgement

    @property
    def expected(self) -> float:
        """The expected points of the option played."""
        return self.advice.value_of(self.played).expected

    @property
    def lost(self) -> float:
        """Expected points lost against the best option, beyond their standard error."""
        value = self.advice.value_of(self.played)
        return value.loss - value.loss_se

    def to_dict(self) -> dict[str, Any]:
        value = self.advice.value_of(self.played)
        return {
            "index": self.index,
            "deal": self.deal + 1,
            "played": None if self.played is None else action_to_dict(self.played),
            "played_text": value.text,
            "played_words": value.words.to_dict(),
            "expected": round(value.expected, 3),
            "se": round(value.se, 3),
            "loss": round(value.loss, 3),
            "loss_se": round(value.loss_se, 3),
            "judgement": self.judgement.value,
            "advice": self.advice.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class DrawLuck:
    """A stock draw (action ``index``) rated against the average draw: ``luck`` expected points saved (negative:
    lost) by the card drawn, with standard error ``se``."""

    index: int
    deal: int
    card: str
    luck: float
    se: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "deal": self.deal + 1,
            "card": self.card,
            "luck": round(self.luck, 3),
            "se": round(self.se, 3),
        }


@dataclass(frozen=True, slots=True)
class Review:
    """Every reviewed decision of ``seat`` and the luck of its stock draws, with what the verdicts depend on
    (the coach's version and budget, the seed, the record's digest)."""

    seat: int
    coach: dict[str, Any]
    seed: int
    record_sha256: str
    thresholds: Thresholds
    decisions: tuple[Decision, ...]
    draws: tuple[DrawLuck, ...]

    def worse_by(self, threshold: float) -> list[Decision]:
        """The decisions where the best option was better by more than ``threshold`` points beyond the
        standard error."""
        return [d for d in self.decisions if d.lost > threshold]

    def counts(self) -> dict[str, int]:
        """How many decisions got each judgement."""
        return {j.value: sum(1 for d in self.decisions if d.judgement is j) for j in Judgement}

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "coach": self.coach,
            "seed": self.seed,
            "record_sha256": self.record_sha256,
            "thresholds": {
                "inaccuracy": self.thresholds.inaccuracy,
                "mistake": self.thresholds.mistake,
                "blunder": self.thresholds.blunder,
            },
            "counts": self.counts(),
            "luck": round(sum(d.luck for d in self.draws), 3),
            "decisions": [d.to_dict() for d in self.decisions],
            "draws": [d.to_dict() for d in self.draws],
        }


def record_digest(record: GameRecord) -> str:
    """The SHA-256 of the record's canonical JSON: a stored review names the game it is of."""
    return hashlib.sha256(record.to_json().encode()).hexdigest()


def _start(record: GameRecord) -> GameState:
    if record.position is not None:
        return new_position(record.rules, record.position)
    return new_game(record.rules, len(record.seats), record.first_dealer)


def review_record(
    record: GameRecord,
    seat: int,
    coach: Coach | None = None,
    seed: int = 0,
    deals: Collection[int] | None = None,
    thresholds: Thresholds = THRESHOLDS,
    progress: Progress | None = None,
) -> Review:
    """Review seat ``seat``'s decisions in ``record`` (only deals in ``deals``, 0-based, when given); the
    decision at action ``i`` is measured with seed ``seed * 1_000_003 + i``, so a review is reproducible.
    ``progress(done, total)`` is called after each decision."""
    seats = len(record.seats)
    if not 0 <= seat < seats:
        raise ValueError(f"seat {seat} is not a seat of this {seats}-seat game (seats 0..{seats - 1})")
    coach = coach if coach is not None else Coach()
    state = _start(record)
    todo = _decision_indices(record, seat, deals)
    decisions: list[Decision] = []
    draws: list[DrawLuck] = []
    pending: tuple[int, int, float, float, list[Card]] | None = None  # a stock draw waiting for the next decision
    for index, action in enumerate(record.actions):
        if index in todo:
            options = legal_actions(state, seat)
            if action not in options:
                # Legal (the record replays) but not one the engine lists: a go-down built by hand, say (the
                # engine lists a few arrangements, with their cards in its own order).
                options = [*options, action]
            advice = coach.advise(observe(state, seat), options, seed * 1_000_003 + index, include=[action])
            value = advice.value_of(action)
            best = value is advice.best
            decisions.append(
                Decision(index, state.deal, action, advice, judge(value.loss, value.loss_se, best, thresholds))
            )
            if pending is not None:
                at, deal, before, before_se, held = pending
                drawn = [c for c in state.hands[seat] if c not in held]
                if deal == state.deal and drawn:
                    after = advice.best
                    se = (before_se**2 + after.se**2) ** 0.5
                    draws.append(DrawLuck(at, deal, " ".join(c.pretty() for c in drawn), before - after.expected, se))
                pending = None
            if isinstance(action, DrawStock):
                pending = (index, state.deal, value.expected, value.se, list(state.hands[seat]))
            if progress is not None:
                progress(len(decisions), len(todo))
        apply(state, action)
    return Review(
        seat=seat,
        coach=coach.settings,
        seed=seed,
        record_sha256=record_digest(record),
        thresholds=thresholds,
        decisions=tuple(decisions),
        draws=tuple(draws),
    )


def _decision_indices(record: GameRecord, seat: int, deals: Collection[int] | None) -> set[int]:
    """The indices of the actions ``seat`` took (in ``deals``)."""
    state = _start(record)
    out: set[int] = set()
    for index, action in enumerate(record.actions):
        if _is_seat_action(action, seat) and (deals is None or state.deal in deals):
            out.add(index)
        apply(state, action)
    return out


def _is_seat_action(action: Action, seat: int) -> bool:
    return not isinstance(action, Shuffle | Reshuffle) and action.seat == seat
