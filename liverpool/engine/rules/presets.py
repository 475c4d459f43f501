"""The presets of RULES.md §4: named rulesets, found by name or alias.

>>> find_preset('norwegian').name
'norsk'
>>> find_preset('monopoly')
Traceback (most recent call last):
...
liverpool.engine.rules.presets.UnknownPreset: no preset named 'monopoly'; presets: may-i, liverpool, contract, norsk, british, british-9, british-fixed, british-nobuy
"""

from __future__ import annotations

import dataclasses

from liverpool.engine.rules.parts import (
    Buying,
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
    MeldRule,
    Ties,
)
from liverpool.engine.rules.ruleset import BASE_FINDER, STANDARD_CONTRACTS, Ruleset


class UnknownPreset(ValueError):
    """A preset name or alias that does not exist."""


def _deals(
    contracts: tuple[str, ...], hands: tuple[int, ...], outs: dict[int, DealOut] | None = None
) -> tuple[DealRule, ...]:
    """Deals of these contracts and hand sizes; ``outs`` gives the out of some deals by index (else normal)."""
    return tuple(
        DealRule(tuple(MeldRule.parse(part) for part in contract.split(",")), hand, (outs or {}).get(i, DealOut.NORMAL))
        for i, (contract, hand) in enumerate(zip(contracts, hands, strict=True))
    )


HANDS_10_12 = (10, 10, 10, 10, 12, 12, 12)
FACE_VALUES_JOKER_20 = (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 20)
FIVES_TENS_JOKER_15 = (15, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 15)
FACE_VALUES_JOKER_15 = (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 15)
BRITISH_CONTRACTS = (*STANDARD_CONTRACTS[:6], "run 7")
RUN_OF_SEVEN_GOES_OUT = {6: DealOut.GOES_OUT}  # 004's deal 7, wherever it stands in the match

MAY_I = Ruleset(
    name="may-i",
    title="May I? (the Bronx family game, 000)",
    notes=(
        "Decks: 000 says at least two decks with two jokers each and a third when needed; we use 2 decks "
        "(4 jokers) up to 5 seats and 3 decks (6 jokers) for 6-8, as 001a does.",
        "Joker limits: 000 is silent; we take 001a/002's (a set needs 2 naturals, a run 3).",
        "Discarding the card just taken from the pile: 000 is silent; we forbid it as 001a, 001b and 002 do.",
        "'Four May I's max' in round 7 is read as four per seat, like 004's per-seat limit.",
        "000 marks 'after a May I the next player must draw from stock' as varying; it is on here "
        "(buy_blocks_next_player) and can be turned off.",
        "First dealer: 000 is silent; the low card of a cut deals, as in 001a/001b.",
        "000's table says 'groups must be different' in rounds 1 and 5 (round 4's three groups carry a warning "
        "instead); one ruleset field covers every deal, so the sets of any contract must differ in rank.",
        "Buying the upcard: 000 buys 'when another player discards a card that you want'; the upcard turned at "
        "the deal's start is nobody's discard, so it cannot be bought (upcard_buyable = false).",
        "Announcing: 'After discarding, if you have 3 or less cards in your hand, you must announce how many "
        "cards you have': the count is announced at the end of the turn, not while cards are laid mid-turn.",
    ),
    min_players=3,
    max_players=8,
    decks=(DeckRule(5, 2, 4), DeckRule(8, 3, 6)),
    deals=_deals(STANDARD_CONTRACTS, HANDS_10_12),
    card_values=FACE_VALUES_JOKER_20,
    set_distinct_ranks=True,
    run_distinct_suits=True,
    joker_swap=JokerSwap.GOING_DOWN,
    joker_swap_place=JokerSwapPlace.AT_ONCE,
    joker_swap_from_sets=True,
    buying=Buying.BEFORE_NEXT_DRAW,
    final_deal_buy_limit=4,
    buy_blocks_next_player=True,
    discard_call=DiscardCall.NONE,
    empty_hand=EmptyHand.MUST_DISCARD,
    final_deal=FinalDeal.WHOLE_HAND,
    max_reshuffles=3,
    cut_bonus=0,
    announce_at=3,
    announce_after_discard=True,
    float_out_unplayable=False,
)

