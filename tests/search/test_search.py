"""The contract search against independent oracles, by properties, and on the rule rows of RULES.md.

Two oracles, neither sharing code with the fast search: both list every meld a hand allows by trying
each rank and suit, each count of copies and each place of the jokers, and keep those that
``melds.meld_problem`` accepts (``search.reference.reference_melds``). ``ilp_leftover`` then picks one
meld per contract slot with an integer program (PuLP and its bundled CBC); the engine's specification,
``search.reference.reference_arrangements``, tries every combination on small hands and asks
``melds.contract_problem``, so it also checks the order of the answers.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import warnings
from collections import Counter, defaultdict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pulp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from liverpool.engine.cards import JOKER_FACE, Card, make_shoe, parse_cards
from liverpool.engine.melds import Meld, contract_problem, lay_off, lay_off_ends, meld_problem, runs_could_join
from liverpool.engine.rules.parts import DealRule, FinalDeal, JoinableRuns, MeldKind, MeldRule, RulesetError
from liverpool.engine.rules.presets import PRESETS, find_preset
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.search import _Search, best_leftover, can_meet, find_arrangements
from liverpool.engine.search.candidates import (
    RUN_SHAPE,
    SCAN,
    SET_SHAPE,
    CandidatePool,
    decode,
    face_weights,
    lengths_allowed,
    list_run_shapes,
    set_shapes,
)
from liverpool.engine.search.feasible import surely_unmet
from liverpool.engine.search.members import run_members, set_members
from liverpool.engine.search.reference import face_melds, penalty_left, reference_arrangements, reference_melds
from liverpool.engine.search.tables import _growth, _run_table, set_steps
from liverpool.engine.search.tables import set_rules as make_set_rules
from liverpool.engine.search.value import most_shed
from liverpool.engine.search.walk import BEST, BY_ORDER, FEASIBLE, TOP, Walk

Arrangement = tuple[Meld, ...]
ILP_HANDS_PER_PRESET = 150
ILP_RANDOM_RULESETS = 400
BRUTE_FORCE_HANDS = 300


# -- the oracles -------------------------------------------------------------------------------------


def ilp_leftover(
    hand: Sequence[Card],
    contract: Sequence[MeldRule],
    rules: Ruleset,
    *,
    whole_hand: bool = False,
    keep: int = 0,
    must_include: Card | None = None,
) -> int | None:
    """The least penalty left in hand, or ``None``, by an integer program over :func:`~liverpool.engine.search.reference.reference_melds`.

    ``y[m]`` counts how many times meld ``m`` is laid (a meld of faces may be laid twice from two decks).
    Melds with the same faces are one variable, unless runs that could be joined are forbidden, which
    looks at their ends. The lengths follow ``contract_problem``: with the slots of a kind sorted
    longest first, the ``i`` longest need ``i`` melds at least as long (or, without longer melds, as many
    melds of each length as slots)."""
    kinds = {r.kind for r in contract}
    melds = list({_ilp_key(m, rules): m for m in reference_melds(hand, kinds, rules)}.values())
    problem = pulp.LpProblem("contract", pulp.LpMaximize)
    slots = {kind: sorted((r.length for r in contract if r.kind is kind), reverse=True) for kind in kinds}
    y = [problem.add_variable(f"y_{m}", 0, len(slots[meld.kind]), cat="Integer") for m, meld in enumerate(melds)]
    if rules.joinable_runs is JoinableRuns.COULD_JOIN:
        # Runs whose cards could be laid as one run are not laid together: ``laid[m]`` is 1 when run m is laid.
        runs = [(m, meld) for m, meld in enumerate(melds) if meld.kind is MeldKind.RUN]
        laid = {}
        for m, _meld in runs:
            laid[m] = problem.add_variable(f"laid_{m}", 0, 1, cat="Integer")
            problem += y[m] <= len(contract) * laid[m]
        for (m, a), (n, b) in itertools.combinations(runs, 2):
            if runs_could_join(a, b, rules):
                problem += laid[m] + laid[n] <= 1
    by_face: dict[int, list[tuple[int, pulp.LpVariable]]] = defaultdict(list)
    by_group: dict[tuple[object, ...], list[pulp.LpVariable]] = defaultdict(list)
    for meld, var in zip(melds, y, strict=True):
        for face, count in Counter(c.face for c in meld.cards).items():
            by_face[face].append((count, var))
        if meld.kind is MeldKind.SET:
            by_group["rank", meld.low].append(var)
        else:
            by_group["suit", meld.suit].append(var)
            by_group["ends at", meld.suit, meld.high].append(var)
            by_group["starts at", meld.suit, meld.low].append(var)
    for kind, lengths in slots.items():
        of_kind = [(len(meld.cards), var) for meld, var in zip(melds, y, strict=True) if meld.kind is kind]
        problem += pulp.lpSum(var for _, var in of_kind) == len(lengths)
        for i, length in enumerate(lengths, 1):
            if rules.longer_melds:
                problem += pulp.lpSum(var for size, var in of_kind if size >= length) >= i
            else:
                problem += pulp.lpSum(var for size, var in of_kind if size == length) == lengths.count(length)
    held = Counter(c.face for c in hand)
    for face, terms in by_face.items():
        problem += pulp.lpSum(count * var for count, var in terms) <= held[face]
    melded = pulp.lpSum(len(meld.cards) * var for meld, var in zip(melds, y, strict=True))
    problem += melded <= len(hand) - keep
    if whole_hand:
        problem += melded == len(hand)
    if must_include is not None:
        problem += pulp.lpSum(count * var for count, var in by_face[must_include.face]) >= 1
    for rank in range(1, 14):
        if rules.set_distinct_ranks and by_group["rank", rank]:
            problem += pulp.lpSum(by_group["rank", rank]) <= 1
    for suit in "CDHS":
        if rules.run_distinct_suits and by_group["suit", suit]:
            problem += pulp.lpSum(by_group["suit", suit]) <= 1
        for end in range(1, 14):
            ending, starting = by_group["ends at", suit, end], by_group["starts at", suit, end + 1]
            if rules.joinable_runs is JoinableRuns.TOUCHING and ending and starting:
                first = problem.add_variable(f"join_{suit}_{end}", 0, 1, cat="Integer")
                problem += pulp.lpSum(ending) <= len(contract) * first
                problem += pulp.lpSum(starting) <= len(contract) * (1 - first)
    problem += pulp.lpSum(sum(rules.value(c) for c in meld.cards) * var for meld, var in zip(melds, y, strict=True))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        status = pulp.LpStatus[problem.solve(pulp.PULP_CBC_CMD(msg=False))]
    if status == "Infeasible":
        return None
    assert status == "Optimal", status
    return sum(rules.value(c) for c in hand) - round(pulp.value(problem.objective) or 0)


def _ilp_key(meld: Meld, rules: Ruleset) -> tuple[object, ...]:
    faces = tuple(sorted(c.face for c in meld.cards))
    touching = rules.joinable_runs is JoinableRuns.TOUCHING
    return (meld.kind, faces, meld.low, meld.high) if touching else (meld.kind, faces)


# -- hands -------------------------------------------------------------------------------------------


def shoe_for(rules: Ruleset, rng: random.Random) -> list[Card]:
    deck = rng.choice(rules.decks)
    return list(make_shoe(deck.decks, max(deck.jokers, 4)))


def random_hand(rng: random.Random, shoe: Sequence[Card], size: int, jokers: int) -> list[Card]:
    naturals = [c for c in shoe if not c.is_joker]
    return rng.sample(naturals, size - jokers) + rng.sample([c for c in shoe if c.is_joker], jokers)


def planted_hand(rng: random.Random, shoe: Sequence[Card], contract: Sequence[MeldRule], size: int) -> list[Card]:
    """A hand holding melds shaped like the contract's (not always valid ones), some jokers, then filler."""
    left = list(shoe)
    rng.shuffle(left)
    hand: list[Card] = []

    def take(rank: int | None = None, suit: str | None = None, joker: bool = False) -> None:
        for card in left:
            if (
                card.is_joker
                if joker
                else not card.is_joker and rank in (None, card.rank) and suit in (None, card.suit)
            ):
                left.remove(card)
                hand.append(card)
                return

    for rule in contract:
        if rule.kind is MeldKind.SET:
            rank = rng.randint(1, 13)
            for _ in range(rule.length + rng.randint(-1, 1)):
                take(rank=rank, joker=rng.random() < 0.12)
        else:
            suit, low = rng.choice("CDHS"), rng.randint(1, 11)
            for rank in range(low, min(low + rule.length + rng.randint(-1, 3), 15)):
                take(rank=(rank - 1) % 13 + 1, suit=suit, joker=rng.random() < 0.12)
    for _ in range(rng.randint(0, 2)):
        take(joker=True)
    while len(hand) < size:
        take(joker=rng.random() < 0.05)
    return hand[:size]


