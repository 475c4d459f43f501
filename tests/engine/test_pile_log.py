"""The deal's pile log: what each seat did with the discard pile's cards, as everyone at the table saw it.

Every discard is laid face up; who took a discard, who bought it and who drew from the stock while a fresh
discard lay there are seen by everyone. A player remembers them and reads the other hands from them; the
engine keeps them (``GameState.pile_log``) and every observation shows them (``Observation.pile_log``), so a
bot that reasons from them (issue 29, inference) needs no memory of its own.
"""

from __future__ import annotations

import random

import pytest

from liverpool.bots.registry import make_bot
from liverpool.bots.worlds import sample_world
from liverpool.engine import (
    Discard,
    DrawDiscard,
    DrawStock,
    GameState,
    Phase,
    PileMove,
    Reshuffle,
    Shuffle,
    find_preset,
    new_game,
    observe,
    step,
)
from liverpool.engine.actions import Action
from liverpool.tui.remote import observation_from_dict

GAMES = [("liverpool", 4, 1), ("may-i", 5, 2), ("contract", 3, 3), ("british", 4, 4), ("norsk", 4, 5)]


def expected_entries(before: GameState, action: Action, after: GameState) -> list[tuple[int, PileMove, object]]:
    """The entries ``action`` adds to the pile log, read from the states around it."""
    top = before.discard_pile[-1] if before.discard_pile else None
    out: list[tuple[int, PileMove, object]] = []
    if isinstance(action, DrawStock) and before.fresh and top is not None:
        out.append((action.seat, PileMove.DECLINED, top))
    if isinstance(action, DrawDiscard):
        out += [(action.seat, PileMove.TOOK, c) for c in before.discard_pile[-action.depth :]]
    if isinstance(action, Discard):
        out.append((action.seat, PileMove.DISCARDED, action.card))
    # a buy is settled when the window closes (at once, or on a later answer or draw): whoever's buys grew
    # took the card that lay on the pile
    bought = [s for s in range(before.seats) if after.buys[s] > before.buys[s]] if after.buys else []
    # (a draw that closes a window is logged as declined first, then the buy is given)
    out += [(seat, PileMove.BOUGHT, top) for seat in bought]
    return out


@pytest.mark.parametrize(("preset", "seats", "seed"), GAMES)
def test_every_discard_take_decline_and_buy_is_logged_in_order(preset: str, seats: int, seed: int) -> None:
    rules = find_preset(preset)
    state = new_game(rules, seats, 0)
    agents = [make_bot("medium" if s % 2 else "easy") for s in range(seats)]
    rng = random.Random(seed)
    seen: list[tuple[GameState, Action]] = []
    kinds: set[PileMove] = set()
    for _ in range(3000):
        if state.is_over:
            break
        seen.clear()
        action = step(state, agents, rng, before=lambda s, a: seen.append((s.clone(), a)))
        assert action is not None
        before, done = seen[0]
        if isinstance(done, Shuffle):
            assert state.pile_log == (), "a new deal starts with an empty pile log"
            continue
        if isinstance(done, Reshuffle):
            washed = set(done.stock)
            assert state.pile_log == tuple(e for e in before.pile_log if e[2] not in washed)
            continue
        added = state.pile_log[len(before.pile_log) :]
        assert state.pile_log[: len(before.pile_log)] == before.pile_log, "entries are only ever appended"
        assert list(added) == expected_entries(before, done, state), (done, added)
        kinds |= {kind for _, kind, _ in added}
        # shown while a deal is in play (the deal's end shows its own summary), the same to everyone
        shown = state.pile_log if state.phase not in (Phase.DEAL, Phase.GAME_OVER) else ()
        for viewer in [None, *range(seats)]:
            assert observe(state, viewer).pile_log == shown
    assert {PileMove.DISCARDED, PileMove.DECLINED, PileMove.TOOK} <= kinds
    if preset in ("liverpool", "may-i", "british"):
        assert PileMove.BOUGHT in kinds


def test_the_log_travels_with_the_observation() -> None:
    """The server's JSON, the terminal client's rebuilt observation and a bot's sampled worlds keep it."""
    rules = find_preset("liverpool")
    state = new_game(rules, 3, 0)
    agents = [make_bot("medium") for _ in range(3)]
    rng = random.Random(7)
    while len(state.pile_log) < 12:
        step(state, agents, rng)
    obs = observe(state, 1)
    data = obs.to_dict()
    assert data["pile_log"] == [[s, kind.value, str(c)] for s, kind, c in state.pile_log]
    assert observation_from_dict(data, rules).pile_log == obs.pile_log
    assert sample_world(obs, random.Random(1)).pile_log == state.pile_log


def test_buys_are_logged_when_the_window_settles() -> None:
    """A bought card (RULES.md §3.14 buying: price, the discard and a penalty card) is logged as ``bought``
    by the seat that got it, once; the penalty card, drawn face down, is not logged."""
    rules = find_preset("liverpool")
    state = new_game(rules, 4, 0)
    agents = [make_bot("medium") for _ in range(4)]
    rng = random.Random(11)
    for _ in range(5000):
        if any(kind is PileMove.BOUGHT for _, kind, _ in state.pile_log) or state.is_over:
            break
        step(state, agents, rng)
    bought = [(s, c) for s, kind, c in state.pile_log if kind is PileMove.BOUGHT]
    assert bought, "medium bots buy in a liverpool deal"
    seat, card = bought[0]
    assert card in state.known[seat], "the bought card is in the buyer's hand, face up"
    assert sum(1 for s, kind, c in state.pile_log if kind is PileMove.BOUGHT) == 1


def test_a_wash_drops_the_washed_cards_so_no_observation_names_the_stock() -> None:
    """RULES.md §3.21 stock exhausted (the discards but the top card are reshuffled as a new stock): the
    stock is hidden, so once the pile is washed the log no longer names the cards that went into it, while
    the entries of the card left on the pile and of cards taken into hands stay. Random bots run the stock
    out often; a failing engine shows a spectator 20-30 cards of the stock after the first wash (seen in
    the server's leak test before the fix)."""
    rules = find_preset("liverpool")
    washes = 0
    seen: list[tuple[GameState, Action]] = []
    for seed in range(12):
        state = new_game(rules, 3, 0)
        agents = [make_bot("random") for _ in range(3)]
        rng = random.Random(seed)
        for _ in range(4000):
            if state.is_over:
                break
            seen.clear()
            step(state, agents, rng, before=lambda s, a: seen.append((s.clone(), a)))
            if isinstance(seen[0][1], Reshuffle):
                washes += 1
                kept = {card for _, _, card in seen[0][0].pile_log} - set(state.stock)
                assert {card for _, _, card in state.pile_log} == kept
            for viewer in (None, *range(3)):
                named = {card for _, _, card in observe(state, viewer).pile_log}
                assert not named & set(state.stock), "an observation names a card of the stock"
    assert washes >= 3, f"only {washes} washes: the test did not exercise one"
