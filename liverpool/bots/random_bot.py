"""``random``: uniform over legal actions, except that it always goes down and lays off when it can.

Out of turn it takes a chance (a May I or a call) about one time in four; in a buy window it buys
or passes at random.
"""

from __future__ import annotations

import random

from liverpool.engine import Action, Buy, Call, GoDown, LayOff, Observation


def random_bot(observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
    going_down = [a for a in options if isinstance(a, GoDown)]
    if going_down:
        return rng.choice(going_down)
    laying_off = [a for a in options if isinstance(a, LayOff)]
    if laying_off:
        return rng.choice(laying_off)
    if observation.viewer != observation.current and all(isinstance(a, Buy | Call) for a in options):
        return rng.choice(options) if rng.random() < 0.25 else None
    return rng.choice(options)
