"""The pure Liverpool Rummy rules engine: no imports from the rest of the package or third parties.

This module is the engine's one public API: bots, server, terminal client, coach, RL environment,
tournaments, benchmarks and scripts import from ``liverpool.engine`` and nothing deeper. Inside, the value
modules (``cards``, ``melds``, ``actions``, ``errors``, ``state``, ``observe``, ``play``, ``record``,
``position``, ``undo``) sit beside three packages, each of whose ``__init__`` maps its parts: ``rules`` (rulesets,
the field registry, presets, rules in words), ``game`` (verify, perform, scoring, the shared rule checks,
legal actions, drafts) and ``search`` (the contract search and its reference specification); ``_speed``
holds the private caches and tables. ``docs/architecture.md`` draws the whole.

>>> import random
>>> from liverpool.engine import find_preset, new_game, apply, legal_actions, chance_action, observe
>>> state = new_game(find_preset('liverpool'), seats=4)
>>> _ = apply(state, chance_action(state, random.Random(1)))
>>> [repr(a) for a in legal_actions(state)][:2]
['DrawStock(seat=1)', 'DrawDiscard(seat=1, depth=1)']
>>> len(observe(state, 1).hand), observe(state, None).hand
(10, ())
"""

from liverpool.engine._speed.bits import BITS
from liverpool.engine._speed.build import is_compiled
from liverpool.engine._speed.cache import clear_caches
from liverpool.engine.actions import (
    ACTION_TYPES,
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
    action_from_dict,
    action_to_dict,
)
from liverpool.engine.cards import FACE_MASK, JOKER_FACE, Card, CardNotationError, format_cards, make_shoe, parse_cards
from liverpool.engine.errors import IllegalAction, Reason
from liverpool.engine.game.checks import table_fits, table_lay_off_index
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.game.draft import Draft, DraftMeld, draft_go_down
from liverpool.engine.game.legal import (
    asking_order,
    go_down_arrangements,
    is_chance,
    lay_off_actions,
    legal_actions,
    quick_actions,
)
from liverpool.engine.game.verify import is_legal, refusal, shoe
from liverpool.engine.melds import (
    Meld,
    contract_fault,
    contract_problem,
    joker_stands,
    meld_fault,
    meld_label,
    meld_words,
)
from liverpool.engine.observe import Observation, SeatView, observe
from liverpool.engine.pile_log import PileLog
from liverpool.engine.play import Agent, SeededChance, chance_action, choose_first_dealer, live_rng, run_game, step
from liverpool.engine.position import Position, PositionError, new_position, position_of
from liverpool.engine.problems import Fault, Problem
from liverpool.engine.record import GameRecord, RecordError, ReplayError, replay, replay_views, snapshot
from liverpool.engine.rules.fields import NONE as MISSING_NUMBER
from liverpool.engine.rules.fields import FieldInfo, FieldKind, Group
from liverpool.engine.rules.fields import encode as encode_field
from liverpool.engine.rules.parts import (
    Buying,
    DealOut,
    DealRule,
    DiscardCall,
    EmptyHand,
    FinalDeal,
    MeldKind,
    MeldRule,
    RulesetError,
    RulesetProblem,
)
from liverpool.engine.rules.presets import ALIASES, DEFAULT_PRESET, PRESETS, UnknownPreset, find_preset, note_keys
from liverpool.engine.rules.ruleset import Ruleset, field_docs, field_registry, grouped_fields
from liverpool.engine.rules.text import SUMMARY_FIELDS, rules_in_fields, rules_in_words, summary
from liverpool.engine.search import best_leftover, can_meet, find_arrangements
from liverpool.engine.search.candidates import run_shapes, set_shapes
from liverpool.engine.state import DealEndReason, DealResult, GameState, Phase, PileEntry, PileMove, TableMeld
from liverpool.engine.undo import TakeBack, UndoRefused, undo_point

__all__ = [
    "ACTION_TYPES",
    "ALIASES",
    "BITS",
    "DEFAULT_PRESET",
    "FACE_MASK",
    "JOKER_FACE",
    "MISSING_NUMBER",
    "PRESETS",
    "SUMMARY_FIELDS",
    "Action",
    "Agent",
    "Buy",
    "Buying",
    "Call",
    "Card",
    "CardNotationError",
    "DealEndReason",
    "DealOut",
    "DealResult",
    "DealRule",
    "Discard",
    "DiscardCall",
    "Draft",
    "DraftMeld",
    "DrawDiscard",
    "DrawStock",
    "EmptyHand",
    "EndTurn",
    "Fault",
    "FieldInfo",
    "FieldKind",
    "FinalDeal",
    "GameRecord",
    "GameState",
    "GoDown",
    "Group",
    "IllegalAction",
    "LayOff",
    "Meld",
    "MeldKind",
    "MeldRule",
    "Observation",
    "Pass",
    "Phase",
    "PileEntry",
    "PileLog",
    "PileMove",
    "Position",
    "PositionError",
    "Problem",
    "Reason",
    "RecordError",
    "ReplayError",
    "Reshuffle",
    "Ruleset",
    "RulesetError",
    "RulesetProblem",
    "SeatView",
    "SeededChance",
    "Shuffle",
    "SwapJoker",
    "TableMeld",
    "TakeBack",
    "UndoRefused",
    "UnknownPreset",
    "action_from_dict",
    "action_to_dict",
    "apply",
    "asking_order",
    "best_leftover",
    "can_meet",
    "chance_action",
    "choose_first_dealer",
    "clear_caches",
    "contract_fault",
    "contract_problem",
    "draft_go_down",
    "encode_field",
    "field_docs",
    "field_registry",
    "find_arrangements",
    "find_preset",
    "format_cards",
    "go_down_arrangements",
    "grouped_fields",
    "is_chance",
    "is_compiled",
    "is_legal",
    "joker_stands",
    "lay_off_actions",
    "legal_actions",
    "live_rng",
    "make_shoe",
    "meld_fault",
    "meld_label",
    "meld_words",
    "new_game",
    "new_position",
    "note_keys",
    "observe",
    "parse_cards",
    "position_of",
    "quick_actions",
    "refusal",
    "replay",
    "replay_views",
    "rules_in_fields",
    "rules_in_words",
    "run_game",
    "run_shapes",
    "set_shapes",
    "shoe",
    "snapshot",
    "step",
    "summary",
    "table_fits",
    "table_lay_off_index",
    "undo_point",
]
