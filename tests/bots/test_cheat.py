"""The measurement-only ``cheat`` bot (``hard`` seeing every hand): the tournament seats it and replays it
exactly from a seed; nothing that seats bots by name for people (the registry, ``liverpool watch``, the
terminal game ``liverpool play``, the RL env) knows it, and only the tournament imports it. The server's refusal is in
``tests/server/test_server_api.py`` (``test_bad_tables_are_refused_and_say_why``)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from liverpool.bots import cheat
from liverpool.bots.medium import MediumBot
from liverpool.bots.registry import UnknownBot, bot_names, make_bot
from liverpool.cli import app
from liverpool.cli.rulesfile import load_ruleset
from liverpool.engine.game.legal import is_chance, legal_actions
from liverpool.engine.observe import observe
from liverpool.engine.play import SeededChance, step
from liverpool.engine.rules.presets import find_preset
from liverpool.engine.state import GameState
from liverpool.env.single import LiverpoolSingleEnv
from liverpool.tournament.games import make_setup, play_game

PACKAGE = Path(cheat.__file__).resolve().parent.parent


def test_no_bot_of_the_registry_is_named_cheat() -> None:
    assert cheat.NAME not in bot_names()
    with pytest.raises(UnknownBot, match="no bot named 'cheat'"):
        make_bot(cheat.NAME)


def test_liverpool_watch_and_the_terminal_game_refuse_it() -> None:
    runner = CliRunner()
    watched = runner.invoke(app, ["watch", "--bots", "cheat,medium,medium", "--quiet"])
    assert watched.exit_code == 2 and "no bot named 'cheat'" in watched.output
    played = runner.invoke(app, ["play", "--bots", "cheat,medium"])
    assert played.exit_code != 0 and "unknown bots ['cheat']" in played.output


def test_the_rl_env_refuses_it() -> None:
    with pytest.raises(UnknownBot, match="no bot named 'cheat'"):
        LiverpoolSingleEnv(opponents="cheat")


def test_only_the_tournament_imports_it() -> None:
    importers = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom):
                names = [f"{node.module}.{a.name}" for a in node.names] + [str(node.module)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            if any(n.endswith("bots.cheat") or n == "cheat" or n.endswith(".cheat") for n in names):
                importers.add(path.relative_to(PACKAGE).as_posix())
    assert importers == {"tournament/games.py"}


def test_a_cheat_searches_the_live_hands() -> None:
    rules = find_preset("liverpool")
    state = GameState(rules=rules, seats=3, first_dealer=0, dealer=0)
    agents = [MediumBot() for _ in range(3)]
    rng, chance = random.Random(4), SeededChance(4)
    truth = cheat.Truth()
    checked = 0
    while checked < 5 and not state.is_over:
        if not is_chance(state):
            seat = state.current
            truth.see(state, legal_actions(state)[0])
            world = truth.world(observe(state, seat), random.Random(checked))
            assert world.hands == state.hands and sorted(world.stock) == sorted(state.stock)
            checked += 1
        step(state, agents, rng, chance=chance)
    assert checked == 5
    with pytest.raises(ValueError, match="before its game's state was bound"):
        cheat.Truth().world(observe(state, 0), random.Random(0))


@pytest.mark.slow
def test_a_tournament_seats_it_and_replays_it_exactly_from_a_seed(short_rules: Path) -> None:
    setup = make_setup(load_ruleset(str(short_rules)), ["cheat", "medium", "medium"], seed=3)
    first = play_game(setup, group=0, rotation=1)
    assert play_game(setup, group=0, rotation=1) == first
    hard = play_game(make_setup(setup.rules, ["hard", "medium", "medium"], seed=3), group=0, rotation=1)
    assert hard.totals != first.totals or hard.buys != first.buys
