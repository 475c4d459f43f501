"""`liverpool play` and `liverpool replay` (issue: game records)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from liverpool.bots.registry import VERSIONS
from liverpool.cli import app
from liverpool.engine import apply
from liverpool.engine.record import GameRecord, replay

runner = CliRunner()


def _play(tmp_path: Path, name: str, seed: int = 5, preset: str = "liverpool", seats: int = 3) -> Path:
    out = tmp_path / name
    result = runner.invoke(
        app, ["watch", "--preset", preset, "--seats", str(seats), "--seed", str(seed), "--quiet", "--record", str(out)]
    )
    assert result.exit_code == 0, result.output
    return out


def test_same_seed_gives_the_same_record_byte_for_byte(tmp_path: Path) -> None:
    first = _play(tmp_path, "a.json").read_bytes()
    second = _play(tmp_path, "b.json").read_bytes()
    other = _play(tmp_path, "c.json", seed=6).read_bytes()
    assert first == second
    assert first != other


def test_play_prints_a_readable_log_and_final_scores() -> None:
    result = runner.invoke(app, ["watch", "--seed", "3", "--seats", "4"])
    assert result.exit_code == 0, result.output
    assert "Deal 1: set 3, set 3; 10 cards each" in result.output
    assert "draws from the stock" in result.output
    assert "Winner:" in result.output


def test_replay_prints_each_deal_and_the_totals(tmp_path: Path) -> None:
    path = _play(tmp_path, "g.json", preset="may-i", seats=4)
    state = replay(GameRecord.from_json(path.read_text()))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    for deal in range(1, 8):
        assert f"Deal {deal}:" in result.output
    assert "total" in result.output
    for total in state.totals:
        assert str(total) in result.output


def test_replay_names_the_first_illegal_action(tmp_path: Path) -> None:
    path = _play(tmp_path, "g.json")
    data = json.loads(path.read_text())
    index = next(i for i, a in enumerate(data["actions"]) if a["type"] == "discard")
    bad = dict(data["actions"][index])
    bad["seat"] = (bad["seat"] + 1) % 3
    data["actions"][index] = bad
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert f"action {index}" in result.output
    assert "Discard(seat=" in result.output
    assert "turn" in result.output
    assert "Traceback" not in result.output


def test_replay_reports_malformed_files_with_their_location(tmp_path: Path) -> None:
    path = _play(tmp_path, "g.json")
    broken = tmp_path / "broken.json"
    broken.write_text(path.read_text()[:-40])
    result = runner.invoke(app, ["replay", str(broken)])
    assert result.exit_code == 2
    assert "line" in result.output and "column" in result.output

    data = json.loads(path.read_text())
    data["actions"][3] = {"type": "discard", "seat": 0, "card": "11Q"}
    broken.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(broken)])
    assert result.exit_code == 2
    assert "$.actions[3]" in result.output and "11Q" in result.output

    data = json.loads(path.read_text())
    data["ruleset"]["buying"] = "sometimes"
    broken.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(broken)])
    assert result.exit_code == 2
    assert "buying" in result.output

    result = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert result.exit_code == 2
    assert "missing.json" in result.output


def test_replay_runs_as_a_real_command(tmp_path: Path) -> None:
    path = _play(tmp_path, "g.json")
    exe = Path(sys.executable).parent / "liverpool"
    done = subprocess.run([str(exe), "replay", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "Winner:" in done.stdout
    path.write_text("{}")
    done = subprocess.run([str(exe), "replay", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "$.format" in done.stderr
    assert "Traceback" not in done.stderr


def test_watch_takes_bot_styles_and_records_the_bots_versions(tmp_path: Path) -> None:
    out = tmp_path / "styled.json"
    bots = "easy:aggressive,medium:cautious,random"
    result = runner.invoke(app, ["watch", "--bots", bots, "--seed", "2", "--quiet", "--record", str(out)])
    assert result.exit_code == 0, result.output
    meta = GameRecord.from_json(out.read_text(encoding="utf-8")).meta
    assert meta["bot_versions"] == [
        {"seat": 0, "bot": "easy", "style": "aggressive", "version": "easy/" + str(VERSIONS["easy"])},
        {"seat": 1, "bot": "medium", "style": "cautious", "version": "medium/" + str(VERSIONS["medium"])},
        {"seat": 2, "bot": "random", "style": "balanced", "version": "random/" + str(VERSIONS["random"])},
    ]


def test_a_bad_style_is_named_by_watch_and_play(tmp_path: Path) -> None:
    out = tmp_path / "never.json"
    watched = runner.invoke(app, ["watch", "--bots", "easy,medium:bold,easy", "--record", str(out)])
    assert watched.exit_code != 0 and "no style named 'bold'; styles: cautious, balanced, aggressive" in watched.output
    assert not out.exists()
    played = runner.invoke(app, ["play", "--bots", "random:aggressive,easy"])
    assert played.exit_code != 0
    assert "bot 'random' has no style 'aggressive': it plays only balanced" in " ".join(played.output.split())


def test_watch_says_who_got_each_bought_card(tmp_path: Path) -> None:
    """RULES.md §3 buying: a buy is granted inside another seat's move, so the log says who got the card
    ('seat 3 asks to buy' alone does not): one line per buy the engine granted in the recorded game."""
    out = tmp_path / "g.json"
    result = runner.invoke(app, ["watch", "--bots", "medium,medium,medium,medium", "--seed", "5", "--record", str(out)])
    assert result.exit_code == 0, result.output
    record = GameRecord.from_json(out.read_text(encoding="utf-8"))
    state = replay(record, 0)
    grants = []
    for action in record.actions:
        deal, buys, pile = state.deal, list(state.buys), list(state.discard_pile)
        apply(state, action)
        if state.deal == deal and buys:
            grants += [
                (seat, pile[-1]) for seat, (now, was) in enumerate(zip(state.buys, buys, strict=True)) if now > was
            ]
    lines = [line.strip() for line in result.output.splitlines() if "gets the bought" in line]
    assert grants, "no buy was granted in this game: pick another seed"
    assert lines == [
        f"seat {seat} gets the bought {card.pretty()}, with 1 penalty card from the stock." for seat, card in grants
    ]
