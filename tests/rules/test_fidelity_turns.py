"""Issue 24, items 1, 5, 6 and 7: floating, a contract that goes out, the upcard and announcing.

Each test quotes the sentence of the text it enforces and tests the other side too (what must stay legal).
"""

from __future__ import annotations

import dataclasses

import pytest
from helpers import card, deal, go_down, hand, pass_window, play, refused

from liverpool.bots.rollout import quick_options
from liverpool.cli.rulesfile import dump_ruleset
from liverpool.engine.actions import Buy, Discard, DrawDiscard, DrawStock, EndTurn, LayOff
from liverpool.engine.errors import CannotBuy, CannotDiscard, CannotDraw
from liverpool.engine.game.legal import legal_actions
from liverpool.engine.observe import observe
from liverpool.engine.record import GameRecord
from liverpool.engine.rules.parts import DealOut, DealRule, MeldRule, RulesetError
from liverpool.engine.rules.presets import BRITISH_9, LIVERPOOL, MAY_I, NORSK, PRESETS
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import GameState, Phase

# -- 1. floating (001a; 002) -------------------------------------------------------------------------

FLOATER = "7H 7S 7D 7C 7H#1 8H 8S 8D 8C 8H#1"


def _floating(rules: Ruleset, drawn: str) -> GameState:
    """Seat 1 goes down with its whole hand, lays off the card it drew and ends its turn with no cards
    (floating); seats 2 and 0 draw and discard; seat 1 then draws ``drawn`` from the stock."""
    state = deal(rules, 3, hands=[None, FLOATER], stock_top=["7D#1", "2C", "3D", drawn])
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "set: 7H 7S 7D 7C 7H#1", "set: 8H 8S 8D 8C 8H#1"), LayOff(1, card("7D#1"), 0, None))
    assert state.hands[1] == [] and legal_actions(state) == [EndTurn(1)]
    play(state, EndTurn(1), DrawStock(2))
    pass_window(state)
    play(state, Discard(2, card("2C")), DrawStock(0))
    pass_window(state)
    play(state, Discard(0, card("3D")), DrawStock(1))
    pass_window(state)
    assert hand(state, 1) == drawn and state.phase is Phase.PLAY
    return state


def test_a_floater_does_not_go_out_with_a_playable_card_liverpool() -> None:
    """RULES.md §3.19 floating (001a): "A player is floating if he exhausts his cards and is not able to discard
    ... a floater must draw an unplayable card from the deck (down-pile) in order to go out." The card drawn
    fits the set of sevens: it is laid off, and the player floats on."""
    state = _floating(LIVERPOOL, "7S#1")
    refused(state, Discard(1, card("7S#1")), CannotDiscard, "unplayable card")
    listed = legal_actions(state)
    assert not any(isinstance(a, Discard) for a in listed) and LayOff(1, card("7S#1"), 0, None) in listed
    assert not any(isinstance(a, Discard) for a in quick_options(state, 1)), "the bots' rollouts stay legal"
    play(state, LayOff(1, card("7S#1"), 0, None), EndTurn(1))
    assert state.deal == 0 and state.current == 2 and not state.results


def test_a_floater_goes_out_with_an_unplayable_card_liverpool() -> None:
    """RULES.md §3.19 floating (001a), the other side: "a floater must draw an unplayable card from the deck
    (down-pile) in order to go out" -- a king fits no meld on the table, and discarding it goes out."""
    state = _floating(LIVERPOOL, "KC")
    assert Discard(1, card("KC")) in legal_actions(state)
    play(state, Discard(1, card("KC")))
    assert state.results[-1].went_out == 1 and state.results[-1].scores[1] == 0


def test_a_floater_goes_out_with_any_card_norsk() -> None:
    """RULES.md §3.19 floating (002): "Regelen er altså at du må kaste ditt siste kort i kastehaugen. Dersom du
    kvitter deg med alle kortene i løpet av turen din, og ikke har noe kort å kaste til slutt, så vil du ikke
    avslutte omgangen" -- 002 asks only for a last discard, so a playable card drawn may be discarded."""
    assert not NORSK.float_out_unplayable
    state = _floating(NORSK, "7S#1")
    play(state, Discard(1, card("7S#1")))
    assert state.results[-1].went_out == 1


