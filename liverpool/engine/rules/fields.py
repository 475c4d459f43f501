"""The field registry: what each :class:`~liverpool.engine.rules.ruleset.Ruleset` field is, in one place.

Each field of a ruleset is declared with :func:`rule_field`, which keeps in the dataclass field's metadata
its :class:`FieldKind`, its choices, its :class:`Group`, its documentation and the row of the rules matrix
(``RULES.md``) it comes from. Everything that handles a field by name reads it from here: reading and
writing a ruleset (:func:`decode`, :func:`encode`), the per-field checks of validation (``minimum``,
``maximum``, and :data:`PART_MINIMUMS` for the numbers inside a deck rule, a deal and the card values),
``liverpool rules show``, ``docs/rulesets.md`` and the web form (``GET /api/rules/fields``).

>>> info = FieldInfo('buy_limit', FieldKind.OPTIONAL_INT, Group.BUYING, 'Most buys.', '§3.15 buying: limits', (), 0)
>>> decode(info, 'none') is None, decode(info, 3)
(True, 3)
>>> decode(info, -1)
Traceback (most recent call last):
...
liverpool.engine.rules.parts.RulesetError: buy_limit: cannot be negative
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from liverpool.engine.rules.parts import RANK_KEYS, DealOut, DealRule, DeckRule, MeldRule, RulesetError, RulesetProblem

META_KEY = "rule"
"""The key of a ruleset field's :class:`FieldInfo` in its dataclass field metadata."""
NONE = "none"
"""How a missing optional number may be written (TOML has no null)."""


class FieldKind(StrEnum):
    """The shape of a field's value, which says how it is read, written, shown and edited."""

    TEXT = "text"
    LINES = "lines"
    """A list of text lines."""
    INT = "int"
    OPTIONAL_INT = "optional_int"
    """A whole number, or none (no limit)."""
    BOOL = "bool"
    CHOICE = "choice"
    """One of the field's ``choices`` (an option enum)."""
    DECKS = "decks"
    """Deck rules: a list of {max_players, decks, jokers}."""
    DEALS = "deals"
    """Deals: a list of {contract, hand_size, out}; ``choices`` are the outs a deal may have."""
    CARD_VALUES = "card_values"
    """Penalty points by rank; ``choices`` are the rank keys, in order."""


PART_MINIMUMS: Mapping[FieldKind, Mapping[str, int]] = {
    FieldKind.DECKS: {"max_players": 1, "decks": 1, "jokers": 0},
    FieldKind.DEALS: {"hand_size": 1},
    FieldKind.CARD_VALUES: dict.fromkeys(RANK_KEYS, 0),
}
"""The least each number inside a row of a field of these kinds may be (validation checks them; the web
form's inputs take them from ``GET /api/rules/fields``)."""


class Group(StrEnum):
    """The topics fields are shown under, in the order they are shown."""

    SEATS = "Seats and decks"
    DEALS = "Deals"
    MELDS = "Melds"
    JOKERS = "Jokers"
    DRAWING = "Drawing and discarding"
    BUYING = "Buying (May I?)"
    GOING_OUT = "Going out and scoring"
    NOTES = "Notes"


@dataclass(frozen=True, slots=True)
class FieldInfo:
    """One ruleset field: its ``name``, ``kind``, ``group``, ``doc``, the rules-matrix ``row`` it comes from
    (``§3.15 buying: limits``), its ``choices`` (for a choice, the deals' outs, the card-value keys) and the
    ``minimum`` and ``maximum`` a number may take (None: no per-field bound)."""

    name: str
    kind: FieldKind
    group: Group
    doc: str
    row: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    enum: type[StrEnum] | None = dataclasses.field(default=None, repr=False)
    """The option enum of a choice, whose members the ruleset holds."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form the web form reads (``GET /api/rules/fields``)."""
        return {
            "name": self.name,
            "kind": self.kind.value,
            "group": self.group.value,
            "group_key": self.group.name.lower(),
            "doc": self.doc,
            "row": self.row,
            "choices": list(self.choices),
            "minimum": self.minimum,
            "maximum": self.maximum,
            "part_minimums": dict(PART_MINIMUMS.get(self.kind, {})),
        }


