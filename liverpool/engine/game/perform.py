"""Performing an action :mod:`.verify` has accepted: dealing, drawing, buying, melding, discarding and
moving the turn on."""

from __future__ import annotations

from typing import Any, Final, assert_never, cast

from liverpool.engine._speed.cache import kept
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
from liverpool.engine.cards import FACE_MASK, Card
from liverpool.engine.game import checks
from liverpool.engine.game.scoring import _end_deal
from liverpool.engine.melds import lay_off, swap_joker
from liverpool.engine.pile_log import EMPTY as EMPTY_PILE_LOG
from liverpool.engine.rules.parts import Buying, BuyPrecedence, DiscardCall, EmptyHand, JokerSwapPlace, StockOut
from liverpool.engine.state import DealEndReason, GameState, Phase, PileMove, TableMeld

# Members of the rules' enums as Final names: compiled with mypyc, a name like ``MeldKind.SET`` is
# looked up through the enum class at each use, a Final name is a C static.
# Members of the rules' enums as Final names: compiled with mypyc, a name like ``MeldKind.SET`` is looked up
# through the enum class at each use (rules.py is not compiled), a Final name is a C static.
_AFTER_NEXT_DECLINES: Final = Buying.AFTER_NEXT_DECLINES
_FIRST_CALL: Final = BuyPrecedence.FIRST_CALL
_RESHUFFLE: Final = StockOut.RESHUFFLE
_GOES_OUT: Final = EmptyHand.GOES_OUT
_NO_CALLS: Final = DiscardCall.NONE
_AT_ONCE: Final = JokerSwapPlace.AT_ONCE
_WENT_OUT: Final = DealEndReason.WENT_OUT
_DISCARDED: Final = PileMove.DISCARDED
_DECLINED: Final = PileMove.DECLINED
_TOOK: Final = PileMove.TOOK
_BOUGHT: Final = PileMove.BOUGHT
_PHASE_RESHUFFLE: Final = Phase.RESHUFFLE
_PHASE_DRAW: Final = Phase.DRAW
_PHASE_BUY: Final = Phase.BUY
_PHASE_PLAY: Final = Phase.PLAY


# The most frequent actions' types, which _perform tells apart before its match.
_PASS_TYPE: Final = Pass
_DISCARD_TYPE: Final = Discard
_DRAW_STOCK_TYPE: Final = DrawStock
_DRAW_DISCARD_TYPE: Final = DrawDiscard


# -- performing ----------------------------------------------------------------------------------


def _perform(state: GameState, action: Action) -> None:
    # The four most frequent actions by their very type (Final names are C statics when compiled); then
    # the rest from the most frequent to the least: compiled, each case before the match is an isinstance
    # test of a class looked up by name (actions.py is not compiled).
    kind = type(action)
    if kind is _PASS_TYPE:
        state.window_answers[cast(Pass, action).seat] = False
        _settle_window(state)
        return
    if kind is _DISCARD_TYPE:
        _discard(state, cast(Discard, action))
        return
    if kind is _DRAW_STOCK_TYPE:
        _draw_stock(state, cast(DrawStock, action).seat)
        return
    if kind is _DRAW_DISCARD_TYPE:
        _draw_discard(state, cast(DrawDiscard, action))
        return
    match action:
        case Pass():
            state.window_answers[action.seat] = False
            _settle_window(state)
        case Discard():
            _discard(state, action)
        case DrawStock():
            _draw_stock(state, action.seat)
        case LayOff():
            table_meld = state.melds[action.meld]
            grown = lay_off(table_meld.meld, action.card, action.end, state.rules)
            state.melds[action.meld] = TableMeld(table_meld.owner, grown)
            _from_hand(state, action.seat, action.card)
            if state.must_place == action.card:
                state.must_place = None
            if state.reclaimed and action.card in state.reclaimed:
                state.reclaimed.remove(action.card)
            _after_shedding(state, action.seat)
        case DrawDiscard():
            _draw_discard(state, action)
        case GoDown():
            _go_down(state, action)
        case Buy():
            if state.rules.buying is _AFTER_NEXT_DECLINES:
                state.window_answers[action.seat] = True
                _settle_window(state)
            else:
                state.may_i_calls.append(action.seat)
        case SwapJoker():
            _do_swap(state, action)
        case EndTurn():
            _next_turn(state)
        case Shuffle():
            _deal(state, action)
        case Reshuffle():
            top = state.discard_pile[-1]
            state.stock = list(reversed(action.stock))
            state.discard_pile = [top]
            state.reshuffles += 1
            # the stock is hidden, so the log no longer names the cards washed into it
            washed = set(action.stock)
            state.pile_log = state.pile_log.kept(washed)
            state.phase = _PHASE_DRAW
        case Call():
            _call(state, action)
        case _:
            assert_never(action)


