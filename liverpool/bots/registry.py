"""Bots by difficulty name, with their versions and styles. ``make_bot`` returns a fresh bot (fresh memory)
for one game.

:data:`VERSIONS` is the one place that says which version of each level plays: a level's number goes up
whenever its play changes (``docs/bots.md`` says when; ``tests/bots/test_bot_versions.py`` fails when
its choices on a seeded corpus change while the number stays). A *style* (:class:`Style`) says how
readily a bot buys and goes down, apart from its strength; :data:`STYLED` lists the levels that have one.
A bot *spec* names both, ``medium:aggressive`` (:func:`parse_spec`).
"""

from __future__ import annotations

from collections.abc import Callable

from liverpool.engine import Agent

from .easy import EasyBot
from .hard import HardBot
from .medium import MediumBot
from .random_bot import random_bot
from .style import Style


def _random(style: Style) -> Agent:
    return random_bot


FACTORIES: dict[str, Callable[[Style], Agent]] = {
    "random": _random,
    "easy": lambda style: EasyBot(style=style),
    "medium": lambda style: MediumBot(style=style),
    "hard": lambda style: HardBot(style=style),
}

# Each level's version: raise it whenever the level's play changes (any style), then write the digests
# again (``python -m liverpool.bots.fingerprint --write``).
VERSIONS: dict[str, int] = {"random": 1, "easy": 1, "medium": 1, "hard": 1}

# The levels a style means something for; the others play only ``balanced``.
STYLED: frozenset[str] = frozenset({"easy", "medium", "hard"})
STYLES: tuple[str, ...] = tuple(s.value for s in Style)
DEFAULT_STYLE = Style.BALANCED


class UnknownBot(ValueError):
    """A bot name that does not exist."""


class UnknownStyle(ValueError):
    """A style that does not exist, or that the level does not have."""


def bot_names() -> list[str]:
    return list(FACTORIES)


def _level(name: str) -> str:
    key = name.strip().lower()
    if key not in FACTORIES:
        raise UnknownBot(f"no bot named {name!r}; bots: {', '.join(FACTORIES)}")
    return key


def version_of(name: str) -> str:
    """The version of level ``name``, as stored with a table: ``medium/1``."""
    key = _level(name)
    return f"{key}/{VERSIONS[key]}"


def styles_of(name: str) -> tuple[str, ...]:
    """The styles level ``name`` plays (only ``balanced`` for a level without styles)."""
    return STYLES if _level(name) in STYLED else (DEFAULT_STYLE.value,)


def find_style(name: str, style: str | None) -> Style:
    """The style ``style`` of level ``name`` (None: ``balanced``); :class:`UnknownStyle` names the choices."""
    if style is None:
        return DEFAULT_STYLE
    allowed = styles_of(name)
    key = style.strip().lower()
    if key not in allowed:
        if key in STYLES:
            raise UnknownStyle(f"bot {name!r} has no style {style!r}: it plays only {', '.join(allowed)}")
        raise UnknownStyle(f"no style named {style!r}; styles: {', '.join(allowed)}")
    return Style(key)


def make_bot(name: str, style: str | None = None) -> Agent:
    """A new bot of difficulty ``name`` (in ``style``, default ``balanced``) with fresh memory."""
    key = _level(name)
    return FACTORIES[key](find_style(key, style))


def parse_spec(spec: str) -> tuple[str, Style]:
    """A bot spec, ``LEVEL`` or ``LEVEL:STYLE`` (``medium:aggressive``), as a level and a style; raises
    :class:`UnknownBot` or :class:`UnknownStyle` naming what is wrong."""
    name, _, style = spec.partition(":")
    key = _level(name)
    return key, find_style(key, style if style else None)


def make_spec(spec: str) -> Agent:
    """A new bot from a spec (:func:`parse_spec`)."""
    name, style = parse_spec(spec)
    return make_bot(name, style)


def seat_entry(seat: int, spec: str) -> dict[str, object]:
    """What a game record's ``meta.bot_versions`` says of a bot seat: its level, style and version now.

    >>> seat_entry(2, 'medium:aggressive')
    {'seat': 2, 'bot': 'medium', 'style': 'aggressive', 'version': 'medium/1'}
    """
    name, style = parse_spec(spec)
    return {"seat": seat, "bot": name, "style": style.value, "version": version_of(name)}


__all__ = [
    "DEFAULT_STYLE",
    "FACTORIES",
    "STYLED",
    "STYLES",
    "VERSIONS",
    "Style",
    "UnknownBot",
    "UnknownStyle",
    "bot_names",
    "find_style",
    "make_bot",
    "make_spec",
    "parse_spec",
    "seat_entry",
    "styles_of",
    "version_of",
]
