"""The mypyc-compiled build plays exactly as the pure-Python one (ISSUE 4: "compile the hot core with mypyc
while keeping the pure-Python path working and tested").

Builds the compiled copy with ``scripts/compile.py`` and runs, in a process that imports it, the golden
digests (games, legal actions, observations and searches of the pure engine before optimising), the
engine's regression and rules-matrix tests and the search-versus-oracle tests. The rest of the suite runs
the pure-Python source tree.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import compile as mypyc_build  # noqa: E402

pytestmark = pytest.mark.slow  # `make test-quick` leaves these out; `make test` runs them

CHECKED = (
    "engine/test_golden.py",
    "rules/test_engine_fixes.py",
    "engine/test_cards_actions.py",
    "rules/test_rules_matrix.py",
    "search/test_search.py",
    "engine/test_observe_values.py",
    "engine/test_pickle.py",
    "engine/test_pile_log_value.py",
    "engine/test_hot_path.py",
    "engine/test_made_values.py",
    "engine/test_lay_off_index.py",
    "engine/test_chance.py",
    "engine/test_bits.py",
    "search/test_search_kit.py",
    "rules/test_fidelity_swaps.py",
    "rules/test_fidelity_melds.py",
    "engine/test_errors.py",
    "rules/test_deal_end.py",
    "engine/test_go_down_all.py",
    "engine/test_position.py",
    "engine/test_fuzz.py",
    "engine/test_caches.py",
    "search/test_reference.py",
)

RUN = """
import sys
import pytest
import liverpool.engine.search, liverpool.engine.game.core, liverpool.bots.plan
for module in (liverpool.engine.search, liverpool.engine.game.core, liverpool.bots.plan):
    if not module.__file__.endswith(".so"):
        sys.exit(f"not the compiled build: {module.__file__}")
sys.exit(pytest.main(["-p", "no:cacheprovider", *sys.argv[1:]]))
"""


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The compiled copy: ``make test``'s fresh ``build/mypyc`` (``$LIVERPOOL_COMPILED_BUILD``, rebuilt by
    make whenever a source changed), else one built here."""
    ready = os.environ.get("LIVERPOOL_COMPILED_BUILD")
    if ready and (Path(ready) / ".built").is_file():
        target = Path(ready)
        built = sorted((target / "liverpool").rglob("*.so"))
    else:
        target = tmp_path_factory.mktemp("mypyc")
        built = mypyc_build.build(target)
    assert len(built) == len(mypyc_build.COMPILED), f"{target} holds {len(built)} compiled modules"
    return target


def run_python(code: str, path: Path, *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """``code`` run by a fresh Python from ``path`` with only ``path`` on its module path, so that it
    imports the package found there (the compiled copy or the source tree)."""
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=path,
        env={"PYTHONPATH": str(path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


def test_the_compiled_build_passes_the_engine_tests_and_the_golden_digests(compiled: Path) -> None:
    tests = [str(ROOT / "tests" / name) for name in CHECKED]
    done = run_python(RUN, compiled, *tests, timeout=1800)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert " passed" in done.stdout.strip().splitlines()[-1], done.stdout[-2000:]


HARD = """
import hashlib, random, sys
import liverpool.bots.hard, liverpool.bots.rollout
from liverpool.bots.hard import HardBot
from liverpool.bots.registry import make_bot
from liverpool.engine.play import SeededChance, step
from liverpool.engine.rules.presets import find_preset
from liverpool.engine.record import GameRecord
from liverpool.engine.state import GameState

print(liverpool.bots.hard.__file__, liverpool.bots.rollout.__file__)
rules = find_preset("liverpool")
state = GameState(rules=rules, seats=3, first_dealer=0, dealer=0)
agents = [HardBot(), make_bot("medium"), make_bot("easy")]
rng, chance = random.Random(5), SeededChance("compiled-hard")
while state.deal < 2 and not state.is_over:
    step(state, agents, rng, chance=chance)
print(hashlib.sha256(repr(GameRecord.of(state).to_dict()).encode()).hexdigest(), [r.scores for r in state.results])
"""


def test_the_compiled_hard_bot_plays_as_the_pure_one(compiled: Path) -> None:
    """``hard`` and its rollouts are compiled too; two deals with a ``hard`` seat give the same record."""
    runs = []
    for path in (compiled, ROOT):
        done = run_python(HARD, path, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        runs.append(done.stdout.splitlines())
    (compiled_files, compiled_game), (pure_files, pure_game) = runs
    assert compiled_files.count(".so") == 2 and pure_files.count(".py") == 2, (compiled_files, pure_files)
    assert compiled_game == pure_game


VERSION = "from liverpool.buildinfo import describe_build; print(describe_build())"


def test_the_version_line_names_the_build(compiled: Path) -> None:
    """``liverpool --version`` and the server's start line say which build runs (issue 25: compiled by
    default); the line comes from ``describe_build``, asked here of each copy."""
    fast = run_python(VERSION, compiled, timeout=60)
    pure = run_python(VERSION, ROOT, timeout=60)
    assert fast.returncode == 0 and pure.returncode == 0, fast.stderr + pure.stderr
    assert fast.stdout.strip().endswith("compiled (mypyc) build"), fast.stdout
    assert pure.stdout.strip().endswith("pure Python build"), pure.stdout


GARBAGE = """
import collections, gc, random
import liverpool.bots.medium
from liverpool.bots.registry import bot_names, make_bot
from liverpool.engine import GameState, SeededChance, find_preset
from liverpool.engine.play import step

print(liverpool.bots.medium.__file__)
gc.collect()
gc.disable()
gc.set_debug(gc.DEBUG_SAVEALL)
state = GameState(rules=find_preset("liverpool"), seats=len(bot_names()), first_dealer=0, dealer=0)
agents = [make_bot(name) for name in bot_names()]
rng, chance = random.Random(5), SeededChance(5)
while state.deal < 2 and not state.is_over:
    step(state, agents, rng, chance=chance)
print(gc.collect(), collections.Counter(type(o).__qualname__ for o in gc.garbage).most_common(5))
"""


def test_compiled_bots_leave_no_garbage_for_the_collector(compiled: Path) -> None:
    """Two deals with a seat for each bot a table offers leave no reference cycles: what they drop is freed by
    reference counting, so a server's garbage collections have nothing of theirs to find (docs/performance.md,
    "Session 50": a closure returned by a compiled function is a cycle; ``medium``'s feeding score was one,
    about 3,000 objects a game, and the server's collections were its ping tail)."""
    for path in (compiled, ROOT):
        done = run_python(GARBAGE, path, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        where, found = done.stdout.splitlines()
        assert found.startswith("0 "), (where, found)
    assert where.endswith(".py")
