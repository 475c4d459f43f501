"""A ruleset in words: the short summary a lobby shows of a preset, and every rule as sentences.

Each field of the registry (:func:`~liverpool.engine.rules.field_registry`) has one sentence maker here,
keyed by its name; :func:`rules_in_words` gives them by the registry's groups, so a new field without a
sentence fails ``tests/rules/test_rulestext.py``. Clients show these texts as they are.

>>> from liverpool.engine.rules.presets import find_preset
>>> summary(find_preset('british'))[0]
'Deal 1: 2 sets of 3; deal 2: 1 set of 3 and 1 run of 4; deal 3: 2 runs of 4; deal 4: 3 sets of 3; deal 5: 2 sets of 3 and 1 run of 4; deal 6: 1 set of 3 and 2 runs of 4; deal 7: 1 run of 7, and going down goes out.'
>>> summary(find_preset('british'))[2]
'Buying: after the next player draws from the stock, with 1 penalty card; at most 3 buys a deal.'
"""

from __future__ import annotations

from collections.abc import Callable

from liverpool.engine.rules.parts import (
    RANK_KEYS,
    Buying,
    BuyPrecedence,
    DealOut,
    DiscardCall,
    EmptyHand,
    FirstDealer,
    JoinableRuns,
    JokerSwap,
    JokerSwapPlace,
    JokerSwapTarget,
    MeldRule,
    StockOut,
    Ties,
)
from liverpool.engine.rules.ruleset import Ruleset, grouped_fields


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def contract_words(contract: tuple[MeldRule, ...]) -> str:
    """``2 sets of 3 and 1 run of 4``."""
    counts: dict[MeldRule, int] = {}
    for meld in contract:
        counts[meld] = counts.get(meld, 0) + 1
    parts = [f"{plural(n, meld.kind.value)} of {meld.length}" for meld, n in counts.items()]
    return " and ".join(parts)


_OUT = {
    DealOut.NORMAL: "",
    DealOut.WHOLE_HAND: ", using every card in hand, with no discard",
    DealOut.GOES_OUT: ", and going down goes out",
}


def contracts(r: Ruleset) -> str:
    deals = [f"deal {i + 1}: {contract_words(d.contract)}{_OUT[r.deal_out(i)]}" for i, d in enumerate(r.deals)]
    return _sentence("; ".join(deals))


def hand_sizes(r: Ruleset) -> str:
    sizes = sorted({d.hand_size for d in r.deals})
    if len(sizes) == 1:
        return f"Each player is dealt {sizes[0]} cards in every deal."
    by_deal = ", ".join(f"{d.hand_size} in deal {i + 1}" for i, d in enumerate(r.deals))
    return f"Cards dealt to each player: {by_deal}."


def buying(r: Ruleset) -> str:
    if r.buying is Buying.NONE:
        return "Buying: nobody may buy the discard."
    when = {
        Buying.BEFORE_NEXT_DRAW: "before the next player draws (who may take it free)",
        Buying.AFTER_NEXT_DECLINES: "after the next player draws from the stock",
    }[r.buying]
    limits = []
    if r.buy_limit is not None:
        limits.append(f"at most {plural(r.buy_limit, 'buy')} a deal")
    if r.final_deal_buy_limit is not None:
        limits.append(f"at most {plural(r.final_deal_buy_limit, 'buy')} in the last deal")
    extra = f"; {', '.join(limits)}" if limits else "; no limit on buys"
    return f"Buying: {when}, with {plural(r.buy_penalty_cards, 'penalty card')}{extra}."


def calls(r: Ruleset) -> str:
    return {
        DiscardCall.NONE: "Calls: no call on a playable discard.",
        DiscardCall.LIVERPOOL: "Calls: a player who is down may call Liverpool on a discard that could be laid off; "
        "the first to call sheds a card onto the pile.",
        DiscardCall.RUMMY: "Calls: a player who is down may call rummy on a discard that could be laid off; the "
        "player who discarded it takes it back with a penalty card.",
    }[r.discard_call]


def jokers(r: Ruleset) -> str:
    return (
        f"Jokers: a set needs {plural(r.set_min_naturals, 'natural card')}, a run "
        f"{plural(r.run_min_naturals, 'natural card')}; {_SWAP[r.joker_swap].lower()}"
    )


def summary(r: Ruleset) -> list[str]:
    """What a lobby shows of ``r``: contracts deal by deal, hand sizes, buying, calls and joker rules."""
    return [contracts(r), hand_sizes(r), buying(r), calls(r), jokers(r)]


SUMMARY_FIELDS = (
    "deals",
    "buying",
    "buy_penalty_cards",
    "buy_limit",
    "final_deal_buy_limit",
    "discard_call",
    "set_min_naturals",
    "run_min_naturals",
    "joker_swap",
)
"""The fields :func:`summary` speaks of, in its order (a page in another language shows these by name)."""


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _yes_no(yes: str, no: str) -> Callable[[Ruleset, object], str]:
    return lambda _r, value: yes if value else no


