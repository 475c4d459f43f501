"""Observations: exactly what one seat (or a spectator) may know.

Hidden: other seats' hands (except cards they took face up from the pile and still hold), and the
stock's order and contents. Everything else on the table is public. When a deal ends, every hand is laid
on the table to be counted: each deal's :class:`~.state.DealResult` in ``results`` shows the hands, their
points, the melds and why the deal ended, for every viewer alike (the deal being played is never among them).

>>> import random
>>> from liverpool.engine import apply, chance_action, find_preset, new_game
>>> state = new_game(find_preset('liverpool'), seats=3)
>>> _ = apply(state, chance_action(state, random.Random(1)))
>>> len(observe(state, 0).hand), len(observe(state, None).hand)
(10, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

from liverpool.engine._speed.cache import ByIdentity, by_identity, kept
from liverpool.engine._speed.values import by_fields, native
from liverpool.engine.cards import Card
from liverpool.engine.melds import joker_stands, meld_label, meld_words
from liverpool.engine.pile_log import EMPTY as EMPTY_PILE_LOG
from liverpool.engine.pile_log import PileLog
from liverpool.engine.rules.parts import Buying, MeldRule
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import DealResult, GameState, Phase, TableMeld

# Phases as Final names (compiled, ``Phase.DEAL`` is a look-up through the enum class at each use).
_PHASE_DEAL: Final = Phase.DEAL
_PHASE_PLAY: Final = Phase.PLAY
_GAME_OVER: Final = Phase.GAME_OVER


@dataclass(frozen=True, slots=True, init=False)
class SeatView:
    """What everyone knows of one seat."""

    seat: int
    hand_count: int
    down: bool
    buys: int
    known: tuple[Card, ...]
    announced: bool

    def __init__(
        self, seat: int, hand_count: int, down: bool, buys: int, known: tuple[Card, ...], announced: bool
    ) -> None:
        # The dataclass's __init__, written (see _NATIVE below): compiled, it is native and writes the fields
        # straight into the object; as Python, through each field's slot.
        if _NATIVE:
            self.seat = seat  # type: ignore[misc]
            self.hand_count = hand_count  # type: ignore[misc]
            self.down = down  # type: ignore[misc]
            self.buys = buys  # type: ignore[misc]
            self.known = known  # type: ignore[misc]
            self.announced = announced  # type: ignore[misc]
            return
        for setter, value in zip(_SEAT_SETTERS, (seat, hand_count, down, buys, known, announced), strict=True):
            setter(self, value)

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)


@dataclass(frozen=True, slots=True, init=False)
class Observation:
    """One viewer's view of the game; ``viewer`` is None for the public (spectator) view."""

    viewer: int | None
    rules: Ruleset
    seat_count: int
    deal: int
    contract: tuple[MeldRule, ...]
    phase: Phase
    current: int
    dealer: int
    hand: tuple[Card, ...]
    seats: tuple[SeatView, ...]
    melds: tuple[TableMeld, ...]
    discard_pile: tuple[Card, ...]
    stock_size: int
    fresh: bool
    discarder: int | None
    may_i_calls: tuple[int, ...]
    window: tuple[int, ...]
    window_answers: tuple[tuple[int, bool], ...]
    call_open: bool
    taken: Card | None
    must_place: Card | None
    reclaimed: tuple[Card, ...]
    down_this_turn: bool
    reshuffles: int
    results: tuple[DealResult, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    turn: int
    pile_log: PileLog

    def __init__(
        self,
        viewer: int | None,
        rules: Ruleset,
        seat_count: int,
        deal: int,
        contract: tuple[MeldRule, ...],
        phase: Phase,
        current: int,
        dealer: int,
        hand: tuple[Card, ...],
        seats: tuple[SeatView, ...],
        melds: tuple[TableMeld, ...],
        discard_pile: tuple[Card, ...],
        stock_size: int,
        fresh: bool,
        discarder: int | None,
        may_i_calls: tuple[int, ...],
        window: tuple[int, ...],
        window_answers: tuple[tuple[int, bool], ...],
        call_open: bool,
        taken: Card | None,
        must_place: Card | None,
        reclaimed: tuple[Card, ...],
        down_this_turn: bool,
        reshuffles: int,
        results: tuple[DealResult, ...],
        totals: tuple[int, ...],
        winners: tuple[int, ...],
        turn: int,
        pile_log: PileLog,
    ) -> None:
        # The dataclass's __init__, written (see _NATIVE below): compiled, it is native and writes the fields
        # straight into the object (there is an observation per seat asked at each step); as Python, each
        # field is set through its slot, half the cost of the frozen dataclass's object.__setattr__.
        if _NATIVE:
            self.viewer = viewer  # type: ignore[misc]
            self.rules = rules  # type: ignore[misc]
            self.seat_count = seat_count  # type: ignore[misc]
            self.deal = deal  # type: ignore[misc]
            self.contract = contract  # type: ignore[misc]
            self.phase = phase  # type: ignore[misc]
            self.current = current  # type: ignore[misc]
            self.dealer = dealer  # type: ignore[misc]
            self.hand = hand  # type: ignore[misc]
            self.seats = seats  # type: ignore[misc]
            self.melds = melds  # type: ignore[misc]
            self.discard_pile = discard_pile  # type: ignore[misc]
            self.stock_size = stock_size  # type: ignore[misc]
            self.fresh = fresh  # type: ignore[misc]
            self.discarder = discarder  # type: ignore[misc]
            self.may_i_calls = may_i_calls  # type: ignore[misc]
            self.window = window  # type: ignore[misc]
            self.window_answers = window_answers  # type: ignore[misc]
            self.call_open = call_open  # type: ignore[misc]
            self.taken = taken  # type: ignore[misc]
            self.must_place = must_place  # type: ignore[misc]
            self.reclaimed = reclaimed  # type: ignore[misc]
            self.down_this_turn = down_this_turn  # type: ignore[misc]
            self.reshuffles = reshuffles  # type: ignore[misc]
            self.results = results  # type: ignore[misc]
            self.totals = totals  # type: ignore[misc]
            self.winners = winners  # type: ignore[misc]
            self.turn = turn  # type: ignore[misc]
            self.pile_log = pile_log  # type: ignore[misc]
            return
        values = (
            viewer,
            rules,
            seat_count,
            deal,
            contract,
            phase,
            current,
            dealer,
            hand,
            seats,
            melds,
            discard_pile,
            stock_size,
            fresh,
            discarder,
            may_i_calls,
            window,
            window_answers,
            call_open,
            taken,
            must_place,
            reclaimed,
            down_this_turn,
            reshuffles,
            results,
            totals,
            winners,
            turn,
            pile_log,
        )
        for setter, value in zip(_SETTERS, values, strict=True):
            setter(self, value)

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)

    @property
    def top_discard(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    def visible_cards(self) -> set[Card]:
        """Every card this observation shows (for leak checks)."""
        cards = set(self.hand) | set(self.discard_pile)
        cards |= {c for tm in self.melds for c in tm.meld.cards}
        cards |= {c for s in self.seats for c in s.known}
        for extra in (self.taken, self.must_place):
            if extra is not None:
                cards.add(extra)
        cards |= set(self.reclaimed)
        return cards

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (cards in notation) of what the seat knows (see :meth:`to_client_dict`)."""
        return {
            "viewer": self.viewer,
            "ruleset": self.rules.name,
            "deal": self.deal,
            "contract": [str(m) for m in self.contract],
            "phase": self.phase.value,
            "current": self.current,
            "dealer": self.dealer,
            "hand": [str(c) for c in self.hand],
            "seats": [
                {
                    "seat": s.seat,
                    "hand_count": s.hand_count,
                    "down": s.down,
                    "buys": s.buys,
                    "known": [str(c) for c in s.known],
                    "announced": s.announced,
                }
                for s in self.seats
            ],
            "melds": [_table_meld_dict(tm) for tm in self.melds],
            "discard_pile": [str(c) for c in self.discard_pile],
            "stock_size": self.stock_size,
            "fresh": self.fresh,
            "discarder": self.discarder,
            "may_i_calls": list(self.may_i_calls),
            "window": list(self.window),
            "window_answers": [[s, w] for s, w in self.window_answers],
            "call_open": self.call_open,
            "taken": None if self.taken is None else str(self.taken),
            "must_place": None if self.must_place is None else str(self.must_place),
            "reclaimed": [str(c) for c in self.reclaimed],
            "down_this_turn": self.down_this_turn,
            "reshuffles": self.reshuffles,
            "results": [_result_dict(r) for r in self.results],
            "totals": list(self.totals),
            "winners": list(self.winners),
            "turn": self.turn,
            "pile_log": [[seat, kind, str(card)] for seat, kind, card in self.pile_log],
        }

    def to_client_dict(self) -> dict[str, Any]:
        """:meth:`to_dict` with what a client shows and must not work out itself: each meld's ``label``
        (``run 9♥–Q♥``) and what each of its jokers ``stands`` for (None for a natural), the buys allowed
        each seat this deal (``buys_allowed``, None: no limit), each seat's ``buys_left``, the ``buy_penalty_cards`` a buyer takes, and the contract's
        melds as ``contract_melds`` ({kind, length})."""
        out = self.to_dict()
        limit = 0 if self.rules.buying is Buying.NONE else self.rules.buy_limit_for(self.deal)
        out["buys_allowed"] = limit
        out["buy_penalty_cards"] = self.rules.buy_penalty_cards
        out["contract_melds"] = [{"kind": m.kind.value, "length": m.length} for m in self.contract]
        for seat in out["seats"]:
            seat["buys_left"] = None if limit is None else max(0, limit - seat["buys"])
        out["melds"] = [_client_meld(m, tm) for m, tm in zip(out["melds"], self.melds, strict=True)]
        for result, deal_result in zip(out["results"], self.results, strict=True):
            result["melds"] = [_client_meld(m, tm) for m, tm in zip(result["melds"], deal_result.melds, strict=True)]
        return out


def client_meld(table_meld: TableMeld) -> dict[str, Any]:
    """A meld on the table as :meth:`Observation.to_client_dict` gives it (with its label and joker stands)."""
    return _client_meld(_table_meld_dict(table_meld), table_meld)


def _client_meld(meld: dict[str, Any], table_meld: TableMeld) -> dict[str, Any]:
    words = meld_words(table_meld.meld)
    return {**meld, "label": meld_label(table_meld.meld), "words": words, "stands": list(joker_stands(table_meld.meld))}


def _table_meld_dict(table_meld: TableMeld) -> dict[str, Any]:
    meld = table_meld.meld
    return {"owner": table_meld.owner, "kind": meld.kind.value, "low": meld.low, "cards": [str(c) for c in meld.cards]}


def _result_dict(result: DealResult) -> dict[str, Any]:
    """A deal's end as clients read it (see :class:`.state.DealResult`): public once the deal is over."""
    return {
        "deal": result.deal,
        "went_out": result.went_out,
        "scores": list(result.scores),
        "reason": result.reason.value,
        "reshuffles": result.reshuffles,
        "hands": [[str(c) for c in hand] for hand in result.hands],
        "points": list(result.points),
        "melds": [_table_meld_dict(tm) for tm in result.melds],
        "cut_bonus_seat": result.cut_bonus_seat,
    }


def observe(state: GameState, viewer: int | None) -> Observation:
    """The observation of seat ``viewer`` (or the public view when ``viewer`` is None)."""
    return Observer(state).observe(viewer)


class Observer:
    """Observations of one moment of a game: what every seat sees is read off the state once, and each
    observation adds its viewer's hand. For a caller that asks several seats about the same moment (the
    game driver asks each seat that may act); the state must not change while the observer is used."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.in_deal = state.phase is not _PHASE_DEAL and state.phase is not _GAME_OVER and bool(state.hands)
        self.shared: list[Any] = []

    def answered(self) -> Observer:
        """The observer of the moment after a buy-window answer that left the window open: the same as this
        one's but for the window's answers, the only thing such an answer changes (see ``play.step``)."""
        state = self.state
        after = Observer(state)
        if self.shared:
            shared = list(self.shared)
            shared[_WINDOW_ANSWERS] = tuple(state.window_answers.items())
            after.shared = shared
        return after

    def observe(self, viewer: int | None) -> Observation:
        """The observation of seat ``viewer`` (or the public view when ``viewer`` is None)."""
        state = self.state
        if viewer is not None and not 0 <= viewer < state.seats:
            raise ValueError(f"there is no seat {viewer} at this {state.seats}-seat table")
        if not self.shared:
            self.shared = _shared(state, self.in_deal)
        hand: tuple[Card, ...] = ()
        if viewer is not None and self.in_deal:
            hand = tuple(state.hands[viewer])
        return _made(self.shared, viewer, hand)


def _shared(state: GameState, in_deal: bool) -> list[Any]:
    """The fields of an observation of ``state``, in field order, for no viewer (the public view)."""
    # (Built as one list display, without a starred item, and with no tuple made of an empty list or dict:
    # compiled, a starred item builds the list through a generic extend, and ``tuple(d.items())`` of the
    # empty dict, the buy window's answers at most steps, costs more than the rest of its line.)
    results, totals = _results_and_totals(state)
    facts = _VIEW_RULES.of(state.rules)
    contracts = facts.contracts  # (state.deal_rule.contract, without reading the ruleset's fields)
    may_i_calls, window, answers, reclaimed = state.may_i_calls, state.window, state.window_answers, state.reclaimed
    return [
        None,  # viewer
        state.rules,  # rules
        state.seats,  # seat_count
        state.deal,  # deal
        contracts[min(state.deal, len(contracts) - 1)] if state.phase is not _GAME_OVER else (),  # contract
        state.phase,  # phase
        state.current,  # current
        state.dealer,  # dealer
        (),  # hand
        _seat_views(state, facts) if in_deal else _blank_views(state.seats),  # seats
        tuple(state.melds) if in_deal else (),  # melds
        tuple(state.discard_pile) if in_deal else (),  # discard_pile
        len(state.stock) if in_deal else 0,  # stock_size
        state.fresh,  # fresh
        state.discarder,  # discarder
        tuple(may_i_calls) if may_i_calls else (),  # may_i_calls
        tuple(window) if window else (),  # window
        tuple(answers.items()) if answers else (),  # window_answers
        state.call_open,  # call_open
        state.taken,  # taken
        state.must_place,  # must_place
        tuple(reclaimed) if reclaimed else (),  # reclaimed
        state.down_this_turn,  # down_this_turn
        state.reshuffles,  # reshuffles
        results,  # results
        totals,  # totals
        state.winners,  # winners
        state.turn,  # turn
        state.pile_log if in_deal else EMPTY_PILE_LOG,  # pile_log
    ]


# The results of the last state observed and the totals they make, reused while a state holds the very same
# results (they are immutable and only ever appended, so the totals change once a deal).
_last_results: Final[list[tuple[tuple[DealResult, ...], int, tuple[int, ...]]]] = kept([])


def _results_and_totals(state: GameState) -> tuple[tuple[DealResult, ...], tuple[int, ...]]:
    """``tuple(state.results)`` and ``state.totals``."""
    results = state.results
    n = len(results)
    if _last_results:
        held, seats, totals = _last_results[0]
        if seats == state.seats and len(held) == n:
            same = True
            for i in range(n):
                if held[i] is not results[i]:
                    same = False
                    break
            if same:
                return held, totals
    held, totals = tuple(results), state.totals
    _last_results[:] = [(held, state.seats, totals)]
    return held, totals


# The last view made of each seat (by seat number), reused while it still says the same: a step changes
# one seat or none, and a view of each seat is made at every step. Each use checks every field, so views
# of other tables or games can never be mistaken for this one.
_last_views: Final[list[SeatView]] = kept([])


class _ViewRules:
    """What every observation reads of a ruleset, read once for each ruleset (compiled, each read of a
    ruleset's field is a look-up by name; rules.py is not compiled)."""

    def __init__(self, rules: Ruleset) -> None:
        self.announce_at: int = rules.announce_at
        self.after_discard: bool = rules.announce_at > 0 and rules.announce_after_discard
        self.contracts: tuple[tuple[MeldRule, ...], ...] = tuple(deal.contract for deal in rules.deals)


_VIEW_RULES: Final[ByIdentity[_ViewRules]] = by_identity(_ViewRules)


def _seat_views(state: GameState, facts: _ViewRules) -> tuple[SeatView, ...]:
    announce = facts.announce_at
    # Announced after the discard (000): the count a seat held as its last turn ended, while it still holds
    # that many, and not while the seat is in the middle of its turn; else whenever it holds so few (001a).
    after_discard = facts.after_discard
    counts = state.turn_end_counts
    playing = state.current if state.phase is _PHASE_PLAY else -1
    hands, down, buys, known = state.hands, state.down, state.buys, state.known
    last = _last_views
    views: list[SeatView] = []
    for s in range(state.seats):
        count = len(hands[s])
        is_down = down[s]
        bought = buys[s]
        cards = known[s]
        announced = announce > 0 and count <= announce
        if announced and after_discard:
            announced = s != playing and s < len(counts) and counts[s] == count
        if s < len(last):
            view = last[s]
            if (
                view.hand_count == count
                and view.down is is_down
                and view.buys == bought
                and view.announced is announced
                and _same_cards(view.known, cards)
            ):
                views.append(view)
                continue
        view = SeatView(s, count, is_down, bought, tuple(cards), announced)
        if s < len(last):
            last[s] = view
        elif s == len(last):
            last.append(view)
        views.append(view)
    return tuple(views)


def _same_cards(held: tuple[Card, ...], cards: list[Card]) -> bool:
    """``held == tuple(cards)``, without making the tuple (a seat's known cards are mostly none)."""
    if len(held) != len(cards):
        return False
    for i in range(len(held)):  # (a loop: compiled, all() of a generator makes a generator object)
        card = held[i]
        if card is not cards[i] and card != cards[i]:  # (mostly the very same card: no generic comparison)
            return False
    return True


def _blank_views(seats: int) -> tuple[SeatView, ...]:
    return tuple([SeatView(s, 0, False, 0, (), False) for s in range(seats)])


# Making values fast (see values.native, and the written __init__ of Observation and SeatView): compiled,
# fields are written straight into the native object; as Python, through each field's slot descriptor.
_NATIVE: Final = native(Observation)
_SETTERS: Final = () if _NATIVE else tuple(getattr(Observation, f.name).__set__ for f in fields(Observation))
_SEAT_SETTERS: Final = () if _NATIVE else tuple(getattr(SeatView, f.name).__set__ for f in fields(SeatView))
_FIELDS: Final = len(fields(Observation))
_WINDOW_ANSWERS: Final = [f.name for f in fields(Observation)].index("window_answers")


def _made(values: list[Any], viewer: int | None, hand: tuple[Card, ...]) -> Observation:
    """``Observation(*values)`` with the viewer and the hand given (the values in field order; theirs are
    ignored): a seat's observation made from the shared values without copying them."""
    if len(values) != _FIELDS:
        raise ValueError(f"an Observation has {_FIELDS} fields, not {len(values)}")
    return Observation(
        viewer, values[1], values[2], values[3], values[4], values[5], values[6], values[7], hand,
        values[9], values[10], values[11], values[12], values[13], values[14], values[15], values[16],
        values[17], values[18], values[19], values[20], values[21], values[22], values[23], values[24],
        values[25], values[26], values[27], values[28],
    )  # fmt: skip
