"""Where a step of ``liverpool_v0`` goes (issue 32), in the loop of ``benchmarks/env_speed.py``.

    PYTHONPATH=. .venv-bench/bin/python benchmarks/env_split.py [--compiled build/mypyc] [--games 6] [--passes 3]
    PYTHONPATH=. .venv-bench/bin/python benchmarks/env_split.py [--compiled build/mypyc] --split [--seconds 5]

The loop is ``env_speed.py``'s: the wrapped ``env()`` (preset ``liverpool``, 4 seats), ``env.last()`` for the
agent to act, a uniformly random legal action (``rng.integers`` over ``np.flatnonzero`` of the mask), then
``env.step``; seeds 0, 1, 2, ...

* Without ``--split``: the environment's microseconds a step (``time.perf_counter``; the agent's choice timed
  apart and left out) over the same ``--games`` seeded games, the least of ``--passes`` passes: a figure for
  comparing two trees in alternating runs, steadier than ``env_speed.py``'s (which plays as many games as fit
  in its CPU time, so each run plays a different mix).
* With ``--split``: ``time.perf_counter`` around the loop's calls (the iterator's ``next``, ``env.last``, the
  agent, ``env.step``) and around the environment's parts, each wrapped where ``liverpool_v0`` reads it: the
  engine's ``legal_actions``, ``apply``, ``observe``, ``asking_order``, ``is_chance``; the encoding's
  ``encode_observation`` and ``choices``; ``raw_env``'s ``observe``, ``action_mask``, ``step``, ``_next_seat``,
  ``_advance_chance``, ``_score`` and ``_accumulate_rewards``. Nested parts overlap (``raw.observe`` holds
  ``action_mask``, which holds most ``legal_actions`` calls and ``choices``), and each timer adds about 0.2 us.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--compiled", help="a mypyc build (scripts/compile.py) to put first on the path")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--split", action="store_true", help="time the parts of a step")
    parser.add_argument("--seconds", type=float, default=5.0, help="with --split: CPU seconds of whole games")
    args = parser.parse_args()
    if args.compiled:
        sys.path.insert(0, args.compiled)
    import numpy as np
    from env_speed import _pick  # the agent of env_speed.py (this folder is first on the path)

    import liverpool.env.encoding as enc
    import liverpool.env.liverpool_v0 as v0
    from liverpool.engine import is_compiled

    spent: dict[str, float] = defaultdict(float)
    calls: dict[str, int] = defaultdict(int)
    clock = time.perf_counter

    def timed(owner: Any, name: str, label: str) -> None:
        inner: Callable[..., Any] = getattr(owner, name)

        def call(*a: Any, **k: Any) -> Any:
            start = clock()
            try:
                return inner(*a, **k)
            finally:
                spent[label] += clock() - start
                calls[label] += 1

        setattr(owner, name, call)

    if args.split:
        for name in ("legal_actions", "apply", "observe", "asking_order", "is_chance"):
            timed(v0, name, name)
        for name in ("encode_observation", "choices"):
            timed(enc, name, name)  # (liverpool_v0 reads them from the module at each call)
        for name in ("observe", "action_mask", "step", "_next_seat", "_advance_chance", "_score"):
            timed(v0.raw_env, name, f"raw.{name}")
        timed(v0.raw_env, "_accumulate_rewards", "raw._accumulate_rewards")

    loop: dict[str, float] = defaultdict(float)

    def play(seed: int) -> int:
        env = v0.env(preset="liverpool", seats=4)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        agents = iter(env.agent_iter())
        steps = 0
        while True:
            t0 = clock()
            try:
                next(agents)
            except StopIteration:
                return steps
            t1 = clock()
            obs, _, terminated, truncated, _ = env.last()
            t2 = clock()
            loop["agent_iter next"] += t1 - t0
            loop["env.last"] += t2 - t1
            if terminated or truncated:
                env.step(None)
                continue
            action = _pick(rng, obs["action_mask"])
            t3 = clock()
            env.step(action)
            loop["agent"] += t3 - t2
            loop["env.step"] += clock() - t3
            steps += 1

    if args.split:
        cpu = time.process_time
        start = cpu()
        steps = games = 0
        while cpu() - start < args.seconds:
            steps += play(games)
            games += 1
        print(f"compiled engine: {is_compiled()}; {games} games, {steps} steps")
        for name in ("agent_iter next", "env.last", "agent", "env.step"):
            print(f"  {name:<26} {1e6 * loop[name] / steps:7.1f} us a step")
        for name in sorted(spent, key=lambda n: -spent[n]):
            print(
                f"  {name:<26} {1e6 * spent[name] / steps:7.1f} us a step  {calls[name] / steps:5.2f} calls a step"
                f"  {1e6 * spent[name] / calls[name]:7.1f} us a call"
            )
        return
    best = float("inf")
    for _ in range(args.passes):
        loop.clear()
        steps = sum(play(seed) for seed in range(args.games))
        best = min(best, sum(loop.values()) - loop["agent"])
    print(f"compiled engine: {is_compiled()}; {args.games} games, {steps} steps: {1e6 * best / steps:.1f} us a step")


if __name__ == "__main__":
    main()
