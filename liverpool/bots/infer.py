"""Inference about hidden cards from what each seat did with the discard pile (issue 29, item 3).

A seat that discards the 7♥ is unlikely to hold other sevens or the 6♥ and 8♥ it would have kept it for; a
seat that draws from the stock rather than take a fresh 7♥ likewise; a seat that takes or buys it likely
holds its neighbours. The observation shows every such move (``Observation.pile_log``); this module turns
them into odds that a hidden card sits in an opponent's hand rather than in the stock, and samples worlds
(:mod:`.worlds`) by those odds instead of uniformly.

**The model.** For an unseen card ``c`` and an opponent ``o``, each distinct *feature* (what ``o`` did:
``discarded``, ``declined``, ``took`` or ``bought`` a card, and how that card relates to ``c``: the same
face, the same rank, the same suit one or two ranks apart, the ace next to the two and the king) multiplies
the odds that ``c`` is in ``o``'s hidden hand by the feature's factor in :data:`FACTORS` (naive Bayes: the
features are taken as independent). The factors are not guessed: they are how often, in games of ``medium``
bots at every seat, a card with that feature really was in that hand, against how often a card would be by
the hand's share of the unseen cards alone (:func:`calibrate`; ``python -m liverpool.bots.infer
--calibrate`` measures them again). They are therefore the likelihood of what each seat did under the
``medium`` policy, the policy ``hard`` assumes its opponents play in its rollouts.

**Sampling.** :func:`inferred_world` deals the unseen cards one at a time, in random order, each to a
place with probability proportional to the room left there times the card's odds for that place (the
stock's odds are 1). The worlds keep every count the observation fixes (hands, stock), like
:func:`~.worlds.sample_world`, and depend only on the observation and the random source.

**Accuracy** (:func:`accuracy`): the mean probability the model gives each hidden card's true place, against
the share a uniform deal gives it, over positions of held-out games (``--report``).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from liverpool.engine import Card, GameState, Observation, PileMove, find_preset, new_game, observe, step

from .table import me
from .worlds import dealt_world, hidden_places, hidden_slots, unseen_cards

SAME, RANK, NEAR1, NEAR2 = "same", "rank", "near1", "near2"
RELATIONS = (SAME, RANK, NEAR1, NEAR2)
Feature = tuple[PileMove, str]

# Measured by ``python -m liverpool.bots.infer --calibrate --preset liverpool --deals 140 --seed 1`` (medium
# bots at four seats, 140 deals; docs/bots.md, "Inference"). Above 1: the card is more likely in that hand.
FACTORS: dict[Feature, float] = {
    (PileMove.BOUGHT, NEAR1): 1.392,
    (PileMove.BOUGHT, NEAR2): 1.059,
    (PileMove.BOUGHT, RANK): 0.921,
    (PileMove.BOUGHT, SAME): 0.619,
    (PileMove.DECLINED, NEAR1): 0.691,
    (PileMove.DECLINED, NEAR2): 0.815,
    (PileMove.DECLINED, RANK): 0.766,
    (PileMove.DECLINED, SAME): 0.781,
    (PileMove.DISCARDED, NEAR1): 0.548,
    (PileMove.DISCARDED, NEAR2): 0.649,
    (PileMove.DISCARDED, RANK): 0.645,
    (PileMove.DISCARDED, SAME): 0.606,
    (PileMove.TOOK, NEAR1): 1.888,
    (PileMove.TOOK, NEAR2): 1.505,
    (PileMove.TOOK, RANK): 1.023,
    (PileMove.TOOK, SAME): 0.564,
}


def relation(hidden: Card, seen: Card) -> str | None:
    """How ``hidden`` relates to a card a seat moved (None: not at all, or a joker)."""
    if hidden.is_joker or seen.is_joker:
        return None
    if hidden.face == seen.face:
        return SAME
    if hidden.rank == seen.rank:
        return RANK
    if hidden.suit == seen.suit:
        gap = abs(hidden.rank - seen.rank)
        gap = min(gap, 13 - gap)  # the ace is next to the two and to the king
        if gap == 1:
            return NEAR1
        if gap == 2:
            return NEAR2
    return None


def features(hidden: Card, moves: Sequence[tuple[PileMove, Card]]) -> set[Feature]:
    """The distinct features of ``hidden`` for one seat's moves."""
    out: set[Feature] = set()
    for kind, card in moves:
        found = relation(hidden, card)
        if found is not None:
            out.add((kind, found))
    return out


