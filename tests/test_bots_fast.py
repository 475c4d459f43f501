"""The bots' fast paths give what the plain ones give: needs found without building a plan, options sorted by type."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from test_plan_digest import _variants

import liverpool.bots.plan_setup as plan_setup_module
import liverpool.bots.plan_whole as plan_whole_module
from liverpool.bots.easy import Options
from liverpool.bots.plan import plan_hand, plan_need
from liverpool.bots.plan_whole import plan_whole_runs, whole_runs_need
from liverpool.bots.registry import make_bot
from liverpool.bots.table import face_values, need_of, plan_memo, plan_of
from liverpool.engine.actions import Action, DrawStock
from liverpool.engine.cards import JOKER_FACE, make_shoe
from liverpool.engine.observe import Observation, observe
from liverpool.engine.play import run_game
from liverpool.engine.presets import PRESETS
from liverpool.engine.rules import MeldKind
from liverpool.engine.state import GameState


@pytest.mark.parametrize("name", sorted(_variants()))
def test_need_only_matches_the_plan(name: str) -> None:
    rules = _variants()[name]
    rng = random.Random(f"need:{name}")
    shoe = make_shoe(rules.decks[-1].decks, rules.decks[-1].jokers)
    for deal in range(len(rules.deals)):
        contract = rules.contract(deal)
        runs_only = all(rule.kind is MeldKind.RUN for rule in contract)
        for _ in range(150):
            hand = rng.sample(shoe, rng.randint(0, 16))
            for keep in (6, 2):
                assert plan_need(hand, contract, rules, keep) == plan_hand(hand, contract, rules, keep=keep).need
            if runs_only:
                for size in (None, len(hand), len(hand) + 1, len(hand) + 3, 3):
                    assert whole_runs_need(hand, contract, rules, size) == plan_whole_runs(hand, contract, rules, size=size).need


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


@pytest.mark.parametrize("preset", ["liverpool", "british"])
def test_options_are_sorted_as_by_match(preset: str) -> None:
    seen = 0

    def check(observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        nonlocal seen
        shuffled = [*options, _Stock(0)]
        rng.shuffle(shuffled)
        for listed in (options, shuffled):
            assert Options.of(listed) == _by_match(listed)
        seen += 1
        return bot(observation, options, rng)

    bot = make_bot("easy")
    run_game(PRESETS[preset], [check for _ in range(4)], random.Random(2))
    assert seen > 100


@pytest.mark.parametrize("name", sorted(_variants()))
def test_face_values_are_the_rules_values(name: str) -> None:
    rules = _variants()[name]
    values = face_values(rules)
    assert face_values(rules) is values
    for card in make_shoe(2, 4):
        assert values[card & 63] == rules.value(card)
        assert (card & 63 == JOKER_FACE) == card.is_joker


@pytest.mark.parametrize("name", sorted(_variants()))
def test_shared_partials_are_the_partials_built(name: str) -> None:
    """Plans share the partials built before (kept per slot, and per window in whole-hand runs): the
    same plans as when every partial is built afresh."""
    rules = _variants()[name]
    rng = random.Random(f"partials:{name}")
    shoe = make_shoe(rules.decks[-1].decks, rules.decks[-1].jokers)

    def fresh() -> None:
        for setup in [c[2] for c in plan_setup_module.CONTRACTS.values()]:
            for slot in setup.slots:
                slot.partials.clear()
        plan_whole_module._PARTIALS.clear()

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
