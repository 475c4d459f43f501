"""How far a hand is from its contract: a cheap "cards needed" measure for bots.

A *plan* gives each meld of the contract a partial meld of the hand: a set of one rank, or a window of
a run in one suit, with the naturals of the hand that fill it. ``need`` is how many cards the plan still
misses once the hand's jokers fill what they may. The plan with the least need is kept (ties: fewest dead
partials, then most live cards that would complete it). This is a heuristic, not the exact contract search
of :mod:`liverpool.engine.search`: it is for comparing hands, quickly.

>>> from liverpool.engine.cards import parse_cards
>>> from liverpool.engine.presets import find_preset
>>> rules = find_preset('liverpool')
>>> plan_hand(parse_cards('7H 7S 4C 5C 6C KD 2S'), rules.contract(1), rules).need
2
>>> plan_hand(parse_cards('7H 7S 7D 4C 5C 6C JK 2S'), rules.contract(1), rules).need
0
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from liverpool.engine.cards import JOKER_FACE
from liverpool.engine.rules import MeldKind, MeldRule, Ruleset

FACES = JOKER_FACE + 1


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
        counts[card & 63] += 1
    return counts


def _joker_cap(rule: MeldRule, rules: Ruleset) -> int:
    spacing = rules.run_joker_spacing
    if rule.kind is MeldKind.SET or spacing <= 1:
        return rule.length
    return -(-rule.length // spacing)


_WINDOWS: dict[int, tuple[int, ...]] = {}


def _windows(present: int, length: int, first: int, last: int) -> tuple[int, ...]:
    """:func:`_find_windows`, kept (by one int key: a dict look-up is cheaper than an ``lru_cache``)."""
    key = present | length << 16 | first << 21 | last << 26
    found = _WINDOWS.get(key)
    if found is None:
        if len(_WINDOWS) >= 65536:
            _WINDOWS.clear()
        found = _WINDOWS[key] = _find_windows(present, length, first, last)
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
        have = (present & (full << low)).bit_count()
        if have:
            out.append((length - have) << 10 | low)
    out.sort()
    return tuple(out[:2])


def _pick(found: list[int], length: int, keep: int) -> list[tuple[int, int, int]]:
    """Of partials packed as ``missing << 10 | family << 5 | low``, two per family at most: the most
    promising, least missing first (then by family and low), at most ``keep`` and at most two more
    missing than the best, as ``(missing, family, low)``; then the empty partial, so that a slot can
    always be planned."""
    found.sort()
    out: list[tuple[int, int, int]] = []
    if found:
        limit = (found[0] >> 10) + 2
        for entry in found:
            missing = entry >> 10
            if missing > limit or len(out) == keep:
                break
            out.append((missing, entry >> 5 & 31, entry & 31))
    out.append((length, -1, -1))
    return out


@dataclass(slots=True)
class _Slot:
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
    def of(cls, rule: MeldRule, rules: Ruleset, group: int, chained: bool) -> _Slot:
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
                if counts[face]:
                    counts[face] -= 1
                    taken.append(face)
                elif live is not None:
                    out += live[face]
            return taken, out
        length, per_suit = self.length, self.per_suit
        for face in (family - 1, family + 12, family + 25, family + 38):
            have = counts[face]
            if have:
                n = min(have, per_suit, length - len(taken))
                counts[face] = have - n
                taken += [face] * n
        if live is not None:
            out = sum(live[f] for f in self.wanted(family, low, taken))
        return taken, out

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
class _Contract:
    """A contract set up for planning under some rules: its slots in search order and their groups."""

    slots: list[_Slot]
    groups: list[tuple[bool, int]]  # (run, length) of each distinct rule
    runs: bool
    sets: bool
    first: int
    top: int
    distinct_suits: bool
    memo: dict[Hashable, Plan] = field(default_factory=dict)
    needs: dict[Hashable, int] = field(default_factory=dict)

    @classmethod
    def of(cls, contract: Sequence[MeldRule], rules: Ruleset) -> _Contract:
        ordered = sorted(contract, key=lambda r: (r.kind is MeldKind.SET, -r.length))
        distinct: list[MeldRule] = []
        slots: list[_Slot] = []
        for i, rule in enumerate(ordered):
            if rule not in distinct:
                distinct.append(rule)
            slots.append(_Slot.of(rule, rules, distinct.index(rule), i > 0 and ordered[i - 1] == rule))
        kinds = [rule.kind is MeldKind.RUN for rule in distinct]
        return cls(
            slots,
            [(run, rule.length) for run, rule in zip(kinds, distinct, strict=True)],
            any(kinds),
            not all(kinds),
            1 if rules.aces_low else 2,
            14 if rules.aces_high else 13,
            rules.set_distinct_suits,
        )

    def candidates(self, hand: Sequence[int], keep: int) -> tuple[list[int], list[list[tuple[int, int, int]]]]:
        """The hand's count of each face, and the candidate partials of each slot."""
        present = [0, 0, 0, 0]  # by suit, bit r for rank r
        totals = [0] * 13  # naturals by rank (suits by rank, with distinct suits)
        runs, sets, distinct = self.runs, self.sets, self.distinct_suits
        counts = [0] * FACES
        for card in hand:
            face = card & 63
            counts[face] += 1
            if face < JOKER_FACE:
                suit = face // 13
                rank = face - 13 * suit
                if runs:
                    present[suit] |= 2 << rank
                if sets:
                    if distinct:
                        totals[rank] |= 1 << suit
                    else:
                        totals[rank] += 1
        if sets and distinct:
            totals = [mask.bit_count() for mask in totals]
        by_group: list[list[tuple[int, int, int]]] = []
        for run, length in self.groups:
            found: list[int] = []
            if run:
                last = self.top - length + 1
                for suit in range(4):
                    if present[suit]:
                        for window in _windows(present[suit], length, self.first, last):
                            found.append(window | suit << 5)
            else:
                for rank in range(1, 14):
                    total = totals[rank - 1]
                    if total:
                        found.append(max(0, length - total) << 10 | rank << 5 | rank)
            by_group.append(_pick(found, length, keep))
        return counts, [by_group[slot.group] for slot in self.slots]


