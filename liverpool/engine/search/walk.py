"""The depth-first walk of the arrangement search (:mod:`.search`): it fills the contract's slots from
each slot's candidates, cuts a branch as soon as what it could still shed cannot beat the arrangements
kept, and keeps the best ``limit`` of them (or stops at the first, for a yes-or-no question, or keeps every
one met, which cuts only the branches that cannot be filled).

A :class:`Walk` holds what the branches read and what they keep. It is a class rather than functions
nested in the search that call themselves: such closures refer to themselves through their shared
scope, a reference cycle that only the garbage collector frees, left behind by every search.
"""

from __future__ import annotations

from typing import Final

from liverpool.engine.melds import could_be_one_run
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.search.candidates import Entry, Family, run_cards

# What a walk looks for: any arrangement (stop at the first), the best one, the ``limit`` best, every one.
FEASIBLE: Final = 0
BEST: Final = 1
TOP: Final = 2
EVERY: Final = 3
# How a slot's candidate must follow the one of the slot before (see ``_Search._chain``).
FREE: Final = 0
BY_ORDER: Final = 1
BY_SIZE: Final = 2


class Group:
    """The open slots of one kind below some depth, as the bound reads them: how many, whether their
    suits or ranks must differ, and the families of candidates that fit the shortest of them."""

    def __init__(self, slots: int, distinct: bool, families: list[Family]) -> None:
        self.slots = slots
        self.distinct = distinct
        self.families = families


