"""Regression tests for engine bugs found while writing the rules-matrix tests (one test per fix)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from helpers import (
    STARTED,
    card,
    check_started,
    deal,
    deal_next,
    go_down,
    hand,
    play,
    play_out_deal,
    refused,
    stall_until,
    start,
    turn,
)

from liverpool.engine.actions import Buy, Discard, DrawDiscard, DrawStock, GoDown, LayOff, Pass, SwapJoker
from liverpool.engine.errors import CannotBuy, CannotGoDown, MalformedAction
from liverpool.engine.game.legal import legal_actions
from liverpool.engine.melds import Meld
from liverpool.engine.rules.parts import Ties
from liverpool.engine.rules.presets import find_preset
from liverpool.engine.state import GameState, Phase

MAY_I = find_preset("may-i")
LIVERPOOL = find_preset("liverpool")
BRITISH = find_preset("british")
FIVES_A = "2C 3C 4C 5C 6C 7C 8C 9C 2D 3D 4D 5D"
FIVES_B = "2H 3H 4H 5H 6H 7H 8H 9H 2S 3S 4S 5S"
FIVES_C = "2C#1 3C#1 4C#1 5C#1 6C#1 7C#1 8C#1 9C#1 2D#1 3D#1 4D#1 5D#1"
FIVES_D = "2H#1 3H#1 4H#1 5H#1 6H#1 7H#1 8H#1 9H#1 2S#1 3S#1 4S#1 5S#1"
COURT = "KC KD KH KS QC QD QH QS JC JD JH JS"


@pytest.fixture(autouse=True)
def _replayable() -> Iterator[None]:
    STARTED.clear()
    yield
    check_started()


def _stalled_game(state: GameState, hands: tuple[str, ...], worse: dict[int, set[int]], deals: int) -> GameState:
    """Stall ``deals`` deals in which seat s holds ``hands[s]``, one card 5 points worse in the deals ``worse[s]``."""
    for _ in range(deals):
        size = state.deal_rule.hand_size
        dealt = []
        for seat, text in enumerate(hands):
            chosen = text.split()[:size]
            if state.deal in worse.get(seat, set()):
                last = card(chosen[-1])
                chosen[-1] = f"10{last.suit}" + (f"#{last.copy}" if last.copy else "")
            dealt.append(" ".join(chosen))
        play_out_deal(deal_next(state, hands=dealt))
    return state


def test_partnership_tie_is_broken_by_team_scores() -> None:
    """game.py, _break_tie: with partnerships, a tie between teams was broken by single seats' scores in the final
    deal, so one partner (or seats of both teams) could win. RULES.md §3.30 partnerships, ties (004)."""
    rules = dataclasses.replace(BRITISH, partnerships=True)
    state = _stalled_game(start(rules, 4), (FIVES_A, FIVES_B, FIVES_C, FIVES_D), {1: {0}, 2: {6}}, 7)
    totals = state.totals
    assert totals[0] + totals[2] == totals[1] + totals[3], "the teams tie"
    final = state.results[6].scores
    assert final[1] + final[3] < final[0] + final[2] and final[0] == min(final)
    assert state.winners == (1, 3)


def test_replayed_final_deal_keeps_the_final_deal_buy_limit() -> None:
    """checks.py, buy_problem: a replayed final deal (ties = replay_final_deal) took its buy limit from deal 8,
    which is no deal of the ruleset, so may-i's four May I's of the final deal were unlimited."""
    rules = dataclasses.replace(MAY_I, ties=Ties.REPLAY_FINAL_DEAL)
    state = _stalled_game(start(rules, 3), (FIVES_A, FIVES_B, COURT), {}, 7)
    assert not state.is_over and state.deal == 7 and state.is_final_deal
    deal_next(state)
    first = state.current
    second, third = state.next_seat(first), state.next_seat(state.next_seat(first))
    for _ in range(4):
        play(state, DrawStock(first), Discard(first, state.hands[first][-1]), Buy(third), DrawStock(second))
        play(state, Discard(second, state.hands[second][-1]), DrawStock(third), Discard(third, state.hands[third][-1]))
    play(state, DrawStock(first), Discard(first, state.hands[first][-1]))
    err = refused(state, Buy(third), CannotBuy, "you have used all 4 buys of this deal")
    assert err.situation == f"deal 7 replayed, draw phase, seat {second}'s turn"


def test_lay_off_with_a_malformed_end_is_refused() -> None:
    """game.py, _verify: LayOff(end='middle') was taken as 'high', and the game's record then could not be read."""
    state = deal(LIVERPOOL, 3, hands=[None, "7H 7S 7D 4C 5C 6C 7C 2D 9S KH"], stock_top=["8C"], deal_no=1)
    play(state, DrawStock(1), go_down(1, "set: 7H 7S 7D", "run: 4C 5C 6C 7C"))
    refused(state, LayOff(1, card("8C"), 1, "middle"), MalformedAction, "'low' or 'high', not 'middle'")  # type: ignore[arg-type]
    play(state, LayOff(1, card("8C"), 1, "high"))


