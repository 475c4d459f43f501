"""Environment steps per second (issue 32): ``liverpool_v0`` beside PettingZoo's and OpenSpiel's gin rummy.

    .venv-bench/bin/python benchmarks/env_speed.py [--compiled build/mypyc] [--seconds 5] [--out FILE]

A step is one decision of one agent with what an agent needs to take it: the observation array and the
action mask of the agent to act, then the action, as a learner's loop does. For the PettingZoo environments
(``liverpool_v0.env()`` and ``gin_rummy_v4.env()``, both wrapped as their ``env()`` returns them) that is
``env.last()`` then ``env.step(a)``; for OpenSpiel's ``gin_rummy``, ``observation_tensor()`` and
``legal_actions_mask()`` of the player to act, then ``apply_action``. Chance (the shuffles, OpenSpiel's chance
nodes) is timed but not counted as a step. Whole seeded games are played until ``--seconds`` of CPU time have
passed; each measurement runs in a process of its own.

Two figures per environment, from the same loop:

* **environment** steps per second: only the environment's calls are timed, the agent's choice is not. The
  loop reads the CPU clock (``time.process_time``) right before and right after each choice; what lies between
  two choices (``env.step``, the iterator's next agent, ``env.last``; for OpenSpiel ``apply_action``, the chance
  nodes, ``observation_tensor``, ``legal_actions_mask``; and each game's ``reset`` or new state) is the
  environment's time. The two clock reads of a step fall half inside each kind of time, the same for every
  environment.
* **whole loop** steps per second: all CPU time of the loop, the agent's choice and the clock reads included
  (the figure reported before session 48, whose choice was ``rng.choice(np.flatnonzero(mask))``).

In ``--out``'s JSON: ``steps_per_second`` is the environment's figure (``env_seconds`` of CPU),
``loop_steps_per_second`` the whole loop's (``seconds``), ``agent_seconds`` the choices' time.

The agent is the same for every environment: ``legal = np.flatnonzero(mask)`` then
``legal[rng.integers(len(legal))]``, uniformly random among the legal actions (``rng.choice`` costs several
times more for the same draw). PettingZoo's gin rummy is in its last release that has it,
``pettingzoo==1.26.1`` (``scripts/bench.sh`` installs it in ``.venv-bench``). Figures: docs/performance.md and
docs/rl.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
GOAL = 5.0  # liverpool_v0 at least this many times PettingZoo's gin rummy (issue 32)


def _pick(rng: np.random.Generator, mask: Any) -> int:
    """The agent of every measurement: a uniformly random legal action of ``mask`` (1 where legal)."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def _figures(games: int, steps: int, elapsed: float, agent: float) -> dict[str, Any]:
    env_seconds = elapsed - agent
    return {
        "games": games,
        "steps": steps,
        "seconds": elapsed,
        "agent_seconds": agent,
        "env_seconds": env_seconds,
        "steps_per_second": steps / env_seconds,
        "loop_steps_per_second": steps / elapsed,
    }


def _pettingzoo_steps(env: Any, seconds: float) -> dict[str, Any]:
    """Steps of a PettingZoo AEC env, random legal actions, whole games until ``seconds`` of CPU time; the
    agent's choices timed apart (see the module's docstring)."""
    clock = time.process_time
    steps = games = 0
    agent = 0.0
    start = clock()
    while clock() - start < seconds:
        env.reset(seed=games)
        rng = np.random.default_rng(games)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            before = clock()
            action = _pick(rng, obs["action_mask"])
            agent += clock() - before
            env.step(action)
            steps += 1
        games += 1
    return _figures(games, steps, clock() - start, agent)


def liverpool(seconds: float, preset: str, seats: int) -> dict[str, Any]:
    from liverpool.engine import is_compiled
    from liverpool.env import liverpool_v0

    out = _pettingzoo_steps(liverpool_v0.env(preset=preset, seats=seats), seconds)
    out["compiled"] = is_compiled()
    out["game"] = f"liverpool_v0 ({preset}, {seats} seats)"
    return out


def pettingzoo_gin(seconds: float) -> dict[str, Any]:
    from importlib import metadata

    from pettingzoo.classic import gin_rummy_v4

    out = _pettingzoo_steps(gin_rummy_v4.env(), seconds)
    out["game"] = f"PettingZoo {metadata.version('pettingzoo')} gin_rummy_v4"
    return out


