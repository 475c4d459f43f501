"""The game driver's shortcuts: ``game._apply_listed`` skips validating an action it has just listed, and in
a buy window ``legal_actions(state, seat)`` lists one seat's answers without the others'.

``_apply_listed`` must behave exactly as ``apply``: the same state after a listed action, and the same
refusal (state untouched) for any action that is not one of the listed objects, an equal copy included.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import pytest

from liverpool.engine.actions import Action, Discard, DrawDiscard, DrawStock
from liverpool.engine.errors import IllegalAction
from liverpool.engine.game.core import _apply_listed, apply, new_game
from liverpool.engine.game.legal import is_chance, legal_actions
from liverpool.engine.game.verify import _is_legal_made, is_legal
from liverpool.engine.play import chance_action
from liverpool.engine.rules.parts import Buying
from liverpool.engine.rules.presets import PRESETS
from liverpool.engine.state import GameState, Phase


def _states(preset: str, seed: int, steps: int) -> Iterator[tuple[GameState, list[Action], random.Random]]:
    """Each decision point of a seeded game of random legal play, with the actions listed there."""
    rng = random.Random(seed)
    state = new_game(PRESETS[preset], 4)
    for _ in range(steps):
        if state.is_over:
            return
        if is_chance(state):
            apply(state, chance_action(state, rng))
            continue
        yield state, legal_actions(state), rng
        options = legal_actions(state)
        _apply_listed(state, rng.choice(options), options)


@pytest.mark.parametrize("preset", ["liverpool", "british", "may-i"])
def test_a_listed_action_leaves_the_state_apply_would(preset: str) -> None:
    for state, options, rng in _states(preset, 3, 400):
        choice = rng.choice(options)
        by_apply = apply(copy.deepcopy(state), copy.deepcopy(choice))
        by_listed = _apply_listed(copy.deepcopy(state), choice, options)
        assert by_listed == by_apply


def test_an_action_not_listed_is_validated_even_when_it_equals_a_listed_one() -> None:
    """RULES.md §1.4 the turn: only the current player draws. A list that vouches for an equal action
    but not for this very object (here a stale one) does not spare it the check."""
    for state, options, _ in _states("liverpool", 5, 60):
        if state.phase is not Phase.DRAW:
            continue
        other = (state.current + 1) % state.seats
        before = copy.deepcopy(state)
        with pytest.raises(IllegalAction):
            _apply_listed(state, DrawStock(other), [*options, DrawStock(other)])
        with pytest.raises(IllegalAction):
            _apply_listed(state, Discard(state.current, state.hands[state.current][0]), options)
        assert state == before
        return
    pytest.fail("no draw phase reached")


@pytest.mark.parametrize("preset", ["liverpool", "british", "may-i"])
def test_one_seats_actions_are_its_share_of_the_whole_list(preset: str) -> None:
    """RULES.md §3.12 buying: who, when: every seat of an open window answers; each seat's list is its share of all. In the
    play phase every action is the current player's (RULES.md §1.4: the turn)."""
    windows = 0
    for state, options, _ in _states(preset, 11, 600):
        windows += state.phase is Phase.BUY
        if state.phase is Phase.PLAY:  # the driver asks only the current seat then
            assert {a.seat for a in options} == {state.current}
        for seat in range(state.seats):
            assert legal_actions(state, seat) == [a for a in options if a.seat == seat]
    # may-i buys before the next draw, in the draw phase: no windows there, the shares are checked anyway.
    assert windows > 10 or PRESETS[preset].buying is not Buying.AFTER_NEXT_DECLINES


@pytest.mark.parametrize("preset", ["liverpool", "british", "contract"])
def test_is_legal_made_answers_as_is_legal(preset: str) -> None:
    """``legal`` asks ``_is_legal_made`` (no type checks) about the actions it makes: for well-made actions of
    every kind at every moment, legal or not, the answer is ``is_legal``'s."""
    asked = 0
    for state, options, _ in _states(preset, 9, 300):
        candidates: list[Action] = list(options)
        for seat in range(state.seats):
            candidates += [DrawStock(seat), *(DrawDiscard(seat, d) for d in range(1, len(state.discard_pile) + 1))]
            candidates += [Discard(seat, c) for c in state.hands[seat][:3]]
        for action in candidates:
            assert _is_legal_made(state, action) == is_legal(state, action), (state.situation(), action)
            asked += 1
    assert asked > 1000
