"""Snapshot tests of the terminal client (issue 31 item 7) with pytest-textual-snapshot: fixed seed, fixed
size, textual pinned exactly in pyproject.toml. After a deliberate change to the screen, review the new
pictures with `pytest tests/ui/test_tui_snapshots.py --snapshot-update` and commit them
(tests/ui/__snapshots__/)."""

from __future__ import annotations

from typing import Any

import pytest

from liverpool.engine import find_preset
from liverpool.tui.app import LiverpoolApp
from liverpool.tui.session import Session


def _app(four_colour: bool = False) -> LiverpoolApp:
    session = Session(find_preset("liverpool"), ["easy", "easy", "easy"], seed=3, name="ada")
    return LiverpoolApp(session, delay=0, four_colour=four_colour)


@pytest.fixture(autouse=True)
def _colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)


def test_screen_80x24(snap_compare: Any) -> None:
    """The first screen at 80x24: the person is offered the May I? buy (seed 3)."""
    assert snap_compare(_app(), terminal_size=(80, 24))


def test_screen_wide_four_colour(snap_compare: Any) -> None:
    """130x36: larger cards and four colours, after passing the first buy."""
    assert snap_compare(_app(four_colour=True), terminal_size=(130, 36), press=["p", "enter"])


def test_screen_no_colour(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(_app(), terminal_size=(80, 24), press=["s", "enter"])


def test_help_screen(snap_compare: Any) -> None:
    assert snap_compare(_app(), terminal_size=(80, 24), press=["f1"])
