"""The most a going-down can shed, found family by family: the exact answer of ``best_leftover`` without
listing arrangements.

Runs of different suits share no natural card, nor do sets of different ranks: only jokers pass between
families (a suit for runs, a rank for sets). So for one kind the search keeps, per family, a *table*: the
most ``m`` melds of that family can shed with at most ``j`` jokers, and joins the families' tables by a
knapsack over melds and jokers. When the contract asks for both kinds, the melds of the kind with fewer
ways are chosen by a depth-first search (best first, cut by the other kind's tables on the whole hand),
and each choice leaves the counts the other kind's tables are built from (memoised per family on what the
family has left).

The candidates are those of :mod:`.search_candidates`, so every rule of a single meld (lengths, naturals,
joker spacing, aces, set length) holds as there; their ``tag`` and ``block`` carry the rules between melds
of one family (distinct suits or ranks, runs that could be joined). The search answers when every slot
of a kind asks the same length; :func:`most_shed` returns ``None`` otherwise, and the caller searches
arrangements instead.

>>> from .cards import parse_cards
>>> from .presets import find_preset
>>> rules = find_preset('liverpool')
>>> hand = parse_cards('7H 7S 7D 4C 5C 6C JK KD 2S')
>>> pool = CandidatePool.build(hand, rules.contract(1), rules, whole_hand=False)
>>> most_shed(pool, rules.contract(1))
50
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import JOKER_FACE
from .rules import MeldKind, MeldRule
from .search_candidates import CandidatePool, family_fields

Member = tuple[int, int, int, int, int]
"""A candidate as this search uses it: ``(score, natural use, jokers, tag, block)``."""
Steps = list[list[tuple[int, int]]]
"""A family's table: ``steps[m - 1]`` lists ``(j, most)`` where the most ``m`` melds of the family shed
with at most ``j`` jokers grows; ``m`` runs from 1 to as many as the family can hold."""


@dataclass(slots=True)
class _Family:
    """The distinct candidates of one suit or rank, best first, and the fields of its faces."""

    fields: int
    members: list[Member]
    most: int


@dataclass(slots=True)
class _Kind:
    """The families of one kind of meld, how many slots the contract has for it, and the tables met so far."""

    slots: int
    jokers: int
    families: list[_Family]
    tables: dict[tuple[int, int], Steps]


def most_shed(pool: CandidatePool, contract: Sequence[MeldRule]) -> int | None:
    """The most points (or cards, in a whole-hand pool) a going-down of ``contract`` can shed from the
    pool's hand, -1 when none is possible, ``None`` when the slots of one kind differ in length."""
    jokers = pool.counts[JOKER_FACE]
    width = pool.packing.width
    guard = pool.packing.guard
    joker_unit = 1 << (JOKER_FACE * width)
    kinds: dict[MeldKind, _Kind] = {}
    for kind in (MeldKind.RUN, MeldKind.SET):
        lengths = {rule.length for rule in contract if rule.kind is kind}
        if len(lengths) > 1:
            return None
        if lengths:
            slots = sum(1 for rule in contract if rule.kind is kind)
            kinds[kind] = _Kind(slots, jokers, _families(pool, kind, slots, joker_unit), {})
    start = pool.start | guard
    if not kinds:
        return 0
    if len(kinds) == 1:
        only = next(iter(kinds.values()))
        return _joined(only, start, guard)[jokers]
    runs, sets = kinds[MeldKind.RUN], kinds[MeldKind.SET]
    outer, inner = (runs, sets) if _ways(runs) <= _ways(sets) else (sets, runs)
    members = sorted((m for family in outer.families for m in family.members), reverse=True)
    ceiling = _joined(inner, start, guard)
    best = [-1]
    _choose(members, 0, outer.slots, start, jokers, 0, 0, inner, ceiling, guard, best)
    return best[0]


def _ways(kind: _Kind) -> float:
    """Roughly how many ways there are to fill the slots of ``kind``."""
    return float(sum(len(family.members) for family in kind.families)) ** kind.slots


def _families(pool: CandidatePool, kind: MeldKind, slots: int, joker_unit: int) -> list[_Family]:
    """The families of ``kind`` with their distinct candidates (a run's jokers may stand at several places
    for one use of the hand: only the use matters here)."""
    width = pool.packing.width
    out = []
    for family in pool.families[kind]:
        members: dict[tuple[int, int, int], Member] = {}
        for score, _, use, tag, block, _ in family.entries:
            if (use, tag, block) not in members:
                count = use // joker_unit
                members[use, tag, block] = (score, use - count * joker_unit, count, tag, block)
        entry = family.entries[0]
        most = 1 if entry[3] & entry[4] else slots
        out.append(_Family(family_fields(kind, entry[5], width), list(members.values()), most))
    return out


