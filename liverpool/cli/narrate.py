"""Readable sentences for a game's events, for logs and the terminal."""

from __future__ import annotations

from liverpool.engine import (
    Action,
    Buy,
    Call,
    Card,
    DealEndReason,
    DealResult,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    GameState,
    GoDown,
    LayOff,
    Pass,
    Reshuffle,
    Shuffle,
    SwapJoker,
)


def cards_text(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.pretty() for c in cards)


def describe(before: GameState, action: Action, names: list[str]) -> str:
    """One line saying what ``action`` did, given the state just before it."""
    who = names[action.seat] if action.seat is not None else ""
    match action:
        case Shuffle():
            rule = before.deal_rule
            contract = ", ".join(str(m) for m in rule.contract)
            return f"Deal {before.deal + 1}: {contract}; {rule.hand_size} cards each; {names[before.dealer]} deals"
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
            target = before.melds[meld]
            return f"{who} swaps {card.pretty()} for the joker in {names[target.owner]}'s {target.meld.kind.value}"
        case Discard(card=card):
            return f"{who} discards {card.pretty()}"
        case EndTurn():
            return f"{who} ends the turn without a discard"
        case Call(card=card):
            if card is None:
                return f"{who} calls rummy on {names[before.discarder or 0]}'s discard"
            return f"{who} calls Liverpool and sheds {card.pretty()}"
    return repr(action)


def outcome(before: GameState, after: GameState, names: list[str]) -> list[str]:
    """What an action led to besides itself, in sentences: who got a bought card (with its penalty cards
    from the stock), and why a deal ended. ``before`` and ``after`` are the states around one action."""
    lines = []
    if after.deal == before.deal and after.buys and before.discard_pile:
        penalty = before.rules.buy_penalty_cards
        extra = f", with {penalty} penalty card{'s' if penalty != 1 else ''} from the stock" if penalty else ""
        for seat, (was, now) in enumerate(zip(before.buys, after.buys, strict=True)):
            if now > was:
                lines.append(f"{names[seat]} gets the bought {before.discard_pile[-1].pretty()}{extra}.")
    if len(after.results) > len(before.results):
        result = after.results[-1]
        lines.append(f"Deal {result.deal + 1} is over: {deal_end_reason(result, names)}.")
    return lines


def describe_step(before: GameState, action: Action, after: GameState, names: list[str]) -> str:
    """The table log's line for one action: what it did, then what it led to (see :func:`outcome`)."""
    return " ".join([describe(before, action, names), *outcome(before, after, names)])


def deal_end_reason(result: DealResult, names: list[str]) -> str:
    """Why a deal ended, as a sentence: who went out, or how the stock ran out."""
    if result.went_out is not None:
        return f"{names[result.went_out]} went out"
    if result.reason is DealEndReason.BEFORE_POSITION:
        return "played before the record's starting position (only its points are known)"
    washes = result.reshuffles
    ran_out = f"was washed {washes} time{'s' if washes != 1 else ''} and ran out again" if washes else "ran out"
    match result.reason:
        case DealEndReason.WASHES_USED if not washes:
            return "nobody went out: the stock ran out and may not be washed"
        case DealEndReason.WASHES_USED:
            return f"nobody went out: the stock {ran_out}, as many washes as allowed"
        case DealEndReason.PILE_TOO_SMALL:
            return f"nobody went out: the stock {ran_out}, with too few discards to wash"
    return f"nobody went out: the stock {ran_out}"


def deal_end_lines(result: DealResult, names: list[str]) -> list[str]:
    """A deal's end as everyone sees it when the hands are laid down: the reason and scores, then what each
    seat was caught with ("Bob caught with 7♥ K♠ JK: 35") and the melds left on the table."""
    scores = ", ".join(f"{names[s]}: {p}" for s, p in enumerate(result.scores))
    lines = [f"Deal {result.deal + 1}: {deal_end_reason(result, names)}. Points: {scores}"]
    for seat, hand in enumerate(result.hands):
        points = result.points[seat]
        if seat == result.went_out:
            if hand:
                lines.append(f"  {names[seat]} went out holding {cards_text(hand)}: {points}")
            continue
        held = cards_text(hand) if hand else "no cards"
        lines.append(f"  {names[seat]} caught with {held}: {points}")
    if result.cut_bonus_seat is not None:
        lines.append(f"  {names[result.cut_bonus_seat]} scores the cut bonus")
    if result.melds:
        table = "; ".join(
            f"{names[tm.owner]}'s {tm.meld.kind.value} {cards_text(tm.meld.cards)}" for tm in result.melds
        )
        lines.append(f"  on the table: {table}")
    return lines
