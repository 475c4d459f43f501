"""The fixed discrete action encoding and the observation array of :mod:`liverpool.env.liverpool_v0`.

Everything here reads the engine's public values only (actions, :class:`~liverpool.engine.Observation`,
:class:`~liverpool.engine.Ruleset`); no rule is decided here. See ``docs/env.md`` for the tables.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from liverpool.engine import (
    FACE_MASK,
    Action,
    Buy,
    Call,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    GoDown,
    LayOff,
    Meld,
    MeldKind,
    MeldRule,
    Observation,
    Pass,
    Phase,
    Ruleset,
    SwapJoker,
    TableMeld,
)

FACES: Final = 53  # 0..51 naturals (suit * 13 + rank - 1, suits C D H S), 52 the joker
JOKER: Final = 52
SUITS: Final = "CDHS"
PHASES: Final = (Phase.DEAL, Phase.DRAW, Phase.BUY, Phase.PLAY, Phase.RESHUFFLE, Phase.GAME_OVER)
ENDS: Final = (None, "low", "high")  # a lay-off's end: None for a set
MAX_SET: Final = 16  # the largest set size the catalogue holds (3..16)

# The simple actions, first in the action space.
DRAW_STOCK: Final = 0
BUY: Final = 1
PASS: Final = 2  # Pass in a buy window; out of turn in the draw phase, decline to buy or call (env-level)
END_TURN: Final = 3
CALL_RUMMY: Final = 4
GO_DOWN_DONE: Final = 5
SIMPLE: Final = 6


@dataclass(frozen=True)
class MeldShape:
    """A catalogue entry: a set of ``rank`` and ``size`` cards, or a run of ``suit`` from ``low`` to ``high``
    (ranks 1..14, 14 an ace high)."""

    kind: str
    rank: int = 0
    size: int = 0
    suit: int = 0
    low: int = 0
    high: int = 0

    def __str__(self) -> str:
        if self.kind == "set":
            return f"set of {self.size} {_rank(self.rank)}"
        return f"run {_rank(self.low)}-{_rank(self.high)}{SUITS[self.suit]}"


def _rank(rank: int) -> str:
    return {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(rank, str(rank))


def meld_catalogue() -> tuple[MeldShape, ...]:
    """Every meld shape an agent may name: sets of rank 1..13 and size 3..MAX_SET (13 * 14 = 182), then runs
    of each suit from ``low`` 1..12 to ``high`` low+2..14 (4 * 78 = 312): 494 shapes."""
    shapes = [MeldShape("set", rank=r, size=k) for r in range(1, 14) for k in range(3, MAX_SET + 1)]
    shapes += [
        MeldShape("run", suit=s, low=a, high=b) for s in range(4) for a in range(1, 13) for b in range(a + 2, 15)
    ]
    return tuple(shapes)


CATALOGUE: Final = meld_catalogue()
SHAPE_INDEX: Final = {shape: i for i, shape in enumerate(CATALOGUE)}


def shape_of(meld: Meld) -> MeldShape:
    """The catalogue shape of a meld as laid (the rank of a set is its ``low``)."""
    size = len(meld.cards)
    if meld.kind.value == "set":
        return MeldShape("set", rank=meld.low, size=size)
    naturals = [Card(c) for c in meld.cards if not Card(c).is_joker]
    suit = SUITS.index(naturals[0].suit) if naturals else 0
    return MeldShape("run", suit=suit, low=meld.low, high=meld.low + size - 1)


_INDEX_BY_KEY: Final = {
    ("set", shape.rank, shape.size) if shape.kind == "set" else ("run", shape.suit, shape.low, shape.high): i
    for i, shape in enumerate(CATALOGUE)
}


def shape_index(meld: Meld) -> int:
    """``SHAPE_INDEX[shape_of(meld)]``, without building the shape (a ``KeyError`` for a meld the catalogue
    does not hold, as there)."""
    cards = meld.cards
    size = len(cards)
    if meld.kind.value == "set":
        return _INDEX_BY_KEY[("set", meld.low, size)]
    suit = 0
    for c in cards:
        face = c & FACE_MASK
        if face != JOKER:
            suit = face // 13
            break
    return _INDEX_BY_KEY[("run", suit, meld.low, meld.low + size - 1)]


@dataclass(frozen=True)
class Layout:
    """The sizes of one environment's spaces, fixed by the ruleset and the number of seats."""

    seats: int
    max_depth: int  # deepest dig of the discard pile encoded (the shoe's size)
    max_melds: int  # table meld slots (seats * the longest contract)
    max_contract: int

    @staticmethod
    def of(rules: Ruleset, seats: int) -> Layout:
        deck = rules.deck_for(seats)
        longest = max(len(d.contract) for d in rules.deals)
        return Layout(seats, deck.decks * 52 + deck.jokers, seats * longest, longest)

    # Offsets of each block of the action space.
    @functools.cached_property
    def draw_discard(self) -> int:
        return SIMPLE

    @functools.cached_property
    def discard(self) -> int:
        return self.draw_discard + self.max_depth

    @functools.cached_property
    def call_shed(self) -> int:
        return self.discard + FACES

    @functools.cached_property
    def meld(self) -> int:
        return self.call_shed + FACES

    @functools.cached_property
    def lay_off(self) -> int:
        return self.meld + len(CATALOGUE)

    @functools.cached_property
    def swap(self) -> int:
        return self.lay_off + FACES * self.max_melds * len(ENDS)

    @functools.cached_property
    def actions(self) -> int:
        return self.swap + 52 * self.max_melds

    def describe(self, index: int) -> str:
        """A readable name of action ``index``."""
        names = {
            DRAW_STOCK: "draw stock",
            BUY: "buy",
            PASS: "pass",
            END_TURN: "end turn",
            CALL_RUMMY: "call rummy",
            GO_DOWN_DONE: "go down (done)",
        }
        if index in names:
            return names[index]
        if index < self.discard:
            return f"take discard, depth {index - self.draw_discard + 1}"
        if index < self.call_shed:
            return f"discard {face_text(index - self.discard)}"
        if index < self.meld:
            return f"call, shedding {face_text(index - self.call_shed)}"
        if index < self.lay_off:
            return f"meld {CATALOGUE[index - self.meld]}"
        if index < self.swap:
            face, rest = divmod(index - self.lay_off, self.max_melds * len(ENDS))
            meld, end = divmod(rest, len(ENDS))
            return f"lay off {face_text(face)} on meld {meld}" + (f" ({ENDS[end]} end)" if ENDS[end] else "")
        face, meld = divmod(index - self.swap, self.max_melds)
        return f"swap {face_text(face)} for the joker of meld {meld}"

    def index_of(self, action: Action) -> int:
        """The action index of an engine action other than a going-down (which takes several steps)."""
        simple = _SIMPLE_INDEX.get(type(action))
        if simple is not None:
            return simple
        if type(action) is Discard:
            return self.discard + (action.card & FACE_MASK)
        if type(action) is DrawDiscard:
            return self.draw_discard + action.depth - 1
        match action:
            case Call(card=None):
                return CALL_RUMMY
            case Call(card=card) if card is not None:
                return self.call_shed + _face(card)
            case LayOff(card=card, meld=meld, end=end):
                self._check_meld(meld)
                return self.lay_off + (_face(card) * self.max_melds + meld) * len(ENDS) + ENDS.index(end)
            case SwapJoker(card=card, meld=meld):
                self._check_meld(meld)
                return self.swap + _face(card) * self.max_melds + meld
        raise ValueError(f"{action!r} has no single action index")

    def _check_meld(self, meld: int) -> None:
        if meld >= self.max_melds:
            raise ValueError(f"table meld {meld} is beyond the {self.max_melds} slots this layout encodes")

    @functools.cached_property
    def meld_parts(self) -> dict[int, tuple[object, list[int], list[int]]]:
        """What :func:`encode_observation` keeps between observations: by ``viewer * 4096 + slot``, the last
        table meld object seen there and its share of the array; by -1, the last contract and its share; by
        ``-2 - viewer``, the last table (the engine's tuple of melds) that viewer saw and its share, reused while
        the table is equal (most steps lay nothing: draws, discards, buys)."""
        return {}

    @functools.cached_property
    def tables(self) -> _Tables:
        """The index tables :func:`encode_observation` reads at every observation, made once per layout (read as
        an attribute: a ``functools.cache`` keyed by the layout hashes its four fields at every call)."""
        return _Tables(self)

    # Observation layout.
    @functools.cached_property
    def meld_features(self) -> int:
        return 10 + self.seats

    @functools.cached_property
    def seat_features(self) -> int:
        return 4 + FACES

    @functools.cached_property
    def observation_size(self) -> int:
        s = self.seats
        return (
            FACES * 7  # hand, pile counts, pile top, taken, must place, table counts, reclaimed
            + 5  # pile size, stock size, deal, reshuffles, down this turn
            + self.max_melds * self.meld_features
            + s * self.seat_features
            + len(PHASES)
            + 1
            + 2 * s  # phase, am current, current and dealer (relative)
            + self.max_contract * 3
            + 3 * s
            + 2  # window, window answered, may-i calls, fresh, call open
            + s  # totals (relative)
            + len(CATALOGUE)  # the pending going-down's shapes
        )


