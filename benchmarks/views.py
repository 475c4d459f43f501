"""The CPU an observation costs a server (issue 27, item 6): µs per view, as the actor converts them.

Every state of a seeded 4-seat ``liverpool`` game of random legal moves is observed for the spectators
and for seat 0, and each observation is turned into the dict the server sends, once with
``liverpool.server.views.ClientViews`` (what the actor does: the results and the pile log converted once)
and once with the engine's ``Observation.to_client_dict`` alone. The figure is the best of ``--passes``
(``time.process_time``), per view. The game is the same in every run of a seed, so two builds or two
commits compare on the same states:

    taskset -c 1 python benchmarks/views.py [--seed 1] [--deals 3] [--passes 3]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from liverpool.engine import (
    GameState,
    Observation,
    apply,
    chance_action,
    find_preset,
    is_chance,
    legal_actions,
    new_game,
    observe,
)
from liverpool.server.views import ClientViews


def states(seed: int, deals: int) -> list[GameState]:
    """Every state of a seeded game of random legal moves up to the end of ``deals`` deals."""
    rng = random.Random(seed)
    state = new_game(find_preset("liverpool"), 4, 0)
    out = []
    while not state.is_over and len(state.results) < deals:
        action = chance_action(state, rng) if is_chance(state) else rng.choice(legal_actions(state))
        apply(state, action)
        out.append(state.clone())
    return out


def per_view(
    observations: list[Observation], convert: Callable[[], Callable[[Observation], Any]], passes: int
) -> float:
    """Best CPU µs per observation converted, over ``passes`` passes (each with a fresh converter)."""
    best = float("inf")
    for _ in range(passes):
        one = convert()
        start = time.process_time()
        for observation in observations:
            one(observation)
        best = min(best, time.process_time() - start)
    return best / len(observations) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    parser.add_argument("--deals", type=int, default=3, help="deals played (default 3)")
    parser.add_argument("--passes", type=int, default=3, help="timed passes, the best kept (default 3)")
    args = parser.parse_args()
    if args.deals < 1 or args.passes < 1:
        parser.error("--deals and --passes must be at least 1")
    played = states(args.seed, args.deals)
    observations = [observe(state, seat) for state in played for seat in (None, 0)]
    views = per_view(observations, lambda: ClientViews().client_dict, args.passes)
    whole = per_view(observations, lambda: Observation.to_client_dict, args.passes)
    print(f"{len(played)} states, {len(observations)} views (spectators' and seat 0's), best of {args.passes}")
    print(f"ClientViews.client_dict   {views:8.1f} µs a view")
    print(f"to_client_dict, whole     {whole:8.1f} µs a view")


if __name__ == "__main__":
    main()
