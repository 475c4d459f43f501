"""Issue 24, items 2-4: when a joker taken from the table by a swap must be placed again, and where.

RULES.md §3.8 joker swap: "while laying off, from a *run*, joker must be placed elsewhere the same turn (001a, 002:
only after you are down); during meld or lay-off phase, reclaimed joker used at once in your own meld (004)".
Each rule is tested from both sides: what it refuses, and what must stay legal. Situations are dealt exactly with
``helpers.deal`` (3 seats, dealer 0: seat 1 plays first, then 2, then 0) and driven through ``apply``; every
game built here is checked to keep its cards and to replay from its record (``check_started``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from helpers import british_stranded, card, check_started, deal, go_down, pass_window, play, refused, turn

from liverpool.engine.actions import Action, Discard, DrawDiscard, DrawStock, EndTurn, GoDown, LayOff, SwapJoker
from liverpool.engine.errors import CannotLayOff, CannotSwap, MustPlaceCard
from liverpool.engine.game.core import new_game
from liverpool.engine.game.legal import legal_actions
from liverpool.engine.game.verify import is_legal
from liverpool.engine.observe import Observation, observe
from liverpool.engine.play import step
from liverpool.engine.rules.parts import JokerSwap, JokerSwapPlace, JokerSwapTarget, RulesetError
from liverpool.engine.rules.presets import PRESETS, find_preset
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import GameState, Phase

LIVERPOOL = find_preset("liverpool")
CONTRACT = find_preset("contract")
NORSK = find_preset("norsk")
BRITISH = find_preset("british")


@pytest.fixture(autouse=True)
def _games_replay() -> Iterator[None]:
    yield
    check_started()


def _listed_are_legal(state: GameState) -> list[object]:
    listed = legal_actions(state)
    assert listed and all(is_legal(state, a) for a in listed)
    return listed


# -- 2. liverpool (001a): the reclaimed joker is placed before the turn ends ---------------------------------------


def _liverpool_swap_ready(rules: Ruleset = LIVERPOOL) -> GameState:
    """Deal 2 (a set and a run). Seat 1 is down with 'set: 7H 7S JK' (meld 0) and 'run: 4C 5C JK#1 7C' (meld 1);
    seat 2 has drawn 3S, gone down with 'set: 8H 8S 8D' (meld 2) and 'run: 9C 10C JC QC' (meld 3) and holds
    6C 7D 5S 3S."""
    state = deal(rules, 3, deal_no=1, hands=[None, "7H 7S JK 4C 5C JK#1 7C 9H 9S 9D", "8H 8S 8D 9C 10C JC QC 6C 7D 5S"],
                 upcard="2D", stock_top=["KS", "3S", "10D"])  # fmt: skip
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "set: 7H 7S JK", "run: 4C 5C JK#1 7C"), Discard(1, card("KS")), DrawStock(2))
    pass_window(state)
    play(state, go_down(2, "set: 8H 8S 8D", "run: 9C 10C JC QC"))
    return state


def test_liverpool_other_plays_may_come_before_the_reclaimed_joker() -> None:
    """RULES.md §3.8 joker swap (001a): "...a player may replace that other player's laid Joker from within a run with
    the card it is substituting, so long as that Joker is placed somewhere else before the player concludes their
    turn." The swap does not force the next play: 7D is laid off first, then the joker."""
    state = _liverpool_swap_ready()
    play(state, SwapJoker(2, card("6C"), 1, card("JK#1")))
    assert state.must_place is None and state.reclaimed == [card("JK#1")]
    listed = _listed_are_legal(state)
    assert LayOff(2, card("7D"), 0) in listed and LayOff(2, card("JK#1"), 2) in listed
    play(state, LayOff(2, card("7D"), 0))
    assert state.reclaimed == [card("JK#1")]
    play(state, LayOff(2, card("JK#1"), 2), Discard(2, card("5S")))
    assert [str(tm.meld) for tm in state.melds] == [
        "set: 7H 7S JK 7D",
        "run: 4C 5C 6C 7C",
        "set: 8H 8S 8D JK#1",
        "run: 9C 10C JC QC",
    ]
    assert state.current == 0 and state.reclaimed == []


