"""Actions are small frozen values; ``Action`` is their closed union.

Chance is explicit: :class:`Shuffle` (each deal's deck order and cut) and :class:`Reshuffle` (a washed
stock) are actions too, so a game is its first dealer plus a list of actions.

>>> DrawStock(seat=1)
DrawStock(seat=1)
>>> action_from_dict(action_to_dict(Discard(seat=0, card=Card.parse('QS#1'))))
Discard(seat=0, card=Card.parse('QS#1'))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from liverpool.engine.cards import Card, CardNotationError
from liverpool.engine.melds import Meld
from liverpool.engine.rules.parts import MeldKind

End = Literal["low", "high"]


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance: the deck for the next deal, top card first, and how many cards the cutter lifted."""

    deck: tuple[Card, ...]
    cut: int = 0
    seat: None = None


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """Chance: the discard pile but its top card becomes the new stock, top card first."""

    stock: tuple[Card, ...]
    seat: None = None


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Draw the top card of the stock (declining the top discard)."""

    seat: int


@dataclass(frozen=True, slots=True)
class DrawDiscard:
    """Take the top discard, or with ``depth`` > 1 dig that deep, taking every card above too."""

    seat: int
    depth: int = 1


@dataclass(frozen=True, slots=True)
class Buy:
    """Out of turn: ask to buy the top discard ("May I?"), paying penalty cards from the stock."""

    seat: int


@dataclass(frozen=True, slots=True)
class Pass:
    """Out of turn: decline to buy the top discard in an open buy window."""

    seat: int


@dataclass(frozen=True, slots=True)
class GoDown:
    """Lay down this deal's contract, once."""

    seat: int
    melds: tuple[Meld, ...]


@dataclass(frozen=True, slots=True)
class LayOff:
    """Add a card from hand to a meld on the table: ``end`` is 'low' or 'high' for a run, None for a set (the
    one form ``legal_actions`` lists; the other is refused as malformed)."""

    seat: int
    card: Card
    meld: int
    end: End | None = None


@dataclass(frozen=True, slots=True)
class SwapJoker:
    """Take ``joker`` from table meld ``meld``, putting ``card`` (the card it stands for) in its place."""

    seat: int
    card: Card
    meld: int
    joker: Card


@dataclass(frozen=True, slots=True)
class Discard:
    """Put a card on the discard pile, ending the turn."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn without a discard (optional discard, or a floating empty hand)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Call:
    """Call a playable discard: Liverpool (shed ``card`` onto the pile) or rummy (``card`` is None)."""

    seat: int
    card: Card | None = None


Action = (
    Shuffle | Reshuffle | DrawStock | DrawDiscard | Buy | Pass | GoDown | LayOff | SwapJoker | Discard | EndTurn | Call
)
ChanceAction = Shuffle | Reshuffle

ACTION_TYPES: dict[str, type[Any]] = {
    "shuffle": Shuffle,
    "reshuffle": Reshuffle,
    "draw_stock": DrawStock,
    "draw_discard": DrawDiscard,
    "buy": Buy,
    "pass": Pass,
    "go_down": GoDown,
    "lay_off": LayOff,
    "swap_joker": SwapJoker,
    "discard": Discard,
    "end_turn": EndTurn,
    "call": Call,
}
TYPE_NAMES = {cls: name for name, cls in ACTION_TYPES.items()}


def meld_to_dict(meld: Meld) -> dict[str, Any]:
    return {"kind": meld.kind.value, "cards": [str(c) for c in meld.cards], "low": meld.low}


def meld_from_dict(data: Any) -> Meld:
    if not isinstance(data, dict) or set(data) != {"kind", "cards", "low"}:
        raise ValueError("a meld is {kind, cards, low}")
    if data["kind"] not in ("set", "run") or not isinstance(data["low"], int) or not isinstance(data["cards"], list):
        raise ValueError(f"bad meld {data!r}")
    return Meld(MeldKind(data["kind"]), tuple(_card(c) for c in data["cards"]), data["low"])


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON form of an action: ``{"type": ..., field: value}`` with cards in notation."""
    out: dict[str, Any] = {"type": TYPE_NAMES[type(action)]}
    match action:
        case Shuffle(deck=deck, cut=cut):
            out.update(deck=[str(c) for c in deck], cut=cut)
        case Reshuffle(stock=stock):
            out.update(stock=[str(c) for c in stock])
        case GoDown(seat=seat, melds=melds):
            out.update(seat=seat, melds=[meld_to_dict(m) for m in melds])
        case LayOff(seat=seat, card=card, meld=meld, end=end):
            out.update(seat=seat, card=str(card), meld=meld)
            if end is not None:
                out["end"] = end
        case SwapJoker(seat=seat, card=card, meld=meld, joker=joker):
            out.update(seat=seat, card=str(card), meld=meld, joker=str(joker))
        case Discard(seat=seat, card=card):
            out.update(seat=seat, card=str(card))
        case Call(seat=seat, card=card):
            out.update(seat=seat)
            if card is not None:
                out["card"] = str(card)
        case DrawDiscard(seat=seat, depth=depth):
            out.update(seat=seat)
            if depth != 1:
                out["depth"] = depth
        case DrawStock(seat=seat) | Buy(seat=seat) | Pass(seat=seat) | EndTurn(seat=seat):
            out.update(seat=seat)
    return out


def _card(text: Any) -> Card:
    if not isinstance(text, str):
        raise ValueError(f"expected card notation, got {text!r}")
    return Card.parse(text)


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} must be a whole number, got {value!r}")
    return value


def action_from_dict(data: Any) -> Action:
    """Read an action's JSON form; ``ValueError`` naming what is wrong."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str) or data["type"] not in ACTION_TYPES:
        raise ValueError(f"an action needs a type among {', '.join(ACTION_TYPES)}, got {data!r}")
    kind = data["type"]
    try:
        match kind:
            case "shuffle":
                return Shuffle(tuple(_card(c) for c in data["deck"]), _int(data, "cut"))
            case "reshuffle":
                return Reshuffle(tuple(_card(c) for c in data["stock"]))
            case "go_down":
                return GoDown(_int(data, "seat"), tuple(meld_from_dict(m) for m in data["melds"]))
            case "lay_off":
                end = data.get("end")
                if end not in (None, "low", "high"):
                    raise ValueError(f"end must be 'low' or 'high', got {end!r}")
                return LayOff(_int(data, "seat"), _card(data["card"]), _int(data, "meld"), end)
            case "swap_joker":
                return SwapJoker(_int(data, "seat"), _card(data["card"]), _int(data, "meld"), _card(data["joker"]))
            case "discard":
                return Discard(_int(data, "seat"), _card(data["card"]))
            case "call":
                card = data.get("card")
                return Call(_int(data, "seat"), None if card is None else _card(card))
            case "draw_discard":
                return DrawDiscard(_int(data, "seat"), _int(data, "depth") if "depth" in data else 1)
            case _:
                cls = ACTION_TYPES[kind]
                action: Action = cls(_int(data, "seat"))
                return action
    except KeyError as exc:
        raise ValueError(f"{kind} action lacks the field {exc.args[0]!r}") from exc
    except (CardNotationError, TypeError) as exc:
        raise ValueError(f"{kind} action: {exc}") from exc
