"""The one way a game changes: :func:`apply` validates an action, then performs it.

An illegal action raises a subclass of :class:`~liverpool.engine.errors.IllegalAction` naming the
action, the reason and the situation, and leaves the state untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, assert_never, cast

from . import checks
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
from .cards import FACE_MASK, Card, make_shoe
from .errors import (
    BadChance,
    CannotBuy,
    CannotCall,
    CannotDiscard,
    CannotDraw,
    CannotGoDown,
    CannotLayOff,
    CannotSwap,
    CardNotInHand,
    GameOver,
    IllegalAction,
    MalformedAction,
    MustPlaceCard,
    NotYourTurn,
    WrongPhase,
)
from .melds import Meld, accepted_faces, contract_problem, lay_off, swap_joker
from .rules import (
    Buying,
    BuyPrecedence,
    DiscardCall,
    EmptyHand,
    JokerSwapPlace,
    JokerSwapTarget,
    MeldKind,
    Ruleset,
    StockOut,
    Ties,
)
from .search_candidates import face_weights
from .state import DealEndReason, DealResult, GameState, Phase, TableMeld

# Members of the rules' enums as Final names: compiled with mypyc, a name like ``MeldKind.SET`` is looked up
# through the enum class at each use (rules.py is not compiled), a Final name is a C static.
_AFTER_NEXT_DECLINES: Final = Buying.AFTER_NEXT_DECLINES
_BEFORE_NEXT_DRAW: Final = Buying.BEFORE_NEXT_DRAW
_REPLAY_FINAL_DEAL: Final = Ties.REPLAY_FINAL_DEAL
_SHARE: Final = Ties.SHARE
_FIRST_CALL: Final = BuyPrecedence.FIRST_CALL
_RESHUFFLE: Final = StockOut.RESHUFFLE
_SET: Final = MeldKind.SET
_GOES_OUT: Final = EmptyHand.GOES_OUT
_NO_CALLS: Final = DiscardCall.NONE
_AT_ONCE: Final = JokerSwapPlace.AT_ONCE
_OWN_MELDS: Final = JokerSwapTarget.OWN_MELDS
_WENT_OUT: Final = DealEndReason.WENT_OUT


ACTION_CLASSES: Final = (
    Shuffle,
    Reshuffle,
    DrawStock,
    DrawDiscard,
    Buy,
    Pass,
    GoDown,
    LayOff,
    SwapJoker,
    Discard,
    EndTurn,
    Call,
)
# Phases as Final names (compiled, ``Phase.DRAW`` is a look-up through the enum class at each use).
_PHASE_DEAL: Final = Phase.DEAL
_PHASE_RESHUFFLE: Final = Phase.RESHUFFLE
_PHASE_DRAW: Final = Phase.DRAW
_PHASE_BUY: Final = Phase.BUY
_PHASE_PLAY: Final = Phase.PLAY
_PHASE_GAME_OVER: Final = Phase.GAME_OVER
# Actions with nothing but a seat (checked by _verify): exactly these types have no shape to check.
_PLAIN_ACTIONS: Final = frozenset((DrawStock, Buy, Pass, EndTurn))
# The most frequent actions' types, which _perform tells apart before its match.
_PASS_TYPE: Final = Pass
_DISCARD_TYPE: Final = Discard
_DRAW_STOCK_TYPE: Final = DrawStock


def new_game(rules: Ruleset, seats: int, first_dealer: int = 0) -> GameState:
    """A game waiting for its first :class:`Shuffle`."""
    rules.deck_for(seats)
    if rules.partnerships and seats != 4:
        raise ValueError(f"{rules.name}: partnerships need 4 seats, not {seats}")
    if not 0 <= first_dealer < seats:
        raise ValueError(f"first_dealer must be a seat 0..{seats - 1}, not {first_dealer}")
    return GameState(rules=rules, seats=seats, first_dealer=first_dealer, dealer=first_dealer)


def shoe(state: GameState) -> tuple[Card, ...]:
    """Every physical card this table plays with (kept by ruleset and seats: compiled, ``deck_for`` is a
    Python call, made for each deal's shuffle and its check)."""
    return _shoe_of(state)[1]


def _shoe_of(state: GameState) -> tuple[Ruleset, tuple[Card, ...], frozenset[Card]]:
    """The ruleset, the shoe and its cards as a set (which each deal's shuffle is checked against)."""
    rules, seats = state.rules, state.seats
    key = id(rules) * 64 + seats if 0 <= seats < 64 else -1
    held = _shoes.get(key)
    if held is not None and held[0] is rules:
        return held
    deck = rules.deck_for(seats)
    cards = make_shoe(deck.decks, deck.jokers)
    made = (rules, cards, frozenset(cards))
    if key >= 0:
        if len(_shoes) >= 64:
            _shoes.clear()
        _shoes[key] = made
    return made


# The shoe of each ruleset and table size met, by the ruleset's identity and the seats (the ruleset held in
# the value, so that its identity is never reused while the entry lives).
_shoes: Final[dict[int, tuple[Ruleset, tuple[Card, ...], frozenset[Card]]]] = {}


def _penalty(hand: Sequence[int], values: tuple[int, ...]) -> int:
    """The penalty points of ``hand`` (``values`` by face): cards read as ints, as ``rules.value`` reads them
    but without a Python call each."""
    total = 0
    for card in hand:
        total += values[card & FACE_MASK]
    return total


def apply(state: GameState, action: Action) -> GameState:
    """Validate ``action`` against ``state``, then perform it (in place). Returns ``state``."""
    _verify(state, action)
    _perform(state, action)
    state.history.append(action)
    return state


def apply_listed(state: GameState, action: Action, listed: Sequence[Action]) -> GameState:
    """:func:`apply`, for a caller that has just listed ``legal_actions(state)`` as ``listed`` and not
    changed ``state`` since: an action that is one of those very objects is legal by construction and is
    performed without validating it again; any other action (an equal copy included) is validated."""
    for option in listed:
        if option is action:
            _perform(state, action)
            state.history.append(action)
            return state
    return apply(state, action)


def is_legal(state: GameState, action: Action) -> bool:
    try:
        _verify(state, action, quiet=True)
    except IllegalAction:
        return False
    return True


def refusal(state: GameState, action: Action) -> IllegalAction | None:
    """The :class:`IllegalAction` that :func:`apply` would raise for ``action``, or ``None`` if it is legal
    (the state is not changed either way)."""
    try:
        _verify(state, action)
    except IllegalAction as exc:
        return exc
    return None


def is_legal_made(state: GameState, action: Action) -> bool:
    """:func:`is_legal` of an action the engine made itself from the state (so one of the action classes,
    with fields of the right types): the same answer, without the type checks that :func:`apply` makes of
    an action built elsewhere (compiled, they test each class and read each field by name)."""
    try:
        _verify(state, action, quiet=True, made=True)
    except IllegalAction:
        return False
    return True


# -- validation ----------------------------------------------------------------------------------


def _verify(state: GameState, action: Action, quiet: bool = False, made: bool = False) -> None:
    """Raise the IllegalAction that refuses ``action``, if any; ``quiet`` when nobody reads its message
    (:func:`is_legal`), which then names neither the action nor the situation; ``made`` when the engine
    made the action itself (:func:`is_legal_made`), whose shape needs no checking."""
    name: object = _UNSAID if quiet else _Named(action)
    where: object = _UNSAID if quiet else _Situation(state)
    if state.phase is _PHASE_GAME_OVER:
        raise GameOver(name, "the game is over", where)
    # Read untyped: compiled, reading ``action.seat`` checks it against its annotation (a TypeError for a
    # seat of another type, which must be refused as malformed).
    seat: object = getattr(action, "seat")  # noqa: B009
    if seat is None:
        if type(action) is not Shuffle and type(action) is not Reshuffle:
            raise MalformedAction(name, "only chance actions have no seat", where)
    elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise MalformedAction(name, f"there is no seat {seat!r} at this {state.seats}-seat table", where)
    problem = None if made else _shape_problem(action)
    if problem is not None:
        raise MalformedAction(name, problem, where)
    # The actions asked about most first (the listing asks about taking the discard and joker swaps): compiled,
    # each case before the match is an isinstance test of a class looked up by name.
    match action:
        case DrawDiscard():
            _turn(state, action.seat, _PHASE_DRAW, name, where)
            _verify_draw_discard(state, action, name, where)
        case SwapJoker():
            _verify_swap(state, action, name, where)
        case Shuffle():
            _verify_shuffle(state, action, name, where)
        case Reshuffle():
            if state.phase is not _PHASE_RESHUFFLE:
                raise WrongPhase(name, "the stock is not being washed now", where)
            if sorted(action.stock) != sorted(state.discard_pile[:-1]):
                raise BadChance(name, "the new stock must be exactly the discard pile without its top card", where)
        case DrawStock():
            _turn(state, action.seat, _PHASE_DRAW, name, where)
        case Buy():
            _verify_buy(state, action.seat, name, where)
        case Pass():
            if state.phase is not _PHASE_BUY:
                raise WrongPhase(name, "no buy window is open", where)
            if action.seat not in state.window or action.seat in state.window_answers:
                raise NotYourTurn(name, "you have no open buy offer to decline", where)
        case GoDown():
            _play_turn(state, action.seat, name, where)
            _verify_go_down(state, action, name, where)
        case LayOff():
            end: object = getattr(action, "end")  # noqa: B009 (read untyped, as the seat above)
            if end is not None and end != "low" and end != "high":
                raise MalformedAction(name, f"the end of a run is 'low' or 'high', not {end!r}", where)
            _play_turn(state, action.seat, name, where)
            _verify_lay_off(state, action, name, where)
        case Discard():
            _play_turn(state, action.seat, name, where)
            _no_pending(state, name, where)
            _none_reclaimed(state, name, where)
            _verify_discard(state, action, name, where)
        case EndTurn():
            _play_turn(state, action.seat, name, where)
            _no_pending(state, name, where)
            _none_reclaimed(state, name, where)
            if state.hands[action.seat] and not state.rules.discard_optional:
                raise CannotDiscard(name, "a turn ends with a discard in this ruleset", where)
        case Call():
            if state.phase is not _PHASE_DRAW:
                raise WrongPhase(name, "calls are made before the next player starts their turn", where)
            problem = checks.call_problem(state, action.seat, action.card)
            if problem is not None:
                raise CannotCall(name, problem, where)
        case _:
            assert_never(action)


class _Named:
    """An action's repr, made only when an error message needs it."""

    __slots__ = ("action",)

    def __init__(self, action: Action) -> None:
        self.action = action

    def __str__(self) -> str:
        return repr(self.action)


class _Unsaid:
    """The action or the situation in an error message that nobody reads."""

    __slots__ = ()

    def __str__(self) -> str:
        return ""


_UNSAID: Final = _Unsaid()


class _Situation:
    """The situation text, made only when an error message needs it."""

    __slots__ = ("state",)

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __str__(self) -> str:
        return self.state.situation()


def _shape_problem(action: Action) -> str | None:
    """Type checks for actions built in Python rather than read from JSON."""
    if type(action) in _PLAIN_ACTIONS:
        return None
    if not isinstance(action, ACTION_CLASSES):
        return f"{type(action).__name__} is not an action"
    cards: list[object] = []
    match action:
        case Shuffle():
            deck: object = getattr(action, "deck")  # noqa: B009 (read untyped, as melds below)
            cut: object = getattr(action, "cut")  # noqa: B009
            if not isinstance(deck, tuple):
                return f"a deck is a tuple of Card values, not {type(deck).__name__}"
            if isinstance(cut, bool) or not isinstance(cut, int):
                return f"the cut must be a whole number, not {cut!r}"
            cards = list(deck)
        case Reshuffle():
            stock: object = getattr(action, "stock")  # noqa: B009
            if not isinstance(stock, tuple):
                return f"a stock is a tuple of Card values, not {type(stock).__name__}"
            cards = list(stock)
        case GoDown():
            # Read untyped: compiled with mypyc, reading an attribute checks it against its annotation.
            melds: object = getattr(action, "melds")  # noqa: B009
            if not isinstance(melds, tuple) or not all(isinstance(m, Meld) for m in melds):
                return "a going-down is a tuple of Meld values"
            cards = [c for m in action.melds for c in m.cards]
        case LayOff(card=card) | SwapJoker(card=card):
            index: object = getattr(action, "meld")  # noqa: B009
            if isinstance(index, bool) or not isinstance(index, int):
                return f"a meld is named by its index, a whole number, not {index!r}"
            cards = [card, action.joker] if isinstance(action, SwapJoker) else [card]
        case Discard(card=card):
            cards = [card]
        case Call(card=card) if card is not None:
            cards = [card]
        case DrawDiscard():
            depth: object = getattr(action, "depth")  # noqa: B009
            if isinstance(depth, bool) or not isinstance(depth, int):
                return f"depth must be a whole number, not {depth!r}"
    for item in cards:
        if not isinstance(item, Card):
            return f"{item!r} is not a Card (use Card.parse)"
    return None


def _turn(state: GameState, seat: int, phase: Phase, name: object, where: object) -> None:
    """Refuse an action of the turn's seat made in the wrong ``phase`` or by another seat: whose turn it is
    comes first, so a seat acting out of turn hears ``not_your_turn`` whatever the phase of the turn."""
    now = state.phase
    if seat != state.current and (now is _PHASE_DRAW or now is _PHASE_PLAY or now is _PHASE_BUY):
        raise NotYourTurn(name, f"it is seat {state.current}'s turn", where)
    if now is not phase:
        raise WrongPhase(name, f"this is the {now.value} phase, not the {phase.value} phase", where)


def _play_turn(state: GameState, seat: int, name: object, where: object) -> None:
    _turn(state, seat, _PHASE_PLAY, name, where)


def _no_pending(state: GameState, name: object, where: object) -> None:
    if state.must_place is not None:
        raise MustPlaceCard(name, f"{state.must_place} must be melded or laid off first", where)


def _none_reclaimed(state: GameState, name: object, where: object) -> None:
    """A turn does not end while a joker reclaimed by a swap this turn is still in hand."""
    if state.reclaimed:
        jokers = ", ".join(map(str, state.reclaimed))
        raise MustPlaceCard(
            name, f"{jokers}, taken from the table by a swap, must be placed on the table before your turn ends", where
        )


def _verify_shuffle(state: GameState, action: Shuffle, name: object, where: object) -> None:
    if state.phase is not _PHASE_DEAL:
        raise WrongPhase(name, "no deal is waiting to be dealt", where)
    # Every card of a shoe is a distinct value, so "each card exactly once" is: as many cards, none twice,
    # and the same set (sets, not sorts: this is checked at every deal).
    deck, (_, cards, every) = action.deck, _shoe_of(state)
    dealt = set(deck)
    if len(deck) != len(cards) or len(dealt) != len(deck) or dealt != every:
        raise BadChance(name, "the deck must hold every card of the shoe exactly once", where)
    if not 0 <= action.cut <= len(action.deck):
        raise BadChance(name, f"the cut must lift 0..{len(action.deck)} cards, not {action.cut}", where)


def _verify_draw_discard(state: GameState, action: DrawDiscard, name: object, where: object) -> None:
    rules = state.rules
    pile = state.discard_pile
    if not pile:
        raise CannotDraw(name, "the discard pile is empty", where)
    if state.may_i_calls and rules.buy_blocks_next_player:
        raise CannotDraw(name, "someone has called May I, so you must draw from the stock", where)
    hand = state.hands[action.seat]
    if action.depth == 1:
        if not hand and not rules.discard_optional and (rules.no_discard_taken_card or rules.float_out_unplayable):
            raise CannotDraw(
                name, "with an empty hand you must draw from the stock, as the card taken could not be discarded", where
            )
        return
    if not rules.dig_discard_pile:
        raise CannotDraw(name, "only the top discard may be taken in this ruleset", where)
    if not 1 < action.depth <= len(pile):
        raise CannotDraw(name, f"the pile holds {len(pile)} cards; cannot dig {action.depth} deep", where)
    if not dig_is_playable(state, action.seat, action.depth):
        raise CannotDraw(name, f"{pile[-action.depth]} could not be melded at once", where)


def dig_is_playable(state: GameState, seat: int, depth: int) -> bool:
    """Whether the card ``depth`` deep in the pile could be melded at once after digging for it."""
    taken = state.discard_pile[-depth:]
    target = taken[0]
    hand = [*state.hands[seat], *taken]
    if state.down[seat]:
        left = [c for c in hand if c != target]
        return bool(checks.lay_off_targets(state, target)) and checks.remaining_problem(state, left) is None
    return checks.can_go_down(state, seat, hand, target)


def _verify_buy(state: GameState, seat: int, name: object, where: object) -> None:
    rules = state.rules
    if rules.buying is _AFTER_NEXT_DECLINES:
        if state.phase is not _PHASE_BUY:
            raise WrongPhase(name, "buying opens only once the next player has declined the discard", where)
        if seat in state.window_answers:
            raise CannotBuy(name, "you have already answered this buy offer", where)
        if seat not in state.window:
            raise CannotBuy(name, checks.buy_problem(state, seat) or "you have no open buy offer", where)
        return
    if rules.buying is _BEFORE_NEXT_DRAW and state.phase is not _PHASE_DRAW:
        raise WrongPhase(name, "May I is asked after a discard and before the next player draws", where)
    problem = checks.buy_problem(state, seat)
    if problem is not None:
        raise CannotBuy(name, problem, where)


def _owned(state: GameState, seat: int, cards: list[Card] | tuple[Card, ...], name: object, where: object) -> None:
    hand = state.hands[seat]
    if len(set(cards)) != len(cards):
        raise CardNotInHand(name, "the same card is used twice", where)
    missing = [c for c in cards if c not in hand]
    if missing:
        raise CardNotInHand(name, f"{', '.join(map(str, missing))} not in your hand", where)


def _verify_go_down(state: GameState, action: GoDown, name: object, where: object) -> None:
    seat = action.seat
    if state.down[seat]:
        raise CannotGoDown(name, "you have already gone down this deal", where)
    used = [c for m in action.melds for c in m.cards]
    _owned(state, seat, used, name, where)
    problem = contract_problem(action.melds, state.deal_rule.contract, state.rules)
    if problem is not None:
        raise CannotGoDown(name, problem, where)
    if state.must_place is not None and state.must_place not in used:
        raise MustPlaceCard(name, f"{state.must_place} must be in the melds you lay down", where)
    left = [c for c in state.hands[seat] if c not in used]
    if checks.whole_hand_required(state):
        if left:
            raise CannotGoDown(name, "the final contract must use every card in your hand", where)
        return
    if checks.goes_out_on_going_down(state):
        return
    problem = checks.remaining_problem(state, left)
    if problem is not None:
        raise CannotGoDown(name, problem, where)


def _verify_lay_off(state: GameState, action: LayOff, name: object, where: object) -> None:
    seat = action.seat
    if not state.down[seat]:
        raise CannotLayOff(name, "you lay off only once you have gone down", where)
    _owned(state, seat, [action.card], name, where)
    if state.must_place is not None and action.card != state.must_place:
        raise MustPlaceCard(name, f"{state.must_place} must be laid off first", where)
    if not 0 <= action.meld < len(state.melds):
        raise CannotLayOff(name, f"there is no meld {action.meld} on the table", where)
    target = state.melds[action.meld]
    # One form for each lay-off, the one legal_actions lists: no end for a set, the end for a run.
    if target.meld.kind is _SET:
        if action.end is not None:
            raise MalformedAction(name, f"a lay-off onto a set names no end (end=None), not end={action.end!r}", where)
    elif action.end is None:
        raise MalformedAction(name, "a lay-off onto a run names the end the card goes to, 'low' or 'high'", where)
    reclaimed = state.reclaimed
    if reclaimed and action.card in reclaimed and not checks.may_place_reclaimed(state, seat, target.owner):
        raise CannotLayOff(name, f"{action.card}, taken from the table by a swap, goes only into your own melds", where)
    try:
        grown = lay_off(target.meld, action.card, action.end, state.rules)
    except ValueError as exc:
        raise CannotLayOff(name, str(exc), where) from exc
    left = [c for c in state.hands[seat] if c != action.card]
    problem = checks.remaining_problem(state, left)
    if problem is not None:
        raise CannotLayOff(name, problem, where)
    if reclaimed:
        waiting = [c for c in reclaimed if c != action.card]
        if waiting:
            table = list(state.melds)
            table[action.meld] = TableMeld(target.owner, grown)
            rest = [c for c in left if c not in waiting]
            if not checks.reclaimed_fit(state, seat, table, waiting, rest):
                jokers = ", ".join(map(str, waiting))
                raise MustPlaceCard(
                    name, f"{jokers}, taken from the table by a swap, could then no longer be placed this turn", where
                )


def _verify_swap(state: GameState, action: SwapJoker, name: object, where: object) -> None:
    swapped = _checked_swap(state, action, name, where)
    if not _swapped_is_playable(state, action, swapped):
        raise CannotSwap(name, f"{action.joker} could not be {_placed_how(state, action.seat)}", where)


def _placed_how(state: GameState, seat: int) -> str:
    """How a reclaimed joker must be placed, for a refused swap's message."""
    if not state.down[seat]:
        return "played again at once (in your going-down)"
    where = " in your own melds" if state.rules.joker_swap_target is _OWN_MELDS else ""
    if state.rules.joker_swap_place is _AT_ONCE:
        return f"played again at once{where}"
    return f"placed again{where} this turn"


def _checked_swap(state: GameState, action: SwapJoker, name: object, where: object) -> Meld:
    """The meld as the swap leaves it, once every check but the joker's playing on at once has passed."""
    _play_turn(state, action.seat, name, where)
    problem = checks.swap_allowed(state, action.seat)
    if problem is not None:
        raise CannotSwap(name, problem, where)
    _no_pending(state, name, where)
    _owned(state, action.seat, [action.card], name, where)
    if not 0 <= action.meld < len(state.melds):
        raise CannotSwap(name, f"there is no meld {action.meld} on the table", where)
    meld = state.melds[action.meld].meld
    if meld.kind is _SET and not state.rules.joker_swap_from_sets:
        raise CannotSwap(name, "jokers in sets are dead in this ruleset", where)
    try:
        return swap_joker(meld, action.joker, action.card, state.rules)
    except ValueError as exc:
        raise CannotSwap(name, str(exc), where) from exc


def is_legal_swap_listed(state: GameState, action: SwapJoker, going_down: Sequence[tuple[Meld, ...]]) -> bool:
    """:func:`is_legal_made` of a joker swap the listing made in the play phase, given ``going_down``: the
    arrangements it lists for the seat to go down with its hand as it is (none once down). A swap that one of
    them shows playable (:func:`.checks.joker_goes_down`) needs no search; the answer is the same."""
    try:
        swapped = _checked_swap(state, action, _UNSAID, _UNSAID)
    except IllegalAction:
        return False
    if going_down and not state.down[action.seat]:
        hand = list(state.hands[action.seat])
        hand.remove(action.card)
        hand.append(action.joker)
        if checks.joker_goes_down(state, hand, action.card, action.joker, going_down):
            return True
    return _swapped_is_playable(state, action, swapped)


def swap_is_playable(state: GameState, action: SwapJoker) -> bool:
    """After the swap, can the joker be played at once (laid off, or in the going-down)?"""
    swapped = swap_joker(state.melds[action.meld].meld, action.joker, action.card, state.rules)
    return _swapped_is_playable(state, action, swapped)


def _swapped_is_playable(state: GameState, action: SwapJoker, swapped: Meld) -> bool:
    """:func:`swap_is_playable`, given the meld as the swap leaves it. The swap is not performed: what
    the checks read of the state after it (rules, deal, taken card) is as before, but the seat's hand
    and the swapped meld, which are built here."""
    seat, joker = action.seat, action.joker
    hand = list(state.hands[seat])
    hand.remove(action.card)
    hand.append(joker)
    if not state.down[seat]:
        return checks.can_go_down(state, seat, hand, joker)
    if state.reclaimed:  # jokers reclaimed before wait too: all must keep a place
        table = list(state.melds)
        table[action.meld] = TableMeld(table[action.meld].owner, swapped)
        jokers = [*state.reclaimed, joker]
        return checks.reclaimed_fit(state, seat, table, jokers, [c for c in hand if c not in jokers])
    face = joker & FACE_MASK
    # The joker fits a meld of the table after the swap where it may go: the swapped meld, or another one.
    owner = state.melds[action.meld].owner
    fits = (
        checks.may_place_reclaimed(state, seat, owner)
        and any(accepted == face for accepted, _ in accepted_faces(swapped, state.rules))
    ) or any(
        position != action.meld and checks.may_place_reclaimed(state, seat, state.melds[position].owner)
        for position, _ in checks.lay_off_targets(state, joker)
    )
    left = [c for c in hand if c != joker]
    return fits and checks.remaining_problem(state, left) is None


def _verify_discard(state: GameState, action: Discard, name: object, where: object) -> None:
    seat = action.seat
    _owned(state, seat, [action.card], name, where)
    if state.rules.no_discard_taken_card and action.card == state.taken:
        raise CannotDiscard(
            name, f"{action.card} was just taken from the pile and may not be discarded this turn", where
        )
    if state.floating:
        problem = checks.floater_discard_problem(state, seat, action.card)
        if problem is not None:
            raise CannotDiscard(name, problem, where)


# -- performing ----------------------------------------------------------------------------------


def _perform(state: GameState, action: Action) -> None:
    # The three most frequent actions by their very type (Final names are C statics when compiled); then
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


def _take(state: GameState, seat: int, card: Card, known: bool) -> None:
    state.hands[seat].append(card)
    if known:
        state.known[seat].append(card)


def _from_hand(state: GameState, seat: int, card: Card) -> None:
    state.hands[seat].remove(card)
    if card in state.known[seat]:
        state.known[seat].remove(card)


def _give_bought(state: GameState, buyer: int) -> None:
    _take(state, buyer, state.discard_pile.pop(), known=True)
    for _ in range(state.rules.buy_penalty_cards):
        _take(state, buyer, state.stock.pop(), known=False)
    state.buys[buyer] += 1
    state.fresh = False


def _draw_stock(state: GameState, seat: int) -> None:
    rules = state.rules
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


def _end_deal(state: GameState, went_out: int | None, reason: DealEndReason) -> None:
    """Score the deal and lay it open in its result (hands, points, melds, reason), then deal the next one or
    end the game."""
    rules = state.rules
    values = face_weights(rules.card_values, False)
    points = tuple([0 if seat == went_out else _penalty(hand, values) for seat, hand in enumerate(state.hands)])
    scores = list(points)
    if state.cutter_bonus is not None:
        scores[state.cutter_bonus] += rules.cut_bonus
    hands = tuple([tuple(hand) for hand in state.hands])
    state.results.append(
        DealResult(
            state.deal, went_out, tuple(scores), reason, hands, points, tuple(state.melds), state.reshuffles,
            state.cutter_bonus,
        )
    )  # fmt: skip
    state.deal += 1
    state.dealer = state.next_seat(state.dealer)
    state.window, state.window_answers, state.may_i_calls = [], {}, []
    state.call_open = state.fresh = state.floating = False
    state.must_place = state.taken = None
    state.reclaimed = []
    state.down_this_turn = False
    if state.deal < len(rules.deals):
        state.phase = _PHASE_DEAL
        return
    contenders = _leaders(state)
    if len(contenders) > 1 and rules.ties is _REPLAY_FINAL_DEAL and state.replays == 0:
        state.replays += 1
        state.phase = _PHASE_DEAL
        return
    state.winners = _break_tie(state, contenders)
    state.phase = _PHASE_GAME_OVER


def _team_sums(state: GameState, scores: list[int]) -> list[int]:
    """Each seat's score, or its team's sum with partnerships."""
    if state.rules.partnerships:
        return [scores[s] + scores[(s + 2) % 4] for s in range(4)]
    return scores


def _leaders(state: GameState) -> list[int]:
    """Seats with the lowest total after the scheduled deals (teams' sums with partnerships)."""
    scheduled = len(state.rules.deals)
    totals = _team_sums(state, [sum(r.scores[s] for r in state.results[:scheduled]) for s in range(state.seats)])
    best = min(totals)
    return [s for s in range(state.seats) if totals[s] == best]


def _break_tie(state: GameState, contenders: list[int]) -> tuple[int, ...]:
    rules = state.rules
    if len(contenders) == 1 or rules.ties is _SHARE:
        return tuple(contenders)
    decider = state.results[-1] if rules.ties is _REPLAY_FINAL_DEAL else state.results[len(rules.deals) - 1]
    scores = _team_sums(state, list(decider.scores))
    best = min(scores[s] for s in contenders)
    return tuple(s for s in contenders if scores[s] == best)
