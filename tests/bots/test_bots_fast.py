"""The bots' fast paths give what the plain ones give: needs found without building a plan, options sorted by type."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from helpers import rule_variants

import liverpool.bots.plan as plan_module
import liverpool.bots.plan_setup as plan_setup_module
import liverpool.bots.plan_whole as plan_whole_module
import liverpool.bots.table as table_module
from liverpool.bots.easy import EasyBot, _shed_key, _shed_order, unused_cards, used_counts
from liverpool.bots.options import Options, buys_and_passes
from liverpool.bots.plan import HeldNeed, Plan, plan_hand, plan_need, plan_use
from liverpool.bots.plan_setup import setup_of
from liverpool.bots.plan_whole import plan_whole_runs, whole_runs_need, whole_runs_use
from liverpool.bots.registry import make_bot
from liverpool.bots.table import face_values, need_of, plan_memo, plan_of, whole_hand
from liverpool.engine._speed.bits import BITS
from liverpool.engine.actions import Action, DrawStock, Pass
from liverpool.engine.cards import JOKER_FACE, Card, make_shoe
from liverpool.engine.game.legal import acting_seats, legal_actions
from liverpool.engine.observe import Observation, observe
from liverpool.engine.play import run_game
from liverpool.engine.rules.parts import DealOut, MeldKind, MeldRule
from liverpool.engine.rules.presets import PRESETS
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import GameState


def _random_hands(name: str, tag: str, count: int = 150) -> Iterator[tuple[Ruleset, tuple[MeldRule, ...], list[Card]]]:
    """``count`` seeded hands of 0 to 16 cards from the largest shoe of variant ``name``, for each of its deals."""
    rules = rule_variants()[name]
    rng = random.Random(f"{tag}:{name}")
    shoe = make_shoe(rules.decks[-1].decks, rules.decks[-1].jokers)
    for deal in range(len(rules.deals)):
        contract = rules.contract(deal)
        for _ in range(count):
            yield rules, contract, rng.sample(shoe, rng.randint(0, 16))


@pytest.mark.parametrize("name", sorted(rule_variants()))
def test_need_only_matches_the_plan(name: str) -> None:
    for rules, contract, hand in _random_hands(name, "need"):
        for keep in (6, 2):
            assert plan_need(hand, contract, rules, keep) == plan_hand(hand, contract, rules, keep=keep).need
        if all(rule.kind is MeldKind.RUN for rule in contract):
            for size in (None, len(hand), len(hand) + 1, len(hand) + 3, 3):
                assert (
                    whole_runs_need(hand, contract, rules, size)
                    == plan_whole_runs(hand, contract, rules, size=size).need
                )


@pytest.mark.parametrize("preset", ["liverpool", "british", "may-i"])
def test_need_of_matches_plan_of_in_games(preset: str) -> None:
    rules = PRESETS[preset]

    def before(state: GameState, action: object) -> None:
        observation = observe(state, state.current)
        hand = list(observation.hand)
        for size in (None, len(hand), len(hand) + 1, len(hand) + 3):
            for rest in [hand, *([c for c in hand if c != card] for card in hand[:5])]:
                need = need_of(observation, rest, size)  # not memoised as a plan yet (or memoised)
                plan_memo(observation.contract, rules).clear()
                assert need == plan_of(observation, rest, size=size).need
                assert need_of(observation, rest, size) == need  # now read off the memoised plan

    run_game(rules, [make_bot("easy") for _ in range(4)], random.Random(11), before=before)


def _by_match(options: list[Action]) -> Options:
    out = Options()
    for a in options:
        out._add(a)
    return out


@dataclass(frozen=True, slots=True)
class _Stock(DrawStock):
    """A subclass of an action: sorted by ``match``, as before."""


@dataclass(frozen=True, slots=True)
class _Pass(Pass):
    """A subclass of a pass: sorted by ``match`` too."""


@pytest.mark.parametrize("preset", ["liverpool", "british"])
def test_options_are_sorted_as_by_match(preset: str) -> None:
    seen = 0

    def check(observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        nonlocal seen
        shuffled = [*options, _Stock(0)]
        rng.shuffle(shuffled)
        for listed in (options, shuffled, [*options, _Pass(0)]):
            assert Options.of(listed) == _by_match(listed)
            assert buys_and_passes(listed) == (_by_match(listed).buys, _by_match(listed).passes)
        seen += 1
        return bot(observation, options, rng)

    bot = make_bot("easy")
    run_game(PRESETS[preset], [check for _ in range(4)], random.Random(2))
    assert seen > 100


@pytest.mark.parametrize("name", sorted(rule_variants()))
def test_face_values_are_the_rules_values(name: str) -> None:
    rules = rule_variants()[name]
    values = face_values(rules)
    assert face_values(rules) is values
    for card in make_shoe(2, 4):
        assert values[card & 63] == rules.value(card)
        assert (card & 63 == JOKER_FACE) == card.is_joker


@pytest.mark.parametrize("name", sorted(rule_variants()))
def test_shared_partials_are_the_partials_built(name: str) -> None:
    """Plans share the partials built before (kept per slot, and per window in whole-hand runs): the
    same plans as when every partial is built afresh."""
    rules = rule_variants()[name]
    rng = random.Random(f"partials:{name}")
    shoe = make_shoe(rules.decks[-1].decks, rules.decks[-1].jokers)

    def fresh() -> None:
        for setup in [c[2] for c in plan_setup_module.CONTRACTS.values()]:
            for slot in setup.slots:
                slot.partials.clear()
        plan_whole_module._PARTIALS.clear()
        plan_whole_module._SUIT_WINDOWS.clear()

    for deal in range(len(rules.deals)):
        contract = rules.contract(deal)
        runs_only = all(rule.kind is MeldKind.RUN for rule in contract)
        hands = [rng.sample(shoe, rng.randint(0, 16)) for _ in range(120)]
        for live in (None, [rng.randint(0, 3) for _ in range(53)]):
            for whole in (False, True):
                kept = [plan_hand(hand, contract, rules, live=live, whole_hand=whole) for hand in hands]
                kept += [plan_hand(hand, contract, rules, live=live, whole_hand=whole) for hand in hands]
                if runs_only:
                    kept += [plan_whole_runs(hand, contract, rules, live=live) for hand in hands * 2]
                built = []
                for hand in hands * 2:
                    fresh()
                    built.append(plan_hand(hand, contract, rules, live=live, whole_hand=whole))
                if runs_only:
                    for hand in hands * 2:
                        fresh()
                        built.append(plan_whole_runs(hand, contract, rules, live=live))
                assert kept == built
                assert [repr(p) for p in kept] == [repr(p) for p in built]


def _unused_by_removal(hand: list[Card], plan: Plan) -> set[Card]:
    """:func:`unused_cards` as first written: remove, for each face the plan uses, its first copy left."""
    spare = list(hand)
    for face in plan.used_faces():
        for i, card in enumerate(spare):
            if card & 63 == face:
                del spare[i]
                break
    return set(spare)


@pytest.mark.parametrize("name", ["liverpool", "british", "distinct"])
def test_unused_cards_counts_as_the_removal_did(name: str) -> None:
    rules = rule_variants()[name]
    rng = random.Random(f"unused:{name}")
    shoe = make_shoe(2, 4)
    for deal in range(len(rules.deals)):
        contract = rules.contract(deal)
        for _ in range(200):
            hand = rng.sample(shoe, rng.randint(0, 16))
            for whole in (False, True):
                plan = plan_hand(hand, contract, rules, whole_hand=whole)
                assert unused_cards(hand, plan) == _unused_by_removal(hand, plan)


def test_shed_order_is_the_sort_by_tuples() -> None:
    """The discards sorted by packed int keys (ties in listed order) as by the tuple keys, and values out
    of the packable range refused (the caller then sorts by tuples)."""
    rng = random.Random("shed")
    shoe = make_shoe(2, 4)
    for n in (0, 1, 5, 12, 64, 65, 90):
        for _ in range(50):
            cards = rng.sample(shoe * 2, n)
            triples = [
                (rng.random() < 0.5, rng.random() < 0.2, rng.choice([0, 5, 10, 15, 50, -3, 131071])) for _ in cards
            ]
            keys = [_shed_key(*t) for t in triples]
            assert -1 not in keys
            expected = [
                c for c, _ in sorted(zip(cards, triples, strict=True), key=lambda ct: (ct[1][0], ct[1][1], -ct[1][2]))
            ]
            assert _shed_order(cards, keys) == expected
    assert _shed_key(False, False, 1 << 17) == -1
    assert _shed_key(True, True, -(1 << 17)) == -1


def _whole(observation: Observation) -> bool:
    """Whether the deal is whole-hand, read afresh (not from what ``table`` keeps)."""
    rules = observation.rules
    return rules.deal_out(observation.deal) is DealOut.WHOLE_HAND


def test_need_of_follows_the_deal_asked_about() -> None:
    """``need_of`` keeps what it read of the last deal asked about: asking about seats of three games in
    turn, each right after the same contract in another deal or under other rules, gives what planning
    each hand afresh gives."""
    moments: list[Observation] = []

    def keep(state: GameState, action: object) -> None:
        if state.turn % 3 == 0:
            moments.append(observe(state, state.current))

    for preset, seed in (("liverpool", 5), ("british", 6), ("may-i", 7)):
        run_game(PRESETS[preset], [make_bot("easy") for _ in range(4)], random.Random(seed), before=keep)
    rng = random.Random("deals")
    rng.shuffle(moments)
    assert any(_whole(o) for o in moments)
    asked: list[Observation] = []
    for observation in moments:  # each right after the same contract tuple in another deal or under other rules
        asked.append(observation)
        if _whole(observation):
            asked.append(dataclasses.replace(observation, deal=0))
        asked.append(
            dataclasses.replace(
                observation, rules=dataclasses.replace(observation.rules, aces_low=False, set_distinct_suits=True)
            )
        )
    for observation in asked:
        hand = list(observation.hand)
        rules, contract = observation.rules, observation.contract
        whole = _whole(observation)
        assert whole_hand(observation) is whole
        for size in (None, len(hand) + 1):
            if not whole:
                expected = plan_hand(hand, contract, rules).need
            elif all(rule.kind is MeldKind.RUN for rule in contract):
                expected = plan_whole_runs(hand, contract, rules, size=size).need
            else:
                expected = plan_hand(hand, contract, rules, whole_hand=True).need
            assert need_of(observation, hand, size) == expected
            assert plan_of(observation, hand, size=size).need == expected


def _slow_search(hand: list[Card], contract: tuple[MeldRule, ...], rules: Ruleset, keep: int) -> plan_module._Search:
    """The search of ``plan_hand`` without unseen counts as :meth:`_Search.visit` does it (a list of
    faces per partial), not :meth:`_Search.visit_need` with ``paths``."""
    setup = setup_of(contract, rules)
    counts, lists = setup.candidates(hand, keep)
    jokers = counts[JOKER_FACE]
    floor = [0] * (len(lists) + 1)
    for i in range(len(lists) - 1, -1, -1):
        floor[i] = floor[i + 1] + (lists[i][0] >> 10)
    search = plan_module._Search(setup.slots, lists, floor, counts, jokers, len(hand) - jokers, None, False, 1, True)
    if setup.slots:
        search.visit(0, 0, 0, 0, 0)
    else:
        search.leaf(0, 0)
    return search


@pytest.mark.parametrize("name", sorted(rule_variants()))
def test_tracked_search_on_one_stack_keeps_the_plan_of_the_list_search(name: str) -> None:
    for rules, contract, hand in _random_hands(name, "tracked"):
        for keep in (6, 2):
            fast = plan_module._search(hand, setup_of(contract, rules), None, False, keep, True)
            slow = _slow_search(hand, contract, rules, keep)
            assert fast.best_need == slow.best_need
            assert fast.best == slow.best


def test_memo_keys_tell_hands_and_sizes_apart() -> None:
    """The memo key of a hand's faces is one-to-one with ``(whole, size if whole else None, faces)``, the
    key it replaces (so no two hands, or sizes of a whole-hand deal, share a memo entry)."""
    rng = random.Random("keys")
    shoe = make_shoe(2, 4)
    cases = set()
    for _ in range(3000):
        faces = sorted(c & 63 for c in rng.sample(shoe, rng.randint(0, 16)))
        whole = rng.random() < 0.5
        size = rng.choice([None, -1, 0, 1, len(faces), len(faces) + 1, 190, 191, 300])
        cases.add((whole, size if whole else None, tuple(faces)))
    keys = {table_module._key(whole, size, list(faces)) for whole, size, faces in cases}
    assert len(keys) == len(cases)


def test_easy_gains_answers_as_gain() -> None:
    """``EasyBot.gains`` (which keeps the seat's hand and its need between questions) answers as
    ``gain(...) > 0`` does: one bot asked in turn about many seats, moments, deals and rules, about the
    card on the pile and others, for taking and for buying."""
    moments: list[Observation] = []

    def keep(state: GameState, action: object) -> None:
        if state.turn % 2 == 0:
            for seat in range(len(state.hands)):
                moments.append(observe(state, seat))

    for preset, seed in (("liverpool", 5), ("british", 6), ("may-i", 7), ("norsk", 8)):
        run_game(PRESETS[preset], [make_bot("easy") for _ in range(4)], random.Random(seed), before=keep)
    rng = random.Random("gains")
    asked: list[Observation] = []
    for observation in moments:  # runs of the same hand, broken by other deals, rules and seats
        asked.append(observation)
        if rng.random() < 0.1:
            asked.append(dataclasses.replace(observation, deal=0))
        if rng.random() < 0.1:
            asked.append(dataclasses.replace(observation, rules=dataclasses.replace(observation.rules, aces_low=False)))
    whole = [o for o in asked if _whole(o) and all(rule.kind is MeldKind.RUN for rule in o.contract)]
    assert whole
    for observation in whole[:40]:  # hands a card or two from their whole-hand runs, where needs are near 0
        hand = [
            Card.make(suit * 13 + rank % 13, 1)
            for suit, rule in enumerate(observation.contract)
            for rank in range(2, 2 + rule.length + rng.randint(0, 1))
        ]
        for _ in range(rng.randint(1, 2)):
            hand.remove(rng.choice(hand))
        asked.append(dataclasses.replace(observation, hand=tuple(hand)))
    bot, plain = EasyBot(), EasyBot()
    shoe = make_shoe(2, 4)
    answers = set()
    for observation in asked:
        if not observation.hand:
            continue
        cards = rng.sample(shoe, 3) if not _whole(observation) else list(make_shoe(1, 1))  # every face (needs near 0)
        if observation.top_discard is not None:
            cards.append(observation.top_discard)
        for card in cards:
            for extra in (0, 1, 2):
                assert bot.gains(observation, card, extra) is (plain.gain(observation, card, extra) > 0)  # gains first
                answers.add(plain.gain(observation, card, extra) > 0)
        if not _whole(observation):  # what gains leaves in the memo is the need
            hand = [*observation.hand, cards[0]]
            assert need_of(observation, hand) == plan_hand(hand, observation.contract, observation.rules).need
    assert answers == {True, False}


@pytest.mark.parametrize("name", sorted(rule_variants()))
def test_plan_use_is_the_plans_need_and_faces(name: str) -> None:
    """``plan_use`` gives the need of ``plan_hand`` and the faces its plan uses, jokers included."""
    for rules, contract, hand in _random_hands(name, "use"):
        for keep in (6, 2):
            plan = plan_hand(hand, contract, rules, keep=keep)
            need, used = plan_use(hand, contract, rules, keep)
            assert need == plan.need
            assert used == used_counts(plan)
            assert sorted(face for face in range(len(used)) for _ in range(used[face])) == sorted(plan.used_faces())


class _Plain(EasyBot):
    """The easy bot through the hooks (a subclass takes none of its own fast paths)."""


@pytest.mark.parametrize("preset", ["liverpool", "british", "may-i", "norsk"])
def test_easy_bot_decides_as_through_the_hooks(preset: str) -> None:
    """The easy bot ranks every option of every decision as the same bot through its hooks does."""
    fast, plain = EasyBot(), _Plain()
    checked = [0]

    def before(state: GameState, action: object) -> None:
        for seat in acting_seats(state):
            observation = observe(state, seat)
            options = legal_actions(state, seat)
            if options:
                assert fast.rank(observation, options) == plain.rank(observation, options)
                checked[0] += 1

    run_game(PRESETS[preset], [make_bot("easy") for _ in range(5)], random.Random(21), before=before)
    assert checked[0] > 100


@pytest.mark.parametrize("name", sorted(rule_variants()))
def test_need_below_a_bound_is_the_least_of_the_two(name: str) -> None:
    """``plan_need`` with ``below`` gives the need when it is under ``below``, else ``below``."""
    for rules, contract, hand in _random_hands(name, "below", 100):
        need = plan_need(hand, contract, rules)
        for below in range(0, 8):
            assert plan_need(hand, contract, rules, below=below) == min(need, below)


@pytest.mark.parametrize("name", sorted(rule_variants()))
def test_need_with_a_card_is_the_need_of_the_grown_hand(name: str) -> None:
    """``HeldNeed.need_with`` gives ``plan_need`` of the hand plus the card, for every face and bound;
    when ``ContractSetup.leaves`` says a card leaves the search as it was, the grown hand's candidate
    lists are the hand's and none of them holds the card's face."""
    left = 0
    for rules, contract, hand in _random_hands(name, "with", 60):
        for keep in (6, 2):
            held = HeldNeed(hand, contract, rules, keep)
            assert held.need == plan_need(hand, contract, rules, keep)
            setup = held.setup
            for face in range(JOKER_FACE + 1):
                grown = [*hand, face]
                need = plan_need(grown, contract, rules, keep)
                for below in (held.need, held.need + 1, 1 << 30):
                    assert held.need_with(face, below) == min(need, below)
                if face < JOKER_FACE and setup.leaves(held.held, held.by_group, face, keep):
                    left += 1
                    _, lists = setup.candidates(grown, keep)
                    assert lists == setup.slot_lists(held.by_group)
                    for slot, entries in zip(setup.slots, lists, strict=True):
                        for entry in entries:
                            family, low = entry >> 5 & 31, entry & 31
                            if family != plan_setup_module.NONE:
                                assert face not in (
                                    slot.windows[family * 16 + low] if slot.run else slot.wanted(family, low, [])
                                )
    assert left


def test_bit_counts_table_is_bit_count() -> None:
    # (the bots read engine.bits.BITS directly; tests/engine/test_bits.py checks bit_count, which reads it too)
    assert plan_setup_module.BITS is BITS
    assert len(BITS) == 1 << 16
    assert all(n == x.bit_count() for x, n in enumerate(BITS))


@pytest.mark.parametrize("name", sorted(rule_variants()))
def test_whole_runs_use_is_the_plans_need_and_faces(name: str) -> None:
    """``whole_runs_use`` gives the need of ``plan_whole_runs`` and the faces its plan uses, jokers included."""
    for rules, contract, hand in _random_hands(name, "whole-use"):
        if not contract or any(rule.kind is not MeldKind.RUN for rule in contract):
            continue
        for size in (None, len(hand), len(hand) + 1, len(hand) + 3, 3):
            plan = plan_whole_runs(hand, contract, rules, size=size)
            assert whole_runs_use(hand, contract, rules, size) == (plan.need, used_counts(plan))
