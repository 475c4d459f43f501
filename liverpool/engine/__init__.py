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

from .actions import (
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
from .cards import Card, format_cards, make_shoe, parse_cards
from .errors import IllegalAction, Reason
from .game import apply, is_legal, new_game
from .legal import go_down_arrangements, is_chance, legal_actions
from .melds import Meld
from .observe import Observation, observe
from .play import SeededChance, asking_order, chance_action, live_rng, run_game
from .position import Position, PositionError, new_position, position_of
from .presets import PRESETS, find_preset
from .record import GameRecord, replay
from .rules import Ruleset
from .search import can_meet, find_arrangements
from .state import DealEndReason, DealResult, GameState, Phase

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
    "asking_order",
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
