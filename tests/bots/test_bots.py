"""The bot ladder: every bot plays every preset legally, sees only its observation, and ``hard`` is
reproducible from a seed. Plus a few exact situations for what each bot is meant to do."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from helpers import deal, pass_window, play, turn

from liverpool.bots.arena import Score, duplicate, per_game, play_deal, solo
from liverpool.bots.easy import EasyBot, must_act
from liverpool.bots.hard import HardBot, relative
from liverpool.bots.medium import MediumBot
from liverpool.bots.plan import plan_hand
from liverpool.bots.plan_whole import plan_whole_runs
from liverpool.bots.probe import (
    CHANCE_SHARE,
    Decision,
    Option,
    Probe,
    Row,
    evaluate,
    kind,
    probe_deal,
    summarize,
)
from liverpool.bots.probe import main as probe_main
from liverpool.bots.random_bot import random_bot
from liverpool.bots.registry import UnknownBot, bot_names, make_bot
from liverpool.bots.rollout import playout, quick_options
from liverpool.bots.table import fits_table
from liverpool.bots.worlds import known_world, sample_world, unseen_cards
from liverpool.engine.actions import Action, Discard, DrawDiscard, DrawStock, GoDown
from liverpool.engine.cards import Card, parse_cards
from liverpool.engine.game import checks
from liverpool.engine.game.legal import is_chance, legal_actions
from liverpool.engine.game.verify import shoe
from liverpool.engine.melds import Meld, lay_off_ends
from liverpool.engine.observe import Observation, observe
from liverpool.engine.play import Agent, SeededChance, run_game, step
from liverpool.engine.rules.presets import PRESETS, find_preset
from liverpool.engine.state import GameState, Phase

Factory = Callable[[], Agent]


def tiny_hard() -> HardBot:
    """``hard`` on a budget small enough for tests: one world, two candidates, short rollouts."""
    return HardBot(worlds=1, candidates=2, time_limit=None, max_steps=40)


FACTORIES: dict[str, Factory] = {
    "random": lambda: random_bot,
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": tiny_hard,
}


def checked(agent: Agent) -> Agent:
    """``agent``, failing the test when it answers something it was not offered, or declines when it must act."""

    def play(observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        choice = agent(observation, options, rng)
        if choice is None:
            assert not must_act(observation), f"declined in {observation.phase} though it must act"
        else:
            assert choice in options, f"{choice!r} was not among the options {options!r}"
        return choice

    return play


def table(names: list[str]) -> list[Agent]:
    return [checked(FACTORIES[name]()) for name in names]


# -- whole games --------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_bot_plays_whole_games_of_every_preset(preset: str) -> None:
    rules = PRESETS[preset]
    state = run_game(
        rules, table(["easy", "medium", "hard", "random"]), random.Random(preset), chance=SeededChance(preset)
    )
    assert state.is_over and state.winners
    assert len(state.results) >= len(rules.deals)


@pytest.mark.parametrize(("preset", "names"), [
    ("liverpool", ["hard", "medium", "easy"]),
    ("norsk", ["easy", "medium", "hard", "easy", "medium", "random"]),
])  # fmt: skip
def test_bots_play_three_and_six_seat_tables(preset: str, names: list[str]) -> None:
    state = run_game(PRESETS[preset], table(names), random.Random(1), chance=SeededChance(1))
    assert state.is_over and len(state.totals) == len(names)


def test_easy_beats_random_and_medium_beats_easy_over_a_few_games() -> None:
    """Not a benchmark: a coarse check that the ladder goes up (totals over four seeded games)."""
    rules = find_preset("british")
    points = {"random": 0, "easy": 0, "medium": 0}
    for seed in range(2):
        for names in (["random", "easy", "medium"], ["medium", "random", "easy"]):
            state = run_game(rules, [make_bot(n) for n in names], random.Random(seed), chance=SeededChance(seed))
            for seat, name in enumerate(names):
                points[name] += state.totals[seat]
    assert points["easy"] < points["random"]
    assert points["medium"] < points["random"]


# -- hidden cards ------------------------------------------------------------------------------


def decision_points(preset: str, seats: int, every: int, seed: int = 3) -> list[tuple[GameState, int]]:
    """States of a game between ``medium`` bots where some seat is about to decide, with that seat."""
    rules = PRESETS[preset]
    state = GameState(rules=rules, seats=seats, first_dealer=0, dealer=0)
    agents = [MediumBot() for _ in range(seats)]
    rng = random.Random(seed)
    chance = SeededChance(seed)
    out: list[tuple[GameState, int]] = []
    count = 0
    while not state.is_over and len(out) < 40:
        if not is_chance(state):
            count += 1
            seats_acting = sorted({a.seat for a in legal_actions(state) if a.seat is not None})
            if count % every == 0 and seats_acting:
                out.append((state.clone(), seats_acting[count % len(seats_acting)]))
        step(state, agents, rng, chance=chance)
    return out


def twin(state: GameState, viewer: int) -> GameState | None:
    """The same game seen from ``viewer``, but with a hidden card of another seat swapped for the top of the
    stock (of another face). ``None`` when there is no such pair."""
    if not state.stock:
        return None
    top = state.stock[-1]
    for seat in range(state.seats):
        if seat == viewer:
            continue
        hidden = [c for c in state.hands[seat] if c not in state.known[seat] and c.face != top.face]
        if hidden:
            other = state.clone()
            hand = other.hands[seat]
            hand[hand.index(hidden[0])] = top
            other.stock[-1] = hidden[0]
            return other
    return None


def same_choice_on_twins(make: Callable[[GameState], Agent], preset: str) -> bool:
    """Whether an agent decides the same in every pair of twin states, seeded alike."""
    for state, seat in decision_points(preset, 4, every=7):
        other = twin(state, seat)
        if other is None:
            continue
        assert observe(state, seat) == observe(other, seat)
        assert state.hands != other.hands and state.stock != other.stock
        options = legal_actions(state, seat)
        assert options == legal_actions(other, seat)
        first = make(state)(observe(state, seat), options, random.Random(11))
        second = make(other)(observe(other, seat), options, random.Random(11))
        if first != second:
            return False
    return True


@pytest.mark.parametrize("preset", ["liverpool", "may-i", "contract"])
@pytest.mark.parametrize("name", list(FACTORIES))
def test_no_bot_can_reach_hidden_cards(preset: str, name: str) -> None:
    factory = FACTORIES[name]
    assert same_choice_on_twins(lambda state: factory(), preset)


def test_the_twin_check_catches_a_bot_that_peeks() -> None:
    def peeking(state: GameState) -> Agent:
        def agent(observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
            return options[state.stock[-1].face % len(options)]

        return agent

    assert not same_choice_on_twins(peeking, "liverpool")


def test_sampled_worlds_agree_with_the_observation() -> None:
    rng = random.Random(5)
    for preset, seats in (("liverpool", 4), ("contract", 3), ("may-i", 6), ("norsk", 5)):
        for state, seat in decision_points(preset, seats, every=11):
            seen = observe(state, seat)
            world = sample_world(seen, rng)
            assert observe(world, seat) == seen
            assert sorted(world.all_cards()) == sorted(shoe(state))
            assert len(unseen_cards(seen)) == len(world.stock) + sum(
                len(world.hands[s]) - len(world.known[s]) for s in range(seats) if s != seat
            )


# -- the search bot -----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", list(PRESETS))
def test_rollout_options_are_legal_and_enough(preset: str) -> None:
    for state, _ in decision_points(preset, 4, every=3):
        for seat in range(state.seats):
            quick = quick_options(state, seat)
            legal = legal_actions(state, seat)
            assert all(a in legal for a in quick), f"{set(quick) - set(legal)} offered but illegal"
            must = seat == state.current or state.phase is Phase.BUY
            assert bool(quick) == bool(legal) or not must


def test_the_lay_off_index_is_every_meld_and_end_that_takes_the_card() -> None:
    """The shared (cached) lay-off index against a from-scratch check of every meld and end."""
    for preset in ("liverpool", "british", "contract"):
        for state, _ in decision_points(preset, 4, every=5):
            for hand in state.hands:
                for card in hand:
                    expected = [
                        (index, end)
                        for index, table_meld in enumerate(state.melds)
                        for end in lay_off_ends(table_meld.meld, card, state.rules)
                    ]
                    assert checks.table_lay_off_index(state.melds, state.rules).get(card.face, []) == expected
                    assert checks.lay_off_targets(state, card) == expected
                    assert fits_table(state.melds, card, state.rules) == bool(expected)


def test_playout_ends_the_deal() -> None:
    for state, seat in decision_points("british", 4, every=13)[:4]:
        world = sample_world(observe(state, seat), random.Random(2))
        deal_no = world.deal
        scores = playout(world, [MediumBot(counting=False)] * 4, random.Random(2))
        assert world.deal == deal_no + 1 or world.is_over
        assert scores == world.results[-1].scores


def test_hard_is_deterministic_for_a_seed() -> None:
    rules = find_preset("liverpool")

    def one_deal() -> list[Action]:
        agents: list[Agent] = [HardBot(worlds=2, candidates=3, time_limit=None), MediumBot(), tiny_hard(), EasyBot()]
        state = GameState(rules=rules, seats=4, first_dealer=0, dealer=0)
        rng = random.Random(21)
        chance = SeededChance(21)
        while state.deal == 0:
            step(state, agents, rng, chance=chance)
        return state.history

    assert one_deal() == one_deal()


def test_hard_at_its_default_budget_ignores_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tournament's ``hard`` (the registry's) counts worlds, not seconds: the same seed gives the same
    answer, and a clock that races ahead changes neither the answer nor how many worlds were searched."""
    bot = make_bot("hard")
    assert isinstance(bot, HardBot) and bot.time_limit is None
    searched = None
    for state, seat in decision_points("liverpool", 3, every=4):
        seen, options = observe(state, seat), legal_actions(state, seat)
        choice = bot(seen, options, random.Random(7))
        if bot.last_worlds > 1:
            searched = (seen, options, choice, bot.last_worlds)
            break
    assert searched is not None, "no decision was searched"
    seen, options, choice, worlds = searched
    assert bot(seen, options, random.Random(7)) == choice and bot.last_worlds == worlds
    ticks = iter(range(0, 10**9, 10))
    monkeypatch.setattr("liverpool.bots.hard.time.perf_counter", lambda: float(next(ticks)))
    assert bot(seen, options, random.Random(7)) == choice and bot.last_worlds == worlds


