"""The actor's observations (issue 27, item 6): :class:`~liverpool.server.views.ClientViews` converts
the ended deals' results and the pile log once, and what it gives equals the engine's
``to_client_dict`` of the whole observation, for every view, in order and out of order (an undo takes a
table back to a shorter pile log and fewer results)."""

from __future__ import annotations

import random
from itertools import pairwise

from liverpool.engine import GameState, apply, chance_action, find_preset, is_chance, legal_actions, new_game, observe
from liverpool.server.messages import encode
from liverpool.server.views import ClientViews

VIEWS: tuple[int | None, ...] = (None, 0, 1, 2)


def states(seed: int, deals: int) -> list[GameState]:
    """Every state of a seeded game of random legal moves (4 seats) up to the end of ``deals`` deals."""
    rng = random.Random(seed)
    state = new_game(find_preset("liverpool"), 4, 0)
    out = []
    while not state.is_over and len(state.results) < deals:
        action = chance_action(state, rng) if is_chance(state) else rng.choice(legal_actions(state))
        apply(state, action)
        out.append(state.clone())
    return out


def test_each_view_of_a_game_in_order_equals_the_engines() -> None:
    views = ClientViews()
    played = states(seed=3, deals=3)
    assert any(s.results for s in played) and any(s.pile_log for s in played)
    for state in played:
        for seat in VIEWS:
            observation = observe(state, seat)
            assert views.client_dict(observation) == observation.to_client_dict()


def test_views_out_of_order_equal_the_engines() -> None:
    """Going back (an undo) and forward again, another way (here: the moments of two games mixed, with
    as many results and as long a pile log): the parts kept are never those of another moment."""
    views = ClientViews()
    played = states(seed=4, deals=2) + states(seed=6, deals=2)
    picks = random.Random(5).choices(played, k=400)
    for state in picks:
        observation = observe(state, random.Random(len(state.history)).choice(VIEWS))
        assert views.client_dict(observation) == observation.to_client_dict()


def test_melds_laid_and_laid_off_on_equal_the_engines() -> None:
    """A meld is converted once and kept while it stays as it is; one laid off on (RULES.md §1: a turn may lay
    off, giving the same place on the table more cards) is converted again. Every view still equals the
    engine's, down to the text a client is sent."""
    views = ClientViews()
    played = states(seed=3, deals=3)
    laid_off = [
        (before, after)
        for before, after in pairwise(played)
        if len(before.melds) == len(after.melds) > 0 and before.melds != after.melds
    ]
    assert laid_off, "the seeded game lays off on a meld"
    for state in played:
        for seat in VIEWS:
            observation = observe(state, seat)
            out = views.client_dict(observation)
            assert out["melds"] == observation.to_client_dict()["melds"]
            assert encode(out) == encode(observation.to_client_dict())  # the same text, key order and all
