"""A quick test that a hand cannot meet a contract, made before any candidate is listed.

Most questions a game asks (each play phase of a seat not yet down) have no answer, and listing the
hand's candidates costs more than seeing that. :func:`surely_unmet` relaxes the contract to what face
counts alone decide: a meld of ``L`` cards of one family (the runs of a suit, the sets of a rank) needs
at least so many jokers, whatever cards the other melds take, so a contract whose cheapest choice of
families needs more jokers than the hand holds cannot be met. It is a necessary test only: ``False``
says nothing, and the exact search still answers.

Each run of a suit needs at least as many jokers as the fewest holes of any ``L`` ranks in a row among
the suit's ranks (a longer run holds such a window, and a run's naturals are ranks the suit has), or of
the shortest longer window that holds ``run_min_naturals`` of them; a suit holds a run for each
``run_min_naturals`` of its cards at most. ``k`` sets of a rank need their naturals (at
most the rank's cards, and at most one a suit in each set when suits must differ) and jokers for the
rest: at least ``max(0, k*L - min(cards, k*suits))`` jokers. Both costs grow by as much or more with
each further meld of a family, so taking the cheapest next meld of any family, slot after slot, gives
the fewest jokers the relaxed contract needs. Under joker spacing a run of ``n`` cards holds at most
``ceil(n / spacing)`` jokers, so only windows with that many holes or fewer count. When the whole hand
must go in melds of one kind, each suit (runs) or rank (sets) with naturals needs a meld, and copies of
one card a meld each; a suit given one run needs jokers for every rank missing between its lowest and
highest, and one given several the jokers of each.

>>> from liverpool.engine.cards import parse_cards
>>> from liverpool.engine.rules.presets import find_preset
>>> rules = find_preset('liverpool')
>>> surely_unmet(parse_cards('7H 7S 4C 5C 9D 2S KD'), rules.contract(0), rules)
True
>>> surely_unmet(parse_cards('7H 7S 7D 4C 4D 9D JK'), rules.contract(0), rules)
False
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from liverpool.engine._speed.bits import BITS, bit_count
from liverpool.engine._speed.cache import ByIdentity, by_identity, kept
from liverpool.engine.cards import JOKER_FACE
from liverpool.engine.rules.parts import MeldKind, MeldRule
from liverpool.engine.rules.ruleset import Ruleset

_RUN: Final = MeldKind.RUN


def surely_unmet(hand: Sequence[int], contract: Sequence[MeldRule], rules: Ruleset, whole_hand: bool = False) -> bool:
    """Whether ``hand`` plainly cannot meet ``contract``: its melds would need more jokers than it holds
    (or more families than it has), counting for each meld only the cards of its own family; or the
    ``whole_hand`` must go in melds of one kind and some family needs more of them than there are."""
    shape = _shape_of(contract, rules)
    if shape.off:
        return False
    jokers = 0
    # The ranks of each suit (bits 1..13 of a 15-bit field a suit) and the suits of each rank (a 4-bit field
    # a rank) packed in one int each while counting: compiled, an in-place operation on a list item is a
    # generic one. (The hand is typed as ints: compiled, an operation on a Card, an int subclass, is generic.)
    suit_ranks = rank_suits = 0
    suit_cards = [0, 0, 0, 0]
    rank_cards = [0] * 13
    cards = tuple(hand)  # (the very tuple when given one: compiled, a tuple is walked natively, a Sequence not)
    for card in cards:
        face = card & 63
        if face == JOKER_FACE:
            jokers += 1
            continue
        suit = face // 13
        rank = face - suit * 13
        suit_ranks |= 2 << (rank + 15 * suit)
        rank_suits |= 1 << (4 * rank + suit)
        suit_cards[suit] = suit_cards[suit] + 1
        rank_cards[rank] = rank_cards[rank] + 1
    ranks = [suit_ranks & 0x7FFF, suit_ranks >> 15 & 0x7FFF, suit_ranks >> 30 & 0x7FFF, suit_ranks >> 45 & 0x7FFF]
    runs, sets = shape.runs, shape.sets
    if (
        whole_hand
        and not (runs and sets)
        and _whole_hand_unmet(cards, runs + sets, rules, ranks, jokers, shape.run_length if runs else 0)
    ):
        return True
    need = 0
    if runs:
        need = _fewest(_run_costs(ranks, suit_cards, shape), runs)
        if need > jokers:
            return True
    if sets:
        need += _fewest(_set_costs(rank_cards, rank_suits, shape), sets)
    return need > jokers


class _Shape:
    """What :func:`surely_unmet` reads of one contract under one ruleset: how many runs and sets it asks
    for and the shortest of each, the run rules, and the jokers one run needs by the ranks of its suit
    (:func:`_run_cost` for the shortest run, filled as ranks are met)."""

    def __init__(self, contract: Sequence[MeldRule], rules: Ruleset) -> None:
        self.off = rules.run_min_naturals < 1 or rules.set_min_naturals < 1
        self.runs = self.sets = 0
        self.run_length = self.set_length = 1 << 8
        for rule in contract:
            if rule.kind is _RUN:
                self.runs += 1
                self.run_length = min(self.run_length, rule.length)
            else:
                self.sets += 1
                self.set_length = min(self.set_length, rule.length)
        self.min_naturals: int = rules.run_min_naturals
        self.most_runs = 1 if rules.run_distinct_suits else self.runs
        self.aces_low: bool = rules.aces_low
        self.aces_high: bool = rules.aces_high
        self.spacing: int = rules.run_joker_spacing
        self.set_min_naturals: int = rules.set_min_naturals
        self.most_sets = 1 if rules.set_distinct_ranks else self.sets
        self.set_distinct_suits: bool = rules.set_distinct_suits
        self.costs: dict[int, int] = {}

    def run_cost(self, present: int) -> int:
        """``_run_cost`` of the ranks ``present`` (bits 1..13) for this contract's shortest run."""
        cost = self.costs.get(present)
        if cost is None:
            cost = self.costs[present] = _run_cost(
                present, self.run_length, self.aces_low, self.aces_high, self.min_naturals, self.spacing
            )
        return cost


