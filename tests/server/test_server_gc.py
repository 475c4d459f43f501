"""The server's garbage collections (cli/serve.py ``tune_gc``; docs/performance.md, "Session 50"): Python's own
collections off, a full one every ``$LIVERPOOL_GC_INTERVAL_S`` seconds on a thread of its own, logged."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Callable

import pytest
from server_fixtures import ServerProcess

from liverpool.server.settings import Settings, SettingsError

Start = Callable[..., ServerProcess]

TUNED = """
import gc, sys, time, weakref
from liverpool.cli.serve import GC_YOUNG, tune_gc

interval, growth = float(sys.argv[1]), int(sys.argv[2])
thread = tune_gc(interval, growth)
print("enabled", gc.isenabled(), "young", gc.get_threshold()[0] == GC_YOUNG, "thread", thread is not None)

class Node:
    pass

a, b = Node(), Node()
a.other, b.other = b, a  # a cycle: reference counting alone never frees it
gone = weakref.ref(a)
del a, b
if growth < 1_000_000:  # garbage piling up: more cycles than ``growth`` call for a collection before its time
    for _ in range(growth):
        c, d = Node(), Node()
        c.other, d.other = d, c
time.sleep(max(3 * min(interval, 1.0), 0.5))
print("freed", gone() is None)
"""


def _run(interval: str, growth: int = 1_000_000) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", TUNED, interval, str(growth)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_collections_run_on_their_own_thread_and_free_cycles() -> None:
    assert _run("0.3") == ["enabled", "False", "young", "False", "thread", "True", "freed", "True"]


def test_garbage_piling_up_is_collected_before_its_time() -> None:
    assert _run("1000", growth=20_000) == ["enabled", "False", "young", "False", "thread", "True", "freed", "True"]
    assert _run("1000")[-1] == "False", "without the garbage, nothing is collected before 1,000 s"


def test_an_interval_of_zero_keeps_pythons_own_collections() -> None:
    # (Python's own young collection comes after GC_YOUNG allocations, which this script does not make)
    assert _run("0")[:6] == ["enabled", "True", "young", "True", "thread", "False"]


def test_a_bad_interval_is_refused_by_name() -> None:
    assert Settings.from_env({}).gc_interval_s == 600
    assert Settings.from_env({"LIVERPOOL_GC_INTERVAL_S": "5"}).gc_interval_s == 5
    with pytest.raises(SettingsError, match="LIVERPOOL_GC_INTERVAL_S"):
        Settings.from_env({"LIVERPOOL_GC_INTERVAL_S": "soon"})


def test_a_server_collects_every_interval_and_logs_it(start_server: Start, sqlite_url: str) -> None:
    server = start_server(sqlite_url, env={"LIVERPOOL_GC_INTERVAL_S": "1"}, log_level="info")
    server.create(seats=3, bots={str(s): "medium" for s in range(3)}, bot_pace_ms=0)
    pattern = re.compile(r"garbage collection: \d+ objects freed in [\d.]+ ms")
    deadline = time.monotonic() + 20
    while len(pattern.findall(server.logged())) < 2 and time.monotonic() < deadline:
        time.sleep(0.5)
    assert len(pattern.findall(server.logged())) >= 2, server.logged()[-3000:]
