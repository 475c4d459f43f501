"""``legal_actions`` lists every joker swap ``apply`` accepts, and only those (RULES.md §3 rule options: joker swap).

Compared with trying every swap there is, in seeded games of ``easy`` bots, where seats do swap jokers
(a swap before going down must go down at once; after, the joker must be laid off at once).
"""

from __future__ import annotations

import random

import pytest

from liverpool.bots.registry import make_bot
from liverpool.engine.actions import SwapJoker
from liverpool.engine.game import is_legal, new_game
from liverpool.engine.legal import legal_actions
from liverpool.engine.play import step
from liverpool.engine.presets import PRESETS
from liverpool.engine.state import GameState, Phase


def _every_swap(state: GameState) -> set[SwapJoker]:
    me = state.current
    return {
        SwapJoker(me, card, index, joker)
        for index, table_meld in enumerate(state.melds)
        for joker in table_meld.meld.cards
        if joker.is_joker
        for card in state.hands[me]
        if not card.is_joker
    }


@pytest.mark.parametrize("preset", ["liverpool", "british", "may-i", "contract"])
def test_listed_swaps_are_exactly_the_legal_ones(preset: str) -> None:
    rules = PRESETS[preset]
    compared = listed_swaps = 0
    for seed in range(1, 5):
        rng = random.Random(seed)
        agents = [make_bot("easy") for _ in range(4)]
        state = new_game(rules, 4)
        while not state.is_over:
            if state.phase is Phase.PLAY and state.must_place is None and any(
                c.is_joker for tm in state.melds for c in tm.meld.cards
            ):
                listed = {a for a in legal_actions(state) if isinstance(a, SwapJoker)}
                legal = {a for a in _every_swap(state) if is_legal(state, a)}
                assert listed == legal, (state.situation(), listed ^ legal)
                compared += 1
                listed_swaps += len(listed)
            step(state, agents, rng)
    assert compared > 50 and listed_swaps > 0, (compared, listed_swaps)
