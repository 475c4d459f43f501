"""Physical cards, their short notation, and the shoe of several decks.

A card is a small ``int`` (a :class:`Card`) packing its *face* and its *copy*:

* the face is ``suit * 13 + (rank - 1)`` for naturals (0..51) and :data:`JOKER_FACE` (52) for jokers;
* the copy says which physical card of that face it is (which deck, or which joker), so the two
  seven of hearts of a two-deck shoe are different cards: ``7H`` and ``7H#1``.

>>> Card.parse('7H')
Card.parse('7H')
>>> Card.parse('TS') == Card.parse('10S')
True
>>> c = Card.parse('QD#2'); (c.rank, c.suit, c.copy, c.is_joker)
(12, 'D', 2, False)
>>> str(Card.parse('JK#1'))
'JK#1'
>>> Card.parse('1X')
Traceback (most recent call last):
...
liverpool.engine.cards.CardNotationError: '1X' is not a card: expected a rank (A, 2-10, T, J, Q, K) and a suit (C, D, H, S), or JK, optionally followed by #copy
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from liverpool.engine._speed.cache import kept

SUITS: Final = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
# Final literals: compiled modules (mypyc) that import them use the values, not a name looked up.
JOKER_FACE: Final = 52
FACE_BITS: Final = 6
FACE_MASK: Final = 63  # (1 << FACE_BITS) - 1

_RANK_BY_TEXT = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
_RANK_BY_TEXT.update({str(n): n for n in range(2, 11)})


class CardNotationError(ValueError):
    """Text that is not card notation."""


def face_of(rank: int, suit: str) -> int:
    """The face number of a natural card (rank 1..13, or 14 for a high ace)."""
    return SUITS.index(suit) * 13 + (rank - 1) % 13


def face_rank(face: int) -> int:
    """Rank 1..13 of a natural face (0 for the joker face)."""
    return 0 if face == JOKER_FACE else face % 13 + 1


def face_suit(face: int) -> str:
    """Suit letter of a natural face ('' for the joker face)."""
    return "" if face == JOKER_FACE else SUITS[face // 13]


def rank_text(rank: int) -> str:
    """``1`` or ``14`` -> ``A``, ``12`` -> ``Q``, ``7`` -> ``7``."""
    rank = 1 if rank == 14 else rank
    return RANK_NAMES.get(rank, str(rank))


def face_text(face: int) -> str:
    """Notation of a face without its copy: ``7H``, ``JK``."""
    if face == JOKER_FACE:
        return "JK"
    return rank_text(face_rank(face)) + face_suit(face)


# Each card's notation made so far, by the card's number (at most 64 faces a copy; a shoe has a few copies).
_TEXTS: dict[int, str] = kept({})


class Card(int):
    """One physical card. Compare and hash as the int it is; read it with the properties."""

    __slots__ = ()

    @classmethod
    def make(cls, face: int, copy: int = 0) -> Card:
        if not 0 <= face <= JOKER_FACE:
            raise ValueError(f"face {face} is out of range 0..{JOKER_FACE}")
        if copy < 0:
            raise ValueError(f"copy {copy} is negative")
        return cls((copy << FACE_BITS) | face)

    @classmethod
    def natural(cls, rank: int, suit: str, copy: int = 0) -> Card:
        if not 1 <= rank <= 14 or suit not in SUITS or len(suit) != 1:
            raise ValueError(f"no natural card of rank {rank} and suit {suit!r}")
        return cls.make(face_of(rank, suit), copy)

    @classmethod
    def joker(cls, copy: int = 0) -> Card:
        return cls.make(JOKER_FACE, copy)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``7H``, ``10S``, ``TS``, ``QD#1``, ``JK``, ``JK#3`` (case and spaces ignored)."""
        raw = text
        body = text.strip().upper()
        copy = 0
        if "#" in body:
            body, _, copy_text = body.partition("#")
            if not copy_text.isdigit():
                raise CardNotationError(f"{raw!r} is not a card: the copy after # must be a number")
            copy = int(copy_text)
        if body == "JK":
            return cls.make(JOKER_FACE, copy)
        rank = _RANK_BY_TEXT.get(body[:-1])
        suit = body[-1:]
        if rank is None or suit not in SUITS or not suit:
            raise CardNotationError(
                f"{raw!r} is not a card: expected a rank (A, 2-10, T, J, Q, K) and a suit "
                "(C, D, H, S), or JK, optionally followed by #copy"
            )
        return cls.make(face_of(rank, suit), copy)

    @property
    def face(self) -> int:
        return self & FACE_MASK

    @property
    def copy(self) -> int:
        return self >> FACE_BITS

    @property
    def is_joker(self) -> bool:
        return self & FACE_MASK == JOKER_FACE

    @property
    def rank(self) -> int:
        """1 (ace) .. 13 (king); 0 for a joker."""
        face = self & FACE_MASK
        return 0 if face == JOKER_FACE else face % 13 + 1

    @property
    def suit(self) -> str:
        """``C``, ``D``, ``H`` or ``S``; ``''`` for a joker."""
        face = self & FACE_MASK
        return "" if face == JOKER_FACE else SUITS[face // 13]

    def __str__(self) -> str:
        # Kept by the card's number: a server converts the same few hundred cards in every observation it
        # sends (docs/performance.md, "Toward 1,000 tables").
        text = _TEXTS.get(self)
        if text is None:
            face_notation = face_text(self & FACE_MASK)
            text = face_notation if self.copy == 0 else f"{face_notation}#{self.copy}"
            _TEXTS[int(self)] = text
        return text

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def pretty(self) -> str:
        """Text with suit symbols, for people: ``7♥``, ``JK``."""
        if self.is_joker:
            return "JK"
        return rank_text(self.rank) + SUIT_SYMBOLS[self.suit]


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Several cards from ``'7H 8H JK'`` or an iterable of notations.

    >>> parse_cards('7H 8h, JK')
    (Card.parse('7H'), Card.parse('8H'), Card.parse('JK'))
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(part) for part in parts)


def format_cards(cards: Iterable[int]) -> str:
    """``'7H 8H JK'``: the inverse of :func:`parse_cards`."""
    return " ".join(str(Card(card)) for card in cards)


def make_shoe(decks: int, jokers: int) -> tuple[Card, ...]:
    """Every physical card of ``decks`` standard decks plus ``jokers`` jokers, in a fixed order.

    >>> len(make_shoe(2, 4)), len(set(make_shoe(2, 4)))
    (108, 108)
    """
    made = _shoes.get((decks, jokers))
    if made is not None:
        return made
    if decks < 1:
        raise ValueError(f"a shoe needs at least one deck, not {decks}")
    if jokers < 0:
        raise ValueError(f"a shoe cannot hold {jokers} jokers")
    naturals = [Card.make(face, copy) for copy in range(decks) for face in range(52)]
    made = (*naturals, *(Card.make(JOKER_FACE, copy) for copy in range(jokers)))
    _shoes[(decks, jokers)] = made
    return made


# Shoes made so far (a tuple is immutable, so one shoe serves every deal that asks for it).
_shoes: dict[tuple[int, int], tuple[Card, ...]] = kept({})