_SIMPLE_INDEX: Final[dict[type, int]] = {DrawStock: DRAW_STOCK, Buy: BUY, Pass: PASS, EndTurn: END_TURN}

DECLINE: Final = None  # the PASS of a seat that declines to act out of turn in the draw phase: no engine action

Choice = Action | tuple[int, ...] | None


def choices(
    layout: Layout,
    listed: Sequence[Action],
    going_downs: Sequence[GoDown] | None,
    pending: Sequence[int],
    may_decline: bool,
) -> dict[int, Choice]:
    """Action index -> what it does now for a seat whose legal actions are ``listed``: an engine action,
    ``DECLINE`` (when ``may_decline``: out of turn in the draw phase), or a tuple of catalogue indices (a meld
    step extends the ``pending`` going-down; GO_DOWN_DONE submits the first of ``going_downs`` with those
    shapes; ``None``: the going-downs of ``listed``, in their order). The environment's mask, and a bot that
    plays a policy of this encoding, both come from here."""
    out: dict[int, Choice] = {}
    listed_downs: list[GoDown] = []
    if pending:
        listed_downs = [a for a in listed if type(a) is GoDown] if going_downs is None else []
    else:
        # (a discard, most of a listing, indexed here: ``index_of`` is a call per action; the going-downs
        # are picked out in the same pass)
        discard_at = layout.discard
        index_of = layout.index_of
        for option in listed:
            if type(option) is Discard:
                out.setdefault(discard_at + (option.card & FACE_MASK), option)
            elif isinstance(option, GoDown):
                listed_downs.append(option)
            else:
                out.setdefault(index_of(option), option)
    by_shapes: dict[tuple[int, ...], GoDown] = {}
    for action in listed_downs if going_downs is None else going_downs:
        by_shapes.setdefault(tuple(sorted([shape_index(m) for m in action.melds])), action)
    prefix = tuple(pending)
    for shapes, action in by_shapes.items():
        if shapes[: len(prefix)] != prefix:
            continue
        if len(shapes) > len(prefix):
            out.setdefault(layout.meld + shapes[len(prefix)], shapes[: len(prefix) + 1])
        else:
            out[GO_DOWN_DONE] = action
    if may_decline and not pending:
        out[PASS] = DECLINE
    return out


