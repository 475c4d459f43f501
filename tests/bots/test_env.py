"""The reinforcement-learning environment (issue 32): PettingZoo and Gymnasium conformance, the action mask
against the engine's legal actions, and that no hidden card reaches an observation."""

from __future__ import annotations

import copy
import importlib
import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liverpool.engine import GoDown, go_down_arrangements, is_legal, legal_actions, observe
from liverpool.env import encoding as enc
from liverpool.env import liverpool_v0
from liverpool.env.single import LiverpoolSingleEnv

PRESETS = ["liverpool", "may-i", "contract", "norsk", "british"]


def _random_step(env: liverpool_v0.raw_env, rng: np.random.Generator) -> None:
    mask = env.action_mask(env.agent_name_mapping[env.agent_selection])
    env.step(int(rng.choice(np.flatnonzero(mask))))


def _check_mask(env: liverpool_v0.raw_env) -> None:
    """The mask is the engine's legal actions of the selected seat: each listed action has its index (a going-down
    its meld steps), and each index in the mask stands for a listed action, a meld step that can be completed,
    or a decline out of turn."""
    state = env.state
    assert state is not None
    seat = env.agent_name_mapping[env.agent_selection]
    options = env.options(seat)
    listed = legal_actions(state, seat)
    assert listed, "the selected seat has legal actions"
    going_down = [a for a in listed if isinstance(a, GoDown)]
    if going_down and env.going_down == "all":
        going_down = [GoDown(seat, a) for a in go_down_arrangements(state, seat)]
    shapes = [tuple(sorted(enc.SHAPE_INDEX[enc.shape_of(m)] for m in a.melds)) for a in going_down]
    if not env.pending:
        for action in listed:
            if not isinstance(action, GoDown):
                assert env.layout.index_of(action) in options, action
        for seq in shapes:
            assert env.layout.meld + seq[0] in options
    for index, chosen in options.items():
        if chosen is liverpool_v0.DECLINE:
            assert index == enc.PASS and seat != state.current
        elif isinstance(chosen, tuple):
            assert any(seq[: len(chosen)] == chosen for seq in shapes)
        elif isinstance(chosen, GoDown):
            assert index == enc.GO_DOWN_DONE and chosen in going_down and is_legal(state, chosen)
            assert tuple(env.pending) in shapes
        else:
            assert chosen in listed and is_legal(state, chosen)
    # Other seats: only the selected one acts (the others have no mask).
    for other in range(env.seats):
        if other != seat:
            assert not env.action_mask(other).any()


@pytest.mark.parametrize(
    ("preset", "seats"), [*((p, 4 if p != "norsk" else 3) for p in PRESETS), ("liverpool", 8), ("may-i", 3)]
)
def test_mask_equals_engine_random_play(preset: str, seats: int) -> None:
    """Random play over a few hundred steps of each preset: at each step the mask equals the engine's legal
    actions, and random play reaches a going-down made meld by meld."""
    _random_play_checked(liverpool_v0.raw_env(preset=preset, seats=seats))


@pytest.mark.parametrize("preset", ["liverpool", "british"])
def test_mask_reaches_every_going_down(preset: str) -> None:
    """With ``going_down="all"`` the meld steps reach every arrangement the engine accepts
    (``go_down_arrangements``), and only those."""
    _random_play_checked(liverpool_v0.raw_env(preset=preset, seats=4, going_down="all"))


def _random_play_checked(env: liverpool_v0.raw_env) -> None:
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    went_down = False
    for _ in range(600):
        if env.terminations[env.agent_selection]:
            break
        _check_mask(env)
        went_down |= bool(env.pending)
        _random_step(env, rng)
    assert went_down, "random play reached a going-down"


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_whole_games_every_masked_action_applies(preset: str) -> None:
    """Whole random games: every index in the mask can be stepped (on a copy) without raising."""
    env = liverpool_v0.raw_env(preset=preset, seats=5 if preset in ("liverpool", "contract") else 3)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    steps = 0
    while not env.terminations[env.agent_selection]:
        _check_mask(env)
        if steps % 25 == 0:
            for index in np.flatnonzero(env.action_mask(env.agent_name_mapping[env.agent_selection])):
                trial = copy.deepcopy(env)
                trial.step(int(index))
        _random_step(env, rng)
        steps += 1
    assert env.state is not None and env.state.phase.value == "game_over"


