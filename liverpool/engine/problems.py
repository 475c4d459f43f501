"""What is wrong, as a code and its parameters: the faults of melds, contracts and going-down drafts.

A :class:`Fault` is one value of :class:`Problem` and the values its sentence names (counts, cards, a
rank, a suit, a meld, other faults). The engine's English sentence is :meth:`Fault.text`; a client in
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

from liverpool.engine.cards import Card, rank_text


class Problem(StrEnum):
    """Why cards make no meld, a going-down does not meet its contract, or a draft is not ready. Each
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
class MeldShown:
    """A meld as a parameter: its ``text`` (``run: 3S 4S 5S JK``), its ``words`` (as
    :func:`~liverpool.engine.melds.meld_words` gives them) and its ``cards`` in notation."""

    text: str
    words: Mapping[str, int | str]
    cards: tuple[str, ...]


Value = Union[int, Card, Rank, Suit, MeldShown, "Fault", tuple[Card, ...], tuple["Fault", ...]]
"""What a fault's parameter may be (:meth:`Fault.to_dict` says how each is sent)."""


@dataclass(frozen=True, slots=True)
class Fault:
    """One :class:`Problem` with the values its sentence names."""

    code: Problem
    params: Mapping[str, Value] = field(default_factory=dict)

    def text(self) -> str:
        """The engine's English sentence."""
        words = {name: _english(value) for name, value in self.params.items()}
        return ENGLISH[self.code].format(s="" if self.params.get("count") == 1 else "s", **words)

    def __str__(self) -> str:
        return self.text()

    def to_dict(self) -> dict[str, Any]:
        """``{"code", "params"}`` as the server sends it: each parameter a number, ``{"card"}``,
        ``{"cards"}``, ``{"rank"}``, ``{"suit"}``, ``{"meld", "cards"}`` (a meld's ``words``, as
        :func:`~liverpool.engine.melds.meld_words` gives them, and its cards), a fault, or ``{"faults"}`` (docs/protocol.md)."""
        return {"code": self.code.value, "params": {name: _wire(value) for name, value in self.params.items()}}


def _english(value: Any) -> str:
    if isinstance(value, int | Fault):
        return str(value)
    if isinstance(value, Rank):
        return rank_text(value.rank)
    if isinstance(value, Suit):
        return value.suit
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
    if isinstance(value, MeldShown):
        return {"meld": dict(value.words), "cards": list(value.cards)}
    if all(isinstance(v, Fault) for v in value):
        return {"faults": [v.to_dict() for v in value]}
    return {"cards": [str(c) for c in value]}
