"""The pure Liverpool Rummy rules engine: no imports from the rest of the package or third parties.

>>> import random
>>> from liverpool.engine import find_preset, new_game, apply, legal_actions, chance_action, observe
>>> state = new_game(find_preset('liverpool'), seats=4)
>>> _ = apply(state, chance_action(state, random.Random(1)))
>>> [repr(a) for a in legal_actions(state)][:2]
['DrawStock(seat=1)', 'DrawDiscard(seat=1, depth=1)']
>>> len(observe(state, 1).hand), observe(state, None).hand
(10, ())
"""

from liverpool.engine.actions import (
    Action,
    Buy,
    Call,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    GoDown,
    LayOff,
    Pass,
    Reshuffle,
    Shuffle,
    SwapJoker,
)
from liverpool.engine.cards import Card, format_cards, make_shoe, parse_cards
from liverpool.engine.errors import IllegalAction, Reason
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.game.legal import go_down_arrangements, is_chance, legal_actions
from liverpool.engine.game.verify import is_legal
from liverpool.engine.melds import Meld
from liverpool.engine.observe import Observation, observe
from liverpool.engine.play import SeededChance, chance_action, live_rng, run_game
from liverpool.engine.position import Position, PositionError, new_position, position_of
from liverpool.engine.record import GameRecord, replay
from liverpool.engine.rules.presets import PRESETS, find_preset
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.search import can_meet, find_arrangements
from liverpool.engine.state import DealEndReason, DealResult, GameState, Phase

__all__ = [
    "PRESETS",
    "Action",
    "Buy",
    "Call",
    "Card",
    "DealEndReason",
    "DealResult",
    "Discard",
    "DrawDiscard",
    "DrawStock",
    "EndTurn",
    "GameRecord",
    "GameState",
    "GoDown",
    "IllegalAction",
    "LayOff",
    "Meld",
    "Observation",
    "Pass",
    "Phase",
    "Position",
    "PositionError",
    "Reason",
    "Reshuffle",
    "Ruleset",
    "SeededChance",
    "Shuffle",
    "SwapJoker",
    "apply",
    "can_meet",
    "chance_action",
    "find_arrangements",
    "find_preset",
    "format_cards",
    "go_down_arrangements",
    "is_chance",
    "is_legal",
    "legal_actions",
    "live_rng",
    "make_shoe",
    "new_game",
    "new_position",
    "observe",
    "parse_cards",
    "position_of",
    "replay",
    "run_game",
]