def test_a_floater_may_not_take_the_discard_to_go_out() -> None:
    """RULES.md §3.19 floating (001a): "a floater must draw ... from the deck (down-pile)": with the rule on, an
    empty hand draws from the stock even where the card taken from the pile could be discarded again."""
    rules = dataclasses.replace(LIVERPOOL, no_discard_taken_card=False)
    state = deal(rules, 3, hands=[None, FLOATER], stock_top=["7D#1", "2C"])
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "set: 7H 7S 7D 7C 7H#1", "set: 8H 8S 8D 8C 8H#1"))
    play(state, LayOff(1, card("7D#1"), 0, None), EndTurn(1), DrawStock(2), Discard(2, card("2C")), DrawStock(0))
    pass_window(state)
    play(state, Discard(0, state.hands[0][0]))
    assert state.current == 1 and not state.hands[1]
    assert DrawDiscard(1) not in legal_actions(state)
    refused(state, DrawDiscard(1), CannotDraw, "empty hand")


# -- 5. a contract that goes out (004) ---------------------------------------------------------------


def test_the_run_of_seven_goes_out_in_the_nine_deal_match_british_9() -> None:
    """RULES.md §3.23 going out on the contract (004): deal 7, "is the only contract with no extra cards to
    discard: you go out at the moment you complete the 7-card sequence" -- also when deals 8 and 9 follow."""
    state = deal(BRITISH_9, 3, hands=[None, "2H 3H 4H 5H 6H 7H KS KD QC 9S 4C JD"], stock_top=["8H"], deal_no=6)
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "run: 2H 3H 4H 5H 6H 7H 8H"))
    result = state.results[-1]
    assert result.deal == 6 and result.went_out == 1 and result.scores[1] == 0
    assert state.deal == 7 and state.phase is Phase.DEAL and not state.is_over


def test_the_deal_after_the_run_of_seven_is_played_normally_british_9() -> None:
    """RULES.md §2.8 extra lists (004): deal 8 = 3 runs of 4, an ordinary contract: going down does not go out."""
    state = deal(BRITISH_9, 3, hands=[None, "2H 3H 4H 5H 2S 3S 4S 5S 2D 3D 4D KC"], stock_top=["5D"], deal_no=7)
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "run: 2H 3H 4H 5H", "run: 2S 3S 4S 5S", "run: 2D 3D 4D 5D"))
    assert state.phase is Phase.PLAY and hand(state, 1) == "KC" and not state.results[7:]


def test_a_deal_out_is_read_and_written_on_any_deal() -> None:
    """RULES.md §3.23 going out on the contract: "a property of that deal's contract, wherever it stands in the
    match" -- a rules file sets it per deal; final_deal keeps its meaning for the last deal of old files."""
    data = {
        "base": "liverpool",
        "deals": [
            {"contract": "run 7", "hand_size": 10, "out": "goes_out"},
            {"contract": "set 3, set 3", "hand_size": 10},
        ],
    }
    rules = Ruleset.from_dict(data)
    assert rules.deals[0] == DealRule((MeldRule.parse("run 7"),), 10, DealOut.GOES_OUT)
    assert [rules.deal_out(d) for d in (0, 1)] == [DealOut.GOES_OUT, DealOut.WHOLE_HAND]  # (liverpool's final_deal)
    written = rules.to_dict()["deals"]
    assert Ruleset.from_dict(rules.to_dict()) == rules
    assert written == [
        {"contract": ["run 7"], "hand_size": 10, "out": "goes_out"},
        {"contract": ["set 3", "set 3"], "hand_size": 10},
    ]
    toml = dump_ruleset(BRITISH_9, "toml")
    assert '{ contract = "run 7", hand_size = 12, out = "goes_out" }' in toml and Ruleset.from_toml(toml) == BRITISH_9
    old = Ruleset.from_dict({"base": "british", "final_deal": "contract_goes_out", "deals": data["deals"][1:]})
    assert old.deal_out(0) is DealOut.GOES_OUT
    with pytest.raises(RulesetError, match=r"deals\[0\]\.out"):
        Ruleset.from_dict({"deals": [{"contract": "run 7", "hand_size": 10, "out": "soon"}]})
    # 000/001a's "3 runs and out" stays whole-hand
    assert MAY_I.deal_out(6) is LIVERPOOL.deal_out(6) is DealOut.WHOLE_HAND


