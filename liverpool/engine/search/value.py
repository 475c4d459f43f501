"""The most a going-down can shed, found family by family: the exact answer of ``best_leftover`` without
listing arrangements.

Runs of different suits share no natural card, nor do sets of different ranks: only jokers pass between
families (a suit for runs, a rank for sets). So for one kind the search keeps, per family, a *table*: the
most ``m`` melds of that family can shed with at most ``j`` jokers, and joins the families' tables by a
knapsack over melds and jokers. When the contract asks for both kinds, the melds of the kind that looks
cheaper to choose first are chosen by a depth-first search (best first, each branch cut by the other
kind's tables on what it has left), and each choice leaves the counts the other kind's tables are read
from (memoised per family on what the family has left).

The tables are those of :mod:`.search.tables`. The melds are the shapes of :mod:`.search.candidates`
(:func:`.search.members.run_members`, :func:`.search.members.set_members`: only what this search reads
of them, and runs alike in that are one), so every rule of a single meld (lengths, naturals, joker spacing, aces, set length) holds as
there; their ``tag`` and ``block`` carry the rules between melds of one family (distinct suits or ranks,
runs laid end to end). The search answers when every slot of a kind asks the same length; :func:`most_shed` returns
``None`` otherwise, and the caller searches arrangements instead.

>>> from liverpool.engine.cards import parse_cards
>>> from liverpool.engine.rules.presets import find_preset
>>> rules = find_preset('liverpool')
>>> hand = parse_cards('7H 7S 7D 4C 5C 6C JK KD 2S')
>>> most_shed(hand, rules.contract(1), rules, whole_hand=False)
50
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Final, cast

from liverpool.engine.cards import JOKER_FACE, Card
from liverpool.engine.rules.parts import MeldKind, MeldRule
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.search.candidates import RUN_SHAPE, count_hand, run_shape_list
from liverpool.engine.search.kit import Kit, value_shape
from liverpool.engine.search.members import (
    TableFamily,
    TableKind,
    naturals_left,
    ranks_left,
    run_families,
    run_members,
    set_families,
    set_members,
)
from liverpool.engine.search.tables import (
    Member,
    RunJoins,
    RunRules,
    SetRules,
    Steps,
    _growth,
    candidate_steps,
    join_keys,
)

_score: Final = itemgetter(0)
_RUN: Final = MeldKind.RUN
_SET: Final = MeldKind.SET


def most_shed(
    hand: Sequence[Card], contract: Sequence[MeldRule], rules: Ruleset, whole_hand: bool, joins: bool = False
) -> int | None:
    """The most points (or cards, when the ``whole_hand`` must go) a going-down of ``contract`` can shed
    from ``hand``, -1 when none is possible, ``None`` when the slots of one kind differ in length. Where two
    runs that could be laid as one must not be laid apart (``joinable_runs = could_join``, with runs that may
    share a suit), ``None`` too unless ``joins``: then the tables test each pair of runs of a suit they lay
    (:class:`.search.tables.RunJoins`), as :func:`.search.best_leftover` asks."""
    shape = value_shape(contract, rules)
    if shape.uneven or (shape.joins and not joins):
        return None
    run_slots, set_slots = shape.run_slots, shape.set_slots
    if not run_slots and not set_slots:
        return 0
    counts, packing, start = count_hand(hand)
    width, guard = packing.width, packing.guard
    start |= guard
    kit = shape.kit(width, whole_hand)
    run_rules, set_rules = kit.run_rules, kit.set_rules
    jokers = counts[JOKER_FACE]
    if not set_slots:
        only = _runs_kind(kit, counts, jokers, rules, run_slots, False, jokers, True)
        return _most(only, start, guard, run_rules, set_rules, jokers)
    if not run_slots:
        only = _sets_kind(kit, counts, jokers, rules, set_slots, False, jokers)
        return _most(only, start, guard, run_rules, set_rules, jokers)
    outer = _first_kind(counts, run_slots, set_slots, rules, set_rules)
    # The other kind first, and its tables on the whole hand: when they find no going-down, none is possible
    # (a choice of melds only takes cards and jokers away), and the first kind need not be listed; when they
    # need ``j`` jokers at least, no meld of the first kind may take more than the rest.
    if outer is _RUN:
        inner = _sets_kind(kit, counts, jokers, rules, set_slots, False, jokers)
    else:
        inner = _runs_kind(kit, counts, jokers, rules, run_slots, False, jokers, False)
    ceiling = _joined(inner, start, guard, run_rules, set_rules)
    spare = jokers
    while spare >= 0 and ceiling[jokers - spare] < 0:
        spare -= 1
    if spare < 0:
        return -1
    if (run_slots if outer is _RUN else set_slots) == 1:
        return _choose_one(outer is _RUN, kit, counts, spare, start, jokers, inner, ceiling, guard)
    if outer is _RUN:
        first = _runs_kind(kit, counts, jokers, rules, run_slots, True, spare, False)
    else:
        first = _sets_kind(kit, counts, jokers, rules, set_slots, True, spare)
    keyed = None
    if outer is _RUN and kit.joins:
        members, keyed = _keyed_runs(first.families, run_rules)
    else:
        members = []
        for family in first.families:
            members += family.members  # (not a generator: the compiled build would build each member anew)
        members.sort(key=_score, reverse=True)
    best = [-1]
    _choose(members, 0, first.slots, start, jokers, 0, 0, inner, guard, (run_rules, set_rules), best, keyed, ())
    return best[0]


def _keyed_runs(families: list[TableFamily], run_rules: RunRules) -> tuple[list[Member], RunJoins]:
    """The runs of ``families`` (listed by suit, in the hand's fields), best first as :func:`most_shed`
    sorts them, and their keys in that order (:func:`.search.tables.join_keys`)."""
    pairs: list[tuple[Member, int]] = []
    for family in families:
        keys = join_keys(family.members, family.suit, family.suit * 13 * run_rules.width, run_rules.width)
        for i in range(len(keys)):
            pairs.append((family.members[i], keys[i]))
    pairs.sort(key=_pair_score, reverse=True)
    return [member for member, _ in pairs], RunJoins(run_rules, [key for _, key in pairs])


def _pair_score(pair: tuple[Member, int]) -> int:
    return pair[0][0]


def _choose_one(
    runs: bool, kit: Kit, counts: list[int], spare: int, start: int, jokers: int, inner: TableKind,
    ceiling: list[int], guard: int,
) -> int:  # fmt: skip
    """:func:`_choose` for a contract of one meld of the kind chosen first (``runs`` or sets), its families
    listed only when they could beat the best found: each suit's (or rank's) melds of at most ``spare`` jokers
    are bounded from its naturals first, the families are taken by their bounds, highest first, and the
    listing stops at the first whose bound, with all the other kind could shed (``ceiling``, by jokers),
    cannot beat what was found."""
    run_rules, set_rules = kit.run_rules, kit.set_rules
    weights, width = kit.weights, run_rules.width
    tops: list[tuple[int, int]] = []  # (a bound on the family's best meld, its suit or rank), best first
    joker_share = spare * weights[JOKER_FACE]
    if runs:
        # (a run holds at most one natural of each rank of its suit, and at most ``spare`` jokers)
        for suit in range(4):
            ranks = top = 0
            for face in range(suit * 13, suit * 13 + 13):
                if counts[face]:
                    ranks += 1
                    top += weights[face]
            if ranks >= run_rules.min_naturals:
                tops.append((top + joker_share, suit))
    else:
        # (a set holds at most all the naturals of its rank, one of each suit when suits must differ, and
        # at most ``spare`` jokers)
        distinct = set_rules.distinct_suits
        for rank in range(1, 14):
            naturals = suits = 0
            for face in range(rank - 1, JOKER_FACE, 13):
                held = counts[face]
                naturals += held
                if held:
                    suits += 1
            if naturals >= set_rules.min_naturals:
                tops.append(((suits if distinct else naturals) * weights[rank - 1] + joker_share, rank))
    tops.sort(reverse=True)
    most_left = ceiling[jokers]
    best = -1
    for top, family in tops:
        if top + most_left <= best:
            break
        if runs:
            best = _choose_run(family, kit, spare, start, jokers, inner, ceiling, guard, best)
            continue
        have = (counts[family - 1], counts[family + 12], counts[family + 25], counts[family + 38])
        members = set_members(have, family, spare, width, weights[family - 1], set_rules, False)
        # (the members pass as the tuples they are, typed loosely and read a field at a time: see _choose)
        loose = cast(list[tuple[int, ...]], members)
        for member in loose:
            m_score = member[0]
            if m_score + most_left <= best:
                break
            count = member[2]
            most_after = ceiling[jokers - count]
            if most_after < 0 or m_score + most_after <= best:
                continue
            after = start - member[1]
            if after & guard != guard:
                continue
            most = _most(inner, after, guard, run_rules, set_rules, jokers - count)
            if most >= 0 and m_score + most > best:
                best = m_score + most
    return best


def _choose_run(
    suit: int, kit: Kit, spare: int, start: int, jokers: int, inner: TableKind, ceiling: list[int], guard: int,
    best: int,
) -> int:  # fmt: skip
    """:func:`_choose_one`'s loop over the runs of ``suit`` with at most ``spare`` jokers: the most found,
    from ``best``. The runs are read straight off :func:`.run_shape_list`, best first, and not made members
    (:func:`.run_members`): one run is chosen, so no tag or block is read, and runs alike (the same naturals
    and jokers, kept apart by where their jokers stand) cost only a second look at the same tables. (Sets
    read off their shapes likewise cost more than their members: p99 597,247 instructions against 590,719.
    The tail of the loop, from the hand's guard on, is :func:`_choose_one`'s for sets: a function for both
    cost a call a meld, p99 581,386 against 576,130.)"""
    run_rules, set_rules = kit.run_rules, kit.set_rules
    weights, width = kit.weights, run_rules.width
    base = suit * 13
    shapes = run_shape_list(
        ranks_left(start, suit, width), spare, width, weights[base : base + 13], run_rules.lengths, run_rules.min_naturals,
        run_rules.spacing, run_rules.aces_low, run_rules.aces_high,
    )  # fmt: skip
    joker_weight = weights[JOKER_FACE]
    # (the runs by their points, best first, as ints of their points and their places in ``shapes``, which
    # sort without a key function; a place is below 1 << 32. A run's points are its naturals', field 0,
    # and its jokers', field 3; its naturals, in the suit's own fields, are field 2.)
    order = []
    for i in range(0, len(shapes), RUN_SHAPE):
        order.append((shapes[i] + shapes[i + 3] * joker_weight) << 32 | i)
    order.sort(reverse=True)
    most_left = ceiling[jokers]
    shift = base * width
    for key in order:
        m_score = key >> 32
        if m_score + most_left <= best:
            break
        i = key & 0xFFFFFFFF
        count = shapes[i + 3]
        most_after = ceiling[jokers - count]
        if most_after < 0 or m_score + most_after <= best:
            continue
        after = start - (shapes[i + 2] << shift)
        if after & guard != guard:
            continue
        most = _most(inner, after, guard, run_rules, set_rules, jokers - count)
        if most >= 0 and m_score + most > best:
            best = m_score + most
    return best


def _runs_kind(
    kit: Kit, counts: list[int], jokers: int, rules: Ruleset, slots: int, listed: bool, listed_jokers: int,
    alone: bool,
) -> TableKind:  # fmt: skip
    """The runs of the hand ``counts`` as :func:`most_shed` reads them: ``listed``, each suit's runs of at
    most ``listed_jokers`` jokers, the kind chosen first; otherwise tables by suit, read as they are met.
    ``alone``: the contract asks for runs only."""
    run_rules = kit.run_rules
    if listed or not kit.runs_tabled:
        families = run_families(
            counts, listed_jokers if listed else jokers, kit.weights, run_rules.width, kit.run_lengths, rules, slots,
            not listed, run_rules,
        )  # fmt: skip
    else:
        # (only the suits whose ranks could hold a run's naturals: the others' tables are empty, and the
        # searches would look each of them up again at every step)
        families = []
        for suit in range(4):
            ranks = 0
            for face in range(suit * 13, suit * 13 + 13):
                if counts[face]:
                    ranks += 1
            if ranks >= run_rules.min_naturals:
                families.append(TableFamily(kit.suit_fields[suit], [], 1, {}, suit, 0, kit.book(suit, jokers)))
    runs = TableKind(slots, jokers, families)
    runs.joins = kit.joins
    # (the bounds serve a contract of runs alone: under a choice of sets, they weakened the cuts and cost more
    # than the tables they spared)
    runs.bounded = runs.bounded and alone
    return runs


def _sets_kind(
    kit: Kit, counts: list[int], jokers: int, rules: Ruleset, slots: int, listed: bool, listed_jokers: int
) -> TableKind:
    """The sets of the hand ``counts`` as :func:`most_shed` reads them: ``listed``, each rank's sets of at
    most ``listed_jokers`` jokers, the kind chosen first; otherwise tables by rank, read as they are met."""
    if listed:
        families = set_families(
            counts, listed_jokers, kit.weights, kit.run_rules.width, kit.set_rules, rules, slots
        )  # fmt: skip
    else:
        most, fewest = kit.set_most, kit.set_fewest  # (fewest: as for the suits, no rank short of a set)
        fields = kit.rank_fields
        families = [TableFamily(fields[rank], [], most, {}, rank=rank) for rank in range(1, 14)
                    if counts[rank - 1] + counts[rank + 12] + counts[rank + 25] + counts[rank + 38] >= fewest]  # fmt: skip
    return TableKind(slots, jokers, families)


def _first_kind(counts: list[int], run_slots: int, set_slots: int, rules: Ruleset, set_rules: SetRules) -> MeldKind:
    """The kind to choose first: the one whose ways to fill its slots, times what the other kind's tables
    cost at each of them, look fewer. A suit's runs are guessed from its ranks and the jokers; a rank's
    sets are counted from its naturals by suit (:meth:`.SetRules.count`, without listing them). Under joker spacing the runs come first: a run's table then
    costs several times a plain one (on the corpus of ``benchmarks/contracts.py``, runs first took about a
    fifth less time in all on the contracts of sets and runs of the presets that space jokers)."""
    if rules.run_joker_spacing > 1:
        return _RUN
    jokers = counts[JOKER_FACE]
    runs = 0
    for suit in range(4):
        held = jokers
        for face in range(suit * 13, suit * 13 + 13):
            if counts[face]:
                held += 1
        runs += held * held
    sets = ranks = 0
    min_naturals = rules.set_min_naturals
    for rank in range(13):
        naturals = counts[rank] + counts[rank + 13] + counts[rank + 26] + counts[rank + 39]
        if naturals:
            ranks += 1
        if naturals >= min_naturals:
            sets += set_rules.count((counts[rank], counts[rank + 13], counts[rank + 26], counts[rank + 39]), jokers)
    by_runs = float(runs) ** run_slots * ranks * set_slots**2
    by_sets = float(sets) ** set_slots * 4 * run_slots**2
    return _RUN if by_runs < by_sets else _SET


def _choose(
    members: list[Member], begin: int, wanted: int, left: int, jokers: int, score: int, blocked: int,
    inner: TableKind, guard: int, rules: tuple[RunRules, SetRules], best: list[int], joins: RunJoins | None,
    chosen: tuple[int, ...],
) -> None:  # fmt: skip
    """Chooses ``wanted`` more melds of the outer kind from ``members[begin:]``; once all are chosen, the
    inner kind's tables on what is left finish the going-down. ``best[0]`` keeps the most found. What the
    inner kind sheds from ``left`` bounds what it sheds once more melds are chosen. With ``joins`` (runs, and
    their keys), ``chosen`` holds the keys of the runs chosen, and a run that could be laid as one with one of
    them is passed over."""
    if not wanted:
        most = _most(inner, left, guard, rules[0], rules[1], jokers)
        if most >= 0 and score + most > best[0]:
            best[0] = score + most
        return
    ceiling = _joined(inner, left, guard, rules[0], rules[1])
    most_left = ceiling[jokers]
    if most_left < 0:
        return
    # The members pass as the tuples they are, typed loosely and read a field at a time (see candidate_steps:
    # compiled, a ``Member`` is taken apart whole, a big int among its fields, at each read).
    loose = cast(list[tuple[int, ...]], members)
    for i in range(begin, len(loose)):
        member = loose[i]
        m_score = member[0]
        reach = score + wanted * m_score
        if reach + most_left <= best[0]:
            return
        count = member[2]
        if count > jokers or member[3] & blocked:
            continue
        # (the other kind's tables on what is left bound it from above, however more melds are chosen: -1,
        # none with the jokers this meld leaves, ends the branch even before any going-down is found)
        most_after = ceiling[jokers - count]
        if most_after < 0 or reach + most_after <= best[0]:
            continue
        after = left - member[1]
        if after & guard != guard:
            continue
        laid = chosen
        if joins is not None:
            key = joins.keys[i]
            if chosen and joins.any_joins(key, chosen):
                continue
            laid = (*chosen, key)
        _choose(members, i, wanted - 1, after, jokers - count, score + m_score, blocked | member[4], inner, guard,
                rules, best, joins, laid)  # fmt: skip


def _most(kind: TableKind, left: int, guard: int, run_rules: RunRules, set_rules: SetRules, jokers: int) -> int:
    """The most ``kind.slots`` melds of ``kind`` shed from ``left`` with at most ``jokers`` jokers (-1: none):
    ``_joined(...)[jokers]``, read straight off the tables when the kind has one slot. Runs alone that may
    share a suit (``bounded``) are first bounded from below and above (:func:`_bound_steps`): where the
    bounds meet, no suit's table of several runs is made (on the corpus of ``benchmarks/contracts.py``, a
    search of its candidates for a suit of many naturals and jokers)."""
    if kind.slots != 1:
        if kind.bounded:
            high = _joined(kind, left, guard, run_rules, set_rules, _UPPER)[jokers]
            if high < 0 or _joined(kind, left, guard, run_rules, set_rules, _LOWER)[jokers] == high:
                return high
        return _joined(kind, left, guard, run_rules, set_rules, _EXACT)[jokers]
    top = -1
    for family in kind.families:
        steps = _family_steps(kind, family, left, guard, run_rules, set_rules)
        if steps:
            for j, value in steps[0]:
                if j > jokers:
                    break
                if value > top:
                    top = value
    return top


# What :func:`_joined` reads of a family :func:`_bound_steps` bounds: its table, or a bound from below or above.
_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2


def _joined(
    kind: TableKind, left: int, guard: int, run_rules: RunRules, set_rules: SetRules, mode: int = _EXACT
) -> list[int]:
    """The most ``kind.slots`` melds of ``kind`` shed from ``left``, by jokers allowed (0 up to all the hand
    holds), met before or made now; with ``mode`` :data:`_LOWER` or :data:`_UPPER`, a bound from below or
    above of each, from the bounds of :func:`_bound_steps` for the families that have them."""
    key = left & kind.fields
    memo = kind.joined if mode == _EXACT else kind.lows if mode == _LOWER else kind.highs
    row = memo.get(key)
    if row is None:
        row = _join(kind, left, guard, run_rules, set_rules, kind.jokers, mode)
        memo[key] = row
    return row


def _join(
    kind: TableKind, left: int, guard: int, run_rules: RunRules, set_rules: SetRules, jokers: int, mode: int
) -> list[int]:
    """:func:`_joined`, made now, by jokers allowed from 0 up to ``jokers``."""
    wanted = kind.slots
    if wanted == 1:
        best = [-1] * (jokers + 1)
        for family in kind.families:
            steps = _family_steps(kind, family, left, guard, run_rules, set_rules)
            if steps:
                for j, value in steps[0]:
                    if j > jokers:
                        break
                    for k in range(j, jokers + 1):
                        if value > best[k]:
                            best[k] = value
        return best
    if wanted == 2:
        return _join_two(kind, left, guard, run_rules, set_rules, jokers, mode)
    total = [[0] * (jokers + 1)] + [[-1] * (jokers + 1) for _ in range(wanted)]
    for family in kind.families:
        if mode == _EXACT or family.single is None:
            steps = _family_steps(kind, family, left, guard, run_rules, set_rules)
        else:
            steps = _bound_steps(kind, family, left, run_rules)[mode - 1]
        for had in range(wanted - 1, -1, -1):
            row = total[had]
            for more in range(1, min(len(steps), wanted - had) + 1):
                into = total[had + more]
                for j, value in steps[more - 1]:
                    if j > jokers:
                        break
                    for k in range(jokers + 1 - j):
                        had_value = row[k]  # (read once: compiled, each read of a list item unboxes it)
                        if had_value >= 0 and had_value + value > into[k + j]:
                            into[k + j] = had_value + value
    return total[wanted]


def _join_two(
    kind: TableKind, left: int, guard: int, run_rules: RunRules, set_rules: SetRules, jokers: int, mode: int
) -> list[int]:
    """:func:`_join` of two melds, without the knapsack: two melds are two of one family (its own table's
    second row) or one each of two families. For the latter, the most one meld of any family sheds with at
    most ``k`` jokers is kept (``top[k]``, and its family) with the most of any other family
    (``second[k]``): the best two of different families with ``a`` and ``b`` jokers are the tops, or when
    one family holds both, its top with the other's second."""
    best = [-1] * (jokers + 1)
    top = [-1] * (jokers + 1)
    second = [-1] * (jokers + 1)
    owner = [-1] * (jokers + 1)
    index = 0
    for family in kind.families:
        index += 1
        if mode == _EXACT or family.single is None:
            steps = _family_steps(kind, family, left, guard, run_rules, set_rules)
        else:
            steps = _bound_steps(kind, family, left, run_rules)[mode - 1]
        if not steps:
            continue
        row = steps[0]
        value = -1
        at = 0
        for k in range(jokers + 1):
            while at < len(row) and row[at][0] <= k:
                value = row[at][1]
                at += 1
            if value > top[k]:
                second[k] = top[k]
                top[k] = value
                owner[k] = index
            elif value > second[k]:
                second[k] = value
        if len(steps) > 1:
            for j, value in steps[1]:
                if j > jokers:
                    break
                for k in range(j, jokers + 1):
                    if value > best[k]:
                        best[k] = value
    for a in range(jokers + 1):
        first = top[a]
        if first < 0:
            continue
        for b in range(a, jokers + 1 - a):
            other = top[b]
            if other < 0:
                continue
            if owner[a] != owner[b]:
                pair = first + other
            else:
                pair = -1
                if second[b] >= 0:
                    pair = first + second[b]
                if second[a] >= 0 and second[a] + other > pair:
                    pair = second[a] + other
                if pair < 0:
                    continue
            if pair > best[a + b]:
                best[a + b] = pair
    for k in range(1, jokers + 1):  # (at most k jokers)
        if best[k - 1] > best[k]:
            best[k] = best[k - 1]
    return best


