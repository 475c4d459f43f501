"""One plain sentence of why an option is what it is, from what the seat can see.

Every fact comes from the observation through the engine and the bots' table readings: the cards a
choice keeps, takes or sheds, whose table meld a discard would feed, how far the hand is from the
contract (:func:`~liverpool.bots.table.need_of`), who is down and how many jokers are still unseen.

Each sentence is a :class:`~liverpool.phrases.Phrase` (``advice.*`` keys of the browser's catalogues,
docs/i18n.md), which a page says in its own language; :func:`describe` and :func:`reason` are the same
phrases said in English, with seats named ``seat N``.
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
from liverpool.phrases import Listed, Phrase, Seat, english

SEAT_NAMES = [f"seat {seat}" for seat in range(16)]
"""How the English sentences name seats (a page names them as it names seats)."""


def describe(choice: Choice, observation: Observation) -> str:
    """A short name of the option, as a player would say it (``discard the 7♥``, ``draw from the stock``)."""
    return english(describe_words(choice, observation), SEAT_NAMES)


def reason(choice: Choice, observation: Observation) -> str:
    """One sentence of why: what the option does to the hand and the table, then the facts that weigh
    on it (opponents down, jokers unseen)."""
    return english(reason_words(choice, observation), SEAT_NAMES)


def _top(top: Card | None) -> Phrase:
    return Phrase("advice.top_discard") if top is None else Phrase("advice.the_card", {"card": top})


def describe_words(choice: Choice, observation: Observation) -> Phrase:
    """:func:`describe` as a phrase."""
    top = _top(observation.top_discard)
    match choice:
        case None | Pass():
            return Phrase("advice.do.let_go", {"top": top})
        case DrawStock():
            return Phrase("advice.do.draw_stock")
        case DrawDiscard(depth=depth):
            return Phrase("advice.do.take", {"top": top}) if depth == 1 else Phrase("advice.do.dig", {"depth": depth})
        case Buy():
            return Phrase("advice.do.buy", {"top": top})
        case GoDown(melds=melds):
            return Phrase("advice.do.go_down", {"melds": Listed(tuple(_meld(m) for m in melds), "list.comma")})
        case LayOff(card=card, meld=index):
            return Phrase("advice.do.lay_off", {"card": card, "n": index + 1})
        case SwapJoker(card=card, meld=index):
            return Phrase("advice.do.swap", {"card": card, "n": index + 1})
        case Discard(card=card):
            return Phrase("advice.do.discard", {"card": card})
        case EndTurn():
            return Phrase("advice.do.end_turn")
        case Call(card=card):
            return Phrase("advice.do.call") if card is None else Phrase("advice.do.call_shed", {"card": card})
        case Shuffle() | Reshuffle():
            raise ValueError(f"{choice!r} is chance, not a seat's option")


def _meld(meld: Meld) -> Phrase:
    return Phrase(f"advice.meld.{meld.kind.value}", {"cards": meld.cards})


def reason_words(choice: Choice, observation: Observation) -> Phrase:
    """:func:`reason` as a phrase."""
    facts = _facts(observation)
    main = _what(choice, observation)
    return Phrase("advice.why", {"what": main, "facts": Listed(facts, "list.comma")}) if facts else main


def _what(choice: Choice, obs: Observation) -> Phrase:
    hand = list(obs.hand)
    top = obs.top_discard
    match choice:
        case None | Pass():
            if top is None:
                return Phrase("advice.waits")
            return Phrase("advice.lets_go", {"card": top, "helps": _helps(obs, hand, top, negate=True)})
        case DrawStock():
            if top is None:
                return Phrase("advice.draws_blind")
            return Phrase("advice.draws_blind_not", {"card": top, "helps": _helps(obs, hand, top, negate=True)})
        case DrawDiscard() | Buy():
            if top is None:
                return Phrase("advice.takes_top")
            key = "advice.buys" if isinstance(choice, Buy) else "advice.takes"
            return Phrase(key, {"card": top, "helps": _helps(obs, hand, top, negate=False)})
        case GoDown(melds=melds):
            laid = {c for m in melds for c in m.cards}
            left = [c for c in hand if c not in laid]
            if not left:
                return Phrase("advice.down_and_out")
            if len(left) == 1:
                return Phrase("advice.down_keep_one", {"card": left[0]})
            return Phrase("advice.down_keep", {"count": len(left), "points": _points(obs, left)})
        case LayOff(card=card, meld=index):
            left = [c for c in hand if c != card]
            where = _whose(obs, index)
            if not left:
                return Phrase("advice.lays_off_out", {"card": card, "where": where})
            return Phrase(
                "advice.lays_off", {"card": card, "where": where, "count": len(left), "points": _points(obs, left)}
            )
        case SwapJoker(card=card, meld=index):
            return Phrase("advice.swaps", {"name": Seat(obs.melds[index].owner), "card": card})
        case Discard(card=card):
            return _discard(obs, hand, card)
        case EndTurn():
            return Phrase("advice.keeps_all", {"count": len(hand), "points": _points(obs, hand)})
        case Call(card=card):
            what = _top(top) if top is not None else Phrase("advice.the_discard")
            if card is None:
                return Phrase("advice.calls", {"top": what})
            return Phrase("advice.calls_shed", {"top": what, "card": card})
        case Shuffle() | Reshuffle():
            raise ValueError(f"{choice!r} is chance, not a seat's option")


def _whose(obs: Observation, index: int) -> Phrase:
    """``seat 2's run``: a table meld by its owner and kind."""
    meld = obs.melds[index]
    return Phrase(f"advice.whose.{meld.meld.kind.value}", {"name": Seat(meld.owner)})