def test_illegal_action_raises_with_engine_reason() -> None:
    from liverpool.engine import IllegalAction

    env = liverpool_v0.raw_env(preset="liverpool", seats=4)
    env.reset(seed=4)
    seat = env.agent_name_mapping[env.agent_selection]
    assert env.state is not None and env.state.phase.value == "draw"
    with pytest.raises(IllegalAction) as refused:
        env.step(env.layout.discard + 0)  # a discard in the draw phase
    assert refused.value.reason.value
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(env.layout.actions)
    assert env.agent_name_mapping[env.agent_selection] == seat  # nothing happened


def test_rewards_sum_to_minus_totals() -> None:
    """Each seat's rewards over the game sum to minus its final total of penalty points."""
    env = liverpool_v0.env(preset="may-i", seats=3)
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        returns[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    totals = env.unwrapped.state.totals
    assert [returns[a] for a in env.possible_agents] == [-float(t) for t in totals]


def test_reset_same_seed_replays() -> None:
    """``reset(seed=s)`` twice on the same environment replays the same episode."""
    env = liverpool_v0.raw_env(preset="liverpool", seats=4)

    def episode() -> list[bytes]:
        env.reset(seed=123)
        rng = np.random.default_rng(0)
        seen = []
        for _ in range(300):
            obs = env.observe(env.agent_selection)
            seen.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
            _random_step(env, rng)
        return seen

    assert episode() == episode()


def test_pettingzoo_conformance() -> None:
    """``api_test`` and ``seed_test`` with every warning an error. The two warnings PettingZoo gives any Dict
    observation (its own classic envs are on the lists that silence them) are silenced the same way."""
    api = importlib.import_module("pettingzoo.test.api_test")
    from pettingzoo.test import api_test, seed_test

    for listed in (api.env_obs_space, api.env_obs_dicts):
        if "liverpool_v0" not in listed:
            listed.append("liverpool_v0")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(liverpool_v0.env(preset="liverpool", seats=4), num_cycles=300)
        api_test(liverpool_v0.env(preset="british", seats=3), num_cycles=300)
        seed_test(lambda **kw: liverpool_v0.env(preset="may-i", seats=5, **kw), num_cycles=300)


def test_gymnasium_check_env() -> None:
    import warnings

    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for opponents in ("random", "easy"):
            check_env(LiverpoolSingleEnv(preset="liverpool", seats=4, opponents=opponents), skip_render_check=True)


def test_gymnasium_illegal_ends_episode_and_returns_match() -> None:
    env = LiverpoolSingleEnv(preset="liverpool", seats=3, opponents="random")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == env.illegal_reward and "illegal" in info
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(3)
    total, terminated = 0.0, False
    while not terminated:
        obs, reward, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += reward
    assert env.aec.state is not None
    assert total == -env.aec.state.totals[0]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 1500), shuffle_seed=st.integers(0, 10_000))
def test_no_hidden_card_reaches_an_observation(seed: int, steps: int, shuffle_seed: int) -> None:
    """Two states that differ only in what a seat may not see (the stock's order and the other seats' cards
    they did not take face up) give that seat equal observation arrays."""
    env = liverpool_v0.raw_env(preset="liverpool", seats=4)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if env.terminations[env.agent_selection]:
            break
        _random_step(env, rng)
    state = env.state
    assert state is not None
    for viewer in range(state.seats):
        _check_hidden(env, viewer, shuffle_seed)


def _check_hidden(env: liverpool_v0.raw_env, viewer: int, shuffle_seed: int) -> None:
    state = env.state
    assert state is not None
    other = state.clone()
    # Pool the hidden cards (stock, and the other hands but for their face-up pickups) and deal them anew.
    hidden = list(other.stock)
    keep: dict[int, list[object]] = {}
    for seat in range(state.seats):
        if seat == viewer or not other.hands:
            continue
        known = list(other.known[seat]) if other.known else []
        keep[seat] = [c for c in other.hands[seat] if c in known]
        hidden += [c for c in other.hands[seat] if c not in known]
    random.Random(shuffle_seed).shuffle(hidden)
    for seat, kept in keep.items():
        size = len(other.hands[seat]) - len(kept)
        other.hands[seat] = [*kept, *hidden[:size]]  # type: ignore[list-item]
        hidden = hidden[size:]
    other.stock = hidden
    a = enc.encode_observation(env.layout, observe(state, viewer), env.pending)
    b = enc.encode_observation(env.layout, observe(other, viewer), env.pending)
    assert np.array_equal(a, b)
    # Through the environment too, the action mask included.
    agent = env.possible_agents[viewer]
    seen = env.observe(agent)
    twin = copy.copy(env)
    twin.state = other
    twin._options_cache = None
    seen_twin = twin.observe(agent)
    assert np.array_equal(seen["observation"], seen_twin["observation"])
    assert np.array_equal(seen["action_mask"], seen_twin["action_mask"])


