"""Inference about hidden cards from the pile log (issue 29, item 3): worlds dealt by inferred odds keep
everything the observation fixes, and the odds place hidden cards better than a uniform deal."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from liverpool.bots import infer
from liverpool.bots.hard import HardBot
from liverpool.bots.infer import FACTORS, NEAR1, RANK, SAME, accuracy, inferred_world, moments, place_probabilities
from liverpool.bots.registry import make_bot
from liverpool.engine import Card, GameState, PileMove, find_preset, legal_actions, make_shoe, new_game, observe, step
from liverpool.tournament.games import bot_version, make_setup


def position(preset: str = "liverpool", seats: int = 4, seed: int = 3, moves: int = 20) -> GameState:
    """A deal of ``medium`` bots played until ``moves`` pile moves are logged."""
    state = new_game(find_preset(preset), seats, 0)
    agents = [make_bot("medium") for _ in range(seats)]
    rng = random.Random(seed)
    while len(state.pile_log) < moves:
        step(state, agents, rng)
    return state


def test_a_world_keeps_every_count_and_card_the_observation_fixes() -> None:
    state = position()
    viewer = state.current
    obs = observe(state, viewer)
    for seed in range(20):
        world = inferred_world(obs, random.Random(seed))
        assert world.hands[viewer] == list(obs.hand)
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert len(world.stock) == len(state.stock)
        for seat in range(state.seats):
            assert Counter(state.known[seat]) <= Counter(world.hands[seat]), "face-up pickups stay put"
        every = [*world.stock, *world.discard_pile, *(c for h in world.hands for c in h)]
        every += [c for tm in world.melds for c in tm.meld.cards]
        deck = state.rules.deck_for(state.seats)
        assert Counter(every) == Counter(make_shoe(deck.decks, deck.jokers)), "every card exactly once"
    again = [inferred_world(obs, random.Random(5)) for _ in range(2)]
    assert again[0].hands == again[1].hands and again[0].stock == again[1].stock, "seeded: replays exactly"


def test_what_a_seat_discarded_or_took_moves_the_odds() -> None:
    """A seat that discarded a card is less likely to hold its twin or its run neighbours; one that took a
    card from the pile is more likely to hold its neighbours (the measured factors say so)."""
    assert FACTORS[(PileMove.DISCARDED, SAME)] < 1 and FACTORS[(PileMove.DISCARDED, RANK)] < 1
    assert FACTORS[(PileMove.DISCARDED, NEAR1)] < 1
    assert FACTORS[(PileMove.TOOK, NEAR1)] > 1
    state = position()
    viewer = state.current
    obs = observe(state, viewer)
    cards, probs = place_probabilities(obs)
    discards = {(s, c) for s, kind, c in state.pile_log if kind is PileMove.DISCARDED and s != viewer}
    seat, card = sorted(discards)[0]
    twins = [i for i, c in enumerate(cards) if c.face == card.face and not c.is_joker]
    others = [i for i, c in enumerate(cards) if infer.relation(c, card) is None and not c.is_joker]
    assert twins and others
    twin = sum(probs[i][seat] for i in twins) / len(twins)
    plain = sum(probs[i][seat] for i in others) / len(others)
    assert twin < plain, "the twin of a card a seat threw away is less likely in its hand"


def test_the_odds_place_hidden_cards_better_than_a_uniform_deal() -> None:
    """Held-out games (not the ones the factors were measured on): the mean probability given to each
    hidden card's true place is higher than a uniform deal's once the pile log says something."""
    found = accuracy(moments("liverpool", 4, deals=4, seed=97))
    cards, model, uniform = found["26+ moves"]
    assert cards > 1000
    assert model > uniform
    flat = accuracy(moments("liverpool", 4, deals=4, seed=97), factors={})
    assert flat["26+ moves"][1] == pytest.approx(flat["26+ moves"][2]), "no factors: the uniform deal"


def test_a_tournament_seats_infer_and_it_searches_inferred_worlds() -> None:
    setup = make_setup(find_preset("liverpool"), ["infer", "medium", "easy"], seed=2)
    assert setup.bots[0] == "infer"
    assert bot_version("infer") == "infer/hard/1"
    state = position(seats=3, moves=12)
    obs = observe(state, state.current)
    bot = HardBot(worlds=3, sample=inferred_world)
    choice = bot(obs, legal_actions(state), random.Random(1))
    assert choice in legal_actions(state)


def test_relation_names_how_two_cards_meet() -> None:
    seven = Card.parse("7H")
    assert infer.relation(Card.parse("7H#1"), seven) == SAME
    assert infer.relation(Card.parse("7S"), seven) == RANK
    assert infer.relation(Card.parse("8H"), seven) == NEAR1
    assert infer.relation(Card.parse("9H"), seven) == infer.NEAR2
    assert infer.relation(Card.parse("10H"), seven) is None
    assert infer.relation(Card.parse("KH"), Card.parse("AH")) == NEAR1
    assert infer.relation(Card.parse("JK"), seven) is None
