"""Running games: chance from an explicit random source, and a driver that asks agents in turn.

Seeded games use ``random.Random(seed)``; live games use :func:`live_rng` (``secrets``-grade).
The global ``random`` module is never used.

An agent is ``agent(observation, legal_actions, rng) -> action | None``. ``None`` declines an
out-of-turn chance (a May I or a call) and is refused when the seat must act.

>>> import random
>>> from liverpool.engine import find_preset
>>> anything = lambda observation, options, rng: rng.choice(options)
>>> state = run_game(find_preset('liverpool'), [anything] * 3, random.Random(2))
>>> state.is_over, len(state.results)
(True, 7)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from liverpool.engine._speed.cache import kept
from liverpool.engine.actions import Action, Buy, Pass, Reshuffle, Shuffle
from liverpool.engine.cards import Card, make_shoe
from liverpool.engine.game.core import _apply_listed, new_game
from liverpool.engine.game.legal import is_chance, legal_actions, seat_order
from liverpool.engine.game.verify import shoe
from liverpool.engine.observe import Observation, Observer
from liverpool.engine.rules.parts import FirstDealer
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import GameState, Phase

# Phases as Final names: compiled, ``Phase.PLAY`` is looked up through the enum class at each use.
_PLAY: Final = Phase.PLAY
_BUY: Final = Phase.BUY
_DEAL: Final = Phase.DEAL
_RESHUFFLE: Final = Phase.RESHUFFLE

Agent = Callable[[Observation, list[Action], random.Random], Action | None]


def live_rng() -> random.Random:
    """A random source backed by the operating system (``secrets``-grade), for live games."""
    return random.SystemRandom()


def choose_first_dealer(rules: Ruleset, seats: int, rng: random.Random) -> int:
    """Seat 0, or the low card of a cut (each seat draws a natural card; ace low; first lowest seat)."""
    if rules.first_dealer is FirstDealer.FIRST_SEAT:
        return 0
    deck = rules.deck_for(seats)
    naturals = list(make_shoe(deck.decks, 0))
    drawn = rng.sample(naturals, seats)
    return min(range(seats), key=lambda s: (drawn[s].rank, s))


class SeededChance:
    """Chance that depends only on (seed, deal, reshuffle number), not on how the game was played.

    Duplicate deals rest on this: the same seed deals the same decks whatever the seats do, and a
    reshuffle in one deal never shifts the decks of later deals.
    """

    def __init__(self, seed: int | str) -> None:
        self.seed = seed

    def __call__(self, state: GameState) -> Shuffle | Reshuffle:
        return chance_action(state, random.Random(f"{self.seed}:{state.deal}:{state.reshuffles}"))

    def first_dealer(self, rules: Ruleset, seats: int) -> int:
        return choose_first_dealer(rules, seats, random.Random(f"{self.seed}:first-dealer"))


def chance_action(state: GameState, rng: random.Random) -> Shuffle | Reshuffle:
    """Draw the outcome of the pending chance node from ``rng``."""
    if state.phase is _DEAL:
        deck = list(shoe(state))
        shuffle(deck, rng)
        return Shuffle(tuple(deck), rng.randrange(len(deck) + 1))
    if state.phase is _RESHUFFLE:
        stock = list(state.discard_pile[:-1])
        shuffle(stock, rng)
        return Reshuffle(tuple(stock))
    raise ValueError(f"no chance event is pending ({state.situation()})")


def shuffle(items: list[Card], rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same order from the same random numbers. For a plain ``random.Random``
    the numbers are drawn here, in compiled code, as ``Random.shuffle`` draws them (an exchange from the
    end, each index drawn below its bound from ``getrandbits`` of the bound's length, drawn again while
    too large), which :data:`_DRAWS_AS_SHUFFLE` checks against this Python's own at import."""
    if type(rng) is not random.Random or not _DRAWS_AS_SHUFFLE:
        rng.shuffle(items)
        return
    _exchange_from_end(items, rng)


def _exchange_from_end(items: list[Card], rng: random.Random) -> None:
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def _draws_as_shuffle() -> bool:
    """Whether :func:`_exchange_from_end` orders as this Python's ``Random.shuffle`` does, on a few seeds."""
    for seed in range(3):
        mine, theirs = list(make_shoe(3, 6)), list(make_shoe(3, 6))
        _exchange_from_end(mine, random.Random(seed))
        random.Random(seed).shuffle(theirs)
        if mine != theirs:
            return False
    return True


