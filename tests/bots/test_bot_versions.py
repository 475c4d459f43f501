"""Every bot level carries a version (``liverpool.bots.registry.VERSIONS``), and its play on a fixed seeded
corpus of decisions (:mod:`liverpool.bots.fingerprint`) may change only with it.

``tests/data/bot_digests.json`` keeps, per level, the version and the digest of its choices in each style.
A level whose digest moves while its version stays fails here with "bump the version"; after a bump,
``python -m liverpool.bots.fingerprint --write`` writes the file again (``docs/bots.md``).
"""

from __future__ import annotations

import pytest

from liverpool.bots import fingerprint
from liverpool.bots.easy import EasyBot
from liverpool.bots.registry import (
    STYLES,
    VERSIONS,
    UnknownBot,
    UnknownStyle,
    bot_names,
    make_bot,
    parse_spec,
    styles_of,
    version_of,
)
from liverpool.bots.style import Style
from liverpool.engine import GoDown, Observation

CASES = [
    pytest.param(name, style, marks=pytest.mark.slow) if name == "hard" else pytest.param(name, style)
    for name in bot_names()
    for style in styles_of(name)
]


def test_every_level_has_a_version_and_a_stored_digest() -> None:
    stored = fingerprint.stored()
    assert set(VERSIONS) == set(bot_names())
    for name in bot_names():
        assert version_of(name) == f"{name}/{VERSIONS[name]}"
        assert name in stored, f"no digest stored for {name!r}: run python -m liverpool.bots.fingerprint --write"
        assert set(stored[name]["digests"]) == set(styles_of(name))


@pytest.mark.parametrize(("name", "style"), CASES)
def test_play_on_the_seeded_corpus_changes_only_with_the_version(name: str, style: str) -> None:
    entry = fingerprint.stored()[name]
    found = fingerprint.digest(name, style)
    if entry["version"] == version_of(name):
        assert found == entry["digests"][style], (
            f"{name} ({style}) chooses differently on the seeded corpus than {entry['version']} did "
            f"(digest {found}, stored {entry['digests'][style]}): bump the version of {name!r} in "
            "liverpool/bots/registry.py VERSIONS, then run python -m liverpool.bots.fingerprint --write"
        )
    else:
        pytest.fail(
            f"{name} is {version_of(name)} but the stored digests are of {entry['version']}: "
            "run python -m liverpool.bots.fingerprint --write and commit tests/data/bot_digests.json"
        )


def test_the_corpus_holds_buys_and_going_down() -> None:
    decisions = fingerprint.corpus()
    assert sum(d.observation.phase.name == "BUY" for d in decisions) >= 100
    assert sum(any(isinstance(a, GoDown) for a in d.options) for d in decisions) >= 20


def test_a_changed_choice_changes_the_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: an easy bot that passes one buy it would have taken gives another digest."""
    before = fingerprint.digest("easy")
    wants = EasyBot.wants_buy
    calls = {"n": 0}

    def one_less(self: EasyBot, observation: Observation) -> bool:
        wanted = wants(self, observation)
        if wanted:
            calls["n"] += 1
            if calls["n"] == 1:
                return False
        return wanted

    monkeypatch.setattr(EasyBot, "wants_buy", one_less)
    assert fingerprint.digest("easy") != before


def test_specs_and_styles_are_checked() -> None:
    assert parse_spec("Medium:Aggressive") == ("medium", Style.AGGRESSIVE)
    assert parse_spec("easy") == ("easy", Style.BALANCED)
    assert STYLES == ("cautious", "balanced", "aggressive")
    with pytest.raises(UnknownStyle, match="no style named 'bold'; styles: cautious, balanced, aggressive"):
        parse_spec("medium:bold")
    with pytest.raises(UnknownStyle, match="bot 'random' has no style 'aggressive': it plays only balanced"):
        make_bot("random", "aggressive")
    with pytest.raises(UnknownBot, match="no bot named 'grandmaster'"):
        parse_spec("grandmaster:balanced")