def test_liverpool_the_turn_does_not_end_with_the_reclaimed_joker_in_hand() -> None:
    """RULES.md §3.8 joker swap (001a): "...so long as that Joker is placed somewhere else before the player concludes
    their turn." Neither a discard nor going out (discarding the joker itself as the last card) ends the turn while
    the joker is in hand, and neither is listed; the refusal says why."""
    state = _liverpool_swap_ready()
    play(state, SwapJoker(2, card("6C"), 1, card("JK#1")))
    assert not [a for a in legal_actions(state) if isinstance(a, Discard | EndTurn)]
    error = refused(state, Discard(2, card("5S")), MustPlaceCard, "before your turn ends")
    assert error.reason == "must_place_card" and "JK#1, taken from the table by a swap" in str(error)
    # Down to the joker alone, discarding it would go out: refused too (discarding is not placing it).
    state = deal(LIVERPOOL, 3, deal_no=1, hands=[None, "7H 7S JK 4C 5C JK#1 7C 9H 9S 9D", "8H 8S 8D 9C 10C JC QC 6C 7D 8C"],
                 upcard="2D", stock_top=["KS", "KC", "10D"])  # fmt: skip
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "set: 7H 7S JK", "run: 4C 5C JK#1 7C"), Discard(1, card("KS")), DrawStock(2))
    pass_window(state)
    play(state, go_down(2, "set: 8H 8S 8D", "run: 9C 10C JC QC"), SwapJoker(2, card("6C"), 1, card("JK#1")))
    play(state, LayOff(2, card("7D"), 0), LayOff(2, card("8C"), 2), LayOff(2, card("KC"), 3, "high"))
    assert state.hands[2] == [card("JK#1")]
    listed = _listed_are_legal(state)
    assert listed and all(isinstance(a, LayOff) and a.card == card("JK#1") for a in listed)
    refused(state, Discard(2, card("JK#1")), MustPlaceCard, "must be placed on the table before your turn ends")
    play(state, LayOff(2, card("JK#1"), 0))
    assert legal_actions(state) == [EndTurn(2)]  # 001a: an empty hand floats until a discard of a later turn


def test_liverpool_no_play_may_leave_the_reclaimed_joker_without_a_place() -> None:
    """RULES.md §3.8 joker swap (001a): "...so long as that Joker is placed somewhere else before the player concludes
    their turn", and 001a: the card just taken from the pile may not be discarded. Seat 2 took 9D from the pile,
    swapped 6C for the joker and holds 7D 9D JK#1: laying 7D off first would leave 9D alone beside the joker, so
    the joker could not be laid off (9D cannot be the card left to discard) and the turn could not end. That
    lay-off is refused and not listed; the joker first, then a discard, stays legal."""
    state = deal(LIVERPOOL, 3, deal_no=1, hands=[None, "7H 7S JK 4C 5C JK#1 7C 9H 9S 9D", "8H 8S 8D 9C 10C JC QC 6C 7D 8C"],
                 upcard="2D", stock_top=["KS", "3S", "10D", "2H"])  # fmt: skip
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "set: 7H 7S JK", "run: 4C 5C JK#1 7C"), Discard(1, card("KS")), DrawStock(2))
    pass_window(state)
    play(state, go_down(2, "set: 8H 8S 8D", "run: 9C 10C JC QC"), LayOff(2, card("8C"), 2), Discard(2, card("3S")))
    turn(state)  # seat 0 draws 10D and discards it
    play(state, DrawStock(1))
    pass_window(state)
    play(state, Discard(1, card("9D")), DrawDiscard(2), SwapJoker(2, card("6C"), 1, card("JK#1")))
    assert state.hands[2] == [card("7D"), card("9D"), card("JK#1")] and state.taken == card("9D")
    listed = _listed_are_legal(state)
    assert LayOff(2, card("7D"), 0) not in listed and LayOff(2, card("JK#1"), 2) in listed
    refused(
        state, LayOff(2, card("7D"), 0), MustPlaceCard, "JK#1, taken from the table by a swap, could then no longer"
    )
    play(state, LayOff(2, card("JK#1"), 2), Discard(2, card("7D")))
    assert state.current == 0


