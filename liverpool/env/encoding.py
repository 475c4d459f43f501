"""The fixed discrete action encoding and the observation array of :mod:`liverpool.env.liverpool_v0`.

Everything here reads the engine's public values only (actions, :class:`~liverpool.engine.Observation`,
:class:`~liverpool.engine.Ruleset`); no rule is decided here. See ``docs/env.md`` for the tables.
"""

from __future__ import annotations

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
    Observation,
    Pass,
    Phase,
    Ruleset,
    SwapJoker,
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
    @property
    def draw_discard(self) -> int:
        return SIMPLE

    @property
    def discard(self) -> int:
        return self.draw_discard + self.max_depth

    @property
    def call_shed(self) -> int:
        return self.discard + FACES

    @property
    def meld(self) -> int:
        return self.call_shed + FACES

    @property
    def lay_off(self) -> int:
        return self.meld + len(CATALOGUE)

    @property
    def swap(self) -> int:
        return self.lay_off + FACES * self.max_melds * len(ENDS)

    @property
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
        match action:
            case DrawStock():
                return DRAW_STOCK
            case Buy():
                return BUY
            case Pass():
                return PASS
            case EndTurn():
                return END_TURN
            case Call(card=None):
                return CALL_RUMMY
            case Call(card=card) if card is not None:
                return self.call_shed + _face(card)
            case DrawDiscard(depth=depth):
                return self.draw_discard + depth - 1
            case Discard(card=card):
                return self.discard + _face(card)
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

    # Observation layout.
    @property
    def meld_features(self) -> int:
        return 10 + self.seats

    @property
    def seat_features(self) -> int:
        return 4 + FACES

    @property
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


DECLINE: Final = None  # the PASS of a seat that declines to act out of turn in the draw phase: no engine action

Choice = Action | tuple[int, ...] | None


def choices(
    layout: Layout, listed: Sequence[Action], going_downs: Sequence[GoDown], pending: Sequence[int], may_decline: bool
) -> dict[int, Choice]:
    """Action index -> what it does now for a seat whose legal actions are ``listed``: an engine action,
    ``DECLINE`` (when ``may_decline``: out of turn in the draw phase), or a tuple of catalogue indices (a meld
    step extends the ``pending`` going-down; GO_DOWN_DONE submits the first of ``going_downs`` with those
    shapes). The environment's mask, and a bot that plays a policy of this encoding, both come from here."""
    by_shapes: dict[tuple[int, ...], GoDown] = {}
    for action in going_downs:
        by_shapes.setdefault(tuple(sorted(SHAPE_INDEX[shape_of(m)] for m in action.melds)), action)
    out: dict[int, Choice] = {}
    if not pending:
        for option in listed:
            if not isinstance(option, GoDown):
                out.setdefault(layout.index_of(option), option)
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


def encode_observation(layout: Layout, obs: Observation, pending: Sequence[int]) -> npt.NDArray[np.float32]:
    """The array of one seat's observation: built from the engine's :class:`Observation` and the seat's own
    pending going-down only. Seats are relative: index 0 is the viewer, 1 the next seat to the left, ...

    (Written into a Python list and converted once: a NumPy element write costs more than a list's.)"""
    assert obs.viewer is not None
    me, s = obs.viewer, layout.seats
    out = [0.0] * layout.observation_size
    mask = FACE_MASK

    def counts(at: int, cards: Sequence[int]) -> int:
        for c in cards:
            out[at + (c & mask)] += 1
        return at + FACES

    def one_hot(at: int, index: int | None, size: int) -> int:
        if index is not None:
            out[at + index] = 1
        return at + size

    def put(at: int, values: Sequence[float]) -> int:
        end = at + len(values)
        out[at:end] = values
        return end

    rel = [(me + k) % s for k in range(s)]
    where = {seat: k for k, seat in enumerate(rel)}
    at = counts(0, obs.hand)
    at = counts(at, obs.discard_pile)
    top = obs.top_discard
    at = one_hot(at, None if top is None else top & mask, FACES)
    at = one_hot(at, None if obs.taken is None else obs.taken & mask, FACES)
    at = one_hot(at, None if obs.must_place is None else obs.must_place & mask, FACES)
    for tm in obs.melds:
        counts(at, tm.meld.cards)
    at += FACES
    at = counts(at, obs.reclaimed)
    at = put(at, (len(obs.discard_pile), obs.stock_size, obs.deal, obs.reshuffles, float(obs.down_this_turn)))
    if len(obs.melds) > layout.max_melds:
        raise ValueError(f"{len(obs.melds)} melds on the table, beyond the {layout.max_melds} slots")
    for slot, tm in enumerate(obs.melds):
        at_slot = at + slot * layout.meld_features
        faces = [c & mask for c in tm.meld.cards]
        naturals = [f for f in faces if f != JOKER]
        is_set = tm.meld.kind.value == "set"
        size = len(faces)
        at_slot = put(at_slot, (1, float(is_set), float(not is_set), tm.meld.low, size, size - len(naturals)))
        at_slot = one_hot(at_slot, None if is_set else naturals[0] // 13 if naturals else 0, 4)
        one_hot(at_slot, where[tm.owner], s)
    at += layout.max_melds * layout.meld_features
    for seat in rel:
        view = obs.seats[seat]
        at = put(at, (view.hand_count, float(view.down), view.buys, float(view.announced)))
        at = counts(at, view.known)
    at = one_hot(at, PHASES.index(obs.phase), len(PHASES))
    at = put(at, (float(obs.current == me),))
    at = one_hot(at, where[obs.current], s)
    at = one_hot(at, where[obs.dealer], s)
    for i in range(layout.max_contract):
        if i < len(obs.contract):
            rule = obs.contract[i]
            put(at, (float(rule.kind.value == "set"), float(rule.kind.value == "run"), rule.length))
        at += 3
    answered = {seat for seat, _ in obs.window_answers}
    at = put(at, [float(seat in obs.window) for seat in rel])
    at = put(at, [float(seat in answered) for seat in rel])
    at = put(at, [float(seat in obs.may_i_calls) for seat in rel])
    at = put(at, (float(obs.fresh), float(obs.call_open)))
    totals = obs.totals if obs.totals else (0,) * s
    at = put(at, [totals[seat] for seat in rel])
    for index in pending:
        out[at + index] = 1
    at += len(CATALOGUE)
    assert at == layout.observation_size
    return np.array(out, dtype=np.float32)