_SWAP = {
    JokerSwap.NEVER: "A joker on the table is never swapped.",
    JokerSwap.GOING_DOWN: "A joker on the table may be swapped for the card it stands for only as you go down.",
    JokerSwap.AFTER_DOWN: "A joker on the table may be swapped for the card it stands for once you are down.",
    JokerSwap.DOWN_EARLIER: "A joker on the table may be swapped for the card it stands for once you went down on "
    "an earlier turn.",
    JokerSwap.DOWN: "A joker on the table may be swapped for the card it stands for as you go down or once down.",
}


def _limit(value: int | None, some: str, none: str) -> str:
    return none if value is None else some.format(value)


def _decks(r: Ruleset) -> str:
    parts, low = [], r.min_players
    for rule in r.decks:
        high = min(rule.max_players, r.max_players)
        if high >= low:
            size = f"{low}" if low == high else f"{low} to {high}"
            parts.append(f"{plural(rule.decks, 'deck')} and {plural(rule.jokers, 'joker')} for {size} players")
        low = max(low, high + 1)
    return _sentence("The cards: " + "; ".join(parts))


SENTENCES: dict[str, Callable[[Ruleset, object], str]] = {
    "name": lambda r, v: f"These are the {r.title} rules ({v}).",
    "title": lambda r, v: "",
    "notes": lambda r, v: "",
    "min_players": lambda r, v: f"A table seats {r.min_players} to {r.max_players} players.",
    "max_players": lambda r, v: "",
    "decks": lambda r, v: _decks(r),
    "deals": lambda r, v: contracts(r) + " " + hand_sizes(r),
    "card_values": lambda r, v: (
        "Cards left in hand count: "
        + ", ".join(f"{'joker' if k == 'JK' else k} {p}" for k, p in zip(RANK_KEYS, r.card_values, strict=True))
        + "."
    ),
    "aces_low": _yes_no("An ace may be low in a run (A-2-3-4).", "An ace is never low in a run."),
    "aces_high": _yes_no("An ace may be high in a run (J-Q-K-A); never both, no wrapping.", "An ace is never high."),
    "upcard": _yes_no(
        "A card is turned up to start the discard pile.", "No card is turned up: the first player draws from the stock."
    ),
    "upcard_buyable": _yes_no(
        "The card turned up at the start may be bought.", "The card turned up at the start may not be bought."
    ),
    "longer_melds": _yes_no(
        "Melds of a contract may be longer than asked.", "Melds of a contract have exactly the cards asked."
    ),
    "set_distinct_ranks": _yes_no("The sets of one contract must be of different ranks.", ""),
    "set_distinct_suits": _yes_no("A set may not hold two cards of one suit.", ""),
    "set_max_length": lambda r, v: _limit(r.set_max_length, "A set holds at most {} cards.", ""),
    "run_distinct_suits": _yes_no(
        "The runs of one contract must be of different suits.", "Runs of one contract may share a suit."
    ),
    "joinable_runs": lambda r, v: {
        JoinableRuns.ALLOWED: "",
        JoinableRuns.TOUCHING: "Two runs of one suit may not be laid end to end as two runs.",
        JoinableRuns.COULD_JOIN: "Two runs of one suit that could be laid as one run may not be laid apart.",
    }[r.joinable_runs],
    "set_min_naturals": lambda r, v: f"A set needs at least {plural(r.set_min_naturals, 'natural card')}.",
    "run_min_naturals": lambda r, v: f"A run needs at least {plural(r.run_min_naturals, 'natural card')}.",
    "run_joker_spacing": lambda r, v: (
        ""
        if r.run_joker_spacing <= 1
        else f"A run holds at most one joker in any {r.run_joker_spacing} cards in a row."
    ),
    "joker_swap": lambda r, v: _SWAP[r.joker_swap],
    "joker_swap_place": lambda r, v: (
        ""
        if r.joker_swap is JokerSwap.NEVER
        else {
            JokerSwapPlace.AT_ONCE: "A joker taken by a swap must be played again at once.",
            JokerSwapPlace.BEFORE_TURN_ENDS: "A joker taken by a swap must be played again before the turn ends.",
        }[r.joker_swap_place]
    ),
    "joker_swap_target": lambda r, v: (
        ""
        if r.joker_swap is JokerSwap.NEVER
        else {
            JokerSwapTarget.ANY: "",
            JokerSwapTarget.OWN_MELDS: "A joker taken by a swap goes into the swapper's own melds.",
        }[r.joker_swap_target]
    ),
    "joker_swap_from_sets": _yes_no("Jokers in sets may be swapped too.", "Jokers in sets are never swapped."),
    "dig_discard_pile": _yes_no(
        "A card below the top of the discard pile may be taken, with every card above it, if it is melded at once.", ""
    ),
    "no_discard_taken_card": _yes_no("A card just taken from the discard pile may not be discarded that turn.", ""),
    "discard_optional": _yes_no("A turn may end without a discard.", "A turn ends with a discard."),
    "buying": lambda r, v: buying(r),
    "buy_precedence": lambda r, v: (
        ""
        if r.buying is Buying.NONE
        else {
            BuyPrecedence.TURN_ORDER: "When several want to buy, the nearest in turn order gets the card.",
            BuyPrecedence.FIRST_CALL: "When several want to buy, the first to call gets the card.",
        }[r.buy_precedence]
    ),
    "buy_penalty_cards": lambda r, v: "",
    "buy_limit": lambda r, v: "",
    "final_deal_buy_limit": lambda r, v: "",
    "buy_blocks_next_player": _yes_no("Once someone calls May I?, the next player may no longer take the discard.", ""),
    "discard_call": lambda r, v: _sentence(calls(r).removeprefix("Calls: ")),
    "empty_hand": lambda r, v: {
        EmptyHand.MUST_DISCARD: "You may not empty your hand without a discard: keep a card to discard.",
        EmptyHand.FLOATS: "A player who empties their hand without a discard floats: they play on and go out "
        "with a discard.",
        EmptyHand.GOES_OUT: "Melding every card goes out.",
    }[r.empty_hand],
    "float_out_unplayable": lambda r, v: (
        ""
        if r.empty_hand is not EmptyHand.FLOATS
        else (
            "A floater goes out only by discarding an unplayable card drawn from the stock."
            if r.float_out_unplayable
            else "A floater goes out by discarding the card drawn."
        )
    ),
    "final_deal": lambda r, v: "",
    "stock_out": lambda r, v: {
        StockOut.RESHUFFLE: "An empty stock is made again from the discards (all but the top card)"
        + _limit(r.max_reshuffles, ", at most {} times a deal; then the deal ends.", "."),
        StockOut.END_DEAL: "An empty stock ends the deal and everyone scores.",
    }[r.stock_out],
    "max_reshuffles": lambda r, v: "",
    "cut_bonus": lambda r, v: (
        "" if r.cut_bonus == 0 else f"A cutter who cuts exactly the cards needed scores {r.cut_bonus}."
    ),
    "first_dealer": lambda r, v: {
        FirstDealer.FIRST_SEAT: "The first seat deals first.",
        FirstDealer.LOW_CARD: "The low card of a cut deals first.",
    }[r.first_dealer],
    "announce_at": lambda r, v: (
        ""
        if r.announce_at == 0
        else f"A player must say so when down to {plural(r.announce_at, 'card')} or fewer"
        + (", after discarding." if r.announce_after_discard else ".")
    ),
    "announce_after_discard": lambda r, v: "",
    "ties": lambda r, v: {
        Ties.SHARE: "Equal lowest totals share the win.",
        Ties.FINAL_DEAL: "Equal lowest totals: the lower score in the last deal wins.",
        Ties.REPLAY_FINAL_DEAL: "Equal lowest totals: the last deal is played again.",
    }[r.ties],
    "partnerships": _yes_no("Four players play as two teams (across the table), adding their totals.", ""),
}
"""One sentence maker per ruleset field (an empty text: nothing to say, or said with another field)."""


