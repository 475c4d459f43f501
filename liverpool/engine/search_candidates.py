"""Every set and run one hand could lay for a contract, described by faces: the candidates of the search.

Copies of one face (``7H`` and ``7H#1``) are one resource with a count. The counts of a hand are packed
into one int, :attr:`Packing.width` bits per face with a guard bit on top of each field, so whether a
meld still fits in what is left of the hand is one subtraction and one mask (see :meth:`Packing.fits`).

The shapes of runs and sets (where the jokers go, how many naturals of each suit) depend only on which
ranks or suits are present, not on the suit or rank itself, so they are cached across hands and shifted
into place.

>>> from .presets import find_preset
>>> from .cards import parse_cards
>>> rules = find_preset('liverpool')
>>> pool = CandidatePool.build(parse_cards('7H 7S 7D 9H 10H JH JK'), rules.contract(1), rules, whole_hand=False)
>>> [str(c) for c in pool.by_kind[MeldKind.RUN]][:3]
['run: 7H JK 9H 10H JH', 'run: JK 9H 10H JH', 'run: 9H 10H JH JK']
>>> [str(c) for c in pool.by_kind[MeldKind.SET]][:2]
['set: 7D 7H 7S JK', 'set: 7D 7H JK']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from typing import NamedTuple

from .cards import JOKER_FACE, face_text
from .rules import MeldKind, MeldRule, Ruleset

ACE_HIGH = 14
_ANY_LENGTH = (1 << 256) - 1
_RUN_SUIT_BIT = 128
_SET_RANK_BIT = 132
_SUIT_BITS = 8
SCAN = 6


class Candidate(NamedTuple):
    """One meld a hand could lay, by faces.

    ``order`` sorts the candidates of a kind: more points first, then more cards, then by suit or rank, low
    end and shape. ``score`` is what laying it sheds (the weights of its faces) and ``use`` its packed face
    counts. ``tag`` and ``block`` carry the contract's constraints between melds: a candidate whose ``tag``
    meets the ``block`` of one already chosen may not join it (same suit, same rank, or a run that could be
    joined end to end). ``group`` is the suit or rank bit that must differ between the melds of a contract
    (0 when nothing must differ); ``family`` is the suit (0..3) of a run or the rank of a set. ``shape`` is
    a run's joker mask over ranks ``low .. low + size - 1``, or a set's naturals per suit, 8 bits each.
    """

    order: int
    score: int
    size: int
    use: int
    tag: int
    block: int
    group: int
    jokers: int
    family: int
    kind: MeldKind
    low: int
    shape: int

    def faces(self) -> tuple[int, ...]:
        """The faces laid, in meld order (a set's naturals by suit, then its jokers)."""
        if self.kind is MeldKind.RUN:
            base = self.family * 13
            ranks = range(self.low, self.low + self.size)
            return tuple(JOKER_FACE if self.shape >> r & 1 else base + (r - 1) % 13 for r in ranks)
        naturals = tuple(
            suit * 13 + self.low - 1
            for suit in range(4)
            for _ in range(self.shape >> (_SUIT_BITS * suit) & ((1 << _SUIT_BITS) - 1))
        )
        return naturals + (JOKER_FACE,) * self.jokers

    def __str__(self) -> str:
        return f"{self.kind.value}: {' '.join(face_text(f) for f in self.faces())}"


@dataclass(frozen=True, slots=True)
class Family:
    """The candidates of one suit (runs) or rank (sets), for bounding what a search can still shed.

    ``head`` holds the first :data:`SCAN` candidates by score as ``(score, use, tag)``, and ``beyond`` the
    score of the next one (-1 if none), which bounds all the others; ``naturals_head`` and
    ``naturals_beyond`` are the same by the points of the candidates' naturals. ``bit`` is the family's
    group bit. The joker counts and ``naturals`` (the points of the family's naturals in hand) hold for
    the whole hand, so they stay valid bounds as cards are melded.
    """

    bit: int
    fewest_jokers: int
    most_jokers: int
    naturals: int
    head: list[tuple[int, int, int]]
    beyond: int
    naturals_head: list[tuple[int, int, int]]
    naturals_beyond: int

    @classmethod
    def of(cls, candidates: list[Candidate], naturals: int, joker_weight: int) -> Family:
        """The family of ``candidates`` (sorted, all of one suit or rank)."""
        jokers = [c.jokers for c in candidates]
        by_score = [(c.score, c.use, c.tag) for c in candidates[: SCAN + 1]]
        by_naturals = sorted(((c.score - c.jokers * joker_weight, c.use, c.tag) for c in candidates), reverse=True)
        return cls(
            candidates[0].group, min(jokers), max(jokers), naturals,
            by_score[:SCAN], by_score[SCAN][0] if len(by_score) > SCAN else -1,
            by_naturals[:SCAN], by_naturals[SCAN][0] if len(by_naturals) > SCAN else -1,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Packing:
    """Face counts packed into one int: face ``f`` (``JOKER_FACE`` for jokers) in bits ``f*width ..``."""

    width: int
    guard: int

    @classmethod
    def for_largest(cls, largest: int) -> Packing:
        """The packing for counts up to ``largest``."""
        width = max(1, largest).bit_length() + 1
        return cls(width, _guard(width))

    def count(self, packed: int, face: int) -> int:
        return (packed >> (face * self.width)) & ((1 << (self.width - 1)) - 1)

    def fits(self, guarded: int, use: int) -> bool:
        """Whether ``use`` fits in ``guarded`` (packed counts with every guard bit set)."""
        return (guarded - use) & self.guard == self.guard


@lru_cache(maxsize=16)
def _guard(width: int) -> int:
    return sum(1 << (f * width + width - 1) for f in range(JOKER_FACE + 1))


def lengths_allowed(contract: Sequence[MeldRule], kind: MeldKind, rules: Ruleset) -> int:
    """Bit ``n`` is set when a meld of ``n`` cards may fill some slot of ``kind`` in ``contract``."""
    wanted = [r.length for r in contract if r.kind is kind]
    if not wanted:
        return 0
    if rules.longer_melds:
        return _ANY_LENGTH ^ ((1 << max(3, min(wanted))) - 1)
    return sum(1 << n for n in set(wanted) if n >= 3)


@lru_cache(maxsize=64)
def face_weights(card_values: tuple[int, ...], whole_hand: bool) -> tuple[int, ...]:
    """What melding each face sheds: its penalty, or 1 a card when the whole hand must be melded."""
    if whole_hand:
        return (1,) * (JOKER_FACE + 1)
    return tuple(card_values[face % 13] for face in range(JOKER_FACE)) + (card_values[13],)


@dataclass(frozen=True, slots=True)
class CandidatePool:
    """The hand as face counts (also packed, in ``start``), and every candidate meld of each kind, sorted by
    ``order``, also by family."""

    counts: tuple[int, ...]
    weights: tuple[int, ...]
    packing: Packing
    start: int
    by_kind: dict[MeldKind, list[Candidate]]
    families: dict[MeldKind, list[Family]]

    @classmethod
    def build(cls, hand: Sequence[int], contract: Sequence[MeldRule], rules: Ruleset, whole_hand: bool) -> CandidatePool:
        """Candidates of ``hand`` for the slots of ``contract``; scores are penalties shed, or cards melded
        when the ``whole_hand`` must go."""
        counts = [0] * (JOKER_FACE + 1)
        for card in hand:
            counts[card & 63] += 1
        weights = face_weights(rules.card_values, whole_hand)
        packing = Packing.for_largest(max(counts))
        width = packing.width
        start = 0
        for face, n in enumerate(counts):
            if n:
                start += n << (face * width)
        by_kind: dict[MeldKind, list[Candidate]] = {}
        families: dict[MeldKind, list[Family]] = {}
        joker_weight = weights[JOKER_FACE]
        for kind, make in ((MeldKind.RUN, _runs), (MeldKind.SET, _sets)):
            lengths = lengths_allowed(contract, kind, rules)
            members = make(counts, lengths, rules, weights, width) if lengths else []
            families[kind] = [Family.of(m, _naturals(kind, m[0].family, counts, weights), joker_weight) for m in members]
            by_kind[kind] = sorted(c for m in members for c in m) if len(members) > 1 else [c for m in members for c in m]
        return cls(tuple(counts), weights, packing, start, by_kind, families)


def _naturals(kind: MeldKind, family: int, counts: list[int], weights: tuple[int, ...]) -> int:
    faces = range(family * 13, family * 13 + 13) if kind is MeldKind.RUN else range(family - 1, JOKER_FACE, 13)
    return sum(counts[f] * weights[f] for f in faces)


def _order(score: int, size: int, family: int, low: int, shape: int) -> int:
    """Sorts by score (descending), size (descending), family, low end and shape (``shape < 2**40``)."""
    return (((-score << 8 | (255 - size)) << 4 | family) << 4 | low) << 40 | shape


def _runs(counts: list[int], lengths: int, rules: Ruleset, weights: tuple[int, ...], width: int) -> list[list[Candidate]]:
    """The runs of each suit that has some, sorted."""
    jokers = counts[JOKER_FACE]
    joker_unit = 1 << (JOKER_FACE * width)
    joker_weight = weights[JOKER_FACE]
    out = []
    for suit in range(4):
        base = suit * 13
        present = 0
        for rank, n in enumerate(counts[base : base + 13], 1):
            if n:
                present |= 1 << rank
        if present.bit_count() < rules.run_min_naturals:
            continue
        if present & 2:
            present |= 1 << ACE_HIGH
        templates = _run_templates(
            present, jokers, width, weights[base : base + 13], lengths,
            rules.run_min_naturals, rules.run_joker_spacing, rules.aces_low, rules.aces_high,
        )  # fmt: skip
        if not templates:
            continue
        suit_tag = (1 << (_RUN_SUIT_BIT + suit)) if rules.run_distinct_suits else 0
        shift = base * width
        joinable = rules.no_joinable_runs
        family = []
        for natural_score, size, natural_use, joker_count, low, mask in templates:
            score = natural_score + joker_count * joker_weight
            tag = block = suit_tag
            if joinable:
                high = low + size - 1
                tag |= 1 << (suit * 16 + low) | 1 << (64 + suit * 16 + high)
                block |= 1 << (suit * 16 + high + 1) | 1 << (64 + suit * 16 + low - 1)
            family.append(
                Candidate(
                    _order(score, size, suit, low, mask), score, size, (natural_use << shift) + joker_count * joker_unit,
                    tag, block, suit_tag, joker_count, suit, MeldKind.RUN, low, mask,
                )  # fmt: skip
            )
        family.sort()
        out.append(family)
    return out


@lru_cache(maxsize=8192)
def _run_templates(
    present: int, jokers: int, width: int, rank_weights: tuple[int, ...], lengths: int,
    min_naturals: int, spacing: int, aces_low: bool, aces_high: bool,
) -> tuple[tuple[int, int, int, int, int, int], ...]:  # fmt: skip
    """The runs of one suit as ``(natural score, size, natural use in the clubs' fields, jokers, low,
    joker mask)``; see :func:`run_shapes`."""
    out = []
    for low, size, mask in run_shapes(present, jokers, lengths, min_naturals, spacing, aces_low, aces_high):
        natural_score = natural_use = 0
        naturals = ((1 << (low + size)) - (1 << low)) & ~mask
        while naturals:
            bit = naturals & -naturals
            naturals ^= bit
            rank = (bit.bit_length() - 2) % 13
            natural_score += rank_weights[rank]
            natural_use += 1 << (rank * width)
        out.append((natural_score, size, natural_use, mask.bit_count(), low, mask))
    return tuple(out)


@lru_cache(maxsize=8192)
def run_shapes(
    present: int, jokers: int, lengths: int, min_naturals: int, spacing: int, aces_low: bool, aces_high: bool
) -> tuple[tuple[int, int, int], ...]:
    """Every valid run over ranks ``present`` (bits 1..14, the ace in both 1 and 14) with at most ``jokers``
    jokers, as ``(low, size, joker_mask)``: ranks in ``joker_mask`` are jokers, the others naturals.

    With 4, 5 and 6 of a suit and one joker, runs of exactly 4 with 3 naturals: ``JK 4 5 6``, ``4 5 6 JK``.

    >>> run_shapes(0b1110000, 1, 1 << 4, 3, 0, True, True)
    ((3, 4, 8), (4, 4, 128))
    """
    if (present & ~(1 << ACE_HIGH)).bit_count() < min_naturals:
        return ()
    first, last = (1 if aces_low else 2), (ACE_HIGH if aces_high else 13)
    shortest = (lengths & -lengths).bit_length() - 1
    out: list[tuple[int, int, int]] = []
    for low in range(first, last - shortest + 2):
        if (present >> low).bit_count() < min_naturals:
            break
        for high in range(low + shortest - 1, min(last, low + 12) + 1):
            window = ((1 << (high + 1)) - 1) ^ ((1 << low) - 1)
            forced = window & ~present
            forced_jokers = forced.bit_count()
            if forced_jokers > jokers:
                break
            if not lengths >> (high - low + 1) & 1:
                continue
            naturals = window & present
            spare = min(jokers - forced_jokers, naturals.bit_count() - min_naturals)
            if spare < 0:
                continue
            ranks = [r for r in range(low, high + 1) if naturals >> r & 1]
            for extra in range(spare + 1):
                for chosen in combinations(ranks, extra):
                    mask = forced
                    for r in chosen:
                        mask |= 1 << r
                    if spacing > 1 and not _spaced(mask, spacing):
                        continue
                    out.append((low, high - low + 1, mask))
    return tuple(out)


def _spaced(mask: int, spacing: int) -> bool:
    return all(mask & (mask >> gap) == 0 for gap in range(1, spacing))


def _sets(counts: list[int], lengths: int, rules: Ruleset, weights: tuple[int, ...], width: int) -> list[list[Candidate]]:
    """The sets of each rank that has some, sorted."""
    jokers = counts[JOKER_FACE]
    joker_unit = 1 << (JOKER_FACE * width)
    joker_weight = weights[JOKER_FACE]
    longest = rules.set_max_length if rules.set_max_length is not None else ACE_HIGH * 16
    if rules.set_distinct_suits:
        longest = min(longest, 4)
    out = []
    min_naturals = rules.set_min_naturals
    for rank in range(1, 14):
        have = (counts[rank - 1], counts[rank + 12], counts[rank + 25], counts[rank + 38])
        if have[0] + have[1] + have[2] + have[3] < min_naturals:
            continue
        templates = _set_templates(have, jokers, width, lengths, min_naturals, longest, rules.set_distinct_suits)
        if not templates:
            continue
        rank_tag = (1 << (_SET_RANK_BIT + rank)) if rules.set_distinct_ranks else 0
        shift = (rank - 1) * width
        rank_weight = weights[rank - 1]
        family = []
        for naturals, natural_use, joker_count, shape in templates:
            score = naturals * rank_weight + joker_count * joker_weight
            size = naturals + joker_count
            family.append(
                Candidate(
                    _order(score, size, rank, 0, shape << 8 | joker_count), score, size,
                    (natural_use << shift) + joker_count * joker_unit,
                    rank_tag, rank_tag, rank_tag, joker_count, rank, MeldKind.SET, rank, shape,
                )  # fmt: skip
            )
        family.sort()
        out.append(family)
    return out


@lru_cache(maxsize=8192)
def _set_templates(
    have: tuple[int, ...], jokers: int, width: int, lengths: int, min_naturals: int, longest: int, distinct_suits: bool
) -> tuple[tuple[int, int, int, int], ...]:
    """Sets of one rank as ``(naturals, natural use in the aces' fields, jokers, naturals per suit)``."""
    out = []
    for per_suit, joker_count in set_shapes(have, jokers, lengths, min_naturals, longest, distinct_suits):
        natural_use = sum(n << (suit * 13 * width) for suit, n in enumerate(per_suit))
        shape = sum(n << (_SUIT_BITS * suit) for suit, n in enumerate(per_suit))
        out.append((sum(per_suit), natural_use, joker_count, shape))
    return tuple(out)


@lru_cache(maxsize=8192)
def set_shapes(
    have: tuple[int, ...], jokers: int, lengths: int, min_naturals: int, longest: int, distinct_suits: bool
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every valid set from ``have[suit]`` naturals of one rank and up to ``jokers`` jokers, as
    ``(naturals per suit, jokers)``.

    >>> set_shapes((1, 0, 2, 0), 1, 1 << 3, 2, 99, False)
    (((0, 0, 2, 0), 1), ((1, 0, 1, 0), 1), ((1, 0, 2, 0), 0))
    """
    caps = [min(n, 1) if distinct_suits else n for n in have]
    if sum(caps) < min_naturals:
        return ()
    out: list[tuple[tuple[int, ...], int]] = []
    for naturals in product(*(range(cap + 1) for cap in caps)):
        laid = sum(naturals)
        if laid < min_naturals:
            continue
        for joker_count in range(min(jokers, longest - laid) + 1):
            if lengths >> (laid + joker_count) & 1:
                out.append((naturals, joker_count))
    return tuple(out)