def _discard(obs: Observation, hand: list[Card], card: Card) -> Phrase:
    left = list(hand)
    left.remove(card)
    if not left:
        return Phrase("advice.out_by_discard", {"card": card})
    seat = me(obs)
    feeds = [tm for tm in obs.melds if table_fits([tm], obs.rules) >> (card & 63) & 1]
    parts = [Phrase("advice.sheds", {"card": card, "points": obs.rules.value(card)})]
    if feeds:
        owners = list(dict.fromkeys((tm.owner, tm.meld.kind.value) for tm in feeds if tm.owner != seat))
        fed = tuple(Phrase(f"advice.whose.{kind}", {"name": Seat(owner)}) for owner, kind in owners)
        parts.append(
            Phrase("advice.feeds", {"whose": Listed(fed, "advice.and")}) if fed else Phrase("advice.fits_a_meld")
        )
    elif not obs.seats[seat].down:
        before, after = need_of(obs, hand), need_of(obs, left)
        parts.append(Phrase("advice.not_needed") if after <= before else Phrase("advice.needed", {"left": after}))
    takers = [s.seat for s in obs.seats if s.seat != seat and any(_near(card, k) for k in s.known)]
    if takers:
        parts.append(Phrase("advice.near", {"name": Seat(takers[0])}))
    return Phrase("advice.parts", {"parts": Listed(tuple(parts), "list.comma")})


def _helps(obs: Observation, hand: list[Card], card: Card, negate: bool) -> Phrase:
    """Whether ``card`` brings the contract closer (or, once down, fits the table)."""
    if obs.seats[me(obs)].down:
        fits = table_fits(obs.melds, obs.rules) >> (card & 63) & 1
        return Phrase("advice.fits") if fits else Phrase("advice.fits_nowhere")
    before, after = need_of(obs, hand), need_of(obs, [*hand, card])
    away = Phrase("advice.away", {"count": before})
    if after < before:
        return Phrase("advice.would_bring" if negate else "advice.brings", {"away": away, "after": after})
    return Phrase("advice.would_not_bring", {"away": away}) if negate else Phrase("advice.not_needed")


def _near(card: Card, known: Card) -> bool:
    if card.is_joker or known.is_joker:
        return False
    return card.rank == known.rank or (card.suit == known.suit and abs(card.rank - known.rank) <= 2)


def _facts(obs: Observation) -> tuple[Phrase, ...]:
    seat = me(obs)
    out = [
        Phrase("advice.is_down", {"name": Seat(s.seat), "count": s.hand_count})
        for s in obs.seats
        if s.seat != seat and s.down
    ]
    if obs.rules.deck_for(obs.seat_count).jokers:
        out.append(Phrase("advice.jokers_unseen", {"count": live_counts(obs)[JOKER_FACE]}))
    return tuple(out)


def _points(obs: Observation, cards: Sequence[Card]) -> int:
    return sum(obs.rules.value(c) for c in cards)


ADVICE_KEYS: frozenset[str] = frozenset(
    (
        "advice.and",
        "advice.away",
        "advice.brings",
        "advice.buys",
        "advice.calls",
        "advice.calls_shed",
        "advice.do.buy",
        "advice.do.call",
        "advice.do.call_shed",
        "advice.do.dig",
        "advice.do.discard",
        "advice.do.draw_stock",
        "advice.do.end_turn",
        "advice.do.go_down",
        "advice.do.lay_off",
        "advice.do.let_go",
        "advice.do.swap",
        "advice.do.take",
        "advice.down_and_out",
        "advice.down_keep",
        "advice.down_keep_one",
        "advice.draws_blind",
        "advice.draws_blind_not",
        "advice.feeds",
        "advice.fits",
        "advice.fits_a_meld",
        "advice.fits_nowhere",
        "advice.is_down",
        "advice.jokers_unseen",
        "advice.keeps_all",
        "advice.lays_off",
        "advice.lays_off_out",
        "advice.lets_go",
        "advice.meld.run",
        "advice.meld.set",
        "advice.near",
        "advice.needed",
        "advice.not_needed",
        "advice.out_by_discard",
        "advice.parts",
        "advice.sheds",
        "advice.swaps",
        "advice.takes",
        "advice.takes_top",
        "advice.the_card",
        "advice.the_discard",
        "advice.top_discard",
        "advice.waits",
        "advice.whose.run",
        "advice.whose.set",
        "advice.why",
        "advice.would_bring",
        "advice.would_not_bring",
    )
)
"""Every catalogue key the coach's phrases use (the catalogue checks ask each catalogue for them)."""
