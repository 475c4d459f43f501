"""A deal's end is public (issue 24, item 10): when a deal ends every hand is laid on the table to be
counted, so every seat and every spectator sees each seat's remaining cards, their points, the melds the
deal left and why it ended; the record replays to the same; `liverpool play` and `liverpool replay` print it.

000: "When one player is out of cards, the round ends and everyone counts the points of the cards left in
their hands" and "At the end of the round, players count up their points and tell the scorekeeper".
004: "Once a player goes out, the deal ends immediately. Other players count the penalty value of the cards
still in their hand." and "If no player goes out by the time the stock runs out, some groups reshuffle the
discard pile (except the top card) as a new stock and continue; others end the deal and score all unpaid
hands." (RULES.md §1.4 "Going out ends the deal; everyone else scores what is left in hand", §3.21 stock exhausted.)
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from helpers import card, deal, deal_next, go_down, play, play_out_deal
from typer.testing import CliRunner

from liverpool.cli import app
from liverpool.cli.narrate import cards_text
from liverpool.engine import DealEndReason, DealResult, GameRecord, observe, replay
from liverpool.engine.actions import Discard, DrawStock, EndTurn
from liverpool.engine.record import snapshot
from liverpool.engine.rules.parts import StockOut
from liverpool.engine.rules.presets import find_preset
from liverpool.engine.state import GameState, Phase

LIVERPOOL = find_preset("liverpool")
BRITISH = find_preset("british")
NORSK = find_preset("norsk")

runner = CliRunner()


def _every_view(state: GameState) -> list[DealResult]:
    """The last deal's end as each seat and a spectator see it; all the same, and the same in ``to_dict``."""
    seen = []
    for viewer in [None, *range(state.seats)]:
        obs = observe(state, viewer)
        result = obs.results[-1]
        as_data = json.loads(json.dumps(obs.to_dict()))["results"][-1]
        assert as_data["hands"] == [[str(c) for c in h] for h in result.hands]
        assert as_data["points"] == list(result.points)
        assert as_data["reason"] == result.reason.value
        assert as_data["reshuffles"] == result.reshuffles
        assert as_data["melds"] == [
            {
                "owner": tm.owner,
                "kind": tm.meld.kind.value,
                "low": tm.meld.low,
                "cards": [str(c) for c in tm.meld.cards],
            }
            for tm in result.melds
        ]
        seen.append(result)
    assert all(r == seen[0] for r in seen)
    return seen


def _going_out() -> GameState:
    """Seat 1 goes down with two sets of five and has 2C left; seats 0 and 2 hold ten cards each."""
    state = deal(LIVERPOOL, 3, hands=["KS QS JK", "7H 7S 7D 7C 7H#1 8H 8S 8D 8C 8H#1", "4D 4H"], stock_top=["2C"])
    play(state, DrawStock(1))  # the upcard is not for sale in `liverpool` (001a buys discards): no buy window
    return play(state, go_down(1, "set: 7H 7S 7D 7C 7H#1", "set: 8H 8S 8D 8C 8H#1"))


def test_after_going_out_every_viewer_sees_each_hand_its_points_the_melds_and_the_reason() -> None:
    state = _going_out()
    hands = [tuple(h) for h in state.hands]
    table = tuple(state.melds)
    play(state, Discard(1, card("2C")))
    assert state.phase is Phase.DEAL
    result = _every_view(state)[0]
    assert result.reason is DealEndReason.WENT_OUT and result.went_out == 1 and result.reshuffles == 0
    assert result.hands == (hands[0], (), hands[2])
    assert result.points == (sum(LIVERPOOL.value(c) for c in hands[0]), 0, sum(LIVERPOOL.value(c) for c in hands[2]))
    assert result.scores == result.points  # no cut bonus: the scores are the hands' points
    assert result.melds == table and [tm.owner for tm in result.melds] == [1, 1]


def test_before_the_deal_ends_no_other_hand_is_shown() -> None:
    """The other side: until the deal ends nobody sees another seat's hand (nor the deal's end)."""
    state = _going_out()
    for viewer in [None, 0, 1, 2]:
        obs = observe(state, viewer)
        assert obs.results == () and obs.to_dict()["results"] == []
        for other in range(3):
            if other != viewer:
                secret = set(state.hands[other]) - set(state.known[other])
                assert not obs.visible_cards() & secret
    # Once the next deal is dealt, its hands are hidden again; only the ended deal's stay on show.
    play(state, Discard(1, card("2C")))
    deal_next(state)
    assert state.phase is Phase.DRAW
    obs = observe(state, 0)
    assert len(obs.results) == 1 and obs.results[0].deal == 0
    assert obs.hand == tuple(state.hands[0]) and observe(state, None).hand == ()
    assert [s.hand_count for s in obs.seats] == [len(h) for h in state.hands]


