"""A game's events in words: each as a :class:`~liverpool.phrases.Phrase` (a catalogue key and its
parameters, which the server sends so that each browser says it in its language) and as English
sentences (for the log files, the terminal and tests)."""

from __future__ import annotations

from typing import assert_never

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
    MeldKind,
    Pass,
    Reshuffle,
    Shuffle,
    SwapJoker,
)
from liverpool.phrases import Listed, Phrase, Seat, Value, english


def cards_text(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.pretty() for c in cards)


def describe_words(before: GameState, action: Action) -> Phrase:
    """What ``action`` did, given the state just before it, as a phrase of the log (``log.*``)."""
    who = Seat(action.seat or 0)  # (a shuffle or reshuffle has no seat and names none)
    match action:
        case Shuffle():
            rule = before.deal_rule
            contract = Listed(
                tuple(Phrase(f"log.contract.{m.kind.value}", {"length": m.length}) for m in rule.contract), "list.comma"
            )
            params: dict[str, Value] = {"deal": before.deal + 1, "contract": contract, "count": rule.hand_size}
            return Phrase("log.shuffle", {**params, "dealer": Seat(before.dealer)})
        case Reshuffle():
            return Phrase("log.reshuffle", {"count": len(action.stock)})
        case DrawStock():
            return Phrase("log.draw_stock", {"name": who})
        case DrawDiscard(depth=depth):
            return Phrase("log.draw_discard", {"name": who, "cards": tuple(before.discard_pile[-depth:])})
        case Buy():
            return Phrase("log.buy", {"name": who, "card": before.discard_pile[-1]})
        case Pass():
            return Phrase("log.pass", {"name": who})
        case GoDown(melds=melds):
            laid = tuple(Phrase(f"log.meld.{m.kind.value}", {"cards": tuple(m.cards)}) for m in melds)
            return Phrase("log.go_down", {"name": who, "melds": Listed(laid, "list.semicolon")})
        case LayOff(card=card, meld=meld):
            target = before.melds[meld]
            params = {"name": who, "card": card, "owner": Seat(target.owner)}
            return Phrase(f"log.lay_off.{target.meld.kind.value}", params)
        case SwapJoker(card=card, meld=meld):
            target = before.melds[meld]
            params = {"name": who, "card": card, "owner": Seat(target.owner)}
            return Phrase(f"log.swap_joker.{target.meld.kind.value}", params)
        case Discard(card=card):
            return Phrase("log.discard", {"name": who, "card": card})
        case EndTurn():
            return Phrase("log.end_turn", {"name": who})
        case Call(card=card):
            if card is None:
                return Phrase("log.call_rummy", {"name": who, "owner": Seat(before.discarder or 0)})
            return Phrase("log.call_liverpool", {"name": who, "card": card})
    assert_never(action)


def outcome_words(before: GameState, after: GameState) -> list[Phrase]:
    """What an action led to besides itself: who got a bought card (with its penalty cards from the stock),
    and why a deal ended. ``before`` and ``after`` are the states around one action."""
    lines = bought_words(before, after)
    if len(after.results) > len(before.results):
        result = after.results[-1]
        lines.append(Phrase("log.deal_over", {"deal": result.deal + 1, "reason": deal_end_words(result)}))
    return lines


def bought_words(before: GameState, after: GameState) -> list[Phrase]:
    """Who got a bought card with the action between ``before`` and ``after`` (with its penalty cards from
    the stock), if anyone did: the engine grants a buy inside another seat's move, so the move's own line
    does not say it."""
    lines = []
    if after.deal == before.deal and after.buys and before.discard_pile:
        penalty = before.rules.buy_penalty_cards
        for seat, (was, now) in enumerate(zip(before.buys, after.buys, strict=True)):
            if now > was:
                card = before.discard_pile[-1]
                if penalty:
                    lines.append(Phrase("log.bought_penalty", {"name": Seat(seat), "card": card, "count": penalty}))
                else:
                    lines.append(Phrase("log.bought", {"name": Seat(seat), "card": card}))
    return lines


def step_words(before: GameState, action: Action, after: GameState) -> list[Phrase]:
    """The table log's line for one action, as phrases: what it did, then what it led to."""
    return [describe_words(before, action), *outcome_words(before, after)]


def deal_end_words(result: DealResult) -> Phrase:
    """Why a deal ended: who went out, or how the stock ran out (and how often it was washed before)."""
    if result.went_out is not None:
        return Phrase("summary.went_out", {"name": Seat(result.went_out)})
    if result.reason is DealEndReason.BEFORE_POSITION:
        return Phrase("dealend.before_position.plain")
    washes = result.reshuffles
    return Phrase(f"dealend.{result.reason.value}.{'washed' if washes else 'plain'}", {"count": washes})


