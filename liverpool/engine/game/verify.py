"""Validation: the checks :func:`~liverpool.engine.game.apply` makes before it performs an action.

An illegal action raises a subclass of :class:`~liverpool.engine.errors.IllegalAction` naming the action,
the reason and the situation; nothing here changes a state.

>>> import random
>>> from liverpool.engine import DrawStock, apply, chance_action, find_preset, new_game
>>> state = new_game(find_preset('liverpool'), seats=3)
>>> _ = apply(state, chance_action(state, random.Random(1)))
>>> state.current, is_legal(state, DrawStock(seat=1)), is_legal(state, DrawStock(seat=0))
(1, True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, assert_never

from liverpool.engine._speed.cache import ByIdentity, by_identity
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
from liverpool.engine.cards import FACE_MASK, Card, make_shoe
from liverpool.engine.errors import (
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
from liverpool.engine.game import checks
from liverpool.engine.melds import Meld, accepted_faces, contract_fault, lay_off, swap_joker
from liverpool.engine.problems import Fault, FaultError, PhaseShown, Problem, Seat
from liverpool.engine.rules.parts import Buying, JokerSwapPlace, JokerSwapTarget, MeldKind
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import GameState, Phase, TableMeld

# Members of the rules' enums as Final names: compiled with mypyc, a name like ``MeldKind.SET`` is
# looked up through the enum class at each use, a Final name is a C static.
# Members of the rules' enums as Final names: compiled with mypyc, a name like ``MeldKind.SET`` is looked up
# through the enum class at each use (rules.py is not compiled), a Final name is a C static.
_AFTER_NEXT_DECLINES: Final = Buying.AFTER_NEXT_DECLINES
_BEFORE_NEXT_DRAW: Final = Buying.BEFORE_NEXT_DRAW
_SET: Final = MeldKind.SET
_AT_ONCE: Final = JokerSwapPlace.AT_ONCE
_OWN_MELDS: Final = JokerSwapTarget.OWN_MELDS
# Phases as Final names (compiled, ``Phase.DRAW`` is a look-up through the enum class at each use).
_PHASE_DEAL: Final = Phase.DEAL
_PHASE_RESHUFFLE: Final = Phase.RESHUFFLE
_PHASE_DRAW: Final = Phase.DRAW
_PHASE_BUY: Final = Phase.BUY
_PHASE_PLAY: Final = Phase.PLAY
_PHASE_GAME_OVER: Final = Phase.GAME_OVER
# The faults without parameters, made once: the listing's quiet checks (``_is_legal_made``) meet some at
# every turn, and a refusal nobody reads should cost no more than its exception.
_FAULT_ALREADY_DOWN: Final = Fault(Problem.ALREADY_DOWN)
_FAULT_BUY_AFTER_DECLINE: Final = Fault(Problem.BUY_AFTER_DECLINE)
_FAULT_BUY_ANSWERED: Final = Fault(Problem.BUY_ANSWERED)
_FAULT_CALL_TOO_LATE: Final = Fault(Problem.CALL_TOO_LATE)
_FAULT_CARD_TWICE: Final = Fault(Problem.CARD_TWICE)
_FAULT_DISCARD_ENDS_TURN: Final = Fault(Problem.DISCARD_ENDS_TURN)
_FAULT_EMPTY_HAND_DRAWS_STOCK: Final = Fault(Problem.EMPTY_HAND_DRAWS_STOCK)
_FAULT_FINAL_USES_ALL: Final = Fault(Problem.FINAL_USES_ALL)
_FAULT_GAME_IS_OVER: Final = Fault(Problem.GAME_IS_OVER)
_FAULT_LAY_OFF_NOT_DOWN: Final = Fault(Problem.LAY_OFF_NOT_DOWN)
_FAULT_MAY_I_CALLED: Final = Fault(Problem.MAY_I_CALLED)
_FAULT_MAY_I_WHEN: Final = Fault(Problem.MAY_I_WHEN)
_FAULT_NO_BUY_WINDOW: Final = Fault(Problem.NO_BUY_WINDOW)
_FAULT_NO_OFFER_TO_DECLINE: Final = Fault(Problem.NO_OFFER_TO_DECLINE)
_FAULT_PILE_EMPTY: Final = Fault(Problem.PILE_EMPTY)
_FAULT_SET_JOKERS_DEAD: Final = Fault(Problem.SET_JOKERS_DEAD)
_FAULT_TOP_DISCARD_ONLY: Final = Fault(Problem.TOP_DISCARD_ONLY)


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
# Actions with nothing but a seat (checked by _verify): exactly these types have no shape to check.
_PLAIN_ACTIONS: Final = frozenset((DrawStock, Buy, Pass, EndTurn))


def shoe(state: GameState) -> tuple[Card, ...]:
    """Every physical card this table plays with (kept by ruleset and seats: compiled, ``deck_for`` is a
    Python call, made for each deal's shuffle and its check)."""
    return _shoe_of(state)[1]


def _shoe_of(state: GameState) -> tuple[Ruleset, tuple[Card, ...], frozenset[Card]]:
    """The ruleset, the shoe and its cards as a set (which each deal's shuffle is checked against)."""
    rules, seats = state.rules, state.seats
    by_seats = _SHOES.of(rules)
    held = by_seats.get(seats)
    if held is None:
        deck = rules.deck_for(seats)
        cards = make_shoe(deck.decks, deck.jokers)
        held = by_seats[seats] = (rules, cards, frozenset(cards))
    return held


def _no_shoes(rules: Ruleset) -> dict[int, tuple[Ruleset, tuple[Card, ...], frozenset[Card]]]:
    """A ruleset's empty table of shoes by table size (for :data:`_SHOES`)."""
    return {}


# The shoe of each ruleset and table size met, by the ruleset and the seats.
_SHOES: Final[ByIdentity[dict[int, tuple[Ruleset, tuple[Card, ...], frozenset[Card]]]]] = by_identity(_no_shoes)


def is_legal(state: GameState, action: Action) -> bool:
    """Whether :func:`~liverpool.engine.apply` would accept ``action`` now (without performing it)."""
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


def _is_legal_made(state: GameState, action: Action) -> bool:
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
    made the action itself (:func:`_is_legal_made`), whose shape needs no checking."""
    name: object = _UNSAID if quiet else _Named(action)
    where: object = _UNSAID if quiet else _Situation(state)
    if state.phase is _PHASE_GAME_OVER:
        raise GameOver(name, _FAULT_GAME_IS_OVER, where)
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
                raise WrongPhase(name, _FAULT_NO_BUY_WINDOW, where)
            if action.seat not in state.window or action.seat in state.window_answers:
                raise NotYourTurn(name, _FAULT_NO_OFFER_TO_DECLINE, where)
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
                raise CannotDiscard(name, _FAULT_DISCARD_ENDS_TURN, where)
        case Call():
            if state.phase is not _PHASE_DRAW:
                raise WrongPhase(name, _FAULT_CALL_TOO_LATE, where)
            refused = checks.call_problem(state, action.seat, action.card)
            if refused is not None:
                raise CannotCall(name, refused, where)
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
        raise NotYourTurn(name, Fault(Problem.OTHERS_TURN, {"seat": Seat(state.current)}), where)
    if now is not phase:
        raise WrongPhase(
            name, Fault(Problem.OTHER_PHASE, {"now": PhaseShown(now.value), "phase": PhaseShown(phase.value)}), where
        )


def _play_turn(state: GameState, seat: int, name: object, where: object) -> None:
    _turn(state, seat, _PHASE_PLAY, name, where)


def _no_pending(state: GameState, name: object, where: object) -> None:
    if state.must_place is not None:
        raise MustPlaceCard(name, Fault(Problem.MUST_PLACE_FIRST, {"card": state.must_place}), where)


def _none_reclaimed(state: GameState, name: object, where: object) -> None:
    """A turn does not end while a joker reclaimed by a swap this turn is still in hand."""
    if state.reclaimed:
        raise MustPlaceCard(name, Fault(Problem.RECLAIMED_UNPLACED, {"cards": tuple(state.reclaimed)}), where)


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
        raise CannotDraw(name, _FAULT_PILE_EMPTY, where)
    if state.may_i_calls and rules.buy_blocks_next_player:
        raise CannotDraw(name, _FAULT_MAY_I_CALLED, where)
    hand = state.hands[action.seat]
    if action.depth == 1:
        if not hand and not rules.discard_optional and (rules.no_discard_taken_card or rules.float_out_unplayable):
            raise CannotDraw(name, _FAULT_EMPTY_HAND_DRAWS_STOCK, where)
        return
    if not rules.dig_discard_pile:
        raise CannotDraw(name, _FAULT_TOP_DISCARD_ONLY, where)
    if not 1 < action.depth <= len(pile):
        raise CannotDraw(name, Fault(Problem.DIG_TOO_DEEP, {"count": len(pile), "depth": action.depth}), where)
    if not dig_is_playable(state, action.seat, action.depth):
        raise CannotDraw(name, Fault(Problem.DIG_UNPLAYABLE, {"card": pile[-action.depth]}), where)


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
            raise WrongPhase(name, _FAULT_BUY_AFTER_DECLINE, where)
        if seat in state.window_answers:
            raise CannotBuy(name, _FAULT_BUY_ANSWERED, where)
        if seat not in state.window:
            # (a seat left out of the window has its buy_problem: the window holds every seat that had none)
            raise CannotBuy(name, checks.buy_problem(state, seat) or "you have no open buy offer", where)
        return
    if rules.buying is _BEFORE_NEXT_DRAW and state.phase is not _PHASE_DRAW:
        raise WrongPhase(name, _FAULT_MAY_I_WHEN, where)
    problem = checks.buy_problem(state, seat)
    if problem is not None:
        raise CannotBuy(name, problem, where)


def _owned(state: GameState, seat: int, cards: list[Card] | tuple[Card, ...], name: object, where: object) -> None:
    hand = state.hands[seat]
    if len(set(cards)) != len(cards):
        raise CardNotInHand(name, _FAULT_CARD_TWICE, where)
    missing = [c for c in cards if c not in hand]
    if missing:
        raise CardNotInHand(name, Fault(Problem.NOT_IN_HAND, {"cards": tuple(missing)}), where)


def _verify_go_down(state: GameState, action: GoDown, name: object, where: object) -> None:
    seat = action.seat
    if state.down[seat]:
        raise CannotGoDown(name, _FAULT_ALREADY_DOWN, where)
    used = [c for m in action.melds for c in m.cards]
    _owned(state, seat, used, name, where)
    problem = contract_fault(action.melds, state.deal_rule.contract, state.rules)
    if problem is not None:
        raise CannotGoDown(name, problem, where)
    if state.must_place is not None and state.must_place not in used:
        raise MustPlaceCard(name, Fault(Problem.MUST_MELD_TAKEN, {"card": state.must_place}), where)
    left = [c for c in state.hands[seat] if c not in used]
    if checks.whole_hand_required(state):
        if left:
            raise CannotGoDown(name, _FAULT_FINAL_USES_ALL, where)
        return
    if checks.goes_out_on_going_down(state):
        return
    problem = checks.remaining_problem(state, left)
    if problem is not None:
        raise CannotGoDown(name, problem, where)


def _verify_lay_off(state: GameState, action: LayOff, name: object, where: object) -> None:
    seat = action.seat
    if not state.down[seat]:
        raise CannotLayOff(name, _FAULT_LAY_OFF_NOT_DOWN, where)
    _owned(state, seat, [action.card], name, where)
    if state.must_place is not None and action.card != state.must_place:
        raise MustPlaceCard(name, Fault(Problem.LAY_OFF_TAKEN_FIRST, {"card": state.must_place}), where)
    if not 0 <= action.meld < len(state.melds):
        raise CannotLayOff(name, Fault(Problem.NO_SUCH_MELD, {"index": action.meld}), where)
    target = state.melds[action.meld]
    # One form for each lay-off, the one legal_actions lists: no end for a set, the end for a run.
    if target.meld.kind is _SET:
        if action.end is not None:
            raise MalformedAction(name, f"a lay-off onto a set names no end (end=None), not end={action.end!r}", where)
    elif action.end is None:
        raise MalformedAction(name, "a lay-off onto a run names the end the card goes to, 'low' or 'high'", where)
    reclaimed = state.reclaimed
    if reclaimed and action.card in reclaimed and not checks.may_place_reclaimed(state, seat, target.owner):
        raise CannotLayOff(name, Fault(Problem.RECLAIMED_OWN_MELDS, {"card": action.card}), where)
    try:
        grown = lay_off(target.meld, action.card, action.end, state.rules)
    except FaultError as exc:
        raise CannotLayOff(name, exc.fault, where) from exc
    except ValueError as exc:  # (none is known: each problem of a meld has its fault)
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
                raise MustPlaceCard(name, Fault(Problem.RECLAIMED_STRANDED, {"cards": tuple(waiting)}), where)


def _verify_swap(state: GameState, action: SwapJoker, name: object, where: object) -> None:
    swapped = _checked_swap(state, action, name, where)
    if not _swapped_is_playable(state, action, swapped):
        raise CannotSwap(name, Fault(_placed_how(state, action.seat), {"card": action.joker}), where)


def _placed_how(state: GameState, seat: int) -> Problem:
    """How a reclaimed joker must be placed, as the problem of a refused swap."""
    if not state.down[seat]:
        return Problem.SWAP_UNPLAYABLE_GOING_DOWN
    own = state.rules.joker_swap_target is _OWN_MELDS
    if state.rules.joker_swap_place is _AT_ONCE:
        return Problem.SWAP_UNPLAYABLE_AT_ONCE_OWN if own else Problem.SWAP_UNPLAYABLE_AT_ONCE
    return Problem.SWAP_UNPLAYABLE_THIS_TURN_OWN if own else Problem.SWAP_UNPLAYABLE_THIS_TURN


def _checked_swap(state: GameState, action: SwapJoker, name: object, where: object) -> Meld:
    """The meld as the swap leaves it, once every check but the joker's playing on at once has passed."""
    _play_turn(state, action.seat, name, where)
    problem = checks.swap_allowed(state, action.seat)
    if problem is not None:
        raise CannotSwap(name, problem, where)
    _no_pending(state, name, where)
    _owned(state, action.seat, [action.card], name, where)
    if not 0 <= action.meld < len(state.melds):
        raise CannotSwap(name, Fault(Problem.NO_SUCH_MELD, {"index": action.meld}), where)
    meld = state.melds[action.meld].meld
    if meld.kind is _SET and not state.rules.joker_swap_from_sets:
        raise CannotSwap(name, _FAULT_SET_JOKERS_DEAD, where)
    try:
        return swap_joker(meld, action.joker, action.card, state.rules)
    except FaultError as exc:
        raise CannotSwap(name, exc.fault, where) from exc
    except ValueError as exc:  # (none is known: each problem of a meld has its fault)
        raise CannotSwap(name, str(exc), where) from exc


def _is_legal_swap_listed(state: GameState, action: SwapJoker, going_down: Sequence[tuple[Meld, ...]]) -> bool:
    """:func:`_is_legal_made` of a joker swap the listing made in the play phase, given ``going_down``: the
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
        raise CannotDiscard(name, Fault(Problem.TAKEN_NOT_DISCARDED, {"card": action.card}), where)
    if state.floating:
        problem = checks.floater_discard_problem(state, seat, action.card)
        if problem is not None:
            raise CannotDiscard(name, problem, where)
