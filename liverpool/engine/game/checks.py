"""Rule checks shared by validation (``game.apply``) and enumeration (``legal.legal_actions``).

Each returns ``None`` when the thing is allowed, or why not as a :class:`~liverpool.engine.problems.Fault`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, cast

from liverpool.engine._speed.cache import ByIdentity, by_identity, kept
from liverpool.engine.cards import FACE_MASK, JOKER_FACE, Card
from liverpool.engine.melds import End, Meld, accepted_faces, contract_fault, lay_off, new_meld
from liverpool.engine.problems import Fault, Problem
from liverpool.engine.rules.parts import Buying, DealOut, DiscardCall, EmptyHand, JokerSwap, JokerSwapTarget
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.search import can_meet, find_arrangements
from liverpool.engine.state import GameState, TableMeld

# Members of the rules' enums as Final names: compiled with mypyc, a name like ``MeldKind.SET`` is looked up
# through the enum class at each use (rules.py is not compiled), a Final name is a C static.
_MUST_DISCARD: Final = EmptyHand.MUST_DISCARD
_SWAP_NEVER: Final = JokerSwap.NEVER
_SWAP_GOING_DOWN: Final = JokerSwap.GOING_DOWN
_SWAP_AFTER_DOWN: Final = JokerSwap.AFTER_DOWN
_SWAP_DOWN_EARLIER: Final = JokerSwap.DOWN_EARLIER
_OWN_MELDS: Final = JokerSwapTarget.OWN_MELDS
_WHOLE_HAND: Final = DealOut.WHOLE_HAND
_NORMAL_OUT: Final = DealOut.NORMAL
_NO_CALLS: Final = DiscardCall.NONE
_LIVERPOOL_CALL: Final = DiscardCall.LIVERPOOL
_NO_BUYING: Final = Buying.NONE
# The faults without parameters, made once (the listing asks for them at every seat).
_FAULT_ALREADY_ASKED: Final = Fault(Problem.ALREADY_ASKED)
_FAULT_BUYING_OFF: Final = Fault(Problem.BUYING_OFF)
_FAULT_CALLS_OFF: Final = Fault(Problem.CALLS_OFF)
_FAULT_CALL_LAST_CARD: Final = Fault(Problem.CALL_LAST_CARD)
_FAULT_KEEP_A_CARD: Final = Fault(Problem.KEEP_A_CARD)
_FAULT_LIVERPOOL_NOT_DOWN: Final = Fault(Problem.LIVERPOOL_NOT_DOWN)
_FAULT_LIVERPOOL_SHEDS: Final = Fault(Problem.LIVERPOOL_SHEDS)
_FAULT_NEXT_PLAYER_DRAWS: Final = Fault(Problem.NEXT_PLAYER_DRAWS)
_FAULT_NOTHING_TO_CALL: Final = Fault(Problem.NOTHING_TO_CALL)
_FAULT_NO_FRESH_DISCARD: Final = Fault(Problem.NO_FRESH_DISCARD)
_FAULT_OWN_DISCARD_BUY: Final = Fault(Problem.OWN_DISCARD_BUY)
_FAULT_OWN_DISCARD_CALL: Final = Fault(Problem.OWN_DISCARD_CALL)
_FAULT_RUMMY_SHEDS_NONE: Final = Fault(Problem.RUMMY_SHEDS_NONE)
_FAULT_STOCK_TOO_LOW: Final = Fault(Problem.STOCK_TOO_LOW)
_FAULT_SWAPS_OFF: Final = Fault(Problem.SWAPS_OFF)
_FAULT_SWAP_DOWN_EARLIER: Final = Fault(Problem.SWAP_DOWN_EARLIER)
_FAULT_SWAP_DOWN_EARLIER_NOT_NOW: Final = Fault(Problem.SWAP_DOWN_EARLIER_NOT_NOW)
_FAULT_SWAP_GOING_DOWN_ONLY: Final = Fault(Problem.SWAP_GOING_DOWN_ONLY)
_FAULT_SWAP_ONCE_DOWN: Final = Fault(Problem.SWAP_ONCE_DOWN)
_FAULT_UPCARD_NOT_BUYABLE: Final = Fault(Problem.UPCARD_NOT_BUYABLE)


def goes_out_on_going_down(state: GameState) -> bool:
    """In a deal whose contract ends the deal (its out is whole_hand or goes_out), going down goes out."""
    return deal_out(state) is not _NORMAL_OUT


def whole_hand_required(state: GameState) -> bool:
    """This deal's contract must use every card of the hand (its out is whole_hand)."""
    return deal_out(state) is _WHOLE_HAND