_DRAWS_AS_SHUFFLE: Final = _draws_as_shuffle()


Hook = Callable[[GameState, Action], None]


def step(
    state: GameState,
    agents: Sequence[Agent],
    rng: random.Random,
    before: Hook | None = None,
    chance: SeededChance | None = None,
) -> Action | None:
    """Advance by one action: chance, or the first seat that acts, asked in precedence order.

    Out-of-turn seats are asked first (nearest after the current player first), then the seat whose
    turn it is. ``before`` sees the state and the action just before it is applied. Chance comes
    from ``chance`` when given, else from ``rng``.
    """
    if is_chance(state):
        action: Action = chance(state) if chance is not None else chance_action(state, rng)
        return _do(state, action, before)
    phase = state.phase
    if phase is _PLAY:
        # Only the player whose turn it is acts in the play phase, and must.
        turn = legal_actions(state)
        if not turn:
            return None
        seat = state.current
        choice = agents[seat](Observer(state).observe(seat), turn, rng)
        if choice is None:
            raise ValueError(f"agent of seat {seat} declined to act but must ({state.situation()})")
        return _do(state, choice, before, turn)
    order = seat_order(state.seats, state.current)
    if phase is _BUY:
        # In a buy window the first seat in order that has options must answer: only its options are listed.
        for seat in order:
            answers = legal_actions(state, seat)
            if answers:
                observer = _window_observer(state)
                choice = agents[seat](observer.observe(seat), answers, rng)
                if choice is None:
                    raise ValueError(f"agent of seat {seat} declined to act but must ({state.situation()})")
                done = _do(state, choice, before, answers)
                if state.phase is _BUY and isinstance(done, Buy | Pass):
                    _last_window[:] = [(state, len(state.history), observer)]
                return done
        return None
    # Each seat's options, by seat number (every action listed out of the play and buy phases names its seat).
    by_seat: list[list[Action] | None] = [None] * state.seats
    for option in legal_actions(state):
        at = option.seat
        if at is None:
            continue
        held = by_seat[at]
        if held is None:
            by_seat[at] = [option]
        else:
            held.append(option)
    observer = Observer(state)  # the seats asked see one moment: what they all see is read once
    for seat in order:
        options = by_seat[seat]
        if not options:
            continue
        must_act = seat == state.current  # out of turn, a seat may decline (a May I, a call)
        choice = agents[seat](observer.observe(seat), options, rng)
        if choice is None:
            if must_act:
                raise ValueError(f"agent of seat {seat} declined to act but must ({state.situation()})")
            continue
        return _do(state, choice, before, options)
    return None


# The observer of the last buy-window moment asked about, when the answer given left the window open: with
# the state and its history's length after that answer. While the state's history has not grown since (the
# state changes only through ``apply``, which records each action), the next seat asked sees the same
# moment but for the window's answers.
_last_window: Final[list[tuple[GameState, int, Observer]]] = kept([])


def _window_observer(state: GameState) -> Observer:
    if _last_window:
        held, length, observer = _last_window[0]
        _last_window.clear()
        if held is state and len(state.history) == length:
            return observer.answered()
    return Observer(state)


def _do(state: GameState, action: Action, before: Hook | None, listed: Sequence[Action] = ()) -> Action:
    """Apply ``action``; ``listed``: actions just listed by ``legal_actions(state)``, which need no
    second validation when ``action`` is one of them (see :func:`~.game._apply_listed`)."""
    if before is not None:
        before(state, action)
    _apply_listed(state, action, listed)
    return action


def run_game(
    rules: Ruleset,
    agents: Sequence[Agent],
    rng: random.Random,
    *,
    before: Hook | None = None,
    chance: SeededChance | None = None,
    max_steps: int = 200_000,
) -> GameState:
    """Play a whole game; ``before`` sees each action with the state just before it.

    Agents draw from ``rng``; chance too, unless ``chance`` is given (see :class:`SeededChance`).
    """
    seats = len(agents)
    dealer = chance.first_dealer(rules, seats) if chance is not None else choose_first_dealer(rules, seats, rng)
    state = new_game(rules, seats, dealer)
    for _ in range(max_steps):
        if state.is_over:
            return state
        if step(state, agents, rng, before, chance) is None:
            raise RuntimeError(f"nobody could act ({state.situation()})")
    raise RuntimeError(f"the game did not end within {max_steps} steps ({state.situation()})")
