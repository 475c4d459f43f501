"""What bots read off an observation: lay-off spots, cards seen and still out, and the deal's contract mode.

Everything here is a function of an :class:`~liverpool.engine.observe.Observation` (or of public table
melds), never of a game state, so a bot built on it cannot see hidden cards.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Final

from liverpool.engine import (
    JOKER_FACE,
    Card,
    DealOut,
    EmptyHand,
    MeldKind,
    MeldRule,
    Observation,
    Ruleset,
    TableMeld,
    table_fits,
)

from .plan import FACES, HeldNeed, Plan, need_memos, plan_hand, plan_need
from .plan import plan_memo as plan_memo
from .plan_whole import plan_whole_runs, ranks_held, runs_lengths, runs_need, runs_need_held, runs_use


def me(observation: Observation) -> int:
    """The viewing seat (bots always have one)."""
    if observation.viewer is None:
        raise ValueError("bots play from a seat's observation, not the public view")
    return observation.viewer


def fits_table(melds: Sequence[TableMeld], card: Card, rules: Ruleset) -> bool:
    """Whether ``card`` can be laid off somewhere on the table."""
    return bool(table_fits(melds, rules) >> (card & 63) & 1)


_VALUES: Final[dict[int, tuple[Ruleset, list[int]]]] = {}


def face_values(rules: Ruleset) -> list[int]:
    """``rules.value(face)`` of each face, jokers at ``JOKER_FACE`` (kept per ruleset, by identity)."""
    found = _VALUES.get(id(rules))
    if found is not None and found[0] is rules:
        return found[1]
    values = [rules.value(face) for face in range(FACES)]
    if len(_VALUES) >= 256:
        _VALUES.clear()
    _VALUES[id(rules)] = (rules, values)  # holding the ruleset keeps its id from being reused
    return values


def shoe_counts(observation: Observation) -> list[int]:
    """Copies of each face in the shoe of this table."""
    deck = observation.rules.deck_for(observation.seat_count)
    return [deck.decks] * JOKER_FACE + [deck.jokers]


def seen_counts(observation: Observation) -> list[int]:
    """Copies of each face this seat can see: its hand, the discard pile, the melds and others' known cards."""
    counts = [0] * FACES
    for card in observation.hand:
        counts[card & 63] += 1
    for card in observation.discard_pile:
        counts[card & 63] += 1
    for tm in observation.melds:
        for card in tm.meld.cards:
            counts[card & 63] += 1
    viewer = observation.viewer
    for seat in observation.seats:
        if seat.seat != viewer:
            for card in seat.known:
                counts[card & 63] += 1
    return counts


def live_counts(observation: Observation) -> list[int]:
    """Copies of each face still unseen by this seat (in the stock or in hidden hands)."""
    seen = seen_counts(observation)
    shoe = shoe_counts(observation)
    return [s - n if n < s else 0 for s, n in zip(shoe, seen, strict=True)]


def is_final_deal(observation: Observation) -> bool:
    return observation.deal >= len(observation.rules.deals) - 1


def whole_hand(observation: Observation) -> bool:
    """This deal's contract must use the whole hand (the final deal of may-i, liverpool, norsk)."""
    return _DEAL.of(observation).whole


def whole_runs(observation: Observation) -> bool:
    """This deal's contract is of runs only and must use the whole hand (see :mod:`.plan_whole`)."""
    at = _DEAL.of(observation)
    return at.whole and at.runs


def whole_runs_use_of(observation: Observation, hand: Sequence[int], size: int | None = None) -> tuple[int, list[int]]:
    """``whole_runs_use(hand, observation.contract, observation.rules, size)`` in a deal where
    :func:`whole_runs` holds (the contract's lengths read once a deal)."""
    at = _DEAL.of(observation)
    return runs_use(hand, len(observation.contract), at.least, at.shortest, observation.rules, size)


def _whole_hand(observation: Observation) -> bool:
    return observation.rules.deal_out(observation.deal) is DealOut.WHOLE_HAND


def contract_ends_deal(observation: Observation) -> bool:
    """Going down with this deal's contract goes out (its out is whole_hand or goes_out)."""
    return observation.rules.deal_out(observation.deal) is not DealOut.NORMAL


