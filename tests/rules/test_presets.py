"""The presets of RULES.md §4: each exists, is found by its aliases, and holds the key choices the table lists."""

from __future__ import annotations

import dataclasses

import pytest

from liverpool.cli.rulesfile import min_cards
from liverpool.engine.rules.parts import (
    Buying,
    BuyPrecedence,
    DealOut,
    DiscardCall,
    EmptyHand,
    FinalDeal,
    JoinableRuns,
    JokerSwap,
    MeldKind,
    MeldRule,
    StockOut,
)
from liverpool.engine.rules.presets import ALIASES, DEFAULT_PRESET, PRESETS, UnknownPreset, find_preset
from liverpool.engine.rules.ruleset import STANDARD_CONTRACTS, Ruleset

SECTION_4 = ("may-i", "liverpool", "contract", "norsk", "british", "british-9", "british-fixed", "british-nobuy")
JK = 13  # index of the joker in card_values (RANK_KEYS)


def contracts(r: Ruleset) -> list[str]:
    return [", ".join(str(m) for m in deal.contract) for deal in r.deals]


def hands(r: Ruleset) -> list[int]:
    return [deal.hand_size for deal in r.deals]


def test_every_preset_of_section_4_exists_under_its_name() -> None:
    assert tuple(PRESETS) == SECTION_4
    for name, ruleset in PRESETS.items():
        assert ruleset.name == name
        assert find_preset(name) is ruleset
        assert find_preset(name.upper()) is ruleset


@pytest.mark.parametrize(("alias", "name"), sorted(ALIASES.items()))
def test_aliases_find_their_preset(alias: str, name: str) -> None:
    assert find_preset(alias).name == name


def test_unknown_preset_names_the_presets() -> None:
    with pytest.raises(UnknownPreset, match="no preset named 'shanghai'; presets: may-i"):
        find_preset("shanghai")
    assert issubclass(UnknownPreset, ValueError)


def test_the_defaults_are_the_liverpool_rules() -> None:
    # Ruleset's docstring: defaults are the liverpool preset (001a); only the name, title and notes differ.
    liverpool = find_preset(DEFAULT_PRESET)
    assert liverpool.name == "liverpool"
    assert (
        dataclasses.replace(Ruleset(), name=liverpool.name, title=liverpool.title, notes=liverpool.notes) == liverpool
    )


@pytest.mark.parametrize("name", SECTION_4)
def test_every_preset_documents_its_choices(name: str) -> None:
    # RULES.md §4.6: "Where a text is silent, pick what the other texts say, and write the choice down."
    assert PRESETS[name].notes
    assert PRESETS[name].title


@pytest.mark.parametrize("name", SECTION_4)
def test_every_preset_has_a_shoe_for_every_table_size(name: str) -> None:
    # RULES.md §3.2 decks / jokers: enough cards to deal every hand, the upcard, and a stock to draw from.
    r = PRESETS[name]
    for players in range(r.min_players, r.max_players + 1):
        rule = r.deck_for(players)
        biggest = max(hands(r))
        assert rule.decks * 52 + rule.jokers > players * biggest + 1


@pytest.mark.parametrize("name", SECTION_4)
def test_every_contract_fits_the_hand_or_can_be_bought_into(name: str) -> None:
    # RULES.md §1.1: a contract is laid down after drawing; deal 7 of 001a needs bought cards (see its notes).
    r = PRESETS[name]
    for i, deal in enumerate(r.deals):
        reach = deal.hand_size + 1 + (2 if r.buying is not Buying.NONE else 0)
        assert min_cards(deal) <= reach, f"{name} deal {i + 1}"


def test_may_i() -> None:
    # RULES.md §4.1 may-i (000): 10/12 cards, 3 runs and out, May I before the next draw with turn-order
    # precedence, 4 May I's max in deal 7, joker swap only when coming down, wash the stock 3 times,
    # joker 20, spot cards at face value.
    r = find_preset("may-i")
    assert contracts(r) == list(STANDARD_CONTRACTS)
    assert hands(r) == [10, 10, 10, 10, 12, 12, 12]
    assert r.final_deal is FinalDeal.WHOLE_HAND
    assert r.buying is Buying.BEFORE_NEXT_DRAW
    assert r.buy_precedence is BuyPrecedence.TURN_ORDER
    assert r.final_deal_buy_limit == 4
    assert r.buy_limit is None
    assert r.buy_limit_for(6) == 4 and r.buy_limit_for(0) is None
    assert r.joker_swap is JokerSwap.GOING_DOWN
    assert r.stock_out is StockOut.RESHUFFLE and r.max_reshuffles == 3
    assert r.card_values[JK] == 20
    assert r.card_values[1:9] == (2, 3, 4, 5, 6, 7, 8, 9)
    # RULES.md §3.4 set constraints (000): the sets of a contract are of different ranks.
    assert r.set_distinct_ranks
    # RULES.md §3.16 after a successful May I (000, marked as varying).
    assert r.buy_blocks_next_player
    # RULES.md §3.27 announcements (000): at 3 or fewer cards.
    assert r.announce_at == 3