# The out of the last deal asked about, as its ruleset, its deal number and the out (compiled, asking the
# ruleset is a Python call, made at each listing of a seat not yet down).
_last_out: Final[list[tuple[Ruleset, int, DealOut]]] = kept([])


def deal_out(state: GameState) -> DealOut:
    """``state.rules.deal_out(state.deal)``: how this deal's contract ends the deal."""
    rules, deal = state.rules, state.deal
    if _last_out:
        held_rules, held_deal, out = _last_out[0]
        if held_rules is rules and held_deal == deal:
            return out
    out = rules.deal_out(deal)
    _last_out[:] = [(rules, deal, out)]
    return out


def floater_discard_problem(state: GameState, seat: int, card: Card) -> Fault | None:
    """Why ``seat``, floating this turn (it began the turn with no cards), may not go out by discarding
    ``card``, its last card, under ``float_out_unplayable`` (001a: "a floater must draw an unplayable card
    from the deck (down-pile) in order to go out"): the card fits a meld on the table, or it was not drawn
    from the stock. None when the discard is allowed (or the seat is not floating)."""
    if not state.floating or not state.rules.float_out_unplayable:
        return None
    hand = state.hands[seat]
    if len(hand) != 1 or hand[0] != card:
        return None
    if card == state.taken:
        return Fault(Problem.FLOATER_TAKEN, {"card": card})
    if table_fits(state.melds, state.rules) >> (card & FACE_MASK) & 1:
        return Fault(Problem.FLOATER_FITS, {"card": card})
    return None


def remaining_problem(state: GameState, remaining: Sequence[Card]) -> Fault | None:
    """Whether a hand may be left like this mid-turn, after a meld or lay-off (``None``), or why not."""
    rules = state.rules
    if not remaining:
        if rules.empty_hand is _MUST_DISCARD:
            return _FAULT_KEEP_A_CARD
        return None
    if (
        len(remaining) == 1
        and remaining[0] == state.taken
        and rules.no_discard_taken_card
        and not rules.discard_optional
    ):
        return Fault(Problem.ONLY_TAKEN_LEFT, {"card": remaining[0]})
    return None


