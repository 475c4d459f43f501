"""Train a linear softmax policy on ``liverpool_v0`` with REINFORCE (NumPy only), then measure it.

    python examples/train.py --games 600 --out runs/linear          # train, plot, evaluate (docs/rl.md)
    python examples/train.py --games 4 --eval-seeds 0 --out /tmp/t   # a smoke run

The learner sits at seat 0 of :class:`~liverpool.env.single.LiverpoolSingleEnv`; its opponents alternate game
by game between ``random`` and ``easy`` bots (``--opponents``). Each learner step is credited with the
reward of the deal it was taken in (minus that deal's penalty points), less a running baseline per opponent
and deal; the policy (:class:`~liverpool.env.policy.LinearPolicy`) follows the score-function gradient with
Adam, one update every ``--batch`` games. Writes ``policy.npz``, ``curve.png`` (the learning curve) and
``log.json`` to ``--out``; then, unless ``--eval-seeds 0``, plays the trained policy (greedy, as
:class:`~liverpool.env.policy.PolicyBot`) against each opponent on the arena's duplicate deals
(:func:`liverpool.bots.arena.duplicate`) and prints its points per game minus theirs with a 95% interval.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from liverpool.bots.arena import duplicate, per_game
from liverpool.bots.registry import make_bot
from liverpool.engine import find_preset
from liverpool.env.policy import LinearPolicy, PolicyBot
from liverpool.env.single import LiverpoolSingleEnv

Floats = npt.NDArray[np.float32]


@dataclass
class Adam:
    """Adam on a list of arrays, in place."""

    params: list[Floats]
    lr: float
    beta1: float = 0.9
    beta2: float = 0.999
    t: int = 0
    m: list[Floats] = field(default_factory=list)
    v: list[Floats] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]

    def step(self, grads: Sequence[Floats]) -> None:
        """Ascend ``grads``."""
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            m_hat = m / (1 - self.beta1**self.t)
            v_hat = v / (1 - self.beta2**self.t)
            p += self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


@dataclass
class Episode:
    """One game of the learner: each step's observation, mask, choice and deal; each deal's reward."""

    xs: list[Floats] = field(default_factory=list)
    legal: list[npt.NDArray[np.int64]] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)
    deals: list[int] = field(default_factory=list)
    deal_rewards: dict[int, float] = field(default_factory=dict)
    opponents: str = ""
    margin: float = 0.0  # the learner's points minus the opponents' mean, over the game (lower is better)


def play_episode(env: LiverpoolSingleEnv, policy: LinearPolicy, seed: int, rng: random.Random) -> Episode:
    episode = Episode(opponents=str(env.opponent_names[1]))
    obs, _ = env.reset(seed=seed)
    state = env.aec.state
    assert state is not None
    terminated = False
    while not terminated:
        legal = np.flatnonzero(obs["action_mask"]).astype(np.int64)
        x = obs["observation"]
        action = policy.choose(x, legal, rng)
        deal = state.deal
        episode.xs.append(x)
        episode.legal.append(legal)
        episode.chosen.append(action)
        episode.deals.append(deal)
        obs, reward, terminated, _, info = env.step(action)
        if "illegal" in info:
            raise RuntimeError(f"the policy chose an action outside the mask: {info['illegal']}")
        episode.deal_rewards[deal] = episode.deal_rewards.get(deal, 0.0) + reward
    totals = state.totals
    episode.margin = totals[env.seat] - (sum(totals) - totals[env.seat]) / (len(totals) - 1)
    return episode


class Trainer:
    """REINFORCE with a running baseline per (opponents, deal) and advantages scaled by a running spread."""

    def __init__(self, policy: LinearPolicy, lr: float) -> None:
        self.policy = policy
        self.adam = Adam([policy.weights, policy.bias], lr)
        self.baseline: dict[tuple[str, int], float] = {}
        self.spread = 100.0

    def update(self, episodes: Sequence[Episode]) -> float:
        """One gradient step from ``episodes``; returns the surrogate loss (minus the advantage-weighted
        log-likelihood of the choices, per step)."""
        policy = self.policy
        grad_w = np.zeros_like(policy.weights)
        grad_b = np.zeros_like(policy.bias)
        loss, steps = 0.0, 0
        for ep in episodes:
            for deal, reward in ep.deal_rewards.items():
                key = (ep.opponents, deal)
                base = self.baseline.setdefault(key, reward)
                self.spread = 0.99 * self.spread + 0.01 * abs(reward - base)
                self.baseline[key] = 0.9 * base + 0.1 * reward
            advantages = {
                d: (r - self.baseline[(ep.opponents, d)]) / max(self.spread, 1.0) for d, r in ep.deal_rewards.items()
            }
            for x, legal, chosen, deal in zip(ep.xs, ep.legal, ep.chosen, ep.deals, strict=True):
                if len(legal) < 2:
                    continue
                p = policy.probabilities(x, legal)
                a = advantages[deal]
                hit = legal == chosen
                loss -= a * float(np.log(p[hit][0] + 1e-12))
                g = (hit.astype(np.float32) - p) * a
                grad_b[legal] += g
                grad_w[legal] += np.outer(g, x * policy.scale)
                steps += 1
        if steps:
            grad_w /= steps
            grad_b /= steps
            self.adam.step([grad_w, grad_b])
        return loss / max(steps, 1)


def feature_scale(env: LiverpoolSingleEnv, seed: int) -> Floats:
    """1 / the largest value each feature takes in one game of uniformly random play (1 where it stays 0)."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    top = np.abs(obs["observation"])
    terminated = False
    while not terminated:
        obs, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        top = np.maximum(top, np.abs(obs["observation"]))
    scale: Floats = (1.0 / np.maximum(top, 1.0)).astype(np.float32)
    return scale