def openspiel_gin(seconds: float) -> dict[str, Any]:
    from importlib import metadata

    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    clock = time.process_time
    steps = games = 0
    agent = 0.0
    start = clock()
    while clock() - start < seconds:
        chance = random.Random(games)
        rng = np.random.default_rng(games)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(chance.choices(outcomes, weights)[0])
                continue
            player = state.current_player()
            state.observation_tensor(player)
            mask = state.legal_actions_mask(player)
            before = clock()
            action = _pick(rng, mask)
            agent += clock() - before
            state.apply_action(action)
            steps += 1
        games += 1
    out = _figures(games, steps, clock() - start, agent)
    out["game"] = f"OpenSpiel {metadata.version('open_spiel')} gin_rummy"
    return out


def _child(kind: str, seconds: float, preset: str, seats: int, compiled: str | None) -> dict[str, Any]:
    """Run one measurement in a fresh process; ``compiled``: the mypyc build to put first on the path."""
    env = dict(os.environ)
    if compiled:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [compiled, env.get("PYTHONPATH")]))
    args = [sys.executable, "-P", __file__, "--one", kind, "--seconds", str(seconds)]
    args += ["--preset", preset, "--seats", str(seats)]
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"}
    result: dict[str, Any] = json.loads(done.stdout)
    if compiled and not result.get("compiled"):
        return {"error": f"asked for the compiled build in {compiled}, but the pure engine was imported"}
    return result


def measure(seconds: float, preset: str, seats: int, compiled: str | None) -> dict[str, dict[str, Any]]:
    """Every measurement: ``liverpool`` (pure), ``liverpool-compiled`` (when given), and the two gin rummies."""
    results = {"liverpool": _child("liverpool", seconds, preset, seats, None)}
    if compiled:
        results["liverpool-compiled"] = _child("liverpool", seconds, preset, seats, compiled)
    results["pettingzoo-gin"] = _child("pettingzoo-gin", seconds, preset, seats, None)
    results["openspiel-gin"] = _child("openspiel-gin", seconds, preset, seats, None)
    return results


def report(results: dict[str, dict[str, Any]]) -> str:
    lines = []
    for key, title in (
        ("steps_per_second", "environment steps per second (its calls only, the agent's choice not timed):"),
        ("loop_steps_per_second", "whole-loop steps per second (the agent's choice and the clock reads included):"),
    ):
        peer = results.get("pettingzoo-gin", {}).get(key)
        lines.append(title)
        for name, r in results.items():
            if "error" in r:
                lines.append(f"  {name:<20} n/a: {r['error']}")
                continue
            ratio = f"  {r[key] / peer:5.2f}x PettingZoo gin" if peer else ""
            cpu = r["env_seconds"] if key == "steps_per_second" else r["seconds"]
            lines.append(
                f"  {name:<20} {r[key]:9.0f}/s  ({r['steps']} steps, {r['games']} games, {cpu:.2f} s){ratio}  "
                f"{r['game']}"
            )
        if peer:
            best = max(
                (
                    results[k][key]
                    for k in ("liverpool", "liverpool-compiled")
                    if "error" not in results.get(k, {"error": 1})
                ),
                default=0.0,
            )
            met = "met" if best >= GOAL * peer else f"not met: {best / peer:.2f}x, {GOAL * peer / best:.1f}x short"
            lines.append(f"  goal {GOAL:.0f}x PettingZoo's gin rummy: {met}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--one", choices=("liverpool", "pettingzoo-gin", "openspiel-gin"), help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per measurement")
    parser.add_argument("--preset", default="liverpool")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--compiled", help="the mypyc build (scripts/compile.py) to measure as well")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args(argv)
    if args.one == "liverpool":
        print(json.dumps(liverpool(args.seconds, args.preset, args.seats)))
        return 0
    if args.one == "pettingzoo-gin":
        print(json.dumps(pettingzoo_gin(args.seconds)))
        return 0
    if args.one == "openspiel-gin":
        print(json.dumps(openspiel_gin(args.seconds)))
        return 0
    results = measure(args.seconds, args.preset, args.seats, args.compiled)
    print(report(results))
    if args.out:
        args.out.write_text(json.dumps(results, indent=1) + "\n")
    return 2 if any("error" in r for r in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
