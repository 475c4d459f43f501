"""How far a hand is from its contract: a cheap "cards needed" measure for bots.

A *plan* gives each meld of the contract a partial meld of the hand: a set of one rank, or a window of
a run in one suit, with the naturals of the hand that fill it. ``need`` is how many cards the plan still
misses once the hand's jokers fill what they may. The plan with the least need is kept (ties: fewest dead
partials, then most live cards that would complete it). This is a heuristic, not the exact contract search
of :mod:`liverpool.engine.search`: it is for comparing hands, quickly.

>>> from liverpool.engine.cards import parse_cards
>>> from liverpool.engine.rules.presets import find_preset
>>> rules = find_preset('liverpool')
>>> plan_hand(parse_cards('7H 7S 4C 5C 6C KD 2S'), rules.contract(1), rules).need
2
>>> plan_hand(parse_cards('7H 7S 7D 4C 5C 6C JK 2S'), rules.contract(1), rules).need
0
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Final

from liverpool.engine import JOKER_FACE, MeldRule, Ruleset

from .plan_setup import FACES as FACES
from .plan_setup import NONE, ContractSetup, Held, Slot, setup_of
from .plan_setup import Partial as Partial
from .plan_setup import Plan as Plan
from .plan_setup import face_counts as face_counts


def plan_memo(contract: Sequence[MeldRule], rules: Ruleset) -> dict[Hashable, Plan]:
    """A place for callers to keep plans of ``contract`` under ``rules`` (empty at first, kept as long as
    the contract's set-up is; the caller bounds its size)."""
    return setup_of(contract, rules).memo


def need_memos(contract: Sequence[MeldRule], rules: Ruleset) -> tuple[dict[Hashable, Plan], dict[Hashable, int]]:
    """:func:`plan_memo`, and a place like it for the needs of plans that were not built."""
    setup = setup_of(contract, rules)
    return setup.memo, setup.needs


_Chosen = tuple[Slot, int, int, list[int], int, int, int]  # slot, family, low, faces, missing, room, out
_UNSET: Final = 1 << 30  # the need to beat before any plan is found
_NO_CHOSEN: Final[list[_Chosen]] = []  # never changed (see ``_Search.__init__``)
_NO_INTS: Final[list[int]] = []  # never changed


class _Search:
    """The depth-first search of one plan: each slot of the contract takes a candidate partial in turn.

    (A plain class, not a dataclass: one is built per plan, and mypyc compiles this ``__init__`` where a
    dataclass's stays Python.)"""

    __slots__ = (
        "best",
        "best_dead",
        "best_need",
        "best_outs",
        "best_path",
        "best_taken",
        "chosen",
        "counts",
        "floor",
        "jokers",
        "lists",
        "live",
        "naturals",
        "path",
        "paths",
        "slack",
        "slots",
        "track",
        "whole_hand",
    )

    def __init__(
        self,
        slots: list[Slot],
        lists: list[list[int]],
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
        # (lists only read until replaced are the shared empty ones: a search is built per plan)
        self.best: list[_Chosen] = _NO_CHOSEN
        self.chosen: list[_Chosen] = [] if track else _NO_CHOSEN
        self.paths = False  # :meth:`visit_need` keeps the best plan's partials, as ``best_path`` (``best_taken``: see :func:`_search_lists`)
        self.path: list[int] = (
            _NO_INTS  # with ``paths``: the partials chosen down to this depth, packed (see :meth:`visit_need`)
        )
        self.best_path: list[int] = _NO_INTS
        self.best_taken: list[int] = _NO_INTS

    def visit(self, depth: int, missing_so_far: int, room_so_far: int, start: int, used: int) -> None:
        slot = self.slots[depth]
        last = depth + 1 == len(self.slots)
        options = self.lists[depth]
        bound = missing_so_far + self.floor[depth + 1] - self.jokers + self.slack
        counts = self.counts
        chosen = self.chosen
        track = self.track
        for index in range(start if slot.chained else 0, len(options)):
            entry = options[index]
            static = entry >> 10
            if bound + static > self.best_need:
                break
            family = entry >> 5 & 31
            low = entry & 31
            if family == NONE:
                family = low = -1
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
                counts[face] = counts[face] + 1  # (not ``+=``: compiled, that is a generic add)

    def visit_need(self, depth: int, missing_so_far: int, room_so_far: int, start: int, used: int) -> None:
        """:meth:`visit` without unseen counts and not whole-hand: the same search, a partial's naturals put
        back from the mask :meth:`.plan_setup.Slot.take_mask` gives rather than kept in a list per partial
        (with ``paths``, the best plan's partials are kept as packed entries, ``entry | taken << 20`` with
        ``taken`` that mask and count; :meth:`taken_of` and :meth:`best_chosen` unpack them)."""
        slot = self.slots[depth]
        last = depth + 1 == len(self.slots)
        options = self.lists[depth]
        bound = missing_so_far + self.floor[depth + 1] - self.jokers + self.slack
        counts = self.counts
        jokers = self.jokers
        for index in range(start if slot.chained else 0, len(options)):
            entry = options[index]
            if bound + (entry >> 10) > self.best_need:
                break
            family = entry >> 5 & 31
            bit = 0
            taken = 0
            if family != NONE:
                bit = 1 << family + slot.shift
                if slot.distinct and used & bit:
                    continue
                taken = slot.take_mask(counts, family, entry & 31)
            missing = slot.length - (taken & 255)
            room = missing if missing < slot.room else slot.room
            if self.paths:
                self.path.append(entry | taken << 20)
            if last:
                room += room_so_far
                need = missing_so_far + missing - (jokers if jokers < room else room)
                if need < self.best_need:
                    self.best_need = need
                    if self.paths:
                        self.best_path = self.path[:]
            else:
                self.visit_need(depth + 1, missing_so_far + missing, room_so_far + room, index, used | bit)
            if self.paths:
                self.path.pop()
            if taken & 255:
                slot.put_back(counts, family, entry & 31, taken >> 8)

    def taken_of(self, path: list[int]) -> list[int]:
        """The faces the partials of ``path`` (packed as :meth:`visit_need` keeps them) took, in the order
        they were taken."""
        out: list[int] = []
        for depth, packed in enumerate(path):
            if packed >> 20 & 255:
                self.slots[depth].faces_into(packed >> 5 & 31, packed & 31, packed >> 28, out)
        return out

    def visit_count(self, depth: int, missing_so_far: int, room_so_far: int, start: int, used: int) -> None:
        """:meth:`visit_need` for the need alone (without ``paths``): a partial's faces are put back from the
        mask :meth:`.plan_setup.Slot.take_mask` gives, not from a stack of the faces taken."""
        slot = self.slots[depth]
        last = depth + 1 == len(self.slots)
        options = self.lists[depth]
        bound = missing_so_far + self.floor[depth + 1] - self.jokers + self.slack
        counts = self.counts
        jokers = self.jokers
        for index in range(start if slot.chained else 0, len(options)):
            entry = options[index]
            if bound + (entry >> 10) > self.best_need:
                break
            family = entry >> 5 & 31
            bit = 0
            taken = 0
            if family != NONE:
                bit = 1 << family + slot.shift
                if slot.distinct and used & bit:
                    continue
                taken = slot.take_mask(counts, family, entry & 31)
            missing = slot.length - (taken & 255)
            room = missing if missing < slot.room else slot.room
            if last:
                room += room_so_far
                need = missing_so_far + missing - (jokers if jokers < room else room)
                if need < self.best_need:
                    self.best_need = need
            else:
                self.visit_count(depth + 1, missing_so_far + missing, room_so_far + room, index, used | bit)
            if taken & 255:
                slot.put_back(counts, family, entry & 31, taken >> 8)

    def best_chosen(self) -> list[_Chosen]:
        """The partials of the best plan :meth:`visit_need` found with ``paths``, as :meth:`visit` keeps them."""
        out: list[_Chosen] = []
        start = 0
        taken = self.best_taken
        for depth, packed in enumerate(self.best_path):
            slot = self.slots[depth]
            n = packed >> 20 & 255
            family = packed >> 5 & 31
            low = packed & 31
            if family == NONE:
                family = low = -1
            missing = slot.length - n
            room = missing if missing < slot.room else slot.room
            out.append((slot, family, low, taken[start : start + n], missing, room, 0))
            start += n
        return out

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
    search = _search(hand, setup_of(contract, rules), live, whole_hand, keep, True)
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
            partial = kept[key] = Partial(
                slot.kind, family, low, slot.length, used, miss, room, slot.wanted(family, low, faces)
            )
        built.append(partial)
        rooms += room
    return Plan(search.best_need, tuple(built), min(jokers, rooms), search.best_dead, search.best_outs)


def plan_need(
    hand: Sequence[int], contract: Sequence[MeldRule], rules: Ruleset, keep: int = 6, below: int = _UNSET
) -> int:
    """``plan_hand(hand, contract, rules, keep=keep).need`` (no unseen counts, not whole-hand), without
    building the plan: the same search, keeping only the best need. With ``below``, the search looks only
    for needs under it (pruning more), and gives ``below`` when the need is not under it."""
    return _search(hand, setup_of(contract, rules), None, False, keep, False, True, below).best_need


class HeldNeed:
    """A hand's candidates (:class:`.plan_setup.Held`) and need, kept to find the need of the hand plus one
    card (:meth:`need_with`) without reading the hand again."""

    __slots__ = ("by_group", "held", "keep", "need", "searcher", "setup")

    def __init__(self, hand: Sequence[int], contract: Sequence[MeldRule], rules: Ruleset, keep: int = 6) -> None:
        setup = self.setup = setup_of(contract, rules)
        held = self.held = setup.held(hand)
        self.keep = keep
        self.searcher: _Search | None = None  # the search of :meth:`search`, kept for the next one
        self.by_group = self.lists_of(held)
        self.need = self.search(held, self.by_group, _UNSET)

    def lists_of(self, held: Held) -> list[list[int]]:
        return self.setup.group_lists(held.held0, held.held1, held.held2, held.held3, held.totals, self.keep)

    def search(self, held: Held, by_group: list[list[int]], below: int) -> int:
        setup = self.setup
        lists = setup.slot_lists(by_group)
        search = self.searcher
        if search is None or not setup.slots:
            search = _search_lists(
                setup, held.counts, lists, held.size, None, False, False, True, below
            )  # (it puts back what it takes)
            self.searcher = search
            return search.best_need
        # :func:`_search_lists` again in the search kept (its stacks are empty again after a search): only the
        # hand's counts, candidates and their floor change (a search object and its lists cost more to build)
        counts = held.counts
        jokers = counts[JOKER_FACE]
        floor = search.floor
        for i in range(len(lists) - 1, -1, -1):
            floor[i] = floor[i + 1] + (lists[i][0] >> 10)
        search.lists = lists
        search.counts = counts
        search.jokers = jokers
        search.naturals = held.size - jokers
        search.best_need = below
        search.visit_count(0, 0, 0, 0, 0)
        return search.best_need

    def need_with(self, face: int, below: int = _UNSET) -> int:
        """``plan_need([*hand, card], contract, rules, keep, below)`` for a card of ``face``: the hand's own
        need when the card leaves the search as it was (:meth:`.plan_setup.ContractSetup.leaves`)."""
        setup = self.setup
        if face != JOKER_FACE and setup.leaves(self.held, self.by_group, face, self.keep):
            need = self.need
            return need if need < below else below
        # the hand grown by the card in place, then put back (copying the hand's counts cost more)
        held = self.held
        held0, held1, held2, held3 = held.held0, held.held1, held.held2, held.held3
        rank = face % 13
        total = held.totals[rank]
        held.add(face, setup.distinct_suits)
        held.size += 1
        try:
            return self.search(held, self.lists_of(held), below)
        finally:
            counts = held.counts
            counts[face] = counts[face] - 1
            held.held0, held.held1, held.held2, held.held3 = held0, held1, held2, held3
            held.totals[rank] = total
            held.size -= 1


def plan_use(hand: Sequence[int], contract: Sequence[MeldRule], rules: Ruleset, keep: int = 6) -> tuple[int, list[int]]:
    """``plan_hand(hand, contract, rules, keep=keep)`` (no unseen counts, not whole-hand) as its need and
    how many cards of each face its partials use (its jokers at ``JOKER_FACE``), without building the
    plan: the same search, reading the faces it took and the rooms of the partials it chose."""
    setup = setup_of(contract, rules)
    search = _search(hand, setup, None, False, keep, True, False)
    used = [0] * FACES
    for face in search.best_taken:
        used[face] = used[face] + 1  # (not ``+=``: compiled, that is a generic add)
    rooms = 0
    slots = setup.slots
    for depth, packed in enumerate(search.best_path):
        slot = slots[depth]
        missing = slot.length - (packed >> 20 & 255)
        rooms += missing if missing < slot.room else slot.room
    jokers = search.jokers
    used[JOKER_FACE] = used[JOKER_FACE] + (jokers if jokers < rooms else rooms)
    return search.best_need, used


def _search(
    hand: Sequence[int],
    setup: ContractSetup,
    live: Sequence[int] | None,
    whole_hand: bool,
    keep: int,
    track: bool,
    unpack: bool = True,
    below: int = _UNSET,
) -> _Search:
    """The finished search of ``hand``'s best plan (``track``: keep its partials; always kept ``whole_hand`` or with ``live``;
    without ``unpack``, the partials found on one stack, without unseen counts and not whole-hand, stay packed; ``below``:
    for the need alone, the need to beat, see :func:`plan_need`)."""
    counts, lists = setup.candidates(hand, keep)
    return _search_lists(setup, counts, lists, len(hand), live, whole_hand, track, unpack, below)


def _search_lists(
    setup: ContractSetup,
    counts: list[int],
    lists: list[list[int]],
    size: int,
    live: Sequence[int] | None,
    whole_hand: bool,
    track: bool,
    unpack: bool,
    below: int,
) -> _Search:
    """:func:`_search` of a hand of ``size`` cards from its ``counts`` and candidate ``lists``."""
    jokers = counts[JOKER_FACE]
    floor = [0] * (len(lists) + 1)
    for i in range(len(lists) - 1, -1, -1):
        floor[i] = floor[i + 1] + (lists[i][0] >> 10)
    slack = 1 if live is None else 0
    search = _Search(
        setup.slots,
        lists,
        floor,
        counts,
        jokers,
        size - jokers,
        live,
        whole_hand,
        slack,
        track or whole_hand or live is not None,
    )
    if not setup.slots:
        search.leaf(0, 0)
    elif not search.track:
        search.best_need = below  # the search is exact below it: it prunes only what cannot beat it
        search.visit_count(0, 0, 0, 0, 0)
    elif live is None and not whole_hand:
        search.paths = True
        search.path = []
        search.visit_need(0, 0, 0, 0, 0)
        search.best_taken = search.taken_of(search.best_path)
        if unpack:
            search.best = search.best_chosen()
    else:
        search.visit(0, 0, 0, 0, 0)
    return search
