"""One plain sentence of why an option is what it is, from what the seat can see.

Every fact comes from the observation through the engine and the bots' table readings: the cards a
choice keeps, takes or sheds, whose table meld a discard would feed, how far the hand is from the
contract (:func:`~liverpool.bots.table.need_of`), who is down and how many jokers are still unseen.
"""

from __future__ import annotations

from collections.abc import Sequence

from liverpool.bots.easy import Choice
from liverpool.bots.table import live_counts, me, need_of
from liverpool.engine import (
    JOKER_FACE,
    Buy,
    Call,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    GoDown,
    LayOff,
    Meld,
    Observation,
    Pass,
    Reshuffle,
    Shuffle,
    SwapJoker,
    table_fits,
)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(c.pretty() for c in cards)


def _meld(meld: Meld) -> str:
    return f"{meld.kind.value} {_cards(meld.cards)}"


def describe(choice: Choice, observation: Observation) -> str:
    """A short name of the option, as a player would say it (``discard 7♥``, ``draw from the stock``)."""
    top = observation.top_discard
    top_text = "the top discard" if top is None else f"the {top.pretty()}"
    match choice:
        case None | Pass():
            return f"let {top_text} go"
        case DrawStock():
            return "draw from the stock"
        case DrawDiscard(depth=depth):
            return f"take {top_text}" if depth == 1 else f"dig {depth} cards into the discard pile"
        case Buy():
            return f"buy {top_text}"
        case GoDown(melds=melds):
            return "go down: " + ", ".join(_meld(m) for m in melds)
        case LayOff(card=card, meld=index):
            return f"lay off the {card.pretty()} on meld {index + 1}"
        case SwapJoker(card=card, meld=index):
            return f"swap the {card.pretty()} for the joker of meld {index + 1}"
        case Discard(card=card):
            return f"discard the {card.pretty()}"
        case EndTurn():
            return "end the turn without a discard"
        case Call(card=card):
            return "call" if card is None else f"call, shedding the {card.pretty()}"
        case Shuffle() | Reshuffle():
            raise ValueError(f"{choice!r} is chance, not a seat's option")


def reason(choice: Choice, observation: Observation) -> str:
    """One sentence of why: what the option does to the hand and the table, then the facts that weigh
    on it (opponents down, jokers unseen)."""
    facts = _facts(observation)
    main = _what(choice, observation)
    return main + ("; " + ", ".join(facts) if facts else "")


def _what(choice: Choice, obs: Observation) -> str:
    hand = list(obs.hand)
    top = obs.top_discard
    match choice:
        case None | Pass():
            if top is None:
                return "waits"
            return f"lets the {top.pretty()} go, {_helps(obs, hand, top, negate=True)}"
        case DrawStock():
            if top is None:
                return "draws blind from the stock"
            return f"draws blind rather than take the {top.pretty()}, {_helps(obs, hand, top, negate=True)}"
        case DrawDiscard() | Buy():
            if top is None:
                return "takes the top discard"
            extra = " and a penalty card" if isinstance(choice, Buy) else ""
            return f"takes the {top.pretty()}{extra}, {_helps(obs, hand, top, negate=False)}"
        case GoDown(melds=melds):
            laid = {c for m in melds for c in m.cards}
            left = [c for c in hand if c not in laid]
            if not left:
                return "goes down and out with the whole hand"
            if len(left) == 1:
                return f"goes down, keeping only the {left[0].pretty()} to discard and go out"
            return f"goes down, keeping {_count(left)} ({_points(obs, left)} points)"
        case LayOff(card=card, meld=index):
            left = [c for c in hand if c != card]
            owner = obs.melds[index].owner
            where = f"seat {owner}'s {obs.melds[index].meld.kind.value}"
            if not left:
                return f"lays off the {card.pretty()} on {where}, emptying the hand"
            return f"lays off the {card.pretty()} on {where}, keeping {_count(left)} ({_points(obs, left)} points)"
        case SwapJoker(card=card, meld=index):
            return f"takes the joker from seat {obs.melds[index].owner}'s meld for the {card.pretty()}"
        case Discard(card=card):
            return _discard(obs, hand, card)
        case EndTurn():
            return f"keeps all {_count(hand)} ({_points(obs, hand)} points)"
        case Call(card=card):
            shed = "" if card is None else f", shedding the {card.pretty()}"
            return f"calls the {top.pretty() if top else 'discard'}{shed}"
        case Shuffle() | Reshuffle():
            raise ValueError(f"{choice!r} is chance, not a seat's option")


def _discard(obs: Observation, hand: list[Card], card: Card) -> str:
    left = list(hand)
    left.remove(card)
    if not left:
        return f"goes out by discarding the {card.pretty()}"
    seat = me(obs)
    feeds = [tm for tm in obs.melds if table_fits([tm], obs.rules) >> (card & 63) & 1]
    parts = [f"sheds the {card.pretty()} ({obs.rules.value(card)} points)"]
    if feeds:
        fed = list(dict.fromkeys(f"seat {tm.owner}'s {tm.meld.kind.value}" for tm in feeds if tm.owner != seat))
        parts.append("which feeds " + " and ".join(fed) if fed else "which fits a meld on the table")
    elif not obs.seats[seat].down:
        before, after = need_of(obs, hand), need_of(obs, left)
        parts.append(
            "which the contract does not need" if after <= before else f"though the contract needs it ({after} to go)"
        )
    takers = [s.seat for s in obs.seats if s.seat != seat and any(_near(card, k) for k in s.known)]
    if takers:
        parts.append(f"near what seat {takers[0]} took face up")
    return ", ".join(parts)


def _helps(obs: Observation, hand: list[Card], card: Card, negate: bool) -> str:
    """Whether ``card`` brings the contract closer (or, once down, fits the table)."""
    if obs.seats[me(obs)].down:
        fits = table_fits(obs.melds, obs.rules) >> (card & 63) & 1
        return "which fits the table" if fits else "which fits nowhere on the table"
    before, after = need_of(obs, hand), need_of(obs, [*hand, card])
    if after < before:
        closer = f"the contract from {_away(before)} to {after}"
        return f"though it would bring {closer}" if negate else f"which brings {closer}"
    return (
        f"which would not bring the contract closer ({_away(before)})" if negate else "which the contract does not need"
    )


def _near(card: Card, known: Card) -> bool:
    if card.is_joker or known.is_joker:
        return False
    return card.rank == known.rank or (card.suit == known.suit and abs(card.rank - known.rank) <= 2)


def _facts(obs: Observation) -> list[str]:
    seat = me(obs)
    out = []
    down = [s for s in obs.seats if s.seat != seat and s.down]
    if down:
        out.append(", ".join(f"seat {s.seat} is down with {_count_n(s.hand_count)}" for s in down))
    if obs.rules.deck_for(obs.seat_count).jokers:
        unseen = live_counts(obs)[JOKER_FACE]
        out.append(f"{unseen} joker{'s' if unseen != 1 else ''} unseen")
    return out


def _count(cards: Sequence[Card]) -> str:
    return _count_n(len(cards))


def _count_n(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def _points(obs: Observation, cards: Sequence[Card]) -> int:
    return sum(obs.rules.value(c) for c in cards)


def _away(need: int) -> str:
    return f"{_count_n(need)} away"
