"""The set-up of a contract for :mod:`.plan`: the plan's types, and the candidate partial melds a hand
offers each meld of the contract.

A contract is set up once per ruleset (:func:`setup_of`): its melds become *slots* in search order, and
each slot's candidates are packed into ints (``missing << 10 | family << 5 | low``, see :func:`_pick`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Final

from liverpool.engine import BITS, JOKER_FACE, MeldKind, MeldRule, Ruleset

FACES: Final = JOKER_FACE + 1


@dataclass(frozen=True, slots=True)
class Partial:
    """One meld of the contract as the hand could grow it.

    ``family`` is the suit index (run) or the rank (set); ``low`` the rank of a run window's first slot
    (the rank, for a set). ``faces`` are the naturals of the hand it uses; ``wanted`` the natural faces
    that would fill one of its ``missing`` slots; ``joker_room`` how many missing slots a joker may fill.
    """

    kind: MeldKind
    family: int
    low: int
    length: int
    faces: tuple[int, ...]
    missing: int
    joker_room: int
    wanted: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Plan:
    """The best partial contract of a hand: what it still needs and which cards it uses."""

    need: int
    partials: tuple[Partial, ...]
    jokers: int
    dead: int
    outs: int

    def used_faces(self) -> list[int]:
        """Faces of the hand the plan uses (jokers included), one entry per card."""
        faces = [f for p in self.partials for f in p.faces]
        return faces + [JOKER_FACE] * self.jokers


def face_counts(cards: Sequence[int]) -> list[int]:
    """How many cards of each face (jokers at ``JOKER_FACE``)."""
    counts = [0] * FACES
    for card in cards:
        face = card & 63
        counts[face] = counts[face] + 1  # (not ``+=``: compiled, that is a generic add)
    return counts


def _joker_cap(rule: MeldRule, rules: Ruleset) -> int:
    spacing = rules.run_joker_spacing
    if rule.kind is MeldKind.SET or spacing <= 1:
        return rule.length
    return -(-rule.length // spacing)


_WINDOW_TABLES: Final[dict[tuple[int, int, int], list[list[tuple[int, ...] | None]]]] = {}


def _window_tables(length: int, first: int, last: int) -> list[list[tuple[int, ...] | None]]:
    """For each suit, the :func:`_find_windows` of each set of ranks held in it (bit ``r`` for rank ``r``,
    1 .. 13) as candidates (``| suit << 5``), found when first asked (``None`` until then): tables per
    ``length``, ``first`` and ``last``, shared by the contracts that read them, indexed without hashing."""
    key = (length, first, last)
    tables = _WINDOW_TABLES.get(key)
    if tables is None:
        tables = _WINDOW_TABLES[key] = [[None] * (1 << 14) for _ in range(4)]
    return tables


def _windows(
    table: list[tuple[int, ...] | None], suit: int, present: int, length: int, first: int, last: int
) -> tuple[int, ...]:
    """:func:`_find_windows` in ``suit`` as candidates, kept in ``table`` (the suit's of :func:`_window_tables`)."""
    found = table[present]
    if found is None:
        found = table[present] = tuple([window | suit << 5 for window in _find_windows(present, length, first, last)])
    return found


def _find_windows(present: int, length: int, first: int, last: int) -> tuple[int, ...]:
    """The two best windows of ``length`` starting at ``first .. last`` that hold a rank of ``present``
    (bit ``r`` for rank ``r``; the ace is bit 1 and counts high too): least missing first, then lowest,
    as ``missing << 10 | low``. (A suit gives a contract slot two candidates at most.)"""
    if present & 2:
        present |= 1 << 14
    full = (1 << length) - 1
    out = []
    for low in range(first, last + 1):
        have = BITS[present & (full << low)]
        if have:
            out.append((length - have) << 10 | low)
    out.sort()
    return tuple(out[:2])


def _pick(found: list[int], length: int, keep: int) -> list[int]:
    """Of partials packed as ``missing << 10 | family << 5 | low``, two per family at most: the most
    promising, least missing first (then by family and low), at most ``keep`` and at most two more
    missing than the best, packed the same way; then the empty partial (family and low :data:`NONE`),
    so that a slot can always be planned."""
    found.sort()
    n = 0
    if found:
        limit = (found[0] >> 10) + 2
        end = (
            len(found) if keep < 0 or keep > len(found) else keep
        )  # (a negative keep never stops the loop it replaces)
        while n < end and found[n] >> 10 <= limit:
            n += 1
    out = found[:n]  # (a slice shares the ints; appending them one by one would box each again)
    out.append(length << 10 | EMPTY)
    return out


NONE: Final = 31  # the family and low of the empty partial, packed
EMPTY: Final = NONE << 5 | NONE


@dataclass(slots=True)
class Slot:
    """One meld of the contract in search order, with what the search reads of it and of the rules."""

    kind: MeldKind
    run: bool
    length: int
    group: int  # its candidate list (slots of equal rules share one)
    chained: bool  # the slot before it is the same rule
    room: int  # most missing places jokers may fill (the naturals it needs, and the spacing rule)
    distinct: bool
    shift: int  # families of runs take bits 0..3 of the mask of families used, of sets bits 9..21
    per_suit: int
    distinct_suits: bool
    windows: list[tuple[int, ...]]  # a run's faces by suit * 16 + low
    # the partials built for this slot by (family, low, faces): they are immutable, so plans share them
    partials: dict[tuple[int, int, tuple[int, ...]], Partial] = field(default_factory=dict)

    @classmethod
    def of(cls, rule: MeldRule, rules: Ruleset, group: int, chained: bool) -> Slot:
        run = rule.kind is MeldKind.RUN
        least = rule.length - (rules.run_min_naturals if run else rules.set_min_naturals)
        windows: list[tuple[int, ...]] = [()] * 64
        if run:
            for suit in range(4):
                for low in range(1, 15 - rule.length + 1):
                    windows[suit * 16 + low] = tuple(suit * 13 + (r - 1) % 13 for r in range(low, low + rule.length))
        return cls(
            rule.kind,
            run,
            rule.length,
            group,
            chained,
            min(max(0, least), _joker_cap(rule, rules)),
            rules.run_distinct_suits if run else rules.set_distinct_ranks,
            0 if run else 8,
            1 if rules.set_distinct_suits else rule.length,
            rules.set_distinct_suits,
            windows,
        )

    def take(self, counts: list[int], family: int, low: int, live: Sequence[int] | None) -> tuple[list[int], int]:
        """Take from ``counts`` the naturals a partial meld uses: their faces, and the unseen copies
        (``live``) of the faces that would fill it (0 without ``live``)."""
        taken: list[int] = []
        out = 0
        if self.run:
            for face in self.windows[family * 16 + low]:
                have = counts[face]
                if have:
                    counts[face] = have - 1
                    taken.append(face)
                elif live is not None:
                    out += live[face]
            return taken, out
        length, per_suit = self.length, self.per_suit
        face = family - 1  # the rank in each suit (a loop, not a tuple built per partial)
        while face < JOKER_FACE:
            have = counts[face]
            if have:
                n = min(min(have, per_suit), length - len(taken))  # (min of two: compiled, not a call)
                counts[face] = have - n
                taken += [face] * n
            face += 13
        if live is not None:
            out = sum(live[f] for f in self.wanted(family, low, taken))
        return taken, out

    def take_mask(self, counts: list[int], family: int, low: int) -> int:
        """:meth:`take` without unseen counts, as ``mask << 8 | n``: ``n`` the naturals taken and ``mask`` what
        :meth:`put_back` reads to put them back (a bit per place of a run's window; for a set, 8 bits per
        suit holding the copies taken of its face)."""
        n = 0
        mask = 0
        if self.run:
            bit = 1
            for face in self.windows[family * 16 + low]:
                have = counts[face]
                if have:
                    counts[face] = have - 1  # (not ``-=``: compiled, that is a generic subtraction)
                    mask |= bit
                    n += 1
                bit <<= 1
            return mask << 8 | n
        length, per_suit = self.length, self.per_suit
        face = family - 1  # the rank in each suit
        shift = 0
        while face < JOKER_FACE:
            have = counts[face]
            if have:
                k = min(min(have, per_suit), length - n)
                counts[face] = have - k
                mask |= k << shift
                n += k
            face += 13
            shift += 8
        return mask << 8 | n

    def put_back(self, counts: list[int], family: int, low: int, mask: int) -> None:
        """Put back into ``counts`` the naturals :meth:`take_mask` took (``mask``: its result ``>> 8``)."""
        if self.run:
            for face in self.windows[family * 16 + low]:
                if mask & 1:
                    counts[face] = counts[face] + 1  # (not ``+=``: compiled, that is a generic add)
                mask >>= 1
            return
        face = family - 1
        while mask:
            k = mask & 255
            if k:
                counts[face] = counts[face] + k
            mask >>= 8
            face += 13

    def faces_into(self, family: int, low: int, mask: int, out: list[int]) -> None:
        """Append to ``out`` the faces :meth:`take_mask` took (``mask``: its result ``>> 8``), in the order
        :meth:`take` lists them."""
        if self.run:
            for face in self.windows[family * 16 + low]:
                if mask & 1:
                    out.append(face)
                mask >>= 1
            return
        face = family - 1
        while mask:
            for _ in range(mask & 255):
                out.append(face)
            mask >>= 8
            face += 13

    def wanted(self, family: int, low: int, faces: list[int]) -> tuple[int, ...]:
        """The natural faces that would fill a missing place of the partial."""
        if family < 0:
            return ()
        if self.run:
            return tuple([f for f in self.windows[family * 16 + low] if f not in faces])
        if len(faces) >= self.length:
            return ()
        suits = (family - 1, family + 12, family + 25, family + 38)
        if self.distinct_suits:
            return tuple([f for f in suits if f not in faces])
        return suits


@dataclass(slots=True)
class ContractSetup:
    """A contract set up for planning under some rules: its slots in search order and their groups."""

    slots: list[Slot]
    groups: list[tuple[bool, int]]  # (run, length) of each distinct rule
    runs: bool
    sets: bool
    first: int
    top: int
    distinct_suits: bool
    tables: list[list[list[tuple[int, ...] | None]]]  # the window tables of each group of runs (:func:`_window_tables`)
    memo: dict[Hashable, Plan] = field(default_factory=dict)
    needs: dict[Hashable, int] = field(default_factory=dict)

    @classmethod
    def of(cls, contract: Sequence[MeldRule], rules: Ruleset) -> ContractSetup:
        ordered = sorted(contract, key=lambda r: (r.kind is MeldKind.SET, -r.length))
        distinct: list[MeldRule] = []
        slots: list[Slot] = []
        for i, rule in enumerate(ordered):
            if rule not in distinct:
                distinct.append(rule)
            slots.append(Slot.of(rule, rules, distinct.index(rule), i > 0 and ordered[i - 1] == rule))
        kinds = [rule.kind is MeldKind.RUN for rule in distinct]
        first = 1 if rules.aces_low else 2
        top = 14 if rules.aces_high else 13
        return cls(
            slots,
            [(run, rule.length) for run, rule in zip(kinds, distinct, strict=True)],
            any(kinds),
            not all(kinds),
            first,
            top,
            rules.set_distinct_suits,
            [
                _window_tables(rule.length, first, top - rule.length + 1) if run else []
                for run, rule in zip(kinds, distinct, strict=True)
            ],
        )

    def candidates(self, hand: Sequence[int], keep: int) -> tuple[list[int], list[list[int]]]:
        """The hand's count of each face, and the candidate partials of each slot (packed: see :func:`_pick`)."""
        # held0 .. held3: the ranks held in suits 0 .. 3, bit r for rank r (locals: list items would be boxed)
        held0 = held1 = held2 = held3 = 0
        totals = [0] * 13  # naturals by rank (suits by rank, with distinct suits)
        runs, sets, distinct = self.runs, self.sets, self.distinct_suits
        counts = [0] * FACES
        for card in hand:
            face = card & 63
            counts[face] = counts[face] + 1  # (not ``+=``: compiled, that is a generic add)
            if face < JOKER_FACE:
                suit = face // 13
                rank = face - 13 * suit
                if runs:
                    if suit == 0:
                        held0 |= 2 << rank
                    elif suit == 1:
                        held1 |= 2 << rank
                    elif suit == 2:
                        held2 |= 2 << rank
                    else:
                        held3 |= 2 << rank
                if sets:
                    if distinct:
                        totals[rank] = totals[rank] | 1 << suit
                    else:
                        totals[rank] = totals[rank] + 1
        return counts, self.slot_lists(self.group_lists(held0, held1, held2, held3, totals, keep))

    def held(self, hand: Sequence[int]) -> Held:
        """What :meth:`candidates` reads of ``hand``, kept to ask about the hand plus one card (:meth:`Held.add`)."""
        # (:meth:`Held.add` of each card, in locals: a call and the fields' reads and writes a card cost more)
        counts = [0] * FACES
        totals = [0] * 13
        held0 = held1 = held2 = held3 = 0
        distinct = self.distinct_suits
        for card in hand:
            face = card & 63
            counts[face] = counts[face] + 1  # (not ``+=``: compiled, that is a generic add)
            if face < JOKER_FACE:
                suit = face // 13
                rank = face - 13 * suit
                if suit == 0:
                    held0 |= 2 << rank
                elif suit == 1:
                    held1 |= 2 << rank
                elif suit == 2:
                    held2 |= 2 << rank
                else:
                    held3 |= 2 << rank
                if distinct:
                    totals[rank] = totals[rank] | 1 << suit
                else:
                    totals[rank] = totals[rank] + 1
        held = Held()
        held.counts = counts
        held.totals = totals
        held.held0, held.held1, held.held2, held.held3 = held0, held1, held2, held3
        held.size = len(hand)
        return held

    def group_lists(
        self, held0: int, held1: int, held2: int, held3: int, totals: list[int], keep: int
    ) -> list[list[int]]:
        """The candidate partials of each distinct rule (:attr:`groups`), from the ranks held in each suit
        and the naturals held by rank (with distinct suits, the suits held by rank as a mask)."""
        sets, distinct = self.sets, self.distinct_suits
        if sets and distinct:
            totals = [BITS[mask] for mask in totals]
        by_group: list[list[int]] = []
        for g, (run, length) in enumerate(self.groups):
            found: list[int] = []
            if run:
                last = self.top - length + 1
                tables = self.tables[g]
                for suit in range(4):
                    held = held0 if suit == 0 else held1 if suit == 1 else held2 if suit == 2 else held3
                    if held:
                        found.extend(_windows(tables[suit], suit, held, length, self.first, last))
            else:
                for rank in range(1, 14):
                    total = totals[rank - 1]
                    if total:
                        found.append(max(0, length - total) << 10 | rank << 5 | rank)
            by_group.append(_pick(found, length, keep))
        return by_group

    def slot_lists(self, by_group: list[list[int]]) -> list[list[int]]:
        """The candidate lists of :meth:`group_lists`, one per slot."""
        return [by_group[slot.group] for slot in self.slots]

    def leaves(self, held: Held, by_group: list[list[int]], face: int, keep: int) -> bool:
        """Whether a natural of ``face`` added to the hand of ``held`` (whose :meth:`group_lists` with ``keep``
        are ``by_group``) leaves those lists as they are, with no candidate that would take it: then the
        search of the grown hand is the search of the hand. (``False`` may also mean "not sure".)"""
        suit = face // 13
        rank = face - 13 * suit  # 0 .. 12
        bit = 2 << rank
        high = rank == 0  # an ace, which a run may also hold above the king (rank 14)
        for g, (run, length) in enumerate(self.groups):
            kept = by_group[g]
            if run:
                present = (
                    held.held0 if suit == 0 else held.held1 if suit == 1 else held.held2 if suit == 2 else held.held3
                )
                last = self.top - length + 1
                table = self.tables[g][suit]
                before = _windows(table, suit, present, length, self.first, last) if present else ()
                after = before if present & bit else _windows(table, suit, present | bit, length, self.first, last)
                if after != before:
                    return False
                for window in after:
                    low = window & 31
                    if low <= rank + 1 < low + length or (high and low <= 14 < low + length):
                        return False
                continue
            total = held.totals[rank]
            grown = total | 1 << suit if self.distinct_suits else total + 1
            if self.distinct_suits:
                total, grown = BITS[total], BITS[grown]
            if total and (max(0, length - total) << 10 | (rank + 1) << 5 | (rank + 1)) in kept:
                return False
            entry = max(0, length - grown) << 10 | (rank + 1) << 5 | (rank + 1)
            k = len(kept) - 1  # the candidates kept, less the empty partial
            if not k or (entry >> 10 <= (kept[0] >> 10) + 2 and (k < keep or entry < kept[k - 1])):
                return False  # the grown hand keeps this candidate
        return True


class Held:
    """What :meth:`ContractSetup.candidates` reads of a hand: its count of each face, the ranks held in
    each suit (bit ``r`` for rank ``r``), and the naturals held by rank (with distinct suits, a mask of
    the suits held). (A plain class: mypyc keeps its ints unboxed.)"""

    __slots__ = ("counts", "held0", "held1", "held2", "held3", "size", "totals")

    def __init__(self) -> None:
        self.counts: list[int] = []
        self.held0 = self.held1 = self.held2 = self.held3 = 0
        self.totals: list[int] = []
        self.size = 0

    def add(self, face: int, distinct: bool) -> None:
        """Count one more card of ``face``."""
        counts = self.counts
        counts[face] = counts[face] + 1  # (not ``+=``: compiled, that is a generic add)
        if face < JOKER_FACE:
            suit = face // 13
            rank = face - 13 * suit
            if suit == 0:
                self.held0 |= 2 << rank
            elif suit == 1:
                self.held1 |= 2 << rank
            elif suit == 2:
                self.held2 |= 2 << rank
            else:
                self.held3 |= 2 << rank
            totals = self.totals
            if distinct:
                totals[rank] = totals[rank] | 1 << suit
            else:
                totals[rank] = totals[rank] + 1


CONTRACTS: Final[dict[tuple[int, int], tuple[tuple[MeldRule, ...], Ruleset, ContractSetup]]] = {}


def setup_of(contract: Sequence[MeldRule], rules: Ruleset) -> ContractSetup:
    """The set-up contract, kept per contract tuple and ruleset (by identity: hashing them is slow)."""
    if type(contract) is not tuple:
        return ContractSetup.of(contract, rules)
    key = (id(contract), id(rules))
    found = CONTRACTS.get(key)
    if found is not None and found[0] is contract and found[1] is rules:
        return found[2]
    setup = ContractSetup.of(contract, rules)
    if len(CONTRACTS) >= 256:
        CONTRACTS.clear()
    CONTRACTS[key] = (contract, rules, setup)  # holding them keeps their ids from being reused
    return setup
