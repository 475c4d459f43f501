"""What the screen shows, as rich text made from an observation: pure functions, tested on their own."""

from __future__ import annotations

import os

from rich.text import Text

from liverpool.engine import Card, Observation, Phase

RED_SUITS = ("H", "D")


def colour() -> bool:
    """Whether to colour suits: not when ``NO_COLOR`` is set (https://no-color.org)."""
    return not os.environ.get("NO_COLOR")


def card_text(card: Card, coloured: bool = True) -> Text:
    """A compact card (``7♥``, ``JK``): hearts and diamonds red, jokers magenta, when coloured."""
    style = ""
    if coloured:
        style = "bold magenta" if card.is_joker else ("bold red" if card.suit in RED_SUITS else "bold")
    return Text(card.pretty(), style=style)


def cards_text(cards: tuple[Card, ...] | list[Card], coloured: bool = True) -> Text:
    return Text(" ").join(card_text(c, coloured) for c in cards)


def hand_text(
    hand: list[Card],
    coloured: bool = True,
    by_rank: bool = False,
    cursor: int | None = None,
    picks: list[list[int]] | None = None,
) -> Text:
    """The hand numbered as commands count it: ``1:7♥ 2:8♥ ...``, wrapped by the widget. In cursor mode the
    card under the cursor (0-based ``cursor``) is shown reversed and picked cards carry their group's letter."""
    out = Text("Hand " + ("(by rank): " if by_rank else "(by suit): "), style="bold" if coloured else "")
    group_of = {p: g for g, group in enumerate(picks or []) for p in group}
    for position, card in enumerate(hand, 1):
        label = f"{position}:" if position not in group_of else f"{'abcdefgh'[group_of[position] % 8]}{position}:"
        out.append(label, style="bold underline" if position in group_of else ("dim" if coloured else ""))
        shown = card_text(card, coloured)
        if cursor is not None and cursor == position - 1:
            shown.stylize("reverse")
        out.append_text(shown)
        out.append(" ")
    return out


def status_text(obs: Observation, names: list[str]) -> Text:
    """Deal, contract, stock, discard top and whose turn, on one line."""
    contract = " + ".join(str(m) for m in obs.contract)
    top = obs.top_discard
    out = Text(f"Deal {obs.deal + 1}/{len(obs.rules.deals)}: {contract} | stock {obs.stock_size} | discard ")
    out.append_text(card_text(top, colour()) if top is not None else Text("-"))
    if obs.phase is Phase.GAME_OVER:
        out.append(" | game over")
    elif obs.phase is Phase.BUY:
        out.append(" | may I? window")
    else:
        out.append(f" | {names[obs.current]} to {'draw' if obs.phase is Phase.DRAW else 'play'}")
    return out


def seats_text(obs: Observation, names: list[str]) -> Text:
    """One line per seat: cards held, buys used, down or not, running total."""
    out = Text(f" {'seat':<10} {'cards':>5} {'buys':>4} {'':<4} {'total':>6}\n", style="dim" if colour() else "")
    for view in obs.seats:
        mark = ">" if view.seat == obs.current and obs.phase is not Phase.GAME_OVER else " "
        down = "down" if view.down else "    "
        line = (
            f"{mark}{names[view.seat][:10]:<10} {view.hand_count:>5} {view.buys:>4} {down} {obs.totals[view.seat]:>6}\n"
        )
        out.append(line, style="bold" if view.seat == obs.viewer and colour() else "")
    return out


def melds_text(obs: Observation, names: list[str]) -> Text:
    """The melds on the table, numbered as commands count them, with their owners."""
    out = Text("Table\n", style="bold" if colour() else "")
    if not obs.melds:
        out.append("(no melds yet)\n")
    for number, table_meld in enumerate(obs.melds, 1):
        out.append(f"{number} {names[table_meld.owner][:8]} {table_meld.meld.kind.value} ")
        out.append_text(cards_text(table_meld.meld.cards, colour()))
        out.append("\n")
    return out
