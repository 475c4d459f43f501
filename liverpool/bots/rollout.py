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

from liverpool.engine.actions import (
    Action,
    Buy,
    Call,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    GoDown,
    Pass,
)
from liverpool.engine.game import checks
from liverpool.engine.game.core import apply
from liverpool.engine.game.legal import lay_off_actions
from liverpool.engine.game.verify import is_legal
from liverpool.engine.observe import observe
from liverpool.engine.play import Agent, chance_action
from liverpool.engine.rules.ruleset import Buying, DiscardCall
from liverpool.engine.state import GameState, Phase

GO_DOWN_OPTIONS = 3


def quick_options(state: GameState, seat: int) -> list[Action]:
    """A subset of ``legal_actions(state, seat)`` that is never empty when the seat must act."""
    match state.phase:
        case Phase.DRAW:
            return _draw_options(state, seat)
        case Phase.BUY:
            if seat in state.window and seat not in state.window_answers:
                return [Buy(seat), Pass(seat)]
            return []
        case Phase.PLAY:
            return _play_options(state) if seat == state.current else []
        case _:
            return []


def _draw_options(state: GameState, seat: int) -> list[Action]:
    rules = state.rules
    out: list[Action] = []
    if seat == state.current:
        out.append(DrawStock(seat))
        if state.discard_pile and is_legal(state, DrawDiscard(seat)):
            out.append(DrawDiscard(seat))
    elif rules.buying is Buying.BEFORE_NEXT_DRAW and checks.buy_problem(state, seat) is None:
        out.append(Buy(seat))
    if state.call_open:
        hand = state.hands[seat]
        if rules.discard_call is DiscardCall.RUMMY:
            if checks.call_problem(state, seat, None) is None:
                out.append(Call(seat))
        elif hand and checks.call_problem(state, seat, hand[0]) is None:
            out += [Call(seat, c) for c in hand]
    return out


def _play_options(state: GameState) -> list[Action]:
    me = state.current
    hand = state.hands[me]
    down = state.down[me]
    pending = state.must_place
    if pending is not None:
        if down:
            return lay_off_actions(state, [pending])
        return [GoDown(me, a) for a in checks.go_down_options(state, me, hand, pending, GO_DOWN_OPTIONS)]
    if not hand:
        return [EndTurn(me)]
    if state.reclaimed:
        # A joker reclaimed this turn (a playout may start right after a swap): lay it off, as the rules let it.
        return [a for a in lay_off_actions(state, state.reclaimed) if is_legal(state, a)]
    out: list[Action] = []
    if down:
        out += lay_off_actions(state, hand)
    else:
        out += [GoDown(me, a) for a in checks.go_down_options(state, me, hand, None, GO_DOWN_OPTIONS)]
    rules = state.rules
    out += [
        Discard(me, c)
        for c in hand
        if not (rules.no_discard_taken_card and c == state.taken)
        and checks.floater_discard_problem(state, me, c) is None
    ]
    if rules.discard_optional:
        out.append(EndTurn(me))
    return out


def quick_step(state: GameState, agents: Sequence[Agent], rng: random.Random, skip_through: int | None = None) -> bool:
    """One action, as :func:`~liverpool.engine.play.step` takes it; ``False`` when nobody could act.

    ``skip_through``: that seat, and the seats asked before it, have already declined this step.
    """
    if state.phase in (Phase.DEAL, Phase.RESHUFFLE):
        apply(state, chance_action(state, rng))
        return True
    order = [(state.current + k) % state.seats for k in range(1, state.seats)] + [state.current]
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
