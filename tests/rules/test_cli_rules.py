"""``liverpool rules``: list, show (readable, --json, --toml), and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from liverpool.cli import app
from liverpool.engine.rules.presets import ALIASES, PRESETS, find_preset
from liverpool.engine.rules.ruleset import Ruleset, field_docs

WIDE = {"COLUMNS": "400"}  # rich wraps to the terminal: wide enough that every doc stays on one line
SCRIPT = Path(sys.executable).parent / "liverpool"
runner = CliRunner()


def test_list_shows_every_preset_with_its_aliases() -> None:
    result = runner.invoke(app, ["rules", "list"], env=WIDE)
    assert result.exit_code == 0, result.output
    for name, ruleset in PRESETS.items():
        assert name in result.stdout
        assert ruleset.title in result.stdout
    for alias in ALIASES:
        assert alias in result.stdout
    assert "3-5: 2 decks, 4 jokers" in result.stdout
    assert "9 (10-12 cards)" in result.stdout  # british-9


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_show_gives_every_field_its_doc_the_contracts_and_the_notes(name: str) -> None:
    result = runner.invoke(app, ["rules", "show", name], env=WIDE)
    assert result.exit_code == 0, result.output
    out = result.stdout
    for field, doc in field_docs().items():
        assert field in out
        assert doc in out, field
    ruleset = find_preset(name)
    for note in ruleset.notes:
        assert note in out
    assert "Contracts" in out and "hand size" in out
    assert f"{len(ruleset.deals)} (final)" in out


def test_show_lists_the_contract_per_deal() -> None:
    out = runner.invoke(app, ["rules", "show", "uk"], env=WIDE).stdout
    # RULES.md §2.7: deal 7 of 004 is one run of 7, dealt 12 cards.
    deal_7 = next(line for line in out.splitlines() if "7 (final)" in line)
    assert "1 run of 7" in deal_7 and "12" in deal_7
    deal_5 = next(line for line in out.splitlines() if line.lstrip("│ ").startswith("5 "))
    assert "2 sets of 3 + 1 run of 4" in deal_5


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_show_json_prints_only_the_ruleset(name: str) -> None:
    result = runner.invoke(app, ["rules", "show", name, "--json"])
    assert result.exit_code == 0
    assert result.stderr == ""
    data = json.loads(result.stdout)
    assert data == find_preset(name).to_dict()
    assert Ruleset.from_dict(data) == find_preset(name)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_show_toml_prints_a_house_rules_file(name: str) -> None:
    result = runner.invoke(app, ["rules", "show", name, "--toml"])
    assert result.exit_code == 0
    assert Ruleset.from_dict(tomllib.loads(result.stdout)) == find_preset(name)


def test_show_a_house_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('base = "british"\nbuy_limit = 5\n', encoding="utf-8")
    result = runner.invoke(app, ["rules", "show", str(path)], env=WIDE)
    assert result.exit_code == 0, result.output
    assert "house: House rules on british (house.toml)" in result.stdout
    data = json.loads(runner.invoke(app, ["rules", "show", str(path), "--json"]).stdout)
    assert data["buy_limit"] == 5 and data["name"] == "house" and data["run_joker_spacing"] == 4


ERRORS = [
    # (file name or None for a preset name, content, the words stderr must hold)
    (None, "shanghai", "no preset named 'shanghai'"),
    ("missing.toml", None, "missing.toml: no such file"),
    ("bad.json", "{", "bad.json: not valid JSON"),
    ("bad.toml", "= 1", "bad.toml: not valid TOML"),
    ("unknown.toml", "colour = 1\n", "unknown.toml: colour: unknown ruleset field"),
    ("value.toml", 'upcard = "maybe"\n', "value.toml: upcard: expected true or false"),
    ("base.toml", 'base = "shanghai"\n', "base.toml: base: no preset named 'shanghai'"),
    # RULES.md §3.1 players
    (
        "players.json",
        '{"min_players": 6, "max_players": 5}',
        "players.json: min_players: min_players 6 exceeds max_players 5",
    ),
    # RULES.md §3.2 decks / jokers
    (
        "decks.toml",
        "decks = [{ max_players = 8, decks = 1, jokers = 2 }]\n",
        "decks.toml: decks: 1 decks and 2 jokers are too few",
    ),
    # RULES.md §3.4 set constraints
    ("sets.toml", "set_max_length = 2\n", "sets.toml: set_max_length: must be at least 3"),
    ("rules.yaml", "upcard: true\n", "rules.yaml: expected a .json or .toml ruleset file"),
]


@pytest.mark.parametrize(("file", "content", "words"), ERRORS, ids=[e[0] or e[1] or "" for e in ERRORS])
@pytest.mark.parametrize("flag", [[], ["--json"], ["--toml"]])
def test_errors_are_one_line_on_stderr_with_status_2(
    tmp_path: Path, file: str | None, content: str | None, words: str, flag: list[str]
) -> None:
    if file is None:
        assert content is not None
        spec = content
    else:
        path = tmp_path / file
        if content is not None:
            path.write_text(content, encoding="utf-8")
        spec = str(path)
    result = runner.invoke(app, ["rules", "show", spec, *flag])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("liverpool: ")
    assert words in result.stderr
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_json_and_toml_together_are_refused() -> None:
    result = runner.invoke(app, ["rules", "show", "british", "--json", "--toml"])
    assert result.exit_code == 2
    assert result.stderr == "liverpool: choose one of --json and --toml\n"


def test_help_lists_the_rules_commands() -> None:
    result = runner.invoke(app, ["rules", "--help"])
    assert result.exit_code == 0
    assert "list" in result.stdout and "show" in result.stdout


@pytest.mark.skipif(not SCRIPT.exists(), reason="the liverpool console script is not installed in this environment")
def test_the_console_script(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(SCRIPT), "rules", "show", "norsk", "--json"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert Ruleset.from_dict(json.loads(done.stdout)) == find_preset("norsk")

    listing = subprocess.run([str(SCRIPT), "rules", "list"], capture_output=True, text=True, check=False)
    assert listing.returncode == 0 and "british-nobuy" in listing.stdout

    path = tmp_path / "bad.toml"
    path.write_text("buy_limit = -3\n", encoding="utf-8")
    failed = subprocess.run([str(SCRIPT), "rules", "show", str(path)], capture_output=True, text=True, check=False)
    assert failed.returncode == 2
    assert failed.stdout == ""
    assert failed.stderr == f"liverpool: {path}: buy_limit: cannot be negative\n"
