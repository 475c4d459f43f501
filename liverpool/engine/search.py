"""The exact contract search: the ways a hand can meet a contract, least penalty left in hand first.

An *arrangement* is a tuple of :class:`~liverpool.engine.melds.Meld`, one per meld of the contract and in
the contract's order, made of distinct cards of the hand, that :func:`~liverpool.engine.melds.contract_problem`
accepts. Copies of one face are interchangeable: an arrangement uses the lowest copies (``must_include``
first), and arrangements that would differ only by copies are one. A run's jokers stand where they are laid,
so ``JK 5H 6H 7H`` and ``5H 6H 7H JK`` are two arrangements.

How: :mod:`.search_candidates` lists every set and run the hand could lay (by faces, once per hand); a
depth-first search fills the contract's slots from those lists, most valuable first, and cuts a branch as
soon as the points it could still shed (the best candidate left for each open slot) cannot beat the
arrangements already found.

>>> from .cards import parse_cards
>>> from .presets import find_preset
>>> rules = find_preset('liverpool')
>>> hand = parse_cards('7H 7S 7D 4C 5C 6C JK KD 2S')
>>> [str(m) for m in find_arrangements(hand, rules.contract(1), rules)[0]]
['set: 7D 7H 7S', 'run: JK 4C 5C 6C']
>>> best_leftover(hand, rules.contract(1), rules)
15
>>> can_meet(hand, rules.contract(2), rules)
False
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import JOKER_FACE, Card
from .melds import Meld
from .rules import MeldKind, MeldRule, Ruleset
from .search_candidates import Candidate, CandidatePool

_FEASIBLE, _BEST, _TOP = range(3)
_KIND_ORDER = (MeldKind.RUN, MeldKind.SET)

Arrangement = tuple[Meld, ...]


class _Stop(Exception):
    """Ends the search early: a feasible arrangement, or one that sheds everything that can be shed."""


def find_arrangements(
    hand: Sequence[Card],
    contract: Sequence[MeldRule],
    rules: Ruleset,
    *,
    whole_hand: bool = False,
    keep: int = 0,
    must_include: Card | None = None,
    limit: int = 8,
) -> list[Arrangement]:
    """Up to ``limit`` distinct arrangements of ``hand`` meeting ``contract``, the least penalty left first.

    Ties in penalty are broken by a fixed order of the candidate melds (higher-scoring, then longer melds
    first), so the answer depends only on the faces in hand. ``whole_hand``: every card must be melded.
    ``keep``: at least this many cards stay in hand. ``must_include``: this card must be melded.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    search = _Search.prepare(hand, contract, rules, whole_hand, keep, must_include)
    if search is None:
        return []
    return [search.arrangement(key) for _, key in search.run(_TOP, limit)]


def can_meet(
    hand: Sequence[Card],
    contract: Sequence[MeldRule],
    rules: Ruleset,
    *,
    whole_hand: bool = False,
    keep: int = 0,
    must_include: Card | None = None,
) -> bool:
    """Whether ``hand`` can meet ``contract`` (same options as :func:`find_arrangements`)."""
    search = _Search.prepare(hand, contract, rules, whole_hand, keep, must_include)
    return search is not None and bool(search.run(_FEASIBLE, 1))


def best_leftover(
    hand: Sequence[Card],
    contract: Sequence[MeldRule],
    rules: Ruleset,
    *,
    whole_hand: bool = False,
    keep: int = 0,
    must_include: Card | None = None,
) -> int | None:
    """The least penalty left in hand after meeting ``contract``, or ``None`` when it cannot be met."""
    search = _Search.prepare(hand, contract, rules, whole_hand, keep, must_include)
    if search is None:
        return None
    found = search.run(_FEASIBLE if whole_hand else _BEST, 1)
    if not found:
        return None
    return 0 if whole_hand else search.total - found[0][0]


def leftover(hand: Sequence[Card], arrangement: Arrangement, rules: Ruleset) -> int:
    """Penalty points of the cards of ``hand`` that ``arrangement`` does not meld."""
    used = {card for meld in arrangement for card in meld.cards}
    return sum(rules.value(card) for card in hand if card not in used)


@dataclass(frozen=True, slots=True)
class _Slot:
    """One meld of the contract, in search order: its kind, length, place in the contract and candidates
    as ``(score, size, use, tag, block, index)`` (``index`` into the pool's list of that kind)."""

    kind: MeldKind
    length: int
    position: int
    chained: bool
    candidates: list[tuple[int, int, int, int, int, int]]


@dataclass(frozen=True, slots=True)
class _Family:
    """The candidates of one suit (runs) or rank (sets) for the bound, as ``(natural score, use, tag)``,
    most natural points first; ``bit`` is the family's group bit when the contract wants distinct ones.
    ``fewest_jokers`` and ``naturals`` (the points of the family's naturals in hand) hold for the whole hand,
    so they stay valid as cards are melded."""

    bit: int
    fewest_jokers: int
    naturals: int
    candidates: list[tuple[int, int, int]]


