"""Where a step of ``liverpool_v0`` could still be saved (issue 32): what changes between a seat's observations,
and what the engine's listing costs by phase.

    PYTHONPATH=. .venv-bench/bin/python benchmarks/env_parts.py [--compiled build/mypyc] [--games 4]

Plays the loop of ``benchmarks/env_speed.py`` (the wrapped ``env()``, the default preset and 4 seats, seeded
games, a uniformly random legal action) and reports:

* for each part of the engine's observation, in how many of a seat's observations it differs from that seat's
  previous one (what an observation array kept per seat and updated in place could skip);
* the engine's ``legal_actions`` as the environment calls it, by phase, whether a seat is named and whether a
  going-down is listed: calls, microseconds a call (``time.perf_counter`` around each call) and a step.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compiled", help="a mypyc build (scripts/compile.py) to put first on the path")
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    if args.compiled:
        sys.path.insert(0, args.compiled)
    import numpy as np
    from env_speed import _pick  # the agent of env_speed.py (this folder is first on the path)

    import liverpool.env.liverpool_v0 as v0
    from liverpool.engine import GoDown, is_compiled, observe

    names = vars(v0)  # (the engine's function as the environment's module reads it)
    listing = names["legal_actions"]
    timings: dict[tuple[str, bool, bool], list[float]] = defaultdict(lambda: [0, 0.0])

    def timed(state: Any, *seat: int) -> Any:
        start = time.perf_counter()
        listed = listing(state, *seat)
        spent = time.perf_counter() - start
        entry = timings[(state.phase.name, bool(seat), any(isinstance(a, GoDown) for a in listed))]
        entry[0] += 1
        entry[1] += spent
        return listed

    names["legal_actions"] = timed
    parts: dict[str, Callable[[Any], Any]] = {
        "hand": lambda o: o.hand,
        "discard pile": lambda o: o.discard_pile,
        "seats' counts, buys, down": lambda o: [(v.hand_count, v.buys, v.down) for v in o.seats],
        "seats' known cards": lambda o: [v.known for v in o.seats],
        "table melds": lambda o: o.melds,
        "contract": lambda o: o.contract,
    }
    changed = dict.fromkeys(parts, 0)
    last: dict[int, list[Any]] = {}
    steps = compared = 0
    for game in range(args.games):
        env: Any = v0.env()
        env.reset(seed=game)
        raw = env.unwrapped
        rng = np.random.default_rng(game)
        for agent in env.agent_iter():
            seat = raw.agent_name_mapping[agent]
            seen = observe(raw.state, seat)
            now = [read(seen) for read in parts.values()]
            if seat in last:
                compared += 1
                for name, before, after in zip(parts, last[seat], now, strict=True):
                    changed[name] += before != after
            last[seat] = now
            obs, _, terminated, truncated, _ = env.last()
            action = None
            if not (terminated or truncated):
                action = _pick(rng, obs["action_mask"])
            env.step(action)
            steps += 1
    print(f"compiled engine: {is_compiled()}; {args.games} games, {steps} steps")
    print(f"changed since the seat's previous observation (of {compared}):")
    for name, count in changed.items():
        print(f"  {name:28s} {count:6d}  {count / compared:6.1%}")
    print("legal_actions by phase, seat named, going-down listed: calls, µs a call, µs a step")
    for (phase, named, going_down), (calls, spent) in sorted(timings.items(), key=lambda kv: -kv[1][1]):
        print(
            f"  {phase:9s} {named!s:5s} {going_down!s:5s} {calls:6d} {spent / calls * 1e6:8.1f} {spent / steps * 1e6:8.1f}"
        )


if __name__ == "__main__":
    main()
