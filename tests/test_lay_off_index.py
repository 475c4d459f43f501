"""The table's lay-off index (which faces fit where, ``checks.table_lay_off_index``) is reused and patched as
the table changes; at every step it must equal the index built afresh from what each meld accepts
(RULES.md §1: once down, a player lays off cards on any meld on the table)."""

from __future__ import annotations

import random

import pytest

from liverpool.bots.registry import make_bot
from liverpool.engine.checks import LayOffIndex, table_lay_off_index
from liverpool.engine.game import new_game
from liverpool.engine.melds import accepted_faces
from liverpool.engine.play import step
from liverpool.engine.presets import PRESETS
from liverpool.engine.rules import Ruleset
from liverpool.engine.state import TableMeld


def _fresh(melds: tuple[TableMeld, ...], rules: Ruleset) -> LayOffIndex:
    index: LayOffIndex = {}
    for position, table_meld in enumerate(melds):
        for face, end in accepted_faces(table_meld.meld, rules):
            index.setdefault(face, []).append((position, end))
    return index


@pytest.mark.parametrize(("preset", "seats"), [("liverpool", 6), ("british", 4), ("may-i", 6), ("norsk", 5)])
def test_the_index_equals_a_fresh_one_at_every_step(preset: str, seats: int) -> None:
    rules = PRESETS[preset]
    tables = changes = 0
    for seed in range(1, 3):
        rng = random.Random(seed)
        agents = [make_bot("easy") for _ in range(seats)]
        state = new_game(rules, seats)
        before: tuple[TableMeld, ...] = ()
        while not state.is_over:
            melds = tuple(state.melds)
            if melds != before:
                changes += 1
                before = melds
                assert table_lay_off_index(melds, rules) == _fresh(melds, rules)
                tables += len(melds) > 3
            step(state, agents, rng)
    assert changes > 50 and tables > 20, (changes, tables)