class Walk:
    """One walk: the packed-count layout, each depth's open groups and candidate lists, and the kept
    arrangements as ``(-score, order met, path)``; ``most`` caps what any arrangement can shed (the cards
    that must stay), under the bound of the slots."""

    def __init__(
        self,
        open_below: list[list[Group]],
        guard: int,
        width: int,
        joker_face: int,
        joker_weight: int,
        max_used: int,
        must: tuple[int, int],
        lists: list[list[tuple[int, list[Entry], list[int]]]],
        chains: list[int],
        tagged: list[bool],
        joins: list[bool],
        rules: Ruleset,
        by_order: bool,
        mode: int,
        limit: int,
        need: int,
        most: int,
    ) -> None:
        self.open_below = open_below
        self.single = [len(groups) == 1 and groups[0].slots == 1 for groups in open_below]
        self.guard = guard
        self.field = (1 << (width - 1)) - 1
        self.joker_shift = joker_face * width
        # What a family with local uses (:class:`.Family`) reads of ``left``: its suit's 13 fields, then the
        # jokers' at ``joker_at``, and their guard bits.
        self.suit_fields = (1 << (13 * width)) - 1
        self.joker_at = 13 * width
        self.local_guard = guard & ((1 << (14 * width)) - 1)
        self.joker_weight = joker_weight
        self.max_used = max_used
        self.must_shift, self.must_have = must
        self.lists = lists
        # The last slot's list cut to the candidates that meld the card that must be melded, read there while
        # no slot before has melded it: only those can be accepted then (see ``accept``). Only where each
        # family's candidates come most points first (``by_order``), so that the walk's cut at the first one
        # that cannot reach ``need`` is where it was: those cut are the same and the others never accepted.
        self.must_last: list[tuple[int, list[Entry], list[int]]] = []
        if lists:
            last = lists[-1]
            self.must_last = (
                last if self.must_shift < 0 or not by_order else _melding(last, self.must_shift, self.field)
            )
        self.chains = chains
        self.tagged = tagged
        # Runs that could be laid as one may not be laid apart (``joins`` at a depth: its run is tested against
        # the runs of the depths before it that join too), under these run rules.
        self.joins = joins
        self.aces_low: bool = rules.aces_low
        self.aces_high: bool = rules.aces_high
        self.spacing: int = rules.run_joker_spacing
        self.min_naturals: int = rules.run_min_naturals
        self.by_order = by_order
        self.last = len(lists) - 1
        self.mode = mode
        self.limit = limit
        self.need = need
        self.most = most
        self.met = 0
        self.ceiling = 0
        self.found: list[tuple[int, int, tuple[int, ...]]] = []
        # Set to end the walk early (a feasible arrangement, or one that sheds all that can be shed): a flag
        # each level reads, not an exception, which compiled code would trace through every level it leaves.
        self.stopped = False

    def run(self, start: int) -> list[tuple[int, tuple[int, ...]]]:
        """``(score, path)`` of the arrangements kept, best first, walking from the packed counts ``start``."""
        self.ceiling = min(self.bound(0, start, 0), self.most)
        if self.ceiling < self.need:
            return []
        if self.lists:
            self.visit(0, start, (start >> self.joker_shift) & self.field, 0, 0, 0, 0, 0, ())
        else:
            self.accept(start, 0, ())
        if self.mode == EVERY:
            self.found.sort()  # (once: the other modes keep theirs sorted as they go)
        return [(-negated, path) for negated, _, path in self.found]

    def best_fitting(self, family: Family, left: int, blocked: int) -> int:
        """The score of ``family``'s best candidate that fits ``left`` and is not ``blocked``, read from its
        head; past the head, the score that bounds the rest (``beyond``)."""
        head = family.head
        guard = self.guard
        if family.shift >= 0:
            # (the same test on the fields the family's candidates touch, in a native int)
            left = (left >> family.shift) & self.suit_fields | (left >> self.joker_shift) << self.joker_at
            guard = self.local_guard
        if family.tagged:
            for j in range(0, len(head), 3):
                if not head[j + 2] & blocked and (left - head[j + 1]) & guard == guard:
                    return head[j]
        else:
            for j in range(0, len(head), 3):
                if (left - head[j + 1]) & guard == guard:
                    return head[j]
        return family.beyond

    def bound(self, depth: int, left: int, blocked: int) -> int:
        """At most what the slots from ``depth`` on can still shed, or -1 when they cannot be filled: the
        least of the best candidate that fits for each slot, and the best naturals for each slot plus the
        jokers left; and -1 when the open slots need more jokers than are left."""
        groups = self.open_below[depth]
        if self.single[depth]:
            top = -1
            for family in groups[0].families:
                if family.bit & blocked:
                    continue
                score = self.best_fitting(family, left, blocked)
                if score > top:
                    top = score
            return top
        best = naturals = needed = most = 0
        for group in groups:
            wanted, distinct = group.slots, group.distinct
            # Lists only where several best of them count (distinct families); otherwise the extremes do.
            listed = distinct and wanted > 1
            scores: list[int] = []
            gains: list[int] = []
            fewest: list[int] = []
            mosts: list[int] = []
            count = top = top_gain = top_most = 0
            least = -1
            for family in group.families:
                if family.bit & blocked:
                    continue
                score = self.best_fitting(family, left, blocked)
                if score < 0:
                    continue
                count += 1
                nat = family.best_naturals
                if listed:
                    scores.append(score)
                    fewest.append(family.fewest_jokers)
                    mosts.append(family.most_jokers)
                    gains.append(nat)
                    continue
                if score > top:
                    top = score
                if least < 0 or family.fewest_jokers < least:
                    least = family.fewest_jokers
                if family.most_jokers > top_most:
                    top_most = family.most_jokers
                cap = family.naturals
                if wanted == 1:
                    gain = nat if distinct else min(nat, cap) - min(0, cap)
                    if gain > top_gain:
                        top_gain = gain
                else:
                    for k in range(1, wanted + 1):
                        gains.append(min(k * nat, cap) - min((k - 1) * nat, cap))
            if count < (wanted if distinct else 1):
                return -1
            if listed:
                naturals += _top_sum(gains, wanted)
                best += _top_sum(scores, wanted)
                needed += _least_sum(fewest, wanted)
                most += _top_sum(mosts, wanted)
            elif wanted == 1:
                best += top
                naturals += top_gain
                needed += least
                most += top_most
            else:
                naturals += _top_sum(gains, wanted)
                best += wanted * top
                needed += wanted * least
                most += wanted * top_most
        jokers_left = (left >> self.joker_shift) & self.field
        if needed > jokers_left:
            return -1
        return min(best, naturals + self.joker_weight * min(jokers_left, most))

    def accept(self, left: int, score: int, path: tuple[int, ...]) -> None:
        if self.must_shift >= 0 and (left >> self.must_shift) & self.field >= self.must_have:
            return
        self.met += 1
        found = self.found
        if self.mode == FEASIBLE:
            found.append((-score, self.met, path))
            self.stopped = True
            return
        if self.mode == EVERY:  # (no bound to raise: every arrangement is kept)
            found.append((-score, self.met, path))
            return
        # Kept sorted by (-score, order met): this one goes after every one that sheds as much or more (each
        # was met before it), found from the end; the list never holds more than ``limit``. (Compiled, a sort
        # compares the tuples in generic calls.)
        at = len(found)
        while at and found[at - 1][0] > -score:
            at -= 1
        if at < self.limit:
            found.insert(at, (-score, self.met, path))
            if len(found) > self.limit:
                found.pop()
        if len(found) == self.limit:
            worst = -found[-1][0]
            if worst >= self.ceiling:
                self.stopped = True
                return
            self.need = worst + 1

    def visit(
        self, depth: int, left: int, jokers_left: int, score: int, used: int, blocked: int, size_before: int,
        order_before: int, path: tuple[int, ...],
    ) -> None:  # fmt: skip
        """Fill the slot at ``depth`` from what is ``left`` (packed; ``jokers_left`` its jokers' count, in a native
        int), having shed ``score`` with ``used`` cards, and on to the slots below."""
        last = self.last
        if depth == last:
            rest = 0
        else:
            if depth:
                reach = self.bound(depth, left, blocked)
                if reach < 0 or score + reach < self.need:
                    return
            rest = self.bound(depth + 1, left, blocked)
            if rest < 0:
                return
        chain = self.chains[depth]
        tagged = self.tagged[depth]  # (else each candidate's tag is its family's bit, tested below)
        joins = self.joins[depth]
        guard, max_used = self.guard, self.max_used
        families = self.lists[depth]
        if depth == last and self.must_shift >= 0 and (left >> self.must_shift) & self.field >= self.must_have:
            families = self.must_last
        for bit, entries, orders in families:
            if bit & blocked:
                continue
            begin = 0
            if chain == BY_ORDER and self.by_order:
                # bisect_left(orders, order_before), written out: compiled, the call to the C function
                # cost more than its few comparisons
                end = len(orders)
                while begin < end:
                    middle = (begin + end) >> 1
                    if orders[middle] < order_before:
                        begin = middle + 1
                    else:
                        end = middle
            for i in range(begin, len(entries)):  # (not islice: compiled, a range loop indexes the list)
                c_score, size, use, tag, block, order, jokers = entries[i]
                reach = score + c_score + rest
                if reach < self.need:
                    break
                if chain and (
                    order < order_before
                    if chain == BY_ORDER
                    else size > size_before or (size == size_before and order < order_before)
                ):
                    continue
                if tagged and tag & blocked:
                    continue
                if used + size > max_used:
                    continue
                if jokers > jokers_left:  # (the fit test below would fail: a native test first)
                    continue
                after = left - use
                if after & guard != guard:
                    continue
                if joins and self.joins_before(order, path):
                    continue
                if depth == last:
                    self.accept(after, score + c_score, (*path, order))
                else:
                    self.visit(
                        depth + 1, after, jokers_left - jokers, score + c_score, used + size, blocked | block, size,
                        order, (*path, order),
                    )  # fmt: skip
                if self.stopped:
                    return

    def joins_before(self, order: int, path: tuple[int, ...]) -> bool:
        """Whether the run of ``order`` and the run of some depth of ``path`` that joins could be laid as one
        run (:func:`.melds.runs_could_join`, read off the candidates' orders)."""
        suit, ranks, jokers = run_cards(order)
        for depth in range(len(path)):
            if not self.joins[depth]:
                continue
            other_suit, other_ranks, other_jokers = run_cards(path[depth])
            if other_suit != suit or other_ranks & ranks:
                continue
            if could_be_one_run(
                ranks | other_ranks, jokers + other_jokers, self.aces_low, self.aces_high, self.spacing,
                self.min_naturals,
            ):  # fmt: skip
                return True
        return False


def _melding(
    families: list[tuple[int, list[Entry], list[int]]], shift: int, field: int
) -> list[tuple[int, list[Entry], list[int]]]:
    """``families`` (one slot's list of the walk) with only the candidates whose use holds the face at
    ``shift`` (a field of ``field`` bits), in their order; a family left with none is left out."""
    out: list[tuple[int, list[Entry], list[int]]] = []
    for bit, entries, orders in families:
        kept = [entry for entry in entries if (entry[2] >> shift) & field]
        if kept:
            out.append((bit, kept, [entry[5] for entry in kept] if orders else orders))
    return out


def _top_sum(values: list[int], count: int) -> int:
    """The sum of the ``count`` largest of ``values`` (all of them when fewer), sorting them. (Compiled,
    ``sort(reverse=True)`` is a method call with a keyword and ``sum`` of a slice a generic call.)"""
    values.sort()
    total = 0
    for i in range(len(values) - count if len(values) > count else 0, len(values)):
        total += values[i]
    return total


def _least_sum(values: list[int], count: int) -> int:
    """The sum of the ``count`` least of ``values`` (all of them when fewer), sorting them."""
    values.sort()
    total = 0
    for i in range(count if count < len(values) else len(values)):
        total += values[i]
    return total
