"""Values the engine makes without their dataclass ``__init__`` (compiled, fields are written straight into
the native object) are the very values that ``__init__`` makes: equal, same hash and repr, still frozen.
``tests/engine/test_compiled.py`` runs this file against the compiled build too."""

from __future__ import annotations

import dataclasses
import random

import pytest

from liverpool.bots.random_bot import random_bot
from liverpool.engine.actions import GoDown
from liverpool.engine.cards import Card
from liverpool.engine.melds import Meld, accepted_faces, faces_standing_for, lay_off, new_meld, swap_joker
from liverpool.engine.observe import Observation, SeatView, observe
from liverpool.engine.play import run_game
from liverpool.engine.rules.presets import PRESETS
from liverpool.engine.state import TableMeld


def _table_melds() -> list[Meld]:
    melds: list[Meld] = []
    for preset in ("liverpool", "british", "may-i"):
        state = run_game(PRESETS[preset], [random_bot] * 4, random.Random(7))
        melds += [meld for action in state.history if isinstance(action, GoDown) for meld in action.melds]
    return melds


def test_new_meld_makes_the_value_meld_makes() -> None:
    melds = _table_melds()
    assert len(melds) > 20
    for meld in melds:
        made = new_meld(meld.kind, meld.cards, meld.low)
        built = Meld(meld.kind, meld.cards, meld.low)
        assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
        assert (made.kind, made.cards, made.low) == (meld.kind, meld.cards, meld.low)
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.low = 0  # type: ignore[misc]


def test_grown_and_swapped_melds_equal_those_built_by_meld() -> None:
    """RULES.md §1.4: a lay-off grows a meld at one end, a joker swap puts the natural it stands for in its
    place; both give plain Meld values."""
    rules = PRESETS["liverpool"]
    grown = swapped = 0
    for meld in _table_melds():
        for face, end in accepted_faces(meld, rules):
            card = Card(face)
            cards = (card, *meld.cards) if end == "low" else (*meld.cards, card)
            low = meld.low - 1 if end == "low" else meld.low
            assert lay_off(meld, card, end, rules) == Meld(meld.kind, cards, low)
            grown += 1
        for index, joker in enumerate(meld.cards):
            if not joker.is_joker:
                continue
            for face in faces_standing_for(meld, index):
                natural = Card(face)
                made = swap_joker(meld, joker, natural, rules)
                assert made == Meld(meld.kind, (*meld.cards[:index], natural, *meld.cards[index + 1 :]), meld.low)
                swapped += 1
    assert grown > 20 and swapped > 0, (grown, swapped)


def test_written_inits_take_the_dataclass_arguments() -> None:
    """Meld, TableMeld, SeatView and Observation have written ``__init__`` methods (native when compiled): they take the
    fields by position or by name, refuse a missing one, and make frozen values equal to copies."""
    meld = _table_melds()[0]
    by_name = Meld(kind=meld.kind, cards=meld.cards, low=meld.low)
    assert by_name == meld and hash(by_name) == hash(meld)
    with pytest.raises(TypeError):
        Meld(meld.kind, meld.cards)  # type: ignore[call-arg]
    placed = TableMeld(owner=2, meld=meld)
    assert placed == TableMeld(2, meld) and hash(placed) == hash(TableMeld(2, meld))
    assert dataclasses.astuple(placed) == (2, dataclasses.astuple(meld))
    with pytest.raises(TypeError):
        TableMeld(2)  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        placed.owner = 0  # type: ignore[misc]
    view = SeatView(seat=1, hand_count=5, down=True, buys=2, known=(Card(3),), announced=False)
    assert view == SeatView(1, 5, True, 2, (Card(3),), False)
    assert dataclasses.astuple(view) == (1, 5, True, 2, (Card(3),), False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.buys = 0  # type: ignore[misc]
    state = run_game(PRESETS["liverpool"], [random_bot] * 4, random.Random(3))
    seen = observe(state, 2)
    values = {f.name: getattr(seen, f.name) for f in dataclasses.fields(Observation)}
    assert Observation(**values) == seen == Observation(*values.values())
    with pytest.raises(TypeError):
        Observation(*list(values.values())[:-1])
    with pytest.raises(dataclasses.FrozenInstanceError):
        seen.turn = 0  # type: ignore[misc]
