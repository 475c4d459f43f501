"""A table's observations as clients are sent them, converting what a game only appends to once.

Every action, the actor sends each view (each seat's, the spectators') its observation as
:meth:`~liverpool.engine.Observation.to_client_dict` gives it. Most of that dict is the same from one
action to the next: the ``results`` of every ended deal (their hands and labelled melds, more than half
the bytes late in a game) change only when a deal ends, and the deal's ``pile_log`` only grows by a line.
Converting them again each time cost most of the CPU of an action on a busy server (docs/performance.md,
"Server load"). :class:`ClientViews` keeps the converted ``results`` and ``pile_log`` of the last
observation and converts only what is new: the engine is handed a copy of the observation without the
results already converted and with only the new lines of the pile log, and the parts kept are put back.
What comes out equals ``to_client_dict`` of the whole observation (``tests/server/test_views.py``).

The parts kept are the engine's own conversion of the same values (compared with ``==``), and neither
depends on the viewer, so one :class:`ClientViews` serves every view of a table. The lists it hands out
are shared between the dicts it returns: they must be read, not changed (the actor only diffs and
encodes them).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from liverpool.engine import Observation, PileLog

__all__ = ["ClientViews"]


class ClientViews:
    def __init__(self) -> None:
        self._results: tuple[Any, ...] = ()
        self._results_out: list[Any] = []
        self._pile = PileLog.of(())
        self._pile_out: list[Any] = []

    def client_dict(self, observation: Observation) -> dict[str, Any]:
        """``observation.to_client_dict()``, converting only the results and pile-log lines not seen before."""
        results, pile = observation.results, observation.pile_log
        kept_results = bool(results) and results == self._results
        kept = len(self._pile) if 0 < len(self._pile) <= len(pile) and pile[: len(self._pile)] == self._pile else 0
        if kept_results or kept:
            observation = replace(
                observation, results=() if kept_results else results, pile_log=PileLog.of(pile[kept:])
            )
        out = observation.to_client_dict()
        if kept_results:
            out["results"] = self._results_out
        else:
            self._results, self._results_out = results, out["results"]
        if kept:
            out["pile_log"] = [*self._pile_out, *out["pile_log"]]
        self._pile, self._pile_out = pile, out["pile_log"]
        return out
