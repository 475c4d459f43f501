"""A table's clocks besides the buy window: the pause under a deal's summary and the turn clock.

Between two deals the actor holds the next deal's shuffle (a :class:`Pause`) until every seat whose player
is connected has pressed Next deal, or until the table's ``next_deal_timeout_s`` runs out. While it holds,
the game is in its ``deal`` phase: no buy window, turn clock or bot runs. A :class:`TurnClock` times the
turn in play (from the server's clock); with the table's ``turn_limit_s`` the away bot plays a turn that
outlasts it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from liverpool.engine import GameState, Phase

TurnKey = tuple[int, int, int]  # deal, turn, seat


def between_deals(state: GameState) -> bool:
    """Whether a deal has just ended and the next one is not dealt yet."""
    return state.phase is Phase.DEAL and bool(state.results)


def turn_key(state: GameState) -> TurnKey | None:
    """The turn in play (a buy window belongs to the turn of the seat about to draw), or None between deals."""
    if state.phase not in (Phase.DRAW, Phase.BUY, Phase.PLAY):
        return None
    return (state.deal, state.turn, state.current)


@dataclass
class Pause:
    """The summary of the deal that ended with action ``seq``: the next deal waits for ``ends_at``
    (the event loop's clock) or for every connected player to be ``ready``."""

    seq: int
    ends_at: float
    handle: asyncio.TimerHandle
    ready: set[int] = field(default_factory=set)
    over: bool = False

    def view(self, now: float, waiting: list[int]) -> dict[str, Any]:
        return {"deadline": round(max(0.0, self.ends_at - now), 1), "ready": sorted(self.ready), "waiting": waiting}


@dataclass
class TurnClock:
    """The turn ``key``, begun at ``started`` (the event loop's clock); ``expired`` once its limit ran out
    (the away bot then plays the rest of it)."""

    key: TurnKey
    started: float
    handle: asyncio.TimerHandle | None = None
    expired: bool = False

    def view(self, now: float, limit_s: int) -> dict[str, Any]:
        """``left`` is the time left to a human seat under a limit (None without one, or for a bot's turn)."""
        elapsed = now - self.started
        left = None if self.handle is None else round(max(0.0, limit_s - elapsed), 1)
        return {"seat": self.key[2], "elapsed": round(elapsed, 1), "left": left, "expired": self.expired}
