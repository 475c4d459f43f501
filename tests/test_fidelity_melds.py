"""Issue 24 items 8 and 9: melds as the texts lay them.

Item 9, lay-offs are one action, one form: a lay-off onto a set names no end, onto a run it names the end;
validation accepts exactly the forms ``legal_actions`` lists. Item 8 (002, ``norsk``): "Det er ikke lov å dele
opp kombinasjoner som kunne vært lagt sammen" (RULES.md §3 run constraints): two runs of one suit may not be
laid apart when their cards could be laid as one run.

Situations are dealt exactly with ``helpers.deal`` (3 seats, dealer 0: seat 1 plays first).
"""

from __future__ import annotations

import random

from helpers import card, deal, go_down, pass_window, play, refused

from liverpool.engine.actions import DrawStock, LayOff
from liverpool.engine.errors import MalformedAction
from liverpool.engine.game import apply, is_legal, new_game
from liverpool.engine.legal import legal_actions
from liverpool.engine.play import chance_action
from liverpool.engine.presets import PRESETS, find_preset
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