def moves_by_seat(observation: Observation) -> list[list[tuple[PileMove, Card]]]:
    """Each seat's pile moves this deal, in order."""
    out: list[list[tuple[PileMove, Card]]] = [[] for _ in range(observation.seat_count)]
    for seat, kind, card in observation.pile_log:
        out[seat].append((kind, card))
    return out


def odds(
    observation: Observation, cards: Sequence[Card], factors: dict[Feature, float] | None = None
) -> list[list[float]]:
    """``odds[s][i]``: how much likelier than by room alone ``cards[i]`` is in seat ``s``'s hidden hand (1.0
    for the viewer, whose hand is known, and for a card no move of ``s`` bears on)."""
    table = FACTORS if factors is None else factors
    viewer = me(observation)
    moves = moves_by_seat(observation)
    out: list[list[float]] = []
    for seat in range(observation.seat_count):
        row = [1.0] * len(cards)
        if seat != viewer and moves[seat]:
            for i, card in enumerate(cards):
                for feature in features(card, moves[seat]):
                    row[i] *= table.get(feature, 1.0)
        out.append(row)
    return out


def place_probabilities(
    observation: Observation, factors: dict[Feature, float] | None = None
) -> tuple[list[Card], list[list[float]]]:
    """The unseen cards and, for each, the probability of each place: ``probs[i][s]`` for seat ``s``'s
    hidden hand (0 for the viewer), ``probs[i][-1]`` for the stock."""
    cards = unseen_cards(observation)
    slots = hidden_slots(observation)
    table = odds(observation, cards, factors)
    probs: list[list[float]] = []
    for i in range(len(cards)):
        weights = [slots[s] * table[s][i] for s in range(observation.seat_count)]
        weights.append(float(observation.stock_size))
        total = sum(weights) or 1.0
        probs.append([w / total for w in weights])
    return cards, probs


def inferred_world(observation: Observation, rng: random.Random) -> GameState:
    """A game state ``observation`` allows, its hidden cards dealt by the inferred odds (module docstring)."""
    cards, slots = hidden_places(observation)
    table = odds(observation, cards)
    seats = observation.seat_count
    room = [*slots, observation.stock_size]
    dealt: list[list[Card]] = [[] for _ in range(seats + 1)]
    order = list(range(len(cards)))
    rng.shuffle(order)
    for i in order:
        weights = [room[s] * table[s][i] for s in range(seats)]
        weights.append(float(room[seats]))
        pick = rng.random() * sum(weights)
        place = 0
        while place < seats and pick >= weights[place]:
            pick -= weights[place]
            place += 1
        if room[place] == 0:  # (rounding at the far end: the last place with room)
            place = max(p for p in range(seats + 1) if room[p] > 0)
        room[place] -= 1
        dealt[place].append(cards[i])
    return dealt_world(observation, dealt[:seats], dealt[seats])


# -- measuring -----------------------------------------------------------------------------------------


@dataclass
class Moment:
    """One seat's observation during a game, with where each unseen card really was."""

    observation: Observation
    places: dict[Card, int]  # seat, or -1 for the stock


