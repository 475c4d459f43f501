"""The table log in players' words (issue 28 item 4): who got a bought card and its penalty cards, joker
swaps named as the browser's buttons name them, and why a deal ended (RULES.md §3 buying, §6 scoring)."""

from __future__ import annotations

import random

from liverpool.cli.narrate import describe_step
from liverpool.engine import find_preset, legal_actions, new_game
from liverpool.engine.actions import Buy, SwapJoker
from liverpool.engine.game.core import apply
from liverpool.engine.game.legal import is_chance
from liverpool.engine.play import chance_action

NAMES = ["Ada", "Bob", "Cy", "Di"]


def _logged_game(seed: int) -> list[tuple[object, str]]:
    """A seeded game of random moves (buying whenever offered), each action with its log line."""
    rng = random.Random(seed)
    state = new_game(find_preset("liverpool"), 4, 0)
    lines = []
    while not state.is_over:
        if is_chance(state):
            action = chance_action(state, rng)
        else:
            options = legal_actions(state)
            buys = [a for a in options if isinstance(a, Buy)]
            swaps = [a for a in options if isinstance(a, SwapJoker)]
            action = (buys or swaps or options)[0] if rng.random() < 0.5 else rng.choice(options)
        before = state.clone()
        apply(state, action)
        lines.append((action, describe_step(before, action, state, NAMES)))
    return lines


def test_the_log_says_who_got_each_bought_card_and_why_each_deal_ended() -> None:
    lines = [line for _, line in _logged_game(3)]
    bought = [line for line in lines if "gets the bought" in line]
    assert bought and all("with 1 penalty card from the stock." in line for line in bought), bought[:3]
    ends = [line for line in lines if " is over: " in line]
    assert [line.split("Deal ")[-1].split(" ")[0] for line in ends] == [str(d) for d in range(1, 8)]
    assert all(line.rstrip(".").split(": ")[-1] for line in ends)


def test_joker_swaps_name_the_meld_by_its_owner_and_kind() -> None:
    swaps = [line for seed in range(6) for action, line in _logged_game(seed) if isinstance(action, SwapJoker)]
    assert swaps, "no joker was swapped in these games"
    for line in swaps:
        assert "in meld" not in line
        assert any(f"for the joker in {name}'s " in line for name in NAMES), line
