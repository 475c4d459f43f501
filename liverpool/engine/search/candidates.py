"""Every set and run one hand could lay for a contract, described by faces: the candidates of the search.

Copies of one face (``7H`` and ``7H#1``) are one resource with a count. The counts of a hand are packed
into one int, :attr:`Packing.width` bits per face with a guard bit on top of each field, so whether a
meld still fits in what is left of the hand is one subtraction and one mask: with every guard bit set in
what is left, ``(left - use) & guard == guard`` exactly when no field borrowed.

A candidate is an :data:`Entry` ``(score, size, use, tag, block, order, jokers)``: ``score`` is what laying
it sheds (the weights of its faces), ``use`` its packed face counts, ``jokers`` the jokers' count of ``use`` in
a native int (the walk passes over a candidate that wants more jokers than are left without a big-int test),
and ``tag`` and ``block`` carry the contract's constraints between melds: a candidate whose ``tag`` meets the
``block`` of one already chosen may not join it (same suit, same rank, or a run that could be joined end to
end). ``order`` sorts the
candidates of a kind (more points, then more cards, then suit or rank, low end and shape) and encodes
the meld itself (:func:`decode`).

The shapes of runs and sets (where the jokers go, how many naturals of each suit) depend only on which
ranks or suits are present, not on the suit or rank itself, so they are cached across hands and shifted
into place.

>>> from liverpool.engine.rules.presets import find_preset
>>> from liverpool.engine.cards import parse_cards
>>> rules = find_preset('liverpool')
>>> pool = CandidatePool.build(parse_cards('7H 7S 7D 9H 10H JH JK'), rules.contract(1), rules, whole_hand=False)
>>> [describe(MeldKind.RUN, e[5]) for e in pool.entries[MeldKind.RUN]][:3]
['run: 7H JK 9H 10H JH', 'run: JK 9H 10H JH', 'run: 9H 10H JH JK']
>>> [describe(MeldKind.SET, e[5]) for e in pool.entries[MeldKind.SET]][:2]
['set: 7D 7H 7S JK', 'set: 7D 7H JK']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Final

from liverpool.engine._speed.bits import bit_count, spaced
from liverpool.engine._speed.cache import memo
from liverpool.engine.cards import JOKER_FACE, face_text
from liverpool.engine.rules.parts import JoinableRuns, MeldKind, MeldRule
from liverpool.engine.rules.ruleset import Ruleset

Entry = tuple[int, int, int, int, int, int, int]
SCAN: Final = 6
ACE_HIGH: Final = 14
_ANY_LENGTH: Final = (1 << 256) - 1
_RUN_SUIT_BIT: Final = 128
_SET_RANK_BIT: Final = 132
_SUIT_BITS: Final = 8
_SHAPE_BITS: Final = 40
_by_order: Final = itemgetter(5)
_RUN: Final = MeldKind.RUN
_TOUCHING: Final = JoinableRuns.TOUCHING  # (runs laid end to end: their ends are tagged)


def _order(score: int, size: int, family: int, low: int, shape: int) -> int:
    return (((-score << 8 | (255 - size)) << 4 | family) << 4 | low) << _SHAPE_BITS | shape


def decode(kind: MeldKind, order: int) -> tuple[int, tuple[int, ...]]:
    """The low rank and the faces (in meld order) of the candidate ``order`` of ``kind``."""
    shape = order & ((1 << _SHAPE_BITS) - 1)
    low = order >> _SHAPE_BITS & 15
    family = order >> (_SHAPE_BITS + 4) & 15
    size = 255 - (order >> (_SHAPE_BITS + 8) & 255)
    if kind is _RUN:
        base = family * 13
        return low, tuple(JOKER_FACE if shape >> r & 1 else base + (r - 1) % 13 for r in range(low, low + size))
    per_suit = shape >> 8
    naturals = tuple(suit * 13 + family - 1 for suit in range(4) for _ in range(per_suit >> (_SUIT_BITS * suit) & 255))
    return family, naturals + (JOKER_FACE,) * (shape & 255)


def run_cards(order: int) -> tuple[int, int, int]:
    """The suit, the ranks of the naturals (bits 1..13, an ace at bit 1) and the jokers of the run candidate
    ``order``: what :func:`.melds.runs_could_join` reads of a run."""
    shape = order & ((1 << _SHAPE_BITS) - 1)
    low = order >> _SHAPE_BITS & 15
    size = 255 - (order >> (_SHAPE_BITS + 8) & 255)
    ranks = jokers = 0
    for r in range(low, low + size):
        if shape >> r & 1:
            jokers += 1
        else:
            ranks |= 2 << ((r - 1) % 13)
    return order >> (_SHAPE_BITS + 4) & 15, ranks, jokers


def family_of(order: int) -> int:
    """The suit (0..3, a run) or rank (1..13, a set) of the candidate ``order``."""
    return order >> (_SHAPE_BITS + 4) & 15


def family_fields(kind: MeldKind, order: int, width: int) -> int:
    """The packed fields of every face of the family (suit or rank) of the candidate ``order`` of ``kind``."""
    family = family_of(order)
    field = (1 << width) - 1
    if kind is _RUN:
        return ((1 << (13 * width)) - 1) << (family * 13 * width)
    return sum(field << ((suit * 13 + family - 1) * width) for suit in range(4))


def describe(kind: MeldKind, order: int) -> str:
    """``'run: 7H JK 9H'``: a candidate as text."""
    return f"{kind.value}: {' '.join(face_text(f) for f in decode(kind, order)[1])}"


# The search's own values (a family, a pool) are dataclasses with a written ``__init__`` (``init=False``) and
# not frozen: compiled, the generated ``__init__`` stays Python (a frozen one sets each field through
# ``object.__setattr__``), where a written one is native; one pool and several families are made a question.
@dataclass(slots=True, init=False)
class Family:
    """The candidates of one suit (runs) or rank (sets), for bounding what a search can still shed.

    ``entries`` are its candidates, by order; ``head`` holds the score, use and tag of each of the first
    :data:`SCAN` of them, flat (compiled, reading one field of an entry unpacks all seven; one list a family,
    as few objects for the garbage collector to count as a slice) and ``beyond`` the score of the next one (-1 if none), which bounds all the others. Unless
    ``tagged`` (joinable runs), every candidate's ``tag`` is ``bit``: the test of the family's bit is
    the test of each tag. A suit's runs touch only its 13 fields and the jokers' one: when those fit a native
    int (:data:`LOCAL_WIDTH` bits a field at most), ``shift`` is where the suit's fields start and each use
    in ``head`` is *local*, the suit's fields then the jokers' (-1 otherwise, and for sets), so that
    :meth:`.Walk.best_fitting` tests it on a small int. ``bit`` is the family's group bit (0 when the contract
    does not want distinct suits or ranks). The joker counts, ``best_naturals`` (the most points the
    naturals of one candidate hold) and ``naturals`` (the points of all the family's naturals in hand)
    hold for the whole hand, so they stay valid bounds as cards are melded.
    """

    bit: int
    fewest_jokers: int
    most_jokers: int
    best_naturals: int
    naturals: int
    entries: list[Entry]
    head: list[int]
    beyond: int
    tagged: bool
    shift: int

    def __init__(
        self, bit: int, fewest_jokers: int, most_jokers: int, best_naturals: int, naturals: int,
        entries: list[Entry], head: list[int], beyond: int, tagged: bool, shift: int,
    ) -> None:  # fmt: skip
        self.bit = bit
        self.fewest_jokers = fewest_jokers
        self.most_jokers = most_jokers
        self.best_naturals = best_naturals
        self.naturals = naturals
        self.entries = entries
        self.head = head
        self.beyond = beyond
        self.tagged = tagged
        self.shift = shift

    @classmethod
    def of(
        cls, bit: int, stats: tuple[int, int, int], naturals: int, entries: list[Entry], tagged: bool,
        shift: int = -1, width: int = 0,
    ) -> Family:  # fmt: skip
        """The family of ``entries``; ``shift``: where its suit's fields start in the packing of ``width`` bits
        a field, when its uses may be made local (see the class)."""
        beyond = entries[SCAN][0] if len(entries) > SCAN else -1
        scanned = SCAN if len(entries) > SCAN else len(entries)
        head: list[int] = []
        if shift >= 0:
            suit_fields = (1 << (13 * width)) - 1
            joker_shift, joker_at = JOKER_FACE * width, 13 * width
            for i in range(scanned):
                score, _, use, tag, _, _, _ = entries[i]
                head += (score, (use >> shift) & suit_fields | (use >> joker_shift) << joker_at, tag)
        else:
            for i in range(scanned):
                score, _, use, tag, _, _, _ = entries[i]
                head += (score, use, tag)
        # (the class by name: compiled, a call of ``cls`` is a generic call of the type object)
        return Family(bit, stats[0], stats[1], stats[2], naturals, entries, head, beyond, tagged, shift)


# The widest field with which a suit's 13 fields and the jokers' fit a native int (62 bits, compiled).
LOCAL_WIDTH: Final = 4


@dataclass(frozen=True, slots=True)
class Packing:
    """Face counts packed into one int: face ``f`` (``JOKER_FACE`` for jokers) in bits ``f*width ..``."""

    width: int
    guard: int

    @classmethod
    def for_largest(cls, largest: int) -> Packing:
        """The packing for counts up to ``largest`` (one instance per width)."""
        width = max(1, largest).bit_length() + 1
        return _PACKINGS[width] if width < len(_PACKINGS) else _packing(width)


@memo(maxsize=16)
def _guard(width: int) -> int:
    return sum(1 << (f * width + width - 1) for f in range(JOKER_FACE + 1))


@memo(maxsize=16)
def _packing(width: int) -> Packing:
    return Packing(width, _guard(width))


# The packings of the narrow widths, by width (a list read, where ``_packing`` is a call through lru_cache;
# see Packing.for_largest).
_PACKINGS: Final = [_packing(max(2, width)) for width in range(8)]


def count_hand(hand: Sequence[int]) -> tuple[list[int], Packing, int]:
    """The copies of each face in ``hand``, the packing that holds them, and the counts packed in it."""
    counts = [0] * (JOKER_FACE + 1)
    largest = 1
    for card in hand:
        face = card & 63
        copies = counts[face] + 1
        counts[face] = copies
        if copies > largest:
            largest = copies
    packing = Packing.for_largest(largest)
    width = packing.width
    # (a suit at a time in a small int, then the four and the jokers joined: compiled, adding each card to
    # the whole hand's int makes two ints of several words a card)
    start = counts[JOKER_FACE] << (JOKER_FACE * width)
    for suit in range(4):
        base = suit * 13
        packed = 0
        for rank in range(12, -1, -1):
            packed = packed << width | counts[base + rank]
        start |= packed << (base * width)
    return counts, packing, start


def lengths_allowed(contract: Sequence[MeldRule], kind: MeldKind, rules: Ruleset) -> int:
    """Bit ``n`` is set when a meld of ``n`` cards may fill some slot of ``kind`` in ``contract``."""
    wanted = [r.length for r in contract if r.kind is kind]
    if not wanted:
        return 0
    if rules.longer_melds:
        return _ANY_LENGTH ^ ((1 << max(3, min(wanted))) - 1)
    return sum(1 << n for n in set(wanted) if n >= 3)


@memo(maxsize=64)
def face_weights(card_values: tuple[int, ...], whole_hand: bool) -> tuple[int, ...]:
    """What melding each face sheds: its penalty, or 1 a card when the whole hand must be melded."""
    if whole_hand:
        return (1,) * (JOKER_FACE + 1)
    return (*(card_values[face % 13] for face in range(JOKER_FACE)), card_values[13])


@dataclass(slots=True, init=False)
class CandidatePool:
    """The hand as face counts (packed in ``start``), and the candidates of each kind by family (and, made
    when asked, all of them sorted by order: the search reads only the families)."""

    counts: list[int]
    weights: tuple[int, ...]
    packing: Packing
    start: int
    runs: list[Family]
    sets: list[Family]

    def __init__(
        self, counts: list[int], weights: tuple[int, ...], packing: Packing, start: int, runs: list[Family],
        sets: list[Family],
    ) -> None:  # fmt: skip
        self.counts = counts
        self.weights = weights
        self.packing = packing
        self.start = start
        self.runs = runs
        self.sets = sets

    def of_kind(self, kind: MeldKind) -> list[Family]:
        """The families of ``kind`` (not by a dict: an enum member hashes in Python)."""
        return self.runs if kind is _RUN else self.sets

    @property
    def families(self) -> dict[MeldKind, list[Family]]:
        """The families of each kind."""
        return {MeldKind.RUN: self.runs, MeldKind.SET: self.sets}

    @property
    def entries(self) -> dict[MeldKind, list[Entry]]:
        """The candidates of each kind, sorted by order."""
        out: dict[MeldKind, list[Entry]] = {}
        for kind, families in self.families.items():
            merged: list[Entry] = []
            for family in families:
                merged += family.entries
            merged.sort(key=_by_order)
            out[kind] = merged
        return out

    @classmethod
    def build(
        cls,
        hand: Sequence[int],
        contract: Sequence[MeldRule],
        rules: Ruleset,
        whole_hand: bool,
        kinds: tuple[MeldKind, ...] = (MeldKind.RUN, MeldKind.SET),
    ) -> CandidatePool:
        """Candidates of ``hand`` for the slots of ``contract`` (of ``kinds`` only: the others have none);
        scores are penalties shed, or cards melded when the ``whole_hand`` must go."""
        run_lengths = lengths_allowed(contract, MeldKind.RUN, rules) if MeldKind.RUN in kinds else 0
        set_lengths = lengths_allowed(contract, MeldKind.SET, rules) if MeldKind.SET in kinds else 0
        return cls.of_lengths(hand, rules, whole_hand, run_lengths, set_lengths)

    @classmethod
    def of_lengths(
        cls, hand: Sequence[int], rules: Ruleset, whole_hand: bool, run_lengths: int, set_lengths: int
    ) -> CandidatePool:
        """:meth:`build`, given the lengths of runs and of sets the contract allows (:func:`lengths_allowed`:
        0 for a kind it has no slot of)."""
        counts, packing, start = count_hand(hand)
        weights = face_weights(rules.card_values, whole_hand)
        width = packing.width
        runs = _runs(counts, run_lengths, rules, weights, width) if run_lengths else []
        sets = _sets(counts, set_lengths, rules, weights, width) if set_lengths else []
        return cls(counts, weights, packing, start, runs, sets)


def _runs(counts: list[int], lengths: int, rules: Ruleset, weights: tuple[int, ...], width: int) -> list[Family]:
    """The runs of each suit that has some, sorted, by suit."""
    jokers = counts[JOKER_FACE]
    joker_unit = 1 << (JOKER_FACE * width)
    joker_weight = weights[JOKER_FACE]
    joinable = rules.joinable_runs is _TOUCHING
    # (the ruleset's fields read once: it is a Python object, each read a look-up by name)
    min_naturals, spacing, distinct = rules.run_min_naturals, rules.run_joker_spacing, rules.run_distinct_suits
    aces_low, aces_high = rules.aces_low, rules.aces_high
    out = []
    for suit in range(4):
        base = suit * 13
        present = naturals = 0
        for rank in range(13):
            n = counts[base + rank]
            if n:
                present |= 2 << rank
                naturals += n * weights[base + rank]
        if bit_count(present) < min_naturals:
            continue
        if present & 2:
            present |= 1 << ACE_HIGH
        rank_weights = weights[base : base + 13]
        shapes, stats = run_shapes(
            present, jokers, width, rank_weights, lengths, min_naturals, spacing, aces_low, aces_high
        )
        if not shapes:
            continue
        suit_tag = (1 << (_RUN_SUIT_BIT + suit)) if distinct else 0
        shift = base * width
        members = []
        for i in range(0, len(shapes), RUN_SHAPE):
            size, joker_count, low = shapes[i + 1], shapes[i + 3], shapes[i + 4]
            score = shapes[i] + joker_count * joker_weight
            tag = block = suit_tag
            if joinable:
                high = low + size - 1
                tag |= 1 << (suit * 16 + low) | 1 << (64 + suit * 16 + high)
                block |= 1 << (suit * 16 + high + 1) | 1 << (64 + suit * 16 + low - 1)
            use = (shapes[i + 2] << shift) + joker_count * joker_unit
            members.append((score, size, use, tag, block, _order(score, size, suit, low, shapes[i + 5]), joker_count))
        members.sort(key=_by_order)
        local = shift if width <= LOCAL_WIDTH else -1
        out.append(Family.of(suit_tag, stats, naturals, members, joinable, local, width))
    return out


# The lengths a run can have (bits 0..14 of a lengths mask): a run has at most 14 cards, so the rest of a
# mask is never read, and a mask cut to these bits is a small int, cheap to shift.
RUN_LENGTHS: Final = (1 << (ACE_HIGH + 1)) - 1
# The fields of one run in the flat tuple of :func:`run_shapes`.
RUN_SHAPE: Final = 6


@memo(maxsize=8192)
def run_shapes(
    present: int, jokers: int, width: int, rank_weights: tuple[int, ...], lengths: int,
    min_naturals: int, spacing: int, aces_low: bool, aces_high: bool,
) -> tuple[tuple[int, ...], tuple[int, int, int]]:  # fmt: skip
    """:func:`list_run_shapes` as a tuple, cached across hands for the candidates of :class:`CandidatePool`.

    With 4, 5 and 6 of a suit and one joker, runs of exactly 4 with 3 naturals: ``JK 4 5 6``, ``4 5 6 JK``.

    >>> shapes, stats = run_shapes(0b1110000, 1, 2, (1,) * 13, 1 << 4, 3, 0, True, True)
    >>> [(shapes[i + 4], shapes[i + 1], bin(shapes[i + 5])) for i in range(0, len(shapes), RUN_SHAPE)], stats
    ([(3, 4, '0b1000'), (4, 4, '0b10000000')], (1, 1, 3))
    """
    shapes, stats = list_run_shapes(
        present, jokers, width, rank_weights, lengths, min_naturals, spacing, aces_low, aces_high
    )
    return tuple(shapes), stats


def list_run_shapes(
    present: int, jokers: int, width: int, rank_weights: tuple[int, ...], lengths: int,
    min_naturals: int, spacing: int, aces_low: bool, aces_high: bool,
) -> tuple[list[int], tuple[int, int, int]]:  # fmt: skip
    """Every valid run of one suit whose naturals are ranks of ``present`` (bits 1..14, the ace in both 1 and
    14), with at most ``jokers`` jokers and a length in ``lengths`` (a bit mask), each as :data:`RUN_SHAPE`
    fields in one flat list: points of the naturals, size, natural use in the clubs' fields, jokers, low,
    joker mask; with the fewest and most jokers and the most natural points of any of them. (One flat list
    rather than a tuple a run: the garbage collector runs as often as the objects it tracks grow in
    number.) Not cached: the value search (:mod:`.search.members`, :mod:`.search.tables`) met the same
    ranks again in about one call in ten on the corpus of ``benchmarks/contracts.py``, and a cache of them
    kept several objects for the collector to track for each.
    """
    out = run_shape_list(present, jokers, width, rank_weights, lengths, min_naturals, spacing, aces_low, aces_high)
    if not out:
        return out, (0, 0, 0)
    return out, _shape_stats(out, RUN_SHAPE, 3)


def run_shape_list(
    present: int, jokers: int, width: int, rank_weights: tuple[int, ...], lengths: int,
    min_naturals: int, spacing: int, aces_low: bool, aces_high: bool,
) -> list[int]:  # fmt: skip
    """The flat list of :func:`list_run_shapes` alone, without its joker counts and points (the value
    search, which lists runs for each hand, reads none of them)."""
    first, last = (1 if aces_low else 2), (ACE_HIGH if aces_high else 13)
    usable = present & ((1 << (last + 1)) - (1 << first))
    out: list[int] = []
    if bit_count(usable & ~(1 << ACE_HIGH) | (usable >> 13 & 2)) < min_naturals:
        return out
    lengths &= RUN_LENGTHS
    lowest = (usable & -usable).bit_length() - 1
    for low in range(max(first, lowest - jokers), last + 1):
        if bit_count(usable >> low) < min_naturals:
            break
        forced = forced_count = natural_score = natural_use = 0
        ranks: list[int] = []
        for high in range(low, min(last, low + 12) + 1):
            if usable >> high & 1:
                place = high - 1 if high != ACE_HIGH else 0  # (its face: not % 13, a call when compiled)
                natural_score += rank_weights[place]
                natural_use += 1 << (place * width)
                ranks.append(high)
            else:
                forced |= 1 << high
                forced_count += 1
                if forced_count > jokers or (spacing > 1 and not spaced(forced, spacing)):
                    break
            size = high - low + 1
            spare = min(jokers - forced_count, len(ranks) - min_naturals)
            if spare < 0 or not lengths >> size & 1:
                continue
            out += (natural_score, size, natural_use, forced_count, low, forced)
            for extra in range(1, spare + 1):
                _substitute(
                    out, ranks, rank_weights, width, spacing, 0, extra, forced, natural_score, natural_use, size,
                    forced_count + extra, low,
                )  # fmt: skip
    return out


def _shape_stats(out: list[int], fields: int, jokers: int) -> tuple[int, int, int]:
    """The fewest and most jokers (field ``jokers``) and the most natural points (field 0) of the shapes laid
    out flat in ``out``, ``fields`` a shape (not empty)."""
    fewest = most = out[jokers]
    best = out[0]
    for i in range(0, len(out), fields):
        count = out[i + jokers]
        if count < fewest:
            fewest = count
        if count > most:
            most = count
        if out[i] > best:
            best = out[i]
    return fewest, most, best


def _substitute(
    out: list[int], ranks: list[int], rank_weights: tuple[int, ...], width: int,
    spacing: int, begin: int, extra: int, mask: int, points: int, use: int, size: int, jokers: int, low: int,
) -> None:  # fmt: skip
    """Adds to ``out`` the run of ``size`` cards from ``low`` whose jokers stand at ``mask`` and for ``extra``
    more of ``ranks[begin:]``, each way in the order of :func:`itertools.combinations` (``points`` and
    ``use``: its naturals so far). Under joker spacing a choice whose jokers already stand too close ends
    its branch: more jokers only stand closer."""
    for i in range(begin, len(ranks)):
        r = ranks[i]
        placed = mask | 1 << r
        if spacing > 1 and not spaced(placed, spacing):
            continue
        place = r - 1 if r != ACE_HIGH else 0  # (its face: not % 13, a call when compiled)
        left = points - rank_weights[place]
        used = use - (1 << (place * width))
        if extra == 1:
            out += (left, size, used, jokers, low, placed)
        else:
            _substitute(out, ranks, rank_weights, width, spacing, i + 1, extra - 1, placed, left, used, size, jokers,
                        low)  # fmt: skip


def _sets(counts: list[int], lengths: int, rules: Ruleset, weights: tuple[int, ...], width: int) -> list[Family]:
    """The sets of each rank that has some, sorted, by rank."""
    jokers = counts[JOKER_FACE]
    joker_unit = 1 << (JOKER_FACE * width)
    joker_weight = weights[JOKER_FACE]
    longest = rules.set_max_length if rules.set_max_length is not None else ACE_HIGH * 16
    if rules.set_distinct_suits:
        longest = min(longest, 4)
    min_naturals = rules.set_min_naturals
    distinct_suits, distinct_ranks = rules.set_distinct_suits, rules.set_distinct_ranks
    out = []
    for rank in range(1, 14):
        have = (counts[rank - 1], counts[rank + 12], counts[rank + 25], counts[rank + 38])
        held = have[0] + have[1] + have[2] + have[3]
        if held < min_naturals:
            continue
        shapes, stats = set_shapes(have, jokers, width, lengths, min_naturals, longest, distinct_suits)
        if not shapes:
            continue
        rank_tag = (1 << (_SET_RANK_BIT + rank)) if distinct_ranks else 0
        shift = (rank - 1) * width
        rank_weight = weights[rank - 1]
        members = []
        for i in range(0, len(shapes), SET_SHAPE):
            naturals, natural_use, joker_count, shape = shapes[i], shapes[i + 1], shapes[i + 2], shapes[i + 3]
            score = naturals * rank_weight + joker_count * joker_weight
            size = naturals + joker_count
            use = (natural_use << shift) + joker_count * joker_unit
            members.append(
                (
                    score, size, use, rank_tag, rank_tag, _order(score, size, rank, 0, shape << 8 | joker_count),
                    joker_count,
                )
            )  # fmt: skip
        members.sort(key=_by_order)
        family_stats = (stats[0], stats[1], stats[2] * rank_weight)
        out.append(Family.of(rank_tag, family_stats, held * rank_weight, members, False))
    return out


# The fields of one set in the flat tuple of :func:`set_shapes`.
SET_SHAPE: Final = 4


@memo(maxsize=8192)
def set_shapes(
    have: tuple[int, ...], jokers: int, width: int, lengths: int, min_naturals: int, longest: int, distinct_suits: bool
) -> tuple[tuple[int, ...], tuple[int, int, int]]:
    """Every valid set from ``have[suit]`` naturals of one rank and at most ``jokers`` jokers, with a length
    in ``lengths`` (a bit mask), each as :data:`SET_SHAPE` fields in one flat tuple (as :func:`run_shapes`,
    for the garbage collector): naturals, natural use in the aces' fields, jokers, naturals per suit in
    8-bit fields; with the fewest and most jokers and the most naturals of any of them.

    >>> shapes, stats = set_shapes((1, 0, 2, 0), 1, 2, 1 << 3, 2, 99, False)
    >>> [(shapes[i], shapes[i + 2], hex(shapes[i + 3])) for i in range(0, len(shapes), SET_SHAPE)], stats
    ([(2, 1, '0x20000'), (2, 1, '0x10001'), (3, 0, '0x20001')], (0, 1, 3))
    """
    caps = [min(n, 1) if distinct_suits else n for n in have]
    clubs, diamonds, hearts, spades = caps  # (loops, not itertools.product: a tuple a choice, and slower sums)
    suit_shift = 13 * width
    out: list[int] = []
    for a in range(clubs + 1):
        for b in range(diamonds + 1):
            for c in range(hearts + 1):
                for d in range(spades + 1):
                    laid = a + b + c + d
                    if laid < min_naturals:
                        continue
                    natural_use = a + (b << suit_shift) + (c << 2 * suit_shift) + (d << 3 * suit_shift)
                    shape = a + (b << _SUIT_BITS) + (c << 2 * _SUIT_BITS) + (d << 3 * _SUIT_BITS)
                    for joker_count in range(min(jokers, longest - laid) + 1):
                        if lengths >> (laid + joker_count) & 1:
                            out += (laid, natural_use, joker_count, shape)
    if not out:
        return (), (0, 0, 0)
    return tuple(out), _shape_stats(out, SET_SHAPE, 2)
