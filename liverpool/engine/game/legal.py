"""What may be done now, by whom: :func:`legal_actions` enumerates it.

Every action listed is accepted by :func:`~liverpool.engine.game.apply`.

Going down is listed as a few arrangements, not all of them: there can be thousands (one 20-card hand of
the golden search corpus has 17,340), and the listing is asked at every step of every game. The
:class:`GoDown` actions of :func:`legal_actions` are the ``GO_DOWN_LIMIT`` (8) arrangements that leave the
fewest points in hand (:func:`.checks.go_down_options`, from :func:`.search.find_arrangements`); among
arrangements that leave as many, the search's order decides (it fills the contract's runs first, each from
the suit or rank with the most valuable meld first, then by points, length, low end and where the jokers
stand), which depends only on the faces in hand and the ruleset. When a card must be
placed (dug from the pile, or a joker just swapped off the table) only arrangements that meld it count;
when the card just taken from the pile may not be discarded, an arrangement must not leave it as the only
card in hand.

Any other valid arrangement is accepted too, so a client may build its own, and
:func:`go_down_arrangements` gives every one of them: each distinct arrangement that ``apply`` accepts,
in the same order (the listed ones first), as a separate call off the hot path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

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
    SwapJoker,
)
from liverpool.engine.cards import FACE_MASK, JOKER_FACE, Card
from liverpool.engine.game import checks
from liverpool.engine.game.verify import _is_legal_made, _is_legal_swap_listed, dig_is_playable
from liverpool.engine.melds import End, Meld, faces_standing_for
from liverpool.engine.rules.parts import Buying, DiscardCall, MeldKind
from liverpool.engine.search import can_meet, find_arrangements
from liverpool.engine.state import GameState, Phase

# Members of the rules' enums as Final names: compiled with mypyc, a name like ``MeldKind.SET`` is looked up
# through the enum class at each use (rules.py is not compiled), a Final name is a C static.
_SET: Final = MeldKind.SET
_RUMMY_CALL: Final = DiscardCall.RUMMY
_BEFORE_NEXT_DRAW: Final = Buying.BEFORE_NEXT_DRAW
_DEAL: Final = Phase.DEAL
_RESHUFFLE: Final = Phase.RESHUFFLE
_DRAW: Final = Phase.DRAW
_BUY_PHASE: Final = Phase.BUY
_PLAY: Final = Phase.PLAY


GO_DOWN_LIMIT: Final = 8  # the going-down arrangements legal_actions lists (the fewest points left first)
_CARD: Final = Card  # (a C static when compiled, where Card is a look-up by name)


def is_chance(state: GameState) -> bool:
    """The game waits for chance (a :class:`Shuffle` or :class:`Reshuffle`), not for a seat."""
    phase = state.phase
    return phase is _DEAL or phase is _RESHUFFLE


def asking_order(state: GameState) -> list[int]:
    """The seats in the order a driver asks whether they act: the seats after the current player, nearest
    first, then the current player. Out of turn, the nearest seat has the first claim (RULES.md §3.13
    buying: precedence); a driver that asks in this order gives a discard to the right buyer.

    >>> from liverpool.engine import find_preset, new_game
    >>> asking_order(new_game(find_preset('liverpool'), seats=4, first_dealer=1))
    [1, 2, 3, 0]
    """
    return list(seat_order(state.seats, state.current))


# Each table size's asking order of each current seat (``_ORDERS[seats][current]``), made once: a list built at
# each step of a driver costs more than the look-up. Tuples, so a caller cannot change what others read.
_ORDERS: Final[list[list[tuple[int, ...]]]] = kept([])


def seat_order(seats: int, current: int) -> tuple[int, ...]:
    """:func:`asking_order` of a table of ``seats`` seats whose current seat is ``current``, the same tuple each
    time (for a driver's every step)."""
    while len(_ORDERS) <= seats:
        n = len(_ORDERS)
        _ORDERS.append([tuple([(c + k) % n for k in range(1, n)] + [c]) for c in range(n)])
    return _ORDERS[seats][current]


def acting_seats(state: GameState) -> list[int]:
    """Seats that have at least one legal action now."""
    return sorted({a.seat for a in legal_actions(state) if a.seat is not None})


def legal_actions(state: GameState, seat: int | None = None) -> list[Action]:
    """Every legal action now (for one seat if given). Empty at chance nodes and when the game is over."""
    if state.seats > len(_BUYS):
        _grow_seat_actions(state.seats)
    phase = state.phase
    if seat is not None and phase is _BUY_PHASE:
        # The window's seats are distinct: one seat's share of the list below, without listing the others.
        if seat in state.window and seat not in state.window_answers:
            return [_BUYS[seat], _PASSES[seat]]
        return []
    if phase is _PLAY:
        actions = _play_phase(state, GO_DOWN_LIMIT, True)
    elif phase is _DRAW:
        actions = _draw_phase(state, True)
    elif phase is _BUY_PHASE:
        answered = state.window_answers
        actions = [a for s in state.window if s not in answered for a in (_BUYS[s], _PASSES[s])]
    else:
        actions = []
    if seat is not None:
        actions = [a for a in actions if a.seat == seat]
    return actions


def quick_actions(state: GameState, seat: int, go_downs: int = 3) -> list[Action]:
    """A cheaper part of ``legal_actions(state, seat)``, for playouts and rollouts: the same actions in the
    same order, without joker swaps and digs into the discard pile, and with at most ``go_downs``
    going-down arrangements (the fewest points left first). Every action in it is legal, and it is never
    empty when ``seat`` must act."""
    phase = state.phase
    if phase is _PLAY:
        return _play_phase(state, go_downs, False) if seat == state.current else []
    if phase is _DRAW:
        if state.seats > len(_BUYS):
            _grow_seat_actions(state.seats)
        return [a for a in _draw_phase(state, False) if a.seat == seat]
    return legal_actions(state, seat) if phase is _BUY_PHASE else []


def go_down_arrangements(state: GameState, seat: int) -> list[tuple[Meld, ...]]:
    """Every way ``seat`` may go down now: each distinct arrangement ``a`` of its hand for which
    ``apply(state, GoDown(seat, a))`` is accepted, the fewest points left in hand first. Its first
    ``GO_DOWN_LIMIT`` are the ones :func:`legal_actions` lists, but when the card just taken from the pile
    may not be discarded: then the listed ones are among these (with other copies of a face, maybe). Empty
    when the seat may not go down now (it is not its turn to play, or it is down already).

    Distinct, as :func:`.search.find_arrangements` counts them: melds in the contract's order, melds of one
    kind and length in one order only, and copies of one face taken as one (the lowest copies are laid,
    but the card that must be placed, and the card just taken from the pile where laying it is what keeps
    it from being the last card in hand). Each other arrangement ``apply`` accepts is one of these with
    other copies of the same faces or its melds in another order; a run's jokers count where they stand,
    so ``JK 5H 6H 7H`` and ``5H 6H 7H JK`` are two.

    Not for the hot path: a hand can have thousands of arrangements, all of them found here.
    """
    if not 0 <= seat < state.seats:
        raise ValueError(f"there is no seat {seat} at this {state.seats}-seat table")
    if state.phase is not _PLAY or seat != state.current or state.down[seat]:
        return []
    hand = state.hands[seat]
    whole, keep, taken = checks.go_down_question(state, hand)
    must = state.must_place
    found = find_arrangements(
        hand, state.deal_rule.contract, state.rules, whole_hand=whole, keep=keep, must_include=must, limit=None
    )
    if taken is None:
        return found
    return [fixed for fixed in (_taken_not_last(state, hand, a, taken, must) for a in found) if fixed is not None]


def _taken_not_last(
    state: GameState, hand: Sequence[Card], arrangement: tuple[Meld, ...], taken: Card, must: Card | None
) -> tuple[Meld, ...] | None:
    """``arrangement``, or, when it leaves ``taken`` (just taken from the pile, not to be discarded) as the
    only card in hand, the same melds with ``taken`` laid in the place of another copy of its face, which is
    left instead; None when there is no such copy."""
    if checks.remaining_problem(state, checks.left_after(hand, arrangement)) is None:
        return arrangement
    face = taken & FACE_MASK
    for i, meld in enumerate(arrangement):
        for j, card in enumerate(meld.cards):
            if card & FACE_MASK == face and card != must:
                cards = (*meld.cards[:j], taken, *meld.cards[j + 1 :])
                return (*arrangement[:i], Meld(meld.kind, cards, meld.low), *arrangement[i + 1 :])
    return None


def _draw_phase(state: GameState, digs: bool) -> list[Action]:
    rules, me = state.rules, state.current
    actions: list[Action] = [_DRAW_STOCKS[me]]
    take = _DRAW_DISCARDS[me]
    if _is_legal_made(state, take):
        actions.append(take)
    if digs and rules.dig_discard_pile and not (state.may_i_calls and rules.buy_blocks_next_player):
        actions += [DrawDiscard(me, d) for d in _playable_digs(state, me)]
    if rules.buying is _BEFORE_NEXT_DRAW:
        actions += [_BUYS[s] for s in range(state.seats) if checks.buy_problem(state, s) is None]
    if state.call_open:
        for s in range(state.seats):
            if rules.discard_call is _RUMMY_CALL:
                if checks.call_problem(state, s, None) is None:
                    actions.append(Call(s))
                continue
            hand = state.hands[s]
            if hand and checks.call_problem(state, s, hand[0]) is None:
                actions += [Call(s, c) for c in hand]
    return actions


def _playable_digs(state: GameState, me: int) -> list[int]:
    """The depths ``d`` (2 and more) of the discard pile that ``me`` may dig to: those where
    :func:`~.game.dig_is_playable` holds, found with fewer searches.

    Once down, a dig is playable when the card dug for fits the table and two cards or more stay in hand,
    which the table's lay-off index answers. Not yet down (and not bound to meld the whole hand), no
    depth is playable while the hand and the cards dug up cannot meet the contract at all, and digging
    deeper only adds cards: the shallowest depth where they can is found by halving, and only the depths
    from there on are searched with the card that must be melded."""
    pile = state.discard_pile
    deepest = len(pile)
    if deepest < 2:
        return []
    hand = state.hands[me]
    if state.down[me]:
        if not hand:
            return [d for d in range(2, deepest + 1) if dig_is_playable(state, me, d)]
        index = checks.lay_off_index(state)  # len(hand) + d - 1 >= 2 cards stay: remaining_problem is None
        return [d for d in range(2, deepest + 1) if index.get(pile[-d] & FACE_MASK)]
    whole, keep, _ = checks.go_down_question(state, hand)
    first = 2
    if not whole and state.taken is None:  # then each depth's question is can_meet(..., keep=keep, must_include=...)
        contract = state.deal_rule.contract

        def meets(depth: int) -> bool:
            return can_meet([*hand, *pile[-depth:]], contract, state.rules, keep=keep)

        if not meets(deepest):
            return []
        low, high = 2, deepest  # meets(high) holds
        while low < high:
            middle = (low + high) // 2
            if meets(middle):
                high = middle
            else:
                low = middle + 1
        first = low
    return [d for d in range(first, deepest + 1) if dig_is_playable(state, me, d)]


def _play_phase(state: GameState, go_downs: int, swaps: bool) -> list[Action]:
    me = state.current
    hand = state.hands[me]
    down = state.down[me]
    pending = state.must_place
    if pending is not None:
        if down:
            return lay_off_actions(state, [pending])
        return [GoDown(me, a) for a in checks.go_down_options(state, me, hand, pending, go_downs)]
    if not hand:
        return [_END_TURNS[me]]
    actions: list[Action] = []
    going_down: list[tuple[Meld, ...]] = []
    if not down:
        going_down = checks.go_down_options(state, me, hand, None, go_downs)
        actions += [GoDown(me, a) for a in going_down]
    elif state.reclaimed:
        # Jokers reclaimed this turn wait to be placed: each play must leave them a place, the turn cannot end.
        actions += [a for a in lay_off_actions(state, hand) if _is_legal_made(state, a)]
    else:
        actions += lay_off_actions(state, hand)
    if swaps and checks.swap_allowed(state, me) is None:
        actions += _swaps(state, hand, going_down)
    if state.reclaimed:
        return actions
    rules = state.rules
    barred = state.taken if rules.no_discard_taken_card else None  # the one card that may not be discarded
    if barred is None:
        actions += [_discard(me, c) for c in hand]
    else:
        actions += [_discard(me, c) for c in hand if c != barred]
    if state.floating and checks.floater_discard_problem(state, me, hand[0]) is not None:
        actions = [a for a in actions if not isinstance(a, Discard)]  # (a floater's one card, see there)
    if rules.discard_optional:
        actions.append(_END_TURNS[me])
    return actions


# The actions that name only a seat, made once per seat (grown to the largest table seen): actions are
# immutable values, and building one is a Python call (actions.py is not compiled), where an index is not.
_DRAW_STOCKS: Final[list[DrawStock]] = kept([])
_DRAW_DISCARDS: Final[list[DrawDiscard]] = kept([])
_BUYS: Final[list[Buy]] = kept([])
_PASSES: Final[list[Pass]] = kept([])
_END_TURNS: Final[list[EndTurn]] = kept([])


def _grow_seat_actions(seats: int) -> None:
    for s in range(len(_BUYS), seats):
        _DRAW_STOCKS.append(DrawStock(s))
        _DRAW_DISCARDS.append(DrawDiscard(s))
        _BUYS.append(Buy(s))
        _PASSES.append(Pass(s))
        _END_TURNS.append(EndTurn(s))


# Discards made before, by seat and card (a card is a small int): actions are immutable values, and building
# one is a Python call (actions.py is not compiled), where indexing a list is not.
_discards: Final[list[list[Discard | None]]] = kept([])
_DISCARD_CARDS: Final = 1024


def _discard(seat: int, card: Card) -> Discard:
    if type(card) is not _CARD:
        return Discard(seat, card)
    return _known_discard(seat, card, card)


def _known_discard(seat: int, card: Card, index: int) -> Discard:
    """``_discard`` of a Card, also given as a plain int (``index``): compiled, comparing or indexing with a
    Card, an int subclass from a module that is not compiled, is a generic operation."""
    if not 0 <= seat < 64 or not 0 <= index < _DISCARD_CARDS:
        return Discard(seat, card)
    while len(_discards) <= seat:
        _discards.append([None] * _DISCARD_CARDS)
    row = _discards[seat]
    made = row[index]
    if made is None:
        made = row[index] = Discard(seat, card)
    return made


def lay_off_actions(state: GameState, cards: Sequence[Card]) -> list[Action]:
    """Every legal lay-off of ``cards`` (cards of the current player's hand) onto the table."""
    me = state.current
    hand = state.hands[me]
    # The table's places that take each face of ``cards``, in place order, read off what each meld accepts
    # (kept while the table holds the same melds): the index of every face (:func:`.checks.lay_off_index`)
    # would be patched after every meld laid off on, for the few faces of one hand.
    wanted = 0
    for card in cards:
        wanted |= 1 << (card & FACE_MASK)
    places: list[list[tuple[int, End | None]] | None] = [None] * (FACE_MASK + 1)
    accepted = checks.table_accepted(state.melds, state.rules)
    for position in range(len(accepted)):
        for face, end in accepted[position]:
            if wanted >> face & 1:
                held = places[face]
                if held is None:
                    places[face] = [(position, end)]
                else:
                    held.append((position, end))
    out: list[Action] = []
    reclaimed = state.reclaimed
    for card in dict.fromkeys(cards):
        targets = places[card & FACE_MASK]
        if not targets:
            continue
        if reclaimed and card in reclaimed:  # a joker taken by a swap goes only where the rules let it
            targets = [(m, end) for m, end in targets if checks.may_place_reclaimed(state, me, state.melds[m].owner)]
        # Two cards or more stay in hand: nothing to check (remaining_problem looks at one or none).
        if not (len(hand) > 2 and card in hand):
            left = list(hand)
            left.remove(card)
            if checks.remaining_problem(state, left) is not None:
                continue
        out += [LayOff(me, card, meld, end) for meld, end in targets]
    return out


def _swaps(state: GameState, hand: list[Card], going_down: list[tuple[Meld, ...]]) -> list[Action]:
    """The legal joker swaps of the current player, whose going-down arrangements just listed are ``going_down``
    (none once down): a swap they show playable is known legal without a search."""
    me = state.current
    out: list[Action] = []
    naturals = [c for c in hand if not _is_joker(c)]
    if not naturals:
        return out
    natural_faces = [_face(c) for c in naturals]
    from_sets = state.rules.joker_swap_from_sets
    for index, table_meld in enumerate(state.melds):
        meld = table_meld.meld
        if meld.kind is _SET and not from_sets:
            continue
        cards = meld.cards
        for position in range(len(cards)):  # (a meld's cards are distinct: the position is the joker's index)
            joker = cards[position]
            if not _is_joker(joker):
                continue
            wanted = faces_standing_for(meld, position)
            for i in range(len(naturals)):
                if natural_faces[i] not in wanted:
                    continue
                action = SwapJoker(me, naturals[i], index, joker)
                if _is_legal_swap_listed(state, action, going_down):
                    out.append(action)
    return out


# A card read as a plain int (compiled, an operation on a Card, an int subclass from a module that is not
# compiled, is a generic one; a parameter typed int takes its value).
def _face(card: int) -> int:
    return card & FACE_MASK


def _is_joker(card: int) -> bool:
    return card & FACE_MASK == JOKER_FACE
