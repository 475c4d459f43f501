"""Whole games of random or bot play, timed: our engine, RLCard's gin rummy and OpenSpiel's gin rummy.

What is counted, the same way for all three:

* a *turn* is one draw by the player whose turn it is (from the stock, or the discard pile or upcard):
  one draw-then-discard cycle (a cycle that ends in going out, a knock or gin counts too);
* a *decision step* is one action chosen by a player, every action that is not chance. Ours: every
  action of the game's history but ``Shuffle`` and ``Reshuffle`` (declining a May I or a call is not an
  action and is not counted, though the bot is asked). RLCard: every action stepped (its forced
  score-keeping actions and dead-hand declarations included: RLCard deals and scores inside them).
  OpenSpiel: every action at a non-chance node (the deal and each card drawn from the stock are its
  chance nodes and are not counted, but their time is);
* the clock runs over whole games: dealing, legal-action generation, the agents' choices and applying
  the actions; nothing is encoded for learning (no observation tensors). Rates are per second of the
  process's CPU time (``time.process_time``), so that other load on a shared machine inflates them less;
  on an idle core it equals wall time, which is recorded too (``wall_seconds``);
* each measurement first plays ``warmup`` games (1) that are not timed or counted, the same way for all
  three, with the seeds after the timed ones (``seed + games ..``), so the timed games are those of the
  seeds asked for. A process's first game pays for what later games find ready: tables filled as they
  are first read, the interpreter's caches, fresh memory. Our figures come from 30 processes of 10
  games, a peer's from one process of 2,000, so without it ours counted 30 first games and theirs one.
  Its CPU time is recorded (``warmup_seconds``).
"""

from __future__ import annotations

import random
import time
from typing import Any

from liverpool.bots.registry import bot_names, make_bot
from liverpool.engine import PRESETS, DrawDiscard, DrawStock, Reshuffle, Shuffle, run_game


class Clock:
    """CPU and wall seconds spent inside ``with clock:`` blocks."""

    def __init__(self) -> None:
        self.cpu = self.wall = 0.0

    def __enter__(self) -> Clock:
        self._cpu, self._wall = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *_: object) -> None:
        self.cpu += time.process_time() - self._cpu
        self.wall += time.perf_counter() - self._wall


def _rates(
    games: int, turns: int, decisions: int, clock: Clock, warmup: Clock, warmups: int, **extra: Any
) -> dict[str, Any]:
    elapsed = clock.cpu
    return {
        "games": games,
        "warmup_games": warmups,
        "warmup_seconds": warmup.cpu,
        "turns": turns,
        "decision_steps": decisions,
        "seconds": elapsed,
        "wall_seconds": clock.wall,
        "games_per_s": games / elapsed,
        "turns_per_s": turns / elapsed,
        "decision_steps_per_s": decisions / elapsed,
        **extra,
    }


def engine_bot(wanted: str) -> tuple[str, str | None]:
    """The bot to play our games with, and a note when ``wanted`` is not registered."""
    if wanted in bot_names():
        return wanted, None
    return "random", f"bot {wanted!r} is not registered (bots: {', '.join(bot_names())}); 'random' played instead"


def _check_counts(games: int, warmup: int) -> None:
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if warmup < 0:
        raise ValueError(f"warmup must be 0 or more, not {warmup}")


def engine_games(preset: str, seats: int, bot: str, games: int, seed: int, warmup: int = 1) -> dict[str, Any]:
    """``games`` whole games of ``preset`` with ``seats`` bots named ``bot``, seeds ``seed ..``, timed after
    ``warmup`` untimed ones (seeds ``seed + games ..``)."""
    _check_counts(games, warmup)
    rules = PRESETS[preset]
    played, note = engine_bot(bot)
    warm = Clock()
    for game in range(seed + games, seed + games + warmup):
        agents = [make_bot(played) for _ in range(seats)]
        with warm:
            run_game(rules, agents, random.Random(game))
    turns = decisions = 0
    clock = Clock()
    for game in range(seed, seed + games):
        agents = [make_bot(played) for _ in range(seats)]
        with clock:
            state = run_game(rules, agents, random.Random(game))
        turns += sum(1 for a in state.history if isinstance(a, DrawStock | DrawDiscard))
        decisions += sum(1 for a in state.history if not isinstance(a, Shuffle | Reshuffle))
    return _rates(games, turns, decisions, clock, warm, warmup, preset=preset, seats=seats, bot=played, note=note)


def rlcard_games(games: int, seed: int, warmup: int = 1) -> dict[str, Any]:
    """RLCard's core gin-rummy game (no environment, no encoding), uniform over its judge's legal actions;
    ``warmup`` untimed games first (seeds ``seed + games ..``)."""
    import numpy as np
    from rlcard.games.gin_rummy.game import GinRummyGame
    from rlcard.games.gin_rummy.utils.action_event import DrawCardAction, PickUpDiscardAction

    _check_counts(games, warmup)
    counts = [0, 0]  # turns, decisions
    warm, clock = Clock(), Clock()
    for game_seed in [*range(seed + games, seed + games + warmup), *range(seed, seed + games)]:
        timed = game_seed < seed + games
        rng = random.Random(game_seed)
        with clock if timed else warm:
            game = GinRummyGame()
            game.np_random = np.random.RandomState(game_seed)
            game.init_game()
            turns = decisions = 0
            while not game.is_over():
                action = rng.choice(game.judge.get_legal_actions())
                turns += isinstance(action, DrawCardAction | PickUpDiscardAction)
                decisions += 1
                game.step(action)
        if timed:
            counts[0] += turns
            counts[1] += decisions
    return _rates(games, counts[0], counts[1], clock, warm, warmup)


def openspiel_games(games: int, seed: int, warmup: int = 1) -> dict[str, Any]:
    """OpenSpiel's ``gin_rummy`` (C++ via pyspiel): uniform legal actions, chance by its outcome weights;
    ``warmup`` untimed games first (seeds ``seed + games ..``)."""
    import pyspiel

    _check_counts(games, warmup)
    draw_upcard, draw_stock = 52, 53  # open_spiel/games/gin_rummy: kDrawUpcardAction, kDrawStockAction
    game = pyspiel.load_game("gin_rummy")
    counts = [0, 0, 0]  # turns, decisions, chance steps
    warm, clock = Clock(), Clock()
    for game_seed in [*range(seed + games, seed + games + warmup), *range(seed, seed + games)]:
        timed = game_seed < seed + games
        rng = random.Random(game_seed)
        with clock if timed else warm:
            state = game.new_initial_state()
            turns = decisions = chance = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                    action = rng.choices(outcomes, weights)[0]
                    chance += 1
                else:
                    action = rng.choice(state.legal_actions())
                    turns += action in (draw_upcard, draw_stock)
                    decisions += 1
                state.apply_action(action)
        if timed:
            counts[0] += turns
            counts[1] += decisions
            counts[2] += chance
    return _rates(games, counts[0], counts[1], clock, warm, warmup, chance_steps=counts[2])
