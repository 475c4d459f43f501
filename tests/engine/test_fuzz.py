"""Engine fuzzing, a short slice (issue 26 item 15): ``make fuzz`` runs the long campaign of
:mod:`liverpool.fuzz`; here a seeded few thousand steps over every preset and table size, half of them
illegal or mutated, must find no violation. The engine bugs the fuzzer found are pinned below."""

from __future__ import annotations

import random
from typing import Any

import pytest

from liverpool import fuzz
from liverpool.engine.actions import Action, Buy, Discard, LayOff, Reshuffle, Shuffle, SwapJoker
from liverpool.engine.cards import Card
from liverpool.engine.errors import IllegalAction, MalformedAction
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.play import chance_action
from liverpool.engine.record import snapshot
from liverpool.engine.rules.presets import PRESETS, find_preset
from liverpool.engine.state import GameState


def test_a_short_campaign_over_every_preset_and_table_size_finds_no_violation() -> None:
    every = fuzz.cases()
    tally = fuzz.campaign(len(every) * 100, seed=26, game_steps=100)
    assert tally.violations == [], "\n".join(map(str, tally.violations))
    assert tally.games == len(every)
    assert {name for name, _ in every} == set(PRESETS)
    # About half of the steps try an illegal or mutated action, and the engine refuses nearly all of them.
    assert 0.4 < tally.illegal_tried / tally.actions < 0.6
    assert tally.refused + tally.codec_refused >= 0.9 * tally.illegal_tried
    assert set(tally.kinds) >= {*fuzz.MUTATORS, "codec"}


def test_the_cases_run_from_three_seats_to_each_presets_maximum() -> None:
    every = fuzz.cases()
    for name, rules in PRESETS.items():
        seats = sorted(n for preset, n in every if preset == name)
        expected = [4] if rules.partnerships else list(range(3, rules.max_players + 1))
        assert seats == expected


def test_the_fuzzer_reports_an_exception_other_than_illegal_action(monkeypatch: pytest.MonkeyPatch) -> None:
    real = fuzz.apply

    def leaky(state: GameState, action: Action) -> GameState:
        if isinstance(action, Discard) and state.hands and action.card not in [c for h in state.hands for c in h]:
            raise KeyError("boom")  # a discard of a card nobody holds, refused the wrong way
        return real(state, action)

    monkeypatch.setattr(fuzz, "apply", leaky)
    tally = fuzz.campaign(3000, seed=3, presets=["liverpool"], seats=4)
    assert tally.violations
    first = tally.violations[0]
    assert "KeyError" in first.problem and "not IllegalAction" in first.problem
    assert f"--seed 3 --preset liverpool --seats 4 --game {first.game}" in str(first)


def test_the_card_check_sees_a_card_in_two_places() -> None:
    state = new_game(find_preset("liverpool"), 4)
    apply(state, chance_action(state, random.Random(1)))
    assert fuzz.card_problem(state) is None
    state.hands[0].append(state.stock[0])
    problem = fuzz.card_problem(state)
    assert problem is not None and str(state.stock[0]) in problem


def test_the_observation_check_sees_a_leaked_card() -> None:
    state = new_game(find_preset("liverpool"), 4)
    apply(state, chance_action(state, random.Random(1)))
    assert fuzz.observation_problem(state) is None
    state.known[1].append(state.hands[2][0])  # seat 1 "shows" a card that seat 2 holds
    state.hands[1].append(state.hands[2][0])
    assert fuzz.observation_problem(state) is not None


# -- engine bugs the fuzzer found (each raised TypeError, or was accepted, before engine.game refused it) --

MISTYPED: list[Any] = [
    ("deal", lambda s: Shuffle(None, 0)),  # type: ignore[arg-type]
    ("deal", lambda s: Shuffle(1.5, 0)),  # type: ignore[arg-type]
    ("deal", lambda s: Shuffle(tuple(chance_action(s, random.Random(2)).deck), "0")),  # type: ignore[arg-type]
    ("play", lambda s: Reshuffle(None)),  # type: ignore[arg-type]
    ("play", lambda s: Buy(None)),  # type: ignore[arg-type]
    ("play", lambda s: LayOff(s.current, s.hands[s.current][0], None)),  # type: ignore[arg-type]
    ("play", lambda s: SwapJoker(s.current, s.hands[s.current][0], "0", Card.joker())),  # type: ignore[arg-type]
    # Refused on the pure build before too, but a TypeError on the compiled one (reading a typed field):
    ("play", lambda s: Buy("0")),  # type: ignore[arg-type]
    ("play", lambda s: Discard(1.5, s.hands[s.current][0])),  # type: ignore[arg-type]
    ("play", lambda s: LayOff(s.current, s.hands[s.current][0], 0, True)),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("when", "make"), MISTYPED)
def test_a_mistyped_action_is_refused_as_malformed_with_the_state_unchanged(when: str, make: Any) -> None:
    """STYLE.md §4: "an illegal action raises a specific error (a subclass of one IllegalAction(ValueError))
    ... and leaves the state unchanged" (found by ``make fuzz``: these raised TypeError, and ``Buy(None)``
    was accepted as a May I by nobody, after which drawing from the stock raised StopIteration)."""
    state = new_game(find_preset("may-i"), 4)
    if when == "play":
        apply(state, chance_action(state, random.Random(1)))
    action = make(state)
    before = snapshot(state)
    with pytest.raises(MalformedAction):
        apply(state, action)
    assert snapshot(state) == before


def test_chance_actions_still_have_no_seat_and_well_typed_ones_still_play() -> None:
    state = new_game(find_preset("may-i"), 4)
    apply(state, chance_action(state, random.Random(1)))
    with pytest.raises(IllegalAction):
        apply(state, Buy(state.current))  # the other side: a seated Buy is judged by the rules, not its shape
    assert Shuffle(()).seat is None and Reshuffle(()).seat is None
