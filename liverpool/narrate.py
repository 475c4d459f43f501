"""Readable sentences for a game's events, for logs and the terminal."""

from __future__ import annotations

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
from liverpool.engine.cards import Card
from liverpool.engine.state import GameState


def cards_text(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.pretty() for c in cards)


def describe(before: GameState, action: Action, names: list[str]) -> str:
    """One line saying what ``action`` did, given the state just before it."""
    who = names[action.seat] if action.seat is not None else ""
    match action:
        case Shuffle():
            rule = before.deal_rule
            contract = ", ".join(str(m) for m in rule.contract)
            return (
                f"Deal {before.deal + 1}: {contract}; {rule.hand_size} cards each; "
                f"{names[before.dealer]} deals"
            )
        case Reshuffle():
            return f"The stock is empty: {len(action.stock)} discards are washed into a new stock"
        case DrawStock():
            return f"{who} draws from the stock"
        case DrawDiscard(depth=depth):
            taken = before.discard_pile[-depth:]
            return f"{who} takes {cards_text(taken)} from the discard pile"
        case Buy():
            top = before.discard_pile[-1]
            return f"{who} asks to buy {top.pretty()} (May I?)"
        case Pass():
            return f"{who} passes"
        case GoDown(melds=melds):
            laid = "; ".join(f"{m.kind.value} {cards_text(m.cards)}" for m in melds)
            return f"{who} goes down: {laid}"
        case LayOff(card=card, meld=meld):
            target = before.melds[meld]
            return f"{who} lays off {card.pretty()} on {names[target.owner]}'s {target.meld.kind.value}"
        case SwapJoker(card=card, meld=meld):
            return f"{who} swaps {card.pretty()} for the joker in meld {meld}"
        case Discard(card=card):
            return f"{who} discards {card.pretty()}"
        case EndTurn():
            return f"{who} ends the turn without a discard"
        case Call(card=card):
            if card is None:
                return f"{who} calls rummy on {names[before.discarder or 0]}'s discard"
            return f"{who} calls Liverpool and sheds {card.pretty()}"
    return repr(action)
