"""What is wrong, as a code and its parameters: the faults of melds, contracts, going-down drafts and
every other refused action of a player.

A :class:`Fault` is one value of :class:`Problem` and the values its sentence names (counts, cards, a
rank, a suit, a seat, a phase, a meld, other faults). The engine's English sentence is :meth:`Fault.text`; a client in
another language says the fault from its code (:meth:`Fault.to_dict` is what the server sends; the
browser's catalogues hold ``problem.<code>``, docs/i18n.md), so nothing is translated by matching English.

>>> from liverpool.engine.cards import Card
>>> fault = Fault(Problem.SET_WRONG_RANK, {"card": Card.parse("8H"), "rank": Rank(7)})
>>> fault.text()
"8H is not of the set's rank 7"
>>> fault.to_dict()
{'code': 'set_wrong_rank', 'params': {'card': {'card': '8H'}, 'rank': {'rank': 7}}}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Union

from liverpool.engine._speed.cache import ByIdentity, by_identity
from liverpool.engine.cards import Card, rank_text


class Problem(StrEnum):
    """Why cards make no meld, a going-down does not meet its contract, a draft is not ready, or any other
    action a player may send is refused (a malformed action's and a chance action's refusals have none). Each
    value's English sentence is in :data:`ENGLISH`, its parameters named there in braces."""

    SET_TOO_SHORT = "set_too_short"
    RUN_TOO_SHORT = "run_too_short"
    SET_WRONG_RANK = "set_wrong_rank"
    SET_SUIT_TWICE = "set_suit_twice"
    SET_FEW_NATURALS = "set_few_naturals"
    SET_TOO_LONG = "set_too_long"
    SET_DISTINCT_TOO_LONG = "set_distinct_too_long"
    RUN_OUT_OF_RANKS = "run_out_of_ranks"
    ACES_NOT_LOW = "aces_not_low"
    ACES_NOT_HIGH = "aces_not_high"
    RUN_WRONG_SUIT = "run_wrong_suit"
    RUN_WRONG_PLACE = "run_wrong_place"
    RUN_FEW_NATURALS = "run_few_naturals"
    RUN_JOKER_SPACING = "run_joker_spacing"
    CONTRACT_MELD = "contract_meld"
    CONTRACT_SETS = "contract_sets"
    CONTRACT_RUNS = "contract_runs"
    SET_SHORT_FOR_CONTRACT = "set_short_for_contract"
    RUN_SHORT_FOR_CONTRACT = "run_short_for_contract"
    SET_LONGER_NOT_ALLOWED = "set_longer_not_allowed"
    RUN_LONGER_NOT_ALLOWED = "run_longer_not_allowed"
    SETS_SAME_RANK = "sets_same_rank"
    RUNS_SAME_SUIT = "runs_same_suit"
    RUNS_TOUCH = "runs_touch"
    RUNS_COULD_JOIN = "runs_could_join"
    ALREADY_DOWN = "already_down"
    CARD_TWICE = "card_twice"
    NOT_IN_HAND = "not_in_hand"
    MUST_MELD_TAKEN = "must_meld_taken"
    FINAL_USES_ALL = "final_uses_all"
    KEEP_A_CARD = "keep_a_card"
    ONLY_TAKEN_LEFT = "only_taken_left"
    NEEDS_MORE = "needs_more"
    TOO_MANY_CARDS = "too_many_cards"
    NEEDS_NATURAL = "needs_natural"
    SET_MIXES_RANKS = "set_mixes_ranks"
    RUN_MIXES_SUITS = "run_mixes_suits"
    RANK_TWICE = "rank_twice"
    TOO_FAR_APART = "too_far_apart"
    DRAFT_SET = "draft_set"
    DRAFT_RUN = "draft_run"
    # Refusals of other actions than a going-down (engine/game/verify.py, checks.py): whose turn and phase,
    GAME_IS_OVER = "game_is_over"
    OTHERS_TURN = "others_turn"
    OTHER_PHASE = "other_phase"
    MUST_PLACE_FIRST = "must_place_first"
    RECLAIMED_UNPLACED = "reclaimed_unplaced"
    DISCARD_ENDS_TURN = "discard_ends_turn"
    # drawing,
    PILE_EMPTY = "pile_empty"
    MAY_I_CALLED = "may_i_called"
    EMPTY_HAND_DRAWS_STOCK = "empty_hand_draws_stock"
    TOP_DISCARD_ONLY = "top_discard_only"
    DIG_TOO_DEEP = "dig_too_deep"
    DIG_UNPLAYABLE = "dig_unplayable"
    # buying,
    NO_BUY_WINDOW = "no_buy_window"
    NO_OFFER_TO_DECLINE = "no_offer_to_decline"
    BUY_AFTER_DECLINE = "buy_after_decline"
    BUY_ANSWERED = "buy_answered"
    MAY_I_WHEN = "may_i_when"
    BUYING_OFF = "buying_off"
    NO_FRESH_DISCARD = "no_fresh_discard"
    UPCARD_NOT_BUYABLE = "upcard_not_buyable"
    NEXT_PLAYER_DRAWS = "next_player_draws"
    OWN_DISCARD_BUY = "own_discard_buy"
    BUY_LIMIT = "buy_limit"
    STOCK_TOO_LOW = "stock_too_low"
    ALREADY_ASKED = "already_asked"
    # calls,
    CALL_TOO_LATE = "call_too_late"
    CALLS_OFF = "calls_off"
    NOTHING_TO_CALL = "nothing_to_call"
    OWN_DISCARD_CALL = "own_discard_call"
    LIVERPOOL_NOT_DOWN = "liverpool_not_down"
    LIVERPOOL_SHEDS = "liverpool_sheds"
    CARD_NOT_HELD = "card_not_held"
    CALL_LAST_CARD = "call_last_card"
    RUMMY_SHEDS_NONE = "rummy_sheds_none"
    # laying off (a card that does not fit says the grown meld's fault),
    LAY_OFF_NOT_DOWN = "lay_off_not_down"
    LAY_OFF_TAKEN_FIRST = "lay_off_taken_first"
    NO_SUCH_MELD = "no_such_meld"
    RECLAIMED_OWN_MELDS = "reclaimed_own_melds"
    RECLAIMED_STRANDED = "reclaimed_stranded"
    # joker swaps,
    SWAPS_OFF = "swaps_off"
    SWAP_GOING_DOWN_ONLY = "swap_going_down_only"
    SWAP_ONCE_DOWN = "swap_once_down"
    SWAP_DOWN_EARLIER_NOT_NOW = "swap_down_earlier_not_now"
    SWAP_DOWN_EARLIER = "swap_down_earlier"
    SET_JOKERS_DEAD = "set_jokers_dead"
    NOT_A_JOKER_OF = "not_a_joker_of"
    SWAP_FOR_NATURAL = "swap_for_natural"
    JOKER_STANDS_FOR = "joker_stands_for"
    SWAP_UNPLAYABLE_GOING_DOWN = "swap_unplayable_going_down"
    SWAP_UNPLAYABLE_AT_ONCE = "swap_unplayable_at_once"
    SWAP_UNPLAYABLE_AT_ONCE_OWN = "swap_unplayable_at_once_own"
    SWAP_UNPLAYABLE_THIS_TURN = "swap_unplayable_this_turn"
    SWAP_UNPLAYABLE_THIS_TURN_OWN = "swap_unplayable_this_turn_own"
    # and discarding.
    TAKEN_NOT_DISCARDED = "taken_not_discarded"
    FLOATER_TAKEN = "floater_taken"
    FLOATER_FITS = "floater_fits"


