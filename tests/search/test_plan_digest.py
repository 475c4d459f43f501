"""The bots' plans are the same as before they were optimised: every field of every plan, on fixed hands.

``tests/data/plans.json`` holds digests of :func:`plan_hand`, :func:`plan_whole_runs` and
:func:`plan_of` taken before the planners were sped up (the bots' decisions rest on them). Each case
plans seeded random hands (jokers included) for every contract of a ruleset: with and without unseen
counts, whole-hand or not, with the default and a narrow ``keep``. Besides the presets, variants switch
the house rules the planners read (aces, distinct suits and ranks, joker spacing, minimum naturals).

Regenerate (only when a change of behaviour is intended, and say so in the commit):

    .venv/bin/python tests/search/test_plan_digest.py --write
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest
from helpers import rule_variants

from liverpool.bots.plan import Plan, plan_hand
from liverpool.bots.plan_whole import plan_whole_runs
from liverpool.bots.registry import make_bot
from liverpool.bots.table import plan_of
from liverpool.engine.cards import make_shoe
from liverpool.engine.observe import observe
from liverpool.engine.play import run_game
from liverpool.engine.rules.parts import MeldKind
from liverpool.engine.rules.presets import PRESETS
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import GameState

DATA = Path(__file__).resolve().parents[1] / "data" / "plans.json"
HANDS = 60


def _line(plan: Plan) -> str:
    return repr(plan)


def plan_digest(name: str, rules: Ruleset) -> str:
    """One digest of every plan of the seeded hands of one ruleset."""
    out = hashlib.sha256()
    rng = random.Random(name)
    shoe = make_shoe(rules.decks[-1].decks, rules.decks[-1].jokers)
    for deal in range(len(rules.deals)):
        contract = rules.contract(deal)
        runs_only = all(rule.kind is MeldKind.RUN for rule in contract)
        for _ in range(HANDS):
            hand = rng.sample(shoe, rng.randint(1, 16))
            live = [rng.randint(0, 3) for _ in range(53)]
            for whole in (False, True):
                out.update(_line(plan_hand(hand, contract, rules, whole_hand=whole)).encode())
                out.update(_line(plan_hand(hand, contract, rules, live=live, whole_hand=whole)).encode())
                out.update(_line(plan_hand(hand, contract, rules, live=live, whole_hand=whole, keep=2)).encode())
            if runs_only:
                for size in (None, len(hand), len(hand) + 3, 3):
                    out.update(_line(plan_whole_runs(hand, contract, rules, size=size)).encode())
                    out.update(_line(plan_whole_runs(hand, contract, rules, live=live, size=size)).encode())
    return out.hexdigest()[:32]


def game_plan_digest(preset: str, seed: int) -> str:
    """Digest of :func:`plan_of` on every observation of a seeded game (its hand, and its hand less each
    card at each size), as the bots ask."""
    out = hashlib.sha256()
    rules = PRESETS[preset]

    def before(state: GameState, action: object) -> None:
        seat = state.current
        observation = observe(state, seat)
        hand = list(observation.hand)
        for size in (None, len(hand), len(hand) + 2):
            out.update(_line(plan_of(observation, hand, size=size)).encode())
            for card in hand[:4]:
                rest = [c for c in hand if c != card]
                out.update(_line(plan_of(observation, rest, size=size)).encode())

    run_game(rules, [make_bot("easy") for _ in range(4)], random.Random(seed), before=before)
    return out.hexdigest()[:32]


def current() -> dict[str, str]:
    found = {f"rules:{name}": plan_digest(name, rules) for name, rules in rule_variants().items()}
    found.update({f"game:{preset}": game_plan_digest(preset, 5) for preset in ("liverpool", "british")})
    return found


@pytest.fixture(scope="module")
def recorded() -> dict[str, str]:
    data: dict[str, str] = json.loads(DATA.read_text())
    return data


@pytest.mark.parametrize("name", sorted(rule_variants()))
def test_plans_are_unchanged(name: str, recorded: dict[str, str]) -> None:
    assert plan_digest(name, rule_variants()[name]) == recorded[f"rules:{name}"]


@pytest.mark.parametrize("preset", ["liverpool", "british"])
def test_plans_of_game_observations_are_unchanged(preset: str, recorded: dict[str, str]) -> None:
    assert game_plan_digest(preset, 5) == recorded[f"game:{preset}"]


if __name__ == "__main__":
    if "--write" in sys.argv:
        DATA.write_text(json.dumps(current(), indent=1, sort_keys=True) + "\n")
    else:
        print(json.dumps(current(), indent=1, sort_keys=True))
