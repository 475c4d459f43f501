"""The table's lay-off index (which faces fit where, ``checks.table_lay_off_index``) is reused and patched as
the table changes; at every step it must equal the index built afresh from what each meld accepts
(RULES.md §1.4: once down, a player lays off cards on any meld on the table)."""

from __future__ import annotations

import random

import pytest

from liverpool.bots.registry import make_bot
from liverpool.engine.actions import LayOff
from liverpool.engine.cards import JOKER_FACE, Card
from liverpool.engine.game.checks import (
    LayOffIndex,
    may_place_reclaimed,
    remaining_problem,
    table_accepted,
    table_fits,
    table_lay_off_index,
)
from liverpool.engine.game.core import new_game
from liverpool.engine.game.legal import lay_off_actions, legal_actions
from liverpool.engine.game.verify import is_legal
from liverpool.engine.melds import End, Meld, accepted_faces, lay_off
from liverpool.engine.play import step
from liverpool.engine.rules.parts import MeldKind
from liverpool.engine.rules.presets import PRESETS
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import Phase, TableMeld


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
                fresh = _fresh(melds, rules)
                assert table_lay_off_index(melds, rules) == fresh
                assert table_accepted(melds, rules) == [accepted_faces(tm.meld, rules) for tm in melds]
                assert table_fits(melds, rules) == sum(1 << face for face in fresh)
                tables += len(melds) > 3
            step(state, agents, rng)
    assert changes > 50 and tables > 20, (changes, tables)


def _fits_by_trying(meld: Meld, rules: Ruleset) -> set[tuple[int, End | None]]:
    """Every (face, end) that ``lay_off`` accepts on ``meld``, found by trying each face at each end."""
    ends: tuple[End | None, ...] = (None,) if meld.kind is MeldKind.SET else ("low", "high")
    fits: set[tuple[int, End | None]] = set()
    for face in range(JOKER_FACE + 1):
        for end in ends:
            try:
                lay_off(meld, Card(face), end, rules)
            except ValueError:
                continue
            fits.add((face, end))
    return fits


def test_what_a_meld_accepts_is_what_lay_off_accepts_under_each_ruleset() -> None:
    # accepted_faces keeps its answers by ruleset and by the meld's faces: asked about the melds of games of two
    # rulesets in turn (the same melds under both), each answer must be what trying every card says.
    tables = {name: PRESETS[name] for name in ("contract", "british")}
    melds: list[Meld] = []
    for rules in tables.values():
        state = new_game(rules, 4)
        rng = random.Random(3)
        agents = [make_bot("easy") for _ in range(4)]
        while not state.is_over and len(melds) < 400:
            melds += [table_meld.meld for table_meld in state.melds]
            step(state, agents, rng)
    differ = 0
    for meld in dict.fromkeys(melds):
        answers = {name: accepted_faces(meld, rules) for name, rules in tables.items()}
        for name, rules in tables.items():
            assert accepted_faces(meld, rules) == answers[name]  # asked again: the kept answer
            assert len(set(answers[name])) == len(answers[name])
            assert set(answers[name]) == _fits_by_trying(meld, rules), (name, str(meld))
        differ += answers["contract"] != answers["british"]
    assert differ > 0  # the rulesets disagree on some melds, so an answer kept for the wrong one would fail


@pytest.mark.parametrize(("preset", "seats"), [("liverpool", 4), ("british", 6), ("may-i", 4)])
def test_the_lay_offs_listed_are_the_index_s_places_for_each_card(preset: str, seats: int) -> None:
    """RULES.md §1.4: once down, a player lays off cards on any meld on the table. The listing reads what each
    meld accepts; it must list, card by card in hand order, every place the index gives, where the cards left
    allow it, and apply must accept each."""
    rules = PRESETS[preset]
    compared = listed = 0
    for seed in range(1, 3):
        rng = random.Random(seed)
        agents = [make_bot("easy") for _ in range(seats)]
        state = new_game(rules, seats)
        while not state.is_over:
            me = state.current
            if state.phase is Phase.PLAY and state.down[me] and state.hands[me]:
                hand = state.hands[me]
                index = _fresh(tuple(state.melds), rules)
                expected = [
                    LayOff(me, card, position, end)
                    for card in dict.fromkeys(hand)
                    if remaining_problem(state, [c for c in hand if c != card]) is None
                    for position, end in index.get(card.face, [])
                    # a joker taken by a swap goes only where the rules let it (004: own melds)
                    if card not in state.reclaimed or may_place_reclaimed(state, me, state.melds[position].owner)
                ]
                found = lay_off_actions(state, hand)
                assert found == expected, state.situation()
                assert all(is_legal(state, a) for a in found)
                assert (
                    [a for a in legal_actions(state) if isinstance(a, LayOff)] == found
                    or state.must_place
                    or state.reclaimed
                )
                compared += 1
                listed += len(found)
            step(state, agents, rng)
    assert compared > 30 and listed > 30, (compared, listed)
