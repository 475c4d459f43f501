"""Rulesets: every house rule of RULES.md §3 as a field of one frozen, validated value.

A :class:`Ruleset` is data. Presets (``presets.py``) are named instances; a table's own house rules are
another instance. ``to_dict``/``from_dict`` give the JSON/TOML form; unknown or badly typed fields
raise :class:`RulesetError` naming the field.

>>> r = Ruleset()
>>> r.contract(0)
(MeldRule(kind=<MeldKind.SET: 'set'>, length=3), MeldRule(kind=<MeldKind.SET: 'set'>, length=3))
>>> Ruleset.from_dict({'upcard': 'maybe'})
Traceback (most recent call last):
...
liverpool.engine.rules.parts.RulesetError: upcard: expected true or false, got 'maybe'
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from liverpool.engine._speed.cache import memo
from liverpool.engine.cards import JOKER_FACE
from liverpool.engine.rules.fields import (
    PART_MINIMUMS,
    FieldInfo,
    FieldKind,
    Group,
    check_minimum,
    check_value,
    decode,
    encode,
    field_infos,
    grouped,
    rule_field,
)
from liverpool.engine.rules.parts import (
    RANK_KEYS,
    Buying,
    BuyPrecedence,
    DealOut,
    DealRule,
    DeckRule,
    DiscardCall,
    EmptyHand,
    FinalDeal,
    FirstDealer,
    JoinableRuns,
    JokerSwap,
    JokerSwapPlace,
    JokerSwapTarget,
    MeldKind,
    MeldRule,
    RulesetError,
    RulesetProblem,
    StockOut,
    Ties,
)

__all__ = [
    "RANK_KEYS",
    "STANDARD_CONTRACTS",
    "BuyPrecedence",
    "Buying",
    "DealOut",
    "DealRule",
    "DeckRule",
    "DiscardCall",
    "EmptyHand",
    "FieldInfo",
    "FieldKind",
    "FinalDeal",
    "FirstDealer",
    "Group",
    "JoinableRuns",
    "JokerSwap",
    "JokerSwapPlace",
    "JokerSwapTarget",
    "MeldKind",
    "MeldRule",
    "Ruleset",
    "RulesetError",
    "StockOut",
    "Ties",
    "field_docs",
    "field_registry",
    "grouped_fields",
]


def _deals(*spec: tuple[str, int]) -> tuple[DealRule, ...]:
    return tuple(DealRule(tuple(MeldRule.parse(part) for part in contract.split(",")), hand) for contract, hand in spec)


STANDARD_CONTRACTS = (
    "set 3, set 3",
    "set 3, run 4",
    "run 4, run 4",
    "set 3, set 3, set 3",
    "set 3, set 3, run 4",
    "set 3, run 4, run 4",
    "run 4, run 4, run 4",
)


@dataclass(frozen=True)
class Ruleset:
    """Every option of RULES.md §3. Defaults are the ``liverpool`` preset (001a)."""

    name: str = rule_field(
        "custom", FieldKind.TEXT, Group.SEATS, "§4 presets the engine ships", "Short name of this ruleset."
    )
    title: str = rule_field(
        "House rules", FieldKind.TEXT, Group.SEATS, "§4 presets the engine ships", "Human-readable title."
    )
    notes: tuple[str, ...] = rule_field(
        (),
        FieldKind.LINES,
        Group.NOTES,
        "§4 presets the engine ships",
        "Where the source text is silent or contradicts itself: what was chosen and why.",
    )
    min_players: int = rule_field(3, FieldKind.INT, Group.SEATS, "§3.1 players", "Fewest seats at a table.", minimum=2)
    max_players: int = rule_field(
        8, FieldKind.INT, Group.SEATS, "§3.1 players", "Most seats at a table.", minimum=2, maximum=8
    )
    decks: tuple[DeckRule, ...] = rule_field(
        (DeckRule(5, 2, 4), DeckRule(8, 3, 6)),
        FieldKind.DECKS,
        Group.SEATS,
        "§3.2 decks / jokers",
        "Decks and jokers by player count: the first entry whose max_players covers the table.",
    )
    deals: tuple[DealRule, ...] = rule_field(
        _deals(*((c, 10) for c in STANDARD_CONTRACTS)),
        FieldKind.DEALS,
        Group.DEALS,
        "§2 standard contracts",
        "The deals in order: each deal's contract (melds as 'set 3' / 'run 4'), hand size and out (see final_deal).",
    )
    card_values: tuple[int, ...] = rule_field(
        (15, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 20),
        FieldKind.CARD_VALUES,
        Group.GOING_OUT,
        "§3.26 card values",
        "Penalty points of a card left in hand, by rank A, 2..10, J, Q, K and JK (joker).",
    )
    aces_low: bool = rule_field(
        True, FieldKind.BOOL, Group.MELDS, "§1 what every version shares", "An ace may be low in a run (A-2-3-4)."
    )
    aces_high: bool = rule_field(
        True,
        FieldKind.BOOL,
        Group.MELDS,
        "§1 what every version shares",
        "An ace may be high in a run (J-Q-K-A). Never both in one run, no wrap.",
    )
    upcard: bool = rule_field(
        True,
        FieldKind.BOOL,
        Group.DRAWING,
        "§3.3 upcard at deal start",
        "Turn a card up to start the discard pile (false: the first player must draw from stock).",
    )
    upcard_buyable: bool = rule_field(
        False,
        FieldKind.BOOL,
        Group.BUYING,
        "§3.22 what may be bought",
        "The upcard turned at the deal's start may be bought like a discard (000 and 001a buy discards: false; 004's 'the current player declines the top discard' includes it: true).",
    )
    longer_melds: bool = rule_field(
        True,
        FieldKind.BOOL,
        Group.MELDS,
        "§3.6 laying more than the minimum",
        "Melds of a contract may be longer than the minimum (no extra melds either way).",
    )
    set_distinct_ranks: bool = rule_field(
        False,
        FieldKind.BOOL,
        Group.MELDS,
        "§3.4 set constraints",
        "The sets of one contract must be of different ranks (000).",
    )
    set_distinct_suits: bool = rule_field(
        False, FieldKind.BOOL, Group.MELDS, "§3.4 set constraints", "No two cards of one suit in a set (001b)."
    )
    set_max_length: int | None = rule_field(
        None,
        FieldKind.OPTIONAL_INT,
        Group.MELDS,
        "§3.4 set constraints",
        "Most cards in a set, or none for no limit (001b: 4).",
        minimum=3,
    )
    run_distinct_suits: bool = rule_field(
        True,
        FieldKind.BOOL,
        Group.MELDS,
        "§3.5 run constraints",
        "The runs of one contract must be of different suits (000, 001b).",
    )
    joinable_runs: JoinableRuns = rule_field(
        JoinableRuns.ALLOWED,
        FieldKind.CHOICE,
        Group.MELDS,
        "§3.5 run constraints",
        "Two runs of one suit in one going-down: allowed; touching (not when laid end to end, as laid); could_join (not when their cards could be laid as one run under these run rules, jokers placed anew, 002). The older no_joinable_runs = true reads as touching.",
        choices=JoinableRuns,
    )
    set_min_naturals: int = rule_field(
        2,
        FieldKind.INT,
        Group.JOKERS,
        "§3.7 joker limits",
        "Fewest natural (non-joker) cards in a set (001a, 002, 004: 2).",
        minimum=1,
    )
    run_min_naturals: int = rule_field(
        3, FieldKind.INT, Group.JOKERS, "§3.7 joker limits", "Fewest natural cards in a run (001a, 002: 3).", minimum=1
    )
    run_joker_spacing: int = rule_field(
        0,
        FieldKind.INT,
        Group.JOKERS,
        "§3.7 joker limits",
        "If > 0, any this many consecutive cards of a run hold at most one joker (004: 4).",
        minimum=0,
    )
    joker_swap: JokerSwap = rule_field(
        JokerSwap.AFTER_DOWN,
        FieldKind.CHOICE,
        Group.JOKERS,
        "§3.8 joker swap",
        "When a table joker may be swapped for the natural it stands for: never; going_down (as you go down, "
        "000); after_down (once down, 001a/002); down_earlier (once down since an earlier turn, 001b: 'met their "
        "contract on a previous turn'); down (as you go down or once down, 004).",
        choices=JokerSwap,
    )
    joker_swap_place: JokerSwapPlace = rule_field(
        JokerSwapPlace.BEFORE_TURN_ENDS,
        FieldKind.CHOICE,
        Group.JOKERS,
        "§3.8 joker swap",
        "When a joker taken by a swap goes back on the table: at_once, by the next play (002 'med en gang', 004 "
        "'immediately'); before_turn_ends, before the turn ends, no play leaving it without a place (001a "
        "'before the player concludes their turn', 001b 'used during that turn'). Not yet down: in the going-down.",
        choices=JokerSwapPlace,
    )
    joker_swap_target: JokerSwapTarget = rule_field(
        JokerSwapTarget.ANY,
        FieldKind.CHOICE,
        Group.JOKERS,
        "§3.8 joker swap",
        "Where a joker taken by a swap may go: any meld (001a, 001b, 002), or own_melds, the swapper's own melds "
        "or its going-down (004: 'use the reclaimed joker immediately as a wild in your own meld').",
        choices=JokerSwapTarget,
    )
    joker_swap_from_sets: bool = rule_field(
        False,
        FieldKind.BOOL,
        Group.JOKERS,
        "§3.8 joker swap",
        "Jokers in sets may be swapped too (false: jokers in sets are dead, 001a/001b/002).",
    )
    dig_discard_pile: bool = rule_field(
        False,
        FieldKind.BOOL,
        Group.DRAWING,
        "§3.9 draw from discard",
        "A card below the top of the discard pile may be taken with every card above it, if it is melded at once (001b).",
    )
    no_discard_taken_card: bool = rule_field(
        True,
        FieldKind.BOOL,
        Group.DRAWING,
        "§3.10 discard after drawing from discard",
        "A card just taken from the discard pile may not be discarded the same turn (001a, 001b, 002).",
    )
    discard_optional: bool = rule_field(
        False,
        FieldKind.BOOL,
        Group.DRAWING,
        "§3.11 discard optional",
        "Discarding is optional: a turn may end without a discard (002).",
    )
    buying: Buying = rule_field(
        Buying.AFTER_NEXT_DECLINES,
        FieldKind.CHOICE,
        Group.BUYING,
        "§3.12 buying: who, when",
        "Who may buy the top discard and when: none; before_next_draw (May I before the next player draws, who may take it free, 000); after_next_declines (only after the next player draws from stock, 001a/002/004).",
        choices=Buying,
    )
    buy_precedence: BuyPrecedence = rule_field(
        BuyPrecedence.TURN_ORDER,
        FieldKind.CHOICE,
        Group.BUYING,
        "§3.13 buying: precedence",
        "Several buyers: the nearest in turn order to the player about to draw wins, or the first to call ('Me', 001a).",
        choices=BuyPrecedence,
    )
    buy_penalty_cards: int = rule_field(
        1,
        FieldKind.INT,
        Group.BUYING,
        "§3.14 buying: price",
        "Cards from the stock a buyer takes with the discard (all texts: 1).",
        minimum=0,
    )
    buy_limit: int | None = rule_field(
        None,
        FieldKind.OPTIONAL_INT,
        Group.BUYING,
        "§3.15 buying: limits",
        "Most buys per seat per deal, or none (004: 3).",
        minimum=0,
    )
    final_deal_buy_limit: int | None = rule_field(
        None,
        FieldKind.OPTIONAL_INT,
        Group.BUYING,
        "§3.15 buying: limits",
        "Most buys per seat in the final deal, or none (000: 4 May I's).",
        minimum=0,
    )
    buy_blocks_next_player: bool = rule_field(
        False,
        FieldKind.BOOL,
        Group.BUYING,
        "§3.16 after a successful May I",
        "Once someone has called May I, the next player may no longer take the discard (000).",
    )
    discard_call: DiscardCall = rule_field(
        DiscardCall.LIVERPOOL,
        FieldKind.CHOICE,
        Group.GOING_OUT,
        "§3.17 playable-discard call",
        "Calls on a playable discard by a player who is down: none; liverpool (the first caller who is down sheds a card onto the pile, 001a/002); rummy (the offender takes the discard back plus a penalty card, 001a).",
        choices=DiscardCall,
    )
    empty_hand: EmptyHand = rule_field(
        EmptyHand.FLOATS,
        FieldKind.CHOICE,
        Group.GOING_OUT,
        "§3.18 going out",
        "A player who empties their hand without a discard: must_discard (not allowed: keep a card to discard), floats (play on until a discard goes out, 001a/002), goes_out (melding every card goes out, 001b).",
        choices=EmptyHand,
    )
    float_out_unplayable: bool = rule_field(
        True,
        FieldKind.BOOL,
        Group.GOING_OUT,
        "§3.19 floating",
        "With floats: one who began the turn with no cards goes out only by discarding an unplayable card drawn from stock (001a: 'a floater must draw an unplayable card from the deck'); false: any drawn card (002).",
    )
    final_deal: FinalDeal = rule_field(
        FinalDeal.WHOLE_HAND,
        FieldKind.CHOICE,
        Group.DEALS,
        "§3.20 final deal",
        "The last deal, if its own out (deals) is normal: normal; whole_hand (use every card, no discard: 000/001a's '3 runs and out'); contract_goes_out (going down goes out: 004's run of 7). A deal's out: normal, whole_hand, goes_out.",
        choices=FinalDeal,
    )
    stock_out: StockOut = rule_field(
        StockOut.RESHUFFLE,
        FieldKind.CHOICE,
        Group.DRAWING,
        "§3.21 stock exhausted",
        "An empty stock: reshuffle the discards but the top card, or end the deal and score everyone.",
        choices=StockOut,
    )
    max_reshuffles: int | None = rule_field(
        3,
        FieldKind.OPTIONAL_INT,
        Group.DRAWING,
        "§3.21 stock exhausted",
        "Most reshuffles per deal before the deal ends, or none (000: 3).",
        minimum=0,
    )
    cut_bonus: int = rule_field(
        -50,
        FieldKind.INT,
        Group.SEATS,
        "§3.24 cut bonus",
        "Points to a cutter who cuts exactly the cards needed for the deal and the upcard (001a: -50; 0 = off).",
    )
    first_dealer: FirstDealer = rule_field(
        FirstDealer.LOW_CARD,
        FieldKind.CHOICE,
        Group.SEATS,
        "§3.25 first dealer",
        "First dealer: the first seat, or the low card of a cut (001a, 001b).",
        choices=FirstDealer,
    )
    announce_at: int = rule_field(
        1,
        FieldKind.INT,
        Group.GOING_OUT,
        "§3.27 announcements",
        "A player must announce their card count when holding this many or fewer (000: 3; 001a knock: 1; 0 = off).",
        minimum=0,
    )
    announce_after_discard: bool = rule_field(
        False,
        FieldKind.BOOL,
        Group.GOING_OUT,
        "§3.27 announcements",
        "The count is announced as the turn ends, after the discard (000: 'After discarding, if you have 3 or less cards'); false: whenever the hand is that small, mid-turn too (001a's knock).",
    )
    ties: Ties = rule_field(
        Ties.SHARE,
        FieldKind.CHOICE,
        Group.GOING_OUT,
        "§3.28 ties",
        "Equal lowest totals: share the win, compare final-deal scores, or replay the final deal (004).",
        choices=Ties,
    )
    partnerships: bool = rule_field(
        False,
        FieldKind.BOOL,
        Group.SEATS,
        "§3.30 partnerships",
        "Four seats play as two teams (0+2, 1+3) whose totals are added (Shanghai, 004).",
    )

    def __post_init__(self) -> None:
        _validate(self)

    def __hash__(self) -> int:
        # Rulesets key many caches; hashing every field on each lookup was a hot spot. The hash is
        # kept per process only (dropped when pickled, since str hashes differ between processes).
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self)))
            self.__dict__["_hash"] = cached
        return cached

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    # -- questions the engine asks ---------------------------------------------------------------

    def contract(self, deal: int) -> tuple[MeldRule, ...]:
        return self.deals[deal].contract

    def deck_for(self, players: int) -> DeckRule:
        """The decks and jokers for a table of ``players`` seats."""
        if not self.min_players <= players <= self.max_players:
            raise RulesetError(
                "max_players" if players > self.max_players else "min_players",
                f"{self.name} is for {self.min_players} to {self.max_players} players, not {players}",
            )
        return next(rule for rule in self.decks if rule.max_players >= players)

    def value(self, card: int) -> int:
        """Penalty points of ``card`` in hand."""
        face = card & 63
        return self.card_values[13] if face == JOKER_FACE else self.card_values[face % 13]

    def is_final(self, deal: int) -> bool:
        return deal == len(self.deals) - 1

    def deal_out(self, deal: int) -> DealOut:
        """How deal ``deal``'s contract ends the deal: the deal's own ``out``, else (in the last deal, or a
        replayed one) what ``final_deal`` says.

        >>> from liverpool.engine.rules.presets import find_preset
        >>> [find_preset('british-9').deal_out(d).value for d in (5, 6, 7, 8)]
        ['normal', 'goes_out', 'normal', 'normal']
        >>> find_preset('may-i').deal_out(6).value
        'whole_hand'
        """
        last = len(self.deals) - 1
        out = self.deals[min(deal, last)].out
        if out is not DealOut.NORMAL or deal < last:
            return out
        return _FINAL_OUT[self.final_deal]

    def buy_limit_for(self, deal: int) -> int | None:
        if self.is_final(deal) and self.final_deal_buy_limit is not None:
            return self.final_deal_buy_limit
        return self.buy_limit

    # -- serialisation ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: each field as its :class:`~liverpool.engine.rules.fields.FieldKind` writes it."""
        return {info.name: encode(info, getattr(self, info.name)) for info in field_registry()}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    @classmethod
    def from_dict(cls, data: dict[str, Any], base: Ruleset | None = None) -> Ruleset:
        """A ruleset from its dict form; missing fields come from ``base``, else from the preset the
        data names as ``base``, else from the defaults.

        >>> Ruleset.from_dict({'base': 'british', 'buy_limit': 5}).buy_limit_for(0)
        5
        """
        if not isinstance(data, dict):
            raise RulesetError("ruleset", f"expected a table of fields, got {type(data).__name__}")
        if base is None and "base" in data:
            base = _base_preset(data["base"])
        known = {info.name: info for info in field_registry()}
        values: dict[str, Any] = {}
        for key, raw in data.items():
            if key == "base":
                continue
            if key == _OLD_JOINABLE:
                values["joinable_runs"] = _old_joinable(raw, data)
                continue
            if key not in known:
                raise RulesetError(
                    str(key), f"unknown ruleset field (known: {', '.join(known)})", RulesetProblem.UNKNOWN_FIELD
                )
            values[key] = decode(known[key], raw)
        start = base if base is not None else cls()
        try:
            return dataclasses.replace(start, **values)
        except RulesetError:
            raise
        except (TypeError, ValueError) as exc:  # pragma: no cover - _convert checks types first
            raise RulesetError("ruleset", str(exc)) from exc

    @classmethod
    def from_json(cls, text: str) -> Ruleset:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RulesetError("ruleset", f"not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
        return cls.from_dict(data)

    @classmethod
    def from_toml(cls, text: str) -> Ruleset:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise RulesetError("ruleset", f"not valid TOML: {exc}") from exc
        return cls.from_dict(data)


_FINAL_OUT: dict[FinalDeal, DealOut] = {
    FinalDeal.NORMAL: DealOut.NORMAL,
    FinalDeal.WHOLE_HAND: DealOut.WHOLE_HAND,
    FinalDeal.CONTRACT_GOES_OUT: DealOut.GOES_OUT,
}


@memo(maxsize=None)
def field_registry() -> tuple[FieldInfo, ...]:
    """Every ruleset field's :class:`~liverpool.engine.rules.fields.FieldInfo` (kind, choices, group, doc, rules-matrix
    row), in declaration order: the one place a field is described.

    >>> info = next(i for i in field_registry() if i.name == 'buy_limit')
    >>> info.kind.value, info.group.value, info.row
    ('optional_int', 'Buying (May I?)', '§3.15 buying: limits')
    """
    return field_infos(Ruleset)


def grouped_fields() -> tuple[tuple[Group, tuple[FieldInfo, ...]], ...]:
    """The fields by topic (:class:`~liverpool.engine.rules.fields.Group`), in the order they are shown.

    >>> [(group.value, len(infos)) for group, infos in grouped_fields()][:2]
    [('Seats and decks', 8), ('Deals', 2)]
    """
    return grouped(field_registry())


def field_docs() -> dict[str, str]:
    """Each field's one-line documentation, in declaration order."""
    return {info.name: info.doc for info in field_registry()}


# The field joinable_runs was the bool no_joinable_runs until issue 24: true meant runs laid end to end.
_OLD_JOINABLE: Final = "no_joinable_runs"


def _old_joinable(raw: Any, data: dict[str, Any]) -> JoinableRuns:
    """``joinable_runs`` from an older file's ``no_joinable_runs`` (true: ``touching``, false: ``allowed``)."""
    if not isinstance(raw, bool):
        raise RulesetError(_OLD_JOINABLE, f"expected true or false, got {raw!r}")
    if "joinable_runs" in data:
        raise RulesetError(_OLD_JOINABLE, "give joinable_runs or the older no_joinable_runs, not both")
    return JoinableRuns.TOUCHING if raw else JoinableRuns.ALLOWED


# How a ruleset file's ``base`` is found by name: :mod:`.presets` (made of this module's values, so this
# module cannot import it) puts its ``find_preset`` here when it is imported, which the package does first.
BASE_FINDER: Final[list[Callable[[str], Ruleset]]] = []


def _base_preset(raw: Any) -> Ruleset:
    if not isinstance(raw, str):
        raise RulesetError("base", f"expected a preset name, got {raw!r}")
    try:
        return BASE_FINDER[0](raw)
    except ValueError as exc:  # UnknownPreset
        raise RulesetError("base", str(exc)) from exc


def _validate(r: Ruleset) -> None:
    for info in field_registry():  # what the registry says of each field alone, then how fields fit together
        check_value(info, getattr(r, info.name))
    if r.min_players > r.max_players:
        raise RulesetError("min_players", f"min_players {r.min_players} exceeds max_players {r.max_players}")
    if not r.decks:
        raise RulesetError("decks", "at least one deck rule is needed")
    previous = 0
    for i, rule in enumerate(r.decks):
        if rule.max_players <= previous:
            raise RulesetError(f"decks[{i}]", "deck rules must be in increasing order of max_players")
        for part, least in PART_MINIMUMS[FieldKind.DECKS].items():
            check_minimum(f"decks[{i}].{part}", getattr(rule, part), least)
        previous = rule.max_players
    if r.decks[-1].max_players < r.max_players:
        raise RulesetError("decks", f"no deck rule covers {r.max_players} players")
    if not r.deals:
        raise RulesetError("deals", "at least one deal is needed")
    for i, deal in enumerate(r.deals):
        if not deal.contract:
            raise RulesetError(f"deals[{i}].contract", "a contract needs at least one meld")
        for meld in deal.contract:
            if meld.length < 3:
                raise RulesetError(
                    f"deals[{i}].contract", f"a {meld.kind.value} needs at least 3 cards, not {meld.length}"
                )
            if meld.kind is MeldKind.RUN and meld.length > 13:
                raise RulesetError(f"deals[{i}].contract", f"a run cannot be longer than 13 cards, not {meld.length}")
            if meld.kind is MeldKind.SET and r.set_max_length is not None and meld.length > r.set_max_length:
                raise RulesetError(
                    f"deals[{i}].contract", f"a set of {meld.length} exceeds set_max_length {r.set_max_length}"
                )
            if meld.kind is MeldKind.SET and r.set_distinct_suits and meld.length > 4:
                raise RulesetError(f"deals[{i}].contract", "a set of distinct suits has at most 4 cards")
            if meld.kind is MeldKind.RUN and r.run_min_naturals > meld.length:
                raise RulesetError("run_min_naturals", f"exceeds the run of {meld.length} in deal {i + 1}")
            if meld.kind is MeldKind.SET and r.set_min_naturals > meld.length:
                raise RulesetError("set_min_naturals", f"exceeds the set of {meld.length} in deal {i + 1}")
        if not isinstance(deal.out, DealOut):
            raise RulesetError(
                f"deals[{i}].out", f"expected one of {', '.join(e.value for e in DealOut)}, got {deal.out!r}"
            )
        check_minimum(f"deals[{i}].hand_size", deal.hand_size, PART_MINIMUMS[FieldKind.DEALS]["hand_size"])
    for rule in r.decks:
        shoe = rule.decks * 52 + rule.jokers
        players = min(rule.max_players, r.max_players)
        need = players * max(d.hand_size for d in r.deals) + (1 if r.upcard else 0) + 2
        if shoe < need:
            raise RulesetError(
                "decks",
                f"{rule.decks} decks and {rule.jokers} jokers are too few for {players} players (need {need} cards)",
            )
    if len(r.card_values) != len(RANK_KEYS):
        raise RulesetError("card_values", "need 14 values (A, 2..10, J, Q, K, JK)")
    for key, value in zip(RANK_KEYS, r.card_values, strict=True):
        check_minimum(f"card_values.{key}", value, PART_MINIMUMS[FieldKind.CARD_VALUES][key])
    if not (r.aces_low or r.aces_high):
        raise RulesetError("aces_low", "aces must be allowed low, high, or both")
    if r.partnerships and not r.min_players <= 4 <= r.max_players:
        raise RulesetError("partnerships", "partnerships need a four-seat table")