_CONTRACTS: dict[tuple[int, int], tuple[tuple[MeldRule, ...], Ruleset, _Contract]] = {}


def plan_memo(contract: Sequence[MeldRule], rules: Ruleset) -> dict[Hashable, Plan]:
    """A place for callers to keep plans of ``contract`` under ``rules`` (empty at first, kept as long as
    the contract's set-up is; the caller bounds its size)."""
    return _contract(contract, rules).memo


def need_memos(contract: Sequence[MeldRule], rules: Ruleset) -> tuple[dict[Hashable, Plan], dict[Hashable, int]]:
    """:func:`plan_memo`, and a place like it for the needs of plans that were not built."""
    setup = _contract(contract, rules)
    return setup.memo, setup.needs


def _contract(contract: Sequence[MeldRule], rules: Ruleset) -> _Contract:
    """The set-up contract, kept per contract tuple and ruleset (by identity: hashing them is slow)."""
    if type(contract) is not tuple:
        return _Contract.of(contract, rules)
    key = (id(contract), id(rules))
    found = _CONTRACTS.get(key)
    if found is not None and found[0] is contract and found[1] is rules:
        return found[2]
    setup = _Contract.of(contract, rules)
    if len(_CONTRACTS) >= 256:
        _CONTRACTS.clear()
    _CONTRACTS[key] = (contract, rules, setup)  # holding them keeps their ids from being reused
    return setup


_Chosen = tuple[_Slot, int, int, list[int], int, int, int]  # slot, family, low, faces, missing, room, out
_UNSET = 1 << 30  # the need to beat before any plan is found


