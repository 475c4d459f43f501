"""The fast contract search where runs that could be laid as one may not be laid apart (RULES.md §3 run
constraints, 002: "Det er ikke lov å dele opp kombinasjoner som kunne vært lagt sammen"; ``joinable_runs =
could_join``, norsk).

``best_leftover`` answers such contracts from the value search's tables (``most_shed`` with ``joins``), which
test each pair of runs of a suit they lay: in a suit's table of several runs (``candidate_steps``) and when
the runs are chosen before the sets (``_choose``). Here it is checked against a brute force over every
combination of melds, each arrangement judged by ``contract_problem`` (the rule as validation reads it), and
against the arrangement search (``find_arrangements``), on one- and two-suit hands where the rule changes
the answer.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from liverpool.engine.cards import JOKER_FACE, Card, make_shoe
from liverpool.engine.melds import Meld, contract_problem, meld_problem
from liverpool.engine.rules.parts import JoinableRuns, MeldKind, MeldRule
from liverpool.engine.rules.presets import find_preset
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.search import best_leftover, find_arrangements
from liverpool.engine.search import tables as search_tables
from liverpool.engine.search.value import most_shed

NORSK = find_preset("norsk")
RUN4 = MeldRule(MeldKind.RUN, 4)
SET3 = MeldRule(MeldKind.SET, 3)


def brute_leftover(hand: list[Card], contract: tuple[MeldRule, ...], rules: Ruleset) -> int | None:
    """The least penalty left by any choice of melds of ``hand`` that ``contract_problem`` accepts."""
    melds = _melds(hand, {rule.kind for rule in contract}, rules)
    needs = [Counter(card.face for card in meld.cards) for meld in melds]
    total = sum(rules.value(card) for card in hand)
    best = None
    for combo in _choices(melds, needs, len(contract), 0, Counter(card.face for card in hand)):
        copies = {
            face: sorted(c for c in hand if c.face == face) for meld in combo for face in (c.face for c in meld.cards)
        }
        laid = [Meld(m.kind, tuple(copies[c.face].pop(0) for c in m.cards), m.low) for m in combo]
        if contract_problem(laid, contract, rules) is not None:
            continue
        left = total - sum(rules.value(card) for meld in laid for card in meld.cards)
        if best is None or left < best:
            best = left
    return best


def _choices(
    melds: list[Meld], needs: list[Counter[int]], count: int, start: int, held: Counter[int]
) -> Iterator[tuple[Meld, ...]]:
    """Every choice of ``count`` of ``melds`` from ``start`` on (one may come twice) that ``held`` can hold."""
    if not count:
        yield ()
        return
    for i in range(start, len(melds)):
        if all(held[face] >= n for face, n in needs[i].items()):
            for rest in _choices(melds, needs, count - 1, i, held - needs[i]):
                yield (melds[i], *rest)


def _melds(hand: list[Card], kinds: set[MeldKind], rules: Ruleset) -> list[Meld]:
    """Every valid meld of ``kinds`` the faces of ``hand`` make, once by faces (the lowest copies)."""
    by_face: dict[int, list[Card]] = {}
    for card in sorted(hand):
        by_face.setdefault(card.face, []).append(card)
    jokers = by_face.get(JOKER_FACE, [])
    out = []
    if MeldKind.SET in kinds:
        for rank in range(1, 14):
            faces = [face for face in range(rank - 1, JOKER_FACE, 13) if face in by_face]
            for counts in itertools.product(*(range(len(by_face[face]) + 1) for face in faces)):
                naturals = [c for face, k in zip(faces, counts, strict=True) for c in by_face[face][:k]]
                for j in range(len(jokers) + 1):
                    meld = Meld(MeldKind.SET, (*naturals, *jokers[:j]), rank)
                    if naturals and meld_problem(meld, rules) is None:
                        out.append(meld)
    if MeldKind.RUN in kinds:
        for suit in range(4):
            for low in range(1, 15):
                for size in range(3, min(13, 15 - low) + 1):
                    faces = [suit * 13 + (rank - 1) % 13 for rank in range(low, low + size)]
                    absent = {i for i, face in enumerate(faces) if face not in by_face}
                    present = [i for i, face in enumerate(faces) if face in by_face]
                    for extra in range(len(jokers) - len(absent) + 1):
                        for wild in itertools.combinations(present, extra):
                            spare = iter(jokers)
                            places = absent | set(wild)
                            cards = tuple(next(spare) if i in places else by_face[f][0] for i, f in enumerate(faces))
                            meld = Meld(MeldKind.RUN, cards, low)
                            if meld_problem(meld, rules) is None:
                                out.append(meld)
    return out


def walk_leftover(
    hand: list[Card], contract: tuple[MeldRule, ...], rules: Ruleset, whole_hand: bool = False, keep: int = 0
) -> int | None:
    """The least penalty left by the arrangement search's best arrangement (0 when the whole hand goes)."""
    found = find_arrangements(hand, contract, rules, whole_hand=whole_hand, keep=keep, limit=1)
    if not found:
        return None
    used = {card for meld in found[0] for card in meld.cards}
    return 0 if whole_hand else sum(rules.value(card) for card in hand if card not in used)


