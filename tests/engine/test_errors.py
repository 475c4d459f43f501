"""Issue 24 item 11: a refusal names the real reason. A seat acting out of turn hears ``not_your_turn``
whatever the phase of the turn, every ``IllegalAction.reason`` is a value of the documented enum
``liverpool.engine.Reason``, and each refusal's message names the action and the situation.

Situations are dealt exactly with ``helpers.deal`` (3 seats, dealer 0: seat 1 plays first).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from helpers import card, deal, go_down, pass_window, play, refused

import liverpool.engine as engine
from liverpool.engine import errors
from liverpool.engine.actions import (
    Buy,
    Call,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    GoDown,
    LayOff,
    Pass,
    SwapJoker,
)
from liverpool.engine.errors import IllegalAction, NotYourTurn, Reason, WrongPhase
from liverpool.engine.game.core import apply
from liverpool.engine.game.legal import legal_actions
from liverpool.engine.play import chance_action
from liverpool.engine.rules.presets import find_preset

LIVERPOOL = find_preset("liverpool")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
SEVENS_EIGHTS = "7H 7S 7D 8C 8D 8S 2C 5D 9H KS"


def _error_classes() -> list[type[IllegalAction]]:
    found: list[type[IllegalAction]] = []
    todo: list[type[IllegalAction]] = [IllegalAction]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    return found


def test_a_wrong_seat_going_down_in_the_draw_phase_is_not_its_turn() -> None:
    """Issue 24 item 11: "An action by a seat whose turn it is not says not_your_turn (today a wrong-seat
    go-down says wrong_phase)". Seat 2 tries to go down while seat 1 is to draw."""
    state = deal(LIVERPOOL, 3, hands=[None, None, SEVENS_EIGHTS], upcard="KD")
    err = refused(state, go_down(2, "set: 7H 7S 7D", "set: 8C 8D 8S"), NotYourTurn, "it is seat 1's turn")
    assert err.reason == "not_your_turn" and err.reason is Reason.NOT_YOUR_TURN
    for action in (Discard(2, card("2C")), EndTurn(2), LayOff(2, card("2C"), 0, "high")):
        refused(state, action, NotYourTurn, "it is seat 1's turn")


def test_the_turns_seat_in_the_wrong_phase_is_still_wrong_phase() -> None:
    """The other side: the seat whose turn it is, acting before it may, hears ``wrong_phase``; and a seat
    out of turn in the play phase hears ``not_your_turn``, as in the draw phase."""
    state = deal(LIVERPOOL, 3, hands=[None, SEVENS_EIGHTS, "2H 3H 4H 5H 9C 9D 9S JC QC KC"], upcard="KD")
    refused(state, go_down(1, "set: 7H 7S 7D", "set: 8C 8D 8S"), WrongPhase, "this is the draw phase")
    refused(state, Discard(1, card("2C")), WrongPhase, "not the play phase")
    play(state, DrawStock(1))
    pass_window(state)
    refused(state, DrawStock(1), WrongPhase, "this is the play phase, not the draw phase")
    refused(state, DrawStock(2), NotYourTurn, "it is seat 1's turn")
    refused(state, Discard(2, card("9C")), NotYourTurn, "it is seat 1's turn")
    play(state, go_down(1, "set: 7H 7S 7D", "set: 8C 8D 8S"))


def test_every_reason_is_one_documented_value_of_the_enum() -> None:
    """Issue 24 item 11: "every IllegalAction.reason is one value of a documented enum". Each error class has
    its own value of ``Reason``, exported from ``liverpool.engine``, and docs/protocol.md lists each value."""
    assert engine.Reason is Reason and "Reason" in engine.__all__
    classes = _error_classes()
    reasons = [cls.reason for cls in classes]
    assert all(isinstance(r, Reason) for r in reasons), reasons
    assert sorted(reasons) == sorted(Reason), "one error class for each reason, and each reason once"
    text = DOCS.read_text()
    for reason in Reason:
        assert f"`{reason.value}`" in text, f"docs/protocol.md does not document {reason.value}"
    exported = {name for name in dir(errors) if isinstance(getattr(errors, name), type)}
    assert {cls.__name__ for cls in classes} <= exported


def test_refusals_in_whole_games_name_the_action_the_reason_and_the_situation() -> None:
    """Issue 24 item 11: "each refusal's message names the action and the situation". At every step of
    seeded games, actions that are not listed are refused with a Reason, a message that starts with the
    action's repr and ends with the situation, and an out-of-turn seat's turn actions say not_your_turn."""
    seen: set[Reason] = set()
    for seed in range(2):
        rng = random.Random(seed)
        state = engine.new_game(LIVERPOOL, 3)
        steps = 0
        while not state.is_over and steps < 400:
            steps += 1
            listed = legal_actions(state)
            if not listed:
                apply(state, chance_action(state, rng))
                continue
            hand_card = next((c for seat in range(3) for c in state.hands[seat]), card("2C"))
            tries = (
                [DrawStock(seat) for seat in range(3)]
                + [Discard(seat, hand_card) for seat in range(3)]
                + [EndTurn(seat) for seat in range(3)]
                + [Buy(seat) for seat in range(3)]
                + [Pass(seat) for seat in range(3)]
                + [DrawDiscard(seat) for seat in range(3)]
                + [Call(seat, None) for seat in range(3)]
                + [GoDown(seat, ()) for seat in range(3)]
                + [SwapJoker(seat, 0, card("JK"), hand_card) for seat in range(3)]
            )
            for action in tries:
                if action in listed:
                    continue
                try:
                    apply(state, action)
                except IllegalAction as err:
                    assert isinstance(err.reason, Reason)
                    seen.add(err.reason)
                    assert str(err).startswith(f"{action!r} is illegal: "), str(err)
                    assert err.situation == state.situation() and str(err).endswith(f"({state.situation()})")
                    turn_action = isinstance(action, DrawStock | Discard | EndTurn | GoDown | DrawDiscard)
                    if turn_action and action.seat != state.current and state.phase.value in ("draw", "play", "buy"):
                        assert err.reason is Reason.NOT_YOUR_TURN, str(err)
                else:
                    raise AssertionError(f"{action!r} was applied though not listed")
            apply(state, rng.choice(listed))
    assert {Reason.NOT_YOUR_TURN, Reason.WRONG_PHASE} <= seen


@pytest.mark.parametrize("reason", list(Reason))
def test_each_reason_has_a_docstring(reason: Reason) -> None:
    """Each value says when it is given (the enum's own documentation, read by ``help(Reason)``)."""
    source = Path(errors.__file__).read_text()
    assert re.search(rf'{reason.name} = "{reason.value}"\n    """\S', source), reason