ENGLISH: Mapping[Problem, str] = {
    Problem.SET_TOO_SHORT: "a set needs at least 3 cards, this one has {count}",
    Problem.RUN_TOO_SHORT: "a run needs at least 3 cards, this one has {count}",
    Problem.SET_WRONG_RANK: "{card} is not of the set's rank {rank}",
    Problem.SET_SUIT_TWICE: "two {card} in one set, whose suits must all differ",
    Problem.SET_FEW_NATURALS: "a set needs at least {need} natural cards, this one has {count}",
    Problem.SET_TOO_LONG: "a set holds at most {limit} cards, this one has {count}",
    Problem.SET_DISTINCT_TOO_LONG: "a set of distinct suits holds at most 4 cards",
    Problem.RUN_OUT_OF_RANKS: "a run cannot go from rank {low} to {high}: no wrap, aces low or high but not both",
    Problem.ACES_NOT_LOW: "aces are not played low in this ruleset",
    Problem.ACES_NOT_HIGH: "aces are not played high in this ruleset",
    Problem.RUN_WRONG_SUIT: "{card} is not of the run's suit {suit}",
    Problem.RUN_WRONG_PLACE: "{card} cannot stand at the place of {place} in this run",
    Problem.RUN_FEW_NATURALS: "a run needs at least {need} natural cards, this one has {count}",
    Problem.RUN_JOKER_SPACING: "a run may hold at most one joker in any {window} cards in a row",
    Problem.CONTRACT_MELD: "{meld}: {fault}",
    Problem.CONTRACT_SETS: "the contract asks for {need} set(s), not {count}",
    Problem.CONTRACT_RUNS: "the contract asks for {need} run(s), not {count}",
    Problem.SET_SHORT_FOR_CONTRACT: "a set of {count} cards does not fit a contract asking at least {need} cards",
    Problem.RUN_SHORT_FOR_CONTRACT: "a run of {count} cards does not fit a contract asking at least {need} cards",
    Problem.SET_LONGER_NOT_ALLOWED: "a set of {count} cards does not fit a contract asking longer melds are not allowed",
    Problem.RUN_LONGER_NOT_ALLOWED: "a run of {count} cards does not fit a contract asking longer melds are not allowed",
    Problem.SETS_SAME_RANK: "the sets of a contract must be of different ranks",
    Problem.RUNS_SAME_SUIT: "the runs of a contract must be of different suits",
    Problem.RUNS_TOUCH: "{first} and {second} could be joined into one run and may not be laid as two",
    Problem.RUNS_COULD_JOIN: "{first} and {second} could be laid as one run, so they may not be laid apart",
    Problem.ALREADY_DOWN: "you have already gone down this deal",
    Problem.CARD_TWICE: "the same card is used twice",
    Problem.NOT_IN_HAND: "{cards} not in your hand",
    Problem.MUST_MELD_TAKEN: "{card} must be in the melds you lay down",
    Problem.FINAL_USES_ALL: "the final contract must use every card in your hand",
    Problem.KEEP_A_CARD: "you must keep a card to discard",
    Problem.ONLY_TAKEN_LEFT: "the only card left would be {card}, just taken from the pile, which may not be discarded",
    Problem.NEEDS_MORE: "needs {count} more card{s}",
    Problem.TOO_MANY_CARDS: "holds {count} cards; longer melds are not allowed",
    Problem.NEEDS_NATURAL: "needs a natural card",
    Problem.SET_MIXES_RANKS: "mixes ranks: a set is of one rank",
    Problem.RUN_MIXES_SUITS: "mixes suits: a run is of one suit",
    Problem.RANK_TWICE: "two cards of one rank",
    Problem.TOO_FAR_APART: "the cards are too far apart for one run",
    Problem.DRAFT_SET: "set {n} {faults}",
    Problem.DRAFT_RUN: "run {n} {faults}",
    Problem.GAME_IS_OVER: "the game is over",
    Problem.OTHERS_TURN: "it is seat {seat}'s turn",
    Problem.OTHER_PHASE: "this is the {now} phase, not the {phase} phase",
    Problem.MUST_PLACE_FIRST: "{card} must be melded or laid off first",
    Problem.RECLAIMED_UNPLACED: "{cards}, taken from the table by a swap, must be placed on the table before your turn ends",
    Problem.DISCARD_ENDS_TURN: "a turn ends with a discard in this ruleset",
    Problem.PILE_EMPTY: "the discard pile is empty",
    Problem.MAY_I_CALLED: "someone has called May I, so you must draw from the stock",
    Problem.EMPTY_HAND_DRAWS_STOCK: "with an empty hand you must draw from the stock, as the card taken could not be discarded",
    Problem.TOP_DISCARD_ONLY: "only the top discard may be taken in this ruleset",
    Problem.DIG_TOO_DEEP: "the pile holds {count} cards; cannot dig {depth} deep",
    Problem.DIG_UNPLAYABLE: "{card} could not be melded at once",
    Problem.NO_BUY_WINDOW: "no buy window is open",
    Problem.NO_OFFER_TO_DECLINE: "you have no open buy offer to decline",
    Problem.BUY_AFTER_DECLINE: "buying opens only once the next player has declined the discard",
    Problem.BUY_ANSWERED: "you have already answered this buy offer",
    Problem.MAY_I_WHEN: "May I is asked after a discard and before the next player draws",
    Problem.BUYING_OFF: "buying is off in this ruleset",
    Problem.NO_FRESH_DISCARD: "there is no fresh discard to buy",
    Problem.UPCARD_NOT_BUYABLE: "the upcard turned at the deal's start is nobody's discard and may not be bought in this ruleset",
    Problem.NEXT_PLAYER_DRAWS: "the player about to draw takes the discard by drawing it, not by buying",
    Problem.OWN_DISCARD_BUY: "you cannot buy your own discard",
    Problem.BUY_LIMIT: "you have used all {limit} buys of this deal",
    Problem.STOCK_TOO_LOW: "the stock is too low to pay the penalty card",
    Problem.ALREADY_ASKED: "you have already asked for this card",
    Problem.CALL_TOO_LATE: "calls are made before the next player starts their turn",
    Problem.CALLS_OFF: "calls on discards are off in this ruleset",
    Problem.NOTHING_TO_CALL: "no playable discard can be called now",
    Problem.OWN_DISCARD_CALL: "you cannot call your own discard",
    Problem.LIVERPOOL_NOT_DOWN: "only a player who is down may call Liverpool",
    Problem.LIVERPOOL_SHEDS: "a Liverpool call sheds a card: say which",
    Problem.CARD_NOT_HELD: "{card} is not in your hand",
    Problem.CALL_LAST_CARD: "you must keep a card in hand, so you cannot call with your last one",
    Problem.RUMMY_SHEDS_NONE: "a rummy call does not shed a card",
    Problem.LAY_OFF_NOT_DOWN: "you lay off only once you have gone down",
    Problem.LAY_OFF_TAKEN_FIRST: "{card} must be laid off first",
    Problem.NO_SUCH_MELD: "there is no meld {index} on the table",
    Problem.RECLAIMED_OWN_MELDS: "{card}, taken from the table by a swap, goes only into your own melds",
    Problem.RECLAIMED_STRANDED: "{cards}, taken from the table by a swap, could then no longer be placed this turn",
    Problem.SWAPS_OFF: "joker swaps are off in this ruleset",
    Problem.SWAP_GOING_DOWN_ONLY: "jokers may only be swapped as you go down",
    Problem.SWAP_ONCE_DOWN: "jokers may only be swapped once you are down",
    Problem.SWAP_DOWN_EARLIER_NOT_NOW: "jokers may only be swapped by a player who went down on an earlier turn, not this one",
    Problem.SWAP_DOWN_EARLIER: "jokers may only be swapped by a player who went down on an earlier turn",
    Problem.SET_JOKERS_DEAD: "jokers in sets are dead in this ruleset",
    Problem.NOT_A_JOKER_OF: "{card} is not a joker of the meld {meld}",
    Problem.SWAP_FOR_NATURAL: "a joker can only be swapped for a natural card",
    Problem.JOKER_STANDS_FOR: "the joker stands for {stands}, not {card}",
    Problem.SWAP_UNPLAYABLE_GOING_DOWN: "{card} could not be played again at once (in your going-down)",
    Problem.SWAP_UNPLAYABLE_AT_ONCE: "{card} could not be played again at once",
    Problem.SWAP_UNPLAYABLE_AT_ONCE_OWN: "{card} could not be played again at once in your own melds",
    Problem.SWAP_UNPLAYABLE_THIS_TURN: "{card} could not be placed again this turn",
    Problem.SWAP_UNPLAYABLE_THIS_TURN_OWN: "{card} could not be placed again in your own melds this turn",
    Problem.TAKEN_NOT_DISCARDED: "{card} was just taken from the pile and may not be discarded this turn",
    Problem.FLOATER_TAKEN: "a floater goes out only with a card drawn from the stock, and {card} was taken from the pile",
    Problem.FLOATER_FITS: "a floater goes out only with an unplayable card, and {card} fits a meld on the table: lay it off",
}
"""The engine's English sentence of each problem (``{name}`` is the parameter ``name``; ``{s}`` is the
plural ending of ``count``)."""


