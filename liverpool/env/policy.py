"""A linear softmax policy over :mod:`liverpool.env.liverpool_v0`'s encoding, and a bot that plays it.

The policy scores each action in the mask with ``b[a] + W[a] . x`` (``x`` the observation array, scaled by
``scale``) and samples from the softmax over the masked actions (or takes the best with ``greedy``). It is what
``examples/train.py`` trains; :class:`PolicyBot` plays it at a table of the engine's agents (the arena's
duplicate deals, ``run_game``), choosing its going-down one meld shape a step as the environment does.

>>> import numpy as np
>>> policy = LinearPolicy.zeros(actions=4, features=2)
>>> float(policy.probabilities(np.zeros(2, np.float32), np.array([0, 2])).sum())
1.0
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from liverpool.engine import Action, GoDown, Observation, Phase, find_preset

from . import encoding as enc

Floats = npt.NDArray[np.float32]
Indices = npt.NDArray[np.int64]


@dataclass
class LinearPolicy:
    """``weights`` (actions x features) and ``bias`` (actions); ``preset`` and ``seats`` name the layout."""

    weights: Floats
    bias: Floats
    scale: Floats
    preset: str = "liverpool"
    seats: int = 4

    @staticmethod
    def zeros(actions: int, features: int, preset: str = "liverpool", seats: int = 4) -> LinearPolicy:
        """The uniform policy over the mask, with every feature scaled by 1."""
        return LinearPolicy(
            np.zeros((actions, features), np.float32),
            np.zeros(actions, np.float32),
            np.ones(features, np.float32),
            preset,
            seats,
        )

    def logits(self, x: Floats, legal: Indices) -> Floats:
        out: Floats = self.weights[legal] @ (x * self.scale) + self.bias[legal]
        return out

    def probabilities(self, x: Floats, legal: Indices) -> Floats:
        """The softmax over ``legal`` (action indices) of their scores."""
        z = self.logits(x, legal)
        z = np.exp(z - z.max())
        p: Floats = z / z.sum()
        return p

    def choose(self, x: Floats, legal: Indices, rng: random.Random, greedy: bool = False) -> int:
        """An action index from ``legal``: sampled with ``rng``, or the most likely with ``greedy``."""
        p = self.probabilities(x, legal)
        if greedy:
            return int(legal[int(np.argmax(p))])
        at = int(np.searchsorted(np.cumsum(p), rng.random() * float(p.sum()), side="right"))
        return int(legal[min(at, len(legal) - 1)])

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            weights=self.weights,
            bias=self.bias,
            scale=self.scale,
            preset=np.array(self.preset),
            seats=np.array(self.seats),
        )

    @staticmethod
    def load(path: Path) -> LinearPolicy:
        """A policy saved by :meth:`save`; refuses one whose sizes do not fit its preset and seats."""
        with np.load(path) as data:
            policy = LinearPolicy(
                data["weights"].astype(np.float32),
                data["bias"].astype(np.float32),
                data["scale"].astype(np.float32),
                str(data["preset"]),
                int(data["seats"]),
            )
        layout = enc.Layout.of(find_preset(policy.preset), policy.seats)
        expected = (layout.actions, layout.observation_size)
        if policy.weights.shape != expected or policy.bias.shape != (layout.actions,):
            raise ValueError(
                f"{path}: weights {policy.weights.shape} do not fit {policy.preset} with {policy.seats} seats "
                f"(actions x features {expected})"
            )
        return policy


class PolicyBot:
    """An engine agent (``agent(observation, options, rng)``) that plays a :class:`LinearPolicy`."""

    def __init__(self, policy: LinearPolicy, greedy: bool = False) -> None:
        self.policy = policy
        self.greedy = greedy
        self.layout = enc.Layout.of(find_preset(policy.preset), policy.seats)

    def __call__(self, observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        assert observation.viewer is not None
        going_downs = [a for a in options if isinstance(a, GoDown)]
        may_decline = observation.phase is Phase.DRAW and observation.viewer != observation.current
        pending: list[int] = []
        while True:
            table = enc.choices(self.layout, options, going_downs, pending, may_decline)
            x = enc.encode_observation(self.layout, observation, pending)
            chosen = table[self.policy.choose(x, np.fromiter(table, np.int64), rng, self.greedy)]
            if not isinstance(chosen, tuple):
                return chosen
            pending = list(chosen)
