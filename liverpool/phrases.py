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
YOU = "you"
"""The terminal client's default name for its player, who is then spoken to (see :func:`english`)."""
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


def english(phrase: Phrase, names: list[str], you: int | None = None) -> str:
    """``phrase`` in English, each seat said by its name in ``names`` and cards as ``7♥`` (a joker ``JK``).

    ``you``: the seat spoken to, whose name is "you" (the terminal client's player): its sentences are said
    in the second person ("you discard 7♥", "on your set").

    >>> from liverpool.engine import Card
    >>> mine = Phrase("log.lay_off.set", {"name": Seat(0), "card": Card.parse("7H"), "owner": Seat(1)})
    >>> print(english(mine, ["you", "Bob"], you=0))
    you lay off 7♥ on Bob's set
    >>> theirs = Phrase("log.lay_off.set", {"name": Seat(1), "card": Card.parse("7H"), "owner": Seat(0)})
    >>> print(english(theirs, ["you", "Bob"], you=0))
    Bob lays off 7♥ on your set
    """
    return say(phrase, names, english_messages(), lambda count: "one" if count == 1 else "other", you)


Messages = Mapping[str, str | dict[str, str]]
Plural = Callable[[int], str]


def say(phrase: Phrase, names: list[str], messages: Messages, plural: Plural, you: int | None = None) -> str:
    """``phrase`` with ``messages`` (a catalogue), as the browser's ``t`` fills a message: ``plural(count)``
    names the form a message with plural forms takes; a placeholder without a parameter stays as it is.
    ``you``: the seat spoken to, in English only (see :func:`english`)."""
    message = messages[phrase.key]
    if isinstance(message, dict):
        count = phrase.params.get("count", 0)
        message = message.get(plural(int(count) if isinstance(count, int) else 0), message["other"])
    if you is not None:
        message = _to_you(phrase, message, you)
    words = {name: _value_text(value, names, messages, plural, you) for name, value in phrase.params.items()}
    return PLACEHOLDER.sub(lambda m: words.get(m.group(1), m.group(0)), message)


# The English messages whose subject may be the seat spoken to, by catalogue key: the words as en.json has
# them (third person) and as they are said to that seat (tests/ui/test_you.py checks each against en.json).
SECOND_PERSON: dict[str, tuple[str, str]] = {
    "log.shuffle": ("{dealer} deals", "{dealer} deal"),
    "log.draw_stock": ("{name} draws", "{name} draw"),
    "log.draw_discard": ("{name} takes", "{name} take"),
    "log.buy": ("{name} asks", "{name} ask"),
    "log.pass": ("{name} passes", "{name} pass"),
    "log.go_down": ("{name} goes", "{name} go"),
    "log.lay_off.set": ("{name} lays", "{name} lay"),
    "log.lay_off.run": ("{name} lays", "{name} lay"),
    "log.swap_joker.set": ("{name} swaps", "{name} swap"),
    "log.swap_joker.run": ("{name} swaps", "{name} swap"),
    "log.discard": ("{name} discards", "{name} discard"),
    "log.end_turn": ("{name} ends", "{name} end"),
    "log.call_rummy": ("{name} calls", "{name} call"),
    "log.call_liverpool": ("{name} calls Liverpool and sheds", "{name} call Liverpool and shed"),
    "log.bought": ("{name} gets", "{name} get"),
    "log.bought_penalty": ("{name} gets", "{name} get"),
    "log.took_back": ("{name} takes", "{name} take"),
}


def _to_you(phrase: Phrase, message: str, you: int) -> str:
    """``message`` with the seat ``you`` spoken to: "{owner}'s" of that seat becomes "your", and the verbs
    of a sentence whose subject it is take the second person."""
    for name, value in phrase.params.items():
        if isinstance(value, Seat) and value.seat == you:
            message = message.replace("{" + name + "}'s", "your")
    verbs = SECOND_PERSON.get(phrase.key)
    if verbs is not None:
        third, second = verbs
        subject = phrase.params.get(third[1 : third.index("}")])
        if isinstance(subject, Seat) and subject.seat == you:
            message = message.replace(third, second)
    return message


def _value_text(value: Value, names: list[str], messages: Messages, plural: Plural, you: int | None = None) -> str:
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
            return separator.join(say(item, names, messages, plural, you) for item in items)
        case Phrase():
            return say(value, names, messages, plural, you)
    return str(value)