@dataclass(frozen=True, slots=True)
class Rank:
    """A rank as a parameter: said ``A``, ``7``, ``Q`` (1 and 14 are aces)."""

    rank: int


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit as a parameter: ``C``, ``D``, ``H`` or ``S``."""

    suit: str


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as a parameter: said by its number in English, by the player's name where a client knows it."""

    seat: int


@dataclass(frozen=True, slots=True)
class PhaseShown:
    """A phase of a turn as a parameter: its name (``draw``, ``buy``, ``play``...; ``Phase``'s values)."""

    phase: str


@dataclass(frozen=True, slots=True)
class MeldShown:
    """A meld as a parameter: its ``text`` (``run: 3S 4S 5S JK``), its ``words`` (as
    :func:`~liverpool.engine.melds.meld_words` gives them) and its ``cards`` in notation."""

    text: str
    words: Mapping[str, int | str]
    cards: tuple[str, ...]


Value = Union[int, Card, Rank, Suit, Seat, PhaseShown, MeldShown, "Fault", tuple[Card, ...], tuple["Fault", ...]]
"""What a fault's parameter may be (:meth:`Fault.to_dict` says how each is sent)."""


@dataclass(frozen=True, slots=True)
class Fault:
    """One :class:`Problem` with the values its sentence names."""

    code: Problem
    params: Mapping[str, Value] = field(default_factory=dict)

    def text(self) -> str:
        """The engine's English sentence."""
        if not self.params:  # (every refusal's exception says it, the listing's quiet ones too)
            return _PLAIN.of(self.code)
        words = {name: _english(value) for name, value in self.params.items()}
        return ENGLISH[self.code].format(s="" if self.params.get("count") == 1 else "s", **words)

    def __str__(self) -> str:
        return self.text()

    def to_dict(self) -> dict[str, Any]:
        """``{"code", "params"}`` as the server sends it: each parameter a number, ``{"card"}``,
        ``{"cards"}``, ``{"rank"}``, ``{"suit"}``, ``{"seat"}``, ``{"phase"}``, ``{"meld", "cards"}`` (a
        meld's ``words``, as :func:`~liverpool.engine.melds.meld_words` gives them, and its cards), a
        fault, or ``{"faults"}`` (docs/protocol.md)."""
        return {"code": self.code.value, "params": {name: _wire(value) for name, value in self.params.items()}}


