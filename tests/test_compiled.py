"""The mypyc-compiled build plays exactly as the pure-Python one (ISSUE 4: "compile the hot core with mypyc
while keeping the pure-Python path working and tested").

Builds the compiled copy with ``scripts/compile.py`` and runs, in a process that imports it, the golden
digests (games, legal actions, observations and searches of the pure engine before optimising), the
engine's regression and rules-matrix tests and the search-versus-oracle tests. The rest of the suite runs
the pure-Python source tree.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import compile as mypyc_build  # noqa: E402

CHECKED = ("test_golden.py", "test_engine_fixes.py", "test_cards_actions.py", "test_rules_matrix.py", "test_search.py")

RUN = """
import sys
import pytest
import liverpool.engine.search, liverpool.engine.game, liverpool.bots.plan
for module in (liverpool.engine.search, liverpool.engine.game, liverpool.bots.plan):
    if not module.__file__.endswith(".so"):
        sys.exit(f"not the compiled build: {module.__file__}")
sys.exit(pytest.main(["-p", "no:cacheprovider", *sys.argv[1:]]))
"""


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("mypyc")
    built = mypyc_build.build(target)
    assert len(built) == len(mypyc_build.COMPILED)
    return target


def test_the_compiled_build_passes_the_engine_tests_and_the_golden_digests(compiled: Path) -> None:
    tests = [str(ROOT / "tests" / name) for name in CHECKED]
    # Run from the build directory, so that the compiled copy is imported, not the source tree.
    done = subprocess.run(
        [sys.executable, "-c", RUN, *tests],
        cwd=compiled,
        env={"PYTHONPATH": str(compiled), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert " passed" in done.stdout.strip().splitlines()[-1], done.stdout[-2000:]
