"""Playing a sampled world to the end of its deal, quickly, for the search bot.

:func:`playout` works like :func:`liverpool.engine.play.step` in a loop (chance from a random source,
out-of-turn seats asked first, nearest after the current player first), but offers each seat a cheap
*subset* of its legal actions (:func:`quick_options`): no joker swaps, no digging into the discard pile,
and at most a few going-down arrangements. Every action still goes through the engine's
:func:`~liverpool.engine.game.apply`, which validates it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from liverpool.engine import (
    Action,
    Agent,
    GameState,
    Phase,
    apply,
    asking_order,
    chance_action,
    observe,
    quick_actions,
)

GO_DOWN_OPTIONS = 3


def quick_options(state: GameState, seat: int) -> list[Action]:
    """The engine's cheaper listing (:func:`~liverpool.engine.quick_actions`) with this bot's few going-down
    arrangements: never empty when the seat must act."""
    return quick_actions(state, seat, GO_DOWN_OPTIONS)


def quick_step(state: GameState, agents: Sequence[Agent], rng: random.Random, skip_through: int | None = None) -> bool:
    """One action, as :func:`~liverpool.engine.play.step` takes it; ``False`` when nobody could act.

    ``skip_through``: that seat, and the seats asked before it, have already declined this step.
    """
    if state.phase in (Phase.DEAL, Phase.RESHUFFLE):
        apply(state, chance_action(state, rng))
        return True
    order = asking_order(state)
    if skip_through is not None:
        order = order[order.index(skip_through) + 1 :]
    for seat in order:
        options = quick_options(state, seat)
        if not options:
            continue
        choice = agents[seat](observe(state, seat), options, rng)
        if choice is None:
            if seat == state.current or state.phase is Phase.BUY:
                raise ValueError(f"agent of seat {seat} declined to act but must ({state.situation()})")
            continue
        apply(state, choice)
        return True
    return False


def playout(
    state: GameState,
    agents: Sequence[Agent],
    rng: random.Random,
    *,
    deal: int | None = None,
    skip_through: int | None = None,
    max_steps: int = 3000,
) -> tuple[int, ...]:
    """Play ``state`` to the end of deal ``deal`` (default: the current one) and return its points per seat.

    A deal still going after ``max_steps`` actions is scored as if it ended there with nobody out.
    """
    deal = state.deal if deal is None else deal
    for _ in range(max_steps):
        if state.deal != deal or state.is_over:
            return state.results[-1].scores
        if not quick_step(state, agents, rng, skip_through):
            break
        skip_through = None
    rules = state.rules
    return tuple(sum(rules.value(c) for c in hand) for hand in state.hands)