def _plain(code: Problem) -> str:
    return ENGLISH[code].format(s="s")


# The sentence of each problem said without parameters, made at its first use; kept by the member's identity:
# an enum member hashes through a Python call (``Enum.__hash__``), and the listing's quiet refusals ask for a
# sentence at most turns of some games.
_PLAIN: ByIdentity[str] = by_identity(_plain, at_most=256)


def _english(value: Any) -> str:
    if isinstance(value, int | Fault):
        return str(value)
    if isinstance(value, Rank):
        return rank_text(value.rank)
    if isinstance(value, Suit):
        return value.suit
    if isinstance(value, Seat):
        return str(value.seat)
    if isinstance(value, PhaseShown):
        return value.phase
    if isinstance(value, tuple):
        if all(isinstance(v, Fault) for v in value):
            return "; ".join(map(str, value))
        return ", ".join(map(str, value))
    if isinstance(value, MeldShown):
        return value.text
    raise TypeError(f"a fault's parameter is not {value!r}")


def _wire(value: Any) -> Any:
    if isinstance(value, Card):
        return {"card": str(value)}
    if isinstance(value, Fault):
        return value.to_dict()
    if isinstance(value, int):
        return value
    if isinstance(value, Rank):
        return {"rank": value.rank}
    if isinstance(value, Suit):
        return {"suit": value.suit}
    if isinstance(value, Seat):
        return {"seat": value.seat}
    if isinstance(value, PhaseShown):
        return {"phase": value.phase}
    if isinstance(value, MeldShown):
        return {"meld": dict(value.words), "cards": list(value.cards)}
    if all(isinstance(v, Fault) for v in value):
        return {"faults": [v.to_dict() for v in value]}
    return {"cards": [str(c) for c in value]}


class FaultError(ValueError):
    """A ``ValueError`` that says its :class:`Fault` (``str`` of it is the fault's English): what
    :func:`~liverpool.engine.melds.swap_joker` and :func:`~liverpool.engine.melds.lay_off` raise, so a
    refusal built from it keeps the code."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(fault.text())
        self.fault = fault
