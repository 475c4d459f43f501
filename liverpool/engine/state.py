"""The full, hidden state of a game. Only the engine reads it; everyone else gets observations.

The state is mutable and changed only through :func:`liverpool.engine.game.apply`, which validates
first. :meth:`GameState.clone` gives an independent copy for search (lists are copied, values shared).

>>> from liverpool.engine import find_preset, new_game
>>> state = new_game(find_preset('liverpool'), seats=3)
>>> state.phase, state.deal, state.seats
(<Phase.DEAL: 'deal'>, 0, 3)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from liverpool.engine._speed.values import by_fields, native
from liverpool.engine.actions import Action
from liverpool.engine.cards import Card
from liverpool.engine.melds import Meld
from liverpool.engine.pile_log import EMPTY, PileLog
from liverpool.engine.rules.parts import DealRule
from liverpool.engine.rules.ruleset import Ruleset


class Phase(StrEnum):
    """What the game waits for: a deal (chance), a reshuffle, a draw, answers to a buy window, the current
    player's plays, or nothing (the game is over)."""

    DEAL = "deal"
    DRAW = "draw"
    BUY = "buy"
    PLAY = "play"
    RESHUFFLE = "reshuffle"
    GAME_OVER = "game_over"


_GAME_OVER: Final = Phase.GAME_OVER  # (a C static when compiled, where Phase.GAME_OVER is two look-ups)


@dataclass(frozen=True, slots=True, init=False)
class TableMeld:
    """A meld on the table and the seat that laid it (lay-offs do not change the owner)."""

    owner: int
    meld: Meld

    def __init__(self, owner: int, meld: Meld) -> None:
        # Written, as Meld's (see there): compiled, the dataclass's generated __init__ would stay Python.
        if _NATIVE_TABLE_MELD:
            self.owner = owner  # type: ignore[misc]
            self.meld = meld  # type: ignore[misc]
        else:
            object.__setattr__(self, "owner", owner)
            object.__setattr__(self, "meld", meld)

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)


_NATIVE_TABLE_MELD: Final = native(TableMeld)  # see values.native


class PileMove(StrEnum):
    """What a seat did with a card of the discard pile, as everyone at the table saw it (an entry of
    :attr:`GameState.pile_log`): ``discarded`` it; ``declined`` it, drawing from the stock while it lay
    fresh on the pile on the seat's own turn; ``took`` it from the pile (with ``depth``, every card taken);
    ``bought`` it out of turn."""

    DISCARDED = "discarded"
    DECLINED = "declined"
    TOOK = "took"
    BOUGHT = "bought"


PileEntry = tuple[int, PileMove, Card]
"""One entry of a deal's pile log: the seat, what it did, the card."""


