"""The environment's fast paths (``encoding.encode_observation``, ``encoding.choices``, the cached mask of
``liverpool_v0``) against a straightforward reference written here, over random seeded games: every
observation array and every mask must be the same, number for number."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")

from liverpool.engine import (
    FACE_MASK,
    Action,
    Buy,
    Call,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    GoDown,
    LayOff,
    Observation,
    Pass,
    Phase,
    SwapJoker,
    legal_actions,
    observe,
)
from liverpool.env import encoding as enc
from liverpool.env import liverpool_v0


def reference_observation(layout: enc.Layout, obs: Observation, pending: Sequence[int]) -> npt.NDArray[np.float32]:
    """The observation array written block by block, element by element, as docs/env.md lists it."""
    assert obs.viewer is not None
    me, s = obs.viewer, layout.seats
    out = [0.0] * layout.observation_size
    rel = [(me + k) % s for k in range(s)]
    where = {seat: k for k, seat in enumerate(rel)}
    at = 0

    def counts(cards: Sequence[int]) -> None:
        for c in cards:
            out[at + (c & FACE_MASK)] += 1

    def one_hot(index: int | None, size: int) -> None:
        nonlocal at
        if index is not None:
            out[at + index] = 1
        at += size

    def put(values: Sequence[float]) -> None:
        nonlocal at
        for v in values:
            out[at] = v
            at += 1

    counts(obs.hand)
    at += enc.FACES
    counts(obs.discard_pile)
    at += enc.FACES
    for card in (obs.top_discard, obs.taken, obs.must_place):
        one_hot(None if card is None else card & FACE_MASK, enc.FACES)
    for tm in obs.melds:
        counts(tm.meld.cards)
    at += enc.FACES
    counts(obs.reclaimed)
    at += enc.FACES
    put((len(obs.discard_pile), obs.stock_size, obs.deal, obs.reshuffles, float(obs.down_this_turn)))
    table_at = at
    for slot, tm in enumerate(obs.melds):
        at = table_at + slot * layout.meld_features
        faces = [c & FACE_MASK for c in tm.meld.cards]
        naturals = [f for f in faces if f != enc.JOKER]
        is_set = tm.meld.kind.value == "set"
        put((1, float(is_set), float(not is_set), tm.meld.low, len(faces), len(faces) - len(naturals)))
        one_hot(None if is_set else naturals[0] // 13 if naturals else 0, 4)
        one_hot(where[tm.owner], s)
    at = table_at + layout.max_melds * layout.meld_features
    for seat in rel:
        view = obs.seats[seat]
        put((view.hand_count, float(view.down), view.buys, float(view.announced)))
        counts(view.known)
        at += enc.FACES
    one_hot(enc.PHASES.index(obs.phase), len(enc.PHASES))
    put((float(obs.current == me),))
    one_hot(where[obs.current], s)
    one_hot(where[obs.dealer], s)
    for i in range(layout.max_contract):
        rule = obs.contract[i] if i < len(obs.contract) else None
        put((0, 0, 0) if rule is None else (rule.kind.value == "set", rule.kind.value == "run", rule.length))
    answered = {seat for seat, _ in obs.window_answers}
    put([float(seat in obs.window) for seat in rel])
    put([float(seat in answered) for seat in rel])
    put([float(seat in obs.may_i_calls) for seat in rel])
    put((float(obs.fresh), float(obs.call_open)))
    put([obs.totals[seat] if obs.totals else 0 for seat in rel])
    for index in pending:
        out[at + index] = 1
    at += len(enc.CATALOGUE)
    assert at == layout.observation_size
    return np.array(out, dtype=np.float32)


def reference_index(layout: enc.Layout, action: Action) -> int:
    """The action index of a listed engine action, by the tables of docs/env.md."""
    face = FACE_MASK
    match action:
        case DrawStock():
            return enc.DRAW_STOCK
        case Buy():
            return enc.BUY
        case Pass():
            return enc.PASS
        case EndTurn():
            return enc.END_TURN
        case Call(card=None):
            return enc.CALL_RUMMY
        case Call(card=card) if card is not None:
            return layout.call_shed + (card & face)
        case DrawDiscard(depth=depth):
            return layout.draw_discard + depth - 1
        case Discard(card=card):
            return layout.discard + (card & face)
        case LayOff(card=card, meld=meld, end=end):
            return layout.lay_off + ((card & face) * layout.max_melds + meld) * len(enc.ENDS) + enc.ENDS.index(end)
        case SwapJoker(card=card, meld=meld):
            return layout.swap + (card & face) * layout.max_melds + meld
    raise AssertionError(f"no index for {action!r}")


def reference_mask(env: liverpool_v0.raw_env, seat: int) -> npt.NDArray[np.int8]:
    """The mask from the engine's legal actions, asked afresh: each listed action's index, the next meld step of
    each listed going-down that extends the pending one (done when it is complete), and PASS for a seat that may
    decline out of turn."""
    state = env.state
    assert state is not None
    mask = np.zeros(env.layout.actions, dtype=np.int8)
    if state.phase is Phase.GAME_OVER or env.possible_agents[seat] != env.agent_selection:
        return mask
    listed = legal_actions(state, seat)
    pending = tuple(env.pending)
    for action in listed:
        if isinstance(action, GoDown):
            shapes = tuple(sorted(enc.SHAPE_INDEX[enc.shape_of(m)] for m in action.melds))
            if shapes[: len(pending)] == pending:
                mask[enc.GO_DOWN_DONE if shapes == pending else env.layout.meld + shapes[len(pending)]] = 1
        elif not pending:
            mask[reference_index(env.layout, action)] = 1
    if state.phase is Phase.DRAW and seat != state.current and not pending:
        mask[enc.PASS] = 1
    return mask


@pytest.mark.parametrize(
    ("preset", "seats", "seed"),
    [("liverpool", 4, 1), ("liverpool", 8, 2), ("may-i", 3, 3), ("contract", 5, 4), ("norsk", 3, 5), ("british", 4, 6)],
)
def test_fast_observation_and_mask_equal_the_reference(preset: str, seats: int, seed: int) -> None:
    """Random seeded play (whole deals, each step's action drawn from the mask): for every seat at every step the
    environment's observation array and mask equal the reference's exactly. Fails when the fast encoding puts
    any number in another place or value, or a cached mask is stale."""
    env = liverpool_v0.raw_env(preset=preset, seats=seats)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    went_down = steps = 0
    while not env.terminations[env.agent_selection] and steps < 900:
        state = env.state
        assert state is not None
        selected = env.agent_name_mapping[env.agent_selection]
        for seat in range(seats):
            got = env.observe(env.possible_agents[seat])
            pending = env.pending if seat == selected else []
            want = reference_observation(env.layout, observe(state, seat), pending)
            assert got["observation"].dtype == want.dtype
            assert np.array_equal(got["observation"], want), (steps, seat, np.flatnonzero(got["observation"] != want))
            assert np.array_equal(got["action_mask"], reference_mask(env, seat)), (steps, seat)
        went_down += bool(env.pending)
        env.step(int(rng.choice(np.flatnonzero(env.action_mask(selected)))))
        steps += 1
    assert went_down, "random play reached a going-down"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["liverpool", "may-i", "contract", "british"]),
    seats=st.integers(3, 5),
    seed=st.integers(0, 10_000),
)
def test_kept_shares_equal_an_array_built_afresh_when_only_the_agent_to_act_looks(
    preset: str, seats: int, seed: int
) -> None:
    """As a learner's loop (and ``benchmarks/env_speed.py``) uses the environment: only the agent to act is
    observed, through the wrapped ``env()``, so what the encoding keeps per viewer (each table meld's share, the
    table's, the contract's) and the listing kept for a going-down's meld steps are several steps old when they
    are read again. At every step the observation equals the one a fresh layout (nothing kept) builds from the
    engine's observation, and the mask equals the one asked of the engine afresh. Fails when a kept share or
    listing is reused after the table or the state changed."""
    env = liverpool_v0.env(preset=preset, seats=seats)
    env.reset(seed=seed)
    raw = env.unwrapped
    rng = np.random.default_rng(seed)
    went_down = laid = 0
    for steps, agent in enumerate(env.agent_iter()):
        got, _, terminated, truncated, _ = env.last()
        if terminated or truncated or steps >= 700:
            break
        seat = raw.agent_name_mapping[agent]
        fresh = enc.Layout.of(raw.rules, seats)
        view = observe(raw.state, seat)
        want = enc.encode_observation(fresh, view, raw.pending)
        assert np.array_equal(got["observation"], want), (steps, seat, np.flatnonzero(got["observation"] != want))
        assert np.array_equal(got["action_mask"], reference_mask(raw, seat)), (steps, seat)
        went_down += bool(raw.pending)
        laid += len(view.melds)
        env.step(int(rng.choice(np.flatnonzero(got["action_mask"]))))
    assert went_down and laid, "random play reached a going-down and a table with melds"


@pytest.mark.parametrize(("preset", "seats"), [("liverpool", 4), ("contract", 5)])
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_arrays_of_the_benchmarks_loop_equal_the_reference_and_stay_as_handed_out(
    preset: str, seats: int, seed: int
) -> None:
    """The loop of ``benchmarks/env_speed.py`` (the wrapped ``env()``, ``last`` for the agent to act, a uniformly
    random legal action by ``rng.integers``), over whole seeded games: at every step the observation array equals
    :func:`reference_observation` of the engine's observation (written element by element) and the mask equals
    :func:`reference_mask`; and the arrays handed out one step are still the same after the next step (each
    call returns arrays of its own, not a buffer the environment writes again). Fails when the index tables put
    a number in another place, the mask's fill misses or adds an index, or an array is reused."""
    env = liverpool_v0.env(preset=preset, seats=seats)
    env.reset(seed=seed)
    raw = env.unwrapped
    rng = np.random.default_rng(seed)
    before: dict[str, npt.NDArray[np.generic]] | None = None
    kept: dict[str, npt.NDArray[np.generic]] = {}
    went_down = steps = 0
    for agent in env.agent_iter():
        got, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        if before is not None:
            assert all(np.array_equal(before[k], kept[k]) for k in kept), ("an array changed after its step", steps)
        seat = raw.agent_name_mapping[agent]
        want = reference_observation(raw.layout, observe(raw.state, seat), raw.pending)
        assert got["observation"].dtype == want.dtype and got["action_mask"].dtype == np.int8
        assert np.array_equal(got["observation"], want), (steps, seat, np.flatnonzero(got["observation"] != want))
        assert np.array_equal(got["action_mask"], reference_mask(raw, seat)), (steps, seat)
        before, kept = got, {k: v.copy() for k, v in got.items()}
        went_down += bool(raw.pending)
        legal = np.flatnonzero(got["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    assert went_down and steps > 500, (went_down, steps)


def _pettingzoo_wrapped(**kwargs: Any) -> Any:
    """``raw_env`` under PettingZoo's own two wrappers, in ``env()``'s order: the reference for
    :mod:`liverpool.env.wrapping`."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(liverpool_v0.raw_env(**kwargs)))


@pytest.mark.parametrize("seed", [3, 4])
def test_wrapped_env_steps_as_pettingzoos_own_wrappers_do(seed: int) -> None:
    """``env()`` (whose wrappers read the unwrapped environment directly, with their own ``last`` and agent
    iterator, and whose ``rewards`` are zeroed only after a deal's results) against the same environment under
    PettingZoo's ``OrderEnforcingWrapper`` and ``AssertOutOfBoundsWrapper``, over a whole seeded game and its
    dead steps: the same agents in turn, the same ``last()`` at every step, the same ``rewards`` and cumulative
    rewards after it (of the same types). Fails when the iterator does not stop or ``last`` reads another agent's
    entries; whether the rewards themselves are right, zeroed and accumulated after a deal,
    ``tests/bots/test_env.py::test_rewards_sum_to_minus_totals`` checks (it failed with either step skipped)."""
    ours: Any = liverpool_v0.env(preset="liverpool", seats=3)
    theirs: Any = _pettingzoo_wrapped(preset="liverpool", seats=3)
    ours.reset(seed=seed)
    theirs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewarded = steps = 0
    for agent, other in zip(ours.agent_iter(), theirs.agent_iter(), strict=True):
        assert agent == other
        got, want = ours.last(), theirs.last()
        assert all(np.array_equal(got[0][k], want[0][k]) for k in want[0]), steps
        assert got[1:] == want[1:], steps
        action = None
        if not (got[2] or got[3]):
            legal = np.flatnonzero(got[0]["action_mask"])
            action = int(legal[rng.integers(len(legal))])
        ours.step(action)
        theirs.step(action)
        assert ours.rewards == theirs.rewards and ours._cumulative_rewards == theirs._cumulative_rewards, steps
        assert all(type(v) is type(theirs.rewards[k]) for k, v in ours.rewards.items()), steps
        rewarded += any(ours.rewards.values())
        steps += 1
    assert not ours.agents and not theirs.agents and rewarded >= 7, (rewarded, steps)


def test_wrapped_env_refuses_what_pettingzoos_wrappers_refuse() -> None:
    """Before ``reset``, ``last``, ``observe``, ``agent_iter`` and the forwarded attributes are refused as
    PettingZoo's ``OrderEnforcingWrapper`` refuses them (the same exception and message); a second ``next`` of
    the agent iterator without a ``step`` between fails as PettingZoo's iterator does."""
    ours: Any = liverpool_v0.env(preset="liverpool", seats=3)
    theirs: Any = _pettingzoo_wrapped(preset="liverpool", seats=3)
    calls: tuple[Callable[[Any], object], ...] = (
        lambda e: e.last(),
        lambda e: e.observe("player_0"),
        lambda e: e.agent_iter(),
        lambda e: e.agent_selection,
        lambda e: e.rewards,
    )
    for call in calls:
        errors = []
        for env in (ours, theirs):
            with pytest.raises(Exception) as caught:  # compared with PettingZoo's below
                call(env)
            errors.append((type(caught.value), str(caught.value)))
        assert errors[0] == errors[1]
    for env in (ours, theirs):
        env.reset(seed=1)
        walk = iter(env.agent_iter())
        next(walk)
        with pytest.raises(AssertionError, match="need to call step"):
            next(walk)
