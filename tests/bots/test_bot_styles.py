"""A bot's style (``cautious``, ``balanced``, ``aggressive``) changes how readily it buys and how early it goes
down, measured on fixed seeded games: seat 0 plays the style, the other seats ``balanced`` bots of the same
level, and every style meets the same shuffles (``SeededChance``). ``balanced`` is today's play: its digest
on the seeded corpus is the one stored before styles existed (``test_bot_versions``), and here it decides
exactly as a bot made without a style.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from liverpool.bots import fingerprint
from liverpool.bots.easy import EasyBot
from liverpool.bots.hard import HardBot
from liverpool.bots.medium import MediumBot, Weights, styled
from liverpool.bots.registry import make_bot
from liverpool.bots.style import Style
from liverpool.engine import Action, Buy, DrawDiscard, DrawStock, GameState, GoDown, SeededChance, find_preset, run_game

GAMES = [("liverpool", 4, seed) for seed in range(1, 7)] + [("may-i", 4, seed) for seed in range(1, 5)]


@dataclass
class Count:
    """Seat 0's buys, and in each deal it went down, how many of its turns had begun when it did."""

    buys: int = 0
    turns_to_down: list[int] = field(default_factory=list)
    _deal: int = -1
    _turns: int = 0
    _down: bool = False

    def see(self, state: GameState, action: Action) -> None:
        if state.deal != self._deal:
            self._deal, self._turns, self._down = state.deal, 0, False
        if getattr(action, "seat", None) != 0:
            return
        if isinstance(action, DrawStock | DrawDiscard):
            self._turns += 1
        elif isinstance(action, Buy):
            self.buys += 1
        elif isinstance(action, GoDown) and not self._down:
            self._down = True
            self.turns_to_down.append(self._turns)

    @property
    def mean_turn_down(self) -> float:
        return sum(self.turns_to_down) / len(self.turns_to_down)


def measure(level: str, style: str) -> Count:
    count = Count()
    for preset, seats, seed in GAMES:
        agents = [make_bot(level, style), *(make_bot(level) for _ in range(seats - 1))]
        run_game(find_preset(preset), agents, random.Random(seed), chance=SeededChance(seed), before=count.see)
    return count


@pytest.mark.parametrize("level", ["easy", pytest.param("medium", marks=pytest.mark.slow)])
def test_aggressive_buys_more_and_goes_down_no_later_cautious_buys_fewer(level: str) -> None:
    """RULES.md §3 (buying out of turn) and §4 (going down): the style moves how often a seat buys and when it
    goes down, on the same seeded games."""
    cautious, balanced, aggressive = (measure(level, s) for s in ("cautious", "balanced", "aggressive"))
    assert aggressive.buys > balanced.buys > cautious.buys, (cautious.buys, balanced.buys, aggressive.buys)
    assert aggressive.mean_turn_down <= balanced.mean_turn_down, (aggressive.turns_to_down, balanced.turns_to_down)
    assert len(aggressive.turns_to_down) >= len(balanced.turns_to_down)
    assert cautious.mean_turn_down >= balanced.mean_turn_down


@pytest.mark.parametrize(
    ("make", "plain"),
    [
        (lambda: EasyBot(style=Style.BALANCED), EasyBot),
        (lambda: MediumBot(style=Style.BALANCED), MediumBot),
        (lambda: make_bot("medium", "balanced"), lambda: make_bot("medium")),
    ],
)
def test_balanced_decides_as_a_bot_made_without_a_style(make: object, plain: object) -> None:
    decisions = fingerprint.corpus()
    assert fingerprint.choices(make, decisions) == fingerprint.choices(plain, decisions)  # type: ignore[arg-type]


def test_balanced_weights_are_the_tuned_ones_and_the_others_differ() -> None:
    tuned = Weights()
    assert styled(tuned, Style.BALANCED) is tuned
    assert styled(tuned, Style.AGGRESSIVE).buy_gain > tuned.buy_gain > styled(tuned, Style.CAUTIOUS).buy_gain
    assert styled(tuned, Style.CAUTIOUS).wait_left < tuned.wait_left


def test_hard_plays_its_style_in_its_guide_and_its_own_seat_of_the_rollouts() -> None:
    bold = HardBot(style=Style.AGGRESSIVE)
    assert bold.guide.style is bold.policy.style is Style.AGGRESSIVE
    assert bold.others.style is Style.BALANCED
    plain = HardBot()
    assert plain.others is plain.policy