def rule_field(
    default: Any,
    kind: FieldKind,
    group: Group,
    row: str,
    doc: str,
    choices: type[StrEnum] | tuple[str, ...] = (),
    minimum: int | None = None,
    maximum: int | None = None,
) -> Any:
    """A ruleset dataclass field whose metadata holds its :class:`FieldInfo` (its name is filled in by
    :func:`field_infos`)."""
    enum = choices if isinstance(choices, type) else None
    names = tuple(e.value for e in choices) if isinstance(choices, type) else choices
    if kind is FieldKind.DEALS:
        names = tuple(e.value for e in DealOut)
    elif kind is FieldKind.CARD_VALUES:
        names = RANK_KEYS
    info = FieldInfo("", kind, group, " ".join(doc.split()), row, names, minimum, maximum, enum)
    return dataclasses.field(default=default, metadata={META_KEY: info})


def field_infos(cls: type) -> tuple[FieldInfo, ...]:
    """The :class:`FieldInfo` of each field of the dataclass ``cls``, in declaration order."""
    out = []
    for f in dataclasses.fields(cls):
        info = f.metadata.get(META_KEY)
        if not isinstance(info, FieldInfo):
            raise TypeError(f"{cls.__name__}.{f.name} is not declared with rule_field()")
        out.append(dataclasses.replace(info, name=f.name))
    return tuple(out)


def grouped(infos: tuple[FieldInfo, ...]) -> tuple[tuple[Group, tuple[FieldInfo, ...]], ...]:
    """``infos`` by :class:`Group`, in the groups' order, leaving out empty groups."""
    by_group = tuple((g, tuple(i for i in infos if i.group is g)) for g in Group)
    return tuple((g, fields) for g, fields in by_group if fields)


# -- reading and writing one field --------------------------------------------------------------------


def _expect_int(name: str, raw: Any, minimum: int | None = None, maximum: int | None = None) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise RulesetError(name, f"expected a whole number, got {raw!r}", RulesetProblem.WHOLE_NUMBER)
    check_minimum(name, raw, minimum)
    check_maximum(name, raw, maximum)
    return raw


def check_value(info: FieldInfo, value: Any) -> None:
    """Raise :class:`RulesetError` if ``value``, held by a ruleset, is not of field ``info``'s kind, not one of
    its choices, or outside its minimum and maximum (what a ruleset built in Python, not read from a file, may
    hold)."""
    name = info.name
    if info.enum is not None and not isinstance(value, info.enum):
        raise RulesetError(name, f"expected one of {', '.join(info.choices)}, got {value!r}")
    scalar = _SCALARS.get(info.kind)
    if scalar is not None and not (
        (isinstance(value, scalar) and not (scalar is int and isinstance(value, bool)))
        or (value is None and info.kind is FieldKind.OPTIONAL_INT)
    ):
        raise RulesetError(name, f"expected {_SCALAR_WORDS[info.kind]}, got {value!r}")
    check_minimum(name, value, info.minimum)
    check_maximum(name, value, info.maximum)


_SCALARS: dict[FieldKind, type] = {
    FieldKind.BOOL: bool,
    FieldKind.INT: int,
    FieldKind.OPTIONAL_INT: int,
    FieldKind.TEXT: str,
}
_SCALAR_WORDS = {
    FieldKind.BOOL: "true or false",
    FieldKind.INT: "a whole number",
    FieldKind.OPTIONAL_INT: "a whole number or none",
    FieldKind.TEXT: "text",
}


def check_minimum(name: str, value: int | None, minimum: int | None) -> None:
    """Raise :class:`RulesetError` if ``value`` is below the field's ``minimum``."""
    if value is None or minimum is None or value >= minimum:
        return
    message = "cannot be negative" if minimum == 0 else f"must be at least {minimum}, not {value}"
    raise RulesetError(name, message, RulesetProblem.MINIMUM, minimum)


def check_maximum(name: str, value: int | None, maximum: int | None) -> None:
    """Raise :class:`RulesetError` if ``value`` is above the field's ``maximum``."""
    if value is None or maximum is None or value <= maximum:
        return
    raise RulesetError(name, f"must be at most {maximum}, not {value}", RulesetProblem.MAXIMUM, maximum)


