"""Sentences as catalogue keys and parameters, so that each client can say them in its own language.

A :class:`Phrase` is a key of the browser's message catalogues (``liverpool/server/static/i18n/<code>.json``,
docs/i18n.md) and the values its ``{placeholders}`` are filled from: numbers, a :class:`Seat` (said as the
seat's name), a card or cards (said in card notation with suit symbols), another phrase, or a
:class:`Listed` row of phrases. :meth:`Phrase.to_dict` is what the server sends; :func:`english` says a
phrase with the English catalogue, the same messages the browser's English pages use, for the log
files, the terminal client and every other English text.

>>> from liverpool.engine import Card
>>> line = Phrase("log.discard", {"name": Seat(1), "card": Card.parse("7H")})
>>> line.to_dict()
{'key': 'log.discard', 'params': {'name': {'seat': 1}, 'card': {'card': '7H'}}}
>>> english(line, ["Ada", "Bob"])
'Bob discards 7♥'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from liverpool.engine import Card

ENGLISH_CATALOGUE = Path(__file__).resolve().parent / "server" / "static" / "i18n" / "en.json"


@dataclass(frozen=True)
class Seat:
    """A seat, said as its name (each client names seats its own way: a bot's name is translated)."""

    seat: int


@dataclass(frozen=True)
class Listed:
    """Phrases said one after the other, joined by the message ``join`` (``list.comma``: ", ")."""

    items: tuple[Phrase, ...]
    join: str


@dataclass(frozen=True)
class Phrase:
    """The catalogue message ``key`` filled from ``params``. A message with plural forms picks one by the
    parameter ``count``."""

    key: str
    params: Mapping[str, Value] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The phrase as the server sends it: ``{"key", "params"}``, each parameter a number, ``{"seat"}``,
        ``{"card"}``, ``{"cards"}``, a phrase, or ``{"list", "join"}`` (docs/protocol.md)."""
        return {"key": self.key, "params": {name: _value_dict(value) for name, value in self.params.items()}}

    def keys(self) -> set[str]:
        """Every catalogue key this phrase needs: its own and those of the phrases in its parameters."""
        found = {self.key}
        for value in self.params.values():
            if isinstance(value, Phrase):
                found |= value.keys()
            elif isinstance(value, Listed):
                found.add(value.join)
                for item in value.items:
                    found |= item.keys()
        return found


Value = int | Card | tuple[Card, ...] | Seat | Listed | Phrase
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _value_dict(value: Value) -> Any:
    match value:
        case Card():
            return {"card": str(value)}
        case tuple():
            return {"cards": [str(card) for card in value]}
        case Seat(seat=seat):
            return {"seat": seat}
        case Listed(items=items, join=join):
            return {"list": [item.to_dict() for item in items], "join": join}
        case Phrase():
            return value.to_dict()
    return value


@cache
def english_messages() -> dict[str, str | dict[str, str]]:
    """The English catalogue (``en.json``)."""
    messages: dict[str, str | dict[str, str]] = json.loads(ENGLISH_CATALOGUE.read_text(encoding="utf-8"))
    return messages


def english(phrase: Phrase, names: list[str]) -> str:
    """``phrase`` in English, each seat said by its name in ``names`` and cards as ``7♥`` (a joker ``JK``)."""
    return say(phrase, names, english_messages(), lambda count: "one" if count == 1 else "other")


Messages = Mapping[str, str | dict[str, str]]
Plural = Callable[[int], str]


def say(phrase: Phrase, names: list[str], messages: Messages, plural: Plural) -> str:
    """``phrase`` with ``messages`` (a catalogue), as the browser's ``t`` fills a message: ``plural(count)``
    names the form a message with plural forms takes; a placeholder without a parameter stays as it is."""
    message = messages[phrase.key]
    if isinstance(message, dict):
        count = phrase.params.get("count", 0)
        message = message.get(plural(int(count) if isinstance(count, int) else 0), message["other"])
    words = {name: _value_text(value, names, messages, plural) for name, value in phrase.params.items()}
    return PLACEHOLDER.sub(lambda m: words.get(m.group(1), m.group(0)), message)


def _value_text(value: Value, names: list[str], messages: Messages, plural: Plural) -> str:
    match value:
        case Card():
            return value.pretty()
        case tuple():
            return " ".join(card.pretty() for card in value)
        case Seat(seat=seat):
            return names[seat]
        case Listed(items=items, join=join):
            separator = messages[join]
            assert isinstance(separator, str)
            return separator.join(say(item, names, messages, plural) for item in items)
        case Phrase():
            return say(value, names, messages, plural)
    return str(value)