class _Search:
    """The depth-first search of one plan: each slot of the contract takes a candidate partial in turn.

    (A plain class, not a dataclass: one is built per plan, and mypyc compiles this ``__init__`` where a
    dataclass's stays Python.)"""

    __slots__ = (
        "best",
        "best_dead",
        "best_need",
        "best_outs",
        "chosen",
        "counts",
        "floor",
        "jokers",
        "lists",
        "live",
        "naturals",
        "slack",
        "slots",
        "track",
        "whole_hand",
    )

    def __init__(
        self,
        slots: list[_Slot],
        lists: list[list[tuple[int, int, int]]],
        floor: list[int],  # the least the candidates of the slots from each depth on miss
        counts: list[int],
        jokers: int,
        naturals: int,
        live: Sequence[int] | None,
        whole_hand: bool,
        slack: int,
        track: bool = True,  # keep the partials chosen (else only ``best_need`` is found)
    ) -> None:
        self.slots = slots
        self.lists = lists
        self.floor = floor
        self.counts = counts
        self.jokers = jokers
        self.naturals = naturals
        self.live = live
        self.whole_hand = whole_hand
        self.slack = slack
        self.track = track
        self.best_need = _UNSET
        self.best_dead = 0
        self.best_outs = 0
        self.best: list[_Chosen] = []
        self.chosen: list[_Chosen] = []

    def visit(self, depth: int, missing_so_far: int, room_so_far: int, start: int, used: int) -> None:
        slot = self.slots[depth]
        last = depth + 1 == len(self.slots)
        options = self.lists[depth]
        bound = missing_so_far + self.floor[depth + 1] - self.jokers + self.slack
        counts = self.counts
        chosen = self.chosen
        track = self.track
        for index in range(start if slot.chained else 0, len(options)):
            static, family, low = options[index]
            if bound + static > self.best_need:
                break
            bit = 0
            faces: list[int] = []
            out = 0
            if family >= 0:
                bit = 1 << family + slot.shift
                if slot.distinct and used & bit:
                    continue
                faces, out = slot.take(counts, family, low, self.live)
            missing = slot.length - len(faces)
            room = missing if missing < slot.room else slot.room
            if track:
                chosen.append((slot, family, low, faces, missing, room, out))
            if last:
                self.leaf(missing_so_far + missing, room_so_far + room)
            else:
                self.visit(depth + 1, missing_so_far + missing, room_so_far + room, index, used | bit)
            if track:
                chosen.pop()
            for face in faces:
                counts[face] += 1

    def leaf(self, missing: int, room: int) -> None:
        need = missing - min(self.jokers, room)
        if self.whole_hand:
            melded = sum(len(c[3]) for c in self.chosen)
            need = max(need, self.naturals - melded - self.extends())
        if need > self.best_need:
            return
        if self.live is None:
            if need < self.best_need:
                self.best_need = need
                if self.track:
                    self.best = self.chosen[:]
            return
        dead = outs = 0
        for c in self.chosen:
            miss = c[4]
            if miss:
                out = c[6]
                outs += min(out, 2 * miss)
                if out < miss - c[5]:
                    dead += 1
        if (need, dead, -outs) < (self.best_need, self.best_dead, -self.best_outs):
            self.best_need, self.best_dead, self.best_outs = need, dead, outs
            self.best = self.chosen[:]

    def extends(self) -> int:
        """Naturals left over that would lengthen a planned run or set (whole-hand deals)."""
        counts = self.counts
        spare = 0
        for slot, family, low, _, _, _, _ in self.chosen:
            if family < 0:
                continue
            if not slot.run:
                if not slot.distinct_suits:
                    spare += counts[family - 1] + counts[family + 12] + counts[family + 25] + counts[family + 38]
                continue
            base = family * 13
            for rank in (low - 1, low + slot.length):
                if 1 <= rank <= 14 and counts[base + (rank - 1) % 13]:
                    spare += 1
        return spare


def plan_hand(
    hand: Sequence[int],
    contract: Sequence[MeldRule],
    rules: Ruleset,
    *,
    live: Sequence[int] | None = None,
    whole_hand: bool = False,
    keep: int = 6,
) -> Plan:
    """The best plan of ``hand`` for ``contract``.

    ``live`` (unseen copies of each face) breaks ties toward plans whose missing cards are still out,
    and counts partials that can no longer be completed as ``dead``. With ``whole_hand`` every card must
    end up melded, so the cards no partial can use count as needed too (for contracts of runs only,
    :mod:`.plan_whole` plans better). ``keep``: partials tried per meld of the contract.
    """
    search = _search(hand, _contract(contract, rules), live, whole_hand, keep, True)
    jokers = search.jokers
    built: list[Partial] = []
    rooms = 0
    for slot, family, low, faces, miss, room, _ in search.best:
        used = tuple(faces)
        kept = slot.partials
        key = (family, low, used)  # ``miss`` and ``room`` follow from the slot and ``len(faces)``
        partial = kept.get(key)
        if partial is None:
            if len(kept) >= 4096:
                kept.clear()
            partial = kept[key] = Partial(slot.kind, family, low, slot.length, used, miss, room, slot.wanted(family, low, faces))
        built.append(partial)
        rooms += room
    return Plan(search.best_need, tuple(built), min(jokers, rooms), search.best_dead, search.best_outs)


def plan_need(hand: Sequence[int], contract: Sequence[MeldRule], rules: Ruleset, keep: int = 6) -> int:
    """``plan_hand(hand, contract, rules, keep=keep).need`` (no unseen counts, not whole-hand), without
    building the plan: the same search, keeping only the best need."""
    return _search(hand, _contract(contract, rules), None, False, keep, False).best_need


def _search(hand: Sequence[int], setup: _Contract, live: Sequence[int] | None, whole_hand: bool, keep: int, track: bool) -> _Search:
    """The finished search of ``hand``'s best plan (``track``: keep its partials; always kept ``whole_hand`` or with ``live``)."""
    counts, lists = setup.candidates(hand, keep)
    jokers = counts[JOKER_FACE]
    floor = [0] * (len(lists) + 1)
    for i in range(len(lists) - 1, -1, -1):
        floor[i] = floor[i + 1] + lists[i][0][0]
    slack = 1 if live is None else 0
    search = _Search(setup.slots, lists, floor, counts, jokers, len(hand) - jokers, live, whole_hand, slack, track or whole_hand or live is not None)
    if setup.slots:
        search.visit(0, 0, 0, 0, 0)
    else:
        search.leaf(0, 0)
    return search
