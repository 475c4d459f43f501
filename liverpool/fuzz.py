"""Engine fuzzing: random games on every preset and table size, half of the steps illegal or mutated.

    python -m liverpool.fuzz --actions 100000 --seed 1        # make fuzz runs this on both builds

Each step either plays a legal action (chosen as a random player would) or tries an illegal or mutated one:
a wrong seat, cards not in hand or not in the shoe, duplicated cards, a listed ``GoDown`` with its melds
mutated, a lay-off on the wrong meld or end, a joker swap of the wrong cards, an action of another phase,
a field of the wrong type, or a random dict read through the record codec
(:func:`~liverpool.engine.actions.action_from_dict`). After every step it checks the engine's promises:

- an action that is refused raises :class:`~liverpool.engine.errors.IllegalAction` (never another
  exception) and leaves the state unchanged (:func:`~liverpool.engine.record.snapshot`, byte for byte);
- every action :func:`~liverpool.engine.legal.legal_actions` lists is legal, and ``apply`` accepts it;
- every physical card of the shoe is in exactly one place (hands, stock, discard pile, melds);
- no observation shows a card of the stock or a hidden card of another seat's hand.

A mutated action that happens to be legal is played and counted (``accepted unlisted``); the engine may
accept equivalent forms that its listing does not spell out. A violation names the seed, game and step;
``--preset P --seats N --game G`` with the same ``--seed`` plays that game alone to reproduce it.
The exit status is 1 when any violation was found.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from liverpool.engine import (
    ACTION_TYPES,
    PRESETS,
    Action,
    Buy,
    Call,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    GameState,
    GoDown,
    IllegalAction,
    LayOff,
    Meld,
    MeldKind,
    Pass,
    Phase,
    Reshuffle,
    Shuffle,
    SwapJoker,
    action_from_dict,
    apply,
    chance_action,
    is_chance,
    is_compiled,
    is_legal,
    legal_actions,
    make_shoe,
    new_game,
    observe,
    shoe,
    snapshot,
)

# A game that runs longer than this many steps is left (random play may wander for long in a late deal).
GAME_STEPS = 20_000


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken promise: where (seed, preset, seats, game, step), which action, and what went wrong."""

    seed: int
    preset: str
    seats: int
    game: int
    step: int
    action: str
    problem: str

    def __str__(self) -> str:
        return (
            f"{self.problem}\n  action: {self.action}\n  at step {self.step} of game {self.game} "
            f"({self.preset}, {self.seats} seats)\n  reproduce: python -m liverpool.fuzz --seed {self.seed} "
            f"--preset {self.preset} --seats {self.seats} --game {self.game}"
        )


@dataclass(slots=True)
class Tally:
    """What a campaign did: steps played, illegal actions tried, and the violations found."""

    actions: int = 0
    legal: int = 0
    chance: int = 0
    illegal_tried: int = 0
    refused: int = 0
    codec_refused: int = 0
    accepted_unlisted: int = 0
    games: int = 0
    games_finished: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    accepted_examples: dict[str, str] = field(default_factory=dict)
    violations: list[Violation] = field(default_factory=list)


def cases(presets: list[str] | None = None, seats: int | None = None) -> list[tuple[str, int]]:
    """Every (preset, seats) pair the presets allow, 3 seats up to each preset's maximum."""
    out = []
    for name, rules in PRESETS.items():
        if presets and name not in presets:
            continue
        for n in range(max(3, rules.min_players), rules.max_players + 1):
            if rules.partnerships and n != 4:
                continue
            if seats is None or n == seats:
                out.append((name, n))
    return out


def game_seed(seed: int, preset: str, seats: int, game: int) -> str:
    return f"{seed}:{preset}:{seats}:{game}"


# -- checks -------------------------------------------------------------------------------------------


