"""The measurement-only ``cheat`` bot (``hard`` seeing every hand, ``docs/bots.md``): it searches the live
hands, and at a position where they matter it chooses otherwise than ``hard``; the tournament seats it and
replays it exactly from a seed; nothing that seats bots by name for people (the registry, ``liverpool watch``, the
terminal game ``liverpool play``, the RL env) knows it, and only the tournament imports it. The server's refusal is in
``tests/server/test_server_api.py`` (``test_bad_tables_are_refused_and_say_why``)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from test_bots import decision_points
from typer.testing import CliRunner

from liverpool.bots import cheat
from liverpool.bots.hard import HardBot
from liverpool.bots.medium import MediumBot
from liverpool.bots.registry import UnknownBot, bot_names, make_bot
from liverpool.bots.worlds import sample_world
from liverpool.cli import app
from liverpool.cli.rulesfile import load_ruleset
from liverpool.engine.actions import Action, DrawDiscard, DrawStock
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
    assert watched.exit_code == 2 and "no bot named 'cheat'; bots: random, easy, medium, hard" in watched.output
    played = runner.invoke(app, ["play", "--bots", "cheat,medium"])
    assert played.exit_code != 0 and "no bot named 'cheat'; bots: random, easy, medium, hard" in played.output


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


ONE_DEAL = """\
base = "may-i"
name = "one deal"
deals = [{ contract = "set 3, set 3", hand_size = 7 }]
"""


def test_seeing_the_hands_changes_its_choice() -> None:
    """Seat 0 draws in deal 2 with KC in hand and KD on the discard pile: ``hard`` draws from the stock,
    and so does a cheat bound to another world its observation allows; the cheat that sees the real hands
    takes the KD."""
    state, seat = decision_points("liverpool", 3, every=4)[18]
    seen = observe(state, seat)
    options = legal_actions(state, seat)
    other = sample_world(seen, random.Random(5))
    assert observe(other, seat) == seen and other.hands != state.hands

    def cheat_on(truth_state: GameState) -> Action | None:
        truth = cheat.Truth()
        truth.see(truth_state, options[0])
        return cheat.make_cheat(truth)(seen, options, random.Random(11))

    assert HardBot()(seen, options, random.Random(11)) == DrawStock(seat)
    assert cheat_on(other) == DrawStock(seat)
    assert cheat_on(state) == DrawDiscard(seat, depth=1)


@pytest.mark.slow
def test_a_tournament_seats_it_bound_to_its_game_and_replays_it_from_a_seed(tmp_path: Path) -> None:
    """A one-deal game where the cheat goes out and ``hard`` in its seat, on the same shuffle, does not."""
    path = tmp_path / "one.toml"
    path.write_text(ONE_DEAL, encoding="utf-8")
    rules = load_ruleset(str(path))
    setup = make_setup(rules, ["cheat", "medium", "medium"], seed=1)
    first = play_game(setup, group=0, rotation=0)
    assert play_game(setup, group=0, rotation=0) == first
    assert first.went_out == (0,)
    hard = play_game(make_setup(rules, ["hard", "medium", "medium"], seed=1), group=0, rotation=0)
    assert hard.went_out != (0,) and hard.totals != first.totals