def moments(preset: str, seats: int, deals: int, seed: int, every: int = 3) -> Iterable[Moment]:
    """Observations of games of ``medium`` bots (every ``every``-th step, of the seat whose turn it is), for
    ``deals`` deals from ``seed``, with the true place of every card each viewer cannot see."""
    from .registry import make_bot

    rules = find_preset(preset)
    rng = random.Random(seed)
    played = 0
    while played < deals:
        state = new_game(rules, seats, rng.randrange(seats))
        agents = [make_bot("medium") for _ in range(seats)]
        deal = state.deal
        steps = 0
        while not state.is_over and played < deals:
            step(state, agents, rng)
            steps += 1
            if state.deal != deal:
                deal = state.deal
                played += 1
                continue
            if steps % every or not state.hands or not state.pile_log:
                continue
            viewer = state.current
            observation = observe(state, viewer)
            if not observation.hand:
                continue
            places: dict[Card, int] = {c: -1 for c in state.stock}
            for seat in range(seats):
                if seat != viewer:
                    for card in state.hands[seat]:
                        if card not in state.known[seat]:
                            places[card] = seat
            yield Moment(observation, places)


def calibrate(samples: Iterable[Moment]) -> dict[Feature, float]:
    """Each feature's factor: cards with it found in the hand, over the cards the hand's room alone would
    put there, relative to the same ratio for cards with no feature."""
    found: dict[Feature | None, float] = {}
    expected: dict[Feature | None, float] = {}
    for moment in samples:
        obs = moment.observation
        cards = unseen_cards(obs)
        slots = hidden_slots(obs)
        moves = moves_by_seat(obs)
        total = len(cards)
        for seat in range(obs.seat_count):
            if seat == obs.viewer or not slots[seat]:
                continue
            share = slots[seat] / total
            for card in cards:
                here = 1.0 if moment.places.get(card) == seat else 0.0
                keys: Iterable[Feature | None] = features(card, moves[seat]) or [None]
                for key in keys:
                    found[key] = found.get(key, 0.0) + here
                    expected[key] = expected.get(key, 0.0) + share
    base = found.get(None, 0.0) / max(expected.get(None, 0.0), 1e-9) or 1.0
    return {
        key: round(found[key] / expected[key] / base, 3)
        for key in sorted(k for k in found if k is not None)
        if expected[key] >= 20  # (too rare to measure: left at 1)
    }


def accuracy(
    samples: Iterable[Moment], factors: dict[Feature, float] | None = None
) -> dict[str, tuple[int, float, float]]:
    """Per stage of the deal (by the pile log's length), the mean probability given to each unseen card's
    true place by the model and by a uniform deal: ``{stage: (cards, model, uniform)}``."""
    stages = ((0, 10, "1-10 moves"), (11, 25, "11-25 moves"), (26, 10_000, "26+ moves"))
    sums: dict[str, list[float]] = {name: [0, 0.0, 0.0] for *_, name in stages}
    for moment in samples:
        obs = moment.observation
        cards, probs = place_probabilities(obs, factors)
        slots = hidden_slots(obs)
        total = len(cards)
        name = next(n for low, high, n in stages if low <= len(obs.pile_log) <= high)
        for card, row in zip(cards, probs, strict=True):
            place = moment.places[card]
            uniform = (obs.stock_size if place == -1 else slots[place]) / total
            sums[name][0] += 1
            sums[name][1] += row[place]
            sums[name][2] += uniform
    return {name: (int(n), m / n if n else 0.0, u / n if n else 0.0) for name, (n, m, u) in sums.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m liverpool.bots.infer", description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="liverpool")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--deals", type=int, default=40, help="deals of medium bots to measure on")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--calibrate", action="store_true", help="measure the factors (else: report accuracy)")
    args = parser.parse_args(argv)
    samples = moments(args.preset, args.seats, args.deals, args.seed)
    if args.calibrate:
        for (kind, rel), factor in calibrate(samples).items():
            print(f"    (PileMove.{kind.name}, {rel.upper()}): {factor},")
        return 0
    print(f"{args.preset}, {args.seats} seats, {args.deals} deals of medium bots from seed {args.seed}")
    print("stage of the deal | unseen cards | model | uniform | model / uniform")
    for name, (n, model, uniform) in accuracy(samples).items():
        ratio = model / uniform if uniform else 0.0
        print(f"{name} | {n} | {model:.4f} | {uniform:.4f} | {ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
