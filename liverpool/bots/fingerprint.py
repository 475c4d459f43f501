"""A bot's play in one digest: its choices on a fixed, seeded corpus of decisions.

The corpus is a few seeded games played by :func:`_walker`, a chooser written here and never changed (it
is not the ``random`` bot, so that a change to any bot leaves the corpus as it is). From each game it
keeps every buy-window decision, every decision that offers going down, and every seventh other decision
with more than one option. :func:`digest` asks a fresh bot about each, with a random source seeded by the
decision's place, and hashes what it chose. ``tests/data/bot_digests.json`` keeps the digest of every
level and style next to the level's version (:data:`~.registry.VERSIONS`); ``tests/bots/test_bot_versions.py``
fails when a digest moves while its version stays. ``python -m liverpool.bots.fingerprint --write`` writes
the file again after a bump (``docs/bots.md``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from liverpool.engine import (
    Action,
    Agent,
    Buy,
    Call,
    GoDown,
    LayOff,
    Observation,
    Phase,
    SeededChance,
    action_to_dict,
    find_preset,
    run_game,
)

from .registry import STYLES, make_bot, styles_of, version_of

# (preset, seats, seed) of the corpus games
GAMES: tuple[tuple[str, int, int], ...] = (("liverpool", 4, 1), ("british", 3, 2), ("may-i", 4, 3))
KEEP_EVERY = 7  # of the decisions that are neither a buy nor a going-down, one in this many
HARD_EVERY = 12  # ``hard`` is asked about one decision in this many (its search is slow)
DIGESTS = Path(__file__).resolve().parents[2] / "tests" / "data" / "bot_digests.json"


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the corpus: what the seat saw and could do."""

    observation: Observation
    options: tuple[Action, ...]


def _walker(observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
    """The corpus games' chooser (frozen: see the module docstring): goes down and lays off when it can,
    takes an out-of-turn chance one time in three, else picks at random."""
    for kind in (GoDown, LayOff):
        found = [a for a in options if isinstance(a, kind)]
        if found:
            return rng.choice(found)
    if observation.viewer != observation.current and all(isinstance(a, Buy | Call) for a in options):
        return rng.choice(options) if rng.random() < 1 / 3 else None
    return rng.choice(options)


@cache
def corpus() -> tuple[Decision, ...]:
    """The corpus's decisions, in order (built once per process)."""
    decisions: list[Decision] = []
    for preset, seats, seed in GAMES:
        others = 0

        def keep(observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
            nonlocal others
            if len(options) > 1 or observation.phase is Phase.BUY:
                if observation.phase is Phase.BUY or any(isinstance(a, GoDown) for a in options):
                    decisions.append(Decision(observation, tuple(options)))
                else:
                    others += 1
                    if others % KEEP_EVERY == 0:
                        decisions.append(Decision(observation, tuple(options)))
            return _walker(observation, options, rng)

        run_game(find_preset(preset), [keep] * seats, random.Random(seed), chance=SeededChance(seed))
    return tuple(decisions)


def choices(make: Callable[[], Agent], decisions: Sequence[Decision]) -> list[Any]:
    """What a fresh bot of ``make`` chooses at each decision (``None``: declines), as the record writes actions."""
    bot = make()
    out: list[Any] = []
    for n, d in enumerate(decisions):
        choice = bot(d.observation, list(d.options), random.Random(n))
        out.append(None if choice is None else action_to_dict(choice))
    return out


def decisions_for(name: str) -> tuple[Decision, ...]:
    """The part of the corpus a level is asked about (``hard``: one decision in :data:`HARD_EVERY`)."""
    every = corpus()
    return every[::HARD_EVERY] if name == "hard" else every


def digest(name: str, style: str = "balanced") -> str:
    """The digest of a level's choices (in a style) on its part of the corpus: 16 hex digits."""
    made = choices(lambda: make_bot(name, style), decisions_for(name))
    text = json.dumps(made, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def current(names: Sequence[str]) -> dict[str, Any]:
    """What ``tests/data/bot_digests.json`` holds for ``names``: each level's version and its digest per style."""
    return {
        name: {"version": version_of(name), "digests": {s: digest(name, s) for s in styles_of(name)}} for name in names
    }


def stored(path: Path = DIGESTS) -> dict[str, Any]:
    """The committed digests (``{}`` when the file is missing)."""
    return json.loads(path.read_text("utf-8")) if path.exists() else {}


def _main(argv: Sequence[str] | None = None) -> int:
    from .registry import bot_names

    parser = argparse.ArgumentParser(prog="python -m liverpool.bots.fingerprint", description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {DIGESTS.name} for every level")
    parser.add_argument("--bots", default=",".join(bot_names()), help="levels, comma-separated (default: all)")
    args = parser.parse_args(argv)
    names = [n for n in args.bots.split(",") if n]
    found = current(names)
    print(json.dumps(found, indent=2))
    if args.write:
        kept = stored()
        kept.update(found)
        DIGESTS.write_text(json.dumps(kept, indent=2, sort_keys=True) + "\n", "utf-8")
        print(f"wrote {DIGESTS}")
    return 0


__all__ = ["GAMES", "STYLES", "Decision", "choices", "corpus", "current", "digest", "stored"]

if __name__ == "__main__":
    raise SystemExit(_main())
