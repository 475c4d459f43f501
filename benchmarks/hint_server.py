"""Hints end to end at a real ``liverpool serve``: from the ``hint`` message sent to the answer received.

A server is started on a temporary SQLite file (``tests/server_fixtures.py``), a table of one player and
two ``random`` bots at full speed is made, and the player asks a hint at each of its moves, then plays the
hint. The first hint includes starting the worker process (spawned on first use). Wall time, so the load on
the machine counts: pin it (``taskset -c 1``) and say so with the figures.

    python benchmarks/hint_server.py [--hints 6]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from server_fixtures import ServerProcess, my_move, past


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hints", type=int, default=6)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    server = ServerProcess(f"sqlite:///{folder / 'tables.db'}", folder).start()
    try:
        created = server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=0, away_timeout_s=0)
        token = server.join(created["invite"], 0, "Ada")
        times: list[float] = []
        with server.player(token) as me:
            for _ in range(args.hints):
                me.current(lambda s: my_move(s) and s["next_deal"] is None, 60)
                me.quiet(0.3)
                state: dict[str, Any] = me.state or {}
                start = time.perf_counter()
                me.send({"type": "hint"})
                hint = me.until(lambda m: m["type"] in ("hint", "error"), 120)
                times.append(time.perf_counter() - start)
                if hint["type"] != "hint":
                    raise SystemExit(f"the hint was refused: {hint}")
                me.act(hint["option"] if hint["option"] is not None else {"type": "pass"})
                me.state_where(past(state["seq"]), 60)
    finally:
        server.stop()
    print("hint wall times (s), the first with the worker's start:", [round(t, 2) for t in times])


if __name__ == "__main__":
    main()
