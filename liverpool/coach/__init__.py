"""The coach: the ``hard`` bot's search turned to explaining one seat's options, and reviews of whole games.

It imports the engine and the bots only (never the server or a client), and it reads one seat's
:class:`~liverpool.engine.observe.Observation`, never a game state, so it cannot see hidden cards.

* :mod:`.advice`: :class:`Coach` ranks a seat's options over sampled worlds (expected deal points with a
  standard error, the acceptable set within two standard errors of the best);
* :mod:`.reasons`: one plain sentence of why, from what the seat can see;
* :mod:`.judge`: a decision's points lost beyond its standard error, as a :class:`Judgement`;
* :mod:`.review`: every decision of one seat in a game record, judged, with each stock draw's luck.
"""

from .advice import COACH_VERSION, Advice, Coach, OptionValue
from .judge import THRESHOLDS, Judgement, Thresholds, judge
from .reasons import describe, reason
from .review import Decision, DrawLuck, Review, review_record

__all__ = [
    "COACH_VERSION",
    "THRESHOLDS",
    "Advice",
    "Coach",
    "Decision",
    "DrawLuck",
    "Judgement",
    "OptionValue",
    "Review",
    "Thresholds",
    "describe",
    "judge",
    "reason",
    "review_record",
]
