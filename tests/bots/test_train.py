"""The training example (issue 32, item 5): a short run of ``examples/train.py`` learns without breaking, and the
policy it saves loads and plays only legal actions, in the environment and as a bot at the engine's table."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from liverpool.bots.arena import play_deal
from liverpool.bots.registry import make_bot
from liverpool.engine import Action, Observation, Phase, find_preset
from liverpool.env.policy import LinearPolicy, PolicyBot
from liverpool.env.single import LiverpoolSingleEnv

TRAIN = Path(__file__).resolve().parents[2] / "examples" / "train.py"


def _load_train() -> ModuleType:
    spec = importlib.util.spec_from_file_location("liverpool_train_example", TRAIN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, object]]]:
    out = tmp_path_factory.mktemp("train")
    train = _load_train()
    _, log = train.train(
        games=4, out=out, preset="may-i", seats=3, opponents=("random", "easy"), batch=2, show_progress=False
    )
    return out, log


def test_training_runs_and_its_figures_are_finite(trained: tuple[Path, list[dict[str, object]]]) -> None:
    out, log = trained
    assert [entry["opponents"] for entry in log] == ["random", "easy", "random", "easy"]
    losses = [entry["loss"] for entry in log if entry["loss"] is not None]
    assert len(losses) == 2 and all(isinstance(x, float) and math.isfinite(x) for x in losses)
    assert all(isinstance(e["margin"], float) and math.isfinite(e["margin"]) for e in log)
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    policy = LinearPolicy.load(out / "policy.npz")
    assert np.isfinite(policy.weights).all() and np.isfinite(policy.bias).all()
    assert policy.bias.any(), "the updates changed the policy"


def test_saved_policy_plays_legal_actions_in_the_env(trained: tuple[Path, list[dict[str, object]]]) -> None:
    policy = LinearPolicy.load(trained[0] / "policy.npz")
    env = LiverpoolSingleEnv(preset=policy.preset, seats=policy.seats, opponents="random", raise_illegal=True)
    obs, _ = env.reset(seed=5)
    rng = random.Random(5)
    for _ in range(300):
        legal = np.flatnonzero(obs["action_mask"])
        action = policy.choose(obs["observation"], legal, rng)
        assert action in legal
        obs, _, terminated, _, info = env.step(action)
        assert "illegal" not in info
        if terminated:
            break


def test_saved_policy_plays_legal_actions_as_a_bot(trained: tuple[Path, list[dict[str, object]]]) -> None:
    """As :class:`PolicyBot` at the engine's table (the arena's duplicate deals): every choice is one of the
    options it was given, or a decline where a seat may decline (out of turn in the draw phase)."""
    policy = LinearPolicy.load(trained[0] / "policy.npz")
    bot = PolicyBot(policy)
    chosen: list[Action | None] = []

    def checked(observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        choice = bot(observation, options, rng)
        may_decline = observation.phase is Phase.DRAW and observation.viewer != observation.current
        assert choice in options or (choice is None and may_decline), (choice, options)
        chosen.append(choice)
        return choice

    rules = find_preset(policy.preset)
    scores = play_deal(rules, [checked, make_bot("random"), make_bot("easy")], deal=0, seed=3)
    assert len(scores) == 3 and len(chosen) > 10


def test_a_policy_of_another_layout_is_refused(tmp_path: Path) -> None:
    LinearPolicy.zeros(actions=10, features=3, preset="may-i", seats=3).save(tmp_path / "small.npz")
    with pytest.raises(ValueError, match=r"do not fit may-i with 3 seats"):
        LinearPolicy.load(tmp_path / "small.npz")
