"""Setting up a position (issue 24, item 12): a validated deal in play from chosen cards, scores and seats.

Issue 24 §12: "A public, validated way to build a deal from chosen hands, stock order, discard pile, table
melds and scores (every card of the shoe exactly once, copies per deck checked, clear errors otherwise) ...
the record format can store such a starting position and `liverpool replay` accepts it. Documented with an
example in `docs/record-format.md`."
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from liverpool.bots.registry import make_bot
from liverpool.cli import app
from liverpool.engine import (
    Call,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    GoDown,
    LayOff,
    Meld,
    Pass,
    Phase,
    Position,
    PositionError,
    apply,
    find_preset,
    legal_actions,
    new_game,
    new_position,
    observe,
    position_of,
)
from liverpool.engine.game.verify import shoe
from liverpool.engine.play import step
from liverpool.engine.record import GameRecord, RecordError, replay, snapshot
from liverpool.engine.state import GameState

LIVERPOOL = find_preset("liverpool")
DOC = Path(__file__).resolve().parents[2] / "docs" / "record-format.md"
runner = CliRunner()


def _deal_two(**changes: Any) -> Position:
    """Deal 2 of `liverpool` for three seats: seat 0 is down; seat 1 can take the 6C and go down."""
    fields: dict[str, Any] = {
        "hands": ["8H", "9S 9D 9H 3C 4C 5C 2S KH", "2D 5S 7S JS JD QS AC 10D"],
        "discard_pile": "JH 6C",
        "melds": [(0, "set: 8C 8D 8S"), (0, "run: 4H 5H 6H 7H")],
        "deal": 1,
        "dealer": 0,
        "scores": [[0, 45, 80]],
    }
    fields.update(changes)
    return Position.of(**fields).with_rest_in_stock(LIVERPOOL)


def _c(text: str) -> Card:
    return Card.parse(text)


def _every_card_once(state: GameState) -> None:
    assert Counter(state.all_cards()) == Counter(shoe(state))


# -- valid positions ------------------------------------------------------------------------------


def test_a_position_is_a_normal_state_at_the_turn_it_names() -> None:
    position = _deal_two()
    state = new_position(LIVERPOOL, position)
    assert state.phase is Phase.DRAW and state.deal == 1 and state.dealer == 0 and state.current == 1
    assert state.first_dealer == 2  # seat 2 dealt deal 1, the deal passed left to seat 0
    assert state.down == [True, False, False]
    assert state.stock[-1] == position.stock[0]  # the stock's top card is drawn first
    assert state.discard_pile[-1] == _c("6C") and state.fresh and state.discarder == 0
    assert state.totals == (0, 45, 80) and len(state.results) == 1
    assert legal_actions(state) == [DrawStock(1), DrawDiscard(1)]
    _every_card_once(state)
    seen = observe(state, 1)
    assert seen.hand == position.hands[1] and seen.seats[2].hand_count == 8 and seen.totals == (0, 45, 80)
    assert observe(state, None).hand == ()


def test_play_on_from_a_position_to_the_end_of_its_deal() -> None:
    state = new_position(LIVERPOOL, _deal_two())
    apply(state, DrawDiscard(1))
    apply(state, GoDown(1, (Meld.parse("set: 9S 9D 9H"), Meld.parse("run: 3C 4C 5C 6C"))))
    apply(state, Discard(1, _c("KH")))
    apply(state, DrawStock(2))
    assert state.phase is Phase.BUY  # seat 0 may buy the KH: the buy window of `liverpool` opens
    apply(state, Pass(0))
    apply(state, Discard(2, state.hands[2][-1]))
    apply(state, DrawStock(0))
    apply(state, Pass(1))
    apply(state, LayOff(0, _c("8H"), 1, "high"))
    apply(state, Discard(0, state.hands[0][0]))
    assert state.phase is Phase.DEAL and state.deal == 2 and state.dealer == 1
    assert state.results[-1].went_out == 0 and state.results[-1].scores[0] == 0
    assert state.totals[0] == 0 and state.totals[1] == 45 + 5  # Bob is caught with the 2S


def test_bots_play_from_a_position_into_the_next_deals_and_to_the_end() -> None:
    # From the last deal of `liverpool`, with earlier scores: the game ends and its winners count them.
    rules = LIVERPOOL
    last = len(rules.deals) - 1
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C 10C JC", "2D 3D 4D 5D 6D 7D 8D 9D 10D JD", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH"]
    earlier = [[10 * d, 0, 5] for d in range(last)]
    position = Position.of(hands=hands, discard_pile="KS", deal=last, dealer=2, scores=earlier).with_rest_in_stock(
        rules
    )
    state = new_position(rules, position)
    bots = [make_bot("easy")] * 3
    rng = random.Random(3)
    while not state.is_over:
        step(state, bots, rng)
        if state.phase is not Phase.DEAL:
            _every_card_once(state)
    assert [r.scores for r in state.results[:last]] == [tuple(s) for s in earlier]
    assert state.totals == tuple(sum(r.scores[s] for r in state.results) for s in range(3))

    # From deal 1 of 7: the deal is played out, the next deals are shuffled and dealt as usual.
    state = new_position(rules, _deal_two())
    while state.deal < 3:
        step(state, bots, rng)
    assert state.results[0].scores == (0, 45, 80) and len(state.results) == 3
    assert state.dealer == 2  # dealt by seat 0, then seat 1; seat 2 deals deal 4


def test_text_and_values_give_the_same_position() -> None:
    by_text = _deal_two()
    by_values = Position.of(
        hands=[by_text.hands[0], list(by_text.hands[1]), by_text.hands[2]],
        stock=by_text.stock,
        discard_pile=(_c("JH"), _c("6C")),
        melds=list(by_text.melds),
        deal=1,
        scores=((0, 45, 80),),
    )
    assert by_values == by_text
    assert Position.from_dict(json.loads(json.dumps(by_text.to_dict()))) == by_text


def test_the_current_seat_buys_and_reshuffles_are_kept() -> None:
    british = find_preset("british")
    position = Position.of(
        hands=["2C", "3C", "4C", "5C"], discard_pile="9D", current=3, buys=[3, 0, 1, 2], reshuffles=1
    )
    state = new_position(british, position.with_rest_in_stock(british))
    assert state.current == 3 and state.discarder == 2 and state.buys == [3, 0, 1, 2] and state.reshuffles == 1
    apply(state, DrawStock(3))
    assert state.phase is Phase.BUY and state.window == [1]  # seat 0 has used its 3 buys; 2 discarded


def test_the_upcard_and_another_discarder() -> None:
    british = find_preset("british")
    upcard = Position.of(hands=["2C", "3C", "4C"], discard_pile="9D", upcard=True).with_rest_in_stock(british)
    state = new_position(british, upcard)
    assert state.fresh and state.discarder is None and state.deal == 0 and state.first_dealer == 0
    apply(state, DrawStock(1))
    assert state.window == [2, 0]  # `british` lets everyone but the next player buy the upcard, the dealer too
    upcard = Position.of(hands=["2C", "3C", "4C"], discard_pile="9D", upcard=True).with_rest_in_stock(LIVERPOOL)
    state = new_position(LIVERPOOL, upcard)
    apply(state, DrawStock(1))
    assert state.phase is Phase.PLAY and state.window == []  # `liverpool` buys discards only, not the upcard
    called = _deal_two(discarder=1, current=2, hands=["8H", "9S 9D 9H 3C 4C 5C 2S KH", "2D 5S 7S JS JD QS AC 10D"])
    state = new_position(LIVERPOOL, called)
    assert state.discarder == 1 and legal_actions(state, 1) == []  # one's own discard is not for sale


def test_position_of_a_played_state_gives_it_back() -> None:
    # A bug report: the position at the start of some turn of a seeded game, set up again.
    state = new_position(LIVERPOOL, _deal_two())
    bots = [make_bot("easy")] * 3
    rng = random.Random(11)
    taken, upcards = 0, 0
    while state.deal < 4:
        if state.phase is Phase.DRAW and not state.may_i_calls:
            position = position_of(state)
            again = new_position(LIVERPOOL, position)
            for name in (
                "deal",
                "dealer",
                "current",
                "hands",
                "stock",
                "discard_pile",
                "melds",
                "down",
                "buys",
                "fresh",
                "discarder",
                "call_open",
                "reshuffles",
            ):
                assert getattr(again, name) == getattr(state, name), name
            assert legal_actions(again) == legal_actions(state) and again.totals == state.totals
            taken += 1
            upcards += position.upcard
        step(state, bots, rng)
    assert taken > 30 and upcards == 2  # the first turns of deals 3 and 4 start from their upcards
    with pytest.raises(ValueError, match="a position starts a turn before anyone acts in it"):
        position_of(new_game(LIVERPOOL, 3))


def test_position_of_after_a_liverpool_call() -> None:
    # `liverpool` (001a): a player who is down may call a playable discard and shed a card onto the pile.
    both_down = _deal_two(
        hands=["KC QD", "9H 3C 4C 5C 2S KH", "7S 5D 8H"],
        melds=[(0, "set: 8C 8D 8S"), (0, "run: 4H 5H 6H 7H"), (2, "set: 9S 9D 9C"), (2, "run: 3S 4S 5S 6S")],
        discard_pile="JH 8H#1",
    )
    for shed, fits in (("5D", False), ("7S", True)):
        state = new_position(LIVERPOOL, both_down)
        assert state.call_open  # 8H#1 fits seat 0's run of hearts
        apply(state, Call(2, _c(shed)))
        assert state.phase is Phase.DRAW and state.discarder == 2 and not state.call_open
        if fits:  # a position's top discard could be called again, this one may not
            with pytest.raises(
                ValueError, match="a position cannot say that the top discard may not be bought or called"
            ):
                position_of(state)
            continue
        position = position_of(state)
        assert position.discarder == 2 and position.discard_pile[-1] == _c(shed)
        assert legal_actions(new_position(LIVERPOOL, position)) == legal_actions(state)


# -- refusals -------------------------------------------------------------------------------------


def _refused(position: Position, field: str, message: str, rules: Any = LIVERPOOL) -> None:
    before = dataclasses.replace(position)
    with pytest.raises(PositionError) as caught:
        new_position(rules, position)
    assert caught.value.field == field
    assert message in str(caught.value), str(caught.value)
    assert position == before


def _swap(position: Position, field: str, index: int, card: str) -> Position:
    """The position with the card at ``index`` of a hand (``hands[s]``) or the stock replaced."""
    if field == "stock":
        stock = list(position.stock)
        stock[index] = _c(card)
        return dataclasses.replace(position, stock=tuple(stock))
    seat = int(field[6:-1])
    hands = [list(h) for h in position.hands]
    hands[seat][index] = _c(card)
    return dataclasses.replace(position, hands=tuple(tuple(h) for h in hands))


def test_a_face_more_often_than_the_shoe_holds_it() -> None:
    position = Position.of(hands=["7H 7H#1 7H#2", "2C", "3C"], discard_pile="AS")
    _refused(position, "hands[0]", "seat 0's hand: 7♥ appears 3 times but the shoe has 2")
    spread = _deal_two(hands=["8H", "9S 9D 9H 3C 4C 5C 2S KH", "2D 5S 7S JS JD QS AC 10D 9S#1 9S#2"])
    _refused(spread, "hands[2]", "seat 2's hand: 9♠ appears 3 times but the shoe has 2")
    jokers = Position.of(hands=["JK JK#1 JK#2 JK#3 JK#4", "2C", "3C"], discard_pile="AS")
    _refused(jokers, "hands[0]", "seat 0's hand: JK appears 5 times but the shoe has 4")


def test_a_copy_the_shoe_does_not_have() -> None:
    position = _deal_two()
    where = position.stock.index(_c("7H#1"))
    _refused(
        _swap(position, "stock", where, "7H#2"),
        "stock",
        "the stock: 7H#2 is not a card of this shoe, which has 2 decks (copies 7H to 7H#1)",
    )


def test_a_card_twice() -> None:
    position = _deal_two()
    where = position.stock.index(_c("2D#1"))
    _refused(_swap(position, "stock", where, "2D"), "stock", "the stock: 2D is also in seat 2's hand")


def test_cards_and_melds_that_are_not_values_of_the_engine() -> None:
    position = _deal_two()
    _refused(
        dataclasses.replace(position, discard_pile=(_c("JH"), 6)), "discard_pile", "the discard pile: 6 is not a Card"
    )
    melds = (position.melds[0], ("run", "4H 5H 6H 7H"))
    _refused(
        dataclasses.replace(position, melds=melds),
        "melds[1]",
        "meld 1 is ('run', '4H 5H 6H 7H'), not TableMeld(owner, Meld)",
    )  # type: ignore[arg-type]


def test_a_card_missing() -> None:
    position = Position.of(hands=["2C", "3C", "4C"], stock="5C 6C", discard_pile="AS")
    _refused(position, "stock", "the position leaves out 102 card(s) of the shoe: AC 7C 8C")


def test_an_invalid_meld_and_its_owner() -> None:
    _refused(_deal_two(melds=[(0, "set: 8C 8D 9C"), (0, "run: 4H 5H 6H 7H")]), "melds[0]", "meld 0 (set: 8C 8D 9C): ")
    _refused(
        _deal_two(melds=[(0, "set: 8C 8D 8S"), (0, "run: 4H 5H 6D 7H")]), "melds[1]", "meld 1 (run: 4H 5H 6D 7H): "
    )
    _refused(
        _deal_two(melds=[(0, "set: 8C 8D 8S"), (3, "run: 4H 5H 6H 7H")]),
        "melds[1]",
        "its owner must be a seat 0..2, not 3",
    )


def test_melds_that_are_not_the_owners_contract() -> None:
    # Deal 2 asks for a set and a run: one set alone is no going-down.
    _refused(
        _deal_two(
            melds=[(0, "set: 8C 8D 8S")],
            hands=["8H 4H 5H 6H 7H", "9S 9D 9H 3C 4C 5C 2S KH", "2D 5S 7S JS JD QS AC 10D"],
        ),
        "melds",
        "seat 0's melds (set of 3) are not deal 2's contract (set 3, run 4)",
    )


def test_hands_and_stock_that_no_deal_in_play_has() -> None:
    empty = _deal_two(hands=["", "9S 9D 9H 3C 4C 5C 2S KH", "2D 5S 7S JS JD QS AC 10D 8H"], current=2)
    state = new_position(LIVERPOOL, empty)  # seat 0 is down and floats (`liverpool`: empty_hand = floats)
    assert state.hands[0] == [] and state.discarder == 1
    _refused(
        dataclasses.replace(empty, current=1),
        "hands[0]",
        "seat 0's hand is empty, but a seat that discards its last card has gone out",
    )
    not_down = _deal_two(hands=["8H", "", "9S 9D 9H 3C 4C 5C 2S KH 2D 5S 7S JS JD QS AC 10D"])
    _refused(not_down, "hands[1]", "seat 1's hand is empty: only a seat that is down may float")
    whole = _deal_two()
    no_stock = dataclasses.replace(whole, stock=(), hands=(*whole.hands[:2], whole.hands[2] + whole.stock))
    _refused(no_stock, "stock", "the stock is empty")


def test_an_upcard_or_discarder_that_cannot_be() -> None:
    _refused(_deal_two(upcard=True), "upcard", "the upcard lies alone on the pile at a deal's first turn")
    norsk = find_preset("norsk")  # turns no upcard: the first player draws from the stock
    lone = Position.of(hands=["2C", "3C", "4C"], discard_pile="9D", upcard=True).with_rest_in_stock(norsk)
    _refused(lone, "upcard", "in rules that turn one (norsk: upcard = false; the pile holds 1)", norsk)
    _refused(_deal_two(discarder=3), "discarder", "the discarder must be a seat 0..2, not 3")
    no_pile = _deal_two(
        discard_pile="", hands=["8H", "9S 9D 9H 3C 4C 5C 2S KH", "2D 5S 7S JS JD QS AC 10D JH 6C"], discarder=0
    )
    _refused(no_pile, "discarder", "the discard pile is empty, so nobody has just discarded")


def test_deal_seats_turn_scores_buys_out_of_range() -> None:
    _refused(_deal_two(deal=7, scores=[[0, 0, 0]] * 7), "deal", "liverpool has deals 0..6 (0-based), not 7")
    _refused(_deal_two(dealer=3), "dealer", "the dealer must be a seat 0..2, not 3")
    _refused(_deal_two(current=5), "current", "the seat to play must be a seat 0..2, not 5")
    _refused(_deal_two(scores=[]), "scores", "deal 2 follows 1 deal(s), so scores needs 1 list(s) of points, not 0")
    _refused(_deal_two(scores=[[0, 45]]), "scores[0]", "deal 1's scores need 3 numbers, one per seat, not 2")
    _refused(_deal_two(buys=[0, 0]), "buys", "buys needs 3 whole numbers, one per seat, not [0, 0]")
    _refused(_deal_two(scores=[[0, 4.5, 80]]), "scores[0]", "deal 1's scores must be whole numbers, not [0, 4.5, 80]")
    _refused(_deal_two(buys=[0, -1, 0]), "buys", "seat 1 has used -1 buys")
    _refused(_deal_two(reshuffles=4), "reshuffles", "the stock is washed at most 3 times a deal, not 4")
    british = find_preset("british")
    over = Position.of(hands=["2C", "3C", "4C", "5C"], discard_pile="9D", buys=[4, 0, 0, 0]).with_rest_in_stock(british)
    _refused(over, "buys", "seat 0 has used 4 buys, not 0..3", british)
    two = Position.of(hands=["2C", "3C"], discard_pile="9D")
    _refused(two, "hands", "2 hands, but british is for 3 to 8 players", british)
    with pytest.raises(PositionError, match="2 hands, but british is for 3 to 8 players"):
        two.with_rest_in_stock(british)


def test_the_json_form_names_the_field_it_cannot_read() -> None:
    good = _deal_two().to_dict()
    for change, field, message in [
        ({"hands": "2C"}, "hands", "expected a list of hands"),
        ({"hands": ["8H", "9S 9X", ""]}, "hands[1]", "'9X' is not a card"),
        ({"melds": [{"owner": 0, "kind": "pair", "cards": "8C 8D"}]}, "melds[0]", "kind is 'set' or 'run', not 'pair'"),
        ({"melds": [{"owner": 0, "cards": "8C 8D 8S"}]}, "melds[0]", "a meld is {owner, kind, cards, low}"),
        ({"deal": "2"}, "deal", "expected a whole number, got '2'"),
        ({"scores": [[0, "x", 1]]}, "scores", "expected a list of each earlier deal's points"),
        ({"seat": 1}, "seat", "a position has no field 'seat'"),
    ]:
        with pytest.raises(PositionError) as caught:
            Position.from_dict({**good, **change})
        assert caught.value.field == field and message in str(caught.value), (change, str(caught.value))


# -- records and `liverpool replay` ---------------------------------------------------------------


def test_a_record_that_starts_from_a_position_round_trips() -> None:
    position = _deal_two()
    state = new_position(LIVERPOOL, position)
    bots = [make_bot("easy")] * 3
    rng = random.Random(7)
    while state.deal < 2 or state.phase is Phase.DEAL:
        step(state, bots, rng)
    record = GameRecord.of(state, ["Ann", "Bob", "Cy"], {"puzzle": 1}, position=position)
    text = record.to_json()
    again = GameRecord.from_json(text)
    assert again.position == position and again.to_json() == text
    assert snapshot(replay(again)) == snapshot(state)
    assert '"position":{"deal":1,' in text.splitlines()[0]
    plain = GameRecord.of(new_position(LIVERPOOL, position))
    assert "position" not in plain.to_dict()  # records of ordinary games are as before


def test_a_record_whose_position_is_wrong_is_refused_with_its_location(tmp_path: Path) -> None:
    data = GameRecord.of(new_position(LIVERPOOL, _deal_two()), position=_deal_two()).to_dict()
    data["position"]["hands"][2] += " 7H#2"
    with pytest.raises(RecordError) as caught:
        replay(GameRecord.from_dict(data))
    assert str(caught.value).startswith(
        "$.position.stock: the stock: 7♥ appears 3 times but the shoe has 2 (seat 2's hand, meld 1 (run: 4H 5H 6H 7H), the stock)"
    )
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "7♥ appears 3 times but the shoe has 2" in result.output
    data["first_dealer"] = 0
    with pytest.raises(
        RecordError, match=r"^\$\.first_dealer: deal 2 dealt by seat 0 makes seat 2 the first dealer, not 0"
    ):
        GameRecord.from_dict(data)
    data["first_dealer"] = 1
    data["seats"] = data["seats"][:2]
    with pytest.raises(RecordError, match=r"^\$\.position\.hands: 3 hands for 2 seats"):
        GameRecord.from_dict(data)


def _doc_example() -> str:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Starting from a position") :]
    found = re.search(r"```json\n(.*?)\n```", section, re.S)
    assert found is not None
    return found.group(1)


def test_the_documented_example_replays(tmp_path: Path) -> None:
    record = GameRecord.from_json(_doc_example())
    assert record.position is not None and record.rules == LIVERPOOL
    state = replay(record)
    assert state.phase is Phase.DEAL and state.deal == 2
    assert [r.scores for r in state.results] == [(0, 45, 80), (0, 5, 70)] and state.totals == (0, 50, 150)
    path = tmp_path / "example.json"
    path.write_text(_doc_example(), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Deal 1 (before the position): Points: Ann: 0, Bob: 45, Cy: 80" in result.output
    assert "Deal 2: Ann went out. Points: Ann: 0, Bob: 5, Cy: 70" in result.output
    assert "the record stops before the end: deal 3, deal phase" in result.output


def test_a_may_i_position_plays_on_and_announces_after_the_discard() -> None:
    """RULES.md §3.27 announcements (000): "After discarding, if you have 3 or less cards in your hand, you must
    announce how many cards you have." A position of `may-i` plays on with the announcing of its ruleset."""
    may_i = find_preset("may-i")
    position = Position.of(hands=["2C 3C 9S", "5D 6D 7D 8D 9D", "2H 3H 4H 5H 6H"], discard_pile="KD", current=0)
    state = new_position(may_i, position.with_rest_in_stock(may_i))
    apply(state, DrawStock(0))
    apply(state, Discard(0, _c("9S")))
    seat = observe(state, 1).seats[0]
    assert seat.hand_count == 3 and seat.announced


def test_a_floater_position_is_floating() -> None:
    """RULES.md §3.19 floating (001a): a seat set to play with no cards is floating: it may not go out by
    discarding a drawn card that could be laid off."""
    position = _deal_two(discarder=2, current=0, hands=["", "9S 9D 9H 3C 4C 5C 2S KH 8H", "2D 5S 7S JS JD QS AC 10D"])
    state = new_position(LIVERPOOL, position)
    assert state.floating
