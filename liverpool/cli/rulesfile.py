"""Rulesets as files and text: load a preset or a house-rules file, dump one as JSON or TOML, and
describe one field's value in words (for ``liverpool rules show`` and ``docs/rulesets.md``). Which fields
there are, their kinds, groups and docs come from the engine's field registry
(:func:`~liverpool.engine.rules.field_registry`).

A house-rules file is the dict form of :class:`~liverpool.engine.rules.ruleset.Ruleset` in JSON or TOML. It may
name a preset as ``base`` and change only some fields; fields it leaves out come from the base, or from
the defaults (the ``liverpool`` preset's rules) when there is none. A file that gives no ``name`` is
named after the file.

>>> load_ruleset('uk').name
'british'
>>> print(dump_ruleset(load_ruleset('contract'), 'toml').splitlines()[0])
name = "contract"
>>> load_ruleset('monopoly')
Traceback (most recent call last):
...
liverpool.engine.rules.presets.UnknownPreset: no preset named 'monopoly'; presets: may-i, liverpool, contract, norsk, british, british-9, british-fixed, british-nobuy; or give a path to a .json or .toml file
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from pathlib import Path
from typing import Any, Literal

import tomli_w

from liverpool.engine import (
    MISSING_NUMBER,
    DealOut,
    DealRule,
    FieldKind,
    MeldRule,
    Ruleset,
    RulesetError,
    UnknownPreset,
    encode_field,
    field_registry,
    find_preset,
)

RulesetFormat = Literal["json", "toml"]
FORMATS: dict[str, RulesetFormat] = {".json": "json", ".toml": "toml"}
FILE = "file"
"""The ``field`` of an error about the file as a whole (missing, unreadable, not JSON/TOML)."""


class RulesetFileError(RulesetError):
    """A ruleset file that cannot be read or holds an invalid ruleset; names the file and the field.

    >>> str(RulesetFileError(Path('house.toml'), 'buy_limit', 'cannot be negative'))
    'house.toml: buy_limit: cannot be negative'
    >>> str(RulesetFileError(Path('house.toml'), FILE, 'no such file'))
    'house.toml: no such file'
    """

    def __init__(self, path: Path, field_name: str, message: str) -> None:
        where = str(path) if field_name == FILE else f"{path}: {field_name}"
        ValueError.__init__(self, f"{where}: {' '.join(message.split())}")
        self.field = field_name
        self.path = path


# -- loading ---------------------------------------------------------------------------------------


def load_ruleset(spec: str) -> Ruleset:
    """A preset by name or alias, or the ruleset in a ``.json``/``.toml`` file at path ``spec``.

    Raises :class:`~liverpool.engine.rules.presets.UnknownPreset` for a name that is neither a preset nor a
    file, and :class:`RulesetFileError` for a file that cannot be read or is not a valid ruleset.
    """
    path = Path(spec)
    if path.suffix.lower() not in FORMATS:
        try:
            return find_preset(spec)
        except UnknownPreset as exc:
            if not path.exists():
                raise UnknownPreset(f"{exc}; or give a path to a .json or .toml file") from None
    return load_ruleset_file(path)


def load_ruleset_file(path: Path) -> Ruleset:
    """The ruleset in a ``.json`` or ``.toml`` file."""
    data = _read(path)
    try:
        ruleset = Ruleset.from_dict(data)
    except RulesetError as exc:
        raise RulesetFileError(path, exc.field, str(exc).removeprefix(f"{exc.field}: ")) from exc
    names: dict[str, Any] = {}
    if "name" not in data:
        names["name"] = path.stem
    if "title" not in data:
        on = f" on {find_preset(data['base']).name}" if "base" in data else ""
        names["title"] = f"House rules{on} ({path.name})"
    return dataclasses.replace(ruleset, **names) if names else ruleset


def _read(path: Path) -> dict[str, Any]:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise RulesetFileError(path, FILE, "expected a .json or .toml ruleset file")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RulesetFileError(path, FILE, "no such file") from None
    except UnicodeDecodeError as exc:
        raise RulesetFileError(path, FILE, f"not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise RulesetFileError(path, FILE, f"cannot read: {exc.strerror or exc}") from None
    data: Any
    if fmt == "json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RulesetFileError(
                path, FILE, f"not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
            ) from None
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise RulesetFileError(path, FILE, f"not valid TOML: {exc}") from None
    if not isinstance(data, dict):
        raise RulesetFileError(path, FILE, f"expected a table of ruleset fields, got {type(data).__name__}")
    return data


# -- dumping ---------------------------------------------------------------------------------------


def dump_ruleset(ruleset: Ruleset, fmt: RulesetFormat) -> str:
    """The file text of ``ruleset`` as JSON or TOML; loading it gives back an equal ruleset.

    In TOML, which has no null, a missing optional number is written ``"none"`` and each contract as
    one line such as ``"set 3, run 4"``.

    >>> text = dump_ruleset(load_ruleset('british-nobuy'), 'toml')
    >>> [line for line in text.splitlines() if line.startswith('buy_limit')]
    ['buy_limit = "none"']
    >>> Ruleset.from_dict(tomllib.loads(text)) == load_ruleset('british-nobuy')
    True
    """
    data = ruleset.to_dict()
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if fmt == "toml":
        for deal in data["deals"]:
            deal["contract"] = ", ".join(deal["contract"])
        return tomli_w.dumps({key: MISSING_NUMBER if value is None else value for key, value in data.items()})
    raise ValueError(f"unknown ruleset format {fmt!r}; expected json or toml")


# -- describing ------------------------------------------------------------------------------------


def format_value(ruleset: Ruleset, name: str) -> str:
    """One field of ``ruleset`` in words, written as a house-rules file would write it where it can.

    >>> r = load_ruleset('contract')
    >>> [format_value(r, f) for f in ('set_max_length', 'buy_limit', 'upcard', 'empty_hand', 'decks')]
    ['4', 'none', 'true', 'goes_out', '3 players: 1 deck, 1 joker; 4-5 players: 2 decks, 2 jokers']
    """
    info = _INFOS[name]
    value = getattr(ruleset, name)
    match info.kind:
        case FieldKind.DECKS:
            return describe_decks(ruleset)
        case FieldKind.DEALS:
            return "; ".join(
                f"{describe_contract(d.contract)} ({d.hand_size} cards{'' if d.out is DealOut.NORMAL else ', out: ' + d.out.value})"
                for d in value
            )
        case FieldKind.CARD_VALUES:
            return ", ".join(f"{k}={v}" for k, v in zip(info.choices, value, strict=True))
        case FieldKind.LINES:
            return f"{len(value)} notes"
        case FieldKind.OPTIONAL_INT if value is None:
            return MISSING_NUMBER
        case FieldKind.BOOL:
            return "true" if value else "false"
    return str(encode_field(info, value))


_INFOS = {info.name: info for info in field_registry()}


def describe_decks(ruleset: Ruleset, seats: str = " players") -> str:
    """The decks and jokers for each table size of ``ruleset``, ``seats`` naming the table sizes."""
    parts = []
    low = ruleset.min_players
    for rule in ruleset.decks:
        high = min(rule.max_players, ruleset.max_players)
        if high >= low:
            size = f"{low}" if low == high else f"{low}-{high}"
            parts.append(f"{size}{seats}: {plural(rule.decks, 'deck')}, {plural(rule.jokers, 'joker')}")
        low = max(low, high + 1)
    return "; ".join(parts)


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def describe_contract(contract: tuple[MeldRule, ...]) -> str:
    """A contract as a table says it.

    >>> describe_contract(load_ruleset('british').contract(6))
    '1 run of 7'
    >>> describe_contract(load_ruleset('may-i').contract(4))
    '2 sets of 3 + 1 run of 4'
    """
    counts: dict[MeldRule, int] = {}
    for meld in contract:
        counts[meld] = counts.get(meld, 0) + 1
    return " + ".join(f"{plural(n, meld.kind.value)} of {meld.length}" for meld, n in counts.items())


def min_cards(deal: DealRule) -> int:
    """The fewest cards that make the contract of ``deal``."""
    return sum(meld.length for meld in deal.contract)