class _Deal:
    """What :func:`plan_of` and :func:`need_of` read off an observation besides the hand (whether the deal
    is whole-hand, and the memos of its contract), kept for the last contract, ruleset and deal asked
    about: a decision asks several times, and so do the seats after it, about the same deal."""

    __slots__ = ("contract", "deal", "least", "needs", "plans", "rules", "runs", "shortest", "whole")

    def __init__(self) -> None:
        self.runs = False  # a contract of runs only, asking for ``least`` cards in all, ``shortest`` at least per run
        self.least = self.shortest = 0
        self.contract: tuple[MeldRule, ...] | None = None
        self.rules: Ruleset | None = None
        self.deal = -1
        self.whole = False
        self.plans: dict[Hashable, Plan] = {}
        self.needs: dict[Hashable, int] = {}

    def of(self, observation: Observation) -> _Deal:
        """This, brought up to ``observation``'s deal."""
        contract, rules, deal = observation.contract, observation.rules, observation.deal
        if contract is not self.contract or rules is not self.rules or deal != self.deal:
            self.plans, self.needs = need_memos(contract, rules)
            self.whole = _whole_hand(observation)
            self.runs = bool(contract) and all(rule.kind is MeldKind.RUN for rule in contract)
            if self.runs:
                self.least, self.shortest = runs_lengths(contract)
            # kept only for a contract tuple: a set-up (and so its memos) is kept only for those
            self.contract = contract if type(contract) is tuple else None
            self.rules, self.deal = rules, deal
        return self


_DEAL: Final = _Deal()


def plan_of(
    observation: Observation, hand: Sequence[int], live: Sequence[int] | None = None, size: int | None = None
) -> Plan:
    """The plan of ``hand`` for this deal's contract. In a whole-hand deal, ``size`` is how many cards the
    runs must hold (the hand at rest plus the next draw by default; see :mod:`.plan_whole`)."""
    if live is not None:
        return _plan(hand, observation.contract, observation.rules, whole_hand(observation), size, live)
    at = _DEAL.of(observation)
    whole = at.whole
    faces = [c & 63 for c in hand]
    faces.sort()
    memo = at.plans
    key = _key(whole, size, faces)
    found = memo.get(key)
    if found is None:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        found = memo[key] = _plan(faces, observation.contract, observation.rules, whole, size, None)
    return found


MEMO_SIZE: Final = 65536
UNSET: Final = 1 << 30  # no bound on a need (see :func:`_need`)


def _key(whole: bool, size: int | None, faces: list[int]) -> Hashable:
    """The memo key of a hand's sorted ``faces`` (``size`` only counts in whole-hand deals): the faces as
    bytes (not tracked by the garbage collector, and hashed once), then in a whole-hand deal a byte of 64
    and up for the size (faces are below 64)."""
    if not whole:
        return bytes(faces)
    if size is None:
        return bytes([*faces, 255])
    if 0 <= size < 191:
        return bytes([*faces, 64 + size])
    return (size, tuple(faces))


def need_of(observation: Observation, hand: Sequence[int], size: int | None = None) -> int:
    """``plan_of(observation, hand, size=size).need``, without building the plan when it is not kept."""
    return _need(observation, sorted_faces(hand), size)


def sorted_faces(hand: Sequence[int]) -> list[int]:
    """The faces of ``hand``, sorted. (Its cards are read as ints: compiled, ``card & 63`` of a
    :class:`~liverpool.engine.cards.Card` is a generic operation.)"""
    faces = [c & 63 for c in hand]
    faces.sort()
    return faces


def _need(observation: Observation, faces: list[int], size: int | None, below: int = UNSET) -> int:
    """:func:`need_of` of a hand's sorted ``faces``; with ``below``, outside whole-hand deals, a need not
    under ``below`` may be given as ``below`` (see :func:`.plan.plan_need`; only needs found are kept)."""
    at = _DEAL.of(observation)
    whole = at.whole
    key = _key(whole, size, faces)
    memo = at.needs
    found = memo.get(key)
    if found is None:
        plan = at.plans.get(key)
        if plan is not None:
            return plan.need
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        contract, rules = observation.contract, observation.rules
        if not whole:
            found = plan_need(faces, contract, rules, below=below)
            if found >= below:  # a bound, not the need
                return found
        elif at.runs:
            found = runs_need(faces, len(contract), at.least, at.shortest, rules, size)
        else:
            found = plan_hand(faces, contract, rules, whole_hand=True).need
        memo[key] = found
    return found