class DealEndReason(StrEnum):
    """Why a deal ended: ``went_out``, a seat went out (:attr:`DealResult.went_out`); ``stock_out``, the stock
    ran out and this ruleset ends the deal then (``stock_out = "end_deal"``); ``washes_used``, the stock ran out
    once more after being washed as many times as the ruleset allows (``max_reshuffles``;
    :attr:`DealResult.reshuffles` says how many); ``pile_too_small``, the stock ran out and the discard pile
    held too few cards to wash into a new one; ``before_position``, a deal played before a set-up position
    (:mod:`.position`) of which only the points are known (no hands, melds or seat that went out)."""

    WENT_OUT = "went_out"
    STOCK_OUT = "stock_out"
    WASHES_USED = "washes_used"
    PILE_TOO_SMALL = "pile_too_small"
    BEFORE_POSITION = "before_position"


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended, as everyone sees it once the hands are laid on the table to be counted.

    ``scores`` are what the deal adds to each seat's total: ``points`` (what the cards left in each hand
    count, 0 for the seat that went out) plus any cut bonus. ``hands`` are the cards each seat held at the
    end, ``melds`` the table as the deal left it, ``reason`` why it ended and ``reshuffles`` how many times
    the stock was washed during it. Public: the hands are shown only once the deal is over.
    """

    deal: int
    went_out: int | None
    scores: tuple[int, ...]
    reason: DealEndReason
    hands: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]
    melds: tuple[TableMeld, ...]
    reshuffles: int
    cut_bonus_seat: int | None = None

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)


@dataclass(slots=True)
class GameState:
    """The whole game. Of the turn in play: ``taken`` is the card just taken from the pile, ``must_place`` a
    card the next play must meld or lay off (a card dug for, or a joker reclaimed to be placed at once),
    ``reclaimed`` the jokers the current seat took from the table this turn and still holds (the turn cannot
    end with one in hand), and ``down_this_turn`` whether the current seat went down during this turn. Of the
    deal, ``pile_log`` is what each seat did with the discard pile's cards, in order (:class:`PileMove`): what
    everyone at the table saw, which an observation shows every seat. When the discard pile is washed into the
    stock, the entries naming the washed cards are dropped: no observation names a card of the stock."""

    rules: Ruleset
    seats: int
    first_dealer: int
    dealer: int
    phase: Phase = Phase.DEAL
    deal: int = 0
    current: int = 0
    hands: list[list[Card]] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    discard_pile: list[Card] = field(default_factory=list)
    melds: list[TableMeld] = field(default_factory=list)
    down: list[bool] = field(default_factory=list)
    buys: list[int] = field(default_factory=list)
    known: list[list[Card]] = field(default_factory=list)
    fresh: bool = False
    discarder: int | None = None
    may_i_calls: list[int] = field(default_factory=list)
    window: list[int] = field(default_factory=list)
    window_answers: dict[int, bool] = field(default_factory=dict)
    call_open: bool = False
    taken: Card | None = None
    must_place: Card | None = None
    reclaimed: list[Card] = field(default_factory=list)
    down_this_turn: bool = False
    floating: bool = False
    turn_end_counts: list[int] = field(default_factory=list)
    reshuffles: int = 0
    cut: int = 0
    cutter_bonus: int | None = None
    results: list[DealResult] = field(default_factory=list)
    replays: int = 0
    winners: tuple[int, ...] = ()
    turn: int = 0
    history: list[Action] = field(default_factory=list)
    pile_log: PileLog = EMPTY

    def clone(self) -> GameState:
        """An independent copy: every list is copied, cards and melds (immutable) are shared."""
        return GameState(
            rules=self.rules,
            seats=self.seats,
            first_dealer=self.first_dealer,
            dealer=self.dealer,
            phase=self.phase,
            deal=self.deal,
            current=self.current,
            hands=[list(h) for h in self.hands],
            stock=list(self.stock),
            discard_pile=list(self.discard_pile),
            melds=list(self.melds),
            down=list(self.down),
            buys=list(self.buys),
            known=[list(k) for k in self.known],
            fresh=self.fresh,
            discarder=self.discarder,
            may_i_calls=list(self.may_i_calls),
            window=list(self.window),
            window_answers=dict(self.window_answers),
            call_open=self.call_open,
            taken=self.taken,
            must_place=self.must_place,
            reclaimed=list(self.reclaimed),
            down_this_turn=self.down_this_turn,
            floating=self.floating,
            turn_end_counts=list(self.turn_end_counts),
            reshuffles=self.reshuffles,
            cut=self.cut,
            cutter_bonus=self.cutter_bonus,
            results=list(self.results),
            replays=self.replays,
            winners=self.winners,
            turn=self.turn,
            history=list(self.history),
            pile_log=self.pile_log,
        )

    # -- derived facts ---------------------------------------------------------------------------

    @property
    def deal_rule(self) -> DealRule:
        """This deal's rule; a replayed final deal (ties) uses the final deal's rule."""
        deals = self.rules.deals  # (read once: each read of a ruleset's field is a look-up by name)
        return deals[min(self.deal, len(deals) - 1)]

    @property
    def is_final_deal(self) -> bool:
        return self.deal >= len(self.rules.deals) - 1

    @property
    def is_over(self) -> bool:
        return self.phase is _GAME_OVER

    @property
    def totals(self) -> tuple[int, ...]:
        totals = [0] * self.seats
        for result in self.results:
            scores = result.scores
            for s in range(self.seats):
                totals[s] += scores[s]
        return tuple(totals)

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.seats

    def situation(self) -> str:
        """Where the game stands, for error messages."""
        if self.phase is Phase.GAME_OVER:
            return "the game is over"
        who = "" if self.phase in (Phase.DEAL, Phase.RESHUFFLE) else f", seat {self.current}'s turn"
        scheduled = len(self.rules.deals)
        deal = f"deal {self.deal + 1}" if self.deal < scheduled else f"deal {scheduled} replayed"
        return f"{deal}, {self.phase.value} phase{who}"

    def all_cards(self) -> list[Card]:
        """Every physical card of the deal, wherever it is (for invariant checks)."""
        cards: list[Card] = [c for hand in self.hands for c in hand]
        cards += self.stock
        cards += self.discard_pile
        cards += [c for tm in self.melds for c in tm.meld.cards]
        return cards