def _choose(
    members: list[Member], begin: int, wanted: int, left: int, jokers: int, score: int, blocked: int,
    inner: _Kind, ceiling: list[int], guard: int, best: list[int],
) -> None:  # fmt: skip
    """Chooses ``wanted`` more melds of the outer kind from ``members[begin:]``; once all are chosen, the
    inner kind's tables on what is left finish the going-down. ``best[0]`` keeps the most found."""
    if not wanted:
        rest = _joined(inner, left, guard)[jokers]
        if rest >= 0 and score + rest > best[0]:
            best[0] = score + rest
        return
    if ceiling[jokers] < 0:
        return
    for i in range(begin, len(members)):
        m_score, use, count, tag, block = members[i]
        if score + wanted * m_score + ceiling[jokers] <= best[0]:
            return
        if count > jokers or tag & blocked:
            continue
        after = left - use
        if after & guard != guard:
            continue
        _choose(members, i, wanted - 1, after, jokers - count, score + m_score, blocked | block, inner, ceiling,
                guard, best)  # fmt: skip


def _joined(kind: _Kind, left: int, guard: int) -> list[int]:
    """The most ``kind.slots`` melds of ``kind`` shed from ``left``, by jokers allowed (0 up to all)."""
    wanted, jokers = kind.slots, kind.jokers
    total = [[0] * (jokers + 1)] + [[-1] * (jokers + 1) for _ in range(wanted)]
    for index, family in enumerate(kind.families):
        key = (index, left & family.fields)
        steps = kind.tables.get(key)
        if steps is None:
            steps = _steps(family, left, guard, min(family.most, wanted), jokers)
            kind.tables[key] = steps
        for had in range(wanted - 1, -1, -1):
            row = total[had]
            for more in range(1, min(len(steps), wanted - had) + 1):
                into = total[had + more]
                for j, value in steps[more - 1]:
                    for k in range(jokers + 1 - j):
                        if row[k] >= 0 and row[k] + value > into[k + j]:
                            into[k + j] = row[k] + value
    return total[wanted]


def _steps(family: _Family, left: int, guard: int, most: int, jokers: int) -> Steps:
    """The family's table on ``left``, up to ``most`` melds (none when it has no meld at all)."""
    members = [m for m in family.members if m[2] <= jokers and (left - m[1]) & guard == guard]
    if not members:
        return []
    by_jokers: list[list[Member]] = [[] for _ in range(jokers + 1)]
    for member in members:
        by_jokers[member[2]].append(member)
    steps: Steps = []
    for melds in range(1, most + 1):
        exact = [-1] * (jokers + 1)
        _fill(members, by_jokers, 0, melds, left, 0, 0, 0, guard, exact)
        row = []
        top = -1
        for j, value in enumerate(exact):
            if value > top:
                top = value
                row.append((j, value))
        if not row:
            break
        steps.append(row)
    return steps


def _fill(
    members: list[Member], by_jokers: list[list[Member]], begin: int, wanted: int, left: int, used: int,
    score: int, blocked: int, guard: int, exact: list[int],
) -> None:  # fmt: skip
    """``exact[j]``: the most ``wanted`` more melds of ``members[begin:]`` shed with ``j`` jokers in all,
    ``used`` of them already laid; a branch is cut when it cannot beat what fewer jokers already shed. The
    last meld is the best that fits of each joker count (``by_jokers``, best first)."""
    if wanted == 1:
        top = max(exact[: used + 1])
        for count in range(len(exact) - used):
            top = max(top, exact[used + count])
            for m_score, use, _, tag, _ in by_jokers[count]:
                if score + m_score <= top:
                    break
                if not tag & blocked and (left - use) & guard == guard:
                    exact[used + count] = top = score + m_score
                    break
        return
    for i in range(begin, len(members)):
        m_score, use, count, tag, block = members[i]
        if score + wanted * m_score <= max(exact[: used + 1]):
            return
        if used + count >= len(exact) or tag & blocked:
            continue
        after = left - use
        if after & guard == guard:
            _fill(members, by_jokers, i, wanted - 1, after, used + count, score + m_score, blocked | block, guard,
                  exact)  # fmt: skip
