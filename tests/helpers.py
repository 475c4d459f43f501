"""Exact situations for engine tests, built through the public API only.

:func:`deal` builds the deck order of a :class:`Shuffle` so that each seat is dealt the hand asked for,
the upcard is the card asked for and the stock starts with the cards asked for (top first); every other
card comes from the shoe, in an order in which ten cards in a row hold no set and no run. The engine deals one card at a time starting left of the
dealer, then turns the upcard (if the ruleset has one), and the rest is the stock, its first card on top.

>>> from liverpool.engine.rules.presets import find_preset
>>> state = deal(find_preset('liverpool'), 3, hands=['7H 7S 7D 8C 8D 8S 2C 5D 9H KS', None, None], upcard='KD',
...              stock_top=['2H', 'QS'])
>>> ' '.join(map(str, state.hands[0])), str(state.discard_pile[-1]), str(state.stock[-1]), state.current
('7H 7S 7D 8C 8D 8S 2C 5D 9H KS', 'KD', '2H', 1)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence

import pytest

from liverpool.engine.actions import (
    Action,
    Buy,
    Discard,
    DrawStock,
    EndTurn,
    GoDown,
    Pass,
    Reshuffle,
    Shuffle,
)
from liverpool.engine.cards import Card, parse_cards
from liverpool.engine.errors import IllegalAction
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.game.verify import shoe
from liverpool.engine.melds import Meld
from liverpool.engine.record import GameRecord, replay, snapshot
from liverpool.engine.rules.presets import PRESETS
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import GameState, Phase

Cards = str | Sequence[str] | None
STARTED: list[GameState] = []  # every game built here, for checks after a test (see :func:`check_started`)


def card(text: str) -> Card:
    return Card.parse(text)


def cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    return parse_cards(text)


def melds(*texts: str) -> tuple[Meld, ...]:
    """``melds('set: 7H 7S 7D', 'run: 4C 5C 6C 7C')``."""
    return tuple(Meld.parse(text) for text in texts)


def go_down(seat: int, *texts: str) -> GoDown:
    return GoDown(seat, melds(*texts))


def _as_cards(value: Cards) -> list[Card]:
    if value is None:
        return []
    return list(parse_cards(value))


def _filler_key(c: Card) -> tuple[bool, int, int]:
    # Faces in steps of 5 (21 is 5's inverse mod 52): ten cards in a row hold no set and no run.
    return (c.is_joker, c.copy, (c.face * 21) % 52)


def shuffle_for(
    state: GameState,
    hands: Sequence[Cards] = (),
    upcard: str | None = None,
    stock_top: Cards = None,
    cut: int = 0,
) -> Shuffle:
    """The :class:`Shuffle` that deals ``hands`` (by seat; ``None`` or a short hand is filled from the shoe),
    ``upcard`` and ``stock_top`` (top first) in the deal ``state`` is waiting for."""
    rules, n = state.rules, state.seats
    size = state.deal_rule.hand_size
    wanted = [_as_cards(hands[s] if s < len(hands) else None) for s in range(n)]
    up = [Card.parse(upcard)] if upcard is not None else []
    top = _as_cards(stock_top)
    if up and not rules.upcard:
        raise ValueError(f"{rules.name} turns no upcard")
    named = [c for hand in wanted for c in hand] + up + top
    all_cards = shoe(state)
    if len(set(named)) != len(named):
        raise ValueError(f"a card is named twice: {sorted(c for c in named if named.count(c) > 1)}")
    missing = [c for c in named if c not in all_cards]
    if missing:
        raise ValueError(f"not in this shoe: {' '.join(map(str, missing))}")
    for seat, hand in enumerate(wanted):
        if len(hand) > size:
            raise ValueError(f"seat {seat} is dealt {size} cards, not {len(hand)}")
    named_set = set(named)
    filler = sorted((c for c in all_cards if c not in named_set), key=_filler_key)
    for hand in wanted:
        while len(hand) < size:
            hand.append(filler.pop(0))
    if rules.upcard and not up:
        up = [filler.pop(0)]
    deck: list[Card] = []
    for i in range(size):
        for k in range(1, n + 1):
            deck.append(wanted[(state.dealer + k) % n][i])
    deck += up + top + filler
    return Shuffle(tuple(deck), cut)


def start(rules: Ruleset, seats: int, dealer: int = 0, deal_no: int = 0) -> GameState:
    """A game waiting for the Shuffle of deal ``deal_no`` (0-based) with ``dealer`` dealing it; earlier
    deals are played out with nobody going down (see :func:`play_out_deal`)."""
    state = new_game(rules, seats, first_dealer=(dealer - deal_no) % seats)
    STARTED.append(state)
    while state.deal < deal_no:
        play_out_deal(state)
    assert state.phase is Phase.DEAL and state.dealer == dealer
    return state


def deal(
    rules: Ruleset,
    seats: int,
    hands: Sequence[Cards] = (),
    upcard: str | None = None,
    stock_top: Cards = None,
    dealer: int = 0,
    deal_no: int = 0,
    cut: int = 0,
) -> GameState:
    """A game in deal ``deal_no`` right after the Shuffle that deals exactly these cards."""
    state = start(rules, seats, dealer, deal_no)
    return apply(state, shuffle_for(state, hands, upcard, stock_top, cut))


def deal_next(
    state: GameState, hands: Sequence[Cards] = (), upcard: str | None = None, stock_top: Cards = None, cut: int = 0
) -> GameState:
    """Deal the next deal of ``state`` (waiting in the deal phase) with these cards."""
    return apply(state, shuffle_for(state, hands, upcard, stock_top, cut))


def stall_action(state: GameState) -> Action:
    """One action of a deal in which nobody goes down: draw from the stock, discard what was drawn."""
    match state.phase:
        case Phase.DEAL:
            return shuffle_for(state)
        case Phase.RESHUFFLE:
            return Reshuffle(tuple(state.discard_pile[:-1]))
        case Phase.BUY:
            return Pass(next(s for s in state.window if s not in state.window_answers))
        case Phase.DRAW:
            return DrawStock(state.current)
        case Phase.PLAY:
            hand = state.hands[state.current]
            return Discard(state.current, hand[-1]) if hand else EndTurn(state.current)
    raise AssertionError(f"nothing to do: {state.situation()}")


def play_out_deal(state: GameState) -> GameState:
    """Play the current deal (dealing it first if needed) to its end by stalling: the stock runs out."""
    number = state.deal
    while state.deal == number and not state.is_over:
        apply(state, stall_action(state))
    return state


def pass_window(state: GameState) -> GameState:
    """Every seat of an open buy window passes (nothing happens when no window is open)."""
    while state.phase is Phase.BUY:
        apply(state, Pass(next(s for s in state.window if s not in state.window_answers)))
    return state


def turn(state: GameState, buyer: int | None = None) -> GameState:
    """The current seat draws from the stock (in a buy window ``buyer`` buys, everyone else passes) and
    discards the card it drew."""
    seat = state.current
    apply(state, DrawStock(seat))
    while state.phase is Phase.BUY:
        asked = next(s for s in state.window if s not in state.window_answers)
        apply(state, Buy(asked) if asked == buyer else Pass(asked))
    return apply(state, Discard(seat, state.hands[seat][-1]))


def stall_until(state: GameState, done: Callable[[GameState], bool], limit: int = 5000) -> GameState:
    """Stall (see :func:`stall_action`) until ``done(state)``."""
    for _ in range(limit):
        if done(state):
            return state
        apply(state, stall_action(state))
    raise AssertionError(f"not reached within {limit} actions ({state.situation()})")


def play(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        apply(state, action)
    return state


def refused(state: GameState, action: Action, error: type[IllegalAction], match: str | None = None) -> IllegalAction:
    """``action`` is refused with ``error`` (its reason too) and the state is left exactly as it was."""
    before = snapshot(state)
    history = len(state.history)
    with pytest.raises(error, match=match) as caught:
        apply(state, action)
    assert type(caught.value) is error, f"{type(caught.value).__name__}: {caught.value}"
    assert snapshot(state) == before, f"refusing {action!r} changed the state"
    assert len(state.history) == history
    return caught.value


def british_stranded(rules: Ruleset | None = None) -> GameState:
    """RULES.md §3.8 (004): ``british``'s deal 3 (or ``rules``'s), seat 1 down with 'run: 4C 5C JK#2 7C' (meld
    0) and 'run: 9S 10S JS QS', seat 2 just down with 'run: 5H JK 7H 8H' and 'run: 5D JK#1 7D 8D', holding 6C
    and KH: seat 2's own runs take no second joker."""
    state = deal(rules or PRESETS["british"], 3, deal_no=2,
                 hands=[None, "4C 5C JK#2 7C 9S 10S JS QS KD 2D", "5H JK 7H 8H 5D JK#1 7D 8D 6C KH"],
                 stock_top=["AS", "3S"])  # fmt: skip
    play(state, DrawStock(1))
    pass_window(state)
    play(state, go_down(1, "run: 4C 5C JK#2 7C", "run: 9S 10S JS QS"), Discard(1, card("AS")), DrawStock(2))
    pass_window(state)
    return play(state, go_down(2, "run: 5H JK 7H 8H", "run: 5D JK#1 7D 8D"))