def go_down_options(
    state: GameState, seat: int, hand: Sequence[Card], must_include: Card | None, limit: int
) -> list[tuple[Meld, ...]]:
    """Up to ``limit`` arrangements of ``hand`` that meet this deal's contract and leave an allowed hand: those
    that leave the fewest points in hand, in the search's order (:func:`.search.find_arrangements`). With a
    card just taken from the pile that may not be the only card left, the best of those that meld it and of
    those that keep another card besides it, by points left. :func:`.legal.go_down_arrangements` gives them all."""
    rules = state.rules
    contract = state.deal_rule.contract
    whole, keep, taken = go_down_question(state, hand)
    if taken is None:
        return find_arrangements(
            hand, contract, rules, whole_hand=whole, keep=keep, must_include=must_include, limit=limit
        )
    # The taken card may not be the only one left: either it is melded, or another card stays too.
    if must_include is not None and must_include != taken:
        # Ask for more until ``limit`` arrangements survive the filter or there are no more to ask for.
        asked = limit * 2
        while True:
            found = find_arrangements(hand, contract, rules, keep=keep, must_include=must_include, limit=asked)
            melded = [a for a in found if remaining_problem(state, left_after(hand, a)) is None]
            if len(melded) >= limit or len(found) < asked:
                return melded[:limit]
            asked *= 2
    others = [c for c in hand if c != taken]
    without = find_arrangements(others, contract, rules, keep=1, must_include=must_include, limit=limit)
    # With ``limit`` that keep it, one that melds it is listed only if it leaves no more points than the worst
    # of them (the sort below is stable, the ones melding it first: they win a tie): the search cuts the rest.
    # Points left = the hand's points - the points melded (each arrangement lays distinct cards of ``hand``):
    # summed over the few melded cards, without a set of them for each arrangement.
    values = rules.card_values
    held = _points_of(hand, values)
    under = None
    if len(without) >= limit:
        under = held - _melded_points(without[-1], values) + 1
    with_taken = find_arrangements(
        hand, contract, rules, keep=keep, must_include=taken, limit=limit, leaving_under=under
    )
    merged = with_taken + without
    # Sorted stably by points left: the index breaks ties, the ones melding the taken card first.
    keyed = [(held - _melded_points(merged[i], values), i) for i in range(len(merged))]
    keyed.sort()
    return [merged[i] for _, i in keyed[:limit]]


def go_down_question(state: GameState, hand: Sequence[Card]) -> tuple[bool, int, Card | None]:
    """How the contract search is asked about ``hand`` going down now: whether the whole hand must go, how
    many cards must stay, and the card just taken from the pile when it is in ``hand`` and may not be the
    only card left (the search's answers are then filtered), else None."""
    if whole_hand_required(state):
        return True, 0, None
    if goes_out_on_going_down(state):
        return False, 0, None
    rules = state.rules
    keep = 1 if rules.empty_hand is _MUST_DISCARD else 0
    taken = state.taken
    if taken is not None and taken in hand and rules.no_discard_taken_card and not rules.discard_optional:
        return False, keep, taken
    return False, keep, None


def can_go_down(state: GameState, seat: int, hand: Sequence[Card], must_include: Card | None) -> bool:
    """Whether :func:`go_down_options` would find any arrangement: the search's feasibility question, which
    stops at the first arrangement met where the listing looks for the best ones."""
    rules = state.rules
    contract = state.deal_rule.contract
    whole, keep, taken = go_down_question(state, hand)
    if taken is None:
        return can_meet(hand, contract, rules, whole_hand=whole, keep=keep, must_include=must_include)
    if must_include is not None and must_include != taken:
        return bool(go_down_options(state, seat, hand, must_include, 1))
    # As go_down_options: the taken card melded, or kept with another card.
    others = [c for c in hand if c != taken]
    return can_meet(hand, contract, rules, keep=keep, must_include=taken) or can_meet(
        others, contract, rules, keep=1, must_include=must_include
    )


def joker_goes_down(
    state: GameState, hand: Sequence[Card], natural: Card, joker: Card, going_down: Sequence[tuple[Meld, ...]]
) -> bool:
    """Whether ``going_down`` (ways to go down with a seat's hand before it swapped ``natural`` for ``joker``
    from the table) shows that ``hand``, the hand after the swap, can go down with the joker: the joker in the
    natural's place, or laid off onto one of the melds, makes an arrangement of ``hand`` that the contract
    accepts and that leaves what must stay. Then :func:`can_go_down` of ``hand`` and ``joker`` holds (the
    search finds every arrangement there is); False says nothing, and the search must answer."""
    whole, keep, taken = go_down_question(state, hand)
    if taken is not None:  # (the search's answers are filtered then: ask it)
        return False
    rules = state.rules
    contract = state.deal_rule.contract
    for arrangement in going_down:
        for melds in _with_joker(arrangement, natural, joker, rules):
            if contract_fault(melds, contract, rules) is not None:
                continue
            used = 0
            for meld in melds:
                used += len(meld.cards)
            left = len(hand) - used  # (the melds hold distinct cards of ``hand``)
            if left >= keep and not (whole and left):
                return True
    return False


