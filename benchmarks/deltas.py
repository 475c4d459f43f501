"""Deltas against whole states (issue 27, item 2): bytes per action and the cost of making a patch.

A seeded 4-seat ``liverpool`` game of ``--bot`` bots (``easy``) is played with the engine's public
``liverpool.engine.step``; after each action the state message of a spectator and of seat 0 is built as
the server builds it (the observation, the seat's legal actions, the table's fields), and for each pair of
states in a row it measures:

- the bytes of the whole ``state`` frame and of the ``delta`` frame the server sends instead (compact
  JSON in UTF-8, as ``liverpool.server.messages.encode`` makes them);
- the CPU time (``time.process_time``, best of ``--passes``) to make the patch with
  ``liverpool.server.deltas.diff`` and with the ``jsonpatch`` package's ``make_patch``, and to encode each
  frame.

Every patch is checked with ``jsonpatch.apply_patch``. Pin it to one core for steadier figures:

    taskset -c 1 python benchmarks/deltas.py [--seed 7] [--passes 5] [--bot easy]
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import jsonpatch

from liverpool.bots.registry import make_bot
from liverpool.engine import action_to_dict, find_preset, legal_actions, new_game, observe, step
from liverpool.server.deltas import diff
from liverpool.server.messages import encode


def states(seat: int | None, seed: int, bot: str) -> list[dict[str, Any]]:
    """The state message of ``seat`` after each action of a seeded game of ``bot`` bots."""
    rng = random.Random(seed)
    game = new_game(find_preset("liverpool"), 4, 0)
    agents = [make_bot(bot) for _ in range(4)]
    out = []
    while not game.is_over:
        step(game, agents, rng)
        legal = [action_to_dict(a) for a in legal_actions(game) if seat is not None and a.seat == seat]
        out.append(
            {
                "type": "state",
                "table_id": "aB3dE5fG7hJ9",
                "status": "over" if game.is_over else "playing",
                "seq": len(game.history),
                "seat": seat,
                "names": ["Ada", None, None, None],
                "bots": [None, "medium", "medium", "medium"],
                "away": [],
                "connected": [0],
                "observation": observe(game, seat).to_client_dict(),
                "legal": legal,
                "deadline": None,
                "next_deal": None,
                "clock": {"seat": game.current, "elapsed": round(rng.uniform(0, 9), 1), "left": None, "expired": False},
                "rematch": False,
                "assist": {"hints": True, "undo": False},
                "tutorial": None,
            }
        )
    return out


def best(passes: int, work: Callable[[], object], count: int) -> float:
    """The best time of ``passes`` runs of ``work``, per item, in µs."""
    times = []
    for _ in range(passes):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return 1e6 * min(times) / count


def measure(seat: int | None, seed: int, passes: int, bot: str) -> dict[str, float]:
    views = states(seat, seed, bot)
    pairs = list(itertools.pairwise(views))
    patches = [diff(a, b) for a, b in pairs]
    for (a, b), patch in zip(pairs, patches, strict=True):
        assert jsonpatch.apply_patch(a, patch) == b
    deltas = [
        {"type": "delta", "seq": b["seq"], "base": a["seq"], "patch": p}
        for (a, b), p in zip(pairs, patches, strict=True)
    ]
    whole = [len(encode(b).encode()) for _, b in pairs]
    small = [len(encode(d).encode()) for d in deltas]
    return {
        "actions": len(pairs),
        "state_bytes_mean": statistics.fmean(whole),
        "state_bytes_median": statistics.median(whole),
        "delta_bytes_mean": statistics.fmean(small),
        "delta_bytes_median": statistics.median(small),
        "delta_bytes_max": max(small),
        "diff_us": best(passes, lambda: [diff(a, b) for a, b in pairs], len(pairs)),
        "make_patch_us": best(passes, lambda: [jsonpatch.make_patch(a, b) for a, b in pairs], len(pairs)),
        "encode_state_us": best(passes, lambda: [encode(b) for _, b in pairs], len(pairs)),
        "encode_delta_us": best(passes, lambda: [encode(d) for d in deltas], len(pairs)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--bot", default="easy", help="the bot of every seat (liverpool.bots.registry)")
    args = parser.parse_args(argv)
    for seat in (None, 0):
        row = measure(seat, args.seed, args.passes, args.bot)
        who = "spectator" if seat is None else f"seat {seat}"
        print(
            f"{who}: {row['actions']:.0f} actions; bytes a frame, state {row['state_bytes_mean']:.0f} mean /"
            f" {row['state_bytes_median']:.0f} median, delta {row['delta_bytes_mean']:.0f} mean /"
            f" {row['delta_bytes_median']:.0f} median / {row['delta_bytes_max']:.0f} max; CPU a frame: diff"
            f" {row['diff_us']:.1f} µs, jsonpatch.make_patch {row['make_patch_us']:.0f} µs, encode state"
            f" {row['encode_state_us']:.1f} µs, encode delta {row['encode_delta_us']:.1f} µs"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