LIVERPOOL = Ruleset(
    name="liverpool",
    title="Liverpool Rummy (001a)",
    notes=(
        "Runs of one contract in different suits: 001a is silent; 000 and 001b require it, so we do.",
        "Sets of one contract may share a rank: only 000 forbids it.",
        "An exhausted stock: 001a is silent; we wash the discards up to 3 times as 000 does, then the deal ends.",
        "Joker swap 'while playing off' is read as: once you are down (the turn you go down included), from runs, "
        "onto any meld (001a names no owner).",
        "'So long as that Joker is placed somewhere else before the player concludes their turn': other plays may "
        "come first (before_turn_ends), none leaving it without a place; no discard or going out with it in hand.",
        "Liverpool call: the caller sheds one card on top of the pile, which the next player may take; a "
        "caller must keep at least one card, since going out needs a discard of one's own turn.",
        "'3 runs with no remaining cards' in deal 7: the contract must use the whole hand, no discard.",
        "Deal 7 names 12 cards while 001a deals 10 every deal: a player reaches 12 by buying (each buy adds "
        "two cards), so the three runs of deal 7 are made with bought cards.",
        "Floating: 'a floater must draw an unplayable card from the deck (down-pile) in order to go out': a "
        "player who began the turn with no cards may discard the card drawn to go out only if it fits no meld "
        "on the table; a card that fits is laid off, and the player floats on.",
        "Buying the upcard: 001a buys 'after each player has finished their turn by discarding'; the upcard "
        "is nobody's discard, so it cannot be bought (the turn list's 'may allow any player to buy the top card' "
        "is read with that section).",
        "The knock 'when there is only one card left in your hand' is not tied to the discard: it shows "
        "whenever the hand holds one card, mid-turn included.",
    ),
)

CONTRACT = Ruleset(
    name="contract",
    title="Contract Rummy (001b)",
    notes=(
        "Decks: 001b gives 1 deck + 1 joker and 2 decks + 2 jokers 'over 5 players' but also 3-5 players "
        "and 12-card hands, which one deck cannot deal to 4 or 5; we use 1 deck up to 3 seats, 2 decks above.",
        "Runs are 3+ cards, so a run needs 2 naturals (the others' 3-of-4 scaled down); sets 2 naturals.",
        "Buying: 001b is silent; we take 001a/002/004's (after the next player declines, nearest first).",
        "An exhausted stock: 001b is silent; we wash up to 3 times as 000 does.",
        "The seventh deal melds every card at once (001b: 'typically requires all cards be melded').",
        "Joker swap: only a player down since an earlier turn (down_earlier), from runs; the joker is played at any "
        "point of that turn (before_turn_ends), onto any meld (001b names no owner), no play leaving it no place.",
        "Buying the upcard: 001b is silent on buying; with 001a's buying after a discard, the upcard cannot be bought.",
    ),
    min_players=3,
    max_players=5,
    decks=(DeckRule(3, 1, 1), DeckRule(5, 2, 2)),
    deals=_deals(tuple(c.replace("run 4", "run 3") for c in STANDARD_CONTRACTS), HANDS_10_12),
    card_values=FACE_VALUES_JOKER_15,
    set_distinct_suits=True,
    set_max_length=4,
    run_distinct_suits=True,
    run_min_naturals=2,
    joker_swap=JokerSwap.DOWN_EARLIER,
    dig_discard_pile=True,
    discard_call=DiscardCall.NONE,
    empty_hand=EmptyHand.GOES_OUT,
    float_out_unplayable=False,
    max_reshuffles=3,
    cut_bonus=0,
    announce_at=0,
)

