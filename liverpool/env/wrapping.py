"""PettingZoo's two wrappers of its classic environments, as :func:`liverpool.env.liverpool_v0.env` applies
them, with the same checks and errors but without their cost on every step.

``OrderEnforcingWrapper`` and ``AssertOutOfBoundsWrapper`` forward each attribute a loop reads
(``agent_selection``, ``terminations``, ...) through ``__getattr__``, which Python calls only after the normal
lookup has failed, once per wrapper: several of those a step cost about a fifth of a step of ``liverpool_v0``
(measured in docs/rl.md). Here those attributes are properties that read the unwrapped environment, refused
before ``reset`` exactly as ``OrderEnforcingWrapper`` refuses them, and the bounds check of ``step`` reads the
unwrapped environment too; so do ``last``, ``observe`` and the agent iterator, after the wrapper's own checks
(``tests/bots/test_env_fast.py`` plays them beside PettingZoo's own wrappers).
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

# What OrderEnforcingWrapper refuses before reset, and what it forwards at any time.
_GUARDED = ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos")
_OPEN = ("_cumulative_rewards",)


def _forward(name: str, guarded: bool) -> property:
    def get(self: OrderEnforcing) -> Any:
        if guarded and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    return property(get, doc=f"The unwrapped environment's ``{name}``.")


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # PettingZoo is untyped
    """``OrderEnforcingWrapper`` whose hot attributes are read from the unwrapped environment directly."""

    def __init__(self, env: AECEnv[Any, Any, Any]) -> None:
        super().__init__(env)
        self._raw = env.unwrapped

    def __str__(self) -> str:
        return str(self.env)  # as OrderEnforcingWrapper's own prints itself

    def observe(self, agent: Any) -> Any:
        """As ``OrderEnforcingWrapper.observe`` (refused before ``reset``), then the unwrapped environment's: the
        layer between (``AssertOutOfBounds``) forwards ``observe`` unchanged."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._raw.observe(agent)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable[Any, Any, Any]:
        """As ``OrderEnforcingWrapper.agent_iter``, with an iterator that reads the unwrapped environment."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Iterable(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last`` of the unwrapped environment, which reads the same agent, observation and dictionaries
        the wrapped one reads through the forwarding properties (and refused before ``reset`` with the same
        ``AttributeError`` as the ``agent_selection`` it reads first)."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self._raw.last(observe)  # type: ignore[no-any-return]


class _Iterable(AECOrderEnforcingIterable):  # type: ignore[misc]  # PettingZoo is untyped
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):  # type: ignore[misc]  # PettingZoo is untyped
    """``AECOrderEnforcingIterator`` (stop when no agent is left or after ``max_iter``; refuse a second
    ``next`` without a ``step`` between) reading ``agents`` and ``agent_selection`` from the unwrapped
    environment (the wrapper's are forwarding properties)."""

    def __next__(self) -> Any:
        env = self.env
        raw = env._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        agent = raw.agent_selection
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return agent


for _name in _GUARDED:
    setattr(OrderEnforcing, _name, _forward(_name, guarded=True))
for _name in _OPEN:
    setattr(OrderEnforcing, _name, _forward(_name, guarded=False))


class AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]  # PettingZoo is untyped
    """``AssertOutOfBoundsWrapper`` whose check reads the unwrapped environment directly, and answers a Python
    ``int`` inside ``Discrete(n)`` (``start`` 0) without Gymnasium's ``Discrete.contains`` (about 5 µs a call,
    with NumPy's dtype checks): ``contains`` accepts every such ``int``, and anything else still goes to it."""

    def __init__(self, env: AECEnv[Any, Any, Any]) -> None:
        super().__init__(env)
        self._raw = env.unwrapped
        self._sizes: dict[Any, int] = {}
        for agent in self._raw.possible_agents:
            space = self._raw.action_space(agent)
            if type(space) is spaces.Discrete and int(space.start) == 0:
                self._sizes[agent] = int(space.n)

    def step(self, action: Any) -> None:
        raw = self._raw
        agent = raw.agent_selection
        if not (type(action) is int and 0 <= action < self._sizes.get(agent, 0)):
            assert (action is None and (raw.terminations[agent] or raw.truncations[agent])) or raw.action_space(
                agent
            ).contains(action), "action is not in action space"
        self.env.step(action)
