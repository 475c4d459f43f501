"""Game states, melds, results and observations pickle and come back equal, in the pure and (through
``tests/engine/test_compiled.py``) the compiled build: a process pool or a Ray worker can carry them."""

from __future__ import annotations

import copy
import pickle
import random

from liverpool.bots.registry import make_bot
from liverpool.engine.observe import observe
from liverpool.engine.play import run_game
from liverpool.engine.rules.presets import PRESETS
from liverpool.engine.state import GameState


def _halfway(preset: str, seed: int) -> GameState:
    """A game stopped at its third deal once melds are on the table."""
    stop: list[GameState] = []

    class Stop(Exception):
        pass

    def before(state: GameState, _: object) -> None:
        if state.deal == 2 and state.melds and len(state.results) == 2:
            stop.append(state)
            raise Stop

    try:
        run_game(PRESETS[preset], [make_bot("easy") for _ in range(4)], random.Random(seed), before=before)
    except Stop:
        return stop[0]
    raise AssertionError("the game never had melds on the table in its third deal")


def test_values_of_a_game_pickle_and_come_back_equal() -> None:
    state = _halfway("liverpool", 3)
    values = [state.melds[0].meld, state.melds[0], state.results[0], observe(state, 0), observe(state, None)]
    for value in values:
        again = pickle.loads(pickle.dumps(value))
        assert again == value and hash(again) == hash(value) and type(again) is type(value)
        assert copy.deepcopy(value) == value
    again_state = pickle.loads(pickle.dumps(state))
    assert again_state.history == state.history and again_state.melds == state.melds
    assert observe(again_state, 1) == observe(state, 1)