def card_problem(state: GameState) -> str | None:
    """Whether every physical card of the shoe is in exactly one place (``None`` when so)."""
    if not state.hands or state.phase is Phase.DEAL or state.phase is Phase.GAME_OVER:
        return None
    held = Counter(state.all_cards())
    expected = Counter(shoe(state))
    if held == expected:
        return None
    twice = sorted(str(c) for c, n in held.items() if n > 1)
    missing = sorted(str(c) for c in expected if c not in held)
    foreign = sorted(str(c) for c in held if c not in expected)
    return f"cards out of place: in two places {twice}, missing {missing}, not of the shoe {foreign}"


def observation_problem(state: GameState) -> str | None:
    """Whether some observation shows a stock card or a hidden card of another seat (``None`` when not)."""
    stock = set(state.stock)
    for viewer in [None, *range(state.seats)]:
        visible = observe(state, viewer).visible_cards()
        if visible & stock:
            return f"seat {viewer} sees stock cards {sorted(map(str, visible & stock))}"
        for other in range(state.seats):
            if other == viewer:
                continue
            secret = set(state.hands[other]) - set(state.known[other]) if state.hands else set()
            if visible & secret:
                return f"seat {viewer} sees hidden cards of seat {other}: {sorted(map(str, visible & secret))}"
    return None


# -- legal play ---------------------------------------------------------------------------------------


def choose_legal(state: GameState, listed: list[Action], rng: random.Random) -> Action:
    """A legal action as a random player picks it: going down and laying off when it can, taking a
    chance out of turn (a May I or a call) now and then."""
    mine = [a for a in listed if a.seat == state.current]
    going_down = [a for a in mine if isinstance(a, GoDown)]
    if going_down:
        return rng.choice(going_down)
    laying_off = [a for a in mine if isinstance(a, LayOff)]
    if laying_off and rng.random() < 0.8:
        return rng.choice(laying_off)
    others = [a for a in listed if a.seat != state.current]
    if others and (not mine or rng.random() < 0.25):
        return rng.choice(others)
    return rng.choice(mine or listed)


# -- illegal and mutated actions ----------------------------------------------------------------------


Mutator = Callable[[GameState, list[Action], random.Random], Action | None]


def _some_seat(state: GameState, rng: random.Random) -> int:
    return rng.randrange(state.seats)


def _hand(state: GameState, seat: int) -> list[Card]:
    return state.hands[seat] if state.hands else []


def _not_in_hand(state: GameState, seat: int, rng: random.Random) -> Card:
    """A card of the shoe that ``seat`` does not hold, or now and then one that is not in the shoe at all."""
    cards = shoe(state)
    if rng.random() < 0.2:
        deck = state.rules.deck_for(state.seats)
        outside = [c for c in make_shoe(deck.decks + 1, deck.jokers + 2) if c not in set(cards)]
        return rng.choice(outside)
    hand = set(_hand(state, seat))
    for _ in range(20):
        card = rng.choice(cards)
        if card not in hand:
            return card
    return rng.choice(cards)


def _any_card(state: GameState, rng: random.Random) -> Card:
    return rng.choice(shoe(state))


def wrong_seat(state: GameState, listed: list[Action], rng: random.Random) -> Action | None:
    """A listed action by another seat, or by a seat that does not exist."""
    seated = [a for a in listed if a.seat is not None]
    if not seated:
        return None
    action = rng.choice(seated)
    seat: Any = rng.choice([(action.seat + rng.randrange(1, state.seats)) % state.seats] * 4 + [-1, state.seats, 99])
    return dataclasses.replace(action, seat=seat)


def not_in_hand(state: GameState, listed: list[Action], rng: random.Random) -> Action | None:
    """A discard, lay-off, swap or call of a card the seat does not hold."""
    seat = state.current if rng.random() < 0.8 else _some_seat(state, rng)
    card = _not_in_hand(state, seat, rng)
    match rng.randrange(4):
        case 0:
            return Discard(seat, card)
        case 1:
            return LayOff(seat, card, rng.randrange(len(state.melds) + 1), rng.choice([None, "low", "high"]))
        case 2:
            if state.melds:
                meld = rng.randrange(len(state.melds))
                return SwapJoker(seat, card, meld, rng.choice(state.melds[meld].meld.cards))
            return SwapJoker(seat, card, 0, Card.joker())
        case _:
            return Call(seat, card)


