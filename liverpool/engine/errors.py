"""Why an action was refused: one ``IllegalAction(ValueError)`` family with machine-readable reasons.

Every refusal's ``reason`` is one value of :class:`Reason`, one for each subclass; its message names the
action (its ``repr``), why it is refused, and the situation (deal, phase, whose turn).

>>> err = NotYourTurn('DrawStock(seat=2)', "it is seat 0's turn", 'deal 1, draw phase')
>>> err.reason, str(err)
(<Reason.NOT_YOUR_TURN: 'not_your_turn'>, "DrawStock(seat=2) is illegal: it is seat 0's turn (deal 1, draw phase)")
>>> err.reason == 'not_your_turn'
True
"""

from __future__ import annotations

from enum import StrEnum

from liverpool.engine.problems import Fault


class Reason(StrEnum):
    """The machine-readable reason of a refusal (``IllegalAction.reason``), one value for each kind of
    :class:`IllegalAction`. A server sends it as is (``docs/protocol.md``)."""

    ILLEGAL = "illegal"
    """The base class's: raised by no engine check, kept for callers that refuse actions of their own."""
    MALFORMED = "malformed"
    """Not a well-formed action: no such seat, a value of the wrong type, an end that is neither
    ``'low'`` nor ``'high'``, a lay-off form that is not the listed one."""
    GAME_OVER = "game_over"
    """The game has ended; nothing more may be played."""
    WRONG_PHASE = "wrong_phase"
    """The seat may act, but not with this action now (e.g. discarding before drawing, buying with no
    buy window open, a shuffle with no deal waiting)."""
    NOT_YOUR_TURN = "not_your_turn"
    """The action belongs to the seat whose turn it is, and this seat's turn it is not (or it has no open
    buy offer to decline)."""
    CARD_NOT_IN_HAND = "card_not_in_hand"
    """A card named is not in the seat's hand, or is named twice."""
    CANNOT_DRAW = "cannot_draw"
    """The discard pile cannot be drawn from as asked."""
    CANNOT_BUY = "cannot_buy"
    """The seat may not buy the discard now (its own discard, the buy limit, already answered)."""
    CANNOT_GO_DOWN = "cannot_go_down"
    """The melds do not meet the contract, or the seat has already gone down."""
    CANNOT_LAY_OFF = "cannot_lay_off"
    """The card does not fit that meld (or that end of it), or the seat is not down yet."""
    CANNOT_SWAP = "cannot_swap"
    """The joker may not be swapped for that card now."""
    CANNOT_DISCARD = "cannot_discard"
    """The card may not be discarded (just taken from the pile), or the turn must end with a discard."""
    CANNOT_CALL = "cannot_call"
    """A call (Liverpool, rummy) that the rules do not allow on this discard or for this seat."""
    MUST_PLACE_CARD = "must_place_card"
    """A card taken on condition (dug from the pile, a reclaimed joker) must be placed first."""
    BAD_CHANCE = "bad_chance"
    """A chance action (shuffle, reshuffle) whose cards are not the ones the state holds."""


class IllegalAction(ValueError):
    """An action the rules do not allow now. The state it was tried on is unchanged.

    ``detail`` says why in English; ``fault`` says it as a code and its parameters
    (:class:`~liverpool.engine.problems.Fault`), for a client to word in its own language: every refusal
    of an action a player may send has one (a malformed action's and a chance action's have none).
    ``detail`` may be given as the fault, whose sentence it then is.

    >>> from liverpool.engine.problems import Fault, Problem
    >>> err = CannotGoDown('GoDown(seat=0, ...)', Fault(Problem.ALREADY_DOWN), 'deal 1, play phase')
    >>> err.detail, err.fault.to_dict()
    ('you have already gone down this deal', {'code': 'already_down', 'params': {}})
    """

    reason: Reason = Reason.ILLEGAL

    def __init__(self, action: object, detail: str | Fault, situation: object) -> None:
        fault: Fault | None = None
        text: str
        if isinstance(detail, Fault):
            fault, text = detail, detail.text()
        else:
            text = detail
        super().__init__(f"{action} is illegal: {text} ({situation})")
        self.action = str(action)
        self.detail = text
        self.fault = fault
        self.situation = str(situation)


class MalformedAction(IllegalAction):
    reason = Reason.MALFORMED


class GameOver(IllegalAction):
    reason = Reason.GAME_OVER


class WrongPhase(IllegalAction):
    reason = Reason.WRONG_PHASE


class NotYourTurn(IllegalAction):
    reason = Reason.NOT_YOUR_TURN


class CardNotInHand(IllegalAction):
    reason = Reason.CARD_NOT_IN_HAND


class CannotDraw(IllegalAction):
    reason = Reason.CANNOT_DRAW


class CannotBuy(IllegalAction):
    reason = Reason.CANNOT_BUY


class CannotGoDown(IllegalAction):
    reason = Reason.CANNOT_GO_DOWN


class CannotLayOff(IllegalAction):
    reason = Reason.CANNOT_LAY_OFF


class CannotSwap(IllegalAction):
    reason = Reason.CANNOT_SWAP


class CannotDiscard(IllegalAction):
    reason = Reason.CANNOT_DISCARD


class CannotCall(IllegalAction):
    reason = Reason.CANNOT_CALL


class MustPlaceCard(IllegalAction):
    reason = Reason.MUST_PLACE_CARD


class BadChance(IllegalAction):
    reason = Reason.BAD_CHANCE
