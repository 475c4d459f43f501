"""The one way a game changes: :func:`apply` validates an action, then performs it.

An illegal action raises a subclass of :class:`~liverpool.engine.errors.IllegalAction` naming the
action, the reason and the situation, and leaves the state untouched.

>>> from liverpool.engine import DrawStock, find_preset
>>> state = new_game(find_preset('liverpool'), seats=3)
>>> apply(state, DrawStock(seat=1))
Traceback (most recent call last):
...
liverpool.engine.errors.WrongPhase: DrawStock(seat=1) is illegal: this is the deal phase, not the draw phase (deal 1, deal phase)
"""

from __future__ import annotations

from collections.abc import Sequence

from liverpool.engine.actions import Action
from liverpool.engine.game.perform import _perform
from liverpool.engine.game.verify import _verify
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import GameState


def new_game(rules: Ruleset, seats: int, first_dealer: int = 0) -> GameState:
    """A game waiting for its first :class:`Shuffle`."""
    rules.deck_for(seats)
    if rules.partnerships and seats != 4:
        raise ValueError(f"{rules.name}: partnerships need 4 seats, not {seats}")
    if not 0 <= first_dealer < seats:
        raise ValueError(f"first_dealer must be a seat 0..{seats - 1}, not {first_dealer}")
    return GameState(rules=rules, seats=seats, first_dealer=first_dealer, dealer=first_dealer)


def apply(state: GameState, action: Action) -> GameState:
    """Validate ``action`` against ``state``, then perform it (in place). Returns ``state``."""
    _verify(state, action)
    _perform(state, action)
    state.history.append(action)
    return state


def _apply_listed(state: GameState, action: Action, listed: Sequence[Action]) -> GameState:
    """:func:`apply`, for a caller that has just listed ``legal_actions(state)`` as ``listed`` and not
    changed ``state`` since: an action that is one of those very objects is legal by construction and is
    performed without validating it again; any other action (an equal copy included) is validated."""
    # (A list, as every caller passes, is walked as one: compiled, a Sequence is walked by a generic iterator.)
    options = listed if isinstance(listed, list) else list(listed)
    for option in options:
        if option is action:
            _perform(state, action)
            state.history.append(action)
            return state
    return apply(state, action)