def test_a_set_takes_its_rank_from_its_first_natural() -> None:
    """melds.py, Meld.of: a set's rank was any of its naturals' ranks (the order of a Python set), so
    'set: 7H 7S 8D' was refused as '7H is not of the set's rank 8'."""
    assert Meld.parse("set: 7H 7S 8D").low == 7
    assert Meld.parse("set: JK 8D 7H").low == 8
    state = deal(LIVERPOOL, 3, hands=[None, "7H 7S 7D 8H 8S 8D 2C 5D 9H KS"], stock_top=["QD"])
    play(state, DrawStock(1))
    refused(state, go_down(1, "set: 7H 7S 8D", "set: 8H 8S 7D"), CannotGoDown, "8D is not of the set's rank 7")


def test_a_joker_swap_is_allowed_when_the_best_going_downs_would_strand_the_taken_card() -> None:
    """checks.py, go_down_options: with a card just taken from the pile, only the two best going-downs were
    tried; when both left just that card (which may not be discarded) a legal swap (or going down) was refused."""
    state = deal(
        MAY_I, 3, hands=[None, "7H 7S 7D 9H 9S JK 2C 6D 10H KS", "4C 4D 4H 4S 4C#1 5C 5D 5H 5S 9D"], stock_top=["QD"]
    )
    play(state, DrawStock(1), go_down(1, "set: 7H 7S 7D", "set: 9H 9S JK"), Discard(1, card("KS")), DrawDiscard(2))
    swap = SwapJoker(2, card("9D"), 1, card("JK"))
    assert swap in legal_actions(state)
    play(state, swap)
    going_down = [a for a in legal_actions(state) if isinstance(a, GoDown)]
    assert going_down and all(len(state.hands[2]) - sum(len(m.cards) for m in a.melds) == 2 for a in going_down)
    refused(state, go_down(2, "set: 4C 4D 4H 4S 4C#1 JK", "set: 5C 5D 5H 5S"), CannotGoDown, "KS, just taken")
    play(state, go_down(2, "set: 4C 4D 4H 4S JK", "set: 5C 5D 5H 5S"), Discard(2, card("4C#1")))
    assert hand(state, 2) == "KS"


def test_a_refused_buy_in_a_window_says_why() -> None:
    """game.py, _verify_buy: a seat left out of a buy window was told only 'you have no open buy offer'."""
    state = deal(BRITISH, 4)
    while state.buys[0] < 3:
        turn(state, buyer=0)
    stall_until(state, lambda s: s.current == 2 and s.phase is Phase.DRAW)
    play(state, DrawStock(2))
    assert state.window == [3]
    refused(state, Buy(0), CannotBuy, "you have used all 3 buys of this deal")
    refused(state, Buy(1), CannotBuy, "you cannot buy your own discard")
    refused(state, Buy(2), CannotBuy, "the player about to draw takes the discard by drawing it")
    play(state, Pass(3))


def test_actions_built_with_wrong_types_are_refused_as_malformed() -> None:
    """One validated entry: Python callers passing ints or strings get MalformedAction, state untouched."""
    import random

    from liverpool.engine.actions import Discard, DrawDiscard, GoDown
    from liverpool.engine.errors import MalformedAction
    from liverpool.engine.game.core import apply, new_game
    from liverpool.engine.play import chance_action
    from liverpool.engine.record import snapshot
    from liverpool.engine.rules.presets import find_preset

    state = new_game(find_preset("liverpool"), 4)
    apply(state, chance_action(state, random.Random(3)))
    before = snapshot(state)
    for action in (
        Discard(1, int(state.hands[1][0])),  # type: ignore[arg-type]
        GoDown(1, ("set: 7H 7S 7D",)),  # type: ignore[arg-type]
        DrawDiscard(1, "2"),  # type: ignore[arg-type]
    ):
        with pytest.raises(MalformedAction):
            apply(state, action)
        assert snapshot(state) == before
