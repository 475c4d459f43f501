"""Where the engine spends its time: pyinstrument profiles of whole games and of the contract-search corpus.

    .venv-bench/bin/python benchmarks/hotspots.py [--games 5] [--hands 2000] [--top 15] [--json FILE]

(``bash scripts/bench.sh --profile`` runs it after the figures.) For each scenario it prints the
functions with the most *self* time (time in the function's own code, not in what it calls) and the most
*inclusive* time (its own and its callees', a recursive call counted once), as shares of the scenario.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyinstrument import Profiler
from pyinstrument.frame import Frame

from liverpool.bots.registry import bot_names, make_bot
from liverpool.engine import PRESETS, best_leftover, find_arrangements, run_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
import contracts


def _name(frame: Frame) -> str:
    function = f"{frame.class_name}.{frame.function}" if frame.class_name else frame.function
    return f"{function} ({frame.file_path_short}:{frame.line_no})"


@dataclass
class Tally:
    """Self and inclusive seconds per function, and whose calls its self time was spent in."""

    total: float
    own: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    inclusive: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    callers: dict[str, dict[str, float]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(float)))

    def top_caller(self, name: str) -> str:
        by_caller = self.callers[name]
        if not by_caller:
            return ""
        caller, seconds = max(by_caller.items(), key=lambda kv: kv[1])
        return f"{caller.split(' (')[0]} {100 * seconds / max(self.own[name], 1e-12):.0f}%"


def tally(root: Frame) -> Tally:
    out = Tally(root.time)
    stack: list[tuple[Frame, frozenset[str], str]] = [(root, frozenset(), "")]
    while stack:
        frame, above, parent = stack.pop()
        if frame.is_synthetic:
            continue
        name = _name(frame)
        out.own[name] += frame.total_self_time
        out.callers[name][parent] += frame.total_self_time
        if name not in above:
            out.inclusive[name] += frame.time
        stack.extend((child, above | {name}, name) for child in frame.children)
    return out


def profile(work: Callable[[], None]) -> Frame:
    profiler = Profiler(interval=0.001)
    profiler.start()
    work()
    profiler.stop()
    root = profiler.last_session.root_frame() if profiler.last_session else None
    assert root is not None
    return root


def scenarios(games: int, hands: int) -> dict[str, Callable[[], None]]:
    rules = PRESETS["liverpool"]
    bot = "easy" if "easy" in bot_names() else "random"
    cases = contracts.corpus(hands, 1)

    def play(name: str) -> Callable[[], None]:
        def run() -> None:
            for seed in range(1, games + 1):
                run_game(rules, [make_bot(name) for _ in range(4)], random.Random(seed))

        return run

    def search() -> None:
        for case in cases:
            best_leftover(
                case.hand, case.rules.contract(case.deal), case.rules, whole_hand=case.whole_hand, keep=case.keep
            )

    def arrangements() -> None:
        for case in cases:
            find_arrangements(case.hand, case.rules.contract(case.deal), case.rules,
                              whole_hand=case.whole_hand, keep=case.keep, limit=8)  # fmt: skip

    return {
        f"{games} games of liverpool, 4 seats, {bot} bots": play(bot),
        f"{games} games of liverpool, 4 seats, random bots": play("random"),
        f"best_leftover on {hands} corpus hands": search,
        f"find_arrangements (limit 8) on {hands} corpus hands": arrangements,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--json", type=Path, help="also write the tables here")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {}
    for title, work in scenarios(args.games, args.hands).items():
        found = tally(profile(work))
        total = found.total
        print(f"\n== {title}: {total:.2f} s (profiled)")
        print("  self time (most of it under which caller):")
        top_own = sorted(found.own.items(), key=lambda kv: -kv[1])[: args.top]
        for name, seconds in top_own:
            print(f"    {100 * seconds / total:5.1f}%  {name}  <- {found.top_caller(name)}")
        print("  inclusive time:")
        ranked = sorted(found.inclusive.items(), key=lambda kv: -kv[1])
        top_inclusive = [kv for kv in ranked if kv[1] < 0.99 * total][: args.top]
        for name, seconds in top_inclusive:
            print(f"    {100 * seconds / total:5.1f}%  {name}")
        report[title] = {
            "seconds": total,
            "self": [[name, seconds / total, found.top_caller(name)] for name, seconds in top_own],
            "inclusive": [[name, seconds / total] for name, seconds in top_inclusive],
        }
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