def test_norsk_places_the_reclaimed_joker_at_once() -> None:
    """RULES.md §3.8 joker swap (002): "Du må med en gang legge jokeren på et annet sted i samme eller en annen
    kombinasjon på bordet." In norsk the next play places the joker: nothing else is listed or accepted first."""
    rules = Ruleset.from_dict({"upcard": True}, base=NORSK)  # (the situation turns an upcard)
    state = _liverpool_swap_ready(rules)
    play(state, SwapJoker(2, card("6C"), 1, card("JK#1")))
    assert state.must_place == card("JK#1")
    assert {a.card for a in _listed_are_legal(state) if isinstance(a, LayOff)} == {card("JK#1")}
    assert all(isinstance(a, LayOff) for a in legal_actions(state))
    refused(state, LayOff(2, card("7D"), 0), MustPlaceCard, "JK#1 must be laid off first")
    play(state, LayOff(2, card("JK#1"), 2), LayOff(2, card("7D"), 0), Discard(2, card("5S")))


# -- 3. contract (001b): only a player down since an earlier turn swaps, and uses the joker that turn ---------------


def _contract_swap_ready() -> GameState:
    """Contract, deal 2 (a set and a run of 3), one deck and one joker. Seat 1 goes down with 'set: 7H 7S 7D' (meld 0)
    and 'run: 4C 5C JK' (meld 1, the joker stands for 6C); seat 2 draws 3S and goes down with 'set: 8H 8S 8D'
    (meld 2) and 'run: 9C 10C JC' (meld 3), holding 6C QC KS QH 3S."""
    state = deal(CONTRACT, 3, deal_no=1, hands=[None, "7H 7S 7D 4C 5C JK 9H 9S 2D KD", "8H 8S 8D 9C 10C JC 6C QC KS QH"],
                 upcard="2S", stock_top=["AS", "3S", "4S", "5S", "6S"])  # fmt: skip
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "set: 7H 7S 7D", "run: 4C 5C JK"), Discard(1, card("AS")), DrawStock(2))
    pass_window(state)
    play(state, go_down(2, "set: 8H 8S 8D", "run: 9C 10C JC"))
    return state


def test_contract_no_swap_in_the_turn_a_player_goes_down() -> None:
    """RULES.md §3.8 joker swap (001b): "If a player has met their contract on a previous turn, if another player uses
    a joker in a sequence to substitute a card they have in hand, while they lay off they may exchange those cards
    and take the joker." Seat 2 has just gone down: its 6C may not take the joker this turn."""
    state = _contract_swap_ready()
    assert not [a for a in _listed_are_legal(state) if isinstance(a, SwapJoker)]
    refused(state, SwapJoker(2, card("6C"), 1, card("JK")), CannotSwap, "went down on an earlier turn, not this one")
    assert (
        state.down_this_turn and observe(state, 0).down_this_turn and observe(state, None).to_dict()["down_this_turn"]
    )


def test_contract_swap_on_a_later_turn_and_use_the_joker_during_it() -> None:
    """RULES.md §3.8 joker swap (001b): "If a player has met their contract on a previous turn ... they may exchange
    those cards and take the joker. The joker, however, must be used during that turn and cannot be saved for
    later." On its next turn seat 2 swaps; it may lay off QC before the joker, but not end the turn holding it."""
    state = _contract_swap_ready()
    play(state, Discard(2, card("3S")))
    turn(state)  # seat 0
    turn(state)  # seat 1
    play(state, DrawStock(2))
    pass_window(state)
    swap = SwapJoker(2, card("6C"), 1, card("JK"))
    assert swap in _listed_are_legal(state)
    play(state, swap, LayOff(2, card("QC"), 3, "high"))  # another play before the joker
    assert state.must_place is None and state.reclaimed == [card("JK")] and not state.down_this_turn
    for seat in (None, 0, 1, 2):  # the reclaimed joker is public: it came off the table
        assert observe(state, seat).reclaimed == (card("JK"),)
        assert observe(state, seat).to_dict()["reclaimed"] == ["JK"]
    refused(state, Discard(2, card("KS")), MustPlaceCard, "JK, taken from the table by a swap, must be placed")
    play(state, LayOff(2, card("JK"), 3, "high"), Discard(2, card("KS")))
    assert str(state.melds[3].meld) == "run: 9C 10C JC QC JK" and state.reclaimed == []


# -- 4. british (004): the reclaimed joker goes into the swapper's own melds ----------------------------------------