def took_hint(seat: int) -> Phrase:
    """The note that ``seat`` asked the coach for a hint (everyone at the table sees it)."""
    return Phrase("log.took_hint", {"name": Seat(seat)})


def took_back(seat: int, moves: list[Phrase]) -> Phrase:
    """The note that ``seat`` took ``moves`` back with undo."""
    return Phrase("log.took_back", {"name": Seat(seat), "moves": Listed(tuple(moves), "list.semicolon")})


BEFORE_FIRST_DEAL = Phrase("log.before_first_deal")
"""The replay's step 0."""


def log_keys() -> set[str]:
    """Every catalogue key the phrases of this module can use: each catalogue must hold them all
    (tests/ui/test_catalogue.py, tests/rules/test_log_words.py)."""
    kinds = [kind.value for kind in MeldKind]
    simple = [
        "shuffle", "reshuffle", "draw_stock", "draw_discard", "buy", "pass", "go_down", "discard", "end_turn",
        "call_rummy", "call_liverpool", "bought", "bought_penalty", "deal_over", "took_hint", "took_back",
        "before_first_deal",
    ]  # fmt: skip
    ends = {"summary.went_out", "dealend.before_position.plain"} | {
        f"dealend.{reason.value}.{washed}"
        for reason in DealEndReason
        if reason not in (DealEndReason.WENT_OUT, DealEndReason.BEFORE_POSITION)
        for washed in ("plain", "washed")
    }
    per_kind = {f"log.{part}.{kind}" for part in ("contract", "meld", "lay_off", "swap_joker") for kind in kinds}
    return {f"log.{key}" for key in simple} | per_kind | ends | {"list.comma", "list.semicolon"}


def describe(before: GameState, action: Action, names: list[str], you: int | None = None) -> str:
    """One line saying what ``action`` did, given the state just before it (``you``: the seat spoken to, see
    :func:`liverpool.phrases.english`)."""
    return english(describe_words(before, action), names, you)


def outcome(before: GameState, after: GameState, names: list[str], you: int | None = None) -> list[str]:
    """What an action led to besides itself, in sentences (see :func:`outcome_words`)."""
    return [english(phrase, names, you) for phrase in outcome_words(before, after)]


def bought(before: GameState, after: GameState, names: list[str], you: int | None = None) -> list[str]:
    """Who got a bought card with one action, in sentences (see :func:`bought_words`); for logs that write
    a deal's end apart (:func:`deal_end_lines`)."""
    return [english(phrase, names, you) for phrase in bought_words(before, after)]


def describe_step(before: GameState, action: Action, after: GameState, names: list[str], you: int | None = None) -> str:
    """The table log's line for one action: what it did, then what it led to (see :func:`outcome`)."""
    return " ".join(english(phrase, names, you) for phrase in step_words(before, action, after))


def deal_end_reason(result: DealResult, names: list[str], you: int | None = None) -> str:
    """Why a deal ended, as a sentence: who went out, or how the stock ran out."""
    return english(deal_end_words(result), names, you)


def deal_end_lines(result: DealResult, names: list[str], you: int | None = None) -> list[str]:
    """A deal's end as everyone sees it when the hands are laid down: the reason and scores, then what each
    seat was caught with ("Bob caught with 7♥ K♠ JK: 35") and the melds left on the table."""
    scores = ", ".join(f"{names[s]}: {p}" for s, p in enumerate(result.scores))
    lines = [f"Deal {result.deal + 1}: {deal_end_reason(result, names, you)}. Points: {scores}"]
    for seat, hand in enumerate(result.hands):
        points = result.points[seat]
        if seat == result.went_out:
            if hand:
                lines.append(f"  {names[seat]} went out holding {cards_text(hand)}: {points}")
            continue
        held = cards_text(hand) if hand else "no cards"
        lines.append(f"  {names[seat]} caught with {held}: {points}")
    if result.cut_bonus_seat is not None:
        scores_bonus = "score" if result.cut_bonus_seat == you else "scores"
        lines.append(f"  {names[result.cut_bonus_seat]} {scores_bonus} the cut bonus")
    if result.melds:
        table = "; ".join(
            f"{_whose(tm.owner, names, you)} {tm.meld.kind.value} {cards_text(tm.meld.cards)}" for tm in result.melds
        )
        lines.append(f"  on the table: {table}")
    return lines


def _whose(seat: int, names: list[str], you: int | None) -> str:
    """``Bob's``; ``your`` for the seat spoken to."""
    return "your" if seat == you else f"{names[seat]}'s"