def _with_joker(arrangement: tuple[Meld, ...], natural: Card, joker: Card, rules: Ruleset) -> list[tuple[Meld, ...]]:
    """``arrangement`` with ``joker`` in the place of ``natural`` when it holds that card, else each way to lay
    the joker off onto one of its melds."""
    for i, meld in enumerate(arrangement):
        if natural in meld.cards:
            cards = tuple([joker if card == natural else card for card in meld.cards])
            return [(*arrangement[:i], new_meld(meld.kind, cards, meld.low), *arrangement[i + 1 :])]
    out = []
    for i, meld in enumerate(arrangement):
        for face, end in accepted_faces(meld, rules):
            if face == JOKER_FACE:
                out.append((*arrangement[:i], lay_off(meld, joker, end, rules), *arrangement[i + 1 :]))
    return out


def left_after(hand: Sequence[Card], arrangement: tuple[Meld, ...]) -> list[Card]:
    """The cards of ``hand`` that ``arrangement`` does not lay."""
    used = {c for m in arrangement for c in m.cards}
    return [c for c in hand if c not in used]


def _points_of(cards: Sequence[Card], values: tuple[int, ...]) -> int:
    """The penalty points of ``cards`` in hand, ``values`` a ruleset's ``card_values``: what
    :meth:`.Ruleset.value` gives, summed (compiled, a call of that method is a Python call a card)."""
    total = 0
    for card in cards:
        face = card & FACE_MASK
        total += values[13] if face == JOKER_FACE else values[face % 13]
    return total


def _melded_points(arrangement: tuple[Meld, ...], values: tuple[int, ...]) -> int:
    """The penalty points of the cards ``arrangement`` lays (see :func:`_points_of`)."""
    total = 0
    for meld in arrangement:
        total += _points_of(meld.cards, values)
    return total


def lay_off_targets(state: GameState, card: Card) -> list[tuple[int, End | None]]:
    """Every (meld index, end) where ``card`` fits on the table."""
    return lay_off_index(state).get(card.face, [])


LayOffIndex = dict[int, list[tuple[int, End | None]]]
Accepted = tuple[tuple[int, End | None], ...]
# The last table asked about, as its rules, its melds (held, so that identity stays meaningful) and what each
# of its melds accepts; and the last table indexed, as its rules, what its melds accept (that very list) and
# the index.
_last_accepted: Final[list[tuple[Ruleset, tuple[TableMeld, ...], list[Accepted]]]] = kept([])
_last_index: Final[list[tuple[Ruleset, list[Accepted], LayOffIndex]]] = kept([])


def lay_off_index(state: GameState) -> LayOffIndex:
    """For each face that fits somewhere on the table, every (meld index, end) it fits (shared: do not
    modify it); see :func:`table_lay_off_index`."""
    return table_lay_off_index(state.melds, state.rules)


def table_accepted(melds: Sequence[TableMeld], rules: Ruleset) -> list[Accepted]:
    """What each of these table melds accepts (:func:`.melds.accepted_faces`), by position (shared: do not
    modify it). Melds on the table are immutable and replaced when they change, so the list of the last
    table asked about is reused while the table holds the very same melds, and each meld's entry while
    the table holds that meld at the same place."""
    previous: tuple[TableMeld, ...] = ()
    accepted_before: list[Accepted] = []
    if _last_accepted:
        last_rules, last_melds, last_accepted = _last_accepted[0]
        if last_rules is rules:
            if _same_objects(last_melds, melds):
                return last_accepted
            previous, accepted_before = last_melds, last_accepted
    accepted: list[Accepted] = []
    for position, table_meld in enumerate(melds):
        meld = table_meld.meld
        if position < len(previous) and previous[position].meld is meld:
            accepted.append(accepted_before[position])
        else:
            accepted.append(accepted_faces(meld, rules))
    _last_accepted[:] = [(rules, tuple(melds), accepted)]
    return accepted