def _family_steps(
    kind: TableKind, family: TableFamily, left: int, guard: int, run_rules: RunRules, set_rules: SetRules
) -> Steps:
    """The table of ``family`` (of ``kind``) on ``left``, met before or made now."""
    key = left & family.fields
    steps = family.tables.get(key)
    if steps is None:
        jokers, most = kind.jokers, min(family.most, kind.slots)
        book = family.book
        if book is not None:
            steps = (book.steps(ranks_left(left, family.suit, run_rules.width)),)
        elif family.rank:
            have = naturals_left(left, family.rank, run_rules.width)
            steps = set_rules.steps(have, jokers, run_rules.weights[family.rank - 1], most)
        elif family.shift >= 0:
            span = family.fields >> family.shift
            block = left >> family.shift & span
            # (each run holds at least min_naturals of the suit's naturals left: with fewer than twice as many,
            # the suit holds one run at most, and its table is the one run's)
            width = run_rules.width
            naturals = 0
            mask = (1 << (width - 1)) - 1
            rest = block
            for _ in range(13):
                naturals += rest & mask
                rest >>= width
            single = family.single
            if single is not None and naturals < 2 * run_rules.min_naturals:
                row = single.steps(ranks_left(left, family.suit, width))
                steps = (row,) if row else ()
            else:
                if family.source is not None and not family.members:
                    family.members = run_members(
                        family.present, family.suit, jokers, run_rules.weights, width, run_rules.lengths,
                        family.source, True,
                    )  # fmt: skip
                    if kind.joins:
                        family.joins = RunJoins(run_rules, join_keys(family.members, family.suit, 0, width))
                if run_rules.min_naturals > 0 and naturals // run_rules.min_naturals < most:
                    most = naturals // run_rules.min_naturals
                steps = candidate_steps(family.members, block, guard & span, most, jokers, family.joins)
        else:
            steps = candidate_steps(family.members, left, guard, most, jokers)
        family.tables[key] = steps
    return steps


