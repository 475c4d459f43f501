"""Issue 24 items 8 and 9: melds as the texts lay them.

Item 9, lay-offs are one action, one form: a lay-off onto a set names no end, onto a run it names the end;
validation accepts exactly the forms ``legal_actions`` lists. Item 8 (002, ``norsk``): "Det er ikke lov å dele
opp kombinasjoner som kunne vært lagt sammen" (RULES.md §3.5 run constraints): two runs of one suit may not be
laid apart when their cards could be laid as one run.

Situations are dealt exactly with ``helpers.deal`` (3 seats, dealer 0: seat 1 plays first).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from helpers import card, cards, deal, go_down, hand, pass_window, play, refused

from liverpool.engine.actions import DrawStock, GoDown, LayOff
from liverpool.engine.cards import make_shoe
from liverpool.engine.errors import CannotGoDown, MalformedAction
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.game.legal import legal_actions
from liverpool.engine.game.verify import is_legal
from liverpool.engine.melds import Meld, contract_problem, runs_could_join
from liverpool.engine.play import chance_action
from liverpool.engine.rules.parts import JoinableRuns, RulesetError
from liverpool.engine.rules.presets import PRESETS, find_preset
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.search import best_leftover, can_meet, find_arrangements
from liverpool.engine.state import GameState, Phase

LIVERPOOL = find_preset("liverpool")
ENDS = (None, "low", "high")

# -- item 9: one form for each lay-off ----------------------------------------------------------------


def _down_with_a_set_and_a_run() -> GameState:
    """Seat 1 down in deal 2 (a set and a run) with ``set: 7H 7S 7D`` (meld 0) and ``run: 4C 5C 6C 7C``
    (meld 1), holding 8C 2D KS and the 7D#1 it drew."""
    state = deal(LIVERPOOL, 3, hands=[None, "7H 7S 7D 4C 5C 6C 7C 8C 2D KS"], stock_top=["7D#1"], deal_no=1)
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "set: 7H 7S 7D", "run: 4C 5C 6C 7C"))
    return state


def test_a_lay_off_onto_a_set_names_no_end() -> None:
    """Issue 24 item 9: "A lay-off onto a set with end="low"/"high" is accepted though legal_actions lists only
    end=None for sets; refuse the form that is not listed". The other side: end=None is listed and played."""
    state = _down_with_a_set_and_a_run()
    assert LayOff(1, card("7D#1"), 0) in legal_actions(state)
    for end in ("low", "high"):
        assert LayOff(1, card("7D#1"), 0, end) not in legal_actions(state)  # type: ignore[arg-type]
        refused(state, LayOff(1, card("7D#1"), 0, end), MalformedAction, "onto a set names no end")  # type: ignore[arg-type]
    play(state, LayOff(1, card("7D#1"), 0))
    assert [str(c) for c in state.melds[0].meld.cards] == ["7H", "7S", "7D", "7D#1"]


def test_a_lay_off_onto_a_run_names_its_end() -> None:
    """Issue 24 item 9, the run side: the listing gives a run's lay-off its end, so end=None is not the listed
    form and is refused; the listed end is played."""
    state = _down_with_a_set_and_a_run()
    listed = [a for a in legal_actions(state) if isinstance(a, LayOff) and a.card == card("8C")]
    assert listed == [LayOff(1, card("8C"), 1, "high")]
    refused(state, LayOff(1, card("8C"), 1), MalformedAction, "onto a run names the end")
    play(state, LayOff(1, card("8C"), 1, "high"))
    assert state.melds[1].meld.high == 8


def test_validation_accepts_exactly_the_listed_lay_offs() -> None:
    """Issue 24 item 9: "make validation accept exactly what is listed". At every play-phase step of seeded
    random games of each preset, each (card in hand, meld, end) is legal exactly when it is listed."""
    checked = 0
    for name, rules in PRESETS.items():
        rng = random.Random(name)
        state = new_game(rules, 3)
        steps = 0
        while not state.is_over and steps < 1500:
            steps += 1
            listed = legal_actions(state)
            if not listed:
                apply(state, chance_action(state, rng))
                continue
            if state.phase is Phase.PLAY and state.down[state.current] and state.melds:
                seat = state.current
                lay_offs = {a for a in listed if isinstance(a, LayOff)}
                for c in state.hands[seat]:
                    for index in range(len(state.melds)):
                        for end in ENDS:
                            action = LayOff(seat, c, index, end)  # type: ignore[arg-type]
                            assert is_legal(state, action) == (action in lay_offs), (name, action)
                            checked += 1
            apply(state, rng.choice(listed))
    assert checked > 1000