def one_suit_hand(rng: random.Random, size: int, jokers: int, suits: int = 1) -> list[Card]:
    """Naturals of one or two suits (two decks) and some jokers: where runs of one suit could be one run."""
    chosen = rng.sample("CDHS", suits)
    naturals = [card for card in make_shoe(2, 0) if card.suit in chosen]
    return [*rng.sample(naturals, size - jokers), *(Card.joker(copy) for copy in range(jokers))]


def hands_where_joins_matter(
    rules: Ruleset, contract: tuple[MeldRule, ...], count: int, seed: str, size: int, suits: int = 1
) -> list[list[Card]]:
    """``count`` seeded hands whose least penalty differs once runs that could be one may be laid apart (by the
    arrangement search, which does not read the tables)."""
    rng = random.Random(seed)
    apart = dataclasses.replace(rules, joinable_runs=JoinableRuns.ALLOWED)
    out = []
    while len(out) < count:
        hand = one_suit_hand(rng, size, rng.randint(1, 3), suits)
        if walk_leftover(hand, contract, rules) != walk_leftover(hand, contract, apart):
            out.append(hand)
    return out


SPACED = dataclasses.replace(NORSK, run_joker_spacing=2)  # (under joker spacing the runs are chosen first)
CASES = [
    ("two runs, a suit's table", NORSK, (RUN4, RUN4), 1),
    ("a set and two runs", NORSK, (SET3, RUN4, RUN4), 2),
    ("a set and two runs, runs chosen first", SPACED, (SET3, RUN4, RUN4), 2),
]


@pytest.mark.parametrize(("name", "rules", "contract", "suits"), CASES, ids=[case[0] for case in CASES])
def test_the_fast_search_keeps_runs_that_could_be_one_together(
    name: str, rules: Ruleset, contract: tuple[MeldRule, ...], suits: int
) -> None:
    # On hands where the rule changes the least penalty, best_leftover (the tables, which answer these
    # contracts: most_shed with joins) and the arrangement search must both give the brute force's answer.
    for hand in hands_where_joins_matter(rules, contract, 12, name, 11, suits):
        want = brute_leftover(hand, contract, rules)
        assert most_shed(hand, contract, rules, False, joins=True) is not None
        assert best_leftover(hand, contract, rules) == want, (name, " ".join(map(str, hand)))
        assert walk_leftover(hand, contract, rules) == want, (name, " ".join(map(str, hand)))


def test_three_runs_of_one_suit_match_the_arrangement_search() -> None:
    # Norsk's last deal but one, three runs of four: too many combinations for the brute force, so against
    # the arrangement search (which tests each run against those before it as it lays them), whole hand or not.
    contract = (RUN4, RUN4, RUN4)
    rng = random.Random("three runs")
    differ = 0
    for hand in hands_where_joins_matter(NORSK, contract, 25, "three runs", 15):
        whole = rng.random() < 0.2
        keep = 0 if whole else rng.choice([0, 0, 1, 2])
        want = walk_leftover(hand, contract, NORSK, whole, keep)
        got = best_leftover(hand, contract, NORSK, whole_hand=whole, keep=keep)
        assert got == want, (" ".join(map(str, hand)), whole, keep)
        differ += want is not None
    assert differ > 5


def test_the_tables_answer_where_runs_could_join_only_when_asked() -> None:
    # most_shed keeps its answer for callers that do not ask for the rule (None: the tables do not say it),
    # and answers with it when asked, as best_leftover does.
    hand = one_suit_hand(random.Random(3), 12, 2)
    contract = (RUN4, RUN4)
    assert most_shed(hand, contract, NORSK, False) is None
    assert most_shed(hand, contract, NORSK, False, joins=True) is not None


def test_the_checks_catch_a_search_that_ignores_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    # With the tables' test of two runs broken (no pair joins), the hands above must show it: the tables
    # then lay apart runs that could be one and leave less than the brute force.
    monkeypatch.setattr(search_tables.RunJoins, "any_joins", lambda self, key, chosen: False)
    wrong = 0
    for name, rules, contract, suits in CASES:
        for hand in hands_where_joins_matter(rules, contract, 8, name, 11, suits):
            wrong += best_leftover(hand, contract, rules) != brute_leftover(hand, contract, rules)
    assert wrong > 8
