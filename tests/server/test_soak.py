"""The soak harness (``benchmarks/soak.py``, ``make soak``) in its short form: a few bot tables with a
spectator each that drops and reconnects with ``?since=``, a graceful (SIGTERM) and a crash (SIGKILL)
restart of a real ``liverpool serve`` on one SQLite file, and the end's check that every action a
spectator saw was stored and replays to the state it last saw. It fails on any error the harness
counts (a gap, a duplicate, a resume that was not exact, an action lost, a traceback in the server's
log), so a regression in the server's resume or storage, or in the harness, shows here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_short_soak_loses_no_action_and_counts_no_error(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    args = ["--tables", "3", "--duration", "16", "--restarts", "term,kill", "--drop-every", "3", "--warmup", "2"]
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "soak.py"), *args, "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.exists(), run.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["errors"] == {}, run.stderr[-3000:]
    assert run.returncode == 0, run.stderr[-3000:]
    assert result["actions_lost"] == 0
    assert result["tables_differing"] == result["tables_missing"] == 0
    assert result["spectators_behind_after_catch_up"] == 0
    # The run did what it is there to do: tables played, spectators dropped and resumed, the server
    # restarted both ways, and every action seen was replayed from the database.
    assert [r["how"] for r in result["restarts"]] == ["term", "kill", "term", "term"]
    assert result["restarts"][1]["exit_code"] == -9
    assert result["drops"] > 0
    assert result["resumes"] == result["connections"] - 3, "every connection after a spectator's first resumed"
    assert result["resumes"] > result["drops"], "the spectators came back after the restarts too"
    assert result["actions_seen"] > 3 * 5
    assert result["actions_replayed"] == result["actions_seen"]
