"""Unpredictable, unbiased shuffles (issue 26 item 2; STYLE.md §5: "live games use ``secrets``-grade
randomness. Never the global ``random`` module"; STYLE.md 5, seeded chance: seeded games replay exactly).

- Live games draw their chance from :func:`~liverpool.engine.play.live_rng` (the operating system's
  source), so tables created in the same instant get different decks: checked in process and through a
  real server, reading the decks from the server's database (they never leave the server otherwise).
- The engine's shuffle puts every card in every position equally often: a chi-square test of positions,
  which a naive (biased) shuffle fails.
- Server and command-line code never touch the global ``random`` module (a lint over their source);
  ``random.Random(seed)`` for seeded play and ``random.SystemRandom`` are allowed.
"""

from __future__ import annotations

import ast
import math
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from server_fixtures import ServerProcess

from liverpool.engine import play
from liverpool.engine.cards import Card, make_shoe
from liverpool.engine.game.core import new_game
from liverpool.engine.rules.presets import find_preset
from liverpool.server.storage import Storage

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "liverpool"

# -- the live source --------------------------------------------------------------------------------


def test_the_live_source_is_the_operating_systems() -> None:
    assert isinstance(play.live_rng(), random.SystemRandom)


def test_games_dealt_in_the_same_instant_from_the_live_source_get_different_decks() -> None:
    rules = find_preset("liverpool")
    decks = set()
    for _ in range(50):
        state = new_game(rules, 4)
        decks.add(play.chance_action(state, play.live_rng()).deck)
    assert len(decks) == 50
    # The other side: a seeded source deals the same deck again (STYLE.md 5, seeded chance: seeded games replay exactly).
    state = new_game(rules, 4)
    assert play.chance_action(state, random.Random(5)).deck == play.chance_action(state, random.Random(5)).deck


CONCURRENT_TABLES = 12


def test_tables_created_at_once_on_a_real_server_get_different_decks(
    sqlite_url: str, start_server: Callable[[str], ServerProcess]
) -> None:
    # Twelve all-bot tables created by twelve threads at once: each deals as soon as it is created, from
    # the actor's live source (``TableActor.rng``); a source seeded by the clock or a constant deals
    # two of them the same deck. The decks are read from the database (they never leave the server).
    server = start_server(sqlite_url)
    body = {"seats": 4, "bots": {str(s): "random" for s in range(4)}, "bot_pace_ms": 60_000}
    with ThreadPoolExecutor(CONCURRENT_TABLES) as pool:
        created = list(pool.map(lambda _: server.create(**body), range(CONCURRENT_TABLES)))
    storage = Storage(sqlite_url)
    try:
        deadline = time.monotonic() + 20
        logs = [storage.actions(t["table_id"]) for t in created]
        while not all(logs) and time.monotonic() < deadline:
            time.sleep(0.1)
            logs = [storage.actions(t["table_id"]) for t in created]
    finally:
        storage.close()
    assert all(logs), "every all-bot table deals at once"
    firsts = [log[0] for log in logs]
    assert all(first["type"] == "shuffle" for first in firsts)
    decks = {tuple(first["deck"]) for first in firsts}
    assert len(decks) == len(created), "two tables created at once were dealt the same deck"


# -- no bias ----------------------------------------------------------------------------------------

ShuffleFn = Callable[[list[Card], random.Random], None]


def position_chi_square(cards: tuple[Card, ...], shuffles: int, shuffle: ShuffleFn, rng: random.Random) -> float:
    """Pearson's statistic of the (card, position) table over ``shuffles`` shuffles; every cell expects
    ``shuffles / n``, with (n - 1)² degrees of freedom."""
    n = len(cards)
    index = {card: i for i, card in enumerate(cards)}
    counts = [[0] * n for _ in range(n)]
    for _ in range(shuffles):
        deck = list(cards)
        shuffle(deck, rng)
        for position, card in enumerate(deck):
            counts[index[card]][position] += 1
    expected = shuffles / n
    return sum((observed - expected) ** 2 / expected for row in counts for observed in row)


def chi_square_critical(dof: int, z: float) -> float:
    """The chi-square value exceeded with the upper-tail probability of the normal deviate ``z``
    (Wilson-Hilferty; within 0.1% of the exact value for these degrees of freedom)."""
    a = 2 / (9 * dof)
    return float(dof * (1 - a + z * math.sqrt(a)) ** 3)


Z_1E3 = 3.0902  # upper tail 0.001
Z_1E6 = 4.7534  # upper tail 0.000001 (for the unseeded source, whose test must not be flaky)


def _scipy_critical(dof: int, p: float) -> float | None:
    try:
        from scipy.stats import chi2  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return None
    return float(chi2.isf(p, dof))