# The faces that fit the last table asked about: what its melds accept (that very list) and the mask.
_last_fits: Final[list[tuple[list[Accepted], int]]] = kept([])


def table_fits(melds: Sequence[TableMeld], rules: Ruleset) -> int:
    """The faces that fit somewhere on these table melds, as a mask (bit ``f`` for face ``f``): the keys of
    :func:`table_lay_off_index`, without the places (kept while what the melds accept is the same list)."""
    accepted = table_accepted(melds, rules)
    if _last_fits:
        held, fits = _last_fits[0]
        if held is accepted:
            return fits
    fits = 0
    for takes in accepted:
        for face, _ in takes:
            fits |= 1 << face
    _last_fits[:] = [(accepted, fits)]
    return fits


def table_lay_off_index(melds: Sequence[TableMeld], rules: Ruleset) -> LayOffIndex:
    """:func:`lay_off_index` of these table melds (as a state or an observation holds them), made from
    :func:`table_accepted`. The index of the last table indexed is reused while what its melds accept is
    the very same list; when the entries of a few places changed or were added, the last index is patched:
    only the faces those places accepted, or accept now, get new lists. (An entry is a shared tuple per
    accepted faces: the very same entry at a place accepts the same.)"""
    accepted = table_accepted(melds, rules)
    accepted_before: list[Accepted] = []
    last: LayOffIndex = {}
    if _last_index:
        last_rules, last_accepted, last = _last_index[0]
        if last_rules is rules:
            if last_accepted is accepted:
                return last
            accepted_before = last_accepted
    changed: list[int] = []
    for position in range(len(accepted)):
        if position >= len(accepted_before) or accepted[position] is not accepted_before[position]:
            changed.append(position)
    if accepted_before and len(accepted) >= len(accepted_before) and len(changed) <= _PATCH_AT_MOST:
        index = _patched(last, accepted_before, accepted, changed) if changed else last
    else:
        index = {}
        for position, takes in enumerate(accepted):
            for face, end in takes:
                index.setdefault(face, []).append((position, end))
    _last_index[:] = [(rules, accepted, index)]
    return index


def _same_objects(held: tuple[TableMeld, ...], melds: Sequence[TableMeld]) -> bool:
    """Whether ``melds`` are the very objects ``held``, in the same order."""
    if len(held) != len(melds):
        return False
    for i in range(len(held)):  # noqa: SIM110 -- compiled, all() of a generator makes a generator object
        if held[i] is not melds[i]:
            return False
    return True


# A table where more melds than this changed at once is indexed afresh rather than patched.
_PATCH_AT_MOST: Final = 4


def _patched(
    last: LayOffIndex, accepted_before: list[Accepted], accepted: list[Accepted], changed: list[int]
) -> LayOffIndex:
    """The index of a table that differs from the last one's (``last``, whose melds accepted
    ``accepted_before``) only at the ``changed`` positions (ascending: melds replaced or added at the end);
    each face's list in position order, a meld's own entries in the order it accepts them, as a fresh
    index builds it. The last index's lists are shared, never modified."""
    index = dict(last)
    gone = 0  # a bit for each changed position, whose old entries go
    faces: dict[int, None] = {}  # the faces whose lists change, in the order they are met
    for position in changed:
        gone |= 1 << position
        if position < len(accepted_before):
            for face, _ in accepted_before[position]:
                faces[face] = None
    added: dict[int, list[tuple[int, End | None]]] = {}  # the changed melds' entries by face, in order
    for position in changed:
        for face, end in accepted[position]:
            faces[face] = None
            entries = added.get(face)
            if entries is None:
                added[face] = [(position, end)]
            else:
                entries.append((position, end))
    for face in faces:
        kept = _without(last.get(face), gone)
        new = added.get(face)
        if new is not None:
            kept = _merged(kept, new)
        if kept:
            index[face] = kept
        else:
            index.pop(face, None)
    return index


