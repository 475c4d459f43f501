"""A deal set up by hand: chosen hands, stock, discard pile, table melds and earlier scores.

A :class:`Position` says where every card of the shoe lies at the start of a seat's turn; :func:`new_position`
checks it against a ruleset and gives a normal :class:`~liverpool.engine.state.GameState`, from which
``legal_actions``, ``apply`` and ``observe`` work and the game goes on to its later deals. For teaching,
puzzles, tests and bug reports; a game record may start from one (``docs/record-format.md``).

>>> from liverpool.engine import find_preset, legal_actions
>>> rules = find_preset('liverpool')
>>> position = Position.of(
...     hands=['7H 8H 9H 10H JH QH 2C 2D 2S 5C', '3C 3D 3S 4C 4D 4S KH KS KD 6C', '5H 5S 6H 6S 9C 9D JC JD QC QD'],
...     discard_pile='AS',
... ).with_rest_in_stock(rules)
>>> state = new_position(rules, position)
>>> state.current, [repr(a) for a in legal_actions(state)]
(1, ['DrawStock(seat=1)', 'DrawDiscard(seat=1, depth=1)'])
>>> new_position(rules, Position.of(hands=['7H 7H#1 7H#2', '2C', '3C'], discard_pile='AS'))
Traceback (most recent call last):
...
liverpool.engine.position.PositionError: seat 0's hand: 7♥ appears 3 times but the shoe has 2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from liverpool.engine.cards import JOKER_FACE, Card, CardNotationError, face_text, make_shoe, parse_cards
from liverpool.engine.game import checks
from liverpool.engine.game.core import new_game
from liverpool.engine.game.perform import start_deal_bookkeeping
from liverpool.engine.game.verify import shoe
from liverpool.engine.melds import Meld, meld_problem
from liverpool.engine.rules.parts import DiscardCall, EmptyHand, MeldKind
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import DealEndReason, DealResult, GameState, Phase, TableMeld

Cards = str | Sequence[Card]


class PositionError(ValueError):
    """A position that cannot be a deal in play; ``field`` names the part that is wrong (``hands[2]``,
    ``stock``, ``melds[0]``, ``scores[1]``, ...) and the message says what and where."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Position:
    """Every card of a deal in play at the start of seat ``current``'s turn (its draw).

    * ``hands``: one tuple of cards per seat (the number of seats is their count);
    * ``stock``: top card first; ``discard_pile``: bottom card first, the top card last. The top discard was
      just discarded by ``discarder`` (default the seat before ``current``): it may be bought, and called
      if the rules allow. With ``upcard`` it is instead the deal's upcard, turned by the dealer, alone on
      the pile at the deal's first turn;
    * ``melds``: the table's melds in the order they were laid, each with its owner; a seat that owns a meld
      is down (lay-offs keep the owner, so a seat's melds are its contract, grown);
    * ``deal`` (0-based) and ``scores``: one tuple of points per seat for each earlier deal;
    * ``dealer`` (default 0), ``current`` (default the seat left of the dealer), ``buys`` used by each seat
      this deal (default none) and ``reshuffles`` of the stock this deal.

    Cards are physical: two decks hold ``7H`` and ``7H#1`` (see :mod:`.cards`).
    """

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...] = ()
    discard_pile: tuple[Card, ...] = ()
    melds: tuple[TableMeld, ...] = ()
    deal: int = 0
    dealer: int = 0
    current: int | None = None
    scores: tuple[tuple[int, ...], ...] = ()
    buys: tuple[int, ...] | None = None
    reshuffles: int = 0
    discarder: int | None = None
    upcard: bool = False

    @classmethod
    def of(
        cls,
        hands: Sequence[Cards],
        stock: Cards = (),
        discard_pile: Cards = (),
        melds: Sequence[TableMeld | tuple[int, Meld | str]] = (),
        deal: int = 0,
        dealer: int = 0,
        current: int | None = None,
        scores: Sequence[Sequence[int]] = (),
        buys: Sequence[int] | None = None,
        reshuffles: int = 0,
        discarder: int | None = None,
        upcard: bool = False,
    ) -> Position:
        """A position from text or values: cards as ``'7H 8H JK'`` or Card sequences, melds as
        ``(owner, 'run: 7H 8H 9H')``, ``(owner, Meld)`` or :class:`TableMeld` (nothing is checked here)."""
        table = tuple(m if isinstance(m, TableMeld) else TableMeld(m[0], _meld(m[1])) for m in melds)
        return cls(
            hands=tuple(_cards(h) for h in hands),
            stock=_cards(stock),
            discard_pile=_cards(discard_pile),
            melds=table,
            deal=deal,
            dealer=dealer,
            current=current,
            scores=tuple(tuple(s) for s in scores),
            buys=None if buys is None else tuple(buys),
            reshuffles=reshuffles,
            discarder=discarder,
            upcard=upcard,
        )

    @property
    def seats(self) -> int:
        return len(self.hands)

    def placed(self) -> list[tuple[str, str, tuple[Card, ...]]]:
        """Each place of cards as (field, name for people, cards): hands, discard pile, melds, stock."""
        places = [(f"hands[{s}]", f"seat {s}'s hand", hand) for s, hand in enumerate(self.hands)]
        places.append(("discard_pile", "the discard pile", self.discard_pile))
        places += [(f"melds[{i}]", f"meld {i} ({tm.meld})", tm.meld.cards) for i, tm in enumerate(self.melds)]
        places.append(("stock", "the stock", self.stock))
        return places

    def with_rest_in_stock(self, rules: Ruleset) -> Position:
        """This position with every card of the shoe it does not place yet put under the stock, in the
        shoe's order (for puzzles that choose only some cards)."""
        used = {c for _, _, cards in self.placed() for c in cards}
        if not rules.min_players <= self.seats <= rules.max_players:
            raise PositionError(
                "hands",
                f"{self.seats} hands, but {rules.name} is for {rules.min_players} to {rules.max_players} players",
            )
        deck = rules.deck_for(self.seats)
        cards = make_shoe(deck.decks, deck.jokers)
        return replace(self, stock=self.stock + tuple(c for c in cards if c not in used))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (cards as ``'7H 8H JK'`` text), as a game record stores it."""
        return {
            "deal": self.deal,
            "dealer": self.dealer,
            "current": self.current,
            "scores": [list(s) for s in self.scores],
            "buys": None if self.buys is None else list(self.buys),
            "reshuffles": self.reshuffles,
            "discarder": self.discarder,
            "upcard": self.upcard,
            "hands": [_text(h) for h in self.hands],
            "discard_pile": _text(self.discard_pile),
            "melds": [
                {"owner": tm.owner, "kind": tm.meld.kind.value, "cards": _text(tm.meld.cards), "low": tm.meld.low}
                for tm in self.melds
            ],
            "stock": _text(self.stock),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Position:
        """Read the JSON form; :class:`PositionError` naming the field (cards may be text or lists of
        notations; a meld's ``low`` may be left out when its cards show it; absent fields take defaults)."""
        if not isinstance(data, dict):
            raise PositionError("", "a position is a JSON object")
        known = {"deal", "dealer", "current", "scores", "buys", "reshuffles", "discarder", "upcard"}
        known |= {"hands", "discard_pile", "melds", "stock"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise PositionError(
                unknown[0], f"a position has no field {unknown[0]!r} (fields: {', '.join(sorted(known))})"
            )
        hands = data.get("hands")
        if not isinstance(hands, list):
            raise PositionError("hands", "expected a list of hands, one per seat")
        raw_melds = data.get("melds", [])
        if not isinstance(raw_melds, list):
            raise PositionError("melds", "expected a list of {owner, kind, cards, low}")
        scores = data.get("scores", [])
        if not isinstance(scores, list) or not all(isinstance(s, list) and all(_is_int(p) for p in s) for s in scores):
            raise PositionError("scores", "expected a list of each earlier deal's points, a list of whole numbers")
        buys = data.get("buys")
        if buys is not None and (not isinstance(buys, list) or not all(_is_int(b) for b in buys)):
            raise PositionError("buys", "expected a list of whole numbers, one per seat")
        current, discarder, upcard = data.get("current"), data.get("discarder"), data.get("upcard", False)
        if current is not None and not _is_int(current):
            raise PositionError("current", f"expected a seat number, got {current!r}")
        if discarder is not None and not _is_int(discarder):
            raise PositionError("discarder", f"expected a seat number, got {discarder!r}")
        if not isinstance(upcard, bool):
            raise PositionError("upcard", f"expected true or false, got {upcard!r}")
        return cls(
            hands=tuple(_read_cards(f"hands[{s}]", h) for s, h in enumerate(hands)),
            stock=_read_cards("stock", data.get("stock", [])),
            discard_pile=_read_cards("discard_pile", data.get("discard_pile", [])),
            melds=tuple(_read_meld(f"melds[{i}]", m) for i, m in enumerate(raw_melds)),
            deal=_read_int(data, "deal", 0),
            dealer=_read_int(data, "dealer", 0),
            current=current,
            scores=tuple(tuple(s) for s in scores),
            buys=None if buys is None else tuple(buys),
            reshuffles=_read_int(data, "reshuffles", 0),
            discarder=discarder,
            upcard=upcard,
        )


def position_of(state: GameState) -> Position:
    """The position of ``state`` at the start of a turn (its draw phase), to report or replay from: what
    :func:`new_position` gives back from it is ``state`` but for what a position does not hold (which cards
    in hands the table saw taken, the turn count, the history, who went out of earlier deals). Raises
    ``ValueError`` elsewhere in a turn (a May I pending included), in a replayed final deal, and when the
    top discard may not be bought or called as a position's would (a call has just been made on it)."""
    seats, current = state.seats, state.current
    if state.phase is not Phase.DRAW or state.may_i_calls:
        raise ValueError(f"a position starts a turn before anyone acts in it, not at {state.situation()}")
    if state.deal >= len(state.rules.deals):
        raise ValueError(f"a replayed final deal cannot be set up as a position ({state.situation()})")
    upcard = bool(state.discard_pile) and state.discarder is None
    position = Position(
        hands=tuple(tuple(h) for h in state.hands),
        stock=tuple(reversed(state.stock)),
        discard_pile=tuple(state.discard_pile),
        melds=tuple(state.melds),
        deal=state.deal,
        dealer=state.dealer,
        current=current,
        scores=tuple(r.scores for r in state.results),
        buys=tuple(state.buys),
        reshuffles=state.reshuffles,
        discarder=None if upcard or state.discarder == (current - 1) % seats else state.discarder,
        upcard=upcard,
    )
    again = new_position(state.rules, position)
    if (again.fresh, again.discarder, again.call_open) != (state.fresh, state.discarder, state.call_open):
        raise ValueError(
            f"a position cannot say that the top discard may not be bought or called now ({state.situation()})"
        )
    return position


def new_position(rules: Ruleset, position: Position) -> GameState:
    """A game at ``position`` under ``rules``: seat ``current`` is to draw. Raises :class:`PositionError`
    naming the field when the position is not one a deal of these rules can reach: a card missing, twice,
    or more often than the shoe holds it; an invalid meld; seats, deal, dealer, turn, scores or buys out of
    range. The first dealer of the game is the one whose deal, passed left ``deal`` times, is ``dealer``."""
    seats = position.seats
    deal, dealer = position.deal, position.dealer
    if not rules.min_players <= seats <= rules.max_players:
        raise PositionError(
            "hands", f"{seats} hands, but {rules.name} is for {rules.min_players} to {rules.max_players} players"
        )
    if not 0 <= deal < len(rules.deals):
        raise PositionError("deal", f"{rules.name} has deals 0..{len(rules.deals) - 1} (0-based), not {deal}")
    if not 0 <= dealer < seats:
        raise PositionError("dealer", f"the dealer must be a seat 0..{seats - 1}, not {dealer}")
    try:
        state = new_game(rules, seats, (dealer - deal) % seats)
    except ValueError as exc:
        raise PositionError("hands", f"{seats} hands: {exc}") from exc
    current = (dealer + 1) % seats if position.current is None else position.current
    if not 0 <= current < seats:
        raise PositionError("current", f"the seat to play must be a seat 0..{seats - 1}, not {current}")
    for i, tm in enumerate(position.melds):
        if not isinstance(tm, TableMeld) or not isinstance(tm.meld, Meld):
            raise PositionError(
                f"melds[{i}]",
                f"meld {i} is {tm!r}, not TableMeld(owner, Meld) (Position.of reads (owner, 'run: 4H 5H 6H 7H'))",
            )
    _check_cards(position, shoe(state))
    down = _check_melds(rules, position)
    _check_hands(rules, position, current, down)
    buys = _check_counts(rules, position)
    state.deal, state.dealer, state.current = deal, dealer, current
    start_deal_bookkeeping(state)  # as a dealt deal starts; then what the position says
    state.hands = [list(h) for h in position.hands]
    state.stock = list(reversed(position.stock))
    state.discard_pile = list(position.discard_pile)
    state.melds = list(position.melds)
    state.down = down
    state.buys = buys
    state.reshuffles = position.reshuffles
    state.fresh = False
    state.floating = not state.hands[current]  # the seat to play begins its turn with no cards
    state.results = [
        DealResult(
            deal=d,
            went_out=None,
            scores=tuple(s),
            reason=DealEndReason.BEFORE_POSITION,
            hands=tuple(() for _ in range(seats)),
            points=tuple(s),
            melds=(),
            reshuffles=0,
        )
        for d, s in enumerate(position.scores)
    ]
    discarder = _discarder(rules, position, current)
    if discarder is None and position.discard_pile:
        state.fresh = rules.upcard  # the upcard, as a deal starts
    elif discarder is not None:
        top = position.discard_pile[-1]
        state.fresh = True
        state.discarder = discarder
        state.call_open = (
            rules.discard_call is not DiscardCall.NONE
            and down[discarder]
            and bool(checks.table_fits(state.melds, rules) >> top.face & 1)
        )
    state.phase = Phase.DRAW
    return state


def _check_cards(position: Position, cards: tuple[Card, ...]) -> None:
    """Every card of the shoe exactly once: no face more often than the shoe holds it, no card foreign to
    the shoe, none twice, none missing."""
    in_shoe = set(cards)
    copies: dict[int, int] = {}
    for card in cards:
        copies[card.face] = copies.get(card.face, 0) + 1
    places = position.placed()
    for field, name, held in places:
        for card in held:
            if not isinstance(card, Card):
                raise PositionError(field, f"{name}: {card!r} is not a Card (use Card.parse or card text)")
    counts: dict[int, int] = {}
    for field, name, held in places:
        for card in held:
            face = card.face
            counts[face] = counts.get(face, 0) + 1
            have = copies.get(face, 0)
            if counts[face] > have:
                total = sum(1 for _, _, h in places for c in h if c.face == face)
                shown = "JK" if face == JOKER_FACE else card.pretty()
                where = [n for _, n, h in places if any(c.face == face for c in h)]
                among = f" ({', '.join(where)})" if len(where) > 1 else ""
                raise PositionError(field, f"{name}: {shown} appears {total} times but the shoe has {have}{among}")
    seen: dict[Card, str] = {}
    for field, name, held in places:
        for card in held:
            if card not in in_shoe:
                n = copies[card.face]
                first = face_text(card.face)
                which = "jokers" if card.is_joker else f"decks (copies {first} to {first}#{n - 1})"
                raise PositionError(field, f"{name}: {card} is not a card of this shoe, which has {n} {which}")
            if card in seen:
                raise PositionError(
                    field, f"{name}: {card} is also in {seen[card]} (another copy is written {face_text(card.face)}#n)"
                )
            seen[card] = name
    missing = [c for c in cards if c not in seen]
    if missing:
        shown = " ".join(str(c) for c in missing[:12]) + (" ..." if len(missing) > 12 else "")
        raise PositionError(
            "stock",
            f"the position leaves out {len(missing)} card(s) of the shoe: {shown} "
            "(every card is in a hand, the stock, the discard pile or a meld; Position.with_rest_in_stock adds them)",
        )


def _check_melds(rules: Ruleset, position: Position) -> list[bool]:
    """Each meld valid under the rules, owned by a seat; each owner's melds its contract grown. Returns who is down."""
    seats = position.seats
    down = [False] * seats
    for i, tm in enumerate(position.melds):
        if not 0 <= tm.owner < seats:
            raise PositionError(
                f"melds[{i}]", f"meld {i} ({tm.meld}): its owner must be a seat 0..{seats - 1}, not {tm.owner}"
            )
        problem = meld_problem(tm.meld, rules)
        if problem is not None:
            raise PositionError(f"melds[{i}]", f"meld {i} ({tm.meld}): {problem}")
        down[tm.owner] = True
    contract = rules.contract(position.deal)
    for seat in range(seats):
        owned = [tm.meld for tm in position.melds if tm.owner == seat]
        if not owned:
            continue
        for kind in MeldKind:
            have = sorted((len(m.cards) for m in owned if m.kind is kind), reverse=True)
            need = sorted((r.length for r in contract if r.kind is kind), reverse=True)
            short = any(got < want for got, want in zip(have, need, strict=False))
            if len(have) != len(need) or short:
                asked = ", ".join(str(r) for r in contract)
                laid = ", ".join(f"{m.kind.value} of {len(m.cards)}" for m in owned)
                raise PositionError(
                    "melds",
                    f"seat {seat}'s melds ({laid}) are not deal {position.deal + 1}'s contract ({asked}) or it grown",
                )
    return down


def _discarder(rules: Ruleset, position: Position, current: int) -> int | None:
    """The seat that discarded the top card: None for the upcard (or an empty pile)."""
    seats = position.seats
    if position.upcard:
        if not rules.upcard or len(position.discard_pile) != 1:
            raise PositionError(
                "upcard",
                f"the upcard lies alone on the pile at a deal's first turn, in rules that turn one ({rules.name}: upcard = {str(rules.upcard).lower()}; the pile holds {len(position.discard_pile)})",
            )
        if position.discarder is not None:
            raise PositionError("discarder", "nobody discarded the upcard: give no discarder with upcard")
        return None
    if not position.discard_pile:
        if position.discarder is not None:
            raise PositionError("discarder", "the discard pile is empty, so nobody has just discarded")
        return None
    discarder = (current - 1) % seats if position.discarder is None else position.discarder
    if not 0 <= discarder < seats:
        raise PositionError("discarder", f"the discarder must be a seat 0..{seats - 1}, not {discarder}")
    return discarder


def _check_hands(rules: Ruleset, position: Position, current: int, down: list[bool]) -> None:
    """Hands may be empty only for a seat floating (down, in rules where an emptied hand floats) that did
    not just discard; a deal in play has a stock."""
    discarder = _discarder(rules, position, current)
    for seat, hand in enumerate(position.hands):
        if hand:
            continue
        if rules.empty_hand is not EmptyHand.FLOATS or not down[seat]:
            raise PositionError(
                f"hands[{seat}]",
                f"seat {seat}'s hand is empty: only a seat that is down may float on with no cards, in rules where an emptied hand floats",
            )
        if seat == discarder:
            raise PositionError(
                f"hands[{seat}]", f"seat {seat}'s hand is empty, but a seat that discards its last card has gone out"
            )
    if not position.stock:
        raise PositionError("stock", "the stock is empty: a deal in play has a stock to draw from")


def _check_counts(rules: Ruleset, position: Position) -> list[int]:
    """Earlier scores (one list per earlier deal, one number per seat), buys and reshuffles in range."""
    seats = position.seats
    if len(position.scores) != position.deal:
        raise PositionError(
            "scores",
            f"deal {position.deal + 1} follows {position.deal} deal(s), so scores needs {position.deal} list(s) of points, not {len(position.scores)}",
        )
    for d, points in enumerate(position.scores):
        if not all(_is_int(p) for p in points):
            raise PositionError(f"scores[{d}]", f"deal {d + 1}'s scores must be whole numbers, not {list(points)!r}")
        if len(points) != seats:
            raise PositionError(
                f"scores[{d}]", f"deal {d + 1}'s scores need {seats} numbers, one per seat, not {len(points)}"
            )
    buys = [0] * seats if position.buys is None else list(position.buys)
    if len(buys) != seats or not all(_is_int(b) for b in buys):
        raise PositionError("buys", f"buys needs {seats} whole numbers, one per seat, not {buys!r}")
    limit = rules.buy_limit_for(position.deal)
    for seat, used in enumerate(buys):
        if used < 0 or (limit is not None and used > limit):
            most = "" if limit is None else f" 0..{limit}"
            raise PositionError(
                "buys", f"seat {seat} has used {used} buys, not{most} a number of buys this deal allows"
            )
    most_washes = rules.max_reshuffles
    if position.reshuffles < 0 or (most_washes is not None and position.reshuffles > most_washes):
        raise PositionError(
            "reshuffles", f"the stock is washed at most {most_washes} times a deal, not {position.reshuffles}"
        )
    return buys


# -- reading -------------------------------------------------------------------------------------


def _cards(cards: Cards) -> tuple[Card, ...]:
    return parse_cards(cards) if isinstance(cards, str) else tuple(cards)


def _meld(meld: Meld | str) -> Meld:
    return Meld.parse(meld) if isinstance(meld, str) else meld


def _text(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_int(data: dict[str, Any], key: str, default: int) -> int:
    value = data.get(key, default)
    if not _is_int(value):
        raise PositionError(key, f"expected a whole number, got {value!r}")
    return int(value)


def _read_cards(field: str, raw: Any) -> tuple[Card, ...]:
    if not isinstance(raw, str) and not (isinstance(raw, list) and all(isinstance(c, str) for c in raw)):
        raise PositionError(field, f"expected cards as text ('7H 8H JK') or a list of notations, got {raw!r}")
    try:
        return parse_cards(raw)
    except CardNotationError as exc:
        raise PositionError(field, str(exc)) from exc


def _read_meld(field: str, raw: Any) -> TableMeld:
    if (
        not isinstance(raw, dict)
        or not {"owner", "kind", "cards"} <= set(raw)
        or not set(raw) <= {"owner", "kind", "cards", "low"}
    ):
        raise PositionError(field, "a meld is {owner, kind, cards, low} (low may be left out when the cards show it)")
    owner, kind, low = raw["owner"], raw["kind"], raw.get("low")
    if not _is_int(owner):
        raise PositionError(field, f"owner must be a seat number, got {owner!r}")
    if kind not in ("set", "run"):
        raise PositionError(field, f"kind is 'set' or 'run', not {kind!r}")
    if low is not None and not _is_int(low):
        raise PositionError(field, f"low must be a rank number, got {low!r}")
    try:
        meld = Meld.of(_read_cards(field, raw["cards"]), MeldKind(kind), low)
    except PositionError:
        raise
    except ValueError as exc:
        raise PositionError(field, str(exc)) from exc
    return TableMeld(owner, meld)