# -- item 8: runs that could be joined (002) -----------------------------------------------------------

NORSK = find_preset("norsk")
AS_LAID = dataclasses.replace(NORSK, joinable_runs=JoinableRuns.TOUCHING)
ISSUE_HAND = "3S 4S 5S JK 8S 9S 10S JK#1 2D KD"


def _norsk_deal_3(rules: Ruleset, hand_text: str) -> GameState:
    """Seat 1 in deal 3 (two runs of four), having drawn QH."""
    state = deal(rules, 3, hands=[None, hand_text], stock_top=["QH"], deal_no=2)
    play(state, DrawStock(1))
    return state


@pytest.mark.parametrize(
    "pair",
    [
        ("run: 3S 4S 5S JK", "run: 8S 9S 10S JK#1"),
        ("run: JK 3S 4S 5S", "run: JK#1 8S 9S 10S"),
        ("run: 8S 9S 10S JK#1", "run: 3S 4S 5S JK"),
    ],
)
def test_runs_whose_cards_make_one_run_may_not_be_laid_apart(pair: tuple[str, str]) -> None:
    """RULES.md §3.5 run constraints (002): "Det er ikke lov å dele opp kombinasjoner som kunne vært lagt sammen.
    F.eks. kan du ikke legge 3, 4, 5 og 6 som én kombinasjon samtidig som du legger 7, 8, 9 og 10 som en annen
    kombinasjon." 3S 4S 5S JK and 8S 9S 10S JK are one run (3 to 10, the jokers as 6 and 7), though they do
    not touch as laid; the search offers no going-down and the hand cannot meet the contract."""
    state = _norsk_deal_3(NORSK, ISSUE_HAND)
    refused(state, go_down(1, *pair), CannotGoDown, "could be laid as one run, so they may not be laid apart")
    assert not any(isinstance(a, GoDown) for a in legal_actions(state))
    hand_cards = cards(ISSUE_HAND)
    assert not can_meet(hand_cards, NORSK.contract(2), NORSK)
    assert find_arrangements(hand_cards, NORSK.contract(2), NORSK) == []
    assert best_leftover(hand_cards, NORSK.contract(2), NORSK) is None


def test_runs_that_cannot_make_one_run_stay_legal_and_are_offered() -> None:
    """The other side (002 forbids splitting only what could be laid together): 3S 4S 5S JK and 9S 10S JS JK
    need nine places for eight cards, so they are two runs; the search offers them and they are laid."""
    hand_text = "3S 4S 5S JK 9S 10S JS JK#1 2D KD"
    state = _norsk_deal_3(NORSK, hand_text)
    offered = [a for a in legal_actions(state) if isinstance(a, GoDown)]
    assert offered
    for action in offered:
        assert is_legal(state, action), action
    play(state, go_down(1, "run: 3S 4S 5S JK", "run: 9S 10S JS JK#1"))
    assert hand(state, 1) == "2D KD QH"


def test_the_as_laid_reading_is_the_option_touching() -> None:
    """The reading the engine had (only runs laid end to end count) stays as ``joinable_runs = touching``
    (no preset uses it): there the issue's pair is laid, and 3-6 with 7-10 is still refused."""
    state = _norsk_deal_3(AS_LAID, "3S 4S 5S JK 7S 8S 9S 10S JK#1 2D")
    assert any(isinstance(a, GoDown) for a in legal_actions(state))
    refused(state, go_down(1, "run: 3S 4S 5S JK", "run: 7S 8S 9S 10S"), CannotGoDown, "could be joined")
    play(state, go_down(1, "run: 3S 4S 5S JK", "run: 8S 9S 10S JK#1"))
    assert can_meet(cards(ISSUE_HAND), AS_LAID.contract(2), AS_LAID)


