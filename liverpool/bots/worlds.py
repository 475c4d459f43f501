"""Determinization: full game states consistent with one seat's observation.

The cards a seat cannot see are the shoe minus its hand, the discard pile, the melds and the cards other
seats took face up (``SeatView.known``). A *world* deals those unseen cards at random to the other seats'
hidden places (``hand_count - len(known)`` each) and to the stock (``stock_size``), and fills every other
field of :class:`~liverpool.engine.state.GameState` from the observation. What the observation does not
tell (the first dealer, the cut) does not matter within a deal and gets neutral values.

A world depends only on the observation and the random source, so nothing hidden leaks into it.
:func:`known_world` is the exception, for measurement only (:mod:`.cheat`): the same world with every
hand as it really is.
"""

from __future__ import annotations

import random

from liverpool.engine import Card, GameState, Observation, make_shoe

from .table import me


def unseen_cards(observation: Observation) -> list[Card]:
    """The physical cards ``observation``'s seat cannot see, in shoe order."""
    deck = observation.rules.deck_for(observation.seat_count)
    visible = observation.visible_cards()
    return [c for c in make_shoe(deck.decks, deck.jokers) if c not in visible]


def hidden_slots(observation: Observation) -> list[int]:
    """How many unseen cards each seat holds (0 for the viewer)."""
    viewer = me(observation)
    return [0 if s.seat == viewer else s.hand_count - len(s.known) for s in observation.seats]


def hidden_places(observation: Observation) -> tuple[list[Card], list[int]]:
    """The unseen cards (:func:`unseen_cards`) and the hidden slots of each seat (:func:`hidden_slots`),
    checked to add up with the stock."""
    unseen = unseen_cards(observation)
    slots = hidden_slots(observation)
    if len(unseen) != sum(slots) + observation.stock_size:
        raise ValueError(
            f"the observation of seat {me(observation)} does not add up: {len(unseen)} unseen cards for "
            f"{sum(slots)} hidden hand cards and {observation.stock_size} in the stock"
        )
    return unseen, slots


def sample_world(observation: Observation, rng: random.Random) -> GameState:
    """A game state drawn uniformly among those ``observation`` allows."""
    unseen, slots = hidden_places(observation)
    rng.shuffle(unseen)
    hidden: list[list[Card]] = []
    position = 0
    for take in slots:
        hidden.append(unseen[position : position + take])
        position += take
    return dealt_world(observation, hidden, unseen[position:])


def dealt_world(observation: Observation, hidden: list[list[Card]], stock: list[Card]) -> GameState:
    """The world of ``observation`` where seat ``s`` holds its face-up cards and ``hidden[s]`` (the viewer
    its own hand), and the stock is ``stock``."""
    viewer = me(observation)
    hands = [
        list(observation.hand) if seat.seat == viewer else [*seat.known, *hidden[seat.seat]]
        for seat in observation.seats
    ]
    return world_of(observation, hands, stock)


def known_world(observation: Observation, truth: GameState, rng: random.Random) -> GameState:
    """The world of ``observation`` whose hands are ``truth``'s (the live game it was observed in), the
    stock shuffled: what a seat that saw every hand, but not the order of the stock, would search."""
    viewer = me(observation)
    counts = [s.hand_count for s in observation.seats]
    if (
        truth.deal != observation.deal
        or [len(h) for h in truth.hands] != counts
        or sorted(truth.hands[viewer]) != sorted(observation.hand)
    ):
        raise ValueError(
            f"the game state is not the one seat {viewer} observes: deal {truth.deal} with hands of "
            f"{[len(h) for h in truth.hands]} cards, observed deal {observation.deal} with hands of {counts}"
        )
    stock = list(truth.stock)
    rng.shuffle(stock)
    return world_of(observation, [list(h) for h in truth.hands], stock)


def world_of(observation: Observation, hands: list[list[Card]], stock: list[Card]) -> GameState:
    """The game state with these hands and stock, every other field filled from ``observation``."""
    rules = observation.rules
    return GameState(
        rules=rules,
        seats=observation.seat_count,
        first_dealer=observation.dealer,
        dealer=observation.dealer,
        phase=observation.phase,
        deal=observation.deal,
        current=observation.current,
        hands=hands,
        stock=stock,
        discard_pile=list(observation.discard_pile),
        melds=list(observation.melds),
        down=[s.down for s in observation.seats],
        buys=[s.buys for s in observation.seats],
        known=[list(s.known) for s in observation.seats],
        fresh=observation.fresh,
        discarder=observation.discarder,
        may_i_calls=list(observation.may_i_calls),
        window=list(observation.window),
        window_answers=dict(observation.window_answers),
        call_open=observation.call_open,
        taken=observation.taken,
        must_place=observation.must_place,
        reclaimed=list(observation.reclaimed),
        down_this_turn=observation.down_this_turn,
        turn_end_counts=[s.hand_count if s.announced else -1 for s in observation.seats],
        reshuffles=observation.reshuffles,
        results=list(observation.results),
        replays=max(0, observation.deal - len(rules.deals) + 1),
        winners=observation.winners,
        turn=observation.turn,
        pile_log=observation.pile_log,
    )