def discard_pile(state: GameState) -> str:
    return " ".join(map(str, state.discard_pile))


def hand(state: GameState, seat: int) -> str:
    return " ".join(map(str, state.hands[seat]))


def check_started() -> None:
    """Every game built since the last call keeps every card once, and its record replays to the same state."""
    while STARTED:
        state = STARTED.pop()
        if state.hands and state.phase not in (Phase.DEAL, Phase.GAME_OVER):
            assert sorted(state.all_cards()) == sorted(shoe(state)), "a card is missing or in two places"
        again = replay(GameRecord.from_json(GameRecord.of(state).to_json()))
        assert snapshot(again) == snapshot(state), "the record does not replay to the same state"


def rule_variants() -> dict[str, Ruleset]:
    """Every preset and four rulesets that bend the meld shapes: the variants the plan digests cover."""
    base = PRESETS["liverpool"]
    british = PRESETS["british"]
    return {
        **PRESETS,
        "aces-low-only": dataclasses.replace(base, name="a", aces_high=False),
        "aces-high-only": dataclasses.replace(base, name="b", aces_low=False),
        "distinct": dataclasses.replace(
            base, name="c", set_distinct_suits=True, set_distinct_ranks=True, run_distinct_suits=False
        ),
        "spacing": dataclasses.replace(british, name="d", run_joker_spacing=3, run_min_naturals=2, set_min_naturals=1),
    }
