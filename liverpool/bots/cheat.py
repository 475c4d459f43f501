"""``cheat``: ``hard``'s search with every hand known, for measurement only.

A cheating bot plays exactly the search of :class:`~.hard.HardBot` (the same shortlist, budget, race and
``medium`` rollouts), but each world it searches holds every hand as it really is; only the order of the
stock stays unknown (:func:`~.worlds.known_world`). Cheating minus ``hard`` is therefore the most that
better inference about hidden cards could win this search (``docs/bots.md``).

It reads the live game state, which no bot may: it is not in :mod:`.registry`, so the server, the lobby,
the terminal client, ``liverpool play`` and the RL env, which make their bots by name there, refuse the
name. Only the tournament runner (:mod:`liverpool.tournament.games`) seats it, binding its :class:`Truth`
to the game it plays through the driver's ``before`` hook.
"""

from __future__ import annotations

import random

from liverpool.engine import Action, GameState, Observation

from .hard import HardBot
from .worlds import known_world

NAME = "cheat"


class Truth:
    """The live state of one game, for the cheating bots seated at it; :meth:`see` is the driver's
    ``before`` hook (:func:`~liverpool.engine.play.run_game` calls it before every action, a deal's shuffle
    first, with the state it changes in place)."""

    def __init__(self) -> None:
        self.state: GameState | None = None

    def see(self, state: GameState, action: Action) -> None:
        self.state = state

    def world(self, observation: Observation, rng: random.Random) -> GameState:
        """The world of ``observation`` with the live hands and the stock shuffled."""
        if self.state is None:
            raise ValueError("a cheating bot was asked to decide before its game's state was bound to it")
        return known_world(observation, self.state, rng)


def make_cheat(truth: Truth) -> HardBot:
    """A cheating bot reading ``truth``: ``hard`` at its default budget, worlds drawn by ``truth``."""
    return HardBot(sample=truth.world)