SAID_WITH = {
    "max_players": "min_players",
    "final_deal": "deals",
    "buy_penalty_cards": "buying",
    "buy_limit": "buying",
    "final_deal_buy_limit": "buying",
    "max_reshuffles": "stock_out",
    "announce_after_discard": "announce_at",
}
"""Fields whose sentence is said by another field's (theirs is empty)."""


def rules_in_fields(r: Ruleset) -> dict[str, list[str]]:
    """The fields each group of :func:`rules_in_words` speaks of (by the group's value), in order: a
    page in another language shows these by name and value.

    >>> from liverpool.engine.rules.presets import find_preset
    >>> rules_in_fields(find_preset('norsk'))['Buying (May I?)'][:4]
    ['upcard_buyable', 'buying', 'buy_precedence', 'buy_penalty_cards']
    """
    said = {
        info.name
        for _group, infos in grouped_fields()
        for info in infos
        if SENTENCES[info.name](r, getattr(r, info.name)) or (info.name == "notes" and r.notes)
    }
    out = {}
    for group, infos in grouped_fields():
        names = [info.name for info in infos if info.name in said or SAID_WITH.get(info.name) in said]
        if names:
            out[group.value] = names
    return out


def rules_in_words(r: Ruleset) -> list[tuple[str, list[str]]]:
    """Every rule of ``r`` as sentences, by the registry's groups (groups with nothing to say left out).

    >>> from liverpool.engine.rules.presets import find_preset
    >>> dict(rules_in_words(find_preset('norsk')))['Drawing and discarding'][:2]
    ['No card is turned up: the first player draws from the stock.', 'A card just taken from the discard pile may not be discarded that turn.']
    """
    out = []
    for group, infos in grouped_fields():
        sentences = [SENTENCES[info.name](r, getattr(r, info.name)) for info in infos]
        said = [s for s in sentences if s]
        if info_notes := [n for info in infos if info.name == "notes" for n in r.notes]:
            said += info_notes
        if said:
            out.append((group.value, said))
    return out