def duplicated(state: GameState, listed: list[Action], rng: random.Random) -> Action | None:
    """A go-down that uses one card twice, or a lay-off of a card already on the table."""
    seat = state.current
    hand = _hand(state, seat)
    downs = [a for a in listed if isinstance(a, GoDown)]
    if downs:
        action = rng.choice(downs)
        melds = list(action.melds)
        if rng.random() < 0.5:
            melds.append(melds[0])
        else:
            i = rng.randrange(len(melds))
            cards = melds[i].cards
            melds[i] = Meld(melds[i].kind, (*cards, rng.choice(cards)), melds[i].low)
        return GoDown(seat, tuple(melds))
    if state.melds:
        meld = rng.randrange(len(state.melds))
        return LayOff(seat, rng.choice(state.melds[meld].meld.cards), meld, rng.choice([None, "low", "high"]))
    if len(hand) >= 1:
        card = rng.choice(hand)
        return GoDown(seat, (Meld(MeldKind.SET, (card, card, card), card.rank),))
    return None


def mutated_go_down(state: GameState, listed: list[Action], rng: random.Random) -> Action | None:
    """A listed go-down with one meld changed: a card dropped or replaced, its kind or low moved, a meld
    dropped; or, with none listed, random cards of the hand laid as melds."""
    seat = state.current
    hand = _hand(state, seat)
    downs = [a for a in listed if isinstance(a, GoDown)]
    if not downs:
        if len(hand) < 3:
            return None
        size = rng.randint(3, min(len(hand), 8))
        cards = tuple(rng.sample(hand, size))
        kind = rng.choice([MeldKind.SET, MeldKind.RUN])
        return GoDown(seat, (Meld(kind, cards, rng.randint(-1, 15)),))
    melds = list(rng.choice(downs).melds)
    i = rng.randrange(len(melds))
    meld = melds[i]
    match rng.randrange(6):
        case 0:
            melds[i] = Meld(meld.kind, meld.cards[1:], meld.low)
        case 1:
            j = rng.randrange(len(meld.cards))
            card = rng.choice(hand) if hand and rng.random() < 0.5 else _any_card(state, rng)
            melds[i] = Meld(meld.kind, (*meld.cards[:j], card, *meld.cards[j + 1 :]), meld.low)
        case 2:
            other = MeldKind.RUN if meld.kind is MeldKind.SET else MeldKind.SET
            melds[i] = Meld(other, meld.cards, meld.low)
        case 3:
            melds[i] = Meld(meld.kind, meld.cards, meld.low + rng.choice([-2, -1, 1, 2, 20]))
        case 4:
            del melds[i]
        case _:
            order = list(meld.cards)
            rng.shuffle(order)
            melds[i] = Meld(meld.kind, tuple(order), meld.low)
    return GoDown(seat, tuple(melds))


def wrong_lay_off(state: GameState, listed: list[Action], rng: random.Random) -> Action | None:
    """A lay-off on another meld, at the other end, at no end, or on a meld that does not exist."""
    offs = [a for a in listed if isinstance(a, LayOff)]
    seat = state.current
    hand = _hand(state, seat)
    if offs and rng.random() < 0.7:
        action = rng.choice(offs)
        match rng.randrange(3):
            case 0:
                meld: int = rng.choice([i for i in range(len(state.melds)) if i != action.meld] or [-1])
                return dataclasses.replace(action, meld=meld)
            case 1:
                end: Any = {"low": "high", "high": "low", None: rng.choice(["low", "high"])}[action.end]
                return dataclasses.replace(action, end=end)
            case _:
                return dataclasses.replace(action, meld=rng.choice([-1, len(state.melds), 10**6]))
    if not hand:
        return None
    index = rng.randrange(-1, len(state.melds) + 2)
    return LayOff(seat, rng.choice(hand), index, rng.choice([None, "low", "high"]))


