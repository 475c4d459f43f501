"""Undo (``liverpool.engine.undo_point``, issue 30 item 4): taking back a seat's last decision gives the
state before it exactly (the engine's snapshot, byte for byte), and is refused once a card hidden from the
seat has been shown to it since. A client rule, not a table rule: RULES.md has no row for it."""

from __future__ import annotations

import random

import pytest

from liverpool.engine import (
    DrawDiscard,
    DrawStock,
    Pass,
    UndoRefused,
    apply,
    chance_action,
    find_preset,
    legal_actions,
    new_game,
    snapshot,
    undo_point,
)
from liverpool.engine.state import GameState


def _dealt(seed: int) -> GameState:
    state = new_game(find_preset("liverpool"), seats=3)
    apply(state, chance_action(state, random.Random(seed)))
    return state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_undo_gives_the_state_before_the_decision_exactly(seed: int) -> None:
    state = _dealt(seed)
    seat = state.current
    before = snapshot(state)
    apply(state, DrawDiscard(seat))
    back = undo_point(state, seat)
    assert snapshot(back.state) == before
    assert back.actions == (DrawDiscard(seat),) and back.at == 1
    assert snapshot(state) != before, "the state asked about is not changed"


def test_undo_is_refused_once_a_stock_card_was_shown() -> None:
    state = _dealt(1)
    seat = state.current
    apply(state, DrawStock(seat))
    while state.phase.value == "buy":  # the discard it let go is offered to the others first
        apply(state, next(a for a in legal_actions(state) if isinstance(a, Pass)))
    held = snapshot(state)
    with pytest.raises(UndoRefused, match="shown to seat") as refused:
        undo_point(state, seat)
    assert refused.value.reason == "card_shown" and refused.value.cards and refused.value.index is not None
    assert snapshot(state) == held
    with pytest.raises(UndoRefused) as nothing:
        undo_point(_dealt(1), 0)
    assert nothing.value.reason == "nothing_to_undo"
