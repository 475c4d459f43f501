"""How much a hint being measured holds up the server's event loop: in a worker thread or a worker process.

The server's actors all run on one asyncio event loop. While the coach measures a hint, a ticker on the
loop asks to wake every 10 ms; how late it wakes is how long any other table's message would wait. The
coach is pure Python, so in a thread it holds the interpreter lock (the loop gets it back only at the
interpreter's switch interval); in a process it holds nothing of the server's. Prints the ticker's delays
(median, p99, max) and the hints' wall time for each way.

    python benchmarks/hint_offload.py [--hints 6] [--worlds 12]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from liverpool.engine import Phase, apply, chance_action, find_preset, legal_actions, new_game, observe
from liverpool.server.coaching import Budget, advise

TICK_S = 0.010


def positions(count: int) -> list[tuple[object, list[object]]]:
    """Seeded decisions of the first seat to move, a few plies into deals of ``liverpool``."""
    out: list[tuple[object, list[object]]] = []
    rng = random.Random(7)
    while len(out) < count:
        state = new_game(find_preset("liverpool"), 4)
        apply(state, chance_action(state, rng))
        for _ in range(rng.randrange(0, 12)):
            options = legal_actions(state)
            if not options or state.phase is Phase.DEAL:
                break
            apply(state, options[0] if state.phase is not Phase.PLAY else options[-1])
        seat = state.current
        options = legal_actions(state, seat)
        if len(options) > 1:
            out.append((observe(state, seat), options))
    return out


async def measure(executor: Executor, budget: Budget, work: list[tuple[object, list[object]]]) -> dict[str, float]:
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    done = False

    async def ticker() -> None:
        while not done:
            start = time.perf_counter()
            await asyncio.sleep(TICK_S)
            lags.append(time.perf_counter() - start - TICK_S)

    await loop.run_in_executor(executor, advise, budget, *work[0], 0)  # warm the worker up
    tick = asyncio.create_task(ticker())
    start = time.perf_counter()
    for n, (observation, options) in enumerate(work):
        await loop.run_in_executor(executor, advise, budget, observation, options, n)
    wall = time.perf_counter() - start
    done = True
    await tick
    lags.sort()
    return {
        "lag_median_ms": 1000 * statistics.median(lags),
        "lag_p99_ms": 1000 * lags[min(len(lags) - 1, int(0.99 * len(lags)))],
        "lag_max_ms": 1000 * lags[-1],
        "hint_mean_ms": 1000 * wall / len(work),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hints", type=int, default=6)
    parser.add_argument("--worlds", type=int, default=12)
    args = parser.parse_args()
    budget = Budget(worlds=args.worlds)
    work = positions(args.hints)
    ways: dict[str, Executor] = {
        "thread": ThreadPoolExecutor(1),
        "process": ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")),
    }
    for name, executor in ways.items():
        with executor:
            figures = asyncio.run(measure(executor, budget, work))
        print(f"{name:8}", "  ".join(f"{k} {v:7.1f}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
