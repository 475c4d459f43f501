"""``easy``: a greedy bot, and the decision skeleton the other heuristic bots refine.

It goes down as soon as it can (the best arrangement listed), lays off everything it can (keeping one
card to go out by discarding it), takes the discard or buys only when the card lowers the cards its
contract still needs (:mod:`.plan`), and discards the costliest card its plan does not use.

Every decision goes through :meth:`EasyBot.prefer`, which puts the options the bot prefers first;
:meth:`EasyBot.rank` completes that into every legal option, best first, with ``None`` (decline) among
them when the seat may decline, and a decision takes the first. Subclasses override the hooks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from liverpool.engine import (
    JOKER_FACE,
    Action,
    Call,
    Card,
    Discard,
    GoDown,
    LayOff,
    Observation,
    Phase,
    SwapJoker,
    TableMeld,
    table_fits,
    table_lay_off_index,
)

from .options import Options, buys_and_passes
from .plan import FACES, Plan, plan_use
from .style import Style
from .table import (
    HandNeeds,
    contract_ends_deal,
    face_values,
    fits_table,
    is_final_deal,
    keeps_last_card,
    me,
    need_of,
    plan_of,
    whole_hand,
    whole_runs,
    whole_runs_use_of,
)

Choice = Action | None


_BUY: Final = Phase.BUY
_DRAW: Final = Phase.DRAW
_BALANCED: Final = Style.BALANCED
_CAUTIOUS: Final = Style.CAUTIOUS
CAUTIOUS_NEED: Final = 3  # a cautious easy bot buys only once its hand needs at most this many cards
CAUTIOUS_STUCK: Final = 4  # it waits to go down while this many cards or more would be stuck in hand


def near_hand(hand: Sequence[Card], card: Card) -> bool:
    """Whether ``card`` (not a joker) pairs a card of ``hand``: the start of a set."""
    if card.is_joker:
        return False
    face_rank = card.rank
    return any(not c.is_joker and c.rank == face_rank for c in hand)


def must_act(observation: Observation) -> bool:
    """The seat must return an action (its own turn, or an open buy window), not ``None``."""
    return observation.phase is _BUY or observation.current == me(observation)


def _unique(choices: list[Choice], must: bool) -> list[Choice]:
    """``choices`` without repeats (first places kept), and without ``None`` when the seat must act."""
    out = list(dict.fromkeys(choices))
    if must and None in out:
        out.remove(None)
    return out


def _first(choices: list[Choice], must: bool) -> Choice:
    """``_unique(choices, must)[0]``, without hashing every option."""
    for choice in choices:
        if choice is not None or not must:
            return choice
    raise IndexError("no option to choose")


def without(hand: Sequence[Card], card: Card) -> list[Card]:
    """``hand`` less one card."""
    rest = list(hand)
    rest.remove(card)
    return rest


def unused_cards(hand: Sequence[Card], plan: Plan) -> set[Card]:
    """The cards of ``hand`` that ``plan`` leaves out (of two copies of a face, the later one)."""
    return spare_cards(hand, used_counts(plan))


def used_counts(plan: Plan) -> list[int]:
    """How many cards of each face ``plan.used_faces()`` lists."""
    used = [0] * FACES
    for partial in plan.partials:
        for face in partial.faces:
            used[face] = used[face] + 1  # (not ``+=``: compiled, that is a generic add)
    used[JOKER_FACE] = used[JOKER_FACE] + plan.jokers
    return used


def spare_cards(hand: Sequence[Card], used: list[int]) -> set[Card]:
    """The cards of ``hand`` beyond ``used`` (cards used of each face; counted down here): of two copies
    of a face, the later one."""
    spare: set[Card] = set()
    faces = card_faces(hand)
    for i, card in enumerate(hand):
        face = faces[i]
        have = used[face]
        if have:
            used[face] = have - 1  # (not ``-=``: compiled, that is a generic subtraction)
        else:
            spare.add(card)
    return spare


def card_faces(cards: Sequence[int]) -> list[int]:
    """The face of each card. (Its cards are read as ints: compiled, ``card & 63`` of a
    :class:`~liverpool.engine.cards.Card` is a generic operation.)"""
    return [c & 63 for c in cards]


def _shed_order(cards: list[Card], keys: list[int]) -> list[Card]:
    """``cards`` sorted by ``keys`` (one each, in ``0 .. 2**20``; ties keep their order)."""
    return [cards[i] for i in _key_order(keys)]


def _key_order(keys: list[int]) -> list[int]:
    """The places of ``keys`` (each in ``0 .. 2**20``) in the order that sorts them (ties keep their order)."""
    n = len(keys)
    if n > 64:
        return sorted(range(n), key=lambda i: keys[i])
    packed = [keys[i] << 6 | i for i in range(n)]
    packed.sort()
    return [k & 63 for k in packed]


def _least(keys: list[int]) -> int:
    """``_key_order(keys)[0]``: the first place of the least key (``keys`` not empty)."""
    best = 0
    least = keys[0]
    for i in range(1, len(keys)):
        key = keys[i]
        if key < least:
            best, least = i, key
    return best


def _out_of_range(keys: list[int]) -> bool:
    """``-1 in keys`` for keys of :func:`_shed_key` (a loop: compiled, ``in`` on a list is a generic call)."""
    for key in keys:  # noqa: SIM110 -- compiled, any() of a generator makes a generator object
        if key < 0:
            return True
    return False


def _shed_key(first: bool, joker: bool, value: int) -> int:
    """``(first, joker, -value)`` as one int in the same order, or -1 when ``value`` is out of range."""
    if not -(1 << 17) < value < 1 << 17:
        return -1
    return (first << 19) | (joker << 18) | ((1 << 17) - value)


class EasyBot:
    """The greedy bot (see the module docstring)."""

    def __init__(self, style: Style = Style.BALANCED) -> None:
        self.style = style
        self.hand_needs = HandNeeds()  # this seat's hand and its need, read by :meth:`gains`

    def __call__(self, observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        must = must_act(observation)
        if len(options) == 1 and must:
            return options[0]
        # only the first choice is read here, so this class's own hooks may stop at it (see :meth:`_prefer`)
        preferred = (
            self._prefer(observation, options, False) if type(self) is EasyBot else self.prefer(observation, options)
        )
        for choice in preferred:  # ``_first([*preferred, *options], must)``
            if choice is not None or not must:
                return choice
        return _first(list(options), must)

    # -- the skeleton -----------------------------------------------------------------------------

    def rank(self, observation: Observation, options: Sequence[Action]) -> list[Choice]:
        """Every option (and ``None`` when declining is allowed), best first."""
        return _unique([*self.prefer(observation, options), *options], must_act(observation))

    def prefer(self, observation: Observation, options: Sequence[Action]) -> list[Choice]:
        """The options the bot prefers, best first (maybe with repeats, and not all of them: :meth:`rank`
        completes the list)."""
        return self._prefer(observation, options, True)

    def _prefer(self, observation: Observation, options: Sequence[Action], complete: bool) -> list[Choice]:
        """:meth:`prefer`; without ``complete``, once an option the seat must take is found (the seat must act
        and it is not ``None``), the list may end there: a decision reads only the first option that is
        not ``None`` (or the first, when the seat may decline), so it is the same decision."""
        if observation.phase is _BUY:
            buys, passes = buys_and_passes(options)
            return [*buys, *passes] if self.wants_buy(observation) else [*passes, *buys]
        g = Options.of(options)
        must = must_act(observation)
        ordered: list[Choice] = []
        call = self.choose_call(observation, g.calls) if g.calls else None
        if call is not None:
            ordered.append(call)
            if must and not complete:
                return ordered
        if not must:
            ordered += [*g.buys, None] if g.buys and self.wants_buy(observation) else [None, *g.buys]
        elif observation.phase is _DRAW:
            ordered += self.rank_draws(observation, g)
        else:
            ordered += self.rank_play(observation, g, complete)
        return ordered

    def rank_play(self, observation: Observation, g: Options, complete: bool = True) -> list[Choice]:
        """The play phase: place a pending card, go down, lay off, swap, then discard or end the turn
        (without ``complete``, only up to the first option found: see :meth:`_prefer`)."""
        if observation.must_place is not None:
            return [*self.rank_go_downs(observation, g.go_downs), *g.lay_offs]
        if observation.reclaimed:  # a joker taken by a swap this turn: place it before anything else
            return [a for a in g.lay_offs if a.card in observation.reclaimed]
        first: list[Choice] = []
        if g.go_downs:
            ranked = self.rank_go_downs(observation, g.go_downs)
            swap = self.swap_to_go_down(observation, g)
            if swap is not None:
                first.append(swap)
            if self.go_down_now(observation, ranked[0]):
                first += ranked
        elif g.swaps and not self.is_down(observation):
            first.append(self.swap_to_go_down(observation, g) or g.swaps[0])
        if first and not complete:
            return first
        lay_off = self.choose_lay_off(observation, g)
        if lay_off is not None:
            first.append(lay_off)
            if not complete:
                return first
        swap = self.choose_swap(observation, g)
        if swap is not None:
            first.append(swap)
            if not complete:
                return first
        if not complete:  # (only this class: see :meth:`_prefer`) the first discard alone
            return first + self._first_discard(observation, g)
        return first + self.rank_discards(observation, g)

    # -- hooks ------------------------------------------------------------------------------------

    def is_down(self, observation: Observation) -> bool:
        """Whether this seat has gone down this deal."""
        return observation.seats[me(observation)].down

    def plan(self, observation: Observation, hand: Sequence[Card], size: int | None = None) -> Plan:
        """The plan of a hand for this deal's contract (``size``: see :func:`.table.plan_of`)."""
        return plan_of(observation, hand, size=size)

    def score(self, plan: Plan) -> float:
        """How far a plan is from the contract (lower is better)."""
        return plan.need

    def plan_score(self, observation: Observation, hand: Sequence[Card], size: int | None = None) -> float:
        """``self.score(self.plan(observation, hand, size))``. The easy bot scores a plan by its need, which
        it finds without building the plan; a subclass that overrides :meth:`plan` or :meth:`score`
        overrides this too."""
        return need_of(observation, hand, size)

    def plan_need(self, observation: Observation, hand: Sequence[Card], size: int | None = None) -> int:
        """``self.plan(observation, hand, size).need`` (found without building the plan; a subclass that
        overrides :meth:`plan` overrides this too)."""
        return need_of(observation, hand, size)

    def gain(self, observation: Observation, card: Card, extra: int = 0) -> float:
        """How much taking ``card`` (and ``extra`` unknown penalty cards) improves the hand at rest.

        In a whole-hand deal the hand after taking is judged with the same target as before (one card
        will be discarded) or, after a buy, with a target grown by the cards bought, counting the
        penalty cards as misfits.
        """
        hand = observation.hand
        now = self.plan_score(observation, hand)
        if not whole_hand(observation):
            return now - self.plan_score(observation, [*hand, card])
        if extra:
            size = len(hand) + 2 + extra
            return now - self.plan_score(observation, [*hand, card], size) - extra
        return now - self.plan_score(observation, [*hand, card], len(hand) + 1) + 1

    def gains(self, observation: Observation, card: Card, extra: int = 0) -> bool:
        """``self.gain(observation, card, extra) > 0``. For this class, the needs are compared directly and
        the hand's own need is kept (:class:`.table.HandNeeds`) while the hand is unchanged; a subclass
        (which may score plans otherwise) asks :meth:`gain`."""
        if type(self) is not EasyBot:
            return self.gain(observation, card, extra) > 0
        needs = self.hand_needs
        now = needs.need(observation)
        # (a need is never negative: a hand that needs nothing, or no more than the penalty cards, gains nothing)
        # (``added`` is ``need_with`` right after ``need``; the card is read as an int, its face taken there)
        if not whole_hand(observation):
            return now > 0 and needs.added(observation, card, None, now) < now
        size = len(observation.hand)
        if extra:
            return now > extra and needs.added(observation, card, size + 2 + extra) < now - extra
        return needs.added(observation, card, size + 1) < now + 1

    def helps(self, observation: Observation, card: Card) -> bool:
        """Whether taking ``card`` lowers the cards the contract still needs."""
        return self.gains(observation, card)

    def wants_buy(self, observation: Observation) -> bool:
        """Buy the top discard (penalty card and all)? ``balanced``: when it lowers the need, counting the
        penalty cards in a whole-hand deal; ``cautious``: only then and once the hand needs at most
        :data:`CAUTIOUS_NEED` cards; ``aggressive``: also when it lowers the need without counting the
        penalty cards, or pairs a card of the hand (:func:`near_hand`)."""
        top = observation.top_discard
        if top is None or self.is_down(observation):
            return False
        if type(self) is EasyBot and not whole_hand(observation):  # (:meth:`gains` reads no penalty cards there)
            wanted = self.gains(observation, top)
        else:
            wanted = self.gains(observation, top, observation.rules.buy_penalty_cards)
        style = self.style
        if style is _BALANCED:
            return wanted
        if style is _CAUTIOUS:
            return wanted and self.plan_need(observation, observation.hand) <= CAUTIOUS_NEED
        return wanted or self.gains(observation, top) or near_hand(observation.hand, top)

    def choose_call(self, observation: Observation, calls: list[Call]) -> Call | None:
        """A call on a playable discard, or None. Calls shed a card (Liverpool) or punish the discarder."""
        plain = [c for c in calls if c.card is None]
        if plain:
            return plain[0]
        by_card = {c.card: c for c in calls if c.card is not None}
        ranked = self.rank_cards_to_shed(observation, list(by_card))
        return by_card[ranked[0]] if ranked else None

    def rank_draws(self, observation: Observation, g: Options) -> list[Choice]:
        """Drawing: the top discard when it fits the table (down) or helps the plan, a dig into the pile
        when one is offered (it lets the seat go down at once), else the stock."""
        top = observation.top_discard
        takes = [d for d in g.draw_discard if d.depth == 1]
        digs = [d for d in g.draw_discard if d.depth > 1]
        if len(digs) > 1:
            digs.sort(key=lambda d: d.depth)
        first: list[Choice] = []
        if self.is_down(observation):
            if takes and top is not None and observation.hand and fits_table(observation.melds, top, observation.rules):
                first = [takes[0]]
        elif digs:
            first = [digs[0]]
        elif takes and top is not None and self.helps(observation, top):
            first = [takes[0]]
        return [*first, *g.draw_stock]

    def rank_go_downs(self, observation: Observation, go_downs: list[GoDown]) -> list[Choice]:
        """Going down: the engine lists the arrangements least penalty left first."""
        return list(go_downs)

    def go_down_now(self, observation: Observation, best: Choice) -> bool:
        """Whether to go down now with ``best``: always, but ``cautious`` waits while going down would leave
        :data:`CAUTIOUS_STUCK` cards or more stuck in hand and nobody else is down (never in the last
        deal, nor when going down goes out)."""
        if self.style is not _CAUTIOUS:
            return True
        return self.waits_less_than(observation, best, CAUTIOUS_STUCK)

    def waits_less_than(self, observation: Observation, best: Choice, stuck: float) -> bool:
        """Go down with ``best`` unless it would leave ``stuck`` cards or more that could not be laid off at
        once while nobody else is down (always in the last deal, or when going down goes out)."""
        if not isinstance(best, GoDown) or is_final_deal(observation) or contract_ends_deal(observation):
            return True
        seat = me(observation)
        if any(s.down for s in observation.seats if s.seat != seat):
            return True
        return len(self._stuck(observation, best)) < stuck

    def _stuck(self, observation: Observation, go_down: GoDown) -> list[Card]:
        """The cards left in hand after ``go_down`` that could not be laid off at once."""
        rules = observation.rules
        seat = me(observation)
        table = [*observation.melds, *(TableMeld(seat, m) for m in go_down.melds)]
        used = {c for m in go_down.melds for c in m.cards}
        fits = table_lay_off_index(table, rules)
        return [c for c in observation.hand if c not in used and (c & 63) not in fits]

    def swap_to_go_down(self, observation: Observation, g: Options) -> SwapJoker | None:
        """A joker swap to make before going down (only when the plain going-down is not possible)."""
        if g.go_downs or self.is_down(observation) or not g.swaps:
            return None
        return max(g.swaps, key=lambda s: observation.rules.value(s.card))

    def choose_lay_off(self, observation: Observation, g: Options) -> LayOff | None:
        """Lay off the costliest card (the card just taken first), keeping a last card to go out with."""
        if not g.lay_offs:
            return None
        hand = observation.hand
        rules = observation.rules
        if len(hand) == 1 and keeps_last_card(rules) and any(d.card == hand[0] for d in g.discards):
            return None
        values = face_values(rules)
        return max(g.lay_offs, key=lambda a: (a.card == observation.taken, values[a.card & 63]))

    def choose_swap(self, observation: Observation, g: Options) -> SwapJoker | None:
        """Once down: a swap sheds a natural and the joker goes back on the table."""
        if not g.swaps or not self.is_down(observation):
            return None
        if len(observation.hand) == 1 and keeps_last_card(observation.rules):
            return None
        return max(g.swaps, key=lambda s: observation.rules.value(s.card))

    def rank_discards(self, observation: Observation, g: Options) -> list[Choice]:
        discards = g.discards
        if type(self) is EasyBot:  # the discards in :meth:`_shed_places` order (the cards of a hand are distinct)
            out: list[Choice] = [discards[i] for i in self._shed_places(observation, [d.card for d in discards])]
            out += g.end_turns
            return out
        cards: list[Card] = []
        by_card: dict[Card, Discard] = {}  # ``{d.card: d for d in discards}``, each card read once
        for d in discards:
            card = d.card
            cards.append(card)
            by_card[card] = d
        out = []
        for card in self.rank_cards_to_shed(observation, cards):
            out.append(by_card[card])
        out += g.end_turns
        return out

    def rank_cards_to_shed(self, observation: Observation, cards: list[Card]) -> list[Card]:
        """Cards to give up, best first: the costliest of those the plan does not use."""
        return [cards[i] for i in self._shed_places(observation, cards)]

    def _first_discard(self, observation: Observation, g: Options) -> list[Choice]:
        """The first option of :meth:`rank_discards` (none when it has none), for this class."""
        discards = g.discards
        if not discards:
            return list(g.end_turns[:1])
        return [discards[self._shed_places(observation, [d.card for d in discards], True)[0]]]

    def _shed_places(self, observation: Observation, cards: list[Card], first: bool = False) -> list[int]:
        """:meth:`rank_cards_to_shed` as the places of the cards in ``cards`` (with ``first``, a list that may
        hold only the first place)."""
        rules = observation.rules
        hand = observation.hand
        values = face_values(rules)  # ``c & 63 == JOKER_FACE`` is ``c.is_joker``, ``values[c & 63]`` ``rules.value(c)``
        faces = card_faces(cards)
        n = len(faces)
        if self.is_down(observation):
            fits = table_fits(observation.melds, rules)  # bit f: face f fits somewhere on the table
            keys = [_shed_key(bool(fits >> f & 1), f == JOKER_FACE, values[f]) for f in faces]
            if _out_of_range(keys):
                return sorted(
                    range(n), key=lambda i: (bool(fits >> faces[i] & 1), faces[i] == JOKER_FACE, -values[faces[i]])
                )
            return [_least(keys)] if first else _key_order(keys)
        size = len(hand)
        if type(self) is EasyBot and not whole_hand(observation):  # the plan's need and use, without building it
            base, used = plan_use(hand, observation.contract, rules)
        elif type(self) is EasyBot and whole_runs(observation):
            base, used = whole_runs_use_of(observation, hand, size)
        else:
            plan = self.plan(observation, hand, size)
            base, used = plan.need, used_counts(plan)
        unused = spare_cards(hand, used)
        kept = [c not in unused for c in cards]
        for i in range(n):  # ``any(c in unused and not c.is_joker for c in cards)``
            if not kept[i] and faces[i] != JOKER_FACE:
                keys = [_shed_key(kept[k], faces[k] == JOKER_FACE, values[faces[k]]) for k in range(n)]
                if _out_of_range(keys):
                    return sorted(range(n), key=lambda i: (kept[i], faces[i] == JOKER_FACE, -values[faces[i]]))
                return [_least(keys)] if first else _key_order(keys)
        return sorted(
            range(n),
            key=lambda i: (
                self.plan_need(observation, without(hand, cards[i]), size) - base,
                faces[i] == JOKER_FACE,
                -values[faces[i]],
            ),
        )