def wrong_swap(state: GameState, listed: list[Action], rng: random.Random) -> Action | None:
    """A joker swap with the wrong natural, a joker that is not there, or on another meld."""
    swaps = [a for a in listed if isinstance(a, SwapJoker)]
    seat = state.current
    hand = _hand(state, seat)
    if swaps and rng.random() < 0.7:
        action = rng.choice(swaps)
        match rng.randrange(3):
            case 0:
                return dataclasses.replace(action, card=rng.choice(hand) if hand else _any_card(state, rng))
            case 1:
                return dataclasses.replace(action, joker=_any_card(state, rng))
            case _:
                return dataclasses.replace(action, meld=rng.randrange(-1, len(state.melds) + 1))
    if not state.melds or not hand:
        return None
    meld = rng.randrange(len(state.melds))
    return SwapJoker(seat, rng.choice(hand), meld, rng.choice(state.melds[meld].meld.cards))


def out_of_phase(state: GameState, listed: list[Action], rng: random.Random) -> Action | None:
    """Any kind of action by any seat, whatever the phase: draws, buys, passes, ends, calls, chance."""
    seat = state.current if rng.random() < 0.5 else _some_seat(state, rng)
    hand = _hand(state, seat)
    card = rng.choice(hand) if hand and rng.random() < 0.7 else _any_card(state, rng)
    cards = list(shoe(state))
    rng.shuffle(cards)
    choices: list[Action] = [
        DrawStock(seat),
        DrawDiscard(seat),
        DrawDiscard(seat, rng.choice([0, -1, 2, 3, 7, 10**6])),
        Buy(seat),
        Pass(seat),
        EndTurn(seat),
        Call(seat),
        Call(seat, card),
        Discard(seat, card),
        Shuffle(tuple(cards), rng.randrange(-1, len(cards) + 2)),
        Shuffle((*cards[1:], cards[0], cards[0]), 0),
        Reshuffle(tuple(state.discard_pile[:-1]) if rng.random() < 0.5 else tuple(cards[:5])),
    ]
    return rng.choice(choices)


def wrong_type(state: GameState, listed: list[Action], rng: random.Random) -> Action | None:
    """An action with a field of the wrong type (as a careless caller could build): strings for cards
    or indexes, booleans for seats, ``None`` for melds."""
    seat = state.current
    junk: list[Any] = ["QS", "0", 1.5, True, None, [], (1,), {"x": 1}, 2**70, -(2**70)]
    bad: Any = rng.choice(junk)
    card = _any_card(state, rng)
    build: list[Callable[[], Any]] = [
        lambda: Discard(bad, card),
        lambda: Discard(seat, bad),
        lambda: DrawDiscard(seat, bad),
        lambda: LayOff(seat, card, bad, None),
        lambda: LayOff(seat, card, 0, bad),
        lambda: SwapJoker(seat, bad, 0, card),
        lambda: SwapJoker(seat, card, 0, bad),
        lambda: GoDown(seat, bad),
        lambda: GoDown(seat, (bad,)),
        lambda: Call(seat, bad),
        lambda: Shuffle(bad, 0),
        lambda: Shuffle(tuple(shoe(state)), bad),
        lambda: Reshuffle(bad),
        lambda: Buy(bad),
    ]
    action: Action = rng.choice(build)()
    return action