def _british_swap_ready(preset: str = "british") -> GameState:
    """Deal 1 (two books). Seat 1 is down with 'set: 7H 7S JK' (meld 0) and 'set: 9H 9S JK#1' (meld 1); seat 2 has
    drawn 3S and gone down with 'set: 4H 4D 4S' (meld 2) and 'set: 2S 2D 2H' (meld 3), holding 7D 9C 8H 8S 3S."""
    rules = find_preset(preset)
    state = deal(rules, 3, hands=[None, "7H 7S JK 4C 5C JK#1 7C 9H 9S 9D", "7D 9C 8H 8S 4H 4D 4S 2S 2D 2H"],
                 stock_top=["KS", "3S", "10D"])  # fmt: skip
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "set: 7H 7S JK", "set: 9H 9S JK#1"), Discard(1, card("KS")), DrawStock(2))
    pass_window(state)
    play(state, go_down(2, "set: 4H 4D 4S", "set: 2S 2D 2H"))
    return state


@pytest.mark.parametrize("preset", ["british", "british-9", "british-fixed", "british-nobuy"])
def test_british_reclaimed_joker_only_into_own_melds(preset: str) -> None:
    """RULES.md §3.8 joker swap (004): "...you may swap your natural card for that joker and use the reclaimed joker
    immediately as a wild in your own meld." After taking seat 1's joker, seat 2 may lay it off only onto its own
    books (melds 2 and 3), not back onto seat 1's."""
    state = _british_swap_ready(preset)
    play(state, SwapJoker(2, card("7D"), 0, card("JK")))
    assert state.must_place == card("JK")
    targets = {(a.card, a.meld) for a in _listed_are_legal(state) if isinstance(a, LayOff)}
    assert targets == {(card("JK"), 2), (card("JK"), 3)}
    error = refused(state, LayOff(2, card("JK"), 1), CannotLayOff, "goes only into your own melds")
    assert error.reason == "cannot_lay_off"
    refused(state, LayOff(2, card("JK"), 0), CannotLayOff, "goes only into your own melds")
    play(state, LayOff(2, card("JK"), 3), Discard(2, card("3S")))
    assert str(state.melds[3].meld) == "set: 2S 2D 2H JK"


def test_british_swap_refused_when_own_melds_cannot_take_the_joker() -> None:
    """RULES.md §3.8 joker swap (004): "...use the reclaimed joker immediately as a wild in your own meld", with 004's
    "at most one joker per four-card segment". Seat 2's own runs 5H JK 7H 8H and 5D JK#1 7D 8D take no second
    joker at either end; only seat 1's runs could: taking seat 1's club joker with 6C is refused, not listed."""
    state = british_stranded()
    swap = SwapJoker(2, card("6C"), 0, card("JK#2"))
    assert swap not in _listed_are_legal(state)
    refused(state, swap, CannotSwap, "could not be played again at once in your own melds")
    # The same swap is legal where the joker may go anywhere: back onto seat 1's runs.
    anywhere = Ruleset.from_dict({"joker_swap_target": "any"}, base=BRITISH)
    state = play(british_stranded(anywhere), swap)
    assert {a.meld for a in legal_actions(state) if isinstance(a, LayOff)} == {0, 1}  # seat 1's runs


def test_british_swap_before_going_down_puts_the_joker_in_the_going_down() -> None:
    """RULES.md §3.8 joker swap (004): "On your turn (during your meld or lay-off phase) ... use the reclaimed joker
    immediately as a wild in your own meld." A seat not yet down takes seat 1's joker with 7D and goes down with
    it in its own book: still legal."""
    state = deal(BRITISH, 3, hands=[None, "7H 7S JK 4C 5C JK#1 7C 9H 9S 9D", "7D 9C 8H 8S 4H 4D 4S 2S 2D 2H"],
                 stock_top=["KS", "3S", "10D"])  # fmt: skip
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "set: 7H 7S JK", "set: 9H 9S JK#1"), Discard(1, card("KS")), DrawStock(2))
    pass_window(state)
    swap = SwapJoker(2, card("7D"), 0, card("JK"))
    assert swap in _listed_are_legal(state)
    play(state, swap, go_down(2, "set: 8H 8S JK", "set: 4H 4D 4S"), Discard(2, card("3S")))
    assert state.melds[2].owner == 2 and str(state.melds[2].meld) == "set: 8H 8S JK"


# -- the options ------------------------------------------------------------------------------------------------