def test_joinable_runs_respect_the_run_rules() -> None:
    """Whether two runs could be one follows the ruleset's run rules: with joker spacing 4 (004's rule),
    3S 4S 5S JK and JK 8S 9S 10S would need the jokers side by side (6 and 7), so they are not one run and
    may be laid apart; without spacing they may not."""
    a, b = Meld.parse("run: 3S 4S 5S JK"), Meld.parse("run: JK#1 8S 9S 10S")
    assert runs_could_join(a, b, NORSK)
    spaced = dataclasses.replace(NORSK, run_joker_spacing=4)
    assert not runs_could_join(a, b, spaced)
    assert contract_problem((a, b), NORSK.contract(2), spaced) is None
    # the same rank twice (two decks) never makes one run; nor do two suits
    assert not runs_could_join(Meld.parse("run: 3S 4S 5S 6S"), Meld.parse("run: 6S#1 7S 8S 9S"), NORSK)
    assert not runs_could_join(Meld.parse("run: 3S 4S 5S 6S"), Meld.parse("run: 7H 8H 9H 10H"), NORSK)
    # an ace low on one side, the king's side on the other: one run only within 13 ranks
    assert runs_could_join(Meld.parse("run: AS 2S 3S 4S"), Meld.parse("run: 5S 6S 7S 8S"), NORSK)
    assert not runs_could_join(Meld.parse("run: AS 2S 3S 4S"), Meld.parse("run: JS QS KS JK"), NORSK)


def test_older_rules_files_with_the_bool_still_read() -> None:
    """``no_joinable_runs`` (a bool until issue 24) reads as ``touching`` (true) or ``allowed`` (false); the
    field is written as ``joinable_runs``."""
    assert Ruleset.from_dict({"no_joinable_runs": True}).joinable_runs is JoinableRuns.TOUCHING
    assert Ruleset.from_dict({"no_joinable_runs": False}).joinable_runs is JoinableRuns.ALLOWED
    assert Ruleset.from_dict({"joinable_runs": "could_join"}).joinable_runs is JoinableRuns.COULD_JOIN
    assert NORSK.to_dict()["joinable_runs"] == "could_join" and "no_joinable_runs" not in NORSK.to_dict()
    with pytest.raises(RulesetError, match="not both"):
        Ruleset.from_dict({"no_joinable_runs": True, "joinable_runs": "allowed"})
    with pytest.raises(RulesetError, match="no_joinable_runs: expected true or false"):
        Ruleset.from_dict({"no_joinable_runs": "yes"})


def test_the_search_agrees_with_validation_on_runs_of_one_suit() -> None:
    """Issue 24 item 8: the search and validation agree. On seeded norsk hands rich in one suit's runs and
    jokers, every arrangement the search finds is accepted by ``contract_problem``, ``can_meet`` says yes
    exactly when one is found, and ``best_leftover`` is what the best one leaves; and some hands are met only
    once the rule is read as laid (the cases this rule changes)."""
    rng = random.Random(24)
    shoe = [c for c in make_shoe(2, 4)]
    spades = [c for c in shoe if not c.is_joker and c.suit == "S"]
    jokers = [c for c in shoe if c.is_joker]
    changed = met = 0
    for _ in range(300):
        contract = NORSK.contract(2)
        hand_cards = rng.sample(spades, rng.randint(6, 10)) + rng.sample(jokers, rng.randint(1, 3))
        found = find_arrangements(hand_cards, contract, NORSK, limit=20)
        for arrangement in found:
            assert contract_problem(arrangement, contract, NORSK) is None, [str(m) for m in arrangement]
        assert can_meet(hand_cards, contract, NORSK) == bool(found)
        left = best_leftover(hand_cards, contract, NORSK)
        if found:
            met += 1
            used = {c for m in found[0] for c in m.cards}
            assert left == sum(NORSK.value(c) for c in hand_cards if c not in used)
        else:
            assert left is None
        if can_meet(hand_cards, contract, AS_LAID) and not found:
            changed += 1
    assert met > 30 and changed > 0, (met, changed)