class HandNeeds:
    """One seat's hand at rest and its need, kept while the hand and the deal are unchanged: between two
    of its turns a seat is asked at every buy window how the card offered would change its need, with
    the same hand (:meth:`need` and :meth:`need_with` give what :func:`need_of` gives)."""

    __slots__ = ("below", "contract", "deal", "faces", "hand", "held", "jokers", "now", "ranks", "rules", "withs")

    def __init__(self) -> None:
        self.hand: tuple[Card, ...] = ()
        self.held: HeldNeed | None = None  # outside whole-hand deals, the hand's candidates
        self.contract: tuple[MeldRule, ...] | None = None
        self.rules: Ruleset | None = None
        self.deal = -1
        self.faces: list[int] | None = None  # the hand's faces, sorted (found when first needed)
        self.now = 0
        # outside whole-hand deals, ``held.need_with(face, below)`` of each face asked about (-1: not yet),
        # for this hand (emptied with ``held``) and this ``below``: a seat is often asked again about the
        # same card (a buy window, then its draw), and the answer is a function of the hand, face and bound
        self.withs: list[int] = []
        self.below = UNSET
        # in whole-hand deals of runs, the hand's :func:`.plan_whole.ranks_held` (found when first needed)
        self.ranks: list[int] | None = None
        self.jokers = 0

    def need(self, observation: Observation) -> int:
        """``need_of(observation, observation.hand)``."""
        hand = observation.hand
        if (
            observation.contract is not self.contract
            or observation.rules is not self.rules
            or observation.deal != self.deal
            or hand != self.hand
        ):
            at = _DEAL.of(observation)
            self.withs = []
            self.ranks = None
            self.faces = None
            if at.whole:
                self.held = None
                if at.runs:  # (what :func:`_need` asks: its memo seldom holds a hand at rest either)
                    ranks, jokers = ranks_held(hand)
                    self.ranks, self.jokers = ranks, jokers
                    contract = observation.contract
                    self.now = runs_need_held(
                        ranks, jokers, len(hand), len(contract), at.least, at.shortest, observation.rules
                    )
                else:
                    faces = self.faces = sorted_faces(hand)
                    self.now = _need(observation, faces, None)
            else:  # (the candidates of a hand do not need its faces sorted)
                held = self.held = HeldNeed(hand, observation.contract, observation.rules)
                self.now = held.need
            self.hand, self.contract, self.rules, self.deal = (
                hand,
                observation.contract,
                observation.rules,
                observation.deal,
            )
        return self.now

    def need_with(self, observation: Observation, card: Card, size: int | None, below: int = UNSET) -> int:
        """``need_of(observation, [*observation.hand, card], size)`` (``below``: see :func:`_need`)."""
        self.need(observation)
        return self.added(observation, card, size, below)

    def added(self, observation: Observation, face: int, size: int | None, below: int = UNSET) -> int:
        """:meth:`need_with` of a card of ``face`` (or the card itself, read as an int), right after
        :meth:`need` of ``observation``."""
        face &= 63
        held = self.held
        if held is not None and size is None:
            withs = self.withs
            if not withs or below != self.below:
                withs = self.withs = [-1] * FACES
                self.below = below
            found = withs[face]
            if found < 0:
                found = withs[face] = held.need_with(face, below)
            return found
        at = _DEAL.of(observation)
        if at.whole and at.runs:  # (what :func:`_need` asks: its memo seldom holds a hand grown by a card)
            ranks = self.ranks
            if ranks is None:
                ranks, self.jokers = ranks_held(self.hand)
                self.ranks = ranks
            jokers = self.jokers
            grown = ranks[:]
            if face < JOKER_FACE:
                suit = face // 13
                grown[suit] = grown[suit] | 2 << face - 13 * suit
            else:
                jokers += 1
            contract = observation.contract
            return runs_need_held(
                grown, jokers, len(self.hand) + 1, len(contract), at.least, at.shortest, observation.rules, size
            )
        faces = sorted_faces(self.hand) if self.faces is None else self.faces[:]
        i = len(faces)
        faces.append(face)
        while i and faces[i - 1] > face:  # one step of an insertion sort
            faces[i] = faces[i - 1]
            i -= 1
        faces[i] = face
        return _need(observation, faces, size, below)


def _plan(
    hand: Sequence[int],
    contract: tuple[MeldRule, ...],
    rules: Ruleset,
    whole: bool,
    size: int | None,
    live: Sequence[int] | None,
) -> Plan:
    if not whole:
        return plan_hand(hand, contract, rules, live=live)
    if all(rule.kind is MeldKind.RUN for rule in contract):
        return plan_whole_runs(hand, contract, rules, live=live, size=size)
    return plan_hand(hand, contract, rules, live=live, whole_hand=True)


def keeps_last_card(rules: Ruleset) -> bool:
    """A seat that is down should keep a card to discard rather than meld its last one (it goes out by
    discarding; melding the last card only floats, or is not allowed)."""
    return rules.empty_hand is not EmptyHand.GOES_OUT


def unseen_value(observation: Observation, live: Sequence[int]) -> float:
    """The mean penalty of a card still unseen (what a penalty card from the stock is expected to cost)."""
    total = sum(live)
    if not total:
        return 0.0
    rules = observation.rules
    return sum(n * rules.value(face) for face, n in enumerate(live)) / total


def relevant(observation: Observation, card: Card) -> bool:
    """Whether ``card`` could matter to this seat's hand: a joker, a card it could lay off once down, or
    (not down) a card of a rank it holds (contracts with sets) or of a suit it holds within three ranks
    (contracts with runs)."""
    if card.is_joker:
        return True
    seat = me(observation)
    if observation.seats[seat].down:
        return fits_table(observation.melds, card, observation.rules)
    kinds = {rule.kind for rule in observation.contract}
    rank, suit = card.rank, card.suit
    for c in observation.hand:
        if c.is_joker:
            continue
        if MeldKind.SET in kinds and c.rank == rank:
            return True
        if MeldKind.RUN in kinds and c.suit == suit and min(abs(c.rank - rank), 14 - abs(c.rank - rank)) <= 3:
            return True
    return False
