"""What the value search (:func:`.search.value.most_shed`) reads of one contract under one ruleset, made once
and kept: compiled, every field of a ruleset or a contract's meld rule (Python objects) is a look-up by name,
and the search's tables were found through ``lru_cache`` calls whose keys hash tuples, for every hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from liverpool.engine._speed.cache import ByIdentity, by_identity
from liverpool.engine.cards import JOKER_FACE
from liverpool.engine.rules.parts import JoinableRuns, MeldKind, MeldRule
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.search.candidates import face_weights, lengths_allowed
from liverpool.engine.search.members import rank_fields
from liverpool.engine.search.tables import SHARED_JOKERS, RunBook, RunRules, SetRules
from liverpool.engine.search.tables import set_rules as make_set_rules

_RUN: Final = MeldKind.RUN
_SET: Final = MeldKind.SET


class ValueShape:
    """A contract under a ruleset as the value search reads it: how many slots of each kind and whether the
    slots of one kind differ in length (``uneven``: the search does not answer then), whether runs that could
    be laid as one must not be laid apart and two may share a suit (``joins``), and a :class:`Kit`
    for each packing width and kind of score."""

    def __init__(self, contract: tuple[MeldRule, ...], rules: Ruleset) -> None:
        self.contract = contract
        self.rules = rules
        run_slots = set_slots = 0
        run_length = set_length = -1
        uneven = False
        for rule in contract:
            if rule.kind is _RUN:
                uneven = uneven or (run_slots > 0 and rule.length != run_length)
                run_slots += 1
                run_length = rule.length
            elif rule.kind is _SET:
                uneven = uneven or (set_slots > 0 and rule.length != set_length)
                set_slots += 1
                set_length = rule.length
        self.uneven = uneven
        # Runs of one suit that could be laid as one may not be laid apart, and two runs may share a suit: the
        # tables test each pair of runs of a suit they lay (:class:`.search.tables.RunJoins`).
        self.joins = rules.joinable_runs is JoinableRuns.COULD_JOIN and run_slots > 1 and not rules.run_distinct_suits
        self.run_slots = run_slots
        self.set_slots = set_slots
        self.kits: list[Kit | None] = []

    def kit(self, width: int, whole_hand: bool) -> Kit:
        """The kit for hands packed ``width`` bits a face, scored in cards (``whole_hand``) or points."""
        index = width * 2 + whole_hand
        while len(self.kits) <= index:
            self.kits.append(None)
        made = self.kits[index]
        if made is None:
            made = self.kits[index] = Kit(self, width, whole_hand)
        return made


class Kit:
    """What :func:`.search.value.most_shed` reads for hands of one packing width and kind of score: the
    weights, the run and set rules of the tables, the suits' and ranks' fields, and each suit's book of
    one-run tables by the jokers it tables."""

    def __init__(self, shape: ValueShape, width: int, whole_hand: bool) -> None:
        contract, rules = shape.contract, shape.rules
        self.weights = weights = face_weights(rules.card_values, whole_hand)
        self.run_lengths = run_lengths = lengths_allowed(contract, _RUN, rules)
        self.run_rules = RunRules(
            width, weights, run_lengths, rules.run_min_naturals, rules.run_joker_spacing, rules.aces_low,
            rules.aces_high,
        )  # fmt: skip
        longest = rules.set_max_length if rules.set_max_length is not None else 13 * 16
        self.set_rules: SetRules = make_set_rules(
            lengths_allowed(contract, _SET, rules), rules.set_min_naturals,
            min(longest, 4) if rules.set_distinct_suits else longest, rules.set_distinct_suits, weights[JOKER_FACE],
        )  # fmt: skip
        self.runs_tabled: bool = shape.run_slots == 1 or rules.run_distinct_suits
        self.joins: bool = shape.joins
        self.set_most: int = 1 if rules.set_distinct_ranks else shape.set_slots
        self.set_fewest: int = max(1, rules.set_min_naturals)
        self.suit_fields = [((1 << (13 * width)) - 1) << (suit * 13 * width) for suit in range(4)]
        self.rank_fields = [0, *(rank_fields(rank, width) for rank in range(1, 14))]
        self.books: dict[int, RunBook] = {}

    def book(self, suit: int, jokers: int) -> RunBook:
        """``run_rules.book(suit, jokers)``, kept by suit and the jokers the book tables."""
        key = suit << 8 | max(jokers, SHARED_JOKERS)
        book = self.books.get(key)
        if book is None:
            book = self.books[key] = self.run_rules.book(suit, jokers)
        return book


def _value_shapes(rules: Ruleset) -> ByIdentity[ValueShape]:
    """The value shapes of the contracts asked about under ``rules``, by contract (for :data:`_SHAPES`)."""
    return ByIdentity(lambda contract: ValueShape(contract, rules), _SHAPES_AT_MOST)


# The value shapes of the contracts asked about, by ruleset and then by contract (a tuple).
_SHAPES_AT_MOST: Final = 256
_SHAPES: Final[ByIdentity[ByIdentity[ValueShape]]] = by_identity(_value_shapes)


def value_shape(contract: Sequence[MeldRule], rules: Ruleset) -> ValueShape:
    """The value shape of ``contract`` under ``rules``, kept for contracts given as tuples."""
    if type(contract) is not tuple:  # a list could change under the same identity
        return ValueShape(tuple(contract), rules)
    return _SHAPES.of(rules).of(contract)
