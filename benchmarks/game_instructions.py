"""Instructions per turn of the benchmark's whole games, counted by callgrind (a script, not a test).

``make bench`` times our games next to the peers'; on a shared machine those times move by tens of
percent within a minute. The instructions a game runs do not (the child runs with ``PYTHONHASHSEED=0``),
so they judge a change to the engine or the bots before a timed run. This plays the games of ``make
bench``'s headline (every preset with 4 and 6 seats that it allows, ``easy`` bots, seeds ``1 ..``), each
configuration after one warm-up game that is not counted (as ``benchmarks/games.py`` plays them), all in
one process, and counts the instructions inside each ``run_game``. It prints, for each configuration and
in all, the turns (draws), the instructions and the instructions per turn.

    python benchmarks/game_instructions.py [--build build/mypyc] [--games N] [--bot easy] [--no-gc] [--out FILE.json]

``--build`` puts a compiled copy of the package (``make compile``) first on the path, as ``make bench``
measures it. It needs Debian's ``valgrind``. The games run under ``valgrind --tool=callgrind``, counted
only inside calls of ``operator.call`` (see ``instructions.py``): about a minute and a half here for the 2
games a configuration of the default, compiled.

``--no-gc`` turns the garbage collector off in the counted process. Its collections run after so many
objects are made, so a change that keeps a few more objects alive moves them onto other games, and one
game's count can move by several percent for that alone (docs/performance.md, "Issue 24: before and
after"). Without them the counts compare the engine's own work; ``make bench`` runs with the collector on.
"""

from __future__ import annotations

import argparse
import gc
import json
import operator
import random
import sys
from pathlib import Path
from typing import Any

from instructions import counted_run

HERE = Path(__file__).resolve().parent
SEATS = (4, 6)  # as benchmarks/peers.py plays them (ENGINE_SEATS)


def configurations() -> list[tuple[str, int]]:
    """The (preset, seats) pairs of ``make bench``'s games."""
    from liverpool.engine import PRESETS

    return [(name, seats) for name, rules in PRESETS.items() for seats in SEATS if rules.min_players <= seats <= rules.max_players]  # fmt: skip


def _child(games: int, bot: str, no_gc: bool) -> None:
    """Plays the games, each counted one through ``operator.call``, and prints one JSON line per counted game:
    its configuration, seed and turns; with ``no_gc``, with the garbage collector off."""
    if no_gc:
        gc.disable()
    from liverpool.bots.registry import make_bot
    from liverpool.engine import PRESETS, DrawDiscard, DrawStock, run_game

    print(f"search module: {sys.modules['liverpool.engine.search'].__file__}", file=sys.stderr)
    for preset, seats in configurations():
        rules = PRESETS[preset]
        run_game(rules, [make_bot(bot) for _ in range(seats)], random.Random(1 + games))  # the warm-up game
        for seed in range(1, 1 + games):
            agents = [make_bot(bot) for _ in range(seats)]
            state = operator.call(run_game, rules, agents, random.Random(seed))
            turns = sum(1 for a in state.history if isinstance(a, DrawStock | DrawDiscard))
            print(json.dumps([preset, seats, seed, turns]), flush=True)


def count(games: int, bot: str, build: Path | None, no_gc: bool = False) -> list[dict[str, Any]]:
    """One row per counted game: preset, seats, seed, turns and instructions."""
    expected = games * len(configurations())
    child = [__file__, "--child", "--games", str(games), "--bot", bot, *(["--no-gc"] if no_gc else [])]
    ordered, out = counted_run(child, build, expected, "games")
    played = [json.loads(line) for line in out.splitlines() if line.startswith("[")]
    if len(ordered) != len(played) or len(played) != expected:
        raise SystemExit(f"expected {expected} games and as many profiles, read {len(played)} and {len(ordered)}")
    return [
        {"preset": preset, "seats": seats, "seed": seed, "turns": turns, "instructions": instructions}
        for (preset, seats, seed, turns), instructions in zip(played, ordered, strict=True)
    ]


def table(rows: list[dict[str, Any]]) -> list[tuple[str, int, int, int]]:
    """``(label, turns, instructions, instructions per turn)`` by configuration, then in all."""
    by: dict[str, list[int]] = {}
    for row in rows:
        totals = by.setdefault(f"{row['preset']} {row['seats']}", [0, 0])
        totals[0] += row["turns"]
        totals[1] += row["instructions"]
    out = [(label, turns, ins, ins // turns if turns else 0) for label, (turns, ins) in by.items()]
    turns, ins = sum(row["turns"] for row in rows), sum(row["instructions"] for row in rows)
    out.append(("all", turns, ins, ins // turns if turns else 0))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="counted games per configuration (seeds 1 ..)")
    parser.add_argument("--bot", default="easy", help="the bot at every seat (make bench: easy)")
    parser.add_argument("--build", type=Path, help="a compiled copy of the package to count (make compile)")
    parser.add_argument("--out", type=Path, help="also write each game's counts and the table as JSON")
    parser.add_argument("--no-gc", action="store_true", help="the garbage collector off in the counted process")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    from liverpool.bots.registry import bot_names

    if args.bot not in bot_names():
        parser.error(f"--bot {args.bot!r} is not registered (bots: {', '.join(bot_names())})")
    if args.child:
        _child(args.games, args.bot, args.no_gc)
        return
    rows = count(args.games, args.bot, args.build, args.no_gc)
    collector = ", collector off" if args.no_gc else ""
    print(
        f"{args.games} games a configuration, {args.bot} bots, {args.build or 'pure build'}{collector}: "
        "instructions in run_game"
    )
    print(f"  {'configuration':<18} {'turns':>8} {'instructions':>16} {'per turn':>10}")
    summary = table(rows)
    for label, turns, ins, per_turn in summary:
        print(f"  {label:<18} {turns:>8,} {ins:>16,} {per_turn:>10,}")
    if args.out:
        args.out.write_text(json.dumps({"games": rows, "table": summary}))
        print(f"written: {args.out}")


if __name__ == "__main__":
    main()
