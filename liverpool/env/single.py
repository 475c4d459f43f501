"""A Gymnasium single-agent view of :mod:`liverpool.env.liverpool_v0`: one seat learns, the others are bots.

>>> from liverpool.env.single import LiverpoolSingleEnv
>>> env = LiverpoolSingleEnv(preset="liverpool", seats=3, opponents="random")
>>> obs, info = env.reset(seed=3)
>>> bool(obs["action_mask"].sum() == info["action_mask"].sum() > 0)
True

The other seats are bots made with :func:`liverpool.bots.registry.make_bot` (``random``, ``easy``, ``medium``,
``hard``), fresh at each reset, drawing their randomness from the reset's seed. A step is one action of the
learning seat, followed by every bot action up to the learner's next decision or the end of the game; its
reward is the learner's reward from the AEC environment over that span (minus its deal penalty points).

An action outside the mask ends the episode (``terminated``) with reward ``illegal_reward`` and
``info["illegal"]`` holding the reason, unless ``raise_illegal=True``, where it raises as the AEC env does.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from liverpool.bots.registry import make_bot
from liverpool.engine import Action, legal_actions, observe

from .liverpool_v0 import raw_env

Obs = dict[str, npt.NDArray[Any]]


class LiverpoolSingleEnv(gymnasium.Env[Obs, np.int64]):
    """Seat ``seat`` against bots of strength ``opponents`` (one name, or a name per other seat)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium declares it an instance variable)

    def __init__(
        self,
        preset: str = "liverpool",
        seats: int = 4,
        opponents: str | list[str] = "random",
        seat: int = 0,
        illegal_reward: float = -1000.0,
        raise_illegal: bool = False,
        render_mode: str | None = None,
        going_down: str = "listed",
    ) -> None:
        self.aec = raw_env(
            preset=preset, seats=seats, render_mode="ansi" if render_mode else None, going_down=going_down
        )
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        others = [s for s in range(seats) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise ValueError(f"{len(others)} opponents needed, {len(names)} named")
        self.opponent_names = dict(zip(others, names, strict=True))
        for name in names:
            make_bot(name)  # refuses an unknown name now
        self.illegal_reward = illegal_reward
        self.raise_illegal = raise_illegal
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        self.aec.reset(seed=game_seed)
        self.bots = {s: make_bot(name) for s, name in self.opponent_names.items()}
        self.bot_rng = random.Random(game_seed + 1)
        self._run_bots()
        return self._obs(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if aec.terminations[self.agent]:
            raise ValueError("the episode is over: call reset()")
        index = int(action)
        if index not in aec.options(self.seat):
            if self.raise_illegal:
                aec.step(index)  # raises with the engine's reason
            try:
                aec._refuse(self.seat, index)
            except ValueError as refusal:
                info = self._info()
                info["illegal"] = str(refusal)
                return self._obs(), self.illegal_reward, True, False, info
        aec.step(index)
        reward = aec._cumulative_rewards[self.agent]
        reward += self._run_bots()
        return self._obs(), float(reward), bool(aec.terminations[self.agent]), False, self._info()

    def step_action(self, action: Action | None) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Like :meth:`step`, with an engine action (or ``DECLINE``, None, out of turn in the draw phase) instead
        of an index: for scripted or search-based learners. The engine validates it: an illegal action raises
        ``IllegalAction`` (a ``ValueError`` for a decline where the seat must act) and changes nothing."""
        aec = self.aec
        if aec.terminations[self.agent]:
            raise ValueError("the episode is over: call reset()")
        aec.play(action)
        reward = aec._cumulative_rewards[self.agent] + self._run_bots()
        return self._obs(), float(reward), bool(aec.terminations[self.agent]), False, self._info()

    def _run_bots(self) -> float:
        """Bots act until the learner must decide or the game ends; the learner's reward meanwhile."""
        aec = self.aec
        state = aec.state
        assert state is not None
        reward = 0.0
        while not aec.terminations[self.agent] and aec.agent_selection != self.agent:
            seat = aec.agent_name_mapping[aec.agent_selection]
            options = legal_actions(state, seat)
            choice = self.bots[seat](observe(state, seat), options, self.bot_rng)
            aec.play(choice)
            reward += aec.rewards[self.agent]
        return reward

    def _obs(self) -> Obs:
        return self.aec.observe(self.agent)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.aec.action_mask(self.seat)}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.aec.describe(self.seat)
