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
liverpool.engine.rules.ruleset.RulesetError: upcard: expected true or false, got 'maybe'
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from liverpool.engine.cards import JOKER_FACE


class RulesetError(ValueError):
    """A ruleset value or file that is not valid; ``field`` names the offending field."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field = field_name


class MeldKind(StrEnum):
    """A meld is a set (one rank) or a run (one suit, consecutive ranks): RULES.md §1.2."""

    SET = "set"
    RUN = "run"


class JokerSwap(StrEnum):
    NEVER = "never"
    GOING_DOWN = "going_down"
    AFTER_DOWN = "after_down"
    DOWN_EARLIER = "down_earlier"
    DOWN = "down"


class JokerSwapPlace(StrEnum):
    AT_ONCE = "at_once"
    BEFORE_TURN_ENDS = "before_turn_ends"


class JokerSwapTarget(StrEnum):
    ANY = "any"
    OWN_MELDS = "own_melds"


class JoinableRuns(StrEnum):
    """Whether two runs of one suit in one going-down may be laid apart when they could be one run."""

    ALLOWED = "allowed"
    TOUCHING = "touching"
    COULD_JOIN = "could_join"


class Buying(StrEnum):
    """When an out-of-turn seat may buy the discard (RULES.md §3.12 buying: who, when): never, before the next player draws, or only after the next player declines it."""

    NONE = "none"
    BEFORE_NEXT_DRAW = "before_next_draw"
    AFTER_NEXT_DECLINES = "after_next_declines"


class BuyPrecedence(StrEnum):
    TURN_ORDER = "turn_order"
    FIRST_CALL = "first_call"


class DiscardCall(StrEnum):
    """The call on a playable discard (RULES.md §3.17 playable-discard call): none, Liverpool, or rummy."""

    NONE = "none"
    LIVERPOOL = "liverpool"
    RUMMY = "rummy"


class EmptyHand(StrEnum):
    """What a seat whose hand is empty without a discard does (RULES.md §3.19 floating): it must discard, floats, or goes out."""

    MUST_DISCARD = "must_discard"
    FLOATS = "floats"
    GOES_OUT = "goes_out"


class FinalDeal(StrEnum):
    """How the final deal ends (RULES.md §3.20 final deal): as any other, only by melding the whole hand, or
    at once when its contract is complete."""

    NORMAL = "normal"
    WHOLE_HAND = "whole_hand"
    CONTRACT_GOES_OUT = "contract_goes_out"


class DealOut(StrEnum):
    """How one deal's contract ends the deal: normally (go down, lay off, go out by a discard); ``whole_hand``
    (the contract must use every card, and going down goes out, no discard: 000/001a's "3 runs and out");
    ``goes_out`` (going down with the contract goes out at once, whatever is left: 004's run of seven)."""

    NORMAL = "normal"
    WHOLE_HAND = "whole_hand"
    GOES_OUT = "goes_out"


class StockOut(StrEnum):
    RESHUFFLE = "reshuffle"
    END_DEAL = "end_deal"


class Ties(StrEnum):
    SHARE = "share"
    FINAL_DEAL = "final_deal"
    REPLAY_FINAL_DEAL = "replay_final_deal"


class FirstDealer(StrEnum):
    FIRST_SEAT = "first_seat"
    LOW_CARD = "low_card"


@dataclass(frozen=True, slots=True)
class MeldRule:
    """One meld a contract asks for: a set or a run of at least ``length`` cards."""

    kind: MeldKind
    length: int

    def __str__(self) -> str:
        return f"{self.kind.value} {self.length}"

    @classmethod
    def parse(cls, text: str) -> MeldRule:
        kind, _, length = text.strip().partition(" ")
        if kind not in ("set", "run") or not length.strip().isdigit():
            raise ValueError(f"{text!r} is not a meld rule like 'set 3' or 'run 4'")
        return cls(MeldKind(kind), int(length))


@dataclass(frozen=True, slots=True)
class DealRule:
    """One deal: the contract to go down with, how many cards each seat is dealt, and how the contract
    ends the deal (``out``, see :class:`DealOut`; a property of the contract wherever the deal stands)."""

    contract: tuple[MeldRule, ...]
    hand_size: int
    out: DealOut = DealOut.NORMAL


@dataclass(frozen=True, slots=True)
class DeckRule:
    """Tables of up to ``max_players`` seats play with ``decks`` decks and ``jokers`` jokers."""

    max_players: int
    decks: int
    jokers: int


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
RANK_KEYS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK")


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True)
class Ruleset:
    """Every option of RULES.md §3. Defaults are the ``liverpool`` preset (001a)."""

    name: str = field(default="custom", metadata=_doc("Short name of this ruleset."))
    title: str = field(default="House rules", metadata=_doc("Human-readable title."))
    notes: tuple[str, ...] = field(
        default=(), metadata=_doc("Where the source text is silent or contradicts itself: what was chosen and why.")
    )
    min_players: int = field(default=3, metadata=_doc("Fewest seats at a table (RULES.md §3.1 players)."))
    max_players: int = field(default=8, metadata=_doc("Most seats at a table (RULES.md §3.1 players)."))
    decks: tuple[DeckRule, ...] = field(
        default=(DeckRule(5, 2, 4), DeckRule(8, 3, 6)),
        metadata=_doc("Decks and jokers by player count: the first entry whose max_players covers the table."),
    )
    deals: tuple[DealRule, ...] = field(
        default=_deals(*((c, 10) for c in STANDARD_CONTRACTS)),
        metadata=_doc(
            "The deals in order: each deal's contract (melds as 'set 3' / 'run 4'), hand size and out (see final_deal)."
        ),
    )
    card_values: tuple[int, ...] = field(
        default=(15, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 20),
        metadata=_doc("Penalty points of a card left in hand, by rank A, 2..10, J, Q, K and JK (joker)."),
    )
    aces_low: bool = field(default=True, metadata=_doc("An ace may be low in a run (A-2-3-4)."))
    aces_high: bool = field(
        default=True, metadata=_doc("An ace may be high in a run (J-Q-K-A). Never both in one run, no wrap.")
    )
    upcard: bool = field(
        default=True,
        metadata=_doc("Turn a card up to start the discard pile (false: the first player must draw from stock)."),
    )
    upcard_buyable: bool = field(
        default=False,
        metadata=_doc(
            "The upcard turned at the deal's start may be bought like a discard (000 and 001a buy discards: false; 004's 'the current player declines the top discard' includes it: true)."
        ),
    )
    longer_melds: bool = field(
        default=True, metadata=_doc("Melds of a contract may be longer than the minimum (no extra melds either way).")
    )
    set_distinct_ranks: bool = field(
        default=False, metadata=_doc("The sets of one contract must be of different ranks (000).")
    )
    set_distinct_suits: bool = field(default=False, metadata=_doc("No two cards of one suit in a set (001b)."))
    set_max_length: int | None = field(
        default=None, metadata=_doc("Most cards in a set, or none for no limit (001b: 4).")
    )
    run_distinct_suits: bool = field(
        default=True, metadata=_doc("The runs of one contract must be of different suits (000, 001b).")
    )
    joinable_runs: JoinableRuns = field(
        default=JoinableRuns.ALLOWED,
        metadata=_doc(
            "Two runs of one suit in one going-down: allowed; touching (not when laid end to end, as laid); could_join (not when their cards could be laid as one run under these run rules, jokers placed anew, 002). The older no_joinable_runs = true reads as touching."
        ),
    )
    set_min_naturals: int = field(
        default=2, metadata=_doc("Fewest natural (non-joker) cards in a set (001a, 002, 004: 2).")
    )
    run_min_naturals: int = field(default=3, metadata=_doc("Fewest natural cards in a run (001a, 002: 3)."))
    run_joker_spacing: int = field(
        default=0, metadata=_doc("If > 0, any this many consecutive cards of a run hold at most one joker (004: 4).")
    )
    joker_swap: JokerSwap = field(
        default=JokerSwap.AFTER_DOWN,
        metadata=_doc(
            "When a table joker may be swapped for the natural it stands for: never; going_down (as you go down, "
            "000); after_down (once down, 001a/002); down_earlier (once down since an earlier turn, 001b: 'met their "
            "contract on a previous turn'); down (as you go down or once down, 004)."
        ),
    )
    joker_swap_place: JokerSwapPlace = field(
        default=JokerSwapPlace.BEFORE_TURN_ENDS,
        metadata=_doc(
            "When a joker taken by a swap goes back on the table: at_once, by the next play (002 'med en gang', 004 "
            "'immediately'); before_turn_ends, before the turn ends, no play leaving it without a place (001a "
            "'before the player concludes their turn', 001b 'used during that turn'). Not yet down: in the going-down."
        ),
    )
    joker_swap_target: JokerSwapTarget = field(
        default=JokerSwapTarget.ANY,
        metadata=_doc(
            "Where a joker taken by a swap may go: any meld (001a, 001b, 002), or own_melds, the swapper's own melds "
            "or its going-down (004: 'use the reclaimed joker immediately as a wild in your own meld')."
        ),
    )
    joker_swap_from_sets: bool = field(
        default=False,
        metadata=_doc("Jokers in sets may be swapped too (false: jokers in sets are dead, 001a/001b/002)."),
    )
    dig_discard_pile: bool = field(
        default=False,
        metadata=_doc(
            "A card below the top of the discard pile may be taken with every card above it, if it is melded at once (001b)."
        ),
    )
    no_discard_taken_card: bool = field(
        default=True,
        metadata=_doc("A card just taken from the discard pile may not be discarded the same turn (001a, 001b, 002)."),
    )
    discard_optional: bool = field(
        default=False, metadata=_doc("Discarding is optional: a turn may end without a discard (002).")
    )
    buying: Buying = field(
        default=Buying.AFTER_NEXT_DECLINES,
        metadata=_doc(
            "Who may buy the top discard and when: none; before_next_draw (May I before the next player draws, who may take it free, 000); after_next_declines (only after the next player draws from stock, 001a/002/004)."
        ),
    )
    buy_precedence: BuyPrecedence = field(
        default=BuyPrecedence.TURN_ORDER,
        metadata=_doc(
            "Several buyers: the nearest in turn order to the player about to draw wins, or the first to call ('Me', 001a)."
        ),
    )
    buy_penalty_cards: int = field(
        default=1, metadata=_doc("Cards from the stock a buyer takes with the discard (all texts: 1).")
    )
    buy_limit: int | None = field(default=None, metadata=_doc("Most buys per seat per deal, or none (004: 3)."))
    final_deal_buy_limit: int | None = field(
        default=None, metadata=_doc("Most buys per seat in the final deal, or none (000: 4 May I's).")
    )
    buy_blocks_next_player: bool = field(
        default=False,
        metadata=_doc("Once someone has called May I, the next player may no longer take the discard (000)."),
    )
    discard_call: DiscardCall = field(
        default=DiscardCall.LIVERPOOL,
        metadata=_doc(
            "Calls on a playable discard by a player who is down: none; liverpool (the first caller who is down sheds a card onto the pile, 001a/002); rummy (the offender takes the discard back plus a penalty card, 001a)."
        ),
    )
    empty_hand: EmptyHand = field(
        default=EmptyHand.FLOATS,
        metadata=_doc(
            "A player who empties their hand without a discard: must_discard (not allowed: keep a card to discard), floats (play on until a discard goes out, 001a/002), goes_out (melding every card goes out, 001b)."
        ),
    )
    float_out_unplayable: bool = field(
        default=True,
        metadata=_doc(
            "With floats: one who began the turn with no cards goes out only by discarding an unplayable card drawn from stock (001a: 'a floater must draw an unplayable card from the deck'); false: any drawn card (002)."
        ),
    )
    final_deal: FinalDeal = field(
        default=FinalDeal.WHOLE_HAND,
        metadata=_doc(
            "The last deal, if its own out (deals) is normal: normal; whole_hand (use every card, no discard: 000/001a's '3 runs and out'); contract_goes_out (going down goes out: 004's run of 7). A deal's out: normal, whole_hand, goes_out."
        ),
    )
    stock_out: StockOut = field(
        default=StockOut.RESHUFFLE,
        metadata=_doc("An empty stock: reshuffle the discards but the top card, or end the deal and score everyone."),
    )
    max_reshuffles: int | None = field(
        default=3, metadata=_doc("Most reshuffles per deal before the deal ends, or none (000: 3).")
    )
    cut_bonus: int = field(
        default=-50,
        metadata=_doc(
            "Points to a cutter who cuts exactly the cards needed for the deal and the upcard (001a: -50; 0 = off)."
        ),
    )
    first_dealer: FirstDealer = field(
        default=FirstDealer.LOW_CARD,
        metadata=_doc("First dealer: the first seat, or the low card of a cut (001a, 001b)."),
    )
    announce_at: int = field(
        default=1,
        metadata=_doc(
            "A player must announce their card count when holding this many or fewer (000: 3; 001a knock: 1; 0 = off)."
        ),
    )
    announce_after_discard: bool = field(
        default=False,
        metadata=_doc(
            "The count is announced as the turn ends, after the discard (000: 'After discarding, if you have 3 or less cards'); false: whenever the hand is that small, mid-turn too (001a's knock)."
        ),
    )
    ties: Ties = field(
        default=Ties.SHARE,
        metadata=_doc("Equal lowest totals: share the win, compare final-deal scores, or replay the final deal (004)."),
    )
    partnerships: bool = field(
        default=False, metadata=_doc("Four seats play as two teams (0+2, 1+3) whose totals are added (Shanghai, 004).")
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
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "deals":
                value = [_deal_to_dict(d) for d in value]
            elif f.name == "decks":
                value = [dataclasses.asdict(d) for d in value]
            elif f.name == "card_values":
                value = dict(zip(RANK_KEYS, value, strict=True))
            elif f.name == "notes":
                value = list(value)
            elif isinstance(value, StrEnum):
                value = value.value
            out[f.name] = value
        return out

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
        known = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, raw in data.items():
            if key == "base":
                continue
            if key == _OLD_JOINABLE:
                values["joinable_runs"] = _old_joinable(raw, data)
                continue
            if key not in known:
                raise RulesetError(str(key), f"unknown ruleset field (known: {', '.join(known)})")
            values[key] = _convert(key, raw)
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

    def describe_card_values(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in zip(RANK_KEYS, self.card_values, strict=True))


_FINAL_OUT: dict[FinalDeal, DealOut] = {
    FinalDeal.NORMAL: DealOut.NORMAL,
    FinalDeal.WHOLE_HAND: DealOut.WHOLE_HAND,
    FinalDeal.CONTRACT_GOES_OUT: DealOut.GOES_OUT,
}


def _deal_to_dict(deal: DealRule) -> dict[str, Any]:
    out: dict[str, Any] = {"contract": [str(m) for m in deal.contract], "hand_size": deal.hand_size}
    if deal.out is not DealOut.NORMAL:  # (written only when set: rules files and records from before read the same)
        out["out"] = deal.out.value
    return out


def field_docs() -> dict[str, str]:
    """Each field's one-line documentation, in declaration order."""
    return {f.name: f.metadata.get("doc", "") for f in dataclasses.fields(Ruleset)}


_ENUMS: dict[str, type[StrEnum]] = {
    "joker_swap": JokerSwap,
    "joker_swap_place": JokerSwapPlace,
    "joker_swap_target": JokerSwapTarget,
    "joinable_runs": JoinableRuns,
    "buying": Buying,
    "buy_precedence": BuyPrecedence,
    "discard_call": DiscardCall,
    "empty_hand": EmptyHand,
    "final_deal": FinalDeal,
    "stock_out": StockOut,
    "ties": Ties,
    "first_dealer": FirstDealer,
}
# The field joinable_runs was the bool no_joinable_runs until issue 24: true meant runs laid end to end.
_OLD_JOINABLE: Final = "no_joinable_runs"


def _old_joinable(raw: Any, data: dict[str, Any]) -> JoinableRuns:
    """``joinable_runs`` from an older file's ``no_joinable_runs`` (true: ``touching``, false: ``allowed``)."""
    if not isinstance(raw, bool):
        raise RulesetError(_OLD_JOINABLE, f"expected true or false, got {raw!r}")
    if "joinable_runs" in data:
        raise RulesetError(_OLD_JOINABLE, "give joinable_runs or the older no_joinable_runs, not both")
    return JoinableRuns.TOUCHING if raw else JoinableRuns.ALLOWED


_OPTIONAL_INTS = {"set_max_length", "buy_limit", "final_deal_buy_limit", "max_reshuffles"}


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


def _expect_int(name: str, raw: Any) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise RulesetError(name, f"expected a whole number, got {raw!r}")
    return raw


def _convert(name: str, raw: Any) -> Any:
    if name in _ENUMS:
        enum = _ENUMS[name]
        if not isinstance(raw, str) or raw not in {e.value for e in enum}:
            raise RulesetError(name, f"expected one of {', '.join(e.value for e in enum)}, got {raw!r}")
        return enum(raw)
    if name in _OPTIONAL_INTS:
        return None if raw is None or raw == "none" else _expect_int(name, raw)
    default = getattr(Ruleset(), name)
    if isinstance(default, bool):
        if not isinstance(raw, bool):
            raise RulesetError(name, f"expected true or false, got {raw!r}")
        return raw
    if isinstance(default, int):
        return _expect_int(name, raw)
    if isinstance(default, str):
        if not isinstance(raw, str):
            raise RulesetError(name, f"expected text, got {raw!r}")
        return raw
    if name == "notes":
        if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
            raise RulesetError(name, "expected a list of text")
        return tuple(raw)
    if name == "card_values":
        if not isinstance(raw, dict) or set(raw) != set(RANK_KEYS):
            raise RulesetError(name, f"expected a value for each of {', '.join(RANK_KEYS)}")
        return tuple(_expect_int(f"{name}.{key}", raw[key]) for key in RANK_KEYS)
    if name == "decks":
        if not isinstance(raw, list):
            raise RulesetError(name, "expected a list of {max_players, decks, jokers}")
        out = []
        for i, item in enumerate(raw):
            if not isinstance(item, dict) or set(item) != {"max_players", "decks", "jokers"}:
                raise RulesetError(f"{name}[{i}]", "expected exactly max_players, decks and jokers")
            out.append(
                DeckRule(*(_expect_int(f"{name}[{i}].{k}", item[k]) for k in ("max_players", "decks", "jokers")))
            )
        return tuple(out)
    if name == "deals":
        if not isinstance(raw, list):
            raise RulesetError(name, "expected a list of {contract, hand_size, out}")
        deals = []
        outs = {e.value for e in DealOut}
        for i, item in enumerate(raw):
            if not isinstance(item, dict) or not {"contract", "hand_size"} <= set(item) <= {
                "contract",
                "hand_size",
                "out",
            }:
                raise RulesetError(f"{name}[{i}]", "expected contract, hand_size and optionally out")
            out = item.get("out", DealOut.NORMAL.value)
            if not isinstance(out, str) or out not in outs:
                raise RulesetError(
                    f"{name}[{i}].out", f"expected one of {', '.join(e.value for e in DealOut)}, got {out!r}"
                )
            contract = item["contract"]
            if isinstance(contract, str):
                contract = contract.split(",")
            if not isinstance(contract, list) or not all(isinstance(x, str) for x in contract):
                raise RulesetError(f"{name}[{i}].contract", "expected a list like ['set 3', 'run 4']")
            try:
                melds = tuple(MeldRule.parse(x) for x in contract)
            except ValueError as exc:
                raise RulesetError(f"{name}[{i}].contract", str(exc)) from exc
            deals.append(DealRule(melds, _expect_int(f"{name}[{i}].hand_size", item["hand_size"]), DealOut(out)))
        return tuple(deals)
    raise RulesetError(name, "cannot be read")  # pragma: no cover - every field is handled above


def _validate(r: Ruleset) -> None:
    if r.min_players < 2:
        raise RulesetError("min_players", f"need at least 2 players, not {r.min_players}")
    if r.max_players > 8:
        raise RulesetError("max_players", f"at most 8 players, not {r.max_players}")
    if r.min_players > r.max_players:
        raise RulesetError("min_players", f"min_players {r.min_players} exceeds max_players {r.max_players}")
    if r.set_max_length is not None and r.set_max_length < 3:
        raise RulesetError("set_max_length", f"must be at least 3, not {r.set_max_length}")
    if not r.decks:
        raise RulesetError("decks", "at least one deck rule is needed")
    previous = 0
    for i, rule in enumerate(r.decks):
        if rule.max_players <= previous:
            raise RulesetError(f"decks[{i}]", "deck rules must be in increasing order of max_players")
        if rule.decks < 1 or rule.jokers < 0:
            raise RulesetError(f"decks[{i}]", "need at least one deck and no negative jokers")
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
        if deal.hand_size < 1:
            raise RulesetError(f"deals[{i}].hand_size", f"must be positive, not {deal.hand_size}")
    for rule in r.decks:
        shoe = rule.decks * 52 + rule.jokers
        players = min(rule.max_players, r.max_players)
        need = players * max(d.hand_size for d in r.deals) + (1 if r.upcard else 0) + 2
        if shoe < need:
            raise RulesetError(
                "decks",
                f"{rule.decks} decks and {rule.jokers} jokers are too few for {players} players (need {need} cards)",
            )
    if len(r.card_values) != 14 or any(v < 0 for v in r.card_values):
        raise RulesetError("card_values", "need 14 non-negative values (A, 2..10, J, Q, K, JK)")
    if not (r.aces_low or r.aces_high):
        raise RulesetError("aces_low", "aces must be allowed low, high, or both")
    if r.set_min_naturals < 1:
        raise RulesetError("set_min_naturals", "a set needs at least one natural card to name its rank")
    if r.run_min_naturals < 1:
        raise RulesetError("run_min_naturals", "a run needs at least one natural card to name its suit")
    if r.run_joker_spacing < 0:
        raise RulesetError("run_joker_spacing", "must be 0 (off) or positive")
    if r.buy_penalty_cards < 0:
        raise RulesetError("buy_penalty_cards", "cannot be negative")
    for name in ("buy_limit", "final_deal_buy_limit", "max_reshuffles"):
        value = getattr(r, name)
        if value is not None and value < 0:
            raise RulesetError(name, "cannot be negative")
    if r.announce_at < 0:
        raise RulesetError("announce_at", "cannot be negative")
    if r.partnerships and not r.min_players <= 4 <= r.max_players:
        raise RulesetError("partnerships", "partnerships need a four-seat table")