def _deal(state: GameState, action: Shuffle) -> None:
    rules, n = state.rules, state.seats
    hand_size = state.deal_rule.hand_size
    deck = list(action.deck)
    state.hands = [[] for _ in range(n)]
    position = 0
    for _ in range(hand_size):
        for k in range(1, n + 1):
            state.hands[(state.dealer + k) % n].append(deck[position])
            position += 1
    state.discard_pile = []
    if rules.upcard:
        state.discard_pile.append(deck[position])
        position += 1
    state.stock = list(reversed(deck[position:]))
    start_deal_bookkeeping(state)
    state.cut = action.cut
    state.cutter_bonus = None
    if rules.cut_bonus and action.cut == position:
        state.cutter_bonus = (state.dealer + 1) % n
    state.current = (state.dealer + 1) % n
    state.phase = _PHASE_DRAW


def start_deal_bookkeeping(state: GameState) -> None:
    """Everything a deal starts afresh but the cards: no melds, nobody down, no buys, no pending buy window,
    call, taken, placed or reclaimed card, no announcement, no wash. A deal dealt from a shuffle and one set
    up by hand (:mod:`.position`) both start from here, so a field added for a deal is reset in one place."""
    n = state.seats
    state.melds = []
    state.down = [False] * n
    state.buys = [0] * n
    state.known = [[] for _ in range(n)]
    state.fresh = state.rules.upcard
    state.discarder = None
    state.may_i_calls = []
    state.window, state.window_answers = [], {}
    state.call_open = False
    state.taken = None
    state.must_place = None
    state.reclaimed = []
    state.down_this_turn = False
    state.floating = False
    state.turn_end_counts = [-1] * n
    state.reshuffles = 0
    state.pile_log = EMPTY_PILE_LOG


def _take(state: GameState, seat: int, card: Card, known: bool) -> None:
    state.hands[seat].append(card)
    if known:
        state.known[seat].append(card)


def _from_hand(state: GameState, seat: int, card: Card) -> None:
    state.hands[seat].remove(card)
    if card in state.known[seat]:
        state.known[seat].remove(card)


def _give_bought(state: GameState, buyer: int) -> None:
    card = state.discard_pile.pop()
    _log(state, buyer, _BOUGHT, card)
    _take(state, buyer, card, known=True)
    for _ in range(state.rules.buy_penalty_cards):
        _take(state, buyer, state.stock.pop(), known=False)
    state.buys[buyer] += 1
    state.fresh = False


def _log(state: GameState, seat: int, move: PileMove, card: Card) -> None:
    """Add ``(seat, move, card)`` to the deal's pile log."""
    state.pile_log = state.pile_log.added(_pile_entry(seat, move, card, card))


# The pile log's entries made before, by seat and move (row ``seat * 4 + move's number``) and card (a small
# int): an entry is an immutable value, and a tuple made for each entry is allocated and freed with its deal
# (a `random` bots' deal logs hundreds of entries). Only the engine's own cards are kept here.
_pile_entries: Final[list[list[Any]]] = kept([])
_ENTRY_CARDS: Final = 1024
_CARD: Final = Card  # (a C static when compiled, where Card is a look-up by name)