def test_hard_screens_out_candidates_that_are_not_better() -> None:
    bot = HardBot(screen=4, confidence=2.0)
    assert not bot.drops([-1.0, 2.0, 0.0])
    assert bot.drops([-1.0, 2.0, 0.0, 1.0])
    assert not bot.drops([-3.0, 1.0, -2.0, 0.5])
    assert bot.drops([5.0, 6.0, 7.0])
    assert bot.drops([0.0, 0.0, 0.0, 0.0])


def test_hard_answers_a_single_option_without_searching() -> None:
    state = deal(find_preset("liverpool"), 4)
    bot = HardBot(worlds=2, time_limit=None)
    seat = state.current
    play(state, DrawStock(seat))
    while state.phase is Phase.BUY:
        waiting = state.window[len(state.window_answers)]
        options = legal_actions(state, waiting)
        assert bot(observe(state, waiting), options, random.Random(1)) in options
        play(state, options[-1])
    options = legal_actions(state, seat)
    lone = [options[0]]
    assert bot(observe(state, seat), lone, random.Random(1)) == lone[0]
    assert bot.last_worlds == 0


def test_hard_needs_evidence_to_overrule_medium() -> None:
    bot = HardBot(confidence=1.0)
    assert bot.pick([[], [-5.0, -6.0, -4.0]]) == 1
    assert bot.pick([[], [-5.0, -6.0, -4.0], [-9.0, -8.0, -10.0]]) == 2
    assert bot.pick([[], [-30.0, 28.0, -1.0]]) == 0
    assert bot.pick([[], [-3.0, -5.0]]) == 0
    assert relative((10, 0, 20, 30), 0, partnerships=False) == 10 - 50 / 3
    assert relative((10, 0, 20, 30), 0, partnerships=True) == 0