def _junk(state: GameState, rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(9 if depth < 3 else 6)
    if pick == 0:
        return rng.randint(-3, state.seats + 2)
    if pick == 1:
        return str(_any_card(state, rng))
    if pick == 2:
        return rng.choice(["", "XX", "JK#9", "1H", "low", "high", "set", "run", "QS#-1", "14S", "AS#99"])
    if pick == 3:
        return rng.choice([None, True, False, 1.0, 10**30])
    if pick == 4:
        return rng.choice(["low", "high", "middle"])
    if pick == 5:
        return rng.randint(0, max(0, len(state.melds)))
    if pick == 6:
        return [_junk(state, rng, depth + 1) for _ in range(rng.randrange(4))]
    if pick == 7:
        return {
            "kind": rng.choice(["set", "run", "pair"]),
            "cards": _cards_junk(state, rng),
            "low": _junk(state, rng, 3),
        }
    return {str(_junk(state, rng, 3)): _junk(state, rng, depth + 1)}


def _cards_junk(state: GameState, rng: random.Random) -> Any:
    hand = _hand(state, state.current)
    pool = hand if hand and rng.random() < 0.7 else list(shoe(state))
    cards: list[Any] = [str(rng.choice(pool)) for _ in range(rng.randrange(1, 6))]
    if rng.random() < 0.2:
        cards.append(rng.choice([3, None, "ZZ", ["QS"]]))
    return cards


_FIELDS = ("seat", "card", "meld", "end", "joker", "depth", "melds", "deck", "stock", "cut")


def random_dict(state: GameState, rng: random.Random) -> dict[str, Any]:
    """A random action dict, as a client could send it: a known or unknown type, the usual fields with
    plausible or junk values, some fields left out, some unknown ones added."""
    kind = rng.choice([*ACTION_TYPES, "draw", "", "DISCARD"]) if rng.random() < 0.95 else rng.randrange(3)
    data: dict[str, Any] = {"type": kind}
    seat = state.current if rng.random() < 0.6 else _junk(state, rng, 3)
    for name in _FIELDS:
        if rng.random() < 0.5:
            continue
        if name == "seat":
            data[name] = seat
        elif name in ("card", "joker"):
            data[name] = (
                str(rng.choice(_hand(state, state.current) or list(shoe(state))))
                if rng.random() < 0.7
                else _junk(state, rng, 2)
            )
        elif name == "melds":
            data[name] = (
                [
                    {"kind": rng.choice(["set", "run"]), "cards": _cards_junk(state, rng), "low": rng.randint(-1, 15)}
                    for _ in range(rng.randrange(1, 4))
                ]
                if rng.random() < 0.7
                else _junk(state, rng, 1)
            )
        elif name in ("deck", "stock"):
            data[name] = [str(c) for c in shoe(state)] if rng.random() < 0.3 else _cards_junk(state, rng)
        else:
            data[name] = _junk(state, rng, 2)
    if rng.random() < 0.1:
        data[str(_junk(state, rng, 3))] = _junk(state, rng, 2)
    return data


MUTATORS: dict[str, Mutator] = {
    "wrong_seat": wrong_seat,
    "not_in_hand": not_in_hand,
    "duplicated": duplicated,
    "mutated_go_down": mutated_go_down,
    "wrong_lay_off": wrong_lay_off,
    "wrong_swap": wrong_swap,
    "out_of_phase": out_of_phase,
    "wrong_type": wrong_type,
}


# -- the campaign -------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Game:
    seed: int
    preset: str
    seats: int
    game: int
    state: GameState
    rng: random.Random
    checker: random.Random
    step: int = 0

    def violation(self, action: object, problem: str) -> Violation:
        return Violation(self.seed, self.preset, self.seats, self.game, self.step, repr(action), problem)


def _new_game(seed: int, preset: str, seats: int, game: int) -> _Game:
    rng = random.Random(game_seed(seed, preset, seats, game))
    state = new_game(PRESETS[preset], seats, first_dealer=rng.randrange(seats))
    return _Game(seed, preset, seats, game, state, rng, random.Random(rng.getrandbits(64)))


def _after_step(game: _Game, action: object, tally: Tally) -> bool:
    """Check the cards and observations after a step; ``False`` (with the violation counted) when broken."""
    problem = card_problem(game.state)
    if problem is None and game.state.hands and not is_chance(game.state):
        problem = observation_problem(game.state)
    if problem is not None:
        tally.violations.append(game.violation(action, problem))
        return False
    return True


def _check_listed(game: _Game, listed: list[Action], tally: Tally) -> bool:
    """Every listed action is legal; one of them, played on a copy, is accepted and keeps every card."""
    state = game.state
    sample = listed if len(listed) <= 24 else game.checker.sample(listed, 24)
    for option in sample:
        if not is_legal(state, option):
            tally.violations.append(game.violation(option, "listed by legal_actions but is_legal refuses it"))
            return False
    option = game.checker.choice(listed)
    copy = state.clone()
    try:
        apply(copy, option)
    except Exception as exc:  # any exception here is the violation looked for
        tally.violations.append(game.violation(option, f"listed action refused: {exc!r}"))
        return False
    problem = card_problem(copy)
    if problem is not None:
        tally.violations.append(game.violation(option, f"after a listed action (on a copy): {problem}"))
        return False
    return True


def _try_illegal(game: _Game, listed: list[Action], tally: Tally) -> bool:
    """Try one illegal or mutated action; ``False`` when a promise broke."""
    rng = game.checker
    state = game.state
    if rng.random() < 0.2:
        kind = "codec"
        data = random_dict(state, rng)
        try:
            candidate: Any = action_from_dict(data)
        except ValueError:
            tally.codec_refused += 1
            tally.illegal_tried += 1
            tally.kinds[kind] += 1
            return True
        except Exception as exc:
            tally.violations.append(game.violation(data, f"action_from_dict raised {exc!r}, not ValueError"))
            return False
    else:
        kind = rng.choice(list(MUTATORS))
        candidate = MUTATORS[kind](state, listed, rng)
        if candidate is None:
            kind = "out_of_phase"
            candidate = out_of_phase(state, listed, rng)
    tally.illegal_tried += 1
    tally.kinds[kind] += 1
    before = snapshot(state)
    history = len(state.history)
    try:
        apply(state, candidate)
    except IllegalAction:
        tally.refused += 1
        if snapshot(state) != before or len(state.history) != history:
            tally.violations.append(game.violation(candidate, "a refused action changed the state"))
            return False
        return True
    except Exception as exc:
        detail = "".join(traceback.format_exception_only(exc)).strip()
        tally.violations.append(game.violation(candidate, f"raised {detail}, not IllegalAction"))
        return False
    if repr(candidate) in {repr(a) for a in listed}:  # (by repr: Buy(seat=True) == Buy(seat=1))
        tally.illegal_tried -= 1  # a mutation that landed on a listed action: the step was a legal one
        tally.legal += 1
    else:
        tally.accepted_unlisted += 1
        tally.kinds[f"{kind} accepted"] += 1
        example = repr(candidate)
        tally.accepted_examples.setdefault(kind, example if len(example) <= 160 else example[:157] + "...")
    return _after_step(game, candidate, tally)


def play_game(game: _Game, tally: Tally, budget: int, illegal_share: float, stop: bool) -> None:
    """Step ``game`` until it ends, ``budget`` steps are spent, or (with ``stop``) a violation is found."""
    state = game.state
    while not state.is_over and game.step < budget:
        game.step += 1
        tally.actions += 1
        if is_chance(state):
            if game.checker.random() < illegal_share:
                if not _try_illegal(game, [], tally) and stop:
                    return
                continue
            tally.chance += 1
            action: Action = chance_action(state, game.rng)
            apply(state, action)
            ok = _after_step(game, action, tally)
        else:
            listed = legal_actions(state)
            if not listed:
                tally.violations.append(game.violation(None, f"no legal action and no chance ({state.situation()})"))
                return
            ok = _check_listed(game, listed, tally)
            if ok and game.checker.random() < illegal_share:
                ok = _try_illegal(game, listed, tally)
            elif ok:
                action = choose_legal(state, listed, game.rng)
                try:
                    apply(state, action)
                except Exception as exc:
                    tally.violations.append(game.violation(action, f"chosen listed action refused: {exc!r}"))
                    return
                tally.legal += 1
                ok = _after_step(game, action, tally)
        if not ok and stop:
            return
    if state.is_over:
        tally.games_finished += 1


def campaign(
    actions: int,
    seed: int = 1,
    illegal_share: float = 0.5,
    game_steps: int | None = None,
    presets: list[str] | None = None,
    seats: int | None = None,
    only_game: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Tally:
    """Play games round the (preset, seats) cases until ``actions`` steps are spent; see the module doc.
    A game stops at its first violation (its state is no longer trusted); the campaign goes on. A game
    plays ``game_steps`` steps at most: by default an even share of ``actions`` over the cases (at least
    300, at most :data:`GAME_STEPS`), so that every case is played; a whole game takes some thousands."""
    tally = Tally()
    todo = cases(presets, seats)
    if not todo:
        raise ValueError("no preset and table size to fuzz")
    if game_steps is None:
        game_steps = min(GAME_STEPS, max(300, -(-actions // len(todo))))
    for preset, n, game in _schedule(todo, only_game):
        if tally.actions >= actions:
            break
        before = tally.actions
        tally.games += 1
        budget = min(game_steps, actions - tally.actions)
        play_game(_new_game(seed, preset, n, game), tally, budget, illegal_share, stop=True)
        if progress is not None:
            progress(tally.actions - before)
        if only_game is not None:
            break
    return tally


def _schedule(todo: list[tuple[str, int]], only_game: int | None) -> Iterator[tuple[str, int, int]]:
    if only_game is not None:
        for preset, n in todo:
            yield preset, n, only_game
        return
    game = 0
    while True:
        for preset, n in todo:
            yield preset, n, game
        game += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m liverpool.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=100_000, help="steps to play in all (default 100000)")
    parser.add_argument("--seed", type=int, default=1, help="the campaign's seed (default 1)")
    parser.add_argument("--illegal", type=float, default=0.5, help="share of steps that try an illegal action")
    parser.add_argument("--game-steps", type=int, help="steps at most per game (default: an even share)")
    parser.add_argument("--preset", action="append", choices=list(PRESETS), help="only this preset (repeatable)")
    parser.add_argument("--seats", type=int, help="only this table size")
    parser.add_argument("--game", type=int, help="only this game number of each case (to reproduce a violation)")
    args = parser.parse_args(argv)

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    started = time.perf_counter()
    columns = (TextColumn("fuzzing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task("fuzz", total=args.actions)
        tally = campaign(
            args.actions,
            seed=args.seed,
            illegal_share=args.illegal,
            game_steps=args.game_steps,
            presets=args.preset,
            seats=args.seats,
            only_game=args.game,
            progress=lambda done: bar.advance(task, done),
        )
    seconds = time.perf_counter() - started
    compiled = "compiled" if is_compiled() else "pure"
    print(
        f"{tally.actions} actions ({tally.legal} legal, {tally.chance} chance, {tally.illegal_tried} illegal or "
        f"mutated tried: {tally.refused} refused by the engine, {tally.codec_refused} by the codec, "
        f"{tally.accepted_unlisted} accepted though unlisted) in {tally.games} games "
        f"({tally.games_finished} finished), {len(cases(args.preset, args.seats))} cases, "
        f"{seconds:.1f} s, {compiled} build, seed {args.seed}: {len(tally.violations)} violations"
    )
    for kind, count in sorted(tally.kinds.items()):
        print(f"  {kind}: {count}")
    for kind, example in sorted(tally.accepted_examples.items()):
        print(f"  accepted though unlisted ({kind}), e.g. {example}")
    for violation in tally.violations:
        print(f"VIOLATION {violation}")
    return 1 if tally.violations else 0


if __name__ == "__main__":
    sys.exit(main())
