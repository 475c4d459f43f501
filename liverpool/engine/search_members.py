"""The melds :mod:`.search_value` chooses from: the shapes of :mod:`.search_candidates` as members
``(score, use, jokers, tag, block)``, only what that search reads of them, and runs alike in that are one.
"""

from __future__ import annotations

from operator import itemgetter

from .cards import JOKER_FACE
from .rules import Ruleset
from .search_candidates import _RUN_SUIT_BIT, _SET_RANK_BIT, ACE_HIGH, RUN_SHAPE, run_shapes, set_shapes
from .search_tables import Member

_score = itemgetter(0)
# The bit a suit's own runs are tagged with, when the suit is tabled in its own fields (``local``).
LOCAL_SUIT_BIT = 1 << 48


def run_members(
    present: int, suit: int, jokers: int, weights: tuple[int, ...], width: int, lengths: int, rules: Ruleset,
    local: bool = False,
) -> list[Member]:  # fmt: skip
    """The distinct runs of ``suit`` whose naturals are ranks of ``present`` (bits 1..13), best first, with at
    most ``jokers`` jokers and a length in ``lengths`` (a bit mask); tags and blocks as
    :mod:`.search_candidates` gives them. Runs alike but for where their jokers stand are one member.
    ``local``: the runs as the suit's own table reads them, its fields first (``use`` in the clubs' fields)
    and tags that keep apart runs of this suit only (:data:`LOCAL_SUIT_BIT`, ends at bits ``low`` and
    ``32 + high``), so that its search works on small ints.

    With 4, 5 and 6 of clubs and a joker, ``JK 4 5 6`` and ``4 5 6 JK`` are one run of four:

    >>> from .presets import find_preset
    >>> members = run_members(0b1110000, 0, 1, (5,) * 52 + (20,), 2, 1 << 4, find_preset('liverpool'))
    >>> [(score, bin(use), jokers) for score, use, jokers, _, _ in members]
    [(35, '0b10101000000', 1)]
    """
    if present & 2:
        present |= 1 << ACE_HIGH
    base = suit * 13
    shapes, _ = run_shapes(
        present, jokers, width, weights[base : base + 13], lengths,
        rules.run_min_naturals, rules.run_joker_spacing, rules.aces_low, rules.aces_high,
    )  # fmt: skip
    if not shapes:
        return []
    joker_weight = weights[JOKER_FACE]
    joinable = rules.no_joinable_runs
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
    have: tuple[int, int, int, int], rank: int, jokers: int, width: int, rank_weight: int, joker_weight: int,
    lengths: int, min_naturals: int, longest: int, distinct_suits: bool, distinct_ranks: bool,
) -> list[Member]:  # fmt: skip
    """The sets of ``rank`` from ``have[suit]`` of its naturals and at most ``jokers`` jokers, best first: those
    of :func:`.set_shapes`, tagged by rank when ranks must differ. Made anew for each hand from the cached
    shapes: a cache of them hit less than half the time on the corpus of ``benchmarks/contracts.py``, and
    the tuples it kept made the garbage collector run more often."""
    shapes, _ = set_shapes(have, jokers, width, lengths, min_naturals, longest, distinct_suits)
    rank_tag = (1 << (_SET_RANK_BIT + rank)) if distinct_ranks else 0
    shift = (rank - 1) * width
    out = [
        (naturals * rank_weight + joker_count * joker_weight, natural_use << shift, joker_count, rank_tag, rank_tag)
        for naturals, natural_use, joker_count, _ in shapes
    ]
    out.sort(key=_score, reverse=True)
    return out
