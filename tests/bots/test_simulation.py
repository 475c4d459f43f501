"""Random simulation, in the spirit of OpenSpiel's: every preset, 3 to 8 seats, whole games of random
legal play, with invariants checked at every step (RULES.md §4: each preset plays a whole game)."""

from __future__ import annotations

import random

import pytest

from liverpool.bots.random_bot import random_bot
from liverpool.engine.actions import (
    Action,
    Buy,
    Call,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    LayOff,
    Pass,
    SwapJoker,
)
from liverpool.engine.errors import IllegalAction
from liverpool.engine.game.core import apply
from liverpool.engine.game.legal import is_chance, legal_actions
from liverpool.engine.game.verify import shoe
from liverpool.engine.observe import observe
from liverpool.engine.play import run_game
from liverpool.engine.record import GameRecord, replay, snapshot
from liverpool.engine.rules.presets import PRESETS
from liverpool.engine.state import GameState, Phase

pytestmark = pytest.mark.slow  # `make test-quick` leaves these out; `make test` runs them

CASES = [
    (name, seats)
    for name, rules in PRESETS.items()
    for seats in range(rules.min_players, min(rules.max_players, 8) + 1)
]
GAMES_PER_CASE = 2


def _unlisted_samples(state: GameState, rng: random.Random, listed: set[Action]) -> list[Action]:
    cards = list(shoe(state))
    seat = rng.randrange(state.seats)
    candidates: list[Action] = [
        DrawStock(seat),
        DrawDiscard(seat),
        DrawDiscard(seat, rng.randint(2, 5)),
        Buy(seat),
        Pass(seat),
        Discard(seat, rng.choice(cards)),
        EndTurn(seat),
        _random_lay_off(state, seat, rng, cards),
        Call(seat, rng.choice([None, rng.choice(cards)])),
    ]
    if state.melds:
        meld = rng.randrange(len(state.melds))
        jokers = [c for c in state.melds[meld].meld.cards if c.is_joker] or [rng.choice(cards)]
        candidates.append(SwapJoker(seat, rng.choice(cards), meld, rng.choice(jokers)))
    return [a for a in candidates if a not in listed]


def _random_lay_off(state: GameState, seat: int, rng: random.Random, cards: list) -> LayOff:
    index = rng.randrange(len(state.melds) + 1)
    is_set = index < len(state.melds) and state.melds[index].meld.kind.value == "set"
    return LayOff(seat, rng.choice(cards), index, None if is_set else rng.choice(["low", "high"]))


def _check_cards(state: GameState) -> None:
    if not state.hands or state.phase in (Phase.DEAL, Phase.GAME_OVER):
        return
    assert sorted(state.all_cards()) == sorted(shoe(state)), "a card is missing or in two places"


def _check_observations(state: GameState) -> None:
    hidden_stock = set(state.stock)
    for viewer in [None, *range(state.seats)]:
        obs = observe(state, viewer)
        visible = obs.visible_cards()
        assert not visible & hidden_stock, "an observation shows a stock card"
        for other in range(state.seats):
            if other == viewer:
                continue
            secret = set(state.hands[other]) - set(state.known[other])
            assert not visible & secret, f"seat {viewer} sees a hidden card of seat {other}"
        assert obs.stock_size == len(state.stock) or state.phase in (Phase.DEAL, Phase.GAME_OVER)


@pytest.mark.parametrize(("preset", "seats"), CASES)
def test_random_games_keep_every_invariant(preset: str, seats: int) -> None:
    rules = PRESETS[preset]
    rng = random.Random(f"{preset}-{seats}")
    checker = random.Random(7)
    for game in range(GAMES_PER_CASE):

        def check(state: GameState, action: Action) -> None:
            _check_cards(state)
            if is_chance(state):
                return
            listed = legal_actions(state)
            assert action in listed or action.seat is None
            before = snapshot(state)
            for option in checker.sample(listed, min(3, len(listed))):
                apply(state.clone(), option)
            for option in _unlisted_samples(state, checker, set(listed)):
                with pytest.raises(IllegalAction):
                    apply(state, option)
                assert snapshot(state) == before, f"refused {option!r} changed the state"
            _check_observations(state)

        state = run_game(rules, [random_bot] * seats, rng, before=check, max_steps=100_000)
        assert state.is_over and state.winners
        assert len(state.results) >= len(rules.deals)
        record = GameRecord.of(state)
        text = record.to_json()
        again = replay(GameRecord.from_json(text))
        assert snapshot(again) == snapshot(state)
        assert GameRecord.of(again).to_json() == text, f"game {game}: record differs after replay"