def test_render_names_the_legal_actions() -> None:
    env = liverpool_v0.raw_env(preset="liverpool", seats=4, render_mode="ansi")
    env.reset(seed=5)
    text = env.render()
    assert text is not None and "hand:" in text and "draw stock" in text
    single = LiverpoolSingleEnv(preset="liverpool", seats=3, render_mode="ansi")
    single.reset(seed=5)
    shown = single.render()
    assert shown is not None and "legal:" in shown


@pytest.mark.slow
def test_gymnasium_against_medium_bots() -> None:
    """A whole game against ``medium`` bots, the learner playing at random: its return is minus its total."""
    env = LiverpoolSingleEnv(preset="may-i", seats=3, opponents=["medium", "easy"])
    obs, _ = env.reset(seed=9)
    rng = np.random.default_rng(9)
    total, terminated = 0.0, False
    while not terminated:
        obs, reward, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += reward
    assert env.aec.state is not None and total == -env.aec.state.totals[0]


@pytest.mark.parametrize("preset", ["may-i", "liverpool"])
def test_seats_asked_in_the_engine_drivers_order(preset: str) -> None:
    """Bots playing every seat through the env (``play``) make the same game as the engine's driver
    (``run_game``) with the same seed: the env asks seats in the driver's order (``asking_order``), out of
    turn and in buy windows (RULES.md §3 buying: precedence)."""
    from liverpool.bots.registry import make_bot
    from liverpool.engine import SeededChance, find_preset, run_game

    rules, seats, seed = find_preset(preset), 4, 11
    driver_bots = [make_bot("easy") for _ in range(seats)]
    expected = run_game(rules, driver_bots, random.Random(seed), chance=SeededChance(seed))
    env = liverpool_v0.raw_env(preset=preset, seats=seats)
    env.reset(seed=seed)
    env_bots = [make_bot("easy") for _ in range(seats)]
    rng = random.Random(seed)
    state = env.state
    assert state is not None
    while not state.is_over:
        seat = env.agent_name_mapping[env.agent_selection]
        env.play(env_bots[seat](observe(state, seat), legal_actions(state, seat), rng))
    assert state.history == expected.history
    assert any(type(a).__name__ == "Buy" for a in state.history), "the game has buys out of turn"


def test_gymnasium_step_action_takes_engine_actions() -> None:
    """``step_action`` with the engine action an index stands for plays as ``step`` with the index; an illegal
    engine action raises the engine's refusal and changes nothing."""
    from liverpool.engine import Discard, IllegalAction

    by_index = LiverpoolSingleEnv(preset="may-i", seats=3, opponents="random")
    by_action = LiverpoolSingleEnv(preset="may-i", seats=3, opponents="random")
    obs, _ = by_index.reset(seed=4)
    by_action.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(60):
        index = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        chosen = by_index.aec.options(by_index.seat)[index]
        if isinstance(chosen, tuple):  # a meld step has no engine action: both take the index
            by_action.step(index)
            obs, *_ = by_index.step(index)
            continue
        state = by_action.aec.state
        assert state is not None
        before = len(state.history)
        card = observe(state, by_action.seat).hand[0]
        if state.phase.value != "play":
            with pytest.raises(IllegalAction):
                by_action.step_action(Discard(by_action.seat, card))
            assert len(state.history) == before
        got = by_action.step_action(chosen)
        obs, reward, terminated, _, _ = by_index.step(index)
        assert np.array_equal(got[0]["observation"], obs["observation"]) and got[1:3] == (reward, terminated)
        if terminated:
            break


def test_options_survive_a_reseed() -> None:
    """The constructor's options (ruleset, seats, ``going_down``) hold after ``reset(seed=)`` with another seed:
    a reseeded environment plays exactly as a fresh one of the same options and seed."""

    def episode(env: liverpool_v0.raw_env, seed: int) -> list[bytes]:
        env.reset(seed=seed)
        rng = np.random.default_rng(0)
        seen = []
        for _ in range(200):
            obs = env.observe(env.agent_selection)
            seen.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
            _random_step(env, rng)
        return seen

    reused = liverpool_v0.raw_env(preset="may-i", seats=5, going_down="all")
    episode(reused, 1)
    again = episode(reused, 2)
    assert (reused.seats, reused.going_down, reused.rules.name) == (
        5,
        "all",
        liverpool_v0.raw_env(preset="may-i").rules.name,
    )
    assert again == episode(liverpool_v0.raw_env(preset="may-i", seats=5, going_down="all"), 2)
