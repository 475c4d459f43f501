"""Why an action was refused: one ``IllegalAction(ValueError)`` family with machine-readable reasons.

>>> err = NotYourTurn('DrawStock(seat=2)', 'seat 0 is to draw', 'deal 1, draw')
>>> err.reason, str(err)
('not_your_turn', 'DrawStock(seat=2) is illegal: seat 0 is to draw (deal 1, draw)')
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now. The state it was tried on is unchanged."""

    reason = "illegal"

    def __init__(self, action: object, detail: str, situation: object) -> None:
        super().__init__(f"{action} is illegal: {detail} ({situation})")
        self.action = str(action)
        self.detail = detail
        self.situation = str(situation)


class MalformedAction(IllegalAction):
    reason = "malformed"


class GameOver(IllegalAction):
    reason = "game_over"


class WrongPhase(IllegalAction):
    reason = "wrong_phase"


class NotYourTurn(IllegalAction):
    reason = "not_your_turn"


class CardNotInHand(IllegalAction):
    reason = "card_not_in_hand"


class CannotDraw(IllegalAction):
    reason = "cannot_draw"


class CannotBuy(IllegalAction):
    reason = "cannot_buy"


class CannotGoDown(IllegalAction):
    reason = "cannot_go_down"


class CannotLayOff(IllegalAction):
    reason = "cannot_lay_off"


class CannotSwap(IllegalAction):
    reason = "cannot_swap"


class CannotDiscard(IllegalAction):
    reason = "cannot_discard"


class CannotCall(IllegalAction):
    reason = "cannot_call"


class MustPlaceCard(IllegalAction):
    reason = "must_place_card"


class BadChance(IllegalAction):
    reason = "bad_chance"