def _contract_shapes(rules: Ruleset) -> ByIdentity[_Shape]:
    """The shapes of the contracts asked about under ``rules``, by contract (for :data:`_SHAPES`)."""
    return ByIdentity(lambda contract: _Shape(contract, rules), _SHAPES_AT_MOST)


# The shapes of the contracts asked about, by ruleset and then by contract (a tuple).
_SHAPES_AT_MOST: Final = 256
_SHAPES: Final[ByIdentity[ByIdentity[_Shape]]] = by_identity(_contract_shapes)


def _shape_of(contract: Sequence[MeldRule], rules: Ruleset) -> _Shape:
    if type(contract) is not tuple:  # a list could change under the same identity
        return _Shape(contract, rules)
    return _SHAPES.of(rules).of(contract)


def _cards_needed(contract: tuple[MeldRule, ...]) -> int:
    total: int = sum(rule.length for rule in contract)
    return total


# The cards each contract asks for, by contract.
_NEEDED: Final[ByIdentity[int]] = by_identity(_cards_needed, at_most=_SHAPES_AT_MOST)


def cards_needed(contract: Sequence[MeldRule]) -> int:
    """The cards ``contract`` asks for at least (the sum of its lengths), kept for contracts given as tuples."""
    if type(contract) is not tuple:
        return sum(rule.length for rule in contract)
    return _NEEDED.of(contract)


def _fewest(marginal: list[int], wanted: int) -> int:
    """The sum of the ``wanted`` least of ``marginal``, or more jokers than any hand holds if too few."""
    if len(marginal) < wanted:
        return 1 << 30
    if len(marginal) > wanted:
        marginal.sort()
    total = 0  # (a loop: compiled, sum of a slice is a generic call)
    for i in range(wanted):
        total += marginal[i]
    return total


