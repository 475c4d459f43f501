"""A ruleset file for quick tournaments: May I? cut to two deals, so that games between bots are short."""

from __future__ import annotations

from pathlib import Path

import pytest

SHORT_RULES = """\
base = "may-i"
name = "short"
deals = [
    { contract = "set 3, set 3", hand_size = 10 },
    { contract = "set 3, run 4", hand_size = 10 },
]
"""


@pytest.fixture(scope="session")
def short_rules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The path of :data:`SHORT_RULES` as a TOML ruleset file."""
    path = tmp_path_factory.mktemp("rules") / "short.toml"
    path.write_text(SHORT_RULES, encoding="utf-8")
    return path