def test_liverpool() -> None:
    # RULES.md §4.2 liverpool (001a): 10 cards, Liverpool call, floating, set >= 2 naturals, run >= 3 naturals,
    # swap from runs while laying off, 2-9 = 5, joker 20, cut bonus.
    r = find_preset("liverpool")
    assert hands(r) == [10] * 7
    assert contracts(r) == list(STANDARD_CONTRACTS)
    assert r.discard_call is DiscardCall.LIVERPOOL
    assert r.empty_hand is EmptyHand.FLOATS
    assert r.set_min_naturals == 2 and r.run_min_naturals == 3
    assert r.joker_swap is JokerSwap.AFTER_DOWN and not r.joker_swap_from_sets
    assert r.card_values[1:9] == (5,) * 8
    assert r.card_values[JK] == 20
    assert r.cut_bonus == -50
    # RULES.md §3.10 discard after drawing from discard (001a).
    assert r.no_discard_taken_card
    # RULES.md §3.20 final deal (001a: "3 runs and out").
    assert r.final_deal is FinalDeal.WHOLE_HAND


def test_contract() -> None:
    # RULES.md §4.3 contract (001b): 1-2 decks by players, runs of 3+, sets of distinct suits (max 4),
    # dig into the discard pile, go out by melding all, joker 15.
    r = find_preset("contract")
    assert [rule.decks for rule in r.decks] == [1, 2]
    assert (r.min_players, r.max_players) == (3, 5)
    runs = [m for deal in r.deals for m in deal.contract if m.kind is MeldKind.RUN]
    assert runs and all(m == MeldRule(MeldKind.RUN, 3) for m in runs)
    assert r.set_distinct_suits
    assert r.set_max_length == 4
    assert r.dig_discard_pile
    assert r.empty_hand is EmptyHand.GOES_OUT
    assert r.card_values[JK] == 15
    assert r.card_values[1:9] == (2, 3, 4, 5, 6, 7, 8, 9)
    assert hands(r) == [10, 10, 10, 10, 12, 12, 12]


def test_norsk() -> None:
    # RULES.md §4.4 norsk (002): 3-6 players, no upcard, optional discard, joinable runs may not be split,
    # Liverpool call, swap only from runs after you are down.
    r = find_preset("norsk")
    assert (r.min_players, r.max_players) == (3, 6)
    assert r.upcard is False
    assert r.discard_optional is True
    assert r.joinable_runs is JoinableRuns.COULD_JOIN
    assert r.run_distinct_suits is False
    assert r.discard_call is DiscardCall.LIVERPOOL
    assert r.joker_swap is JokerSwap.AFTER_DOWN and not r.joker_swap_from_sets
    # RULES.md §3.2 decks / jokers (002): 3-4 players two decks, 5-6 three, two jokers per deck.
    assert [(d.max_players, d.decks, d.jokers) for d in r.decks] == [(4, 2, 4), (6, 3, 6)]
    assert hands(r) == [10] * 7


def test_british() -> None:
    # RULES.md §4.5 british (004): 3-8 players, 3 buys per deal, deal 7 = run of 7, joker 15, 2-9 = 5.
    r = find_preset("british")
    assert (r.min_players, r.max_players) == (3, 8)
    assert r.buy_limit == 3
    assert contracts(r)[6] == "run 7"
    assert contracts(r)[:6] == list(STANDARD_CONTRACTS[:6])
    assert r.card_values[JK] == 15
    assert r.card_values[1:9] == (5,) * 8
    # RULES.md §3.7 joker limits (004): at most one joker per 4-card segment.
    assert r.run_joker_spacing == 4
    # RULES.md §3.20 final deal (004): going out by completing the run of 7.
    assert r.deal_out(6) is DealOut.GOES_OUT


def test_british_variants() -> None:
    # RULES.md §2.8 extra lists (004) and §4.5 british variants.
    british = find_preset("british")
    nine = find_preset("british-9")
    assert contracts(nine)[7:] == ["run 4, run 4, run 4", "run 5, run 5"]
    assert len(nine.deals) == 9
    fixed = find_preset("british-fixed")
    assert hands(fixed) == [10] * 7
    assert contracts(fixed)[6] in ("run 6", "run 7")
    nobuy = find_preset("british-nobuy")
    # RULES.md §3.29 no-buy (004): buying disabled.
    assert nobuy.buying is Buying.NONE
    for variant in (nine, fixed, nobuy):
        assert variant.card_values == british.card_values
        assert variant.joker_swap == british.joker_swap
