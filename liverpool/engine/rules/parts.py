"""The values a ruleset is made of: its option enums, the melds and deals of contracts, deck rules.

They live apart from :class:`~liverpool.engine.rules.ruleset.Ruleset` so that the field registry
(:mod:`liverpool.engine.rules.fields`) can name them without importing the ruleset.

>>> MeldRule.parse('run 4')
MeldRule(kind=<MeldKind.RUN: 'run'>, length=4)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class RulesetProblem(StrEnum):
    """What is wrong with one field's value, where a client may say it in its own words (with
    ``RulesetError.limit`` for a bound): a value below the field's minimum or above its maximum, of the wrong
    type, not one of the field's choices, or a field that does not exist."""

    MINIMUM = "minimum"
    MAXIMUM = "maximum"
    WHOLE_NUMBER = "whole_number"
    TRUE_OR_FALSE = "true_or_false"
    CHOICE = "choice"
    UNKNOWN_FIELD = "unknown_field"


class RulesetError(ValueError):
    """A ruleset value or file that is not valid; ``field`` names the offending field, ``problem`` (where
    there is one) says what is wrong as a :class:`RulesetProblem`, with the bound it broke as ``limit``.

    >>> err = RulesetError('buy_limit', 'cannot be negative', RulesetProblem.MINIMUM, 0)
    >>> str(err), err.problem.value, err.limit
    ('buy_limit: cannot be negative', 'minimum', 0)
    """

    def __init__(
        self, field_name: str, message: str, problem: RulesetProblem | None = None, limit: int | None = None
    ) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field = field_name
        self.problem = problem
        self.limit = limit


class MeldKind(StrEnum):
    """A meld is a set (one rank) or a run (one suit, consecutive ranks): RULES.md §1.2."""

    SET = "set"
    RUN = "run"


class JokerSwap(StrEnum):
    NEVER = "never"
    GOING_DOWN = "going_down"
    AFTER_DOWN = "after_down"
    DOWN_EARLIER = "down_earlier"
    DOWN = "down"


class JokerSwapPlace(StrEnum):
    AT_ONCE = "at_once"
    BEFORE_TURN_ENDS = "before_turn_ends"


class JokerSwapTarget(StrEnum):
    ANY = "any"
    OWN_MELDS = "own_melds"


class JoinableRuns(StrEnum):
    """Whether two runs of one suit in one going-down may be laid apart when they could be one run."""

    ALLOWED = "allowed"
    TOUCHING = "touching"
    COULD_JOIN = "could_join"


class Buying(StrEnum):
    """When an out-of-turn seat may buy the discard (RULES.md §3.12 buying: who, when): never, before the next
    player draws, or only after the next player declines it."""

    NONE = "none"
    BEFORE_NEXT_DRAW = "before_next_draw"
    AFTER_NEXT_DECLINES = "after_next_declines"


class BuyPrecedence(StrEnum):
    TURN_ORDER = "turn_order"
    FIRST_CALL = "first_call"


class DiscardCall(StrEnum):
    """The call on a playable discard (RULES.md §3.17 playable-discard call): none, Liverpool, or rummy."""

    NONE = "none"
    LIVERPOOL = "liverpool"
    RUMMY = "rummy"


class EmptyHand(StrEnum):
    """What a seat whose hand is empty without a discard does (RULES.md §3.19 floating): it must discard,
    floats, or goes out."""

    MUST_DISCARD = "must_discard"
    FLOATS = "floats"
    GOES_OUT = "goes_out"


class FinalDeal(StrEnum):
    """How the final deal ends (RULES.md §3.20 final deal): as any other, only by melding the whole hand, or
    at once when its contract is complete."""

    NORMAL = "normal"
    WHOLE_HAND = "whole_hand"
    CONTRACT_GOES_OUT = "contract_goes_out"


class DealOut(StrEnum):
    """How one deal's contract ends the deal: normally (go down, lay off, go out by a discard); ``whole_hand``
    (the contract must use every card, and going down goes out, no discard: 000/001a's "3 runs and out");
    ``goes_out`` (going down with the contract goes out at once, whatever is left: 004's run of seven)."""

    NORMAL = "normal"
    WHOLE_HAND = "whole_hand"
    GOES_OUT = "goes_out"


class StockOut(StrEnum):
    RESHUFFLE = "reshuffle"
    END_DEAL = "end_deal"


class Ties(StrEnum):
    SHARE = "share"
    FINAL_DEAL = "final_deal"
    REPLAY_FINAL_DEAL = "replay_final_deal"


class FirstDealer(StrEnum):
    FIRST_SEAT = "first_seat"
    LOW_CARD = "low_card"


@dataclass(frozen=True, slots=True)
class MeldRule:
    """One meld a contract asks for: a set or a run of at least ``length`` cards."""

    kind: MeldKind
    length: int

    def __str__(self) -> str:
        return f"{self.kind.value} {self.length}"

    @classmethod
    def parse(cls, text: str) -> MeldRule:
        kind, _, length = text.strip().partition(" ")
        if kind not in ("set", "run") or not length.strip().isdigit():
            raise ValueError(f"{text!r} is not a meld rule like 'set 3' or 'run 4'")
        return cls(MeldKind(kind), int(length))


@dataclass(frozen=True, slots=True)
class DealRule:
    """One deal: the contract to go down with, how many cards each seat is dealt, and how the contract
    ends the deal (``out``, see :class:`DealOut`; a property of the contract wherever the deal stands)."""

    contract: tuple[MeldRule, ...]
    hand_size: int
    out: DealOut = DealOut.NORMAL


@dataclass(frozen=True, slots=True)
class DeckRule:
    """Tables of up to ``max_players`` seats play with ``decks`` decks and ``jokers`` jokers."""

    max_players: int
    decks: int
    jokers: int


RANK_KEYS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK")
"""The ranks ``card_values`` is keyed by, in order: ace, two to ten, jack, queen, king, joker."""