def test_the_swap_options_per_preset_and_in_the_codec() -> None:
    """Each preset's reading of its text, and the options' round trip through the dict form (bad values refused)."""
    assert (LIVERPOOL.joker_swap, LIVERPOOL.joker_swap_place, LIVERPOOL.joker_swap_target) == (
        JokerSwap.AFTER_DOWN,
        JokerSwapPlace.BEFORE_TURN_ENDS,
        JokerSwapTarget.ANY,
    )
    assert (CONTRACT.joker_swap, CONTRACT.joker_swap_place, CONTRACT.joker_swap_target) == (
        JokerSwap.DOWN_EARLIER,
        JokerSwapPlace.BEFORE_TURN_ENDS,
        JokerSwapTarget.ANY,
    )
    assert (NORSK.joker_swap, NORSK.joker_swap_place) == (JokerSwap.AFTER_DOWN, JokerSwapPlace.AT_ONCE)
    assert find_preset("may-i").joker_swap_place is JokerSwapPlace.AT_ONCE
    for name in ("british", "british-9", "british-fixed", "british-nobuy"):
        rules = find_preset(name)
        assert (rules.joker_swap_place, rules.joker_swap_target) == (JokerSwapPlace.AT_ONCE, JokerSwapTarget.OWN_MELDS)
    for rules in (LIVERPOOL, CONTRACT, BRITISH):
        assert Ruleset.from_dict(rules.to_dict()) == rules
    with pytest.raises(RulesetError, match="joker_swap_place: expected one of at_once, before_turn_ends"):
        Ruleset.from_dict({"joker_swap_place": "later"})
    with pytest.raises(RulesetError, match="joker_swap_target: expected one of any, own_melds"):
        Ruleset.from_dict({"joker_swap_target": "mine"})
    with pytest.raises(RulesetError, match="joker_swap: expected one of"):
        Ruleset.from_dict({"joker_swap": "earlier"})


# -- listing and applying agree, in played games --------------------------------------------------------------------


def _every_play(state: GameState) -> set[object]:
    """Every lay-off, swap, discard and end of turn the current seat could try (going down aside)."""
    me = state.current
    hand = state.hands[me]
    plays: set[object] = {Discard(me, c) for c in hand} | {EndTurn(me)}
    for index, table_meld in enumerate(state.melds):
        for c in hand:
            plays |= {LayOff(me, c, index, end) for end in (None, "low", "high")}
            plays |= {SwapJoker(me, c, index, j) for j in table_meld.meld.cards if j.is_joker and not c.is_joker}
    return plays


def _form(action: object) -> object:
    """A lay-off as its card and meld (which spellings of its end are accepted is issue 24's item 9, not this)."""
    return (action.card, action.meld) if isinstance(action, LayOff) else action


class _Swapper:
    """``easy``, but swapping whenever it may and then laying off its other cards before any reclaimed joker."""

    def __init__(self) -> None:
        from liverpool.bots.registry import make_bot

        self.easy = make_bot("easy")

    def __call__(self, observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        swaps = [a for a in options if isinstance(a, SwapJoker)]
        others = [a for a in options if isinstance(a, LayOff) and a.card not in observation.reclaimed]
        if swaps or others:
            return rng.choice(swaps or others)
        return self.easy(observation, options, rng)


@pytest.mark.parametrize("preset", ["liverpool", "contract", "british", "norsk"])
def test_listed_plays_are_exactly_the_legal_ones_around_swaps(preset: str) -> None:
    """RULES.md §3.8 joker swap, each preset's reading: in seeded games of bots that swap whenever they may and then
    lay off other cards first, at every moment of a turn with a joker on the table or a reclaimed joker in hand,
    the lay-offs, swaps, discards and ends of turn listed are exactly those ``apply`` accepts, and a seat holding a
    reclaimed joker always has a listed way on (the games end: no seat is ever stuck)."""
    compared = waiting = 0
    for seed in range(1, 3):
        rng = random.Random(seed)
        agents = [_Swapper() for _ in range(4)]
        state = new_game(PRESETS[preset], 4)
        while not state.is_over:
            if state.phase is Phase.PLAY and (
                state.reclaimed or any(c.is_joker for tm in state.melds for c in tm.meld.cards)
            ):
                listed = {_form(a) for a in legal_actions(state) if not isinstance(a, GoDown)}
                legal = {_form(a) for a in _every_play(state) if is_legal(state, a)}
                assert listed == legal, (state.situation(), listed ^ legal)
                compared += 1
                if state.reclaimed:
                    waiting += 1
                    assert legal_actions(state)  # (a seat not yet down goes down with it)
            step(state, agents, rng)
    assert compared > 50 and waiting > 0, (compared, waiting)