def _run_costs(ranks: list[int], suit_cards: list[int], shape: _Shape) -> list[int]:
    """The jokers each run of ``shape.run_length`` cards or more needs at least, for as many runs as each
    suit may hold (``ranks[suit]``: bits 1..13 of the ranks it has): the fewest holes of a window of that
    length, or of the shortest longer window that holds ``run_min_naturals`` ranks (holes only grow with
    the window)."""
    min_naturals = shape.min_naturals
    most = shape.most_runs
    out: list[int] = []
    for suit in range(4):
        present = ranks[suit]
        if bit_count(present) >= min_naturals:
            cost = shape.run_cost(present)
            if cost >= 0:
                out += [cost] * min(most, suit_cards[suit] // min_naturals)
    return out


_RUN_COSTS: Final[dict[int, int]] = kept({})
_RUN_COSTS_SIZE: Final = 1 << 15  # the ranks of a suit take 8,192 values: a smaller cache kept missing


def _run_cost(present: int, length: int, aces_low: bool, aces_high: bool, min_naturals: int, spacing: int) -> int:
    """The jokers one run of ``length`` cards or more of the ranks ``present`` needs at least, -1 if none
    can be laid (:func:`_count_run_cost`), cached across hands by one int made of the arguments: an int key
    is no object the garbage collector tracks, where an ``lru_cache`` keeps a tuple of them for each."""
    if length >= 64 or min_naturals >= 64 or spacing >= 64:
        return _count_run_cost(present, length, aces_low, aces_high, min_naturals, spacing)
    key = ((((present << 6 | length) << 6 | min_naturals) << 6 | spacing) << 1 | aces_low) << 1 | aces_high
    cost = _RUN_COSTS.get(key)
    if cost is None:
        if len(_RUN_COSTS) >= _RUN_COSTS_SIZE:
            _RUN_COSTS.clear()
        cost = _count_run_cost(present, length, aces_low, aces_high, min_naturals, spacing)
        _RUN_COSTS[key] = cost
    return cost


def _count_run_cost(present: int, length: int, aces_low: bool, aces_high: bool, min_naturals: int, spacing: int) -> int:
    """:func:`_run_cost`, not cached: the holes of the best window of the shortest size whose best window
    holds enough naturals (``min_naturals``, and all but the jokers ``spacing`` lets a run of that size
    hold)."""
    first, last = (1 if aces_low else 2), (14 if aces_high else 13)
    present |= (present & 2) << 13
    for size in range(length, last - first + 2):
        window = (1 << size) - 1
        best = 0
        for low in range(first, last - size + 2):
            held = BITS[present >> low & window]  # (present: bits 1..14)
            if held > best:
                best = held
        if best >= min_naturals and (spacing <= 1 or size - best <= -(-size // spacing)):
            return size - best
    return -1


def _whole_hand_unmet(
    hand: tuple[int, ...], slots: int, rules: Ruleset, ranks: list[int], jokers: int, run_length: int
) -> bool:
    """Whether the naturals of ``hand`` need more melds of one kind (``runs`` or sets) than ``slots``: each
    suit (runs) or rank (sets) with naturals needs a meld, and copies of one card need as many (a run holds
    one card of each rank; a set of distinct suits one of each suit), one at most where the contract
    wants distinct suits or ranks. A family given one meld has all its naturals in it: a set no longer
    than the longest (when the sets need exactly ``slots``), a run whose jokers fill the holes between its
    lowest and highest rank (``ranks``: by suit, bits 1..13 of the ranks it has); a suit given several
    runs needs the jokers of each (runs of ``run_length`` cards or more; 0: sets). The runs go to the
    suits that have naturals (a run has some) in the way that needs the fewest jokers."""
    runs = run_length > 0
    copies = [0] * JOKER_FACE
    for card in hand:  # (read-modify-write, not +=: see surely_unmet)
        face = card & 63
        if face != JOKER_FACE:
            copies[face] = copies[face] + 1
    # By family (a suit for runs, a rank for sets): the melds its naturals need, and how many there are.
    needed = [0] * (4 if runs else 13)
    cards = [0] * (4 if runs else 13)
    by_copies = runs or rules.set_distinct_suits
    for face in range(JOKER_FACE):
        n = copies[face]
        if n:
            family = face // 13 if runs else face % 13
            alike = n if by_copies else 1
            if alike > needed[family]:
                needed[family] = alike
            cards[family] = cards[family] + n
    distinct = rules.run_distinct_suits if runs else rules.set_distinct_ranks
    total = 0
    for n in needed:
        if n > 1 and distinct:
            return True
        total += n
    if total > slots:
        return True
    if not runs:
        longest = rules.set_max_length
        if total != slots or longest is None:
            return False
        return any(cards[rank] > longest and needed[rank] == 1 for rank in range(13))
    fewest = [0] + [1 << 30] * slots
    for suit in range(4):
        n = needed[suit]
        if not n:
            continue
        holes = _span_holes(ranks[suit], rules.aces_low, rules.aces_high)
        cost = _run_cost(ranks[suit], run_length, rules.aces_low, rules.aces_high, rules.run_min_naturals,
                         rules.run_joker_spacing)  # fmt: skip
        each = cost if cost >= 0 else 1 << 30
        after = []
        for had in range(slots + 1):
            least = -1  # (none yet: had < n)
            for k in range(n, had + 1):
                jokers_here = fewest[had - k] + (holes if k == 1 else k * each)
                if least < 0 or jokers_here < least:
                    least = jokers_here
            after.append(least if least >= 0 else 1 << 30)
        fewest = after
    return fewest[slots] > jokers


def _span_holes(present: int, aces_low: bool, aces_high: bool) -> int:
    """The ranks missing between the lowest and highest of ``present`` (bits 1..13), the ace low or high as
    the rules allow and whichever misses fewer; more than any hand holds when neither can be."""
    spans = []
    if not present & 2 or aces_low:
        spans.append(present.bit_length() - 1 - ((present & -present).bit_length() - 1) + 1)
    if present & 2 and aces_high:
        others = present & ~2
        spans.append(14 - ((others & -others).bit_length() - 1) + 1 if others else 1)
    if not spans:
        return 1 << 30
    return min(spans) - bit_count(present)


def _set_costs(rank_cards: list[int], rank_suits: int, shape: _Shape) -> list[int]:
    """The jokers each set of ``shape.set_length`` cards or more needs at least, for as many sets as each rank
    may hold (``rank_cards``, ``rank_suits``: its naturals, and a bit for each suit of them in a 4-bit field
    a rank): what ``k`` sets need less what ``k - 1`` need."""
    min_naturals = shape.set_min_naturals
    most = shape.most_sets
    length = shape.set_length
    distinct_suits = shape.set_distinct_suits
    out: list[int] = []
    for rank in range(13):
        cards = rank_cards[rank]
        if not cards:
            continue
        suits = bit_count(rank_suits >> (4 * rank) & 15) if distinct_suits else cards
        if suits < min_naturals:
            continue
        before = 0
        for k in range(1, min(most, cards // min_naturals) + 1):
            needed = max(0, k * length - min(cards, k * suits))
            out.append(needed - before)
            before = needed
    return out