def _pile_entry(seat: int, move: PileMove, card: Card, index: int) -> Any:
    """The entry ``(seat, move, card)``; ``index`` is ``card`` read as a plain int (compiled, indexing with a
    Card, an int subclass from a module that is not compiled, is a generic operation). Typed Any: compiled, a
    tuple typed as such is unboxed, and boxed anew (a new object) where it is used."""
    if type(card) is not _CARD or not 0 <= seat < 64 or not 0 <= index < _ENTRY_CARDS:
        fresh: Any = (seat, move, card)
        return fresh
    number = 0 if move is _DISCARDED else 1 if move is _DECLINED else 2 if move is _TOOK else 3
    at = seat * 4 + number
    while len(_pile_entries) <= at:
        _pile_entries.append([None] * _ENTRY_CARDS)
    row = _pile_entries[at]
    made = row[index]
    if made is None:
        made = (seat, move, card)  # (boxed once: the object kept is the one given)
        row[index] = made
    return made


def _draw_stock(state: GameState, seat: int) -> None:
    rules = state.rules
    if state.fresh and state.discard_pile:
        _log(state, seat, _DECLINED, state.discard_pile[-1])
    state.call_open = False
    if rules.buying is _AFTER_NEXT_DECLINES and state.fresh:
        buyers = checks.buyers_in_order(state)
        if buyers:
            state.window, state.window_answers = buyers, {}
            state.phase = _PHASE_BUY
            return
    if state.may_i_calls:
        callers = state.may_i_calls
        if rules.buy_precedence is _FIRST_CALL:
            winner = callers[0]
        else:
            order = [(seat + k) % state.seats for k in range(1, state.seats)]
            winner = next(s for s in order if s in callers)
        _give_bought(state, winner)
        state.may_i_calls = []
    _finish_stock_draw(state)


def _finish_stock_draw(state: GameState) -> None:
    state.fresh = False
    state.floating = not state.hands[state.current]
    _take(state, state.current, state.stock.pop(), known=False)
    state.taken = None
    state.phase = _PHASE_PLAY


def _settle_window(state: GameState) -> None:
    """Close the buy window once its outcome is decided by the answers so far."""
    answers = state.window_answers
    winner: int | None = None
    if state.rules.buy_precedence is _FIRST_CALL:
        winner = next((s for s, wants in answers.items() if wants), None)
        if winner is None and len(answers) < len(state.window):
            return
    else:
        for seat in state.window:
            if seat not in answers:
                return
            if answers[seat]:
                winner = seat
                break
    if winner is not None:
        _give_bought(state, winner)
    state.window, state.window_answers = [], {}
    _finish_stock_draw(state)


def _draw_discard(state: GameState, action: DrawDiscard) -> None:
    state.floating = not state.hands[action.seat]
    taken = state.discard_pile[-action.depth :]
    del state.discard_pile[-action.depth :]
    for card in taken:
        _take(state, action.seat, card, known=True)
    for card in taken:
        _log(state, action.seat, _TOOK, card)
    state.taken = taken[0] if action.depth == 1 else None
    state.must_place = taken[0] if action.depth > 1 else None
    state.fresh = False
    state.may_i_calls = []
    state.call_open = False
    state.phase = _PHASE_PLAY


def _go_down(state: GameState, action: GoDown) -> None:
    seat = action.seat
    for meld in action.melds:
        for card in meld.cards:
            _from_hand(state, seat, card)
        state.melds.append(TableMeld(seat, meld))
    state.down[seat] = True
    state.down_this_turn = True
    if state.must_place is not None:
        state.must_place = None
    if state.reclaimed:
        state.reclaimed = [c for c in state.reclaimed if c in state.hands[seat]]
    if checks.goes_out_on_going_down(state):
        _end_deal(state, seat, _WENT_OUT)
        return
    _after_shedding(state, seat)


