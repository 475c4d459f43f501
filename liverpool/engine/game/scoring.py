"""A deal's end: what each seat is caught with, the scores, and the winners of a finished game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from liverpool.engine.cards import FACE_MASK
from liverpool.engine.rules.parts import Ties
from liverpool.engine.search.candidates import face_weights
from liverpool.engine.state import DealEndReason, DealResult, GameState, Phase

# Members of the rules' enums as Final names: compiled with mypyc, a name like ``MeldKind.SET`` is
# looked up through the enum class at each use, a Final name is a C static.
_REPLAY_FINAL_DEAL: Final = Ties.REPLAY_FINAL_DEAL
_SHARE: Final = Ties.SHARE
# Phases as Final names (compiled, ``Phase.DRAW`` is a look-up through the enum class at each use).
_PHASE_DEAL: Final = Phase.DEAL
_PHASE_GAME_OVER: Final = Phase.GAME_OVER


def _penalty(hand: Sequence[int], values: tuple[int, ...]) -> int:
    """The penalty points of ``hand`` (``values`` by face): cards read as ints, as ``rules.value`` reads them
    but without a Python call each."""
    total = 0
    for card in hand:
        total += values[card & FACE_MASK]
    return total


def _end_deal(state: GameState, went_out: int | None, reason: DealEndReason) -> None:
    """Score the deal and lay it open in its result (hands, points, melds, reason), then deal the next one or
    end the game."""
    rules = state.rules
    values = face_weights(rules.card_values, False)
    points = tuple([0 if seat == went_out else _penalty(hand, values) for seat, hand in enumerate(state.hands)])
    scores = list(points)
    if state.cutter_bonus is not None:
        scores[state.cutter_bonus] += rules.cut_bonus
    hands = tuple([tuple(hand) for hand in state.hands])
    state.results.append(
        DealResult(
            state.deal, went_out, tuple(scores), reason, hands, points, tuple(state.melds), state.reshuffles,
            state.cutter_bonus,
        )
    )  # fmt: skip
    state.deal += 1
    state.dealer = state.next_seat(state.dealer)
    state.window, state.window_answers, state.may_i_calls = [], {}, []
    state.call_open = state.fresh = state.floating = False
    state.must_place = state.taken = None
    state.reclaimed = []
    state.down_this_turn = False
    if state.deal < len(rules.deals):
        state.phase = _PHASE_DEAL
        return
    contenders = _leaders(state)
    if len(contenders) > 1 and rules.ties is _REPLAY_FINAL_DEAL and state.replays == 0:
        state.replays += 1
        state.phase = _PHASE_DEAL
        return
    state.winners = _break_tie(state, contenders)
    state.phase = _PHASE_GAME_OVER


def _team_sums(state: GameState, scores: list[int]) -> list[int]:
    """Each seat's score, or its team's sum with partnerships."""
    if state.rules.partnerships:
        return [scores[s] + scores[(s + 2) % 4] for s in range(4)]
    return scores


def _leaders(state: GameState) -> list[int]:
    """Seats with the lowest total after the scheduled deals (teams' sums with partnerships)."""
    scheduled = len(state.rules.deals)
    totals = _team_sums(state, [sum(r.scores[s] for r in state.results[:scheduled]) for s in range(state.seats)])
    best = min(totals)
    return [s for s in range(state.seats) if totals[s] == best]


def _break_tie(state: GameState, contenders: list[int]) -> tuple[int, ...]:
    rules = state.rules
    if len(contenders) == 1 or rules.ties is _SHARE:
        return tuple(contenders)
    decider = state.results[-1] if rules.ties is _REPLAY_FINAL_DEAL else state.results[len(rules.deals) - 1]
    scores = _team_sums(state, list(decider.scores))
    best = min(scores[s] for s in contenders)
    return tuple(s for s in contenders if scores[s] == best)
