"""A quick test that a hand cannot meet a contract, made before any candidate is listed.

Most questions a game asks (each play phase of a seat not yet down) have no answer, and listing the
hand's candidates costs more than seeing that. :func:`surely_unmet` relaxes the contract to what face
counts alone decide: a meld of ``L`` cards of one family (the runs of a suit, the sets of a rank) needs
at least so many jokers, whatever cards the other melds take, so a contract whose cheapest choice of
families needs more jokers than the hand holds cannot be met. It is a necessary test only: ``False``
says nothing, and the exact search still answers.

Each run of a suit needs at least as many jokers as the fewest holes of any ``L`` ranks in a row among
the suit's ranks (a longer run holds such a window, and a run's naturals are ranks the suit has), and
the suit must have ``run_min_naturals`` ranks for each. ``k`` sets of a rank need their naturals (at
most the rank's cards, and at most one a suit in each set when suits must differ) and jokers for the
rest: at least ``max(0, k*L - min(cards, k*suits))`` jokers. Both costs grow by as much or more with
each further meld of a family, so taking the cheapest next meld of any family, slot after slot, gives
the fewest jokers the relaxed contract needs.

>>> from .cards import parse_cards
>>> from .presets import find_preset
>>> rules = find_preset('liverpool')
>>> surely_unmet(parse_cards('7H 7S 4C 5C 9D 2S KD'), rules.contract(0), rules)
True
>>> surely_unmet(parse_cards('7H 7S 7D 4C 4D 9D JK'), rules.contract(0), rules)
False
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import JOKER_FACE, Card
from .rules import MeldKind, MeldRule, Ruleset


def surely_unmet(hand: Sequence[Card], contract: Sequence[MeldRule], rules: Ruleset) -> bool:
    """Whether ``hand`` plainly cannot meet ``contract``: its melds would need more jokers than it holds
    (or more families than it has), counting for each meld only the cards of its own family."""
    if rules.run_min_naturals < 1 or rules.set_min_naturals < 1:
        return False
    counts = [0] * (JOKER_FACE + 1)
    for card in hand:
        counts[card & 63] += 1
    costs: list[list[int]] = []
    runs = [rule.length for rule in contract if rule.kind is MeldKind.RUN]
    if runs:
        costs += _run_costs(counts, min(runs), len(runs), rules)
    sets = [rule.length for rule in contract if rule.kind is MeldKind.SET]
    if sets:
        costs += _set_costs(counts, min(sets), len(sets), rules)
    return _fewest_jokers(costs, len(runs), len(sets)) > counts[JOKER_FACE]


def _run_costs(counts: list[int], length: int, slots: int, rules: Ruleset) -> list[list[int]]:
    """For each suit, the jokers its 1st, 2nd, ... run of ``length`` cards or more needs at least, tagged
    by kind: ``[0, cost, cost, ...]``."""
    first, last = (1 if rules.aces_low else 2), (14 if rules.aces_high else 13)
    most = 1 if rules.run_distinct_suits else slots
    out = []
    for suit in range(4):
        row = counts[suit * 13 : suit * 13 + 13]
        ranks = sum(1 for n in row if n)
        if ranks < rules.run_min_naturals:
            continue
        held = [0] * 15
        for rank in range(1, 14):
            held[rank] = 1 if row[rank - 1] else 0
        held[14] = held[1]
        if last - first + 1 < length:
            continue
        window = sum(held[first : first + length])
        best = window
        for low in range(first + 1, last - length + 2):
            window += held[low + length - 1] - held[low - 1]
            best = max(best, window)
        fits = min(most, sum(row) // rules.run_min_naturals)
        out.append([0] + [length - best] * fits)
    return out


def _set_costs(counts: list[int], length: int, slots: int, rules: Ruleset) -> list[list[int]]:
    """For each rank, the jokers its 1st, 2nd, ... set of ``length`` cards or more needs at least, tagged
    by kind: ``[1, cost, cost, ...]``."""
    most = 1 if rules.set_distinct_ranks else slots
    out = []
    for rank in range(13):
        have = (counts[rank], counts[rank + 13], counts[rank + 26], counts[rank + 39])
        cards = sum(have)
        suits = sum(1 for n in have if n) if rules.set_distinct_suits else cards
        if suits < rules.set_min_naturals:
            continue
        fits = min(most, cards // rules.set_min_naturals)
        needed = [max(0, k * length - min(cards, k * suits)) for k in range(fits + 1)]
        out.append([1] + [needed[k] - needed[k - 1] for k in range(1, fits + 1)])
    return out


def _fewest_jokers(costs: list[list[int]], runs: int, sets: int) -> int:
    """The fewest jokers that fill ``runs`` run slots and ``sets`` set slots, each slot by the next meld of
    some family of its kind (each family's further melds cost as much as its last, or more); more
    jokers than any hand holds when there are too few melds."""
    total = 0
    for kind, wanted in ((0, runs), (1, sets)):
        marginal = sorted(cost for row in costs if row[0] == kind for cost in row[1:])
        if len(marginal) < wanted:
            return 1 << 30
        total += sum(marginal[:wanted])
    return total