NORSK = Ruleset(
    name="norsk",
    title="Liverpool, Norwegian rules (002)",
    notes=(
        "002's tables of contracts and card values are missing from the text; we use the standard contracts "
        "(RULES §2, 10 cards) and 001a's values, since 002 otherwise follows 001a (Liverpool call, floating).",
        "The final deal: 002 is silent; the contract must use the whole hand, as in 000 and 001a.",
        "An exhausted stock: 002 is silent; we wash up to 3 times as 000 does.",
        "Joker swap: once you are down, from runs, and the joker is laid again at once ('Du må med en gang "
        "legge jokeren på et annet sted i samme eller en annen kombinasjon på bordet'), on any meld.",
        "Runs of one contract may share a suit, but two whose cards could be laid as one run may not be laid "
        "apart (joinable_runs = could_join): 002's 'kombinasjoner som kunne vært lagt sammen' are combinations "
        "that could have been laid together, so 3-4-5-JK and 8-9-10-JK of a suit are one run (3 to 10, the "
        "jokers as 6 and 7), not two, though they do not touch as laid.",
        "Floating: 002 says only that you must discard your last card ('du må kaste ditt siste kort') and that "
        "emptying the hand without a card to discard floats; it does not ask for an unplayable card, so a "
        "floater may go out by discarding any card drawn (float_out_unplayable = false).",
        "Buying the upcard: 002 deals no upcard, so there is none to buy.",
    ),
    min_players=3,
    max_players=6,
    decks=(DeckRule(4, 2, 4), DeckRule(6, 3, 6)),
    upcard=False,
    run_distinct_suits=False,
    joker_swap_place=JokerSwapPlace.AT_ONCE,
    joinable_runs=JoinableRuns.COULD_JOIN,
    discard_optional=True,
    float_out_unplayable=False,
    max_reshuffles=3,
    cut_bonus=0,
    announce_at=0,
)

BRITISH = Ruleset(
    name="british",
    title="Liverpool Rummy, British (004)",
    notes=(
        "Jokers: 004 allows 2-4 jokers with two decks; we use 4 (2 per deck), and 6 with three decks.",
        "004 says deal 7 (a run of 7) has no extra cards while dealing 12: we read it as going down with "
        "the run of seven goes out at once (that deal's out = goes_out, a property of the contract).",
        "Buying the upcard: 004 buys when 'the current player declines the top discard'; the upcard starts the "
        "discard pile and is its top card, so the first player's decline opens it to buyers (upcard_buyable).",
        "A sequence holds at most one joker in any four consecutive cards (run_joker_spacing = 4); a book "
        "needs two naturals; jokers in books may be swapped too, since 004 does not make them dead.",
        "Joker swap: 'during your meld or lay-off phase' means as you go down or once you are down.",
        "'Use the reclaimed joker immediately as a wild in your own meld': the next play places it (at_once), in "
        "the melds it goes down with or on a meld the swapper laid (own_melds), never on an opponent's.",
        "Ties: the lower score in the final deal wins (004 offers this or replaying the final deal).",
        "An exhausted stock: 004 offers reshuffling or ending the deal; we reshuffle up to 3 times (as 000) and then "
        "end the deal, so a deal in which nobody can complete the run of seven still ends.",
        "Card just taken from the pile may not be discarded: 004 is silent; we follow 001a/001b/002.",
    ),
    min_players=3,
    max_players=8,
    decks=(DeckRule(4, 2, 4), DeckRule(8, 3, 6)),
    deals=_deals(BRITISH_CONTRACTS, HANDS_10_12, RUN_OF_SEVEN_GOES_OUT),
    card_values=FIVES_TENS_JOKER_15,
    upcard_buyable=True,
    run_joker_spacing=4,
    joker_swap=JokerSwap.DOWN,
    joker_swap_place=JokerSwapPlace.AT_ONCE,
    joker_swap_target=JokerSwapTarget.OWN_MELDS,
    joker_swap_from_sets=True,
    buy_limit=3,
    discard_call=DiscardCall.NONE,
    empty_hand=EmptyHand.MUST_DISCARD,
    float_out_unplayable=False,
    final_deal=FinalDeal.NORMAL,
    max_reshuffles=3,
    cut_bonus=0,
    first_dealer=FirstDealer.LOW_CARD,
    announce_at=0,
    ties=Ties.FINAL_DEAL,
)

