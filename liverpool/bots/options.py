"""The legal options of one seat sorted by kind, as the heuristic bots read them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from liverpool.engine import (
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


@dataclass(slots=True, init=False)
class Options:
    """The legal options of one seat, by kind (in the order they were listed).

    (Its ``__init__`` is written out: mypyc compiles it, where a dataclass's stays Python; one is built
    per decision.) The lists of :meth:`of` are read, never changed: the kinds not offered share one empty
    list there (a decision offers few kinds, and building and freeing ten lists cost more than sorting)."""

    draw_stock: list[DrawStock]
    draw_discard: list[DrawDiscard]
    buys: list[Buy]
    passes: list[Pass]
    calls: list[Call]
    go_downs: list[GoDown]
    lay_offs: list[LayOff]
    swaps: list[SwapJoker]
    discards: list[Discard]
    end_turns: list[EndTurn]

    def __init__(
        self,
        draw_stock: list[DrawStock] | None = None,
        draw_discard: list[DrawDiscard] | None = None,
        buys: list[Buy] | None = None,
        passes: list[Pass] | None = None,
        calls: list[Call] | None = None,
        go_downs: list[GoDown] | None = None,
        lay_offs: list[LayOff] | None = None,
        swaps: list[SwapJoker] | None = None,
        discards: list[Discard] | None = None,
        end_turns: list[EndTurn] | None = None,
    ) -> None:
        self.draw_stock = [] if draw_stock is None else draw_stock
        self.draw_discard = [] if draw_discard is None else draw_discard
        self.buys = [] if buys is None else buys
        self.passes = [] if passes is None else passes
        self.calls = [] if calls is None else calls
        self.go_downs = [] if go_downs is None else go_downs
        self.lay_offs = [] if lay_offs is None else lay_offs
        self.swaps = [] if swaps is None else swaps
        self.discards = [] if discards is None else discards
        self.end_turns = [] if end_turns is None else end_turns

    @classmethod
    def of(cls, options: Sequence[Action]) -> Options:
        """Sort ``options`` by kind (the lists are not to be changed: see the class docstring)."""
        if cls is Options:
            found: list[list[Any]] = [_NONE] * 10  # by kind, :data:`_NONE` until one is found
            items = (
                options if isinstance(options, list) else list(options)
            )  # (compiled, a list is walked without an iterator)
            for a in items:
                kind = _kind(type(a))
                if kind < 0:  # a subclass of an action: filed by ``_add``
                    break
                got = found[kind]
                if got is _NONE:
                    got = found[kind] = []
                got.append(a)
            else:
                return Options(
                    found[0], found[1], found[2], found[3], found[4], found[5], found[6], found[7], found[8], found[9]
                )
        out = cls() if cls is not Options else Options()  # (compiled, ``Options()`` is a direct call)
        lists: tuple[list[Any], ...] = (
            out.draw_stock,
            out.draw_discard,
            out.buys,
            out.passes,
            out.calls,
            out.go_downs,
            out.lay_offs,
            out.swaps,
            out.discards,
            out.end_turns,
        )
        for a in (
            options if isinstance(options, list) else list(options)
        ):  # (compiled, a list is walked without an iterator)
            kind = _kind(type(a))
            if kind >= 0:
                lists[kind].append(a)
            else:
                out._add(a)
        return out

    def _add(self, a: Action) -> None:
        """File one option of a type :data:`_KINDS` does not list (a subclass of an action)."""
        match a:
            case DrawStock():
                self.draw_stock.append(a)
            case DrawDiscard():
                self.draw_discard.append(a)
            case Buy():
                self.buys.append(a)
            case Pass():
                self.passes.append(a)
            case Call():
                self.calls.append(a)
            case GoDown():
                self.go_downs.append(a)
            case LayOff():
                self.lay_offs.append(a)
            case SwapJoker():
                self.swaps.append(a)
            case Discard():
                self.discards.append(a)
            case EndTurn():
                self.end_turns.append(a)


# The list of :class:`Options` each action type goes to (by exact type; subclasses take the ``match``).
_KINDS: Final[dict[type, int]] = {
    kind: i
    for i, kind in enumerate((DrawStock, DrawDiscard, Buy, Pass, Call, GoDown, LayOff, SwapJoker, Discard, EndTurn))
}


_NONE: Final[list[Any]] = []  # the list of the kinds :meth:`Options.of` found no option of (never changed)

# the action types as constants (compiled, a Final name is read without a look-up in the module's dict)
_DRAW_STOCK: Final = DrawStock
_DRAW_DISCARD: Final = DrawDiscard
_BUY: Final = Buy
_PASS: Final = Pass
_CALL: Final = Call
_GO_DOWN: Final = GoDown
_LAY_OFF: Final = LayOff
_SWAP: Final = SwapJoker
_DISCARD: Final = Discard
_END_TURN: Final = EndTurn


def _kind(t: type) -> int:
    """``_KINDS.get(t, -1)``, by comparing ``t`` with each type (the most frequent first): cheaper than hashing it."""
    if t is _DISCARD:
        return 8
    if t is _LAY_OFF:
        return 6
    if t is _DRAW_DISCARD:
        return 1
    if t is _DRAW_STOCK:
        return 0
    if t is _BUY:
        return 2
    if t is _PASS:
        return 3
    if t is _GO_DOWN:
        return 5
    if t is _SWAP:
        return 7
    if t is _END_TURN:
        return 9
    if t is _CALL:
        return 4
    return -1


_BUY_KIND: Final = 2  # the place of Buy and Pass in the kinds of :data:`_KINDS`
_PASS_KIND: Final = 3


def buys_and_passes(options: Sequence[Action]) -> tuple[list[Buy], list[Pass]]:
    """``Options.of(options).buys`` and ``.passes`` (a buy window offers nothing else)."""
    buys: list[Buy] = []
    passes: list[Pass] = []
    for a in (
        options if isinstance(options, list) else list(options)
    ):  # (compiled, a list is walked without an iterator)
        kind = _kind(type(a))
        if kind == _BUY_KIND:
            buys.append(cast(Buy, a))
        elif kind == _PASS_KIND:
            passes.append(cast(Pass, a))
        elif kind < 0:
            g = Options()
            g._add(a)
            buys += g.buys
            passes += g.passes
    return buys, passes