# Index entries moved as they are: compiled, an item read from a list typed ``list[tuple[int, End | None]]``
# is unboxed, and boxed again (a new tuple) when stored in another list; read through a list typed
# ``list[object]`` (the same list), it is moved as the very object. Positions are read through the typed list.
_Entries = list[tuple[int, End | None]]


def _without(entries: _Entries | None, gone: int) -> _Entries:
    """``entries`` but those at the positions of the bits of ``gone``: the very list when none is (lists are
    shared, never modified)."""
    if not entries:
        return []
    same = cast("list[object]", entries)
    for i in range(len(entries)):
        if gone >> entries[i][0] & 1:
            kept = same[:i]
            for j in range(i + 1, len(entries)):
                if not gone >> entries[j][0] & 1:
                    kept.append(same[j])
            return cast(_Entries, kept)
    return entries


def _merged(old: _Entries, added: _Entries) -> _Entries:
    """Two lists of entries, each in position order and with no position in both, merged in position order."""
    if not added:
        return old
    if not old or old[-1][0] < added[0][0]:
        return old + added
    olds, adds = cast("list[object]", old), cast("list[object]", added)
    out: list[object] = []
    i = 0
    for j in range(len(old)):
        position = old[j][0]
        while i < len(added) and added[i][0] < position:
            out.append(adds[i])
            i += 1
        out.append(olds[j])
    out += adds[i:]
    return cast(_Entries, out)