def _bound_steps(kind: TableKind, family: TableFamily, left: int, run_rules: RunRules) -> tuple[Steps, Steps]:
    """Tables of ``family`` (a suit's runs, with ``single``) on ``left`` that bound its own from below and
    above, without the search of :func:`candidate_steps`: below, its one run alone (the table of one run
    read off its ranks); above, for ``m`` runs, ``m`` best single runs whose jokers add up, and at most all
    the suit's naturals left and the jokers. (Its own table instead, when already made.)"""
    key = left & family.fields
    pair = family.bounds.get(key)
    if pair is None:
        exact = family.tables.get(key)
        book = family.single
        assert book is not None
        width = run_rules.width
        if exact is not None:
            pair = (exact, exact)
        else:
            row = book.steps(ranks_left(left, family.suit, width))
            if not row:
                pair = ((), ())
            else:
                weights = run_rules.weights
                naturals = 0
                mask = (1 << (width - 1)) - 1
                block = left >> family.shift
                for rank in range(13):
                    naturals += (block & mask) * weights[family.suit * 13 + rank]
                    block >>= width
                most = min(family.most, kind.slots)
                pair = ((row,), _upper_steps(row, most, kind.jokers, naturals, weights[JOKER_FACE]))
        family.bounds[key] = pair
    return pair


def _upper_steps(row: tuple[tuple[int, int], ...], most: int, jokers: int, naturals: int, joker_weight: int) -> Steps:
    """Up to ``most`` rows bounding ``m`` runs of a suit whose one run's table is ``row``: the best ``m``
    single runs whose jokers add up, and no more than ``naturals`` and the jokers' weight."""
    single = [-1] * (jokers + 1)
    for j, value in row:
        if j > jokers:
            break
        for k in range(j, jokers + 1):
            if value > single[k]:
                single[k] = value
    rows = [row]
    fewer = single
    for _ in range(1, most):
        more = [-1] * (jokers + 1)
        for a in range(jokers + 1):
            if fewer[a] < 0:
                continue
            for b in range(jokers + 1 - a):
                if single[b] >= 0 and fewer[a] + single[b] > more[a + b]:
                    more[a + b] = fewer[a] + single[b]
        for k in range(jokers + 1):
            if more[k] > naturals + k * joker_weight:
                more[k] = naturals + k * joker_weight
        rows.append(tuple(_growth(more)))
        fewer = more
    return tuple(rows)
