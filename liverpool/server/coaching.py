"""The coach at the server: hints and reviews measured in a pool of worker processes, off every actor.

The coach (:mod:`liverpool.coach`) is pure Python and holds the interpreter while it measures, so it runs
in worker processes (a :class:`~concurrent.futures.ProcessPoolExecutor`, started on first use): a table
whose player asks for a hint, or a review being measured, never holds up another table's actor. What a
worker is given is one seat's observation and its options (for a hint) or a finished game's record (for a
review), never a live game state. ``docs/coach.md`` (At the table) has the figures behind the choice.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import zlib
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from liverpool.coach import Coach, Review, review_record
from liverpool.engine import Action, GameRecord, Observation, action_to_dict, replay

from .errors import Refused

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Budget:
    """How much the coach measures: worlds per decision, options per decision."""

    worlds: int = 12
    candidates: int = 4

    def __post_init__(self) -> None:
        self.coach()  # the coach says what is wrong with a budget it cannot measure with

    def coach(self) -> Coach:
        return Coach(worlds=self.worlds, candidates=self.candidates)

    def key(self) -> str:
        """What a stored review is filed under: the coach's version and this budget."""
        settings = self.coach().settings
        return f"{settings['version']}/w{self.worlds}/c{self.candidates}"


def hint_seed(table_id: str, seq: int, seat: int) -> int:
    """The same moment of the same table gets the same hint.

    >>> hint_seed('t', 3, 1) == hint_seed('t', 3, 1) != hint_seed('t', 4, 1)
    True
    """
    return zlib.crc32(f"{table_id}:{seq}:{seat}".encode())


def advise(budget: Budget, observation: Observation, options: list[Action], seed: int) -> dict[str, Any]:
    """A hint, in a worker: the coach's advice from ``observation`` alone, as the ``hint`` message's body."""
    advice = budget.coach().advise(observation, options, seed)
    best = advice.best
    return {
        "option": None if best.choice is None else action_to_dict(best.choice),
        "text": best.text,
        "reason": best.reason,
        "words": best.words.to_dict(),
        "reason_words": best.why.to_dict(),
        "expected": round(best.expected, 1),
        "se": round(best.se, 1),
        "margin": None if advice.margin is None else round(advice.margin, 1),
        "options": [o.to_dict() for o in advice.options],
    }


def review_deal(budget: Budget, record: GameRecord, seat: int, deal: int) -> Review:
    """One deal of a review, in a worker (a deal's decisions depend on that deal only, so deals are measured
    apart and joined: the same verdicts as one review of the whole record)."""
    return review_record(record, seat, budget.coach(), seed=0, deals={deal})


def join_reviews(parts: list[Review]) -> Review:
    """The review of every deal, from each deal's."""
    first = parts[0]
    return Review(
        seat=first.seat,
        coach=first.coach,
        seed=first.seed,
        record_sha256=first.record_sha256,
        thresholds=first.thresholds,
        decisions=tuple(d for part in parts for d in part.decisions),
        draws=tuple(d for part in parts for d in part.draws),
    )


@dataclass
class Job:
    """A review being measured: deals done of ``total``, and its task."""

    total: int
    done: int = 0
    task: asyncio.Task[None] | None = None
    failed: str | None = None

    def view(self) -> dict[str, Any]:
        return {"status": "measuring", "done": self.done, "total": self.total, "unit": "deals"}


class Coaching:
    """The worker pool, and the reviews being measured (one job per table and seat)."""

    def __init__(self, workers: int, hints: Budget, reviews: Budget) -> None:
        if workers < 1:
            raise ValueError(f"the coach needs at least 1 worker process, not {workers}")
        self.workers = workers
        self.hints = hints
        self.reviews = reviews
        self.jobs: dict[tuple[str, int], Job] = {}
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fork of the server would copy its event loop, threads and database connections
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def hint(self, observation: Observation, options: list[Action], seed: int) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool(), advise, self.hints, observation, options, seed)

    def review_job(self, table_id: str, seat: int, record: GameRecord, save: Callable[[dict[str, Any]], object]) -> Job:
        """The job measuring ``seat``'s review of ``record`` (started if it is not running); ``save`` stores
        the finished review (blocking; run in a thread)."""
        key = (table_id, seat)
        job = self.jobs.get(key)
        if job is not None and job.failed is None:
            return job
        deals = _deals(record)
        if not deals:
            raise Refused(409, "no_deal", "this game has no finished deal to review")
        job = Job(total=len(deals))
        job.task = asyncio.create_task(self._review(job, key, record, seat, deals, save), name=f"review {key}")
        self.jobs[key] = job
        return job

    async def _review(
        self,
        job: Job,
        key: tuple[str, int],
        record: GameRecord,
        seat: int,
        deals: list[int],
        save: Callable[[dict[str, Any]], object],
    ) -> None:
        loop = asyncio.get_running_loop()

        async def one(deal: int) -> Review:
            part = await loop.run_in_executor(self.pool(), review_deal, self.reviews, record, seat, deal)
            job.done += 1
            return part

        try:
            parts = await asyncio.gather(*(one(d) for d in deals))
            review = {**join_reviews(list(parts)).to_dict(), "budget": self.reviews.key()}
            await asyncio.to_thread(save, review)
        except Exception as exc:  # a failed job says why to whoever asks next, who may retry
            log.exception("the review of %s failed", key)
            job.failed = f"{type(exc).__name__}: {exc}"
            return
        if self.jobs.get(key) is job:
            del self.jobs[key]

    def close(self) -> None:
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _deals(record: GameRecord) -> list[int]:
    """The deals of ``record`` that ended."""
    return sorted({r.deal for r in replay(record).results})