def _face(card: int) -> int:
    """The engine's face of a card (``Card.face``), which this encoding's faces equal."""
    return card & FACE_MASK


def face_text(face: int) -> str:
    if face == JOKER:
        return "JK"
    return _rank(face % 13 + 1) + SUITS[face // 13]


@functools.cache
def _offsets(layout: Layout) -> tuple[int, int, int, int, int, int]:
    """Where the observation's blocks after the seven face blocks start: the table meld slots, the seats, the
    phase, the contract, the window flags and the pending going-down."""
    s = layout.seats
    melds = FACES * 7 + 5
    seats = melds + layout.max_melds * layout.meld_features
    phase = seats + s * layout.seat_features
    contract = phase + len(PHASES) + 1 + 2 * s
    window = contract + layout.max_contract * 3
    pending = window + 3 * s + 2 + s
    assert pending + len(CATALOGUE) == layout.observation_size
    return melds, seats, phase, contract, window, pending


class _Tables:
    """A layout's positions for :func:`encode_observation`: the blocks' offsets (:func:`_offsets`), the known
    cards' tables by relative seat (:func:`_known_tables`), and the index arrays of the numbers other than 1 by
    count of table and contract melds and whether there are totals (:func:`_value_positions`), made as asked."""

    __slots__ = (
        "contract_at",
        "current_at",
        "known",
        "melds_at",
        "pending_at",
        "phase_at",
        "size",
        "values",
        "window_at",
    )

    def __init__(self, layout: Layout) -> None:
        self.melds_at, _, self.phase_at, self.contract_at, self.window_at, self.pending_at = _offsets(layout)
        self.current_at = self.phase_at + len(PHASES)  # am current; then current and dealer (relative)
        self.known = _known_tables(layout)
        self.size = layout.observation_size
        self.values: dict[int, npt.NDArray[np.intp]] = {}


def encode_observation(layout: Layout, obs: Observation, pending: Sequence[int]) -> npt.NDArray[np.float32]:
    """The array of one seat's observation: built from the engine's :class:`Observation` and the seat's own
    pending going-down only. Seats are relative: index 0 is the viewer, 1 the next seat to the left, ...
    ``docs/env.md`` lists the blocks in order.

    Built as a list of the positions that hold a 1 (a card counted, a one-hot, a flag that is set), counted by
    ``np.bincount``, and the values of the other numbers (all integers), written in one assignment at positions
    that depend only on how many table melds and contract melds there are and whether there are totals
    (:func:`_value_positions`, an index array made once each and kept in ``layout.tables``): a few NumPy calls
    where a write per element would cost more than the whole. A card's position in a face block is read from a
    table by card (:func:`_add_cards`); the table's share is kept from the viewer's last observation while the
    table is equal, and each meld's while the very same meld object is in that slot for this viewer (the
    contract's while it is the same object), as the engine hands out a new meld object when one changes."""
    assert obs.viewer is not None
    me, s = obs.viewer, layout.seats
    tables = layout.tables
    pile = obs.discard_pile
    ones: list[int] = []
    _add_cards(ones, _AT_HAND, obs.hand)
    if pile:
        _add_cards(ones, _AT_PILE, pile)
        ones.append(2 * FACES + (pile[-1] & FACE_MASK))
    if obs.taken is not None:
        ones.append(3 * FACES + (obs.taken & FACE_MASK))
    if obs.must_place is not None:
        ones.append(4 * FACES + (obs.must_place & FACE_MASK))
    if obs.reclaimed:
        _add_cards(ones, _AT_RECLAIMED, obs.reclaimed)
    if obs.down_this_turn:
        ones.append(7 * FACES + 4)
    views = obs.seats
    value: list[int] = [len(pile), obs.stock_size, obs.deal, obs.reshuffles]
    for view, known_at in zip(views[me:] + views[:me], tables.known, strict=True):
        value += (view.hand_count, view.buys)
        if view.down:
            ones.append(known_at[0] - 3)  # the seat's block starts 4 before its known cards
        if view.announced:
            ones.append(known_at[0] - 1)
        if view.known:
            _add_cards(ones, known_at, view.known)
    totals = obs.totals
    if totals:
        value += totals[me:] + totals[:me]
    table = obs.melds
    if len(table) > layout.max_melds:
        raise ValueError(f"{len(table)} melds on the table, beyond the {layout.max_melds} slots")
    shares = layout.meld_parts
    if table:
        part = shares.get(-2 - me)
        if part is None or part[0] != table:
            part = shares[-2 - me] = (table, *_table_part(layout, table, me, tables.melds_at))
        ones += part[1]
        value += part[2]
    at = tables.current_at
    ones.append(tables.phase_at + PHASES.index(obs.phase))
    if obs.current == me:
        ones.append(at)
    ones += (at + 1 + (obs.current - me) % s, at + 1 + s + (obs.dealer - me) % s)
    contract = obs.contract
    rules = 0
    if contract:
        part = shares.get(-1)
        if part is None or part[0] is not contract:
            part = shares[-1] = (contract, *_contract_part(layout, contract, tables.contract_at))
        ones += part[1]
        value += part[2]
        rules = len(part[2])
    at = tables.window_at
    if obs.window:
        ones += [at + (seat - me) % s for seat in set(obs.window)]
    if obs.window_answers:
        ones += [at + s + (seat - me) % s for seat in {seat for seat, _ in obs.window_answers}]
    if obs.may_i_calls:
        ones += [at + 2 * s + (seat - me) % s for seat in set(obs.may_i_calls)]
    if obs.fresh:
        ones.append(at + 3 * s)
    if obs.call_open:
        ones.append(at + 3 * s + 1)
    if pending:
        at = tables.pending_at
        ones += [at + index for index in set(pending)]
    out = np.bincount(np.fromiter(ones, np.intp, len(ones)), None, tables.size)
    key = (len(table) * 64 + rules) * 2 + bool(totals)
    positions = tables.values.get(key)
    if positions is None:
        positions = tables.values[key] = _value_positions(layout, bool(totals), len(table), rules)
    out[positions] = np.fromiter(value, np.intp, len(value))
    return out.astype(np.float32)


# Positions by card in the face blocks of the hand, the pile, the table and the reclaimed jokers: the face of
# card ``c`` (``c & FACE_MASK``) plus the block's offset, read with one ``map`` over a hand or pile where a
# comprehension makes two Python operations a card. Cards beyond the table (a shoe of 64 decks) are computed.
_CARD_TABLE: Final = 1 << 12


def _face_table(offset: int) -> list[int]:
    return [offset + (c & FACE_MASK) for c in range(_CARD_TABLE)]


_AT_HAND: Final = _face_table(0)
_AT_PILE: Final = _face_table(FACES)
_AT_TABLE: Final = _face_table(5 * FACES)
_AT_RECLAIMED: Final = _face_table(6 * FACES)


@functools.cache
def _known_tables(layout: Layout) -> list[list[int]]:
    """By relative seat, the positions by card of the seat's block of known cards (its face-up pickups): most
    seats show some, about 6 cards each in random games."""
    _, seats_at, _, _, _, _ = _offsets(layout)
    return [_face_table(seats_at + k * layout.seat_features + 4) for k in range(layout.seats)]


def _add_cards(ones: list[int], table: list[int], cards: Sequence[int]) -> None:
    """Add ``table[0] + (c & FACE_MASK)`` of each card to ``ones``, read from ``table`` (one of the ``_AT_``
    tables) without a list in between."""
    size = len(ones)
    try:
        ones += map(table.__getitem__, cards)
    except IndexError:
        del ones[size:]
        ones += [table[0] + (c & FACE_MASK) for c in cards]


def _table_part(layout: Layout, table: Sequence[TableMeld], me: int, melds_at: int) -> tuple[list[int], list[int]]:
    """The table's share of the observation seen by ``me``: each meld's (:func:`_meld_part`), kept per viewer
    and slot while the engine hands over the very same meld object there."""
    ones: list[int] = []
    value: list[int] = []
    kept = layout.meld_parts
    for slot, tm in enumerate(table):
        key = me * 4096 + slot
        part = kept.get(key)
        if part is None or part[0] is not tm:
            part = kept[key] = (tm, *_meld_part(layout, tm, me, melds_at + slot * layout.meld_features))
        ones += part[1]
        value += part[2]
    return ones, value


def _meld_part(layout: Layout, tm: TableMeld, me: int, base: int) -> tuple[list[int], list[int]]:
    """A table meld's share of the observation seen by ``me``, its slot's features starting at ``base``: the
    positions that hold a 1 (its cards counted in the table block, its kind, a run's suit, its owner), and the
    values of its low end, length and jokers."""
    meld = tm.meld
    cards = meld.cards
    ones: list[int] = []
    _add_cards(ones, _AT_TABLE, cards)
    naturals = [c for c in cards if c & FACE_MASK != JOKER]
    owner = base + 10 + (tm.owner - me) % layout.seats
    if meld.kind is MeldKind.SET:
        ones += (base, base + 1, owner)
    else:
        suit = (naturals[0] & FACE_MASK) // 13 if naturals else 0
        ones += (base, base + 2, base + 6 + suit, owner)
    return ones, [meld.low, len(cards), len(cards) - len(naturals)]  # at base + 3, 4, 5: _value_positions


def _contract_part(layout: Layout, contract: Sequence[MeldRule], contract_at: int) -> tuple[list[int], list[int]]:
    """The contract's share of the observation: a one-hot of each meld rule's kind, and each one's length."""
    rules = contract[: layout.max_contract]
    ones: list[int] = []
    for i, rule in enumerate(rules):
        if rule.kind is MeldKind.SET:
            ones.append(contract_at + 3 * i)
        elif rule.kind is MeldKind.RUN:
            ones.append(contract_at + 3 * i + 1)
    return ones, [rule.length for rule in rules]  # at contract_at + 3 * i + 2: _value_positions


@functools.cache
def _fixed_positions(layout: Layout, totals: bool) -> list[int]:
    """The positions of the numbers other than 1 that every observation has, in the order
    ``encode_observation`` lists their values: pile size, stock size, deal, reshuffles; each relative seat's hand
    count and buys; with ``totals``, each relative seat's total. (A copy is taken before adding to it.)"""
    _, seats_at, _, _, window_at, _ = _offsets(layout)
    out = [7 * FACES + i for i in range(4)]
    for k in range(layout.seats):
        base = seats_at + k * layout.seat_features
        out += (base, base + 2)
    if totals:
        out += [window_at + 3 * layout.seats + 2 + k for k in range(layout.seats)]
    return out


@functools.cache
def _value_positions(layout: Layout, totals: bool, melds: int, rules: int) -> npt.NDArray[np.intp]:
    """The positions of the numbers other than 1, as an index array, in the order ``encode_observation`` lists
    their values: :func:`_fixed_positions`, then each of the ``melds`` table slots' low end, length and jokers,
    then each of the contract's ``rules`` lengths."""
    melds_at, _, _, contract_at, _, _ = _offsets(layout)
    at = list(_fixed_positions(layout, totals))
    for slot in range(melds):
        base = melds_at + slot * layout.meld_features
        at += (base + 3, base + 4, base + 5)
    at += [contract_at + 3 * i + 2 for i in range(rules)]
    out = np.array(at, dtype=np.intp)
    out.flags.writeable = False
    return out