BRITISH_9 = dataclasses.replace(
    BRITISH,
    name="british-9",
    title="Liverpool Rummy, British, nine deals (004)",
    notes=(
        *BRITISH.notes,
        "Nine deals: deal 8 = 3 runs of 4, deal 9 = 2 runs of 5, 12 cards; deal 7's run of "
        "seven still goes out at once, since going out on completing it belongs to that contract, and the "
        "last deal is played normally.",
    ),
    deals=_deals(
        (*BRITISH_CONTRACTS, "run 4, run 4, run 4", "run 5, run 5"), (*HANDS_10_12, 12, 12), RUN_OF_SEVEN_GOES_OUT
    ),
)

BRITISH_FIXED = dataclasses.replace(
    BRITISH,
    name="british-fixed",
    title="Liverpool Rummy, British, fixed 10-card hands (004)",
    notes=(*BRITISH.notes, "Fixed hands: 10 cards every deal; the final run is 7 long (004 allows 6 or 7)."),
    deals=_deals(BRITISH_CONTRACTS, (10,) * 7, RUN_OF_SEVEN_GOES_OUT),
)

BRITISH_NOBUY = dataclasses.replace(
    BRITISH,
    name="british-nobuy",
    title="Liverpool Rummy, British, no buying (004)",
    notes=(*BRITISH.notes, "No buying: discards are taken only by the next player in turn."),
    buying=Buying.NONE,
    buy_limit=None,
)

PRESETS: dict[str, Ruleset] = {
    r.name: r for r in (MAY_I, LIVERPOOL, CONTRACT, NORSK, BRITISH, BRITISH_9, BRITISH_FIXED, BRITISH_NOBUY)
}
ALIASES: dict[str, str] = {
    "mayi": "may-i",
    "may_i": "may-i",
    "progressive": "may-i",
    "default": "liverpool",
    "liverpool-rummy": "liverpool",
    "contract-rummy": "contract",
    "norwegian": "norsk",
    "uk": "british",
    "nine-deal": "british-9",
    "fixed-hand": "british-fixed",
    "no-buy": "british-nobuy",
}
DEFAULT_PRESET = "liverpool"


def find_preset(name: str) -> Ruleset:
    """A preset by name or alias (case-insensitive)."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in PRESETS:
        raise UnknownPreset(f"no preset named {name!r}; presets: {', '.join(PRESETS)}")
    return PRESETS[key]


def note_keys(r: Ruleset) -> list[str | None]:
    """For each of ``r``'s notes, ``'<preset>.<n>'``: the first shipped preset that holds this note, and
    its place there (a page says a shipped note from its key, docs/i18n.md); ``None`` for a note no
    preset holds (one a player wrote, shown in their own words).

    >>> import dataclasses
    >>> note_keys(find_preset('british-9'))[:2], note_keys(dataclasses.replace(PRESETS['may-i'], notes=('mine',)))
    (['british.0', 'british.1'], [None])
    """
    return [_NOTE_KEYS.get(note) for note in r.notes]


def _first_places() -> dict[str, str]:
    """Each note of the shipped presets and its key: the first preset holding it, and its place there."""
    keys: dict[str, str] = {}
    for preset in PRESETS.values():
        for n, note in enumerate(preset.notes):
            keys.setdefault(note, f"{preset.name}.{n}")
    return keys


_NOTE_KEYS: dict[str, str] = _first_places()

BASE_FINDER.append(find_preset)
