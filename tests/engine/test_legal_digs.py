"""``legal_actions`` lists every dig into the discard pile that ``apply`` accepts, and only those (RULES.md §3
rule options: digging into the discard pile, preset ``contract``: the card dug for must be melded at once).

The listing skips searches (a seat that is down needs only the table's lay-off index; one not down needs no
search at depths where even the whole dug-up pile cannot meet the contract), so it is compared here with
asking ``apply``'s own check about every depth, in seeded games of ``easy`` bots.
"""

from __future__ import annotations

import random

import pytest

from liverpool.bots.registry import make_bot
from liverpool.engine.actions import DrawDiscard
from liverpool.engine.game.core import new_game
from liverpool.engine.game.legal import legal_actions
from liverpool.engine.game.verify import is_legal
from liverpool.engine.play import step
from liverpool.engine.rules.presets import PRESETS
from liverpool.engine.state import Phase


@pytest.mark.parametrize("seats", [3, 4])
def test_listed_digs_are_exactly_the_legal_ones(seats: int) -> None:
    compared = {True: 0, False: 0}  # moments compared with a dig listed, by whether the seat was down
    skipped_shallow = 0  # moments of a seat not down with a dig listed below which none is
    for seed in range(1, 4):
        rng = random.Random(seed)
        agents = [make_bot("easy") for _ in range(seats)]
        state = new_game(PRESETS["contract"], seats)
        while not state.is_over:
            if state.phase is Phase.DRAW and len(state.discard_pile) > 1:
                me = state.current
                listed = sorted(a.depth for a in legal_actions(state, me) if isinstance(a, DrawDiscard) and a.depth > 1)
                legal = [d for d in range(2, len(state.discard_pile) + 1) if is_legal(state, DrawDiscard(me, d))]
                assert listed == legal, (state.situation(), listed, legal)
                if listed:
                    compared[state.down[me]] += 1
                    skipped_shallow += not state.down[me] and listed[0] > 2
            step(state, agents, rng)
    assert compared[True] > 20 and compared[False] > 5 and skipped_shallow > 0, (compared, skipped_shallow)
