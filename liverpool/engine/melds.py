"""Melds on the table: validation of sets and runs under a ruleset, lay-offs and joker swaps.

A run keeps its cards in order from its low end; ``low`` is the rank of its first card (1 = ace low,
so the slot ranks go ``low .. low + len - 1`` and rank 14 is a high ace). A joker stands for the card of
its slot (a run) or for a card of the set's rank (a set).

>>> from liverpool.engine.rules.presets import find_preset
>>> rules = find_preset('liverpool')
>>> m = Meld.parse('run: 7H 8H JK 10H')
>>> m.low, meld_problem(m, rules) is None, stands_for(m, 2)
(7, True, '9H')
>>> meld_problem(Meld.parse('set: 7H JK JK'), rules)
'a set needs at least 2 natural cards, this one has 1'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from liverpool.engine._speed.bits import spaced
from liverpool.engine._speed.cache import ByIdentity, by_identity, kept
from liverpool.engine._speed.values import by_fields, native
from liverpool.engine.cards import FACE_MASK, JOKER_FACE, SUIT_SYMBOLS, SUITS, Card, parse_cards, rank_text
from liverpool.engine.problems import Fault, FaultError, MeldShown, Problem, Rank, Suit
from liverpool.engine.rules.parts import JoinableRuns, MeldKind, MeldRule
from liverpool.engine.rules.ruleset import Ruleset

# Members of the rules' enums as Final names: compiled with mypyc, a name like ``MeldKind.SET`` is looked up
# through the enum class at each use (rules.py is not compiled), a Final name is a C static.
_SET: Final = MeldKind.SET
_RUN: Final = MeldKind.RUN
_TOUCHING: Final = JoinableRuns.TOUCHING
_COULD_JOIN: Final = JoinableRuns.COULD_JOIN
_SET_TOO_SHORT: Final = Problem.SET_TOO_SHORT
_RUN_TOO_SHORT: Final = Problem.RUN_TOO_SHORT


End = Literal["low", "high"]


@dataclass(frozen=True, slots=True, init=False)
class Meld:
    """A meld as laid: a set or a run, its cards (a run's in order), and its low rank."""

    kind: MeldKind
    cards: tuple[Card, ...]
    low: int

    def __init__(self, kind: MeldKind, cards: tuple[Card, ...], low: int) -> None:
        # The dataclass's __init__, written: compiled, a generated one stays Python and a class's __new__ is
        # a method looked up by name, where this is native and writes the fields straight into the object
        # (see values.native); as Python, each field is set as the frozen dataclass's own __init__ sets it.
        if _NATIVE:
            self.kind = kind  # type: ignore[misc]
            self.cards = cards  # type: ignore[misc]
            self.low = low  # type: ignore[misc]
        else:
            object.__setattr__(self, "kind", kind)
            object.__setattr__(self, "cards", cards)
            object.__setattr__(self, "low", low)

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)

    @classmethod
    def parse(cls, text: str) -> Meld:
        """``'set: 7H 7S JK'``, ``'run: JK 4D 5D 6D'``; the kind may be left out when the naturals show it."""
        kind_text, sep, body = text.partition(":")
        kind: MeldKind | None = None
        if sep:
            if kind_text.strip().lower() not in ("set", "run"):
                raise ValueError(f"{text!r}: a meld starts with 'set:' or 'run:', not {kind_text.strip()!r}")
            kind = MeldKind(kind_text.strip().lower())
        else:
            body = text
        cards = parse_cards(body)
        return cls.of(cards, kind)

    @classmethod
    def of(cls, cards: Sequence[Card], kind: MeldKind | None = None, low: int | None = None) -> Meld:
        """A meld from cards in order, inferring what it can. Raises ``ValueError`` when ambiguous."""
        cards = tuple(Card(c) for c in cards)
        naturals = [(i, c) for i, c in enumerate(cards) if not c.is_joker]
        if not naturals:
            raise ValueError("a meld needs at least one natural card")
        ranks = {c.rank for _, c in naturals}
        if kind is None:
            if len(naturals) == 1:
                raise ValueError(f"say 'set:' or 'run:' for {' '.join(map(str, cards))}: one natural cannot tell")
            kind = _SET if len(ranks) == 1 else _RUN
        if kind is _SET:
            return cls(kind, cards, naturals[0][1].rank if low is None else low)
        if low is None:
            low = _infer_low(cards)
        return cls(kind, cards, low)

    @property
    def high(self) -> int:
        return self.low + len(self.cards) - 1 if self.kind is _RUN else self.low

    @property
    def suit(self) -> str:
        for card in self.cards:
            face = card & FACE_MASK
            if face != JOKER_FACE:
                return SUITS[face // 13]
        return ""

    @property
    def rank(self) -> int:
        return self.low

    def __str__(self) -> str:
        return f"{self.kind.value}: {' '.join(map(str, self.cards))}"

    def __repr__(self) -> str:
        if self.kind is _RUN and self.low != _safe_low(self.cards):
            return f"Meld.of(parse_cards({' '.join(map(str, self.cards))!r}), MeldKind.RUN, low={self.low})"
        return f"Meld.parse({str(self)!r})"


_NATIVE: Final = native(Meld)  # see values.native


def new_meld(kind: MeldKind, cards: tuple[Card, ...], low: int) -> Meld:
    """``Meld(kind, cards, low)``."""
    return Meld(kind, cards, low)


def _safe_low(cards: tuple[Card, ...]) -> int | None:
    try:
        return _infer_low(cards)
    except ValueError:
        return None


def _infer_low(cards: tuple[Card, ...]) -> int:
    """A run's low rank from its first non-ace natural (or its aces when they are the only naturals)."""
    for i, card in enumerate(cards):
        if not card.is_joker and card.rank != 1:
            return card.rank - i
    aces = [i for i, c in enumerate(cards) if not c.is_joker]
    if aces == [0]:
        return 1
    if aces == [len(cards) - 1]:
        return 14 - len(cards) + 1
    raise ValueError(f"cannot tell where the run {' '.join(map(str, cards))} starts: give its low rank")


def slot_rank(meld: Meld, index: int) -> int:
    """The rank (1..14) a card at ``index`` of ``meld`` has or stands for."""
    return meld.low + index if meld.kind is _RUN else meld.low


def stands_for(meld: Meld, index: int) -> str:
    """What the card at ``index`` stands for: ``'9H'`` in a run, ``'7'`` (a rank) in a set."""
    rank = slot_rank(meld, index)
    if meld.kind is _SET:
        return rank_text(rank)
    return rank_text(rank) + meld.suit


def meld_label(meld: Meld) -> str:
    """A meld as players name it: ``set of 7s``, ``run 9♥–Q♥``.

    >>> meld_label(Meld.parse('run: 9H 10H JK QH')), meld_label(Meld.parse('set: 7H 7S JK'))
    ('run 9♥–Q♥', 'set of 7s')
    """
    if meld.kind is _SET:
        return f"set of {rank_text(meld.low)}s"
    suit = SUIT_SYMBOLS.get(meld.suit, "")
    return f"run {rank_text(meld.low)}{suit}–{rank_text(meld.high)}{suit}"


def meld_words(meld: Meld) -> dict[str, int | str]:
    """What :func:`meld_label` says, as data for a client to word in its own language: a set's rank, a
    run's suit and its lowest and highest ranks (1 to 14; 14 is an ace high).

    >>> meld_words(Meld.parse('run: 9H 10H JK QH')), meld_words(Meld.parse('set: 7H 7S JK'))
    ({'kind': 'run', 'suit': 'H', 'low': 9, 'high': 12}, {'kind': 'set', 'rank': 7})
    """
    if meld.kind is _SET:
        return {"kind": "set", "rank": meld.low}
    return {"kind": "run", "suit": meld.suit, "low": meld.low, "high": meld.high}


def stands_text(meld: Meld, index: int) -> str:
    """What the card at ``index`` of ``meld`` stands for: ``7`` in a set, ``9♥`` in a run."""
    rank = rank_text(slot_rank(meld, index))
    return rank if meld.kind is _SET else rank + SUIT_SYMBOLS.get(meld.suit, "")


def joker_stands(meld: Meld) -> tuple[str | None, ...]:
    """For each card of ``meld``: what it stands for if it is a joker, else None."""
    return tuple(stands_text(meld, i) if Card(c).is_joker else None for i, c in enumerate(meld.cards))


def faces_standing_for(meld: Meld, index: int) -> tuple[int, ...]:
    """The faces of the naturals that are what the card at ``index`` stands for (:func:`stands_for`): the
    slot's rank (an ace low or high alike) in any suit for a set, in the run's suit for a run."""
    rank = slot_rank(meld, index)
    if not 1 <= rank <= 14:
        return ()
    offset = (rank - 1) % 13
    if meld.kind is _SET:
        return (offset, 13 + offset, 26 + offset, 39 + offset)
    suit = meld.suit
    if len(suit) != 1 or suit not in SUITS:
        return ()
    return (SUITS.index(suit) * 13 + offset,)


def meld_problem(meld: Meld, rules: Ruleset) -> str | None:
    """Why ``meld`` is not a valid meld under ``rules`` (in English), or ``None`` when it is."""
    fault = _meld_problem(meld, _MELD_RULES.of(rules))
    return None if fault is None else fault.text()


def meld_fault(meld: Meld, rules: Ruleset) -> Fault | None:
    """Why ``meld`` is not a valid meld under ``rules`` as a code and its parameters, or ``None``.

    >>> from liverpool.engine.rules.presets import find_preset
    >>> meld_fault(Meld.parse('set: 7H JK JK'), find_preset('liverpool')).to_dict()
    {'code': 'set_few_naturals', 'params': {'need': 2, 'count': 1}}
    """
    return _meld_problem(meld, _MELD_RULES.of(rules))


def _meld_problem(meld: Meld, rules: _MeldRules) -> Fault | None:
    cards = meld.cards
    if len(cards) < 3:
        return Fault(_SET_TOO_SHORT if meld.kind is _SET else _RUN_TOO_SHORT, {"count": len(cards)})
    if meld.kind is _SET:
        return _set_problem(meld, rules, cards)
    return _run_problem(meld, rules, cards)


class _MeldRules:
    """What :func:`meld_problem` reads of a ruleset, read once per ruleset: compiled, each read of a
    ruleset's field (a Python object) is a look-up by name, and every lay-off the table could take is
    checked by building the grown meld."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.set_distinct_suits: bool = rules.set_distinct_suits
        self.set_min_naturals: int = rules.set_min_naturals
        self.set_max_length: int | None = rules.set_max_length
        self.aces_low: bool = rules.aces_low
        self.aces_high: bool = rules.aces_high
        self.run_min_naturals: int = rules.run_min_naturals
        self.run_joker_spacing: int = rules.run_joker_spacing


# The meld rules of each ruleset asked about.
_MELD_RULES: Final[ByIdentity[_MeldRules]] = by_identity(_MeldRules)


# (``cards`` below is the meld's cards read as ints: compiled, an operation on a Card, an int subclass from
# a module that is not compiled, is a generic one. Messages name the cards themselves.)


def _set_problem(meld: Meld, rules: _MeldRules, cards: tuple[int, ...]) -> Fault | None:
    rank = meld.low
    distinct = rules.set_distinct_suits
    suits = 0  # one bit for each suit seen
    naturals = 0
    for i in range(len(cards)):
        face = cards[i] & FACE_MASK
        if face == JOKER_FACE:
            continue
        naturals += 1
        if face % 13 + 1 != rank:
            return Fault(Problem.SET_WRONG_RANK, {"card": meld.cards[i], "rank": Rank(rank)})
        if distinct:
            bit = 1 << (face // 13)
            if suits & bit:
                return Fault(Problem.SET_SUIT_TWICE, {"card": Card.make(face)})
            suits |= bit
    if naturals < rules.set_min_naturals:
        return Fault(Problem.SET_FEW_NATURALS, {"need": rules.set_min_naturals, "count": naturals})
    if rules.set_max_length is not None and len(cards) > rules.set_max_length:
        return Fault(Problem.SET_TOO_LONG, {"limit": rules.set_max_length, "count": len(cards)})
    if distinct and len(cards) > 4:
        return Fault(Problem.SET_DISTINCT_TOO_LONG)
    return None


def _run_problem(meld: Meld, rules: _MeldRules, cards: tuple[int, ...]) -> Fault | None:
    low, high = meld.low, meld.low + len(cards) - 1
    if low < 1 or high > 14 or len(cards) > 13:
        return Fault(Problem.RUN_OUT_OF_RANKS, {"low": low, "high": high})
    if low == 1 and not rules.aces_low:
        return Fault(Problem.ACES_NOT_LOW)
    if high == 14 and not rules.aces_high:
        return Fault(Problem.ACES_NOT_HIGH)
    suit_key = -1  # the run's suit as a face's suit number, from its first natural
    naturals = 0
    for i in range(len(cards)):
        face = cards[i] & FACE_MASK
        if face == JOKER_FACE:
            continue
        naturals += 1
        if suit_key < 0:
            suit_key = face // 13
        if face // 13 != suit_key:
            return Fault(Problem.RUN_WRONG_SUIT, {"card": meld.cards[i], "suit": Suit(meld.suit)})
        want = (low + i - 1) % 13 + 1
        if face % 13 + 1 != want:
            place = Card.natural(want, meld.suit)
            return Fault(Problem.RUN_WRONG_PLACE, {"card": meld.cards[i], "place": place})
    if naturals < rules.run_min_naturals:
        return Fault(Problem.RUN_FEW_NATURALS, {"need": rules.run_min_naturals, "count": naturals})
    window = rules.run_joker_spacing
    if window > 1:
        last_joker = -window
        for i in range(len(cards)):
            if cards[i] & FACE_MASK == JOKER_FACE:
                if i - last_joker < window:
                    return Fault(Problem.RUN_JOKER_SPACING, {"window": window})
                last_joker = i
    return None


def contract_problem(melds: Sequence[Meld], contract: Sequence[MeldRule], rules: Ruleset) -> str | None:
    """Why ``melds`` do not meet ``contract`` as one going-down (in English), or ``None``."""
    fault = contract_fault(melds, contract, rules)
    return None if fault is None else fault.text()


def contract_fault(melds: Sequence[Meld], contract: Sequence[MeldRule], rules: Ruleset) -> Fault | None:
    """Why ``melds`` do not meet ``contract`` as one going-down, as a code and its parameters, or ``None``."""
    for meld in melds:
        fault = meld_fault(meld, rules)
        if fault is not None:
            return Fault(Problem.CONTRACT_MELD, {"meld": _shown(meld), "fault": fault})
    for kind in MeldKind:
        is_set = kind is _SET
        have = sorted((len(m.cards) for m in melds if m.kind is kind), reverse=True)
        need = sorted((r.length for r in contract if r.kind is kind), reverse=True)
        if len(have) != len(need):
            code = Problem.CONTRACT_SETS if is_set else Problem.CONTRACT_RUNS
            return Fault(code, {"need": len(need), "count": len(have)})
        for got, want in zip(have, need, strict=True):
            if got > want and not rules.longer_melds:
                code = Problem.SET_LONGER_NOT_ALLOWED if is_set else Problem.RUN_LONGER_NOT_ALLOWED
                return Fault(code, {"count": got})
            if got < want:
                code = Problem.SET_SHORT_FOR_CONTRACT if is_set else Problem.RUN_SHORT_FOR_CONTRACT
                return Fault(code, {"count": got, "need": want})
    sets = [m for m in melds if m.kind is _SET]
    runs = [m for m in melds if m.kind is _RUN]
    if rules.set_distinct_ranks and len({m.low for m in sets}) < len(sets):
        return Fault(Problem.SETS_SAME_RANK)
    if rules.run_distinct_suits and len({m.suit for m in runs}) < len(runs):
        return Fault(Problem.RUNS_SAME_SUIT)
    joinable = rules.joinable_runs
    if joinable is _TOUCHING:
        for a in runs:
            for b in runs:
                if a is not b and a.suit == b.suit and a.high + 1 == b.low:
                    return Fault(Problem.RUNS_TOUCH, {"first": _shown(a), "second": _shown(b)})
    elif joinable is _COULD_JOIN:
        for i in range(len(runs)):
            for j in range(i + 1, len(runs)):
                if runs_could_join(runs[i], runs[j], rules):
                    return Fault(Problem.RUNS_COULD_JOIN, {"first": _shown(runs[i]), "second": _shown(runs[j])})
    return None


def _shown(meld: Meld) -> MeldShown:
    return MeldShown(str(meld), meld_words(meld), tuple(map(str, meld.cards)))


def runs_could_join(a: Meld, b: Meld, rules: Ruleset) -> bool:
    """Whether the cards of the runs ``a`` and ``b`` could be laid as one run under ``rules`` (its aces, joker
    spacing and fewest naturals), the jokers of both placed anew: same suit, no rank twice, and a place for
    the run. (002: "kombinasjoner som kunne vært lagt sammen".)

    >>> from liverpool.engine.rules.presets import find_preset
    >>> norsk = find_preset('norsk')
    >>> runs_could_join(Meld.parse('run: 3S 4S 5S JK'), Meld.parse('run: 8S 9S 10S JK'), norsk)
    True
    >>> runs_could_join(Meld.parse('run: 3S 4S 5S 6S'), Meld.parse('run: 8S 9S 10S JS'), norsk)
    False
    """
    if a.kind is not _RUN or b.kind is not _RUN:
        return False
    suit = -1
    ranks = jokers = 0
    for cards in (a.cards, b.cards):
        for card in cards:
            face = card & FACE_MASK
            if face == JOKER_FACE:
                jokers += 1
                continue
            if suit < 0:
                suit = face // 13
            bit = 2 << (face % 13)
            if face // 13 != suit or ranks & bit:
                return False
            ranks |= bit
    return could_be_one_run(ranks, jokers, rules.aces_low, rules.aces_high, rules.run_joker_spacing,
                            rules.run_min_naturals)  # fmt: skip


# Answers of could_be_one_run, by its arguments packed in one int.
_one_run: Final[dict[int, bool]] = kept({})


def could_be_one_run(ranks: int, jokers: int, aces_low: bool, aces_high: bool, spacing: int, min_naturals: int) -> bool:
    """Whether naturals of one suit, one of each rank of ``ranks`` (bits 1..13, the ace at bit 1), and
    ``jokers`` jokers make one valid run: some place of ``len`` ranks in a row holds every natural (an ace
    low or high, as the rules allow), the jokers standing for the ranks between, at most one joker in any
    ``spacing`` cards in a row (when above 1), at least ``min_naturals`` naturals."""
    key = ranks | (jokers & 255) << 14 | aces_low << 22 | aces_high << 23 | (spacing & 255) << 24 | min_naturals << 32
    known = _one_run.get(key)
    if known is None:
        known = _one_run_worked_out(ranks, jokers, aces_low, aces_high, spacing, min_naturals)
        if len(_one_run) >= 1 << 16:
            _one_run.clear()
        _one_run[key] = known
    return known


def _one_run_worked_out(
    ranks: int, jokers: int, aces_low: bool, aces_high: bool, spacing: int, min_naturals: int
) -> bool:
    naturals = 0
    for rank in range(1, 14):
        if ranks >> rank & 1:
            naturals += 1
    size = naturals + jokers
    if naturals == 0 or naturals < min_naturals or size > 13:
        return False
    first = 1 if aces_low else 2
    last = 14 if aces_high else 13
    placements = [ranks]
    if ranks & 2:  # the ace low (as given) or high
        placements = ([ranks] if aces_low else []) + ([ranks & ~2 | 1 << 14] if aces_high else [])
    for placed in placements:
        lowest = (placed & -placed).bit_length() - 1
        highest = placed.bit_length() - 1
        for low in range(max(first, highest - size + 1), min(lowest, last - size + 1) + 1):
            window = ((1 << size) - 1) << low
            holes = window & ~placed
            if spacing <= 1 or spaced(holes, spacing):
                return True
    return False


def lay_off(meld: Meld, card: Card, end: End | None, rules: Ruleset) -> Meld:
    """``meld`` with ``card`` added (at ``end`` of a run); ``ValueError`` with the reason if it does not fit."""
    if meld.kind is not _SET and end is None:
        end = _natural_end(meld, card)
    grown = _grown(meld, card, end)
    fault = meld_fault(grown, rules)
    if fault is not None:
        raise FaultError(fault)
    return grown


def _grown(meld: Meld, card: Card, end: End | None) -> Meld:
    """``meld`` with ``card`` added, unchecked: at the end of a set, at ``end`` of a run ('low', else high)."""
    if meld.kind is _SET:
        return new_meld(meld.kind, (*meld.cards, card), meld.low)
    if end == "low":
        return new_meld(meld.kind, (card, *meld.cards), meld.low - 1)
    return new_meld(meld.kind, (*meld.cards, card), meld.low)


def _natural_end(meld: Meld, card: Card) -> End:
    if card.is_joker:
        raise ValueError("say which end of the run a joker goes to")
    below = (meld.low - 2) % 13 + 1
    above = meld.high % 13 + 1
    fits_low = card.rank == below and meld.low > 1
    fits_high = card.rank == above and meld.high < 14
    if fits_low and fits_high:
        raise ValueError(f"{card} fits both ends of the run: say which")
    return "low" if fits_low else "high"


def lay_off_ends(meld: Meld, card: Card, rules: Ruleset) -> list[End | None]:
    """Every way ``card`` can be laid off on ``meld`` (``[None]`` for a set, the ends for a run)."""
    face = card.face
    return [end for accepted, end in accepted_faces(meld, rules) if accepted == face]


_A_JOKER: Final = Card.joker()


# One card of each natural face, tried on melds (a Card is made by a Python call: cards.py is not compiled).
_TRIALS: Final[tuple[Card, ...]] = tuple(Card.make(face) for face in range(JOKER_FACE))


Accepted = tuple[tuple[int, End | None], ...]


def _no_accepted(rules: Ruleset) -> dict[int, Accepted]:
    """A ruleset's empty table of what melds accept (for :data:`_ACCEPTED`)."""
    return {}


# What melds accept, by ruleset and by the meld's kind, low rank and faces packed in one int: validity
# depends on faces, never on copies, and a key made of ints is hashed without a Python call (a Meld's hash
# would hash its kind, an enum, in Python).
_ACCEPTED: Final[ByIdentity[dict[int, Accepted]]] = by_identity(_no_accepted, at_most=16)
_ACCEPTED_AT_MOST: Final = 1 << 16


def accepted_faces(meld: Meld, rules: Ruleset) -> Accepted:
    """The (face, end) pairs ``meld`` takes as a lay-off; validity depends on faces, never on copies."""
    low = meld.low
    if not 0 <= low < 16:  # no valid meld; the key below holds a low rank in 4 bits
        return _accepted_faces(meld, rules)
    known = _ACCEPTED.of(rules)
    key = 32 | low << 1 | (meld.kind is _SET)  # the leading bit keeps melds of different lengths apart
    for card in meld.cards:
        key = key << 6 | (card & FACE_MASK)
    found = known.get(key)
    if found is None:
        if len(known) >= _ACCEPTED_AT_MOST:
            known.clear()
        found = known[key] = _accepted_faces(meld, rules)
    return found


def _accepted_faces(meld: Meld, rules: Ruleset) -> Accepted:
    """:func:`accepted_faces`, worked out: each card that could extend ``meld`` tried in turn."""
    if meld.kind is _SET:
        offset = (meld.low - 1) % 13
        tries: list[tuple[Card, End | None]] = [(_TRIALS[suit * 13 + offset], None) for suit in range(4)]
        tries.append((_A_JOKER, None))
    else:
        tries = [(_A_JOKER, "low"), (_A_JOKER, "high")]
        suit = _run_suit(meld)
        if meld.low > 1:
            tries.append((_TRIALS[suit * 13 + (meld.low - 2) % 13], "low"))
        if meld.high < 14:
            tries.append((_TRIALS[suit * 13 + meld.high % 13], "high"))
    held = _MELD_RULES.of(rules)
    out: list[tuple[int, End | None]] = []
    for card, end in tries:
        # lay_off(meld, card, end, rules) without the ValueError: ``end`` is given for runs.
        if _meld_problem(_grown(meld, card, end), held) is None:
            out.append((card & FACE_MASK, end))
    return tuple(out)


def _run_suit(meld: Meld) -> int:
    """The suit number of a run's naturals (``ValueError`` for a run of jokers only, which has no suit)."""
    for card in meld.cards:
        face = card & FACE_MASK
        if face != JOKER_FACE:
            return face // 13
    raise ValueError(f"the run {meld} has no natural card, so no suit")


def swap_joker(meld: Meld, joker: Card, natural: Card, rules: Ruleset) -> Meld:
    """``meld`` with ``natural`` in the place of ``joker``; ``ValueError`` if it is not the card the joker stands for."""
    if joker & FACE_MASK != JOKER_FACE or joker not in meld.cards:
        raise FaultError(Fault(Problem.NOT_A_JOKER_OF, {"card": joker, "meld": _shown(meld)}))
    if natural & FACE_MASK == JOKER_FACE:
        raise FaultError(Fault(Problem.SWAP_FOR_NATURAL))
    index = meld.cards.index(joker)
    if natural & FACE_MASK not in faces_standing_for(meld, index):
        raise FaultError(Fault(Problem.JOKER_STANDS_FOR, {"stands": _standing(meld, index), "card": natural}))
    swapped = new_meld(meld.kind, (*meld.cards[:index], natural, *meld.cards[index + 1 :]), meld.low)
    fault = meld_fault(swapped, rules)
    if fault is not None:
        raise FaultError(fault)
    return swapped


def _standing(meld: Meld, index: int) -> Rank | Card:
    """:func:`stands_for` as a fault's parameter: the rank in a set, the card in a run."""
    rank = slot_rank(meld, index)
    suit = meld.suit if meld.kind is not _SET else ""
    if not 1 <= rank <= 14 or len(suit) != 1 or suit not in SUITS:
        return Rank(rank)
    return Card.natural(rank, suit)