# -- 6. the upcard -----------------------------------------------------------------------------------

UPCARD_BUYABLE = {
    "may-i": False,
    "liverpool": False,
    "contract": False,
    "british": True,
    "british-9": True,
    "british-fixed": True,
}


@pytest.mark.parametrize("name", sorted(UPCARD_BUYABLE))
def test_the_upcard_is_bought_only_where_the_text_sells_it(name: str) -> None:
    """RULES.md §3.22 what may be bought: "When another player discards a card that you want" (000); "After each
    player has finished their turn by discarding" (001a); "the current player declines the top discard"
    (004, whose upcard starts the discard pile). 001b is silent and follows 001a."""
    rules = PRESETS[name]
    assert rules.upcard_buyable is UPCARD_BUYABLE[name]
    state = deal(rules, 3, upcard="KD", stock_top=["2C", "3D"])
    if UPCARD_BUYABLE[name]:
        play(state, DrawStock(1), Buy(2))
        assert state.phase is Phase.PLAY and card("KD") in state.hands[2]
        return
    assert Buy(0) not in legal_actions(state) and Buy(2) not in legal_actions(state)
    if name == "may-i":
        refused(state, Buy(0), CannotBuy, "upcard")
    play(state, DrawStock(1))
    assert state.phase is Phase.PLAY and card("KD") in state.discard_pile
    # the other side: the first real discard is for sale
    play(state, Discard(1, card("2C")))
    if name == "may-i":
        play(state, Buy(0), DrawStock(2))
    else:
        play(state, DrawStock(2), Buy(0))
    assert card("2C") in state.hands[0]


def test_records_from_before_the_option_replay_with_the_upcard_bought() -> None:
    """A record's ruleset written before upcard_buyable existed played with the upcard for sale: it replays."""
    state = deal(MAY_I, 3, upcard="KD", stock_top=["2C", "3D"])
    data = GameRecord.of(state).to_dict()
    del data["ruleset"]["upcard_buyable"], data["ruleset"]["float_out_unplayable"]
    assert GameRecord.from_dict(data).rules.upcard_buyable


# -- 7. announcing (000; 001a's knock) --------------------------------------------------------------


def test_the_count_is_announced_after_the_discard_may_i() -> None:
    """RULES.md §3.27 announcements (000): "After discarding, if you have 3 or less cards in your hand, you must
    announce how many cards you have." Three cards mid-turn are not announced; two after the discard are,
    and the announcement stands while the seat holds them."""
    state = deal(MAY_I, 3, hands=[None, "7H 7S 7D 7C 8H 8S 8D 8C 2C 5D"], stock_top=["9H", "3D", "4S"])
    play(state, DrawStock(1), go_down(1, "set: 7H 7S 7D 7C", "set: 8H 8S 8D 8C"))
    assert len(state.hands[1]) == 3 and not observe(state, 0).seats[1].announced
    play(state, Discard(1, card("5D")))
    assert observe(state, 0).seats[1].announced and observe(state, None).to_dict()["seats"][1]["announced"]
    play(state, DrawStock(2), Discard(2, card("3D")), DrawStock(0), Discard(0, card("4S")))
    assert observe(state, 2).seats[1].announced
    play(state, DrawStock(1))
    assert len(state.hands[1]) == 3 and not observe(state, 0).seats[1].announced, "mid-turn again"


def test_the_knock_at_one_card_shows_at_once_liverpool() -> None:
    """RULES.md §3.27 announcements (001a), the other side: "It is customary to knock on the table when there is
    only one card left in your hand" -- not tied to a discard: one card left mid-turn is knocked at once."""
    assert not LIVERPOOL.announce_after_discard
    state = deal(LIVERPOOL, 3, hands=[None, "7H 7S 7D 7C 8H 8S 8D 8C 8H#1 5D"], stock_top=["7H#1"])
    play(state, DrawStock(1), go_down(1, "set: 7H 7S 7D 7C", "set: 8H 8S 8D 8C"))
    play(state, LayOff(1, card("8H#1"), 1, None), LayOff(1, card("7H#1"), 0, None))
    assert hand(state, 1) == "5D" and state.phase is Phase.PLAY and observe(state, 0).seats[1].announced