@dataclasses.dataclass
class Question:
    """A hand, a contract and the options of one search."""

    hand: list[Card]
    contract: tuple[MeldRule, ...]
    whole_hand: bool = False
    keep: int = 0
    must_include: Card | None = None

    @property
    def options(self) -> dict[str, Any]:
        return {"whole_hand": self.whole_hand, "keep": self.keep, "must_include": self.must_include}


def question(rng: random.Random, rules: Ruleset, deal: int, small: bool = False) -> Question:
    """A seeded question: a hand of 13-20 cards (7-11 when ``small``) with 0-4 jokers, random or holding
    melds shaped like the contract's, and random options; the whole hand goes in half the final deals
    that ask for it."""
    contract = rules.deals[deal].contract
    whole = rules.is_final(deal) and rules.final_deal is FinalDeal.WHOLE_HAND and rng.random() < 0.5
    size = rng.randint(7, 11) if small else rng.randint(13, 20)
    shoe = shoe_for(rules, rng)
    if rng.random() < 0.4:
        hand = random_hand(rng, shoe, size, rng.randint(0, min(4, size // 3)))
    else:
        hand = planted_hand(rng, shoe, contract, size)
    keep = 0 if whole else rng.choice([0, 0, 0, 1, 2])
    must = rng.choice(hand) if rng.random() < 0.25 else None
    return Question(hand, contract, whole, keep, must)


def random_ruleset(rng: random.Random) -> Ruleset:
    """A preset with house rules drawn at random, and a random contract of 1-3 melds as its only deal."""
    while True:
        contract = tuple(
            MeldRule(rng.choice(list(MeldKind)), rng.choice([3, 3, 4, 4, 5])) for _ in range(rng.randint(1, 3))
        )
        try:
            return dataclasses.replace(
                rng.choice(list(PRESETS.values())),
                deals=(DealRule(contract, 10),),
                aces_low=rng.random() < 0.8,
                aces_high=rng.random() < 0.8,
                longer_melds=rng.random() < 0.7,
                set_distinct_ranks=rng.random() < 0.4,
                set_distinct_suits=rng.random() < 0.3,
                set_max_length=rng.choice([None, None, 4, 5]),
                run_distinct_suits=rng.random() < 0.5,
                joinable_runs=rng.choice(list(JoinableRuns)),
                set_min_naturals=rng.randint(1, 3),
                run_min_naturals=rng.randint(1, 3),
                run_joker_spacing=rng.choice([0, 0, 2, 3, 4]),
                card_values=tuple(rng.randint(0, 25) for _ in range(14)),
            )
        except RulesetError:
            continue


def check_arrangements(
    found: list[Arrangement],
    hand: Sequence[Card],
    contract: Sequence[MeldRule],
    rules: Ruleset,
    *,
    whole_hand: bool = False,
    keep: int = 0,
    must_include: Card | None = None,
    limit: int = 8,
) -> list[int]:
    """Asserts what every answer must hold; returns the penalties left, which must not decrease."""
    assert len(found) <= limit
    assert len({face_melds(a) for a in found}) == len(found), "arrangements differ only by copies"
    penalties = []
    by_face: dict[int, list[Card]] = defaultdict(list)
    for card in sorted(hand, key=lambda c: (c != must_include, c.copy)):
        by_face[card.face].append(card)
    for arrangement in found:
        assert contract_problem(arrangement, contract, rules) is None
        assert [m.kind for m in arrangement] == [r.kind for r in contract]
        cards = [c for m in arrangement for c in m.cards]
        assert len(cards) == len(set(cards)) and set(cards) <= set(hand)
        assert len(hand) - len(cards) >= keep
        assert not whole_hand or len(cards) == len(hand)
        assert must_include is None or must_include in cards
        for face, laid in Counter(c.face for c in cards).items():
            assert sorted(c for c in cards if c.face == face) == sorted(by_face[face][:laid]), "not the lowest copies"
        penalties.append(penalty_left(hand, arrangement, rules))
    assert penalties == sorted(penalties)
    return penalties


# -- against the oracles -----------------------------------------------------------------------------


def solved(questions: list[tuple[Ruleset, Question]]) -> list[int | None]:
    """:func:`ilp_leftover` of each question, two at a time (the solver runs in its own process)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(lambda rq: ilp_leftover(rq[1].hand, rq[1].contract, rq[0], **rq[1].options), questions))


def check_against_the_oracle(questions: list[tuple[Ruleset, Question]]) -> int:
    """Checks the three functions on each question against :func:`ilp_leftover`; returns how many were
    feasible."""
    for (rules, q), expected in zip(questions, solved(questions), strict=True):
        assert best_leftover(q.hand, q.contract, rules, **q.options) == expected, (rules.name, q)
        assert can_meet(q.hand, q.contract, rules, **q.options) == (expected is not None), (rules.name, q)
        found = find_arrangements(q.hand, q.contract, rules, **q.options)
        penalties = check_arrangements(found, q.hand, q.contract, rules, **q.options)
        assert (penalties[0] if penalties else None) == expected, (rules.name, q)
    return sum(1 for rules, q in questions if can_meet(q.hand, q.contract, rules, **q.options))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_best_leftover_matches_the_integer_program_on_every_contract(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(f"ilp {preset}")
    questions = [(rules, question(rng, rules, i % len(rules.deals))) for i in range(ILP_HANDS_PER_PRESET)]
    assert check_against_the_oracle(questions) > ILP_HANDS_PER_PRESET // 5


def test_best_leftover_matches_the_integer_program_under_random_house_rules() -> None:
    rng = random.Random("ilp house rules")
    questions = []
    for _ in range(ILP_RANDOM_RULESETS):
        rules = random_ruleset(rng)
        q = question(rng, rules, 0, small=rng.random() < 0.5)
        q.whole_hand = rng.random() < 0.1
        q.keep = 0 if q.whole_hand else q.keep
        questions.append((rules, q))
    assert check_against_the_oracle(questions) > ILP_RANDOM_RULESETS // 6


def test_the_answers_are_the_best_arrangements_of_all_in_order() -> None:
    rng = random.Random("brute force")
    nonempty = 0
    for _ in range(BRUTE_FORCE_HANDS):
        rules = random_ruleset(rng)
        rules = dataclasses.replace(rules, deals=(DealRule(rules.deals[0].contract[:2], 10),))
        q = question(rng, rules, 0, small=True)
        limit = rng.choice([1, 2, 8, 30])
        every = reference_arrangements(q.hand, q.contract, rules, **q.options)
        found = find_arrangements(q.hand, q.contract, rules, **q.options, limit=limit)
        penalties = check_arrangements(found, q.hand, q.contract, rules, **q.options, limit=limit)
        assert all(face_melds(a) in every for a in found)
        assert penalties == sorted(every.values())[:limit], (rules, q)
        nonempty += bool(every)
    assert nonempty > BRUTE_FORCE_HANDS // 4


@pytest.mark.parametrize("seed", range(4))
def test_the_candidates_are_exactly_the_valid_melds(seed: int) -> None:
    rng = random.Random(f"candidates {seed}")
    for _ in range(60):
        rules = random_ruleset(rng) if rng.random() < 0.6 else rng.choice(list(PRESETS.values()))
        deal = rng.randrange(len(rules.deals))
        contract = rules.deals[deal].contract
        hand = question(rng, rules, deal).hand
        pool = CandidatePool.build(hand, contract, rules, whole_hand=False)
        for kind in MeldKind:
            lengths = [r.length for r in contract if r.kind is kind]
            want = {
                (m.low, tuple(c.face for c in m.cards))
                for m in reference_melds(hand, {kind}, rules)
                if lengths and (len(m.cards) >= min(lengths) if rules.longer_melds else len(m.cards) in lengths)
            }
            got = [decode(kind, entry[5]) for entry in pool.entries[kind]]
            assert len(got) == len(set(got))
            assert set(got) == want


@pytest.mark.parametrize("seed", range(4))
def test_the_members_of_the_value_search_are_the_candidates_alike_as_one(seed: int) -> None:
    # search_value lists its runs and sets itself (search_members.run_members, set_members), without the candidate pool: they
    # must be the pool's candidates, those alike in all the value search reads of them taken once, under the
    # presets and random house rules (joinable runs, distinct suits or ranks, spacing, lengths, aces).
    rng = random.Random(f"members {seed}")
    for _ in range(60):
        rules = random_ruleset(rng) if rng.random() < 0.6 else rng.choice(list(PRESETS.values()))
        deal = rng.randrange(len(rules.deals))
        contract = rules.deals[deal].contract
        whole = rng.random() < 0.2
        hand = question(rng, rules, deal).hand
        pool = CandidatePool.build(hand, contract, rules, whole_hand=whole)
        width, counts = pool.packing.width, list(pool.counts)
        jokers, weights = counts[JOKER_FACE], face_weights(rules.card_values, whole)
        joker_unit = 1 << (JOKER_FACE * width)
        for kind in MeldKind:
            lengths = lengths_allowed(contract, kind, rules)
            want = Counter(
                (score, use - (use // joker_unit) * joker_unit, use // joker_unit, tag, block)
                for score, _, use, tag, block, _, _ in pool.entries[kind]
            )
            if not lengths:
                assert not want
                continue
            got: Counter[tuple[int, int, int, int, int]] = Counter()
            if kind is MeldKind.RUN:
                for suit in range(4):
                    present = sum(1 << rank for rank in range(1, 14) if counts[suit * 13 + rank - 1])
                    if present.bit_count() >= rules.run_min_naturals:
                        members = run_members(present, suit, jokers, weights, width, lengths, rules)
                        assert [m[0] for m in members] == sorted((m[0] for m in members), reverse=True)
                        got.update(members)
            else:
                longest = rules.set_max_length if rules.set_max_length is not None else 14 * 16
                longest = min(longest, 4) if rules.set_distinct_suits else longest
                for rank in range(1, 14):
                    have = (counts[rank - 1], counts[rank + 12], counts[rank + 25], counts[rank + 38])
                    if sum(have) >= rules.set_min_naturals:
                        set_rules = make_set_rules(
                            lengths, rules.set_min_naturals, longest, rules.set_distinct_suits, weights[JOKER_FACE]
                        )
                        got.update(set_members(
                            have, rank, jokers, width, weights[rank - 1], set_rules, rules.set_distinct_ranks
                        ))  # fmt: skip
            assert max(got.values(), default=1) == 1
            assert set(got) == set(want), (rules, kind, hand)


def test_the_sets_of_a_rank_are_counted_as_many_as_listed() -> None:
    # search_value chooses which kind to search first from SetRules.count, which counts the sets of a rank
    # without listing them (kept by one int made of the naturals and jokers): it must be exactly how many
    # set_shapes lists, whatever the rules and whatever was counted before.
    for have in itertools.product(range(4), repeat=4):
        for lengths in (1 << 3, 1 << 4, 1 << 3 | 1 << 5, ((1 << 64) - 1) ^ 7):
            for min_naturals, longest, distinct in itertools.product((1, 2, 3), (3, 4, 6, 224), (False, True)):
                rules = make_set_rules(lengths, min_naturals, longest, distinct, 20)
                for jokers in range(5):
                    listed = len(rules.shapes(have, jokers, 3)) // SET_SHAPE
                    assert rules.count(have, jokers) == rules.count(have, jokers) == listed, (have, jokers, rules)


def test_the_kept_sets_of_a_rank_are_those_set_shapes_lists() -> None:
    # SetRules.shapes keeps what set_shapes lists by one int made of the naturals, jokers and width (the value
    # search's set_members reads it for every rank of every hand): asked twice, and past the cases the int
    # cannot hold, it must give exactly set_shapes' list.
    for lengths, min_naturals, longest, distinct in itertools.product(
        (1 << 3, ((1 << 64) - 1) ^ 7), (1, 3), (4, 224), (False, True)
    ):
        rules = make_set_rules(lengths, min_naturals, longest, distinct, 20)
        for have in [*itertools.product(range(3), repeat=4), (300, 0, 1, 0)]:
            for jokers, width in ((0, 2), (2, 2), (2, 3), (4, 2), (260, 3)):
                if max(have) > 3 and jokers > 4:
                    continue
                want = set_shapes(have, jokers, width, lengths, min_naturals, longest, distinct)[0]
                assert rules.shapes(have, jokers, width) == rules.shapes(have, jokers, width) == want


def _listed_set_table(have: tuple[int, ...], jokers: int, weight: int, rules: Any, most: int) -> tuple[Any, ...]:
    """The table of up to ``most`` sets of one rank by trying every choice of the sets set_shapes lists."""
    listed = set_shapes(have, jokers, 2, rules.lengths, rules.min_naturals, rules.longest, rules.distinct_suits)[0]
    shapes = [listed[i : i + SET_SHAPE] for i in range(0, len(listed), SET_SHAPE)]
    out = []
    for m in range(1, most + 1):
        exact = [-1] * (jokers + 1)
        for chosen in itertools.combinations_with_replacement(shapes, m):
            used = sum(shape[2] for shape in chosen)
            by_suit = [sum(shape[3] >> (8 * suit) & 0xFF for shape in chosen) for suit in range(4)]
            if used <= jokers and all(n <= held for n, held in zip(by_suit, have, strict=True)):
                value = sum(shape[0] * weight + shape[2] * rules.joker_weight for shape in chosen)
                exact[used] = max(exact[used], value)
        row = tuple(_growth(exact))
        if not row:
            break
        out.append(row)
    return tuple(out)


def test_the_table_of_sets_of_distinct_suits_is_the_best_choice_of_listed_sets() -> None:
    # set_steps tables the sets whose naturals must differ in suit (RULES.md §3.4 set constraints: no two cards
    # of one suit, 001b) from counts, without listing them: it must be the best choice of as many sets as
    # set_shapes lists, by the naturals each takes of each suit, whatever the counts, jokers, weights and
    # set rules.
    rng = random.Random(5)
    for lengths, min_naturals, longest in itertools.product(
        (1 << 3, 1 << 4, 1 << 3 | 1 << 4, 1 << 2 | 1 << 5, ((1 << 64) - 1) ^ 7), (0, 1, 2, 3), (3, 4, 224)
    ):
        for joker_weight in (0, 20, 50):
            rules = make_set_rules(lengths, min_naturals, longest, True, joker_weight)
            for _ in range(12):
                have = tuple(rng.randint(0, 3) for _ in range(4))
                jokers, weight, most = rng.randint(0, 4), rng.choice((-2, 0, 5, 15)), rng.randint(1, 3)
                expected = _listed_set_table(have, jokers, weight, rules, most)
                assert set_steps(have, jokers, weight, rules, most) == expected, (have, jokers, weight, most, rules)


def test_the_table_of_one_run_is_the_best_listed_run_of_each_joker_count() -> None:
    # run_steps reads the best run of each joker count straight off the ranks (only the longest run of a
    # place and holes, when any length from the shortest up goes): it must be the best run list_run_shapes
    # lists, whatever the ranks, weights, lengths and rules; and no run starting just above a natural, when
    # it could start there, but those 13 long from the lowest places. Besides random ranks, every suit of
    # eleven ranks or more, where the runs of 12 and 13 are.
    rng = random.Random(7)
    weight_sets = [(5,) * 8 + (10,) * 4 + (15,), (1,) * 13, tuple(rng.randint(0, 20) for _ in range(13))]
    weight_sets.append((4, 6, -5, 7, 5, -1, 2, 9, 10, 3, 8, -2, 1))  # (house card values below zero)
    any_length = ((1 << 15) - 1) & ~7
    full = [sum(1 << rank for rank in range(1, 14) if rank not in gone)
            for size in (0, 1, 2) for gone in itertools.combinations(range(1, 14), size)]  # fmt: skip
    for lengths in (any_length, any_length & ~15, 1 << 4, 1 << 3 | 1 << 7, any_length & ~(1 << 9)):
        for weights, min_naturals, aces_low, aces_high in itertools.product(
            weight_sets, (2, 3), (True, False), (True, False)
        ):
            for ranks in [rng.getrandbits(13) << 1 for _ in range(300)] + full:
                present = ranks | (ranks & 2) << 13
                jokers = rng.randint(0, 5)
                shapes, _ = list_run_shapes(present, jokers, 2, weights, lengths, min_naturals, 0, aces_low, aces_high)
                best = [-1] * (jokers + 1)
                for i in range(0, len(shapes), RUN_SHAPE):
                    count = shapes[i + 3]
                    best[count] = max(best[count], shapes[i] + count * 20)
                expected = tuple(_growth(best)) if any(b >= 0 for b in best) else ()
                args = (present, jokers, weights, 20, lengths, min_naturals, 0, aces_low, aces_high)
                assert _run_table(*args) == expected, args


def test_the_tables_kept_across_hands_are_the_tables_made_anew() -> None:
    # SetRules.steps keeps the set tables by one int made of the arguments: what it gives must be what
    # set_steps makes now, whatever was asked before (the same naturals in another order, the same count of
    # naturals, weights and joker counts that pack alike).
    rng = random.Random(11)
    asks: list[tuple[tuple[int, int, int, int], int, int, int]] = [
        ((rng.randint(0, 3), rng.randint(0, 3), rng.randint(0, 3), rng.randint(0, 3)), rng.randint(0, 4),
         rng.choice((1, 5, 10, 15, 50)), rng.randint(1, 3))
        for _ in range(400)
    ]  # fmt: skip
    asks += [
        ((0, 1, 2, 16), 2, 5, 2),
        ((16, 0, 0, 0), 1, 5, 1),
        ((1, 2, 3, 3), 300, 5, 1),
        ((1, 2, 3, 3), 1, 1 << 16, 1),
    ]
    for lengths, min_naturals, longest, distinct in itertools.product(
        (1 << 3, ((1 << 64) - 1) ^ 7), (1, 2), (4, 224), (False, True)
    ):
        rules = make_set_rules(lengths, min_naturals, longest, distinct, 20)
        for _ in range(2):
            for have, jokers, weight, most in asks:
                kept = rules.steps(have, jokers, weight, most)
                assert kept == set_steps(have, jokers, weight, rules, most), (have, jokers, weight, most, rules)


@settings(max_examples=250, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_the_family_tables_shed_as_much_as_the_best_arrangement(seed: int, preset: bool, even: bool) -> None:
    # search_value.most_shed against the depth-first search (find_arrangements), under the presets and under
    # random house rules (RULES.md §3: distinct suits or ranks, joinable runs, min naturals, joker spacing,
    # set length and suits, aces low/high, longer melds, card values), whole hand or not; ``even`` gives the
    # slots of each kind one length, the contracts most_shed answers. best_leftover, which takes most_shed's
    # answer where it is faster and keep allows, must agree with the arrangements for every option.
    rng = random.Random(seed)
    rules = rng.choice(PRESET_RULES) if preset else random_ruleset(rng)
    deal = rng.randrange(len(rules.deals))
    if even:
        first = {r.kind: r.length for r in reversed(rules.deals[deal].contract)}
        contract = tuple(MeldRule(r.kind, first[r.kind]) for r in rules.deals[deal].contract)
        rules = dataclasses.replace(rules, deals=(DealRule(contract, 10),))
        deal = 0
    q = question(rng, rules, deal)
    found = find_arrangements(q.hand, q.contract, rules, whole_hand=q.whole_hand, limit=1)
    most = most_shed(q.hand, q.contract, rules, q.whole_hand)
    lengths = [{r.length for r in q.contract if r.kind is kind} for kind in MeldKind]
    joins = (
        rules.joinable_runs is JoinableRuns.COULD_JOIN
        and not rules.run_distinct_suits
        and sum(r.kind is MeldKind.RUN for r in q.contract) > 1
    )
    assert (most is None) == (any(len(each) > 1 for each in lengths) or joins)
    if most is not None and q.whole_hand:
        assert (most == len(q.hand)) == bool(found), (rules, q)
    elif most is not None:
        total = sum(rules.value(c) for c in q.hand)
        assert most == (total - penalty_left(q.hand, found[0], rules) if found else -1), (rules, q)
    best = find_arrangements(q.hand, q.contract, rules, **q.options, limit=1)
    expected = penalty_left(q.hand, best[0], rules) if best else None
    assert best_leftover(q.hand, q.contract, rules, **q.options) == (0 if best and q.whole_hand else expected)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_a_hand_surely_unmet_has_no_arrangement(seed: int, preset: bool, small: bool) -> None:
    # search_feasible.surely_unmet (which lets the search skip listing candidates) against oracles that do
    # not use it, under the presets and random house rules (RULES.md §3: set and run lengths, min naturals,
    # distinct suits or ranks, set suits, aces low/high, joker spacing, several decks and their jokers,
    # longer melds, the final deal's whole hand):
    # the family tables of most_shed on the contract with one length a kind, and every combination of
    # melds (all_arrangements) on small hands and two slots.
    rng = random.Random(seed)
    rules = rng.choice(PRESET_RULES) if preset else random_ruleset(rng)
    deal = rng.randrange(len(rules.deals))
    q = question(rng, rules, deal, small=small)
    whole = rng.random() < 0.3
    contract = q.contract[:2] if small else q.contract
    if surely_unmet(q.hand, contract, rules, whole):
        if small:
            assert not reference_arrangements(q.hand, contract, rules, whole_hand=whole), (rules, q)
        first = {r.kind: r.length for r in reversed(contract)}
        even = tuple(MeldRule(r.kind, first[r.kind]) for r in contract)
        most = most_shed(q.hand, even, rules, whole)
        if most is None:  # (runs that could be one, which the tables do not answer: the arrangements do)
            assert not find_arrangements(q.hand, even, rules, whole_hand=whole, limit=1), (rules, q)
        else:
            assert most != len(q.hand) if whole else most == -1, (rules, q)


def test_surely_unmet_cuts_most_hands_that_cannot_meet_the_contract() -> None:
    # The test is worth its cost only if it catches hands: of preset hands that cannot meet their
    # contract (no arrangement in the family tables), it must name most.
    rng = random.Random("surely unmet")
    unmet = caught = 0
    for _ in range(300):
        rules = rng.choice(PRESET_RULES)
        q = question(rng, rules, rng.randrange(len(rules.deals)))
        first = {r.kind: r.length for r in reversed(q.contract)}
        even = tuple(MeldRule(r.kind, first[r.kind]) for r in q.contract)
        if most_shed(q.hand, even, rules, False) == -1:
            unmet += 1
            caught += surely_unmet(q.hand, even, rules)
    assert unmet > 30
    assert caught > unmet // 2, (caught, unmet)


# -- properties --------------------------------------------------------------------------------------

SHOE = make_shoe(2, 4)
PRESET_RULES = list(PRESETS.values())
hands = st.lists(st.sampled_from(SHOE), min_size=9, max_size=17, unique=True)
deals = st.tuples(st.sampled_from(PRESET_RULES), st.integers(0, 8)).map(
    lambda p: (p[0], p[0].deals[p[1] % len(p[0].deals)])
)
fast = settings(max_examples=150, deadline=None, derandomize=True)


@fast
@given(hands, st.sampled_from(SHOE), deals, st.integers(0, 2))
def test_a_card_more_never_makes_the_contract_impossible(
    hand: list[Card], extra: Card, deal: tuple[Ruleset, DealRule], keep: int
) -> None:
    # What holds is weaker than "the leftover never grows": the new card may have to stay in hand, so the
    # leftover grows by at most its value; and with the whole hand to meld, a card more may spoil it (see
    # test_the_final_deal_melds_the_whole_hand).
    rules, contract = deal[0], deal[1].contract
    if extra in hand:
        return
    before = best_leftover(hand, contract, rules, keep=keep)
    after = best_leftover([*hand, extra], contract, rules, keep=keep)
    assert can_meet([*hand, extra], contract, rules, keep=keep) == (after is not None)
    if before is not None:
        assert after is not None and after <= before + rules.value(extra)


@fast
@given(hands, deals, st.integers(0, 3))
def test_keeping_a_card_more_never_sheds_more(hand: list[Card], deal: tuple[Ruleset, DealRule], keep: int) -> None:
    rules, contract = deal[0], deal[1].contract
    looser = best_leftover(hand, contract, rules, keep=keep)
    stricter = best_leftover(hand, contract, rules, keep=keep + 1)
    assert stricter is None or (looser is not None and stricter >= looser)
    assert can_meet(hand, contract, rules, keep=keep + 1) == (stricter is not None)


@fast
@given(hands, deals, st.data())
def test_a_card_that_must_be_melded_never_sheds_more(
    hand: list[Card], deal: tuple[Ruleset, DealRule], data: st.DataObject
) -> None:
    rules, contract = deal[0], deal[1].contract
    must = data.draw(st.sampled_from(hand))
    free = best_leftover(hand, contract, rules)
    bound = best_leftover(hand, contract, rules, must_include=must)
    assert bound is None or (free is not None and bound >= free)
    best = find_arrangements(hand, contract, rules, must_include=must, limit=1)
    assert (bound is None) == (not best)
    if best:
        assert must in {c for m in best[0] for c in m.cards}
        assert penalty_left(hand, best[0], rules) == bound


@fast
@given(hands, deals)
def test_the_whole_hand_goes_exactly_when_nothing_need_be_left(
    hand: list[Card], deal: tuple[Ruleset, DealRule]
) -> None:
    rules, contract = deal[0], deal[1].contract
    assert min(rules.card_values) > 0
    assert can_meet(hand, contract, rules, whole_hand=True) == (best_leftover(hand, contract, rules) == 0)


@fast
@given(hands, deals, st.integers(1, 6), st.randoms(use_true_random=False))
def test_the_answers_depend_only_on_the_faces(
    hand: list[Card], deal: tuple[Ruleset, DealRule], limit: int, rnd: random.Random
) -> None:
    rules, contract = deal[0], deal[1].contract
    relabelled = [Card.make(c.face, c.copy + 3) for c in hand]
    rnd.shuffle(relabelled)
    first = find_arrangements(hand, contract, rules, limit=limit)
    second = find_arrangements(relabelled, contract, rules, limit=limit)
    assert [face_melds(a) for a in first] == [face_melds(a) for a in second]
    assert [[(m.kind, m.low) for m in a] for a in first] == [[(m.kind, m.low) for m in a] for a in second]
    assert find_arrangements(hand, contract, rules, limit=max(1, limit - 2)) == first[: max(1, limit - 2)]
    if first:
        assert penalty_left(hand, first[0], rules) == best_leftover(hand, contract, rules)


@pytest.mark.parametrize("preset", ["liverpool", "contract"])
def test_leaving_under_keeps_the_arrangements_that_leave_fewer_points_in_order(preset: str) -> None:
    """``leaving_under``: the arrangements of the full listing that leave fewer points than that, in its
    order, the first ``limit`` of them (the listing with a card just taken asks so: RULES.md §3.10). The
    bound is drawn at the points one of them leaves (or one more), where an off-by-one would show."""
    rules = find_preset(preset)
    rng = random.Random(f"leaving under {preset}")
    cut = 0
    for _ in range(60):
        deal = rng.randrange(len(rules.deals))
        q = question(rng, rules, deal)
        if q.whole_hand:
            with pytest.raises(ValueError, match="whole_hand"):
                find_arrangements(q.hand, q.contract, rules, **q.options, leaving_under=10)
            continue
        every = find_arrangements(q.hand, q.contract, rules, **q.options, limit=None)
        if not every:
            continue
        under = penalty_left(q.hand, rng.choice(every), rules) + rng.randint(0, 1)
        fewer = [a for a in every if penalty_left(q.hand, a, rules) < under]
        limit = rng.choice([1, 3, 8])
        found = find_arrangements(q.hand, q.contract, rules, **q.options, limit=limit, leaving_under=under)
        assert found == fewer[:limit], q
        assert find_arrangements(q.hand, q.contract, rules, **q.options, limit=None, leaving_under=under) == fewer
        cut += len(fewer) < len(every)
    assert cut >= 10


@fast
@given(hands, deals)
def test_longer_melds_never_leave_more(hand: list[Card], deal: tuple[Ruleset, DealRule]) -> None:
    rules, contract = deal[0], deal[1].contract
    exact = dataclasses.replace(rules, longer_melds=False)
    longer = best_leftover(hand, contract, rules)
    shorter = best_leftover(hand, contract, exact)
    assert shorter is None or (longer is not None and longer <= shorter)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.sampled_from("CDHS"),
    st.integers(1, 14),
    st.integers(3, 13),
    st.sampled_from(PRESET_RULES),
    st.booleans(),
    st.booleans(),
)
def test_a_run_of_naturals_in_order_is_valid_exactly_within_the_ace_rules(
    suit: str, low: int, size: int, base: Ruleset, aces_low: bool, aces_high: bool
) -> None:
    if not (aces_low or aces_high):
        return
    rules = dataclasses.replace(base, aces_low=aces_low, aces_high=aces_high)
    cards = tuple(Card.natural((rank - 1) % 13 + 1, suit) for rank in range(low, low + size))
    high = low + size - 1
    expected = high <= 14 and (low > 1 or aces_low) and (high < 14 or aces_high) and size >= rules.run_min_naturals
    assert (meld_problem(Meld(MeldKind.RUN, cards, low), rules) is None) == expected


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.integers(1, 13),
    st.lists(st.sampled_from("CDHS"), min_size=1, max_size=6),
    st.integers(0, 3),
    st.sampled_from(PRESET_RULES),
    st.randoms(use_true_random=False),
)
def test_shuffling_a_set_keeps_its_validity(
    rank: int, suits: list[str], jokers: int, rules: Ruleset, rnd: random.Random
) -> None:
    cards = [Card.natural(rank, s, copy=i) for i, s in enumerate(suits)] + [Card.joker(i) for i in range(jokers)]
    valid = meld_problem(Meld(MeldKind.SET, tuple(cards), rank), rules) is None
    rnd.shuffle(cards)
    assert (meld_problem(Meld(MeldKind.SET, tuple(cards), rank), rules) is None) == valid


@settings(max_examples=300, deadline=None, derandomize=True)
@given(hands, st.sampled_from(SHOE), st.sampled_from(PRESET_RULES), st.data())
def test_laying_off_on_a_run_gives_a_valid_run_or_a_reason(
    hand: list[Card], card: Card, rules: Ruleset, data: st.DataObject
) -> None:
    runs = [m for m in reference_melds(hand, {MeldKind.RUN}, rules) if card not in m.cards]
    if not runs:
        return
    run = data.draw(st.sampled_from(runs))
    fitting = lay_off_ends(run, card, rules)
    for end in ("low", "high"):
        try:
            grown = lay_off(run, card, end, rules)
        except ValueError:
            assert end not in fitting
            continue
        assert end in fitting
        assert meld_problem(grown, rules) is None
        assert len(grown.cards) == len(run.cards) + 1
        assert grown.low == run.low - (end == "low")


# -- the rules of RULES.md ---------------------------------------------------------------------------


def melds_of(arrangement: Arrangement) -> list[str]:
    return [str(m) for m in arrangement]


def assert_best_going_down(
    rules: Ruleset, deal: int, cards: str, shed: int, left: int | None, melds: list[str] | None
) -> None:
    """The value search sheds ``shed`` from the hand ``cards`` in ``deal`` (-1: no going-down), the least
    left is ``left``, and the best arrangement is ``melds``."""
    hand, contract = parse_cards(cards), rules.contract(deal)
    assert most_shed(hand, contract, rules, whole_hand=False) == shed
    assert best_leftover(hand, contract, rules) == left
    found = find_arrangements(hand, contract, rules)
    assert (melds_of(found[0]) if found else None) == melds


def test_a_set_that_takes_the_jokers_the_run_needs_gives_way_to_a_lighter_one() -> None:
    # RULES.md §2.2 standard contracts: deal 2 of 000 is a set and a run of four. The heaviest set, KD KS JK,
    # takes the one joker that 4C 5C 7C need for a run, so the value search must pass it over (no run is
    # left with no joker) and go on to the lighter 3D 3H 3S: 4C 5C JK 7C, 25 points left (KD KS 9H).
    assert_best_going_down(
        find_preset("liverpool"), 1, "KD KS 3H 3S 3D 4C 5C 7C JK 9H", 50, 25, ["set: 3D 3H 3S", "run: 4C 5C JK 7C"]
    )


def test_the_jokers_the_run_needs_bound_the_sets_listed_and_no_run_means_no_going_down() -> None:
    # RULES.md §2.2 standard contracts: a set and a run of four (000, deal 2). The run 4C 5C 7C needs one of the
    # two jokers, so a set may take the other: KD KS JK and 4C 5C JK#1 7C leave 9H. With no run to be had
    # (4C 6C 9C and one joker), the sets do not matter: no going-down.
    rules = find_preset("liverpool")
    assert_best_going_down(
        rules, 1, "KD KS 3H 3S 3D 4C 5C 7C JK JK#1 9H", 75, 20, ["set: KD KS JK", "run: 4C 5C JK#1 7C"]
    )
    assert_best_going_down(rules, 1, "KD KS KH 3H 3S 3D 4C 6C 9C JK 9H", -1, None, None)


def test_a_set_that_needs_the_joker_is_found_when_the_run_cannot_take_it() -> None:
    # RULES.md §3.7 joker limits and §3.6 laying more than the minimum: runs of naturals only (min naturals 4 of 4) and no longer melds, a house
    # table's. The run 4C 5C 6C 7C can take no joker, so the joker's 20 points go only with a set: AH AS JK
    # (50) beats KH KS KD (30), though their naturals weigh alike. The value search must bound the aces' sets
    # with the joker they may take, not by their naturals alone.
    rules = dataclasses.replace(find_preset("liverpool"), run_min_naturals=4, longer_melds=False)
    assert_best_going_down(rules, 1, "KH KS KD AH AS JK 4C 5C 6C 7C 9D", 70, 35, ["set: AH AS JK", "run: 4C 5C 6C 7C"])


def test_a_run_that_needs_the_joker_is_found_when_the_set_cannot_take_it() -> None:
    # RULES.md §3.7 joker limits and §3.6 laying more than the minimum: sets of naturals only (min naturals 3 of 3), no longer melds, at most one
    # joker in any two cards of a run (under which the value search chooses the run first). The sets can
    # take no joker, so its 20 points go only with a run: JK JD QD KD (50) beats any run of 2C to 8C (35
    # with the joker), though the clubs' naturals weigh more than the diamonds'. The run's suit must be
    # bounded with the joker it may take, not by its naturals alone.
    rules = dataclasses.replace(find_preset("liverpool"), set_min_naturals=3, longer_melds=False, run_joker_spacing=2)
    assert_best_going_down(
        rules, 1, "2C 3C 4C 5C 6C 7C 8C JD QD KD JK 9H 9S 9C 10H 10S 10C", 80, 50,
        ["set: 10C 10H 10S", "run: JK JD QD KD"],
    )  # fmt: skip


def test_two_sets_of_one_rank_need_distinct_ranks_only_where_000_says() -> None:
    # RULES.md §3.4 set constraints: sets of a contract must be different ranks (000)
    hand = parse_cards("7H 7S 7D 7C 7H#1 7S#1 KD 2C 9S 4H")
    assert can_meet(hand, find_preset("liverpool").contract(0), find_preset("liverpool"))
    assert not can_meet(hand, find_preset("may-i").contract(0), find_preset("may-i"))


def test_sets_of_distinct_suits_hold_at_most_four_cards() -> None:
    # RULES.md §3.4 set constraints: sets 3-4 cards, no two cards of one suit (001b)
    rules = find_preset("contract")
    assert not can_meet(parse_cards("7H 7H#1 7S 2C 3D 9S"), (MeldRule(MeldKind.SET, 3),), rules)
    best = find_arrangements(parse_cards("7H 7S 7D 7C JK 2C"), (MeldRule(MeldKind.SET, 3),), rules)[0]
    assert len(best[0].cards) == 4


def test_runs_of_a_contract_take_different_suits_where_000_and_001b_say() -> None:
    # RULES.md §3.5 run constraints: runs of a contract in different suits (000, 001b)
    hand = parse_cards("2H 3H 4H 5H 8H 9H 10H JH KS")
    contract = find_preset("may-i").contract(2)
    assert not can_meet(hand, contract, find_preset("may-i"))
    assert can_meet(hand, contract, find_preset("norsk"))


def test_runs_that_could_be_joined_may_not_be_laid_as_two() -> None:
    # RULES.md §3.5 run constraints: two runs that could be joined may not be laid as two (002)
    rules = find_preset("norsk")
    contract = rules.contract(2)
    assert not can_meet(parse_cards("3H 4H 5H 6H 7H 8H 9H 10H KS"), contract, rules)
    assert can_meet(parse_cards("3H 4H 5H 6H 8H 9H 10H JH KS"), contract, rules)
    assert can_meet(parse_cards("3H 4H 5H 6H 3H#1 4H#1 5H#1 6H#1 KS"), contract, rules)


def test_runs_of_three_where_001b_plays_them() -> None:
    # RULES.md §3.5 run constraints: min length 4 (most), 3 (001b)
    hand = parse_cards("4D 5D 6D 9C 9H 9S KC")
    assert can_meet(hand, find_preset("contract").contract(1), find_preset("contract"))
    assert not can_meet(hand, find_preset("liverpool").contract(1), find_preset("liverpool"))


def test_a_set_needs_two_naturals_and_a_run_three() -> None:
    # RULES.md §3.7 joker limits: set needs >= 2 naturals, run needs >= 3 naturals (001a, 002)
    rules = find_preset("liverpool")
    assert not can_meet(parse_cards("7H JK JK#1 2C"), (MeldRule(MeldKind.SET, 3),), rules)
    assert not can_meet(parse_cards("5H 6H JK JK#1 2C"), (MeldRule(MeldKind.RUN, 4),), rules)
    best = find_arrangements(parse_cards("5H 6H 7H JK JK#1 2C"), (MeldRule(MeldKind.RUN, 4),), rules)[0]
    assert len(best[0].cards) == 5


def test_one_joker_in_any_four_cards_of_a_british_run() -> None:
    # RULES.md §3.7 joker limits: at most one joker per 4-card segment (004)
    rules = find_preset("british")
    run7 = rules.contract(6)
    assert not can_meet(parse_cards("3S 5S 7S 8S 9S JK JK#1"), run7, rules)
    assert can_meet(parse_cards("3S 4S 5S JK 7S 8S 9S"), run7, rules)
    laid = find_arrangements(parse_cards("3S 4S 5S 7S 8S JK JK#1 9S KD"), run7, rules)[0][0]
    jokers = [i for i, c in enumerate(laid.cards) if c.is_joker]
    assert all(b - a >= 4 for a, b in itertools.pairwise(jokers))


def test_aces_low_or_high_but_no_wrap() -> None:
    # RULES.md §1.2: aces low (A-2-3-4) or high (J-Q-K-A), never both in one run, no wrap (K-A-2 is illegal)
    rules = find_preset("liverpool")
    run4 = (MeldRule(MeldKind.RUN, 4),)
    low = find_arrangements(parse_cards("AH 2H 3H 4H"), run4, rules)[0][0]
    high = find_arrangements(parse_cards("JH QH KH AH"), run4, rules)[0][0]
    assert (low.low, high.low, high.high) == (1, 11, 14)
    assert not can_meet(parse_cards("QH KH AH 2H 3H"), (MeldRule(MeldKind.RUN, 5),), rules)
    no_high = dataclasses.replace(rules, aces_high=False)
    assert not can_meet(parse_cards("JH QH KH AH"), run4, no_high)


def test_longer_melds_shed_more_and_may_be_forbidden() -> None:
    # RULES.md §3.6 laying more than the minimum: longer melds allowed, no extra melds (000, 004)
    rules = find_preset("may-i")
    hand = parse_cards("9C 9D 9H 9S KC KD KH 2S 3S")
    assert melds_of(find_arrangements(hand, rules.contract(0), rules)[0]) == ["set: 9C 9D 9H 9S", "set: KC KD KH"]
    assert best_leftover(hand, rules.contract(0), rules) == 5
    exact = dataclasses.replace(rules, longer_melds=False)
    assert best_leftover(hand, rules.contract(0), exact) == 14


def test_the_final_deal_melds_the_whole_hand() -> None:
    # RULES.md §3.20 final deal: contract must use the whole hand, no discard (000, 001a: "3 runs and out")
    rules = find_preset("may-i")
    contract = rules.contract(6)
    hand = parse_cards("2C 3C 4C 5C 6D 7D 8D 9D JK JS QS KS")
    assert rules.final_deal is FinalDeal.WHOLE_HAND
    assert can_meet(hand, contract, rules, whole_hand=True)
    assert not can_meet([*hand, Card.parse("5H")], contract, rules, whole_hand=True)
    assert can_meet([*hand, Card.parse("5H")], contract, rules)
    laid = find_arrangements(hand, contract, rules, whole_hand=True)[0]
    assert sum(len(m.cards) for m in laid) == len(hand)


def test_the_british_final_deal_is_one_run_of_seven() -> None:
    # RULES.md §2.7: deal 7 = 1 run of 7 (004)
    rules = find_preset("british")
    assert best_leftover(parse_cards("6D 7D 8D 9D 10D JD QD KS"), rules.contract(6), rules) == 10
    assert not can_meet(parse_cards("6D 7D 8D 9D 10D JD KD KS"), rules.contract(6), rules)


def test_a_card_must_be_kept_to_discard() -> None:
    # RULES.md §3.18 going out: by discarding the last card; going down may not empty the hand
    rules = find_preset("may-i")
    hand = parse_cards("7H 7S 7D 9C 9S 9D")
    assert can_meet(hand, rules.contract(0), rules)
    assert not can_meet(hand, rules.contract(0), rules, keep=1)


def test_copies_are_interchangeable_and_the_lowest_are_laid() -> None:
    # RULES.md §3.2 decks / jokers: several standard decks (with their jokers) are shuffled together
    rules = find_preset("liverpool")
    one_set = (MeldRule(MeldKind.SET, 3),)
    laid = find_arrangements(parse_cards("7H#2 7H#1 7S 7D#1 7D 2C"), one_set, rules)
    assert [str(c) for c in laid[0][0].cards] == ["7D", "7D#1", "7H#1", "7H#2", "7S"]
    contract = find_preset("contract")
    hand = parse_cards("7H#1 7H 7S 7D 2C")
    assert [str(c) for c in find_arrangements(hand, one_set, contract, limit=1)[0][0].cards] == ["7D", "7H", "7S"]
    chosen = find_arrangements(hand, one_set, contract, must_include=Card.parse("7H#1"), limit=1)[0][0]
    assert [str(c) for c in chosen.cards] == ["7D", "7H#1", "7S"]


def test_jokers_of_a_run_stand_where_they_are_laid() -> None:
    rules = find_preset("liverpool")
    found = find_arrangements(parse_cards("5H 6H 7H JK"), (MeldRule(MeldKind.RUN, 4),), rules)
    assert sorted(melds_of(a)[0] for a in found) == ["run: 5H 6H 7H JK", "run: JK 5H 6H 7H"]
    assert {a[0].low for a in found} == {4, 5}


def test_malformed_and_impossible_questions() -> None:
    rules = find_preset("liverpool")
    hand = parse_cards("7H 7S 7D")
    assert not can_meet(hand, rules.contract(0)[:1], rules, must_include=Card.parse("KS"))
    assert can_meet(hand, rules.contract(0)[:1], rules, must_include=Card.parse("7S"))
    with pytest.raises(ValueError, match="twice"):
        best_leftover([*hand, Card.parse("7H")], rules.contract(0), rules)
    with pytest.raises(ValueError, match="limit"):
        find_arrangements(hand, rules.contract(0), rules, limit=0)
    assert find_arrangements(hand, (), rules) == [()]
    assert best_leftover(hand, (), rules, keep=4) is None


@pytest.mark.parametrize("seed", range(60))
def test_several_runs_of_one_suit_are_shed_as_much_as_the_best_arrangement(seed: int) -> None:
    # A contract of runs alone that may share a suit: most_shed reads bounds of each suit's table (its one run
    # below, its runs as that many best single runs above) and makes the table only when they differ where
    # it reads them; here the hands are of one or two suits with many jokers, where two runs of one suit shed
    # most. Against the depth-first search (find_arrangements).
    rng = random.Random(seed)
    rules = find_preset(rng.choice(["norsk", "liverpool", "british"]))
    # (norsk's runs that could be one are not the tables' to answer: its runs laid end to end are)
    touching = JoinableRuns.TOUCHING if rules.joinable_runs is JoinableRuns.COULD_JOIN else rules.joinable_runs
    rules = dataclasses.replace(rules, run_distinct_suits=False, joinable_runs=touching)
    contract = tuple(MeldRule(MeldKind.RUN, 4) for _ in range(rng.choice([2, 2, 3])))
    suits = rng.sample("CDHS", rng.choice([1, 2]))
    naturals = [c for c in make_shoe(2, 0) if c.suit in suits]
    jokers = rng.randint(2, 4)
    hand = [*rng.sample(naturals, rng.randint(9, 14)), *(Card.joker(copy) for copy in range(jokers))]
    found = find_arrangements(hand, contract, rules, limit=1)
    total = sum(rules.value(c) for c in hand)
    assert most_shed(hand, contract, rules, False) == (total - penalty_left(hand, found[0], rules) if found else -1)


# -- the walk's fast paths against plain ones ---------------------------------------------------------


def plain_bound(walk: Walk, depth: int, left: int, blocked: int) -> int:
    """What ``Walk.bound`` answers, computed plainly (every family's fitting candidates listed)."""
    best = naturals = needed = most = 0
    for group in walk.open_below[depth]:
        wanted, distinct = group.slots, group.distinct
        scores, gains, fewest, mosts = [], [], [], []
        for family in group.families:
            if family.bit & blocked:
                continue
            fits = [
                e[0] for e in family.entries[:SCAN] if not e[3] & blocked and (left - e[2]) & walk.guard == walk.guard
            ]
            score = fits[0] if fits else (family.entries[SCAN][0] if len(family.entries) > SCAN else -1)
            if score < 0:
                continue
            scores.append(score)
            fewest.append(family.fewest_jokers)
            mosts.append(family.most_jokers)
            nat, cap = family.best_naturals, family.naturals
            if distinct:
                gains.append(nat)
            else:
                gains += [min(k * nat, cap) - min((k - 1) * nat, cap) for k in range(1, wanted + 1)]
        if len(scores) < (wanted if distinct else 1):
            return -1
        if walk.single[depth]:
            return max(scores)
        gains.sort(reverse=True)
        naturals += sum(gains[:wanted])
        if distinct:
            best += sum(sorted(scores, reverse=True)[:wanted])
            needed += sum(sorted(fewest)[:wanted])
            most += sum(sorted(mosts, reverse=True)[:wanted])
        else:
            best += wanted * max(scores)
            needed += wanted * min(fewest)
            most += wanted * max(mosts)
    jokers_left = (left >> walk.joker_shift) & walk.field
    if needed > jokers_left:
        return -1
    return min(best, naturals + walk.joker_weight * min(jokers_left, most))


def plain_lists(search: _Search, mode: int) -> list[list[tuple[int, list[Any], list[int]]]]:
    """What ``_Search._lists`` answers, built plainly (copies of the one list of each slot)."""
    pool = search.pool
    joker_shift = JOKER_FACE * pool.packing.width
    distinct = mode != TOP and bool(pool.counts[JOKER_FACE])
    by_order = mode != FEASIBLE or bool(search.base_need)
    out = []
    for slot in search.slots:
        shortest = min(s.length for s in search.slots if s.kind is slot.kind)
        ordered = by_order and any(
            search._chain(d) == BY_ORDER and s.kind is slot.kind and s.length == slot.length
            for d, s in enumerate(search.slots)
        )
        families = []
        for family in pool.families[slot.kind]:
            entries = family.entries
            if not search.longer_melds:
                entries = [e for e in entries if e[1] == slot.length]
            elif slot.length > shortest:
                entries = [e for e in entries if e[1] >= slot.length]
            if distinct and slot.kind is MeldKind.RUN:
                firsts = {e[2:5]: e for e in reversed(entries)}.values()
                entries = sorted(firsts, key=lambda e: e[5])
            if mode == FEASIBLE and not search.base_need and len(entries) > 1:
                entries = sorted(entries, key=lambda e: (e[2] >> joker_shift, e[1], e[5]))
            if entries:
                families.append((family.bit, entries, [e[5] for e in entries] if ordered else []))
        families.sort(key=lambda f: -f[1][0][0])
        out.append(families)
    return out


@pytest.mark.parametrize("seed", range(3))
def test_the_walk_lists_and_bounds_as_plainly_computed(seed: int) -> None:
    # The slot lists skip the orders the walk never bisects and pick one candidate of each use for yes-or-no
    # questions in a single pass; the bound keeps lists only where several best count. Each must answer as the
    # plain computation does, at every depth and for hands partly melded.
    rng = random.Random(f"walk fast paths {seed}")
    bounded = 0
    for _ in range(120):
        rules = random_ruleset(rng) if rng.random() < 0.6 else rng.choice(list(PRESETS.values()))
        deal = rng.randrange(len(rules.deals))
        q = question(rng, rules, deal)
        cards = tuple(q.hand)
        whole = rng.random() < 0.2
        search = _Search.build(cards, q.contract, rules, whole, 0, None)
        for mode in (FEASIBLE, BEST, TOP):
            assert search._lists(mode) == plain_lists(search, mode), (rules, q, mode)
        walk = search.walk(TOP, 8)
        every = [e for families in search.pool.families.values() for f in families for e in f.entries]
        for kind, families in search.pool.families.items():
            for family in families:  # untagged, the walk tests a family's bit for each candidate's tag
                assert family.tagged or all(e[3] == family.bit for e in family.entries)
                touching = rules.joinable_runs is JoinableRuns.TOUCHING
                assert family.tagged == (kind is MeldKind.RUN and touching)
        touching = rules.joinable_runs is JoinableRuns.TOUCHING
        assert walk.tagged == [slot.kind is MeldKind.RUN and touching for slot in search.slots]
        could_join = rules.joinable_runs is JoinableRuns.COULD_JOIN and not rules.run_distinct_suits
        assert walk.joins == [slot.kind is MeldKind.RUN and could_join for slot in search.slots]
        for depth in range(len(search.slots)):
            for _ in range(4):
                left, blocked = search.pool.start | search.pool.packing.guard, 0
                for e in rng.sample(every, min(len(every), rng.randrange(3))):
                    if (left - e[2]) & walk.guard == walk.guard:
                        left, blocked = left - e[2], blocked | e[4]
                want = plain_bound(walk, depth, left, blocked)
                assert walk.bound(depth, left, blocked) == want, (rules, q, depth)
                bounded += want > 0
    assert bounded > 200