@dataclass(frozen=True, slots=True)
class _Open:
    """Open slots of one kind after some depth, for the bound: how many, whether they need distinct
    groups (suits or ranks), the candidates that fit the shortest of them as ``(score, use, tag, group)``,
    and the same candidates by family."""

    slots: int
    distinct: bool
    candidates: list[tuple[int, int, int, int]]
    families: list[_Family]


@dataclass(slots=True)
class _Search:
    hand: tuple[Card, ...]
    pool: CandidatePool
    slots: list[_Slot]
    open_after: list[list[_Open]]
    total: int
    base_need: int
    max_used: int
    must_include: Card | None

    @property
    def must_face(self) -> int | None:
        return None if self.must_include is None else self.must_include.face

    @classmethod
    def prepare(
        cls,
        hand: Sequence[Card],
        contract: Sequence[MeldRule],
        rules: Ruleset,
        whole_hand: bool,
        keep: int,
        must_include: Card | None,
    ) -> _Search | None:
        """The search for one question, or ``None`` when it is plainly impossible."""
        cards = tuple(Card(c) for c in hand)
        if len(set(cards)) != len(cards):
            raise ValueError(f"the hand holds a card twice: {' '.join(map(str, cards))}")
        if keep < 0:
            raise ValueError(f"keep must not be negative, not {keep}")
        if must_include is not None and must_include not in cards:
            raise ValueError(f"{Card(must_include)} is not in the hand")
        n = len(cards)
        if n - keep < sum(r.length for r in contract) or (whole_hand and keep and n):
            return None
        weights = [1] * (JOKER_FACE + 1) if whole_hand else None
        pool = CandidatePool.build(cards, contract, rules, weights)
        order = sorted(range(len(contract)), key=lambda i: (_KIND_ORDER.index(contract[i].kind), -contract[i].length, i))
        slots: list[_Slot] = []
        for depth, position in enumerate(order):
            rule = contract[position]
            slots.append(
                _Slot(
                    rule.kind,
                    rule.length,
                    position,
                    depth > 0 and slots[-1].kind is rule.kind,
                    [
                        (c.score, c.size, c.use, c.tag, c.block, i)
                        for i, c in enumerate(pool.by_kind[rule.kind])
                        if (c.size >= rule.length if rules.longer_melds else c.size == rule.length)
                    ],
                )
            )
        open_after = [_open_slots(contract, order[depth:], pool, rules) for depth in range(len(order) + 1)]
        total = n if whole_hand else sum(rules.value(c) for c in cards)
        return cls(
            cards,
            pool,
            slots,
            open_after,
            total,
            n if whole_hand else 0,
            n - keep,
            None if must_include is None else Card(must_include),
        )

    def run(self, mode: int, limit: int) -> list[tuple[int, tuple[int, ...]]]:
        """``(score, key)`` of the arrangements found, best first: the first feasible one (``_FEASIBLE``),
        one of least penalty (``_BEST``) or the ``limit`` best (``_TOP``)."""
        slots, open_after = self.slots, self.open_after
        guard = self.pool.packing.guard
        width = self.pool.packing.width
        depth_count = len(slots)
        max_used = self.max_used
        must_shift = -1 if self.must_face is None else self.must_face * width
        must_have = 0 if self.must_face is None else self.pool.counts[self.must_face]
        field = (1 << (width - 1)) - 1
        joker_shift = JOKER_FACE * width
        joker_weight = self.pool.weights[JOKER_FACE]
        found: list[tuple[int, tuple[int, ...]]] = []
        need = self.base_need
        worst_key: tuple[int, ...] | None = None

        def bound(depth: int, left: int, blocked: int) -> int:
            """The most points the open slots after ``depth`` could still shed, or -1 if they cannot be filled:
            the least of (a) the best candidate for each slot and (b) the best natural points for each
            slot plus every joker left, provided the jokers left cover the fewest each slot needs."""
            first = naturals = needed = 0
            for group in open_after[depth]:
                wanted, distinct = group.slots, group.distinct
                taken = seen = 0
                for score, use, tag, kin in group.candidates:
                    if tag & blocked or kin & seen or (left - use) & guard != guard:
                        continue
                    if not distinct:
                        first += wanted * score
                        taken = wanted
                        break
                    seen |= kin
                    first += score
                    taken += 1
                    if taken == wanted:
                        break
                if taken < wanted:
                    return -1
                gains: list[int] = []
                fewest: list[int] = []
                for family in group.families:
                    if family.bit & blocked:
                        continue
                    for nat, use, tag in family.candidates:
                        if not tag & blocked and (left - use) & guard == guard:
                            break
                    else:
                        continue
                    fewest.append(family.fewest_jokers)
                    if distinct:
                        gains.append(nat)
                    else:
                        gains += [min(k * nat, family.naturals) - min((k - 1) * nat, family.naturals) for k in range(1, wanted + 1)]
                gains.sort(reverse=True)
                fewest.sort()
                naturals += sum(gains[:wanted])
                needed += sum(fewest[:wanted]) if distinct else wanted * fewest[0]
            jokers_left = (left >> joker_shift) & field
            if needed > jokers_left:
                return -1
            return min(first, naturals + joker_weight * jokers_left)

        def accept(left: int, score: int, key: tuple[int, ...]) -> None:
            nonlocal need, worst_key
            if must_shift >= 0 and (left >> must_shift) & field >= must_have:
                return
            if mode == _FEASIBLE:
                found.append((score, key))
                raise _Stop
            if mode == _BEST:
                found[:] = [(score, key)]
                need = score + 1
                if score >= ceiling:
                    raise _Stop
                return
            bisect.insort(found, (score, key), key=lambda entry: (-entry[0], entry[1]))
            if len(found) > limit:
                found.pop()
            if len(found) == limit:
                need, worst_key = found[-1]

        def visit(depth: int, left: int, score: int, used: int, blocked: int, size_before: int, index_before: int,
                  path: tuple[int, ...]) -> None:
            if depth:
                reach = bound(depth, left, blocked)
                if reach < 0 or score + reach < need:
                    return
            slot = slots[depth]
            last = depth + 1 == depth_count
            rest = 0 if last else bound(depth + 1, left, blocked)
            if rest < 0:
                return
            chained = slot.chained
            for c_score, size, use, tag, block, index in slot.candidates:
                reach = score + c_score + rest
                if reach < need:
                    break
                if reach == need and worst_key is not None and (*path, index) > worst_key[: depth + 1]:
                    break
                if chained and (size > size_before or (size == size_before and index < index_before)):
                    continue
                if tag & blocked:
                    continue
                after = left - use
                if after & guard != guard or used + size > max_used:
                    continue
                if last:
                    accept(after, score + c_score, (*path, index))
                else:
                    visit(depth + 1, after, score + c_score, used + size, blocked | block, size, index, (*path, index))

        start = self.pool.packing.pack(self.pool.counts) | guard
        ceiling = bound(0, start, 0)
        if ceiling < need:
            return []
        if not slots:
            accept(start, 0, ())
            return found
        try:
            visit(0, start, 0, 0, 0, 0, 0, ())
        except _Stop:
            pass
        return found

    def arrangement(self, key: tuple[int, ...]) -> Arrangement:
        """The melds of a search key, in contract order, with the lowest copies of each face."""
        chosen: list[Candidate | None] = [None] * len(self.slots)
        for slot, index in zip(self.slots, key, strict=True):
            chosen[slot.position] = self.pool.by_kind[slot.kind][index]
        copies: dict[int, list[Card]] = {}
        for card in sorted(self.hand, key=lambda c: (c != self.must_include, c.copy)):
            copies.setdefault(card.face, []).append(card)
        melds: list[Meld] = []
        for candidate in chosen:
            assert candidate is not None
            laid = tuple(copies[face].pop(0) for face in candidate.faces)
            melds.append(Meld(candidate.kind, laid, candidate.low))
        return tuple(melds)


