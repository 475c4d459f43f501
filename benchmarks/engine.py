"""Engine speed figures (not a test): full-game turns per second for every preset with 4 seats of
`random` bots, and contract-search microseconds per hand (median, p99).

    .venv/bin/python benchmarks/engine.py [--games 3] [--hands 2000]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from pathlib import Path

from liverpool.bots.random_bot import random_bot
from liverpool.engine.play import run_game
from liverpool.engine.presets import PRESETS


def game_speed(preset: str, games: int, seats: int = 4) -> dict[str, float]:
    rules = PRESETS[preset]
    turns = actions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = run_game(rules, [random_bot] * seats, random.Random(seed))
        turns += state.turn
        actions += len(state.history)
    elapsed = time.perf_counter() - start
    return {"turns_per_s": turns / elapsed, "actions_per_s": actions / elapsed, "games_per_s": games / elapsed}


def _search_measure(hands: int) -> dict[str, float] | None:
    path = Path(__file__).with_name("search.py")
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("search_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result: dict[str, float] = module.measure(hands, 1)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3, help="games per preset")
    parser.add_argument("--hands", type=int, default=2000, help="hands in the contract-search corpus")
    args = parser.parse_args(argv)
    print(f"{'preset':<15} {'turns/s':>10} {'actions/s':>10} {'games/s':>8}")
    for preset in PRESETS:
        figures = game_speed(preset, args.games)
        print(f"{preset:<15} {figures['turns_per_s']:>10.0f} {figures['actions_per_s']:>10.0f} {figures['games_per_s']:>8.2f}")
    search = _search_measure(args.hands)
    if search is not None:
        print("contract search:", ", ".join(f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}" for k, v in search.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
