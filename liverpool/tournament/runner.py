"""Scheduling a tournament's games and playing them in this process, in local processes, or on Ray.

Every game is a pure function of (setup, group, rotation) (see :mod:`.games`), and results are sorted by
(group, rotation) before anything is counted, so the backend and the order of completion never change
the outcome. Ctrl-C (``KeyboardInterrupt``, in the loop or raised by ``on_result``) stops the run and
returns the games finished so far.

Ray is an optional extra (``pip install 'liverpool[ray]'``), imported only when asked for.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from .games import GameResult, Setup, TournamentError, play_game

OnResult = Callable[[GameResult], None]
RAY_POLL_SECONDS = 0.2


class RayUnavailable(RuntimeError):
    """``--ray`` was asked for but Ray is not installed or its cluster cannot be reached."""


@dataclass(frozen=True, slots=True)
class Run:
    """The games a run finished, sorted by (group, rotation), and whether it was interrupted."""

    setup: Setup
    groups: int
    results: tuple[GameResult, ...]
    interrupted: bool

    @property
    def games(self) -> int:
        """Games scheduled: every group in every rotation."""
        return self.groups * self.setup.seats


def schedule(seats: int, groups: int) -> list[tuple[int, int]]:
    """Every (group, rotation) of a tournament, group by group.

    >>> schedule(seats=3, groups=2)
    [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    """
    if groups < 1:
        raise TournamentError(f"--games must be at least 1 (one duplicate group), not {groups}")
    return [(group, rotation) for group in range(groups) for rotation in range(seats)]


def run_tournament(
    setup: Setup,
    groups: int,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    on_result: OnResult | None = None,
    done: Sequence[GameResult] = (),
) -> Run:
    """Play ``groups`` duplicate groups: here (``workers`` 1), in local processes, or as Ray tasks.

    Games in ``done`` (read back from an earlier run of the same setup) are kept and not played again.
    """
    kept = {result.key for result in done}
    jobs = [job for job in schedule(setup.seats, groups) if job not in kept]
    if workers < 1:
        raise TournamentError(f"--workers must be at least 1, not {workers}")
    source: Generator[GameResult, None, None]
    if ray_address is not None:
        source = _ray_results(setup, jobs, ray_address)
    elif workers > 1:
        source = _process_results(setup, jobs, workers)
    else:
        source = (play_game(setup, group, rotation) for group, rotation in jobs)
    finished = list(done)
    interrupted = False
    try:
        for result in source:
            finished.append(result)
            if on_result is not None:
                on_result(result)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        source.close()
    finished.sort(key=lambda r: r.key)
    return Run(setup, groups, tuple(finished), interrupted)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which stops handing out games."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _process_results(setup: Setup, jobs: list[tuple[int, int]], workers: int) -> Generator[GameResult, None, None]:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_interrupts) as pool:
        futures: list[Future[GameResult]] = [pool.submit(play_game, setup, group, rotation) for group, rotation in jobs]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def _ray_results(setup: Setup, jobs: list[tuple[int, int]], address: str) -> Generator[GameResult, None, None]:
    ray = _import_ray()
    started = not ray.is_initialized()
    if started:
        try:
            ray.init(address=address)
        except ConnectionError as exc:
            raise RayUnavailable(f"cannot reach a Ray cluster at {address!r}: {exc}") from exc
    try:
        task = ray.remote(play_game)
        shared = ray.put(setup)
        pending: list[Any] = [task.remote(shared, group, rotation) for group, rotation in jobs]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=len(pending), timeout=RAY_POLL_SECONDS)
                for ref in done:
                    yield ray.get(ref)
        finally:
            for ref in pending:
                ray.cancel(ref)
    finally:
        if started:
            ray.shutdown()


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable("--ray needs Ray: pip install 'liverpool[ray]'") from None
    return ray
