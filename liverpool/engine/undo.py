"""Taking back a seat's last decision, and every action after it, when that shows the seat nothing new.

A client against bots (the terminal client, a server table where every other seat is a bot) may let its
player take back their last decision and the moves played after it, as long as no card hidden from that
player has been shown to them since: a card drawn from the stock, dealt, or discarded by another seat, say.
What counts as shown is what the seat's observation shows (:meth:`.Observation.visible_cards`), so the rule
lives here once and every client asks it.

>>> import random
>>> from liverpool.engine import DrawDiscard, apply, chance_action, find_preset, new_game
>>> state = new_game(find_preset('liverpool'), seats=3)
>>> _ = apply(state, chance_action(state, random.Random(1)))
>>> undo_point(state, 1)
Traceback (most recent call last):
...
liverpool.engine.undo.UndoRefused: nothing to take back: seat 1 has not made a decision yet
>>> _ = apply(state, DrawDiscard(1))
>>> back = undo_point(state, 1)
>>> back.at, back.actions
(1, (DrawDiscard(seat=1, depth=1),))
"""

from __future__ import annotations

from dataclasses import dataclass

from liverpool.engine.actions import Action
from liverpool.engine.cards import Card
from liverpool.engine.game.core import apply
from liverpool.engine.observe import observe
from liverpool.engine.position import Position
from liverpool.engine.record import GameRecord, replay
from liverpool.engine.state import GameState


class UndoRefused(ValueError):
    """Why a seat may not take its last decision back: ``reason`` is machine-readable (``nothing_to_undo``,
    ``card_shown``); for ``card_shown``, ``cards`` are the cards shown since and ``index`` the history index
    of the action that showed them."""

    def __init__(self, reason: str, message: str, cards: tuple[Card, ...] = (), index: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.cards = cards
        self.index = index


@dataclass(frozen=True, slots=True)
class TakeBack:
    """What an undo takes back: the actions from index ``at`` of the history on (the seat's last decision
    first), and the state just before them."""

    at: int
    actions: tuple[Action, ...]
    state: GameState


def undo_point(state: GameState, seat: int, position: Position | None = None) -> TakeBack:
    """The take-back of ``seat``'s last decision in ``state`` (a game begun at ``position``, if it was);
    :class:`UndoRefused` when the seat has made no decision, or when a card hidden from it has been shown to
    it since (naming the card and the action that showed it). ``state`` is not changed."""
    history = state.history
    mine = [i for i, a in enumerate(history) if a.seat == seat]
    if not mine:
        raise UndoRefused("nothing_to_undo", f"nothing to take back: seat {seat} has not made a decision yet")
    at = mine[-1]
    record = GameRecord.of(state, position=position)
    record.actions = record.actions[:at]
    before = replay(record)
    walk = replay(record)
    seen = observe(walk, seat).visible_cards()
    for index, action in enumerate(history[at:], at):
        apply(walk, action)
        shown = observe(walk, seat).visible_cards() - seen
        if shown:
            cards = tuple(sorted(shown, key=str))
            names = " ".join(c.pretty() for c in cards)
            raise UndoRefused(
                "card_shown", f"cannot take back: {names} shown to seat {seat} since ({action!r})", cards, index
            )
    return TakeBack(at, tuple(history[at:]), before)