def test_the_stated_critical_values_agree_with_scipy_when_it_is_installed() -> None:
    exact = _scipy_critical(49, 0.001)
    if exact is None:
        pytest.skip("scipy is not installed: the Wilson-Hilferty values stand (85.43 for 49 dof at 0.001)")
    assert abs(chi_square_critical(49, Z_1E3) - exact) / exact < 0.005


def test_wilson_hilferty_matches_a_tabulated_value() -> None:
    # Printed tables give 85.351 for 49 and 86.661 for 50 degrees of freedom at 0.001 upper tail.
    assert abs(chi_square_critical(49, Z_1E3) - 85.351) < 0.2
    assert abs(chi_square_critical(50, Z_1E3) - 86.661) < 0.2


def _naive(items: list[Card], rng: random.Random) -> None:
    """The classic biased shuffle: every position exchanged with any position."""
    n = len(items)
    for i in range(n):
        j = rng.randrange(n)
        items[i], items[j] = items[j], items[i]


SMALL = make_shoe(1, 0)[:8]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_engines_seeded_shuffle_puts_every_card_everywhere_equally_often(seed: int) -> None:
    # 8 cards, 40,000 shuffles: 49 degrees of freedom, critical 85.4 at 0.001 (Wilson-Hilferty).
    statistic = position_chi_square(SMALL, 40_000, play.shuffle, random.Random(seed))
    assert statistic < chi_square_critical(49, Z_1E3)
    # The other side: the same test sees the bias of a naive shuffle (it would fail that one).
    assert position_chi_square(SMALL, 40_000, _naive, random.Random(seed)) > chi_square_critical(49, Z_1E3)


def test_the_engines_shuffle_of_a_whole_shoe_is_unbiased_from_both_sources() -> None:
    shoe = make_shoe(2, 4)  # 108 cards: 11,449 degrees of freedom
    dof = (len(shoe) - 1) ** 2
    seeded = position_chi_square(shoe, 2_000, play.shuffle, random.Random(26))
    assert seeded < chi_square_critical(dof, Z_1E3)
    live = position_chi_square(shoe, 2_000, play.shuffle, play.live_rng())
    assert live < chi_square_critical(dof, Z_1E6)


# -- no global random in server code ----------------------------------------------------------------

ALLOWED = frozenset({"Random", "SystemRandom"})


def global_random_uses(source: str) -> list[str]:
    """Every use of the global ``random`` module's functions in ``source``: ``random.x`` for any ``x`` but
    the classes ``Random`` and ``SystemRandom`` (under any alias), and ``from random import x`` of anything
    else. Each is given as ``line: text``."""
    tree = ast.parse(source)
    aliases: set[str] = set()
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {a.asname or a.name for a in node.names if a.name == "random"}
        elif isinstance(node, ast.ImportFrom) and node.module == "random":
            for alias in node.names:
                if alias.name not in ALLOWED:
                    found.append(f"{node.lineno}: from random import {alias.name}")
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
            continue
        if node.value.id in aliases and node.attr not in ALLOWED:
            found.append(f"{node.lineno}: {node.value.id}.{node.attr}")
    return found


def _live_sources() -> list[Path]:
    return sorted([*(PACKAGE / "server").rglob("*.py"), *(PACKAGE / "cli").rglob("*.py"), PACKAGE / "__main__.py"])


def test_server_and_command_line_code_never_use_the_global_random_module() -> None:
    files = _live_sources()
    assert PACKAGE / "server" / "actor.py" in files and PACKAGE / "cli" / "serve.py" in files
    uses = {str(f.relative_to(ROOT)): global_random_uses(f.read_text()) for f in files}
    assert {f: u for f, u in uses.items() if u} == {}


@pytest.mark.parametrize(
    "source",
    [
        "import random\nrandom.shuffle(deck)",
        "import random\nx = random.random()",
        "import random as r\nr.choice(seats)",
        "import random\nrandom.seed(1)",
        "from random import shuffle",
        "from random import Random, randrange",
        "from random import *",
        "import random\nf = random.getrandbits",
    ],
)
def test_the_lint_catches_global_random(source: str) -> None:
    assert global_random_uses(source)


@pytest.mark.parametrize(
    "source",
    [
        "import random\nrng = random.Random(seed)",
        "import random\nrng = random.SystemRandom()",
        "from random import Random, SystemRandom",
        "import random\ndef f(rng: random.Random) -> None:\n    rng.shuffle(deck)",
        "import secrets\nsecrets.token_urlsafe(16)",
    ],
)
def test_the_lint_allows_seeded_and_system_sources(source: str) -> None:
    assert global_random_uses(source) == []
