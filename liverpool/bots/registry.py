"""Bots by difficulty name. ``make_bot`` returns a fresh bot (fresh memory) for one game."""

from __future__ import annotations

from collections.abc import Callable

from liverpool.engine import Agent

from .easy import EasyBot
from .hard import HardBot
from .medium import MediumBot
from .random_bot import random_bot


def _random() -> Agent:
    return random_bot


FACTORIES: dict[str, Callable[[], Agent]] = {
    "random": _random,
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
}


class UnknownBot(ValueError):
    """A bot name that does not exist."""


def bot_names() -> list[str]:
    return list(FACTORIES)


def make_bot(name: str) -> Agent:
    """A new bot of difficulty ``name`` with fresh memory."""
    key = name.strip().lower()
    if key not in FACTORIES:
        raise UnknownBot(f"no bot named {name!r}; bots: {', '.join(FACTORIES)}")
    return FACTORIES[key]()