def _open_slots(contract: Sequence[MeldRule], positions: Sequence[int], pool: CandidatePool, rules: Ruleset) -> list[_Open]:
    joker_weight = pool.weights[JOKER_FACE]
    out: list[_Open] = []
    for kind in _KIND_ORDER:
        lengths = [contract[p].length for p in positions if contract[p].kind is kind]
        if not lengths:
            continue
        shortest = min(lengths)
        distinct = rules.run_distinct_suits if kind is MeldKind.RUN else rules.set_distinct_ranks
        fitting = [c for c in pool.by_kind[kind] if (c.size >= shortest if rules.longer_melds else c.size in lengths)]
        by_family: dict[int, list[Candidate]] = {}
        for c in fitting:
            by_family.setdefault(c.family, []).append(c)
        families = [
            _Family(
                members[0].group,
                min(c.jokers for c in members),
                sum(pool.counts[f] * pool.weights[f] for f in _family_faces(kind, family)),
                sorted(((c.score - c.jokers * joker_weight, c.use, c.tag) for c in members), key=lambda e: -e[0]),
            )
            for family, members in by_family.items()
        ]
        out.append(_Open(len(lengths), distinct, [(c.score, c.use, c.tag, c.group) for c in fitting], families))
    return out


def _family_faces(kind: MeldKind, family: int) -> range:
    if kind is MeldKind.RUN:
        return range(family * 13, family * 13 + 13)
    return range(family - 1, JOKER_FACE, 13)
