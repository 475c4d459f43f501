"""Engine speed only, in the development venv (no peers, no oracle, one process): whole games of every
preset with 4 seats, and the contract search on the corpus of ``contracts.py``. For the full side-by-side
figures use ``make bench`` (``benchmarks/peers.py``).

    .venv/bin/python benchmarks/engine.py [--games 3] [--hands 2000] [--bot random]
"""

from __future__ import annotations

import argparse
import sys

import contracts
import games

from liverpool.engine import PRESETS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="games per preset")
    parser.add_argument("--hands", type=int, default=2000, help="hands in the contract-search corpus")
    parser.add_argument("--bot", default="random", help="the bot at every seat")
    args = parser.parse_args(argv)
    print(f"{'preset':<15} {'turns/s':>10} {'steps/s':>10} {'games/s':>8}")
    for preset in PRESETS:
        figures = games.engine_games(preset, 4, args.bot, args.games, 1)
        print(
            f"{preset:<15} {figures['turns_per_s']:>10.0f} {figures['decision_steps_per_s']:>10.0f} "
            f"{figures['games_per_s']:>8.2f}"
        )
    cases = contracts.corpus(args.hands, 1)
    search = contracts.summary([ns for _, ns in contracts.run_ours(cases)])
    print(f"contract search ({args.hands} hands): median {search['median_us']:.1f} us, p99 {search['p99_us']:.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