def _after_shedding(state: GameState, seat: int) -> None:
    """An empty hand after melding: out (goes_out rules) or floating until the turn ends."""
    if not state.hands[seat] and state.rules.empty_hand is _GOES_OUT:
        _end_deal(state, seat, _WENT_OUT)


def _do_swap(state: GameState, action: SwapJoker) -> None:
    table_meld = state.melds[action.meld]
    swapped = swap_joker(table_meld.meld, action.joker, action.card, state.rules)
    state.melds[action.meld] = TableMeld(table_meld.owner, swapped)
    _from_hand(state, action.seat, action.card)
    _take(state, action.seat, action.joker, known=True)
    state.reclaimed.append(action.joker)
    if state.rules.joker_swap_place is _AT_ONCE or not state.down[action.seat]:
        state.must_place = action.joker


def _discard(state: GameState, action: Discard) -> None:
    seat, card = action.seat, action.card
    _from_hand(state, seat, card)
    state.discard_pile.append(card)
    _log(state, seat, _DISCARDED, card)
    if not state.hands[seat]:
        _end_deal(state, seat, _WENT_OUT)
        return
    state.fresh = True
    state.discarder = seat
    state.may_i_calls = []
    state.call_open = (
        state.rules.discard_call is not _NO_CALLS
        and state.down[seat]
        and bool(checks.table_fits(state.melds, state.rules) >> (card & FACE_MASK) & 1)  # it fits the table
    )
    _next_turn(state, keep_discard_state=True)


def _next_turn(state: GameState, keep_discard_state: bool = False) -> None:
    if not keep_discard_state:
        state.fresh = False
        state.call_open = False
        state.may_i_calls = []
    _count_at_turn_end(state, state.current)
    state.floating = False
    state.current = state.next_seat(state.current)
    state.turn += 1
    state.taken = None
    state.down_this_turn = False  # (no reclaimed joker is left: a turn does not end with one)
    state.phase = _PHASE_DRAW
    if state.stock:
        return
    rules = state.rules
    can_wash = (
        rules.stock_out is _RESHUFFLE
        and (rules.max_reshuffles is None or state.reshuffles < rules.max_reshuffles)
        and len(state.discard_pile) >= 2
    )
    if can_wash:
        state.phase = _PHASE_RESHUFFLE
    else:
        _end_deal(state, None, _stock_out_reason(state))


def _stock_out_reason(state: GameState) -> DealEndReason:
    """Why a deal whose stock ran out and could not be washed ends."""
    rules = state.rules
    if rules.stock_out is not _RESHUFFLE:
        return DealEndReason.STOCK_OUT
    if rules.max_reshuffles is not None and state.reshuffles >= rules.max_reshuffles:
        return DealEndReason.WASHES_USED
    return DealEndReason.PILE_TOO_SMALL


def _count_at_turn_end(state: GameState, seat: int) -> None:
    """Note how many cards ``seat`` holds as its turn ends, after its discard (what it announces under
    ``announce_after_discard``)."""
    counts = state.turn_end_counts
    if seat < len(counts):
        counts[seat] = len(state.hands[seat])


def _call(state: GameState, action: Call) -> None:
    state.call_open = False
    if action.card is not None:
        _from_hand(state, action.seat, action.card)
        _count_at_turn_end(state, action.seat)  # (the caller discards out of turn)
        state.discard_pile.append(action.card)
        state.discarder = action.seat
        state.fresh = True
        state.may_i_calls = []
        return
    offender = state.discarder
    assert offender is not None
    _take(state, offender, state.discard_pile.pop(), known=True)
    for _ in range(state.rules.buy_penalty_cards):
        _take(state, offender, state.stock.pop(), known=False)
    state.fresh = False
    state.may_i_calls = []