# -- exact situations ---------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["liverpool", "british", "norsk", "may-i"])
def test_a_decision_is_the_first_option_of_the_ranking(preset: str) -> None:
    """Bots decide without ranking every option (``prefer``); the choice must be what ``rank`` puts first."""
    checked = 0

    def check(bot: EasyBot) -> Callable[[Observation, list[Action], random.Random], Action | None]:
        def agent(observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
            nonlocal checked
            choice = bot(observation, options, rng)
            if len(options) > 1 or not must_act(observation):
                assert choice == bot.rank(observation, options)[0]
                checked += 1
            return choice

        return agent

    run_game(PRESETS[preset], [check(EasyBot()), check(MediumBot()), check(EasyBot())], random.Random(3))
    assert checked > 100


def test_easy_goes_down_at_once_with_the_best_arrangement() -> None:
    rules = find_preset("liverpool")
    state = deal(rules, 3, hands=[None, "7H 7S 7D 9C 9D 9S KH 2C 5D 3S"], stock_top=["QD"])
    pass_window(play(state, DrawStock(1)))
    options = legal_actions(state, 1)
    choice = EasyBot()(observe(state, 1), options, random.Random(0))
    assert isinstance(choice, GoDown) and choice == next(a for a in options if isinstance(a, GoDown))


def test_easy_takes_a_discard_only_when_it_helps() -> None:
    rules = find_preset("liverpool")
    helpful = deal(rules, 3, hands=[None, "7H 7S 9D 9C KH 2C 5D 3S JD 4H"], upcard="7D")
    useless = deal(rules, 3, hands=[None, "7H 7S 9D 9C KH 2C 5D 3S JD 4H"], upcard="QC")
    for state, wanted in ((helpful, DrawDiscard(1)), (useless, DrawStock(1))):
        for bot in (EasyBot(), MediumBot()):
            assert bot(observe(state, 1), legal_actions(state, 1), random.Random(0)) == wanted


def test_a_bot_that_is_down_goes_out_rather_than_float() -> None:
    rules = find_preset("liverpool")
    for bot in (EasyBot(), MediumBot()):
        state = deal(rules, 3, hands=[None, "7H 7S 7D 9C 9D 9S 7C 9H 7D#1 9D#1"], stock_top=["KD", "2C", "3C", "7S#1"])
        pass_window(play(state, DrawStock(1)))
        play(state, GoDown(1, (Meld.parse("set: 7H 7S 7D"), Meld.parse("set: 9C 9D 9S"))), Discard(1, Card.parse("KD")))
        turn(turn(state))
        pass_window(play(state, DrawStock(1)))
        assert len(state.hands[1]) == 5
        while state.deal == 0:
            play(state, bot(observe(state, 1), legal_actions(state, 1), random.Random(0)))  # type: ignore[arg-type]
        assert state.results[-1].went_out == 1
        assert isinstance(state.history[-1], Discard)


def test_medium_keeps_its_jokers_before_going_down() -> None:
    rules = find_preset("liverpool")
    state = deal(rules, 3, hands=[None, "JK 7S 9D 4C KH 2C 5D 3S JD QH"], stock_top=["8H"])
    pass_window(play(state, DrawStock(1)))
    choice = MediumBot()(observe(state, 1), legal_actions(state, 1), random.Random(0))
    assert isinstance(choice, Discard) and not choice.card.is_joker


def test_plans_count_the_cards_still_needed() -> None:
    rules = find_preset("liverpool")
    assert plan_hand(parse_cards("7H 7S 7D 4C 5C 6C JK 2S"), rules.contract(1), rules).need == 0
    assert plan_hand(parse_cards("7H 7S 4C 5C 6C KD 2S"), rules.contract(1), rules).need == 2
    assert plan_hand(parse_cards("2C 9D KH"), rules.contract(3), rules).need == 6
    whole = rules.contract(6)
    assert plan_whole_runs(parse_cards("2H 3H 4H 5H 7S 8S 9S TS 6H JS QD KD"), whole, rules).need == 1
    assert plan_whole_runs(parse_cards("2H 3H 4H 5H 7S 8S 9S TS QD KD"), whole, rules).need == 2


def test_duplicate_deals_cancel_out_between_equal_bots() -> None:
    rules = find_preset("liverpool")
    assert duplicate(rules, EasyBot, EasyBot, deal=1, seed=4) == 0
    assert solo(rules, MediumBot, MediumBot, deal=2, seed=3) == 0
    assert per_game([1.0, 3.0, 10.0, 20.0], deals=2) == Score(17.0, (1.0 + 25.0) ** 0.5)


def test_the_registry_makes_fresh_bots_by_name() -> None:
    assert bot_names() == ["random", "easy", "medium", "hard"]
    assert make_bot("Medium") is not make_bot("medium")
    with pytest.raises(UnknownBot):
        make_bot("grandmaster")


# -- the probe of hard's search (liverpool.bots.probe) ------------------------------------------


def test_the_probe_pairs_every_option_on_the_same_worlds() -> None:
    """An option compared with itself differs by exactly 0 in every world (same world, same chance), and
    a different option is compared with the first over the worlds asked for."""
    bot = HardBot()
    for state, seat in decision_points("liverpool", 3, every=3):
        seen = observe(state, seat)
        ranked = bot.guide.rank(seen, legal_actions(state, seat))
        shortlist = bot.shortlist(seen, ranked)
        if len(shortlist) > 1:
            break
    else:
        pytest.fail("no searched decision found")
    same = evaluate(seen, [shortlist[0], shortlist[0]], 4, random.Random(1))
    assert same.options == (Option(kind(shortlist[0]), 0.0, 0.0),)
    other = evaluate(seen, shortlist, 4, random.Random(1))
    assert [o.kind for o in other.options] == [kind(c) for c in shortlist[1:]]
    assert other == evaluate(seen, shortlist, 4, random.Random(1))
    with pytest.raises(ValueError, match="at least 2 worlds"):
        evaluate(seen, shortlist, 1, random.Random(1))


def test_the_probe_summary_counts_finds_gains_and_chance() -> None:
    decisions = [
        Decision("Discard", (Option("Discard", -10.0, 2.0), Option("Discard", -12.0, 8.0))),  # first is better
        Decision("Discard", (Option("Discard", 1.0, 0.1),)),
        Decision("Pass", (Option("Buy", -4.0, 1.0),)),
        Decision("Pass", (Option("Buy", -4.0, 3.0),)),  # within noise
    ]
    rows = {row.kind: row for row in summarize(decisions, deals_probed=14, deals_per_game=7)}
    assert rows["Discard"] == Row("Discard", 2, 3, 1, 3 * CHANCE_SHARE, 10.0 / 2)
    assert rows["Pass"] == Row("Pass", 2, 2, 1, 2 * CHANCE_SHARE, 4.0 / 2)
    assert rows["all"] == Row("all", 4, 5, 2, 5 * CHANCE_SHARE, 14.0 / 2)


def test_the_probe_plays_medium_and_reports_searched_decisions() -> None:
    decisions = probe_deal("liverpool", deal=0, seed=4, seats=3, worlds=2)
    assert decisions and all(d.options for d in decisions)
    searched = {"Buy", "Pass", "Decline", "DrawStock", "DrawDiscard", "GoDown", "Discard", "EndTurn"}
    assert {d.kind for d in decisions} <= searched
    medium = [MediumBot() for _ in range(3)]
    assert play_deal(find_preset("liverpool"), medium, 0, 4) == play_deal(
        find_preset("liverpool"), [Probe(2, 4) if s == 4 % 3 else MediumBot() for s in range(3)], 0, 4
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--preset", "nope"], "no preset named 'nope'"),
        (["--seats", "9"], "--seats must be from 3 to 8"),
        (["--worlds", "1"], "--worlds must be at least 2"),
    ],
)
def test_the_probe_command_names_bad_input(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        probe_main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_known_worlds_keep_every_hand_and_shuffle_only_the_stock() -> None:
    state, seat = decision_points("liverpool", 3, every=5)[2]
    seen = observe(state, seat)
    world = known_world(seen, state, random.Random(3))
    assert world.hands == state.hands and world.melds == state.melds and world.discard_pile == state.discard_pile
    assert sorted(world.stock) == sorted(state.stock) and world.stock != state.stock
    assert known_world(seen, state, random.Random(3)).stock == world.stock
    sampled = sample_world(seen, random.Random(3))
    for name in ("phase", "current", "deal", "down", "buys", "known", "window", "turn_end_counts", "taken"):
        assert getattr(world, name) == getattr(sampled, name), name


def test_a_known_world_refuses_a_game_the_seat_does_not_observe() -> None:
    (state, seat), (later, _) = decision_points("liverpool", 3, every=5)[2:4]
    with pytest.raises(ValueError, match=f"not the one seat {seat} observes"):
        known_world(observe(state, seat), later, random.Random(3))


def test_the_probe_with_known_hands_sees_the_real_hands() -> None:
    """``--known-hands`` evaluates in the real deal, so its options differ from the sampled worlds' ones,
    while the deal itself is still played by ``medium``."""
    sampled = probe_deal("liverpool", deal=0, seed=4, seats=3, worlds=2)
    known = probe_deal("liverpool", deal=0, seed=4, seats=3, worlds=2, known_hands=True)
    assert [d.kind for d in known] == [d.kind for d in sampled]
    assert [d.options for d in known] != [d.options for d in sampled]
