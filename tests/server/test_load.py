"""The load harness (``benchmarks/load.py``) with two table servers on one PostgreSQL (issue 27, item 6): a
few tables made round-robin through both, each watched on the process that made it. Both processes
play, no spectator misses an update (the ``event`` numbers run without a gap), and the run counts no
error and no traceback. Real processes, a real PostgreSQL (``$LIVERPOOL_TEST_PG``; skipped without it,
as the other PostgreSQL tests)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from server_fixtures import pg_base

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_two_processes_on_one_postgresql_both_play_and_lose_nothing(tmp_path: Path) -> None:
    database = pg_base()
    out = tmp_path / "load.json"
    args = ["--processes", "2", "--database", database, "--tables", "4", "--duration", "8", "--warmup", "3"]
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "load.py"), *args, "--skip-echo", "--pure", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.exists(), run.stderr[-3000:]
    tables = json.loads(out.read_text())["tables"]
    assert tables["errors"] == {}, run.stderr[-3000:]  # "event_skipped" among them: an update lost
    assert tables["server_tracebacks"] == 0
    assert run.returncode == 0, run.stderr[-3000:]
    assert [p["tables"] for p in tables["processes"]] == [2, 2]
    assert all(p["actions_per_s"] > 0 for p in tables["processes"]), tables["processes"]
    assert tables["by_type"]["event"] > 0
    assert tables["spectators"] == 4
