"""A bot's style: how readily it buys and how early it goes down, apart from how well it plays.

``balanced`` is the play each level had before styles existed. ``aggressive`` buys more readily (and goes
down as soon as it can, as ``balanced`` does); ``cautious`` buys less and, while nobody else is down,
waits to go down when going down would leave many cards stuck in hand. Each level reads its style in its
own terms (:class:`~.easy.EasyBot`, :class:`~.medium.MediumBot`; :class:`~.hard.HardBot` through its
guide and rollouts).
"""

from __future__ import annotations

from enum import StrEnum


class Style(StrEnum):
    CAUTIOUS = "cautious"
    BALANCED = "balanced"
    AGGRESSIVE = "aggressive"
