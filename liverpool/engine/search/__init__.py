"""The exact contract search: the ways a hand can meet a contract, least penalty left in hand first.

An *arrangement* is a tuple of :class:`~liverpool.engine.melds.Meld`, one per meld of the contract and in
the contract's order, made of distinct cards of the hand, that :func:`~liverpool.engine.melds.contract_problem`
accepts. Copies of one face are interchangeable: an arrangement uses the lowest copies (``must_include``
first), and arrangements that would differ only by copies are one. A run's jokers stand where they are laid,
so ``JK 5H 6H 7H`` and ``5H 6H 7H JK`` are two arrangements.

The parts, in the order a question meets them:

- :mod:`.feasible`: a quick test that a hand surely cannot meet a contract, before anything is listed;
- :mod:`.candidates`: every set and run the hand could lay, by faces, in families (a suit's runs, a
  rank's sets);
- :mod:`.layout` and :mod:`.walk`: the contract's slots in the order they are filled, and the depth-first
  walk that fills them;
- :mod:`.value`, with :mod:`.kit`, :mod:`.members` and :mod:`.tables`: the answer of :func:`best_leftover`
  from per-family tables, without listing arrangements;
- :mod:`.reference`: the specification, every combination tried, that the fast parts are tested against.

How: :mod:`.search.candidates` lists every set and run the hand could lay (by faces, once per hand); a
depth-first search fills the contract's slots from those lists, most points first, and cuts a branch as
soon as what it could still shed cannot beat the arrangements already found (ties go to the one found
first). What a branch could still
shed is bounded per suit (runs) or rank (sets) by the best candidate that still fits, and by the best
naturals plus the jokers left; a branch also ends when the open slots need more jokers than are left.

:func:`best_leftover` needs only a number: where :func:`.search.value.most_shed` answers it from per-suit
and per-rank tables (every slot of a kind asks one length, no card must be melded), the tables answer
instead of this search. They ignore ``keep``: their answer stands when the points it leaves are more than
``keep - 1`` of the heaviest cards could hold, so that at least ``keep`` cards stay; otherwise this search
answers.

>>> from liverpool.engine.cards import parse_cards
>>> from liverpool.engine.rules.presets import find_preset
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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from liverpool.engine.cards import FACE_MASK, JOKER_FACE, Card
from liverpool.engine.melds import Meld, new_meld
from liverpool.engine.rules.parts import MeldKind, MeldRule
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.search.candidates import CandidatePool, Entry, decode, face_weights
from liverpool.engine.search.feasible import cards_needed, surely_unmet
from liverpool.engine.search.layout import Layout, Slot, contract_layout
from liverpool.engine.search.value import most_shed
from liverpool.engine.search.walk import BEST, BY_ORDER, EVERY, FEASIBLE, TOP, Group, Walk

_RUN: Final = MeldKind.RUN

Arrangement = tuple[Meld, ...]


def find_arrangements(
    hand: Sequence[Card],
    contract: Sequence[MeldRule],
    rules: Ruleset,
    *,
    whole_hand: bool = False,
    keep: int = 0,
    must_include: Card | None = None,
    limit: int | None = 8,
    leaving_under: int | None = None,
) -> list[Arrangement]:
    """Up to ``limit`` distinct arrangements of ``hand`` meeting ``contract``, the least penalty left first;
    every one of them when ``limit`` is None, in the same order (the ``limit`` best are its first ``limit``).

    ``whole_hand``: every card must be melded. ``keep``: at least this many cards stay in hand.
    ``must_include``: this card must be melded (so nothing is found if it is not in the hand); a hand
    holding one card twice is a ``ValueError``. The list holds the ``limit`` best of all the arrangements.
    Of arrangements that leave as much, the search's order decides: slots are filled runs first, each
    from the suit (or rank) with the most valuable candidate first, then by points, length, low end and
    joker places. That order depends only on the faces in hand and the ruleset, so the answer does too.

    Distinct means: as the table would show them, with copies of one face taken as one (the lowest copies
    are laid) and the melds in the contract's order, melds of one kind and length in one order only. Every
    other way of laying the same cards differs from one of these only by which copy of a face is laid or
    by the order of those melds, which :func:`~.melds.contract_problem` does not read.

    ``leaving_under``: only the arrangements that leave fewer penalty points than this in hand (not with
    ``whole_hand``), in the same order: the search cuts every branch that cannot, so a caller that already
    holds arrangements as good as the rest could be asks for less work.

    >>> from liverpool.engine.cards import parse_cards
    >>> from liverpool.engine.rules.presets import find_preset
    >>> rules = find_preset('liverpool')
    >>> found = find_arrangements(parse_cards('5H 6H 7H JK 2C'), (MeldRule.parse('run 4'),), rules)
    >>> [[str(m) for m in arrangement] for arrangement in found]
    [['run: JK 5H 6H 7H'], ['run: 5H 6H 7H JK']]
    """
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be at least 1 (or None for every arrangement), not {limit}")
    if leaving_under is not None and whole_hand:
        raise ValueError("leaving_under counts points left in hand: it cannot be given with whole_hand")
    search = _Search.prepare(hand, contract, rules, whole_hand, keep, must_include)
    if search is None:
        return []
    # (points left = total - points shed: fewer than ``leaving_under`` left is at least this much shed)
    at_least = 0 if leaving_under is None else search.total - leaving_under + 1
    found = search.run(EVERY, 0, at_least) if limit is None else search.run(TOP, limit, at_least)
    return search.arrangements([path for _, path in found])


def can_meet(
    hand: Sequence[Card],
    contract: Sequence[MeldRule],
    rules: Ruleset,
    *,
    whole_hand: bool = False,
    keep: int = 0,
    must_include: Card | None = None,
) -> bool:
    """Whether ``hand`` can meet ``contract`` (the options are those of :func:`find_arrangements`)."""
    search = _Search.prepare(hand, contract, rules, whole_hand, keep, must_include)
    return search is not None and bool(search.run(FEASIBLE, 1))


def best_leftover(
    hand: Sequence[Card],
    contract: Sequence[MeldRule],
    rules: Ruleset,
    *,
    whole_hand: bool = False,
    keep: int = 0,
    must_include: Card | None = None,
) -> int | None:
    """The least penalty left in hand once ``contract`` is met, or ``None`` when it cannot be met."""
    cards = tuple(hand)
    if _unanswerable(cards, contract, rules, whole_hand, keep, must_include):
        return None
    if must_include is None:
        most = most_shed(cards, contract, rules, whole_hand, joins=True)
        if most is not None:
            if most < 0:
                return None
            if whole_hand:
                return 0 if most == len(cards) else None
            total = heaviest = 0
            weights = face_weights(rules.card_values, False)
            for card in cards:
                value = weights[card & FACE_MASK]
                total += value
                if value > heaviest:
                    heaviest = value
            left = total - most
            if left > (keep - 1) * heaviest:
                return left
    search = _Search.build(cards, contract, rules, whole_hand, keep, must_include)
    found = search.run(FEASIBLE if whole_hand else BEST, 1)
    if not found:
        return None
    return 0 if whole_hand else search.total - found[0][0]


@dataclass(slots=True, init=False)
class _Search:
    """One question about one hand: its candidates, the contract's slots in search order, and the limits.
    (A written ``__init__``: compiled, the dataclass's would stay Python; one is made a question.)"""

    hand: tuple[Card, ...]
    pool: CandidatePool
    layout: Layout
    slots: list[Slot]
    open_below: list[list[Group]]
    longer_melds: bool
    total: int
    base_need: int
    max_used: int
    must_include: Card | None

    def __init__(
        self, hand: tuple[Card, ...], pool: CandidatePool, layout: Layout, slots: list[Slot],
        open_below: list[list[Group]], longer_melds: bool, total: int, base_need: int, max_used: int,
        must_include: Card | None,
    ) -> None:  # fmt: skip
        self.hand = hand
        self.pool = pool
        self.layout = layout
        self.slots = slots
        self.open_below = open_below
        self.longer_melds = longer_melds
        self.total = total
        self.base_need = base_need
        self.max_used = max_used
        self.must_include = must_include

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
        cards = tuple(hand)
        if _unanswerable(cards, contract, rules, whole_hand, keep, must_include):
            return None
        return cls.build(cards, contract, rules, whole_hand, keep, must_include)

    @classmethod
    def build(
        cls,
        cards: tuple[Card, ...],
        contract: Sequence[MeldRule],
        rules: Ruleset,
        whole_hand: bool,
        keep: int,
        must_include: Card | None,
    ) -> _Search:
        """The search for one question that :func:`_unanswerable` has let through."""
        n = len(cards)
        layout = contract_layout(contract, rules)
        pool = CandidatePool.of_lengths(cards, rules, whole_hand, layout.run_lengths, layout.set_lengths)
        open_below = []
        for groups in layout.below:
            open_below.append([Group(count, distinct, pool.of_kind(kind)) for kind, count, distinct in groups])
        if whole_hand:
            total = n
        else:
            total = 0
            weights = pool.weights  # points here
            for card in cards:
                total += weights[card & FACE_MASK]
        base_need = n if whole_hand else 0
        return cls(
            cards, pool, layout, layout.slots, open_below, rules.longer_melds, total, base_need, n - keep, must_include
        )

    def run(self, mode: int, limit: int, at_least: int = 0) -> list[tuple[int, tuple[int, ...]]]:
        """``(score, path)`` of the ``limit`` best arrangements, or of the first one met (``FEASIBLE``); a path
        holds each slot's candidate order. Of arrangements that shed as much, the one met first wins, so a
        branch must shed more than the worst kept to be worth searching, and the search ends once that
        worst sheds all the bound allows. ``at_least``: only arrangements whose score is at least this."""
        return self.walk(mode, limit, at_least).run(self.pool.start | self.pool.packing.guard)

    def walk(self, mode: int, limit: int, at_least: int = 0) -> Walk:
        """The walk of :meth:`run`."""
        pool = self.pool
        packing = pool.packing
        must = self.must_include
        return Walk(
            self.open_below,
            packing.guard,
            packing.width,
            JOKER_FACE,
            pool.weights[JOKER_FACE],
            self.max_used,
            (-1, 0) if must is None else ((must & FACE_MASK) * packing.width, pool.counts[must & FACE_MASK]),
            self._lists(mode),
            self.layout.chains,
            self.layout.tagged,
            self.layout.joins,
            self.layout.rules,
            mode != FEASIBLE or bool(self.base_need),
            mode,
            limit,
            self.base_need if self.base_need > at_least else at_least,
            self._most_shed(),
        )

    def _most_shed(self) -> int:
        """At most what an arrangement sheds, whatever the cards: all but the ``n - max_used`` lightest cards
        that must stay. (The walk's own bound counts every card, and so could not tell that an arrangement
        leaving only the lightest card is the best: it searched on through every other arrangement.)"""
        stay = len(self.hand) - self.max_used
        if stay <= 0:
            return self.total
        weights = self.pool.weights
        if stay == 1:
            lightest = weights[self.hand[0] & FACE_MASK]
            for card in self.hand:
                weight = weights[card & FACE_MASK]
                if weight < lightest:
                    lightest = weight
            return self.total - lightest
        return self.total - sum(sorted([weights[card & FACE_MASK] for card in self.hand])[:stay])

    def _chain(self, depth: int) -> int:
        """How the candidate at ``depth`` must follow the one before (see :class:`.search.layout.Layout`)."""
        return self.layout.chains[depth]

    def _lists(self, mode: int) -> list[list[tuple[int, list[Entry], list[int]]]]:
        """Each slot's candidates as ``mode`` searches them, by family: ``(group bit, entries, their orders)``.
        Only ``TOP`` and ``EVERY`` need every candidate: the others keep one of each ``(use, tag, block)``, and
        ``FEASIBLE`` tries those with the fewest jokers and cards first, unless the whole hand must go.
        Slots of one kind and length share one list."""
        joker_shift = JOKER_FACE * self.pool.packing.width
        distinct = mode != TOP and mode != EVERY and bool(self.pool.counts[JOKER_FACE])
        fewest_first = mode == FEASIBLE and not self.base_need
        by_order = mode != FEASIBLE or bool(self.base_need)  # (as the walk reads the orders: see run)
        slots = self.slots
        keys = [slot.length << 1 | (slot.kind is _RUN) for slot in slots]
        ordered = 0  # the keys of the lists the walk bisects by order (bit key)
        if by_order:
            for depth in range(len(slots)):
                if self._chain(depth) == BY_ORDER:
                    ordered |= 1 << keys[depth]
        made: dict[int, list[tuple[int, list[Entry], list[int]]]] = {}
        lists = []
        for depth, slot in enumerate(slots):
            key = keys[depth]
            families = made.get(key)
            if families is None:
                is_run = slot.kind is _RUN
                families = made[key] = self._slot_list(
                    slot, distinct and is_run, fewest_first, joker_shift, bool(ordered >> key & 1)
                )
            lists.append(families)
        return lists

    def _slot_list(
        self, slot: Slot, distinct: bool, fewest_first: bool, joker_shift: int, with_orders: bool
    ) -> list[tuple[int, list[Entry], list[int]]]:
        """One slot's list of :meth:`_lists`: ``distinct``, one candidate of each ``(use, tag, block)``;
        ``fewest_first``, by jokers, then cards, then order; the orders listed only ``with_orders`` (the
        walk reads them only to bisect)."""
        shortest = slot.length  # (a loop: compiled, min of a generator is a generic call)
        for other in self.slots:
            if other.kind is slot.kind and other.length < shortest:
                shortest = other.length
        families = []
        no_orders: list[int] = []
        for family in self.pool.of_kind(slot.kind):
            entries = family.entries
            if not self.longer_melds:
                entries = [e for e in entries if e[1] == slot.length]
            elif slot.length > shortest:
                entries = [e for e in entries if e[1] >= slot.length]
            if fewest_first:
                if distinct:
                    entries = _first_of_each(entries)
                if len(entries) > 1:
                    # ``entries`` are by order, and the sort is stable: by jokers, cards, then order.
                    entries = sorted(entries, key=lambda e: (e[2] >> joker_shift) << 8 | e[1])
            elif distinct:
                # (the first of each, in order: the walk bisects these lists by order)
                entries = _first_of_each(entries)
            if entries:
                families.append((family.bit, entries, [e[5] for e in entries] if with_orders else no_orders))
        # By the best candidate of each, the most first, stably: an insertion sort (a family a suit or rank at
        # most; compiled, sort(key=...) is a method call with a keyword and calls the key an item).
        for i in range(1, len(families)):
            moved = families[i]
            best = moved[1][0][0]
            j = i
            while j and families[j - 1][1][0][0] < best:
                families[j] = families[j - 1]
                j -= 1
            families[j] = moved
        return families

    def arrangements(self, paths: Sequence[tuple[int, ...]]) -> list[Arrangement]:
        """The melds of each search path, in contract order, with the lowest copies of each face (the card
        that must be melded before its copies)."""
        copies: dict[int, list[Card]] = {}
        for card in sorted(self.hand):  # a card's copy number is above its face bits: lowest copies first
            face = card & FACE_MASK
            held = copies.get(face)
            if held is None:
                copies[face] = [card]
            else:
                held.append(card)
        must = self.must_include
        if must is not None:
            held = copies[must & FACE_MASK]
            held.remove(must)
            held.insert(0, must)
        slots = self.slots
        placed = self.layout.placed
        out = []
        for path in paths:
            taken = [0] * (FACE_MASK + 1)
            melds = []
            for depth in placed:
                kind = slots[depth].kind
                low, faces = decode(kind, path[depth])
                cards = []
                for face in faces:
                    cards.append(copies[face][taken[face]])
                    taken[face] += 1
                melds.append(new_meld(kind, tuple(cards), low))
            out.append(tuple(melds))
        return out


def _first_of_each(entries: list[Entry]) -> list[Entry]:
    """The first of ``entries`` of each ``(use, tag, block)``, in their order."""
    seen: set[tuple[int, int, int]] = set()
    kept = []
    for entry in entries:
        key = (entry[2], entry[3], entry[4])
        if key not in seen:
            seen.add(key)
            kept.append(entry)
    return kept


def _plainly_impossible(
    cards: tuple[Card, ...], contract: Sequence[MeldRule], whole_hand: bool, keep: int, must_include: Card | None
) -> bool:
    """Whether the question cannot be met whatever the cards (too few of them, or ``must_include`` is not in
    hand); a ``ValueError`` when it is malformed."""
    if _holds_a_card_twice(cards):
        raise ValueError(f"the hand holds a card twice: {' '.join(map(str, cards))}")
    if keep < 0:
        raise ValueError(f"keep must not be negative, not {keep}")
    n = len(cards)
    needed = cards_needed(contract)
    if n - keep < needed or (whole_hand and keep and n):
        return True
    return must_include is not None and must_include not in cards


def _holds_a_card_twice(cards: tuple[int, ...]) -> bool:
    """Whether a card comes twice in ``cards``: by a bit for each face of each of the first four copies, in
    four ints (compiled, building a set of Cards hashes each in a generic call, and a list of bits boxes at
    each write); :func:`_holds_a_copy_twice` past them."""
    seen0 = seen1 = seen2 = seen3 = 0
    for card in cards:
        if card < 0 or card >= 256 or card & 63 > 61:  # (a bit for each face fits a native int: up to 62)
            return _holds_a_copy_twice(cards)
        bit = 1 << (card & 63)
        copy = card >> 6
        if copy == 0:
            if seen0 & bit:
                return True
            seen0 |= bit
        elif copy == 1:
            if seen1 & bit:
                return True
            seen1 |= bit
        elif copy == 2:
            if seen2 & bit:
                return True
            seen2 |= bit
        else:
            if seen3 & bit:
                return True
            seen3 |= bit
    return False


def _holds_a_copy_twice(cards: tuple[int, ...]) -> bool:
    """:func:`_holds_a_card_twice` for any cards: by a bit for each copy of each face."""
    copies = [0] * 64
    for card in cards:
        if card < 0:
            return len(set(cards)) != len(cards)
        face, copy = card & 63, card >> 6
        held = copies[face]
        bit = 1 << copy
        if held & bit:
            return True
        copies[face] = held | bit
    return False


def _unanswerable(
    cards: tuple[Card, ...],
    contract: Sequence[MeldRule],
    rules: Ruleset,
    whole_hand: bool,
    keep: int,
    must_include: Card | None,
) -> bool:
    """Whether the question plainly has no answer (:func:`_plainly_impossible`) or the quick test of
    :func:`.search.feasible.surely_unmet` rules it out; a ``ValueError`` when it is malformed."""
    if _plainly_impossible(cards, contract, whole_hand, keep, must_include):
        return True
    return surely_unmet(cards, contract, rules, whole_hand)
