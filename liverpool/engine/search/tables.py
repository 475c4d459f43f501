"""The tables of one family of melds (the runs of a suit, or the sets of a rank) for
:mod:`.search.value`: the most ``m`` melds of the family shed with at most ``j`` jokers, from what the
family has left.

A table is :data:`Steps`, kept only where it grows: ``steps[m - 1]`` lists ``(j, most)``. One run of a
suit is read off its ranks (:func:`run_steps`), sets off the counts of their rank's naturals
(:func:`set_steps`), both cached across hands (:class:`RunBook`, :meth:`SetRules.steps`); several runs of
a suit come from the family's candidates (:func:`candidate_steps`), by a depth-first search over them.

With 4, 5 and 6 of a suit and a joker, one run of four sheds 35 with the joker and cannot be laid without:

>>> run_steps(0b1110000, 1, (5,) * 13, 20, 1 << 4, 3, 0, True, True)
((1, 35),)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, cast

from liverpool.engine._speed.bits import bit_count
from liverpool.engine._speed.cache import kept, memo
from liverpool.engine.cards import JOKER_FACE
from liverpool.engine.melds import could_be_one_run
from liverpool.engine.search.candidates import ACE_HIGH, RUN_LENGTHS, RUN_SHAPE, run_shape_list, set_shapes

Member = tuple[int, int, int, int, int]
"""A candidate as this search uses it: ``(score, natural use, jokers, tag, block)``."""
Steps = tuple[tuple[tuple[int, int], ...], ...]
"""A family's table: ``steps[m - 1]`` lists ``(j, most)`` where the most ``m`` melds of the family shed
with at most ``j`` jokers grows; ``m`` runs from 1 to as many as the family can hold."""


class RunRules:
    """What :func:`run_steps` needs of the ruleset and the hand, besides the ranks present. (A plain class:
    a compiled frozen dataclass is built by a Python ``__init__`` setting each field through
    ``object.__setattr__``, once for every hand.)"""

    def __init__(
        self, width: int, weights: tuple[int, ...], lengths: int, min_naturals: int, spacing: int, aces_low: bool,
        aces_high: bool,
    ) -> None:  # fmt: skip
        self.width = width
        self.weights = weights
        self.lengths = lengths
        self.min_naturals = min_naturals
        self.spacing = spacing
        self.aces_low = aces_low
        self.aces_high = aces_high

    def book(self, suit: int, jokers: int) -> RunBook:
        """The tables of one run of ``suit`` with at most ``jokers`` jokers under these rules, by the ranks
        present, as met so far in any hand. A book tables at least :data:`SHARED_JOKERS` jokers: a table's
        pair for ``j`` jokers does not depend on how many more the hand holds, and every reader skips the
        pairs of more jokers than it holds, so hands with fewer jokers share one book (and its hits)."""
        return _run_book(
            self.weights[suit * 13 : suit * 13 + 13], max(jokers, SHARED_JOKERS), self.weights[JOKER_FACE],
            self.lengths, self.min_naturals, self.spacing, self.aces_low, self.aces_high,
        )  # fmt: skip


_RANKS: Final = (1 << 14) - 2  # (a join key's ranks, bits 1..13: see join_keys)


class RunJoins:
    """Runs of one suit that could be laid as one run may not be laid apart (``joinable_runs =
    could_join``): the test of two runs, under the run rules ``rules``, read off their keys
    (:func:`join_keys`), and the keys of a list of members, ``keys``, in its order."""

    def __init__(self, rules: RunRules, keys: list[int]) -> None:
        self.aces_low = rules.aces_low
        self.aces_high = rules.aces_high
        self.spacing = rules.spacing
        self.min_naturals = rules.min_naturals
        self.keys = keys

    def any_joins(self, key: int, chosen: tuple[int, ...]) -> bool:
        """Whether the run of ``key`` and one of the runs of ``chosen`` could be laid as one run
        (:func:`.melds.runs_could_join`): one suit, no rank twice, and a place for all their cards."""
        for other in chosen:
            if (key ^ other) >> 24 or key & other & _RANKS:
                continue
            jokers = (key >> 14 & 1023) + (other >> 14 & 1023)
            if could_be_one_run(
                (key | other) & _RANKS, jokers, self.aces_low, self.aces_high, self.spacing, self.min_naturals
            ):
                return True
        return False


def join_keys(members: list[Member], suit: int, shift: int, width: int) -> list[int]:
    """What :meth:`RunJoins.any_joins` reads of each run of ``members`` (runs of ``suit``, their naturals in
    fields of ``width`` bits from bit ``shift``): the ranks of its naturals (bits 1..13, the ace at 1), its
    jokers (from bit 14) and its suit (from bit 24), in one int."""
    mask = (1 << (width - 1)) - 1
    keys = []
    for member in cast(list[tuple[int, ...]], members):
        use = member[1] >> shift
        ranks = 0
        for place in range(13):
            if use & mask:
                ranks |= 2 << place
            use >>= width
        keys.append(ranks | member[2] << 14 | suit << 24)
    return keys


SHARED_JOKERS: Final = 4
"""The fewest jokers a :class:`RunBook` tables (see :meth:`RunRules.book`)."""


class RunBook:
    """The tables of :func:`run_steps` for one suit's weights, jokers and rules, by the ranks present: a cache
    across hands keyed by a small int, cheaper to ask than the ``lru_cache`` of :func:`run_steps` (its key
    holds nine values, the weights a tuple)."""

    __slots__ = ("args", "tables")

    def __init__(self, args: tuple[tuple[int, ...], int, int, int, int, int, bool, bool]) -> None:
        self.args = args
        self.tables: dict[int, tuple[tuple[int, int], ...]] = {}

    def steps(self, present: int) -> tuple[tuple[int, int], ...]:
        """:func:`run_steps` of the ranks ``present`` (bits 1..14, the ace in both 1 and 14)."""
        steps = self.tables.get(present)
        if steps is None:
            if len(self.tables) >= _BOOK_SIZE:
                self.tables.clear()
            rank_weights, jokers, joker_weight, lengths, min_naturals, spacing, aces_low, aces_high = self.args
            steps = _run_table(
                present, jokers, rank_weights, joker_weight, lengths, min_naturals, spacing, aces_low, aces_high
            )
            self.tables[present] = steps
        return steps


_BOOK_SIZE: Final = 1 << 15


@memo(maxsize=256)
def _run_book(
    rank_weights: tuple[int, ...], jokers: int, joker_weight: int, lengths: int, min_naturals: int, spacing: int,
    aces_low: bool, aces_high: bool,
) -> RunBook:  # fmt: skip
    return RunBook((rank_weights, jokers, joker_weight, lengths, min_naturals, spacing, aces_low, aces_high))


@dataclass(frozen=True, slots=True, eq=False)
class SetRules:
    """What :func:`set_steps` needs of the ruleset, besides a rank's naturals and weight. Made by
    :func:`set_rules`, one instance for each value, so that the caches keyed by it hash and compare it by
    identity (the hash of a dataclass is a Python function, run at every look-up)."""

    lengths: int
    min_naturals: int
    longest: int
    distinct_suits: bool
    joker_weight: int
    tables: dict[int, Steps] = field(default_factory=dict, repr=False)  # (see :meth:`steps`)
    counts: dict[int, int] = field(default_factory=dict, repr=False)  # (see :meth:`count`: an int for each)
    listed: dict[int, tuple[int, ...]] = field(default_factory=dict, repr=False)  # (see :meth:`shapes`)

    def steps(self, have: tuple[int, int, int, int], jokers: int, weight: int, most: int) -> Steps:
        """:func:`set_steps` under these rules, cached across hands by one int made of the arguments (the
        naturals' count alone when suits may repeat in a set): an int key is no object the garbage
        collector tracks, where an ``lru_cache`` keeps a tuple of them (and ``have``) for each."""
        if self.distinct_suits:
            if have[0] | have[1] | have[2] | have[3] >= 16:  # (not builtin max: a generic call, compiled)
                return set_steps(have, jokers, weight, self, most)
            naturals = ((have[0] << 4 | have[1]) << 4 | have[2]) << 4 | have[3]
        else:
            naturals = have[0] + have[1] + have[2] + have[3]
        if naturals >= 1 << 16 or jokers >= 1 << 8 or not 0 <= weight < 1 << 16 or most >= 1 << 4:
            return set_steps(have, jokers, weight, self, most)
        key = ((naturals << 8 | jokers) << 16 | weight) << 4 | most
        steps = self.tables.get(key)
        if steps is None:
            if len(self.tables) >= _SET_TABLES:
                self.tables.clear()
            steps = self.tables[key] = set_steps(have, jokers, weight, self, most)
        return steps

    def shapes(self, have: tuple[int, ...], jokers: int, width: int) -> tuple[int, ...]:
        """:func:`.set_shapes` under these rules (:data:`.SET_SHAPE` fields a set), kept by one int made of the
        arguments (compiled, a call through the ``lru_cache`` of :func:`.set_shapes` hashes a tuple of seven)."""
        largest = jokers | width  # (the bits of every count: not builtin max, a generic call)
        for held in have:
            largest |= held
        if len(have) != 4 or not 0 <= largest < 1 << 8:
            return set_shapes(have, jokers, width, self.lengths, self.min_naturals, self.longest, self.distinct_suits)[
                0
            ]
        key = (((((have[0] << 8 | have[1]) << 8 | have[2]) << 8 | have[3]) << 8 | jokers) << 8) | width
        shapes = self.listed.get(key)
        if shapes is None:
            if len(self.listed) >= _SET_TABLES:
                self.listed.clear()
            shapes = set_shapes(
                have, jokers, width, self.lengths, self.min_naturals, self.longest, self.distinct_suits
            )[0]
            self.listed[key] = shapes
        return shapes

    def count(self, have: tuple[int, ...], jokers: int) -> int:
        """How many sets :meth:`shapes` lists, counted without listing them: the ways to take ``n`` naturals
        from ``have[suit]`` (at most one a suit when suits must differ), times the joker counts that make a
        length these rules take, for each ``n`` a set may hold.

        >>> from liverpool.engine.search.candidates import SET_SHAPE
        >>> rules = set_rules(1 << 3, 2, 99, False, 20)
        >>> rules.count((1, 0, 2, 0), 1), len(rules.shapes((1, 0, 2, 0), 1, 3)) // SET_SHAPE
        (3, 3)
        """
        largest = 0  # (the bits of every count: below 1 << 8 when each is; not builtin max, a generic call)
        for held in have:
            largest |= held
        if jokers < 1 << 8 and 0 <= largest < 1 << 8:
            key = (((have[0] << 8 | have[1]) << 8 | have[2]) << 8 | have[3]) << 8 | jokers
            total = self.counts.get(key)
            if total is None:
                if len(self.counts) >= _SET_TABLES:
                    self.counts.clear()
                total = self.counts[key] = self._count(have, jokers)
            return total
        return self._count(have, jokers)

    def _count(self, have: tuple[int, ...], jokers: int) -> int:
        """:meth:`count`, not cached."""
        ways = [1]
        for held in have:
            cap = min(held, 1) if self.distinct_suits else held
            grown = [0] * (len(ways) + cap)
            for n, w in enumerate(ways):
                for more in range(cap + 1):
                    grown[n + more] += w
            ways = grown
        total = 0
        for laid in range(self.min_naturals, len(ways)):
            for joker_count in range(min(jokers, self.longest - laid) + 1):
                if self.lengths >> (laid + joker_count) & 1:
                    total += ways[laid]
        return total


@memo(maxsize=256)
def set_rules(lengths: int, min_naturals: int, longest: int, distinct_suits: bool, joker_weight: int) -> SetRules:
    """The :class:`SetRules` of these values (one instance each)."""
    return SetRules(lengths, min_naturals, longest, distinct_suits, joker_weight)


@memo(maxsize=8192)
def run_steps(
    present: int, jokers: int, rank_weights: tuple[int, ...], joker_weight: int, lengths: int, min_naturals: int,
    spacing: int, aces_low: bool, aces_high: bool,
) -> tuple[tuple[int, int], ...]:  # fmt: skip
    """The table of one run whose naturals are ranks of ``present`` (bits 1..14, the ace in both 1 and 14):
    ``(j, most)`` where the most it sheds with at most ``j`` of ``jokers`` jokers grows. The runs are those
    of :func:`.list_run_shapes`; without joker spacing, the best run of a place and joker count is read off
    directly: its jokers stand for the holes and then for the lightest naturals."""
    return _run_table(present, jokers, rank_weights, joker_weight, lengths, min_naturals, spacing, aces_low, aces_high)


def _run_table(
    present: int, jokers: int, rank_weights: tuple[int, ...], joker_weight: int, lengths: int, min_naturals: int,
    spacing: int, aces_low: bool, aces_high: bool,
) -> tuple[tuple[int, int], ...]:  # fmt: skip
    """:func:`run_steps`, not cached."""
    lengths &= RUN_LENGTHS
    best = [-1] * (jokers + 1)
    if spacing > 1:
        shapes = run_shape_list(present, jokers, 2, rank_weights, lengths, min_naturals, spacing, aces_low, aces_high)
        for i in range(0, len(shapes), RUN_SHAPE):
            count = shapes[i + 3]
            best[count] = max(best[count], shapes[i] + count * joker_weight)
    else:
        first, last = (1 if aces_low else 2), (ACE_HIGH if aces_high else 13)
        usable = present & ((1 << (last + 1)) - (1 << first))
        if bit_count(usable & ~(1 << ACE_HIGH) | (usable >> 13 & 2)) < min_naturals:
            return ()
        lowest = (usable & -usable).bit_length() - 1
        if jokers <= 4:
            lowest_length = lengths & -lengths
            grows = (lengths | (lowest_length - 1)) & _UP_TO_13 == _UP_TO_13
            _lay_runs(
                best, usable, jokers, rank_weights, joker_weight, lengths, min_naturals, first, last, lowest, grows
            )  # fmt: skip
            return _shared_growth(best)
        for low in range(max(first, lowest - jokers), last + 1):
            if bit_count(usable >> low) < min_naturals:
                break
            forced = natural_score = 0
            held: list[int] = []  # the weights of the naturals so far, lightest first
            for high in range(low, min(last, low + 12) + 1):
                if usable >> high & 1:
                    weight = rank_weights[high - 1 if high != ACE_HIGH else 0]  # (not % 13: a call, compiled)
                    natural_score += weight
                    place = len(held)
                    held.append(weight)
                    while place and held[place - 1] > weight:
                        held[place] = held[place - 1]
                        place -= 1
                    held[place] = weight
                else:
                    forced += 1
                    if forced > jokers:
                        break
                spare = len(held) - min_naturals
                if jokers - forced < spare:
                    spare = jokers - forced
                if spare < 0 or not lengths >> (high - low + 1) & 1:
                    continue
                score = natural_score + forced * joker_weight
                if score > best[forced]:
                    best[forced] = score
                for extra in range(spare):
                    score += joker_weight - held[extra]
                    if score > best[forced + extra + 1]:
                        best[forced + extra + 1] = score
    return _shared_growth(best)


_UP_TO_13: Final = (1 << 14) - 1  # (bits 0 to 13: every length a run may have, and those below its shortest)


def _lay_runs(
    best: list[int], usable: int, jokers: int, rank_weights: tuple[int, ...], joker_weight: int, lengths: int,
    min_naturals: int, first: int, last: int, lowest: int, grows: bool,
) -> None:  # fmt: skip
    """The loop of :func:`_run_table` without joker spacing for at most four jokers (every table of a
    :class:`RunBook` of a hand with four or fewer), with the four lightest naturals of a run kept in
    locals rather than a list sorted at each rank (in the compiled build, each list operation boxes). Of the
    runs from one low with as many holes, the longest that may be laid sheds the most with each count of
    jokers (its naturals hold the shorter ones', and no weight is negative), so only it is laid
    (:func:`_lay`), once the next hole or the end closes the group; each of them when a weight is negative.
    Likewise, when a run may be one longer (``grows``: every length from the shortest to 13 may be laid), no
    run needs to start just above a natural: the run from that natural sheds as much with as many jokers
    and more naturals, and is laid from its own low (or from a lower one, by the same reasoning). The one
    run that cannot be one longer, from 2 up to the ace, is the run from the ace up to the king: the same
    cards, with the ace at the other end."""
    eager = False
    for weight in rank_weights:
        if weight < 0:
            eager = True
    skips = grows and not eager
    for low in range(max(first, lowest - jokers), last + 1):
        if bit_count(usable >> low) < min_naturals:
            break
        if skips and low > first and usable >> (low - 1) & 1:
            continue
        forced = natural_score = naturals = 0
        # the four lightest naturals so far, lightest first (read only when there are as many)
        l1 = l2 = l3 = l4 = 0
        # the longest run so far with ``forced`` holes that may be laid: its points, naturals, lightest four
        laid = False
        laid_score = laid_naturals = s1 = s2 = s3 = s4 = 0
        for high in range(low, min(last, low + 12) + 1):
            if usable >> high & 1:
                weight = rank_weights[high - 1 if high != ACE_HIGH else 0]  # (not % 13: a call, compiled)
                natural_score += weight
                naturals += 1
                if naturals == 1 or weight < l1:
                    l1, l2, l3, l4 = weight, l1, l2, l3
                elif naturals == 2 or weight < l2:
                    l2, l3, l4 = weight, l2, l3
                elif naturals == 3 or weight < l3:
                    l3, l4 = weight, l3
                elif naturals == 4 or weight < l4:
                    l4 = weight
            else:
                if laid:
                    spare = min(jokers - forced, laid_naturals - min_naturals)
                    _lay(best, joker_weight, forced, laid_score, spare, s1, s2, s3, s4)
                    laid = False
                forced += 1
                if forced > jokers:
                    break
            if naturals < min_naturals or not lengths >> (high - low + 1) & 1:
                continue
            if eager:
                _lay(best, joker_weight, forced, natural_score, min(jokers - forced, naturals - min_naturals), l1, l2,
                     l3, l4)  # fmt: skip
                continue
            laid = True
            laid_score, laid_naturals, s1, s2, s3, s4 = natural_score, naturals, l1, l2, l3, l4
        if laid:
            _lay(best, joker_weight, forced, laid_score, min(jokers - forced, laid_naturals - min_naturals), s1, s2, s3,
                 s4)  # fmt: skip


def _lay(
    best: list[int], joker_weight: int, forced: int, score: int, spare: int, l1: int, l2: int, l3: int, l4: int
) -> None:
    """Raises ``best[j]`` to what a run of naturals weighing ``score`` sheds with ``j`` jokers: ``forced`` of
    them in its holes, and up to ``spare`` (at most four) more for its lightest naturals ``l1`` to ``l4``."""
    score += forced * joker_weight
    if score > best[forced]:
        best[forced] = score
    for extra in range(spare):
        score += joker_weight - (l1 if extra == 0 else l2 if extra == 1 else l3 if extra == 2 else l4)
        if score > best[forced + extra + 1]:
            best[forced + extra + 1] = score


def _shared_growth(best: list[int]) -> tuple[tuple[int, int], ...]:
    """``_shared(_growth(best))``, without the pairs made in between."""
    out: list[tuple[int, ...]] = []
    top = -1
    for j in range(len(best)):
        value = best[j]
        if value > top:
            top = value
            out.append(_pair(j, value))
    return cast(tuple[tuple[int, int], ...], tuple(out))


def _growth(best: Sequence[int]) -> list[tuple[int, int]]:
    """``(j, best[j])`` where ``best`` rises above everything before it (and above -1, "none")."""
    steps = []
    top = -1
    for j, value in enumerate(best):
        if value > top:
            top = value
            steps.append((j, value))
    return steps


_PAIRS: Final[dict[int, tuple[int, ...]]] = kept({})


def _shared(row: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """``row`` of a table kept across hands, its ``(j, most)`` pairs shared with every other such table
    (one tuple for each pair met): the tables cached keep fewer objects that the garbage collector tracks,
    and so it runs less often. (The pairs are typed loosely here: a ``tuple[int, int]`` variable would have
    the compiled build take the shared tuple apart and build a new one to store it.)"""
    out: list[tuple[int, ...]] = []
    for j, value in row:
        out.append(_pair(j, value))
    return cast(tuple[tuple[int, int], ...], tuple(out))


def _pair(j: int, value: int) -> tuple[int, ...]:
    """The pair ``(j, value)``, one tuple for each pair met (see :func:`_shared`)."""
    if not (0 <= j < 1 << 8 and value >= 0):
        return (j, value)
    key = value << 8 | j
    pair = _PAIRS.get(key)
    if pair is None:
        pair = (j, value)
        if len(_PAIRS) < 1 << 16:
            _PAIRS[key] = pair
    return pair


_SET_TABLES: Final = 1 << 13


def set_steps(
    have: tuple[int, ...], jokers: int, weight: int, rules: SetRules, most: int
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The table of up to ``most`` sets of one rank of ``weight`` from ``have[suit]`` naturals (the suits
    of a set are alike, so ``have`` may come sorted) and at most ``jokers`` jokers, straight from counts:
    of the rank's naturals when suits may repeat in a set, of its naturals by suit when they must differ.
    Not cached (:meth:`SetRules.steps` is)."""
    if not rules.distinct_suits:
        return _pooled_set_steps(sum(have), jokers, weight, rules, most)
    return _distinct_set_steps(have, jokers, weight, rules, most)


def _distinct_set_steps(
    have: tuple[int, ...], jokers: int, weight: int, rules: SetRules, most: int
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """:func:`set_steps` when the naturals of a set must be of distinct suits, from counts, without listing
    the sets. A set is ``n`` naturals and ``k`` jokers (``n`` at least the naturals a set needs and at most
    the suits held, ``n + k`` a length these rules take and at most the longest set) and sheds ``n`` times
    ``weight`` and ``k`` jokers; ``m`` such sets can be laid together exactly when no ``t`` of them ask more
    naturals than the suits hold for ``t`` sets of one natural each, ``min(have[suit], t)`` summed over the
    suits (Gale and Ryser's condition for a 0-1 matrix: the sets' naturals by suit, at most one a set and
    suit, at most ``have[suit]`` a suit; by max-flow min-cut, the ``t`` sets asking most are the ones to
    check). The sets are taken in order of naturals, most first, so each ``t`` prefix is those ``t``."""
    suits = 0
    for held in have:
        if held > 0:
            suits += 1
    shapes: list[tuple[int, int]] = []  # (n, k), most naturals first
    for n in range(suits, max(rules.min_naturals, 0) - 1, -1):
        for k in range(min(jokers, rules.longest - n) + 1):
            if rules.lengths >> (n + k) & 1:
                shapes.append((n, k))
    if not shapes:
        return ()
    # room[t]: the naturals t sets may hold between them
    room = [0] * (most + 1)
    for t in range(1, most + 1):
        for held in have:
            room[t] += min(held, t)
    exact = [[-1] * (jokers + 1) for _ in range(most + 1)]
    _lay_sets(shapes, 0, 0, 0, 0, room, exact, most, jokers, weight, rules.joker_weight)
    out = []
    for m in range(1, most + 1):
        row = _growth(exact[m])
        if not row:
            break
        out.append(_shared(row))
    return tuple(out)


def _lay_sets(
    shapes: list[tuple[int, int]], first: int, count: int, naturals: int, used: int, room: list[int],
    exact: list[list[int]], most: int, jokers: int, weight: int, joker_weight: int,
) -> None:  # fmt: skip
    """Adds to the ``count`` sets so far (``naturals`` and ``used`` jokers between them) one more of
    ``shapes[first:]``, for each that fits, and records each choice in ``exact[sets][jokers used]``
    (see :func:`_distinct_set_steps`)."""
    for i in range(first, len(shapes)):
        n, k = shapes[i]
        if used + k > jokers or naturals + n > room[count + 1]:
            continue
        value = (naturals + n) * weight + (used + k) * joker_weight
        row = exact[count + 1]
        if value > row[used + k]:
            row[used + k] = value
        if count + 1 < most:
            _lay_sets(shapes, i, count + 1, naturals + n, used + k, room, exact, most, jokers, weight, joker_weight)


def _pooled_set_steps(
    naturals: int, jokers: int, weight: int, rules: SetRules, most: int
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """:func:`set_steps` when a set may hold any naturals of its rank: one set holds ``n`` naturals and
    ``k`` jokers when ``n`` is at least the naturals a set needs, ``n + k`` is a length the contract takes
    and at most the longest set, so ``m`` sets are any ``m`` such pairs whose naturals add up to at most
    ``naturals``. ``reach[k]`` holds bit ``n`` when ``n`` naturals and ``k`` jokers can make the sets."""
    single = [0] * (jokers + 1)
    for k in range(jokers + 1):
        for n in range(rules.min_naturals, naturals + 1):
            if n + k <= rules.longest and rules.lengths >> (n + k) & 1:
                single[k] |= 1 << n
    within = (1 << (naturals + 1)) - 1
    reach = [1] + [0] * jokers
    out = []
    for _ in range(most):
        grown = [0] * (jokers + 1)
        for had, mask in enumerate(reach):
            if not mask:
                continue
            for k in range(jokers + 1 - had):
                more = single[k]
                n = 0
                while more:
                    if more & 1:
                        grown[had + k] |= mask << n
                    more >>= 1
                    n += 1
        reach = [mask & within for mask in grown]
        row = []
        top = -1
        for k, mask in enumerate(reach):
            if mask and (mask.bit_length() - 1) * weight + k * rules.joker_weight > top:
                top = (mask.bit_length() - 1) * weight + k * rules.joker_weight
                row.append((k, top))
        if not row:
            break
        out.append(_shared(row))
    return tuple(out)


def candidate_steps(
    members: list[Member], left: int, guard: int, most: int, jokers: int, joins: RunJoins | None = None
) -> Steps:
    """The table of a family of ``members`` (best first) on ``left``, up to ``most`` melds (none when it has
    no meld at all). The table of fewer melds bounds each branch of the search for more. ``joins``: runs
    that could be laid as one may not be laid apart, and these are the members' keys (:func:`join_keys`)."""
    # The members pass as the tuples they are, typed loosely: a loop variable of type ``Member`` would have
    # the compiled build take each apart and build it anew (a new tuple a member) to store it again.
    loose: list[list[tuple[int, ...]]] = [[] for _ in range(jokers + 1)]
    keyed: list[list[int]] = [[] for _ in range(jokers + 1)] if joins is not None else []
    fits = False
    for index, member in enumerate(cast(list[tuple[int, ...]], members)):
        count = member[2]
        if count <= jokers and (left - member[1]) & guard == guard:
            loose[count].append(member)
            if joins is not None:
                keyed[count].append(joins.keys[index])
            fits = True
    if not fits:
        return ()
    steps: list[tuple[tuple[int, int], ...]] = []
    fewer = [[0] * (jokers + 1)]
    for melds in range(1, most + 1):
        exact = [-1] * (jokers + 1)
        _fill(loose, fewer, melds, left, 0, 0, 0, guard, exact, 0, 0, keyed, joins, ())
        row = _growth(exact)
        if not row:
            break
        steps.append(tuple(row))
        # the most with j jokers or fewer (a loop: compiled, list(accumulate(exact, max)) calls max an item)
        running = []
        top = -1
        for value in exact:
            if value > top:
                top = value
            running.append(top)
        fewer.append(running)
    return tuple(steps)  # (tuples, which the compiled build walks faster than a Sequence)


def _fill(
    by_jokers: list[list[tuple[int, ...]]], fewer: list[list[int]], wanted: int, left: int, used: int, score: int,
    blocked: int, guard: int, exact: list[int], first: int, start: int, keyed: list[list[int]],
    joins: RunJoins | None, chosen: tuple[int, ...],
) -> None:  # fmt: skip
    """``exact[j]``: the most ``wanted`` more melds shed with ``j`` jokers in all, ``used`` of them already
    laid, the melds (:data:`Member` tuples, typed loosely as in :func:`candidate_steps`) taken from
    ``by_jokers[k]`` (those with ``k`` jokers, best first). The melds are taken in
    that order (no fewer jokers than the last, and then no earlier in its list: ``first`` and ``start``), so
    that each choice of melds is met once. A meld is tried only while it could beat what as many jokers or
    fewer already shed, the melds after it bounded by ``fewer`` (the tables of fewer melds on the whole
    family); the last is the best that fits of each joker count. With ``joins``, ``keyed`` holds the keys of
    ``by_jokers``' runs and ``chosen`` those of the runs laid: a run that could be laid as one with one of
    them is passed over."""
    if wanted == 1:
        top = exact[0]
        for j in range(1, used + 1):
            if exact[j] > top:
                top = exact[j]
        for count in range(len(exact) - used):
            if exact[used + count] > top:
                top = exact[used + count]
            if count < first:
                continue
            members = by_jokers[count]
            for i in range(start if count == first else 0, len(members)):
                member = members[i]
                m_score = member[0]
                if score + m_score <= top:
                    break
                if not member[3] & blocked and (left - member[1]) & guard == guard:
                    if joins is not None and chosen and joins.any_joins(keyed[count][i], chosen):
                        continue
                    exact[used + count] = top = score + m_score
                    break
        return
    rest = fewer[wanted - 1]
    for count in range(first, len(exact) - used):
        members = by_jokers[count]
        least = (wanted - 1) * count
        for i in range(start if count == first else 0, len(members)):
            member = members[i]
            m_score = member[0]
            if not _may_improve(exact, used + count, score + m_score, rest, least, (wanted - 1) * m_score):
                break
            after = left - member[1]
            if not member[3] & blocked and after & guard == guard:
                laid = chosen
                if joins is not None:
                    key = keyed[count][i]
                    if chosen and joins.any_joins(key, chosen):
                        continue
                    laid = (*chosen, key)
                _fill(by_jokers, fewer, wanted - 1, after, used + count, score + m_score, blocked | member[4], guard,
                      exact, count, i, keyed, joins, laid)  # fmt: skip


def _may_improve(exact: list[int], used: int, score: int, rest: list[int], least: int, alike: int) -> bool:
    """Whether ``score`` with ``used`` jokers, and at most ``rest[k]`` more with ``k`` more jokers, could beat
    what ``exact`` holds with as many jokers or fewer. The melds still to come hold at least ``least`` more
    jokers (none fewer than the last), and at most ``alike`` more points when they hold just that many (then
    none scores above the last)."""
    top = exact[0]
    for j in range(1, used + 1):
        if exact[j] > top:
            top = exact[j]
    for more in range(len(exact) - used):
        if exact[used + more] > top:
            top = exact[used + more]
        if more < least or rest[more] < 0:
            continue
        if score + (min(rest[more], alike) if more == least else rest[more]) > top:
            return True
    return False
