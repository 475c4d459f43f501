"""``observe`` builds its values the fast way (seat views reused while unchanged, fields written without
the dataclass ``__init__``, what all seats see read once per moment by an ``Observer``): what it returns must be
the very value the dataclasses would build, for every seat at every step, even when two tables take turns
(the reused views are shared by all tables)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from liverpool.bots.random_bot import random_bot
from liverpool.bots.registry import make_bot
from liverpool.engine.actions import Action
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.game.legal import is_chance, legal_actions
from liverpool.engine.observe import Observation, Observer, SeatView, observe
from liverpool.engine.play import chance_action, step
from liverpool.engine.rules.presets import PRESETS
from liverpool.engine.state import GameState, Phase


def _seat_views_by_hand(state: GameState) -> tuple[SeatView, ...]:
    """The seat views as the plain dataclass constructor makes them (the reference)."""
    in_deal = state.phase is not Phase.DEAL and state.phase is not Phase.GAME_OVER and bool(state.hands)
    announce = state.rules.announce_at

    def announced(s: int) -> bool:
        if not in_deal:
            return False
        count = len(state.hands[s])
        if not (announce > 0 and count <= announce):
            return False
        if not state.rules.announce_after_discard:
            return True
        mid_turn = state.phase is Phase.PLAY and s == state.current
        counts = state.turn_end_counts
        return not mid_turn and s < len(counts) and counts[s] == count

    return tuple(
        SeatView(
            seat=s,
            hand_count=len(state.hands[s]) if in_deal else 0,
            down=state.down[s] if in_deal else False,
            buys=state.buys[s] if in_deal else 0,
            known=tuple(state.known[s]) if in_deal else (),
            announced=announced(s),
        )
        for s in range(state.seats)
    )


def _check(state: GameState) -> None:
    expected_seats = _seat_views_by_hand(state)
    observer = Observer(state)  # one observer for every seat, as the game driver uses it
    for viewer in [None, *range(state.seats)]:
        obs = observe(state, viewer)
        assert observer.observe(viewer) == obs
        rebuilt = Observation(**{f.name: getattr(obs, f.name) for f in dataclasses.fields(Observation)})
        assert obs == rebuilt and hash(obs) == hash(rebuilt) and repr(obs) == repr(rebuilt)
        assert obs.seats == expected_seats
        # The results and totals are reused while a state holds the very same results: never stale.
        assert obs.results == tuple(state.results) and obs.totals == state.totals
        assert [hash(v) for v in obs.seats] == [hash(v) for v in expected_seats]
        with pytest.raises(dataclasses.FrozenInstanceError):
            obs.turn = -1  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            obs.seats[0].hand_count = -1  # type: ignore[misc]


def _step(state: GameState, rng: random.Random) -> None:
    if is_chance(state):
        apply(state, chance_action(state, rng))
        return
    options = legal_actions(state)
    seat = options[0].seat if options[0].seat is not None else state.current
    mine = [a for a in options if a.seat == seat]
    action = random_bot(observe(state, seat), mine, rng)
    apply(state, action if action is not None else mine[0])


def test_observations_equal_the_dataclass_values_while_two_tables_take_turns() -> None:
    tables = [
        (new_game(PRESETS["liverpool"], 4, 0), random.Random(1)),
        (new_game(PRESETS["british"], 6, 2), random.Random(2)),
    ]
    steps = 0
    while steps < 1500 and not all(state.is_over for state, _ in tables):
        for state, rng in tables:
            if not state.is_over:
                _check(state)
                _step(state, rng)
                steps += 1
    assert steps >= 1500
    assert all(state.results for state, _ in tables)  # both tables scored a deal: their totals were checked


def test_results_and_totals_follow_each_table_of_one_size() -> None:
    # Two tables of four seats take turns, so each one's observations follow the other's; the results and
    # totals reused from the last state observed must be those of the state observed now.
    tables = [(new_game(PRESETS["liverpool"], 4, s), random.Random(10 + s)) for s in range(2)]
    scored = 0
    for _ in range(4000):
        for state, rng in tables:
            if state.is_over:
                continue
            before = len(state.results)
            for viewer in (None, state.current):
                obs = observe(state, viewer)
                assert obs.results == tuple(state.results) and obs.totals == state.totals
            _step(state, rng)
            scored += len(state.results) > before
    assert scored >= 4  # deals ended on both tables while they were observed


@pytest.mark.parametrize(("preset", "seats"), [("liverpool", 6), ("british", 4), ("norsk", 5)])
def test_the_driver_shows_every_seat_asked_what_observe_shows(preset: str, seats: int) -> None:
    # play.step reuses the observer of a buy window for the next seat asked, with the window's answers
    # refreshed: each observation an agent gets must equal a fresh one of the state at that moment.
    state = new_game(PRESETS[preset], seats)
    rng = random.Random(7)
    answered = 0

    def agent(observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        nonlocal answered
        assert observation == observe(state, observation.viewer)
        answered += observation.phase is Phase.BUY and bool(observation.window_answers)
        return bots[observation.viewer or 0](observation, options, rng)

    bots = [make_bot("easy") for _ in range(seats)]
    while not state.is_over:
        step(state, [agent] * seats, rng)
    assert answered > 50  # seats asked after another seat answered in the same window


def test_a_buy_window_observer_is_not_reused_once_the_game_moved_on_without_the_driver() -> None:
    # The driver keeps a window's observer only while the state's history has not grown: here the game is
    # played past the window with apply (not step), to the next window, where the next step must not show
    # the old window's moment.
    state = new_game(PRESETS["liverpool"], 6)
    rng = random.Random(11)
    seen: list[bool] = []

    def agent(observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        seen.append(observation == observe(state, observation.viewer))
        return options[-1]  # a Pass in a window (after the Buy), else the last option

    windows = 0
    while not state.is_over and windows < 5:
        if state.phase is Phase.BUY and not state.window_answers and len(state.window) > 1:
            step(state, [agent] * 6, rng)  # one answer; the window stays open, its observer is kept
            while not state.is_over and state.phase is not Phase.PLAY:
                _step(state, rng)  # the game moves on through apply alone, out of the window
            while not state.is_over and not (state.phase is Phase.BUY and not state.window_answers):
                _step(state, rng)
            if not state.is_over:
                step(state, [agent] * 6, rng)
                windows += 1
        elif not state.is_over:
            _step(state, rng)
    assert windows == 5 and all(seen), seen
