"""The going-downs listed with a card just taken from the pile (issue 32, environment speed).

RULES.md §3.10 (001a/000): the card taken from the discard pile may not be discarded the same turn, so a
going-down may not leave it as the only card in hand: it is melded, or another card stays besides it.
:func:`.checks.go_down_options` lists the best of both kinds: the ``limit`` best that keep it, and those
that meld it, asked with ``leaving_under`` (the search cuts those that leave more points than the worst
that keep it, which the merge would drop). Here the listing is compared, at every such moment of seeded
random games, with the two searches asked in full and merged the same way.
"""

from __future__ import annotations

import random

import pytest

from liverpool.engine import legal_actions
from liverpool.engine.game import checks
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.game.legal import GO_DOWN_LIMIT, is_chance
from liverpool.engine.melds import Meld
from liverpool.engine.play import chance_action
from liverpool.engine.rules.presets import find_preset
from liverpool.engine.search import find_arrangements
from liverpool.engine.state import GameState, Phase


def _reference(state: GameState) -> list[tuple[Meld, ...]]:
    """The listing as the two full searches give it: the best that meld the taken card, then the best that
    keep it and another card, merged by points left (stably: the ones that meld it first)."""
    hand = state.hands[state.current]
    _, keep, taken = checks.go_down_question(state, hand)
    assert taken is not None
    contract, rules = state.deal_rule.contract, state.rules
    melding = find_arrangements(hand, contract, rules, keep=keep, must_include=taken, limit=GO_DOWN_LIMIT)
    others = [c for c in hand if c != taken]
    keeping = find_arrangements(others, contract, rules, keep=1, limit=GO_DOWN_LIMIT)

    def left(arrangement: tuple[Meld, ...]) -> int:
        return sum(rules.value(c) for c in checks.left_after(hand, arrangement))

    return sorted(melding + keeping, key=left)[:GO_DOWN_LIMIT]


@pytest.mark.parametrize("preset", ["liverpool", "contract"])
def test_the_listing_with_a_taken_card_is_the_best_of_both_searches(preset: str) -> None:
    rules = find_preset(preset)
    compared = bounded = 0
    for game in range(6):
        rng = random.Random(game)
        state = new_game(rules, 4, game % 4)
        for _ in range(1500):
            if state.phase is Phase.GAME_OVER:
                break
            if is_chance(state):
                apply(state, chance_action(state, rng))
                continue
            me = state.current
            hand = state.hands[me]
            if (
                state.phase is Phase.PLAY
                and not state.down[me]
                and state.must_place is None
                and checks.go_down_question(state, hand)[2] is not None
            ):
                expected = _reference(state)
                assert checks.go_down_options(state, me, hand, None, GO_DOWN_LIMIT) == expected, state.situation()
                compared += 1
                taken = checks.go_down_question(state, hand)[2]
                others = [c for c in hand if c != taken]
                if len(find_arrangements(others, state.deal_rule.contract, rules, keep=1)) >= GO_DOWN_LIMIT:
                    bounded += 1
            apply(state, rng.choice(legal_actions(state)))
    # Enough moments, and among them moments where the second search was bounded.
    assert compared >= 30 and bounded >= 10, (compared, bounded)
