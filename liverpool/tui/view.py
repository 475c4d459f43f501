"""What the screen shows, as rich text made from an observation: pure functions, tested on their own."""

from __future__ import annotations

import os

from rich.text import Text

from liverpool.engine import Card, Observation, Phase

RED_SUITS = ("H", "D")
# A four-colour deck: spades black (the terminal's own colour), hearts red, diamonds blue, clubs green.
FOUR_COLOURS = {"S": "bold", "H": "bold red", "D": "bold blue", "C": "bold green"}
WIDE = 120  # from this many columns the hand is shown as larger, boxed cards


def colour() -> bool:
    """Whether to colour suits: not when ``NO_COLOR`` is set (https://no-color.org)."""
    return not os.environ.get("NO_COLOR")


def card_style(card: Card, coloured: bool = True, four_colour: bool = False) -> str:
    """Hearts and diamonds red (four colours: diamonds blue, clubs green), jokers magenta; none without colour."""
    if not coloured:
        return ""
    if card.is_joker:
        return "bold magenta"
    if four_colour:
        return FOUR_COLOURS.get(card.suit, "bold")
    return "bold red" if card.suit in RED_SUITS else "bold"


def card_text(card: Card, coloured: bool = True, four_colour: bool = False) -> Text:
    """A compact card (``7♥``, ``JK``), coloured as :func:`card_style` says."""
    return Text(card.pretty(), style=card_style(card, coloured, four_colour))


def cards_text(cards: tuple[Card, ...] | list[Card], coloured: bool = True, four_colour: bool = False) -> Text:
    return Text(" ").join(card_text(c, coloured, four_colour) for c in cards)


def boxed_hand(
    hand: list[Card],
    coloured: bool = True,
    four_colour: bool = False,
    cursor: int | None = None,
    picks: list[list[int]] | None = None,
) -> Text:
    """The hand as larger cards, five lines: the position (with a picked card's group letter), then a box per
    card with its rank and suit (``JK`` for a joker); the card under the cursor reversed."""
    group_of = {p: g for g, group in enumerate(picks or []) for p in group}
    rows = [Text(), Text(), Text(), Text(), Text()]
    for position, card in enumerate(hand, 1):
        label = f"{'abcdefgh'[group_of[position] % 8]}{position}" if position in group_of else str(position)
        rows[0].append(f"{label:^5}", style="bold underline" if position in group_of else ("dim" if coloured else ""))
        face = card.pretty()
        rank, suit = (face, "") if card.is_joker else (face[:-1], face[-1])
        style = card_style(card, coloured, four_colour)
        if cursor is not None and cursor == position - 1:
            style = f"{style} reverse".strip()
        rows[1].append("╭───╮", style=style)
        rows[2].append(f"│{rank:<3}│", style=style)
        rows[3].append(f"│{suit:>3}│", style=style)
        rows[4].append("╰───╯", style=style)
    return Text("\n").join(rows)


def hand_text(
    hand: list[Card],
    coloured: bool = True,
    by_rank: bool = False,
    cursor: int | None = None,
    picks: list[list[int]] | None = None,
    four_colour: bool = False,
    large: bool = False,
) -> Text:
    """The hand numbered as commands count it: ``1:7♥ 2:8♥ ...``, wrapped by the widget. In cursor mode the
    card under the cursor (0-based ``cursor``) is shown reversed and picked cards carry their group's letter.
    ``large``: as :func:`boxed_hand`, under the title line."""
    out = Text("Hand " + ("(by rank): " if by_rank else "(by suit): "), style="bold" if coloured else "")
    if large:
        out.append("\n")
        out.append_text(boxed_hand(hand, coloured, four_colour, cursor, picks))
        return out
    group_of = {p: g for g, group in enumerate(picks or []) for p in group}
    for position, card in enumerate(hand, 1):
        label = f"{position}:" if position not in group_of else f"{'abcdefgh'[group_of[position] % 8]}{position}:"
        out.append(label, style="bold underline" if position in group_of else ("dim" if coloured else ""))
        shown = card_text(card, coloured, four_colour)
        if cursor is not None and cursor == position - 1:
            shown.stylize("reverse")
        out.append_text(shown)
        out.append(" ")
    return out


def status_text(obs: Observation, names: list[str], four_colour: bool = False) -> Text:
    """Deal, contract, stock, discard top and whose turn, on one line."""
    contract = " + ".join(str(m) for m in obs.contract)
    top = obs.top_discard
    out = Text(f"Deal {obs.deal + 1}/{len(obs.rules.deals)}: {contract} | stock {obs.stock_size} | discard ")
    out.append_text(card_text(top, colour(), four_colour) if top is not None else Text("-"))
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


def melds_text(obs: Observation, names: list[str], four_colour: bool = False) -> Text:
    """The melds on the table, numbered as commands count them, with their owners."""
    out = Text("Table\n", style="bold" if colour() else "")
    if not obs.melds:
        out.append("(no melds yet)\n")
    for number, table_meld in enumerate(obs.melds, 1):
        out.append(f"{number} {names[table_meld.owner][:8]} {table_meld.meld.kind.value} ")
        out.append_text(cards_text(table_meld.meld.cards, colour(), four_colour))
        out.append("\n")
    return out
