"""A guided first game (``POST /api/tutorial``): a table set up with the engine's position API, where the
newcomer's page explains each step where it happens and highlights the control of the next one.

The position is the second deal of ``liverpool`` (a set and a run of four; the game ends with it, played as an ordinary deal) at the
newcomer's turn: the
top discard completes their run, seat 1 is down with a set of kings and a run holding a joker, and the
newcomer holds the 7♠ that joker stands for and a king to lay off. Two ``easy`` bots play the other seats,
so buy windows ("May I?") come as the bots discard. Which step is explained is read from the seat's legal
actions (the engine's), never worked out here.

Each step is sent as a code (``key``, one of :data:`STEPS`) with the ``params`` its sentence names, so the
page says it in its own language (``tutorial.<key>`` in the catalogues, docs/i18n.md); ``text`` is the
English sentence, the fallback for a client without catalogues.
"""

from __future__ import annotations

from typing import Any

from liverpool.engine import Action, Observation, Position, Ruleset, find_preset

PRESET = "liverpool"
BOT = "easy"
NAME = "newcomer"
PACE_MS = 1500
STEPS = ("buy", "go_down", "swap", "lay_off", "draw", "discard", "wait")
"""The step codes :func:`step` sends (``key``)."""


def position(rules: Ruleset) -> Position:
    """The tutorial's deal (see the module docstring), the rest of the shoe in the stock."""
    return Position.of(
        hands=["9C 9D 9S 3H 4H 5H 7S KS 2C JD", "2D 6C 10S JC", "AC AD 4C 6D 8H 10H JH 2S 5D QD"],
        discard_pile="3D 6H",
        melds=[(1, "KC KD KH"), (1, "5S 6S JK 8S")],
        deal=1,
        scores=[[35, 0, 60]],
        dealer=2,
        current=0,
        discarder=2,
    ).with_rest_in_stock(rules)


def rules() -> Ruleset:
    """``liverpool`` cut to its first two deals: the game ends with the tutorial's deal."""
    data = find_preset(PRESET).to_dict()
    title = f"{data['title']} (guided first game)"
    return Ruleset.from_dict({**data, "deals": data["deals"][:2], "final_deal": "normal", "title": title})


def step(observation: Observation, legal: list[Action]) -> dict[str, Any]:
    """What to explain now (``key``, one of :data:`STEPS`, with its ``params`` and the English ``text``) and
    which control to highlight (a ``data-testid`` of the table page, or None)."""
    answer = _explain(observation, legal)
    client = observation.to_client_dict()
    top = client["discard_pile"][-1] if client["discard_pile"] else None
    answer["params"] = {
        "card": top,
        "penalty": client["buy_penalty_cards"],
        "contract": [str(m) for m in observation.contract],
    }
    return answer


def _explain(observation: Observation, legal: list[Action]) -> dict[str, Any]:
    kinds = {type(a).__name__ for a in legal}
    contract = " and ".join(str(m) for m in observation.contract)
    top = observation.top_discard
    top_text = top.pretty() if top is not None else "the top card"
    if "Buy" in kinds:
        penalty = observation.to_client_dict()["buy_penalty_cards"]
        return {
            "key": "buy",
            "text": f"May I? It is not your turn, but you may buy the {top_text}: you get it with {penalty} penalty "
            f"card(s) from the stock, so your hand grows by {1 + penalty}. Buy only a card you need; try it once.",
            "highlight": "buy",
        }
    if "GoDown" in kinds:
        return {
            "key": "go_down",
            "text": "Your hand now holds this deal's contract"
            + f" ({contract})"
            + ". Going down lays those melds on the table; after that you may lay cards off on any meld.",
            "highlight": "godown-option-0",
        }
    if "SwapJoker" in kinds:
        return {
            "key": "swap",
            "text": "A joker on the table stands for a card you hold: select that card and click the joker's meld "
            "to swap them; the joker comes to your hand.",
            "highlight": "swap-option-0",
        }
    if "LayOff" in kinds:
        return {
            "key": "lay_off",
            "text": "You are down, so you may lay off: select a card marked ⊕ and click the meld it fits.",
            "highlight": "layoff-hint",
        }
    if "DrawDiscard" in kinds:
        return {
            "key": "draw",
            "text": f"Your turn starts with a draw: from the stock (blind), or the {top_text} from the discard pile. "
            f"The {top_text} completes a meld of your contract: take it.",
            "highlight": "take-discard",
        }
    if "Discard" in kinds:
        return {
            "key": "discard",
            "text": "Your turn ends with a discard: select a card you do not need and press Discard. "
            "Go out by getting rid of every card.",
            "highlight": "discard-button",
        }
    return {
        "key": "wait",
        "text": "The bots are playing: watch the table log. Your controls light up when it is your move.",
        "highlight": None,
    }