def test_a_deal_ended_by_the_stock_says_how_many_times_it_was_washed() -> None:
    """000/004: the stock washed at most 3 times, then the deal ends and all score."""
    state = deal(LIVERPOOL, 3)
    play_out_deal(state)
    result = _every_view(state)[0]
    assert result.reason is DealEndReason.WASHES_USED and result.reshuffles == 3 and result.went_out is None
    assert result.hands == tuple(tuple(h) for h in state.hands)  # (the state keeps them until the next deal)
    assert result.points == tuple(sum(LIVERPOOL.value(c) for c in h) for h in result.hands)
    assert result.melds == ()


def test_a_deal_ended_by_a_stock_that_is_not_washed() -> None:
    """004: "others end the deal and score all unpaid hands"."""
    state = play_out_deal(deal(dataclasses.replace(BRITISH, stock_out=StockOut.END_DEAL), 3))
    result = _every_view(state)[0]
    assert result.reason is DealEndReason.STOCK_OUT and result.reshuffles == 0
    assert result.points == tuple(sum(BRITISH.value(c) for c in h) for h in result.hands)


def test_a_deal_ended_by_a_pile_too_small_to_wash() -> None:
    """002 (discard optional): when every turn ends without a discard the pile cannot make a new stock."""
    state = deal(NORSK, 3)
    while state.deal == 0:
        seat = state.current
        play(state, DrawStock(seat), EndTurn(seat))
    result = _every_view(state)[0]
    assert result.reason is DealEndReason.PILE_TOO_SMALL and result.reshuffles == 0
    assert sum(len(h) for h in result.hands) == len(state.hands[0]) * 3


def test_the_cut_bonus_is_in_the_scores_not_in_the_points() -> None:
    """001a: the cutter who cuts exactly the cards dealt and the upcard scores -50; the hand's points stay."""
    state = play_out_deal(deal(LIVERPOOL, 3, dealer=2, cut=31))
    result = state.results[0]
    assert result.cut_bonus_seat == 0
    assert result.scores == (result.points[0] - 50, *result.points[1:])


def test_the_record_replays_to_the_same_deal_ends() -> None:
    state = _going_out()
    play(state, Discard(1, card("2C")))
    play_out_deal(state)
    again = replay(GameRecord.from_json(GameRecord.of(state).to_json()))
    assert again.results == state.results and snapshot(again) == snapshot(state)
    assert [r.reason for r in again.results] == [DealEndReason.WENT_OUT, DealEndReason.WASHES_USED]


def test_replay_and_play_print_what_each_seat_was_caught_with(tmp_path: Path) -> None:
    state = _going_out()
    play(state, Discard(1, card("2C")))
    path = tmp_path / "game.json"
    path.write_text(GameRecord.of(state, ["Ada", "Bob", "Cy"]).to_json(), encoding="utf-8")
    printed = runner.invoke(app, ["replay", str(path)])
    assert printed.exit_code == 0, printed.output
    result = state.results[0]
    assert "Deal 1: Bob went out." in printed.output
    for seat, name in ((0, "Ada"), (2, "Cy")):
        assert f"{name} caught with {cards_text(result.hands[seat])}: {result.points[seat]}" in printed.output
    assert "Ada caught with K♠ Q♠ JK" in printed.output
    assert "Bob's set 7♥ 7♠ 7♦ 7♣ 7♥" in printed.output

    out = tmp_path / "played.json"
    played = runner.invoke(app, ["watch", "--seed", "3", "--seats", "3", "--quiet", "--record", str(out)])
    assert played.exit_code == 0, played.output
    game = replay(GameRecord.from_json(out.read_text(encoding="utf-8")))
    for result in game.results:
        if result.went_out is None:
            assert f"Deal {result.deal + 1}: nobody went out: the stock " in played.output
        for seat in range(3):
            if seat != result.went_out:
                held = cards_text(result.hands[seat]) if result.hands[seat] else "no cards"
                assert f"seat {seat} caught with {held}: {result.points[seat]}" in played.output
    assert "as many washes as allowed" in played.output