class _BuyRules:
    """What :func:`buy_problem` reads of a ruleset, read once: compiled, each read of a ruleset's field (a
    Python object) is a look-up by name, and ``buy_limit_for`` a Python call, for every seat asked."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.off = rules.buying is _NO_BUYING
        self.last_deal = len(rules.deals) - 1
        self.limit: int | None = rules.buy_limit_for(0)
        self.final_limit: int | None = rules.buy_limit_for(self.last_deal)
        self.penalty: int = rules.buy_penalty_cards
        self.upcard_buyable: bool = rules.upcard_buyable

    def limit_in(self, deal: int) -> int | None:
        """``rules.buy_limit_for`` the deal (a replayed final deal is final too)."""
        return self.final_limit if deal >= self.last_deal else self.limit


# The buy rules of each ruleset asked about.
_BUY_RULES: Final[ByIdentity[_BuyRules]] = by_identity(_BuyRules)


def buy_problem(state: GameState, seat: int) -> Fault | None:
    """Why ``seat`` may not buy the top discard now (the window and phase are checked by the caller)."""
    rules = _BUY_RULES.of(state.rules)
    if rules.off:
        return _FAULT_BUYING_OFF
    if not state.fresh or not state.discard_pile:
        return _FAULT_NO_FRESH_DISCARD
    if state.discarder is None and not rules.upcard_buyable:
        return _FAULT_UPCARD_NOT_BUYABLE
    if seat == state.current:
        return _FAULT_NEXT_PLAYER_DRAWS
    if seat == state.discarder:
        return _FAULT_OWN_DISCARD_BUY
    limit = rules.limit_in(state.deal)
    if limit is not None and state.buys[seat] >= limit:
        return _buy_limit_fault(limit)
    if len(state.stock) < rules.penalty + 1:
        return _FAULT_STOCK_TOO_LOW
    if seat in state.may_i_calls:
        return _FAULT_ALREADY_ASKED
    return None


# The buy-limit faults, by limit, made once: under May I the listing asks each seat at every draw whether it
# may buy, and a seat that has bought its limit is refused there until the deal ends (a fault is a Python
# dataclass; its parameters are never changed).
_FAULT_BUY_LIMITS: Final[list[Fault]] = kept([])


def _buy_limit_fault(limit: int) -> Fault:
    if not 0 <= limit < 64:
        return Fault(Problem.BUY_LIMIT, {"limit": limit})
    while len(_FAULT_BUY_LIMITS) <= limit:
        _FAULT_BUY_LIMITS.append(Fault(Problem.BUY_LIMIT, {"limit": len(_FAULT_BUY_LIMITS)}))
    return _FAULT_BUY_LIMITS[limit]


def buyers_in_order(state: GameState) -> list[int]:
    """Seats that may buy, nearest in turn order to the player about to draw first."""
    order = [(state.current + k) % state.seats for k in range(1, state.seats)]
    return [s for s in order if buy_problem(state, s) is None]


def call_problem(state: GameState, seat: int, card: Card | None) -> Fault | None:
    """Why ``seat`` may not call the discard now, shedding ``card`` (a Liverpool call) or none (a rummy call)."""
    rules = state.rules
    if rules.discard_call is _NO_CALLS:
        return _FAULT_CALLS_OFF
    if not state.call_open:
        return _FAULT_NOTHING_TO_CALL
    if seat == state.discarder:
        return _FAULT_OWN_DISCARD_CALL
    if rules.discard_call is _LIVERPOOL_CALL:
        if not state.down[seat]:
            return _FAULT_LIVERPOOL_NOT_DOWN
        if card is None:
            return _FAULT_LIVERPOOL_SHEDS
        if card not in state.hands[seat]:
            return Fault(Problem.CARD_NOT_HELD, {"card": card})
        if len(state.hands[seat]) < 2:
            return _FAULT_CALL_LAST_CARD
        return None
    if card is not None:
        return _FAULT_RUMMY_SHEDS_NONE
    if len(state.stock) < rules.buy_penalty_cards + 1:
        return _FAULT_STOCK_TOO_LOW
    return None


def swap_allowed(state: GameState, seat: int) -> Fault | None:
    """Whether ``seat`` may swap a joker at this point of its turn (not which joker)."""
    mode = state.rules.joker_swap
    down = state.down[seat]
    if mode is _SWAP_NEVER:
        return _FAULT_SWAPS_OFF
    if mode is _SWAP_GOING_DOWN and down:
        return _FAULT_SWAP_GOING_DOWN_ONLY
    if mode is _SWAP_AFTER_DOWN and not down:
        return _FAULT_SWAP_ONCE_DOWN
    if mode is _SWAP_DOWN_EARLIER and not (down and not state.down_this_turn):
        if down:
            return _FAULT_SWAP_DOWN_EARLIER_NOT_NOW
        return _FAULT_SWAP_DOWN_EARLIER
    return None


def may_place_reclaimed(state: GameState, seat: int, owner: int) -> bool:
    """Whether a joker ``seat`` reclaimed by a swap may be laid off onto a meld laid by ``owner``."""
    return owner == seat or state.rules.joker_swap_target is not _OWN_MELDS


def reclaimed_fit(
    state: GameState, seat: int, melds: Sequence[TableMeld], jokers: Sequence[Card], rest: Sequence[Card]
) -> bool:
    """Whether ``jokers``, reclaimed by ``seat`` and still in its hand, could be laid off now onto ``melds`` (the
    table), one after another where the rules let reclaimed jokers go, leaving ``rest`` (the seat's other cards)
    as a hand allowed mid-turn. Each joker goes onto the first meld that takes one: every play made while a
    reclaimed joker waits must keep this true, so the turn can always end with the jokers placed."""
    if remaining_problem(state, rest) is not None:
        return False
    rules = state.rules
    table = [tm.meld for tm in melds]
    for joker in jokers:
        placed = False
        for i in range(len(table)):
            if not may_place_reclaimed(state, seat, melds[i].owner):
                continue
            ends = [end for face, end in accepted_faces(table[i], rules) if face == JOKER_FACE]
            if ends:
                table[i] = lay_off(table[i], joker, ends[0], rules)
                placed = True
                break
        if not placed:
            return False
    return True
