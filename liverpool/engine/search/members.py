"""The melds :mod:`.search.value` chooses from: the shapes of :mod:`.search.candidates` as members
``(score, use, jokers, tag, block)``, only what that search reads of them, and runs alike in that are one;
and the families (:class:`TableFamily`) and kinds (:class:`TableKind`) that search keeps them and its tables
in, with what it reads of what a family has left.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Final

from liverpool.engine._speed.bits import bit_count
from liverpool.engine._speed.cache import memo
from liverpool.engine.cards import JOKER_FACE
from liverpool.engine.rules.parts import JoinableRuns
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.search.candidates import (
    _RUN_SUIT_BIT,
    _SET_RANK_BIT,
    ACE_HIGH,
    RUN_SHAPE,
    SET_SHAPE,
    run_shape_list,
)
from liverpool.engine.search.tables import Member, RunBook, RunJoins, RunRules, SetRules, Steps

_score: Final = itemgetter(0)
_TOUCHING: Final = JoinableRuns.TOUCHING  # (runs laid end to end: their ends are tagged)
# The bit a suit's own runs are tagged with, when the suit is tabled in its own fields (``local``).
LOCAL_SUIT_BIT: Final = 1 << 48


def run_members(
    present: int, suit: int, jokers: int, weights: tuple[int, ...], width: int, lengths: int, rules: Ruleset,
    local: bool = False,
) -> list[Member]:  # fmt: skip
    """The distinct runs of ``suit`` whose naturals are ranks of ``present`` (bits 1..13), best first, with at
    most ``jokers`` jokers and a length in ``lengths`` (a bit mask); tags and blocks as
    :mod:`.search.candidates` gives them. Runs alike but for where their jokers stand are one member.
    ``local``: the runs as the suit's own table reads them, its fields first (``use`` in the clubs' fields)
    and tags that keep apart runs of this suit only (:data:`LOCAL_SUIT_BIT`, ends at bits ``low`` and
    ``32 + high``), so that its search works on small ints.

    With 4, 5 and 6 of clubs and a joker, ``JK 4 5 6`` and ``4 5 6 JK`` are one run of four:

    >>> from liverpool.engine.rules.presets import find_preset
    >>> members = run_members(0b1110000, 0, 1, (5,) * 52 + (20,), 2, 1 << 4, find_preset('liverpool'))
    >>> [(score, bin(use), jokers) for score, use, jokers, _, _ in members]
    [(35, '0b10101000000', 1)]
    """
    if present & 2:
        present |= 1 << ACE_HIGH
    base = suit * 13
    shapes = run_shape_list(
        present, jokers, width, weights[base : base + 13], lengths,
        rules.run_min_naturals, rules.run_joker_spacing, rules.aces_low, rules.aces_high,
    )  # fmt: skip
    if not shapes:
        return []
    joker_weight = weights[JOKER_FACE]
    joinable = rules.joinable_runs is _TOUCHING
    if local:
        suit_tag = LOCAL_SUIT_BIT if rules.run_distinct_suits else 0
        shift = low_base = 0
        high_base = 32
    else:
        suit_tag = (1 << (_RUN_SUIT_BIT + suit)) if rules.run_distinct_suits else 0
        shift = base * width
        low_base = suit * 16
        high_base = 64 + low_base
    seen: set[int] = set()
    out: list[Member] = []
    for i in range(0, len(shapes), RUN_SHAPE):
        natural_score, size, natural_use = shapes[i], shapes[i + 1], shapes[i + 2]
        joker_count, low = shapes[i + 3], shapes[i + 4]
        tag = block = suit_tag
        if joinable:
            # its ends and naturals tell the run's jokers: no other run is alike
            high = low + size - 1
            tag |= 1 << (low_base + low) | 1 << (high_base + high)
            block |= 1 << (low_base + high + 1) | 1 << (high_base + low - 1)
        else:
            key = natural_use << 16 | joker_count
            if key in seen:
                continue
            seen.add(key)
        out.append((natural_score + joker_count * joker_weight, natural_use << shift, joker_count, tag, block))
    out.sort(key=_score, reverse=True)
    return out


def set_members(
    have: tuple[int, int, int, int], rank: int, jokers: int, width: int, rank_weight: int, set_rules: SetRules,
    distinct_ranks: bool,
) -> list[Member]:  # fmt: skip
    """The sets of ``rank`` from ``have[suit]`` of its naturals and at most ``jokers`` jokers, best first: those
    of :func:`.set_shapes` under ``set_rules`` (:meth:`.SetRules.shapes`, kept across hands), tagged by rank
    when ranks must differ. Made anew for each hand from the kept shapes: a cache of them hit less than half
    the time on the corpus of ``benchmarks/contracts.py``, and the tuples it kept made the garbage collector
    run more often."""
    shapes = set_rules.shapes(have, jokers, width)
    joker_weight = set_rules.joker_weight
    rank_tag = (1 << (_SET_RANK_BIT + rank)) if distinct_ranks else 0
    shift = (rank - 1) * width
    out = []
    for i in range(0, len(shapes), SET_SHAPE):
        joker_count = shapes[i + 2]
        out.append((shapes[i] * rank_weight + joker_count * joker_weight, shapes[i + 1] << shift, joker_count,
                    rank_tag, rank_tag))  # fmt: skip
    out.sort(key=_score, reverse=True)
    return out


class TableFamily:
    """The distinct candidates of one suit or rank, best first, and the fields of its faces. The tables of
    the sets of a ``rank`` come from :func:`set_steps`; the runs of a ``suit`` that may hold one run only
    have no candidates, their table comes from :func:`run_steps` (through ``book``). ``tables`` holds the
    tables met in this hand, by what the family has left. A suit's runs that may hold several runs are
    tabled from their candidates, ``members``, kept in the suit's own fields (``shift``: where they are in
    the hand; :func:`run_members` with ``local``), listed from the ranks ``present`` under the ruleset
    ``source`` only once a table is made; ``single`` gives its one-run tables, from which
    :func:`.search.value._bound_steps` bounds its own (kept in ``bounds``). (Plain classes, not
    dataclasses: a compiled dataclass is built by the Python ``__init__`` the dataclasses module writes, a
    few of them for every hand.)"""

    def __init__(
        self, fields: int, members: list[Member], most: int, tables: dict[int, Steps], suit: int = -1,
        rank: int = 0, book: RunBook | None = None, shift: int = -1, single: RunBook | None = None,
        present: int = 0, source: Ruleset | None = None,
    ) -> None:  # fmt: skip
        self.fields = fields
        self.members = members
        self.most = most
        self.tables = tables
        self.suit = suit
        self.rank = rank
        self.book = book
        self.shift = shift
        self.single = single
        self.present = present
        self.source = source
        self.bounds: dict[int, tuple[Steps, Steps]] = {}
        self.joins: RunJoins | None = None  # (its runs' keys, once listed, when runs that could join may not part)


class TableKind:
    """The families of one kind of meld, how many slots the contract has for it, and the jokers. ``joined``
    keeps the rows of :func:`.search.value._joined` met in this hand, by what the families have left (``fields``): outer
    melds alike but for their jokers, or that take nothing from these families, leave the same; ``lows``
    and ``highs`` the bounds of them it reads when ``bounded``: several runs that may share a suit."""

    def __init__(self, slots: int, jokers: int, families: list[TableFamily]) -> None:
        self.slots = slots
        self.jokers = jokers
        self.families = families
        fields = 0
        bounded = False
        for family in families:
            fields |= family.fields
            bounded = bounded or family.single is not None
        self.fields = fields
        self.bounded = bounded and slots > 1
        # Runs of one suit that could be laid as one may not be laid apart (see :class:`.RunJoins`).
        self.joins = False
        self.joined: dict[int, list[int]] = {}
        self.lows: dict[int, list[int]] = {}
        self.highs: dict[int, list[int]] = {}


def naturals_left(left: int, rank: int, width: int) -> tuple[int, int, int, int]:
    """How many naturals of ``rank`` are left, by suit, fewest first (the suits of a set are alike)."""
    mask = (1 << (width - 1)) - 1
    shift = (rank - 1) * width
    step = 13 * width
    a = left >> shift & mask
    b = left >> (shift + step) & mask
    c = left >> (shift + 2 * step) & mask
    d = left >> (shift + 3 * step) & mask
    # (sorted by five exchanges, in locals: compiled, a list sorted boxes each count and calls the sort)
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    return (a, b, c, d)


@memo(maxsize=64)
def rank_fields(rank: int, width: int) -> int:
    return sum(((1 << width) - 1) << ((suit * 13 + rank - 1) * width) for suit in range(4))


def run_families(
    counts: list[int], jokers: int, weights: tuple[int, ...], width: int, lengths: int, rules: Ruleset, slots: int,
    local: bool, run_rules: RunRules,
) -> list[TableFamily]:  # fmt: skip
    """The suits that have runs, with their distinct runs (:func:`.run_members`; ``local``: in the suit's own
    fields, for its table, which :func:`.search.value._bound_steps` bounds from the suit's one-run tables,
    ``single``; those runs are listed only when the table is made)."""
    out = []
    for suit in range(4):
        base = suit * 13
        present = 0
        for rank in range(1, 14):
            if counts[base + rank - 1]:
                present |= 1 << rank
        if bit_count(present) < rules.run_min_naturals:
            continue
        most = 1 if rules.run_distinct_suits else slots
        shift = base * width
        fields = ((1 << (13 * width)) - 1) << shift
        if local:
            # (its runs are listed only once its own table is needed: often its bounds do)
            single = run_rules.book(suit, jokers)
            row = single.steps(present | (present & 2) << 13)
            if row and row[0][0] <= jokers:  # (the book's table may list only runs of more jokers)
                family = TableFamily(
                    fields, [], most, {}, suit, shift=shift, single=single, present=present, source=rules
                )
                out.append(family)
            continue
        members = run_members(present, suit, jokers, weights, width, lengths, rules, local)
        if members:
            out.append(TableFamily(fields, members, most, {}, suit))
    return out


def set_families(
    counts: list[int], jokers: int, weights: tuple[int, ...], width: int, set_rules: SetRules, rules: Ruleset,
    slots: int,
) -> list[TableFamily]:  # fmt: skip
    """The ranks that have sets, with their sets (:func:`.set_members`)."""
    out = []
    distinct_ranks = rules.set_distinct_ranks
    most = 1 if distinct_ranks else slots
    for rank in range(1, 14):
        have = (counts[rank - 1], counts[rank + 12], counts[rank + 25], counts[rank + 38])
        if have[0] + have[1] + have[2] + have[3] < set_rules.min_naturals:
            continue
        members = set_members(have, rank, jokers, width, weights[rank - 1], set_rules, distinct_ranks)
        if members:
            out.append(TableFamily(rank_fields(rank, width), members, most, {}, rank=rank))
    return out


def ranks_left(left: int, suit: int, width: int) -> int:
    """The ranks of ``suit`` left (bits 1..13, and 14 for an ace)."""
    present = 0
    mask = (1 << (width - 1)) - 1
    block = left >> (suit * 13 * width) & ((1 << (13 * width)) - 1)
    for rank in range(1, 14):
        if block & mask:
            present |= 1 << rank
        block >>= width
    return present | (present & 2) << 13