def decode(info: FieldInfo, raw: Any) -> Any:
    """The value of field ``info`` from its JSON/TOML form ``raw``; :class:`RulesetError` names what is wrong."""
    name = info.name
    match info.kind:
        case FieldKind.CHOICE:
            if not isinstance(raw, str) or raw not in info.choices:
                raise RulesetError(
                    name, f"expected one of {', '.join(info.choices)}, got {raw!r}", RulesetProblem.CHOICE
                )
            return raw if info.enum is None else info.enum(raw)
        case FieldKind.OPTIONAL_INT:
            return None if raw is None or raw == NONE else _expect_int(name, raw, info.minimum, info.maximum)
        case FieldKind.INT:
            return _expect_int(name, raw, info.minimum, info.maximum)
        case FieldKind.BOOL:
            if not isinstance(raw, bool):
                raise RulesetError(name, f"expected true or false, got {raw!r}", RulesetProblem.TRUE_OR_FALSE)
            return raw
        case FieldKind.TEXT:
            if not isinstance(raw, str):
                raise RulesetError(name, f"expected text, got {raw!r}")
            return raw
        case FieldKind.LINES:
            if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
                raise RulesetError(name, "expected a list of text")
            return tuple(raw)
        case FieldKind.CARD_VALUES:
            if not isinstance(raw, Mapping) or set(raw) != set(info.choices):
                raise RulesetError(name, f"expected a value for each of {', '.join(info.choices)}")
            return tuple(_expect_int(f"{name}.{key}", raw[key]) for key in info.choices)
        case FieldKind.DECKS:
            return _decode_decks(name, raw)
        case FieldKind.DEALS:
            return _decode_deals(name, raw, info.choices)
    raise RulesetError(name, "cannot be read")  # pragma: no cover - every kind is handled above


def encode(info: FieldInfo, value: Any) -> Any:
    """The JSON form of ``value`` of field ``info`` (what :func:`decode` reads back)."""
    match info.kind:
        case FieldKind.DEALS:
            return [_deal_to_dict(d) for d in value]
        case FieldKind.DECKS:
            return [dataclasses.asdict(d) for d in value]
        case FieldKind.CARD_VALUES:
            return dict(zip(info.choices, value, strict=True))
        case FieldKind.LINES:
            return list(value)
        case FieldKind.CHOICE:
            return str(value.value if isinstance(value, StrEnum) else value)
    return value


def _decode_decks(name: str, raw: Any) -> tuple[DeckRule, ...]:
    if not isinstance(raw, list):
        raise RulesetError(name, "expected a list of {max_players, decks, jokers}")
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or set(item) != {"max_players", "decks", "jokers"}:
            raise RulesetError(f"{name}[{i}]", "expected exactly max_players, decks and jokers")
        out.append(DeckRule(*(_expect_int(f"{name}[{i}].{k}", item[k]) for k in ("max_players", "decks", "jokers"))))
    return tuple(out)


def _decode_deals(name: str, raw: Any, outs: tuple[str, ...]) -> tuple[DealRule, ...]:
    if not isinstance(raw, list):
        raise RulesetError(name, "expected a list of {contract, hand_size, out}")
    deals = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or not {"contract", "hand_size"} <= set(item) <= {"contract", "hand_size", "out"}:
            raise RulesetError(f"{name}[{i}]", "expected contract, hand_size and optionally out")
        out = item.get("out", DealOut.NORMAL.value)
        if not isinstance(out, str) or out not in outs:
            raise RulesetError(f"{name}[{i}].out", f"expected one of {', '.join(outs)}, got {out!r}")
        contract = item["contract"]
        if isinstance(contract, str):
            contract = contract.split(",")
        if not isinstance(contract, list) or not all(isinstance(x, str) for x in contract):
            raise RulesetError(f"{name}[{i}].contract", "expected a list like ['set 3', 'run 4']")
        try:
            melds = tuple(MeldRule.parse(x) for x in contract)
        except ValueError as exc:
            raise RulesetError(f"{name}[{i}].contract", str(exc)) from exc
        deals.append(DealRule(melds, _expect_int(f"{name}[{i}].hand_size", item["hand_size"]), DealOut(out)))
    return tuple(deals)


def _deal_to_dict(deal: DealRule) -> dict[str, Any]:
    out: dict[str, Any] = {"contract": [str(m) for m in deal.contract], "hand_size": deal.hand_size}
    if deal.out is not DealOut.NORMAL:  # (written only when set: rules files and records from before read the same)
        out["out"] = deal.out.value
    return out
