"""Optimised paths give the same results as before: games, legal actions, observations and searches.

``tests/data/golden.json`` holds digests taken from the engine and bots before they were optimised
(ISSUE 4: "correctness of the optimised paths is (same results as before on recorded games)"). Each case
replays a seeded game move by move and digests every legal-action list, every seat's observation and
the final record; the search cases digest every answer of :func:`find_arrangements` and
:func:`best_leftover` on a fixed set of hands. A change in any answer, order included, changes a digest.

Regenerate (only when a change of behaviour is intended, and say so in the commit):

    .venv/bin/python tests/engine/test_golden.py --write
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from liverpool.bots.registry import make_bot
from liverpool.engine.actions import Action, action_to_dict
from liverpool.engine.cards import Card, make_shoe
from liverpool.engine.game.legal import legal_actions
from liverpool.engine.observe import observe
from liverpool.engine.play import SeededChance, run_game
from liverpool.engine.record import GameRecord
from liverpool.engine.rules.presets import PRESETS
from liverpool.engine.search import best_leftover, find_arrangements
from liverpool.engine.state import GameState

DATA = Path(__file__).resolve().parents[1] / "data" / "golden.json"

TABLES = (
    ("liverpool", 4),
    ("may-i", 6),
    ("contract", 5),
    ("norsk", 4),
    ("british", 3),
    ("british-9", 4),
    ("british-fixed", 4),
    ("british-nobuy", 4),
)
GAMES = [
    (preset, bot, seats, seed) for preset, seats in TABLES for bot, seed in (("random", 1), ("easy", 2), ("medium", 3))
]
SEARCH_HANDS = 400


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:32]


def _before_pile_log(observation: dict[str, Any]) -> dict[str, Any]:
    """An observation as it was when the digests were taken: ``pile_log`` (issue 29's inference) came after,
    and is checked on its own in tests/engine/test_pile_log.py."""
    return {k: v for k, v in observation.items() if k != "pile_log"}


def game_digests(preset: str, bot: str, seats: int, seed: int) -> dict[str, str]:
    """Digests of one seeded game: the record, every legal-action list and every seat's observation."""
    legal = hashlib.sha256()
    seen = hashlib.sha256()

    def before(state: GameState, action: Action) -> None:
        legal.update(json.dumps([action_to_dict(a) for a in legal_actions(state)]).encode())
        for seat in range(state.seats):
            seen.update(json.dumps(_before_pile_log(observe(state, seat).to_dict()), sort_keys=True).encode())

    rules = PRESETS[preset]
    agents = [make_bot(bot) for _ in range(seats)]
    state = run_game(rules, agents, random.Random(seed), before=before, chance=SeededChance(f"golden:{seed}"))
    return {
        "record": _digest(GameRecord.of(state).to_dict()),
        "legal": legal.hexdigest()[:32],
        "observations": seen.hexdigest()[:32],
    }


def search_hands(count: int) -> list[tuple[str, int, tuple[Card, ...], bool, int]]:
    """``count`` seeded hands of 10 to 20 cards with 0 to 4 jokers, each with a preset's contract."""
    contracts = [(name, deal) for name, rules in PRESETS.items() for deal in range(len(rules.deals))]
    out = []
    for i in range(count):
        rng = random.Random(f"golden-search:{i}")
        name, deal = contracts[i % len(contracts)]
        naturals = list(make_shoe(rng.choice(PRESETS[name].decks).decks, 0))
        if i % 3 == 1:
            suits = rng.sample("CDHS", 2)
            naturals = [c for c in naturals if c.suit in suits]
        elif i % 3 == 2:
            ranks = rng.sample(range(1, 14), 5)
            naturals = [c for c in naturals if c.rank in ranks]
        jokers = rng.randint(0, 4)
        hand = (*rng.sample(naturals, rng.randint(10, 20) - jokers), *(Card.joker(c) for c in range(jokers)))
        out.append((name, deal, hand, i % 7 == 0, i % 2))
    return out


def search_digest(count: int = SEARCH_HANDS) -> str:
    answers = []
    for name, deal, hand, whole, keep in search_hands(count):
        rules = PRESETS[name]
        contract = rules.contract(deal)
        found = find_arrangements(hand, contract, rules, whole_hand=whole, keep=0 if whole else keep)
        answers.append(
            (
                [[str(meld) for meld in arrangement] for arrangement in found],
                best_leftover(hand, contract, rules, whole_hand=whole, keep=0 if whole else keep),
            )
        )
    return _digest(answers)


def compute() -> dict[str, Any]:
    return {
        "games": {"/".join(map(str, case)): game_digests(*case) for case in GAMES},
        "search": search_digest(),
    }


def _expected() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text())
    return data


@pytest.mark.parametrize("case", GAMES, ids=lambda case: "/".join(map(str, case)))
def test_games_play_as_before(case: tuple[str, str, int, int]) -> None:
    assert game_digests(*case) == _expected()["games"]["/".join(map(str, case))]


def test_search_answers_as_before() -> None:
    assert search_digest() == _expected()["search"]


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps(compute(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {DATA}")