def progress(total: int) -> tuple[Callable[[str], None], Callable[[], None]]:
    """A rich progress bar (``advance(text)``, ``close()``); plain lines when the output is not a terminal."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(
        TextColumn("training"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.description}"),
    )
    task = bar.add_task("", total=total)
    bar.start()

    def advance(text: str) -> None:
        bar.update(task, advance=1, description=text)

    return advance, bar.stop


def _every(k: int, total: int) -> Callable[[str], None]:
    """Without a progress bar: a line every ``k`` games."""
    done = [0]

    def advance(text: str) -> None:
        done[0] += 1
        if done[0] % k == 0 or done[0] == total:
            print(f"{done[0]}/{total} games, {text}", flush=True)

    return advance


def train(
    games: int,
    out: Path,
    preset: str = "liverpool",
    seats: int = 4,
    opponents: Sequence[str] = ("random", "easy"),
    seed: int = 0,
    lr: float = 0.01,
    batch: int = 4,
    show_progress: bool = True,
) -> tuple[LinearPolicy, list[dict[str, Any]]]:
    """Train for ``games`` games; save ``policy.npz``, ``log.json`` and ``curve.png`` in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    envs = {name: LiverpoolSingleEnv(preset=preset, seats=seats, opponents=name) for name in opponents}
    first = envs[opponents[0]]
    layout = first.aec.layout
    policy = LinearPolicy.zeros(layout.actions, layout.observation_size, preset, seats)
    policy.scale = feature_scale(first, seed)
    trainer = Trainer(policy, lr)
    rng = random.Random(seed)
    log: list[dict[str, Any]] = []
    advance, close = progress(games) if show_progress else (_every(25, games), lambda: None)
    batch_eps: list[Episode] = []
    try:
        for game in range(games):
            name = opponents[game % len(opponents)]
            episode = play_episode(envs[name], policy, seed * 1_000_003 + game + 1, rng)
            batch_eps.append(episode)
            entry: dict[str, Any] = {"game": game, "opponents": name, "margin": episode.margin, "loss": None}
            if len(batch_eps) == batch or game == games - 1:
                entry["loss"] = trainer.update(batch_eps)
                batch_eps = []
            log.append(entry)
            recent = [e["margin"] for e in log[-40:] if e["opponents"] == name]
            advance(f"{name}: {sum(recent) / len(recent):+.0f} points vs them (last {len(recent)})")
    finally:
        close()
    policy.save(out / "policy.npz")
    (out / "log.json").write_text(json.dumps(log, indent=0))
    plot(log, out / "curve.png", preset, seats)
    return policy, log


def plot(log: Sequence[dict[str, Any]], path: Path, preset: str, seats: int, window: int = 50) -> None:
    """The learning curve: the learner's points minus its opponents' mean in each game (dots) and their mean over
    the last ``window`` games against the same bots (lines)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for name in sorted({e["opponents"] for e in log}):
        games = [e["game"] for e in log if e["opponents"] == name]
        margins = np.array([e["margin"] for e in log if e["opponents"] == name], dtype=float)
        sums = np.concatenate(([0.0], np.cumsum(margins)))
        ends = np.arange(1, len(margins) + 1)
        starts = np.maximum(ends - window, 0)
        (line,) = ax.plot(
            games, (sums[ends] - sums[starts]) / (ends - starts), label=f"against {name} (mean of the last {window})"
        )
        ax.scatter(games, margins, s=3, alpha=0.25, color=line.get_color())
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("training game")
    ax.set_ylabel("learner's points − opponents' mean (lower is better)")
    ax.set_title(f"REINFORCE, linear policy, {preset}, {seats} seats")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def evaluate(policy: LinearPolicy, opponent: str, seeds: Sequence[int], greedy: bool = True) -> tuple[float, float]:
    """The policy's points per game minus ``opponent``'s on duplicate deals (two policy seats, two of theirs,
    then swapped; every deal of the preset, each seed): mean and standard error (negative: the policy wins)."""
    rules = find_preset(policy.preset)
    diffs = [
        duplicate(rules, lambda: PolicyBot(policy, greedy), lambda: make_bot(opponent), deal, seed, policy.seats)
        for deal in range(len(rules.deals))
        for seed in seeds
    ]
    score = per_game(diffs, len(rules.deals))
    return score.mean, score.stderr


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--out", type=Path, default=Path("runs/linear"))
    parser.add_argument("--preset", default="liverpool")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--opponents", default="random,easy", help="bots to train against, alternating")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--batch", type=int, default=4, help="games per update")
    parser.add_argument("--eval-seeds", type=int, default=40, help="duplicate-deal seeds per opponent; 0: none")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    opponents = [name.strip() for name in args.opponents.split(",") if name.strip()]
    policy, _ = train(
        args.games, args.out, args.preset, args.seats, opponents, args.seed, args.lr, args.batch, not args.no_progress
    )
    print(f"saved {args.out / 'policy.npz'}, {args.out / 'curve.png'}, {args.out / 'log.json'}")
    seeds = range(10_000, 10_000 + args.eval_seeds)  # not the training games' seeds
    for name in opponents if args.eval_seeds else []:
        mean, stderr = evaluate(policy, name, seeds)
        low, high = mean - 1.96 * stderr, mean + 1.96 * stderr
        verdict = "policy wins" if high < 0 else "policy loses" if low > 0 else "no clear difference"
        if args.eval_seeds < 2:
            verdict = "one seed: no interval"
        print(
            f"trained policy - {name}, points per game ({args.preset}, {args.eval_seeds} seeds, duplicate): "
            f"{mean:+.1f} ± {stderr:.1f}, 95% interval [{low:+.1f}, {high:+.1f}]: {verdict}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
