"""``liverpool tournament --resume``: a run carries on from its report and ends with exactly the games
of one uninterrupted run; the report is saved while the run goes, so a ``kill -9`` loses at most the
games since the last save; a report that does not fit is refused with status 2 and left untouched."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from liverpool.cli import app
from liverpool.cli.rulesfile import load_ruleset
from liverpool.tournament import runner
from liverpool.tournament.games import GameResult, Setup, make_setup, play_game
from liverpool.tournament.report import Checkpoint, to_document, write_json
from liverpool.tournament.resume import load_finished
from liverpool.tournament.runner import Run, run_tournament

cli = CliRunner()
SEED = 7
KILL_TIMEOUT = 120.0


@pytest.fixture(scope="module")
def setup(short_rules: Path) -> Setup:
    return make_setup(load_ruleset(str(short_rules)), ["easy", "random", "random"], SEED)


@pytest.fixture(scope="module")
def whole(setup: Setup) -> Run:
    """Three groups played without a break: what every resumed run must end with."""
    return run_tournament(setup, 3)


def _args(short_rules: Path, out: Path, *extra: str) -> list[str]:
    return [
        "tournament",
        "--bots",
        "easy,random,random",
        "--preset",
        str(short_rules),
        "--seed",
        str(SEED),
        "--out",
        str(out),
        "--chart",
        str(out.with_suffix(".png")),
        *extra,
    ]


def _report(path: Path, setup: Setup, results: tuple[GameResult, ...], groups: int = 3) -> dict[str, Any]:
    document = to_document(Run(setup, groups, results, interrupted=True), None)
    write_json(path, document)
    return document


def test_resume_keeps_the_reported_games_and_plays_only_the_rest(
    tmp_path: Path, short_rules: Path, setup: Setup, whole: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run.json"
    _report(out, setup, whole.results[:4])  # group 0 and group 1's first rotation
    played: list[tuple[int, int]] = []

    def counted(setup: Setup, group: int, rotation: int) -> GameResult:
        played.append((group, rotation))
        return play_game(setup, group, rotation)

    monkeypatch.setattr(runner, "play_game", counted)
    result = cli.invoke(app, _args(short_rules, out, "--games", "3", "--resume", str(out)), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert sorted(played) == [(1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["run"]["games_resumed"] == 4
    assert document["run"]["games_finished"] == 9
    assert document["run"]["interrupted"] is False
    assert load_finished(out, setup, 3) == whole.results
    expected = json.loads(json.dumps(to_document(whole, None)["games"]))
    assert document["games"] == expected
    assert document["summary"]["groups"] == 3


def test_without_a_terminal_each_save_prints_a_progress_line(tmp_path: Path, short_rules: Path) -> None:
    out = tmp_path / "run.json"
    result = cli.invoke(app, _args(short_rules, out, "--games", "1", "--save-every", "0"))
    assert result.exit_code == 0, result.output
    for done in (1, 2, 3):
        assert f"saved {done} of 3 games to {out}" in result.output
    assert "games/s, about 0:00:" in result.output


def test_a_resumed_run_can_ask_for_more_groups(tmp_path: Path, setup: Setup, whole: Run) -> None:
    out = tmp_path / "run.json"
    _report(out, setup, whole.results[:3], groups=1)
    assert load_finished(out, setup, 3) == whole.results[:3]
    assert run_tournament(setup, 3, done=load_finished(out, setup, 3)).results == whole.results


def test_checkpoint_writes_what_resume_reads(tmp_path: Path, setup: Setup, whole: Run) -> None:
    out = tmp_path / "run.json"
    checkpoint = Checkpoint(out, setup, 3, whole.results[:2], seconds=0.0)
    for result in reversed(whole.results[2:5]):
        checkpoint.add(result)
        assert json.loads(out.read_text(encoding="utf-8"))["run"]["interrupted"] is True
    assert load_finished(out, setup, 3) == whole.results[:5]
    assert json.loads(out.read_text(encoding="utf-8"))["run"]["games_resumed"] == 2
    assert not list(tmp_path.glob(".*partial"))


def test_a_run_killed_with_sigkill_resumes_to_the_same_games(
    tmp_path: Path, short_rules: Path, setup: Setup, whole: Run
) -> None:
    """A real ``liverpool tournament`` process, killed with SIGKILL once its report holds 4 games."""
    out = tmp_path / "run.json"
    command = [sys.executable, "-m", "liverpool", *_args(short_rules, out, "--games", "60", "--save-every", "0")]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + KILL_TIMEOUT
        while not (out.exists() and len(json.loads(out.read_text(encoding="utf-8"))["games"]) >= 4):
            assert process.poll() is None, "the run ended before it was killed"
            assert time.monotonic() < deadline, "no report with 4 games"
            time.sleep(0.01)
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == -signal.SIGKILL
    saved = load_finished(out, setup, 60)
    assert len(saved) >= 4
    assert saved == tuple(play_game(setup, g.group, g.rotation) for g in saved)
    groups = max(g.group for g in saved) + 1
    result = cli.invoke(app, _args(short_rules, out, "--games", str(groups), "--resume", str(out)))
    assert result.exit_code == 0, result.output
    assert load_finished(out, setup, groups) == run_tournament(setup, groups).results
    if groups <= 3:
        assert load_finished(out, setup, groups) == whole.results[: 3 * groups]


def _edit(document: dict[str, Any], change: str) -> None:
    if change == "seed":
        document["setup"]["seed"] = SEED + 1
    elif change == "bots":
        document["setup"]["bots"] = ["random", "easy", "random"]
    elif change == "versions":  # played by an older version of a level: its games are not mixed in
        document["setup"]["versions"][0] = document["setup"]["versions"][0].split("/")[0] + "/0"
    elif change == "no versions":  # a report written before bot versions
        del document["setup"]["versions"]
    elif change == "rules":
        document["setup"]["rules"]["deals"].pop()
    elif change == "format":
        document["format"] = "something-else/1"
    elif change == "seats":
        document["games"][1]["seats"].reverse()
    elif change == "totals":
        document["games"][0]["totals"][0] += 1
    elif change == "repeat":
        document["games"].append(document["games"][0])
    elif change == "label":
        document["games"][0]["winners"] = ["nobody"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("seed", "other seed"),
        ("bots", "other bots"),
        ("versions", "other versions"),
        ("no versions", "does not say which versions it was played with"),
        ("rules", "other rules"),
        ("format", "not a tournament report"),
        ("seats", "game 1 is malformed"),
        ("totals", "not the sum of its deal scores"),
        ("repeat", "repeats group 0 rotation 0"),
        ("label", "game 0 is malformed ('nobody')"),
    ],
)
def test_a_report_that_does_not_fit_is_refused_and_left_as_it_was(
    tmp_path: Path, short_rules: Path, setup: Setup, whole: Run, change: str, message: str
) -> None:
    out = tmp_path / "run.json"
    document = json.loads(json.dumps(_report(out, setup, whole.results[:4])))
    _edit(document, change)
    write_json(out, document)
    before = out.read_bytes()
    result = cli.invoke(app, _args(short_rules, out, "--games", "3", "--resume", str(out)))
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert out.read_bytes() == before


def test_unreadable_reports_and_too_few_groups_are_clear_errors(
    tmp_path: Path, short_rules: Path, setup: Setup, whole: Run
) -> None:
    out = tmp_path / "out.json"
    missing = cli.invoke(app, _args(short_rules, out, "--resume", str(tmp_path / "none.json")))
    assert missing.exit_code == 2 and "none.json: cannot read it" in missing.output
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json", encoding="utf-8")
    broken = cli.invoke(app, _args(short_rules, out, "--resume", str(garbage)))
    assert broken.exit_code == 2 and "not a JSON file" in broken.output
    _report(garbage, setup, whole.results)
    fewer = cli.invoke(app, _args(short_rules, out, "--games", "2", "--resume", str(garbage)))
    assert fewer.exit_code == 2
    assert "holds group 2, beyond the 2 groups asked for; ask for --games 3" in " ".join(fewer.output.split())
    assert not out.exists()
