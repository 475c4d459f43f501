"""``medium``: the greedy skeleton of :mod:`.easy` with card counting and tuned weights.

What it adds to ``easy``:

* it counts the cards it has seen (its hand, the discard pile, the melds, cards others took face up)
  against the shoe, so its plans prefer partial melds whose missing cards are still out;
* a buy is weighed: the cards of need it saves against the expected penalty of the extra cards, more
  so when opponents are down (the deal may end soon);
* a discard is scored: how much the hand needs the card, minus its penalty points, plus how much it
  would feed an opponent (a card they could lay off, or one matching what they picked up);
* it goes down with the arrangement that leaves the least penalty it cannot lay off at once, may swap a
  joker first when that leaves less, and holds jokers until it is down;
* with an optional discard (``norsk``) it ends the turn without discarding when every card is worth
  keeping.

The weights live in :class:`Weights`; ``liverpool.bots.tune`` picks them from seeded games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from liverpool.engine import (
    Action,
    Card,
    Discard,
    EmptyHand,
    GoDown,
    MeldKind,
    Observation,
    SwapJoker,
    best_leftover,
    table_lay_off_index,
)

from .easy import Choice, EasyBot, near_hand, unused_cards, without
from .options import Options
from .plan import Plan
from .style import Style
from .table import contract_ends_deal, is_final_deal, live_counts, me, plan_of, unseen_value, whole_hand


@dataclass(frozen=True, slots=True)
class Weights:
    """The knobs of ``medium``, in points-like units (a card's penalty counts ``value`` per point).

    Discarding (lower score: shed first): a card the plan uses is kept with ``used``, a joker with
    ``joker``, another natural with ``pair`` per card of its rank and ``neighbour`` per card of its suit
    within two ranks; once down, ``near_table`` keeps a card one card away from fitting a run on the
    table. A card's penalty weighs ``value`` per point, plus ``value_down`` per point times the share of
    opponents who are down (0 in ``medium``: a lever for ``liverpool.bots.tune``). Feeding:
    ``feed_table`` for a card an opponent who is down could lay off, ``feed_known`` for one matching what
    an opponent took face up. Drawing: the plan's score is its need, plus ``dead`` per
    partial that can no longer be completed, less ``outs`` per unseen card that would fill it; a discard
    is taken when the score improves by ``take_margin``. Buying: when the score improves by ``buy_margin``
    and ``buy_gain`` times the improvement beats the expected penalty of the extra cards, raised by
    ``buy_risk`` as opponents go down. Going
    down waits while ``wait_left`` cards or more would be stuck in hand and nobody else is down; with an
    optional discard, the turn ends without one when the best discard scores above ``hold``.
    """

    value: float = 1.0
    used: float = 14.0
    joker: float = 40.0
    pair: float = 4.0
    neighbour: float = 3.0
    near_table: float = 3.0
    feed_table: float = 12.0
    feed_known: float = 2.0
    dead: float = 0.5
    outs: float = 0.05
    take_margin: float = 0.5
    buy_gain: float = 12.0
    buy_margin: float = 0.5
    buy_risk: float = 0.0
    wait_left: float = 99.0
    hold: float = 8.0
    value_down: float = 0.0


def styled(weights: Weights, style: Style) -> Weights:
    """``weights`` as a style plays them: ``balanced`` as they are; ``aggressive`` buys on half the margin
    and weighs a buy's gain half as much again; ``cautious`` wants twice the margin, weighs the gain at
    two thirds, fears the penalty more as opponents go down, and waits to go down while four cards or
    more would be stuck in hand and nobody else is down."""
    if style is Style.AGGRESSIVE:
        return replace(weights, buy_margin=weights.buy_margin / 2, buy_gain=weights.buy_gain * 1.5)
    if style is Style.CAUTIOUS:
        return replace(
            weights,
            buy_margin=weights.buy_margin * 2,
            buy_gain=weights.buy_gain * 2 / 3,
            buy_risk=weights.buy_risk + 1.0,
            wait_left=min(weights.wait_left, 4.0),
        )
    return weights


class MediumBot(EasyBot):
    """The tuned heuristic bot (see the module docstring)."""

    def __init__(self, weights: Weights | None = None, counting: bool = True, style: Style = Style.BALANCED) -> None:
        super().__init__(style)
        self.weights = styled(weights if weights is not None else Weights(), style)
        self.counting = counting
        self._deciding: Observation | None = None
        self._live: list[int] | None = None
        self._plans: dict[tuple[int | None, ...], Plan] = {}

    def prefer(self, observation: Observation, options: Sequence[Action]) -> list[Choice]:
        self._deciding = observation
        try:
            return super().prefer(observation, options)
        finally:
            self._deciding = self._live = None
            self._plans.clear()

    def live(self, observation: Observation) -> list[int]:
        """Unseen copies of each face (computed once per decision)."""
        if observation is not self._deciding:
            return live_counts(observation)
        if self._live is None:
            self._live = live_counts(observation)
        return self._live

    def plan(self, observation: Observation, hand: Sequence[Card], size: int | None = None) -> Plan:
        if not self.counting:
            return plan_of(observation, hand, None, size)
        if observation is not self._deciding:
            return plan_of(observation, hand, self.live(observation), size)
        key = (size, *sorted(c.face for c in hand))
        found = self._plans.get(key)
        if found is None:
            found = self._plans[key] = plan_of(observation, hand, self.live(observation), size)
        return found

    def plan_score(self, observation: Observation, hand: Sequence[Card], size: int | None = None) -> float:
        return self.score(self.plan(observation, hand, size))

    def plan_need(self, observation: Observation, hand: Sequence[Card], size: int | None = None) -> int:
        return self.plan(observation, hand, size).need

    def score(self, plan: Plan) -> float:
        """Need, plus dead partials, less live cards that would complete the plan (weighted)."""
        w = self.weights
        return plan.need + w.dead * plan.dead - w.outs * plan.outs

    def helps(self, observation: Observation, card: Card) -> bool:
        return self.gain(observation, card) >= self.weights.take_margin

    # -- buying -----------------------------------------------------------------------------------

    def wants_buy(self, observation: Observation) -> bool:
        top = observation.top_discard
        if top is None or self.is_down(observation):
            return False
        w = self.weights
        gain = self.gain(observation, top, observation.rules.buy_penalty_cards)
        if gain < w.buy_margin:
            return self.style is Style.AGGRESSIVE and gain >= 0 and near_hand(observation.hand, top)
        seat = me(observation)
        others = [s for s in observation.seats if s.seat != seat]
        danger = sum(s.down for s in others) / max(1, len(others))
        penalty = observation.rules.buy_penalty_cards * unseen_value(observation, self.live(observation))
        if w.buy_gain * gain > penalty * (1 + w.buy_risk * 4 * danger):
            return True
        return self.style is Style.AGGRESSIVE and near_hand(observation.hand, top)

    # -- going down -------------------------------------------------------------------------------

    def rank_go_downs(self, observation: Observation, go_downs: list[GoDown]) -> list[Choice]:
        """The arrangement that leaves the least penalty it could not lay off at once, first."""
        ranked: list[Choice] = [*sorted(go_downs, key=lambda g: self._stuck_after(observation, g))]
        return ranked

    def _stuck_after(self, observation: Observation, go_down: GoDown) -> int:
        return sum(observation.rules.value(c) for c in self._stuck(observation, go_down))

    def go_down_now(self, observation: Observation, best: Choice) -> bool:
        """Go down, unless many cards would be stuck in hand while nobody else is down yet."""
        return self.waits_less_than(observation, best, self.weights.wait_left)

    def swap_to_go_down(self, observation: Observation, g: Options) -> SwapJoker | None:
        if self.is_down(observation) or not g.swaps:
            return None
        if not g.go_downs:
            return super().swap_to_go_down(observation, g)
        if is_final_deal(observation) or contract_ends_deal(observation):
            return None
        rules = observation.rules
        keep = 1 if rules.empty_hand is EmptyHand.MUST_DISCARD else 0
        now = self._stuck_after(observation, g.go_downs[0])
        best: tuple[int, SwapJoker] | None = None
        for swap in g.swaps:
            hand = [*without(observation.hand, swap.card), swap.joker]
            left = best_leftover(hand, observation.contract, rules, keep=keep, must_include=swap.joker)
            if left is not None and left < now and (best is None or left < best[0]):
                best = (left, swap)
        return None if best is None else best[1]

    # -- discarding -------------------------------------------------------------------------------

    def rank_discards(self, observation: Observation, g: Options) -> list[Choice]:
        ranked = super().rank_discards(observation, g)
        first = ranked[0] if ranked else None
        if not g.end_turns or not isinstance(first, Discard) or self.is_down(observation):
            return ranked
        if self.shed_scores(observation, [first.card])[first.card] > self.weights.hold:
            return [*g.end_turns, *ranked]
        return ranked

    def rank_cards_to_shed(self, observation: Observation, cards: list[Card]) -> list[Card]:
        scores = self.shed_scores(observation, cards)
        return sorted(cards, key=lambda c: (scores[c], -observation.rules.value(c)))

    def shed_scores(self, observation: Observation, cards: list[Card]) -> dict[Card, float]:
        """How bad giving up each card is (lower: shed it first)."""
        w = self.weights
        rules = observation.rules
        hand = observation.hand
        down = self.is_down(observation)
        unused = set() if down else unused_cards(hand, self.plan(observation, hand, len(hand)))
        whole = whole_hand(observation)
        plain = down or whole
        feed = _no_feeding if whole else feeding(observation, down, w)
        faces = [c & 63 for c in hand if not c.is_joker]
        live = self.live(observation)
        kinds = {r.kind for r in observation.contract}
        per_point = w.value
        if w.value_down:
            seat = me(observation)
            others = [s for s in observation.seats if s.seat != seat]
            per_point += w.value_down * sum(s.down for s in others) / max(1, len(others))
        out: dict[Card, float] = {}
        for card in cards:
            if down:
                keep = w.near_table * near_table(observation, card)
            elif card.is_joker:
                keep = w.joker
            elif card not in unused:
                keep = w.used
            else:
                keep = 0.0 if plain else potential(card & 63, faces, live, kinds, w)
            out[card] = keep - per_point * rules.value(card) + feed(card)
        return out


def potential(face: int, faces: list[int], live: Sequence[int], kinds: set[MeldKind], w: Weights) -> float:
    """Keeping an unplanned natural: other cards of its rank toward sets (less if none is still out),
    cards of its suit within two ranks toward runs."""
    rank, suit = face % 13, face // 13
    score = 0.0
    if MeldKind.SET in kinds:
        same = sum(1 for f in faces if f % 13 == rank) - 1
        rank_live = sum(live[s * 13 + rank] for s in range(4))
        score += w.pair * min(same, 2) * (1.0 if rank_live else 0.3)
    if MeldKind.RUN in kinds:
        near = sum(1 for f in faces if f // 13 == suit and 0 < _gap(f % 13 + 1, rank + 1) <= 2)
        score += w.neighbour * min(near, 3)
    return score


def near_table(observation: Observation, card: Card) -> int:
    """1 when one more card would make ``card`` fit a run on the table."""
    if card.is_joker:
        return 0
    rank, suit = card.rank, card.suit
    for tm in observation.melds:
        m = tm.meld
        if m.kind is MeldKind.RUN and m.suit == suit and rank in (m.low - 2, m.high + 2):
            return 1
    return 0


def feeding(observation: Observation, down: bool, w: Weights) -> Callable[[Card], float]:
    """How much discarding a card would help an opponent: one that is down laying it off (the next seat
    most, as it may take it for free; a Liverpool call when the discarder is down too), or one that is
    not down collecting it (the cards it took face up show what it collects: same rank, or same suit
    within two ranks)."""
    seat = me(observation)
    nxt = (seat + 1) % observation.seat_count
    opponents = [s for s in observation.seats if s.seat != seat]
    table = 0.0
    if any(s.down for s in opponents):
        table = w.feed_table * (1.0 if observation.seats[nxt].down else 0.3) + (w.feed_table if down else 0.0)
    collected = [[(k.rank, k.suit) for k in s.known if not k.is_joker] for s in opponents if not s.down]
    factors = [w.feed_known * (1.0 if s.seat == nxt else 0.5) for s in opponents if not s.down]
    fits = table_lay_off_index(observation.melds, observation.rules) if table else {}
    return _Feeding(table, collected, factors, fits)


class _Feeding:
    """What :func:`feeding` returns: a card's feeding score, kept per face. An object, not a closure: compiled,
    a closure returned from its function is a reference cycle (the function's frame holds the closure, the
    closure its frame) that only the garbage collector frees, and the server's collections then traverse it
    (docs/performance.md, "Session 50")."""

    def __init__(
        self, table: float, collected: list[list[tuple[int, str]]], factors: list[float], fits: Mapping[int, object]
    ) -> None:
        self.table = table
        self.collected = collected
        self.factors = factors
        self.fits = fits
        self.cache: dict[int, float] = {}

    def __call__(self, card: Card) -> float:
        face = card & 63
        cache = self.cache
        if face in cache:
            return cache[face]
        score = self.table if face in self.fits else 0.0
        factors = self.factors
        if card.is_joker:
            score += max(factors, default=0.0)
        else:
            rank, suit = card.rank, card.suit
            for known, factor in zip(self.collected, factors, strict=True):
                if any(r == rank or (s == suit and _gap(r, rank) <= 2) for r, s in known):
                    score += factor
        cache[face] = score
        return score


def _no_feeding(card: Card) -> float:
    return 0.0


def _gap(a: int, b: int) -> int:
    """Distance between two ranks, the ace counting low or high."""
    d = abs(a - b)
    if a == 1 or b == 1:
        d = min(d, abs((14 if a == 1 else a) - (14 if b == 1 else b)))
    return d
