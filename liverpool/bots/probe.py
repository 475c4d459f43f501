"""How much could ``hard``'s search gain over ``medium``? Every searched decision, re-evaluated at length.

A probe plays seeded deals with ``medium`` at every seat. At one seat (``seed % seats``), every decision
that ``hard`` would search (its shortlist holds two options or more) is also evaluated the way ``hard``
evaluates it, with a large fixed budget and no early drops: each option is played to the end of the deal
in the same ``worlds`` sampled worlds with the same chance (:meth:`HardBot.outcome`), and each other
option's paired difference to ``medium``'s first choice is kept (mean and standard error; negative: better
than ``medium``'s choice). The seat then plays ``medium``'s choice, so the deal goes on as a ``medium``
deal.

The summary counts, by kind of decision, the options found better than ``medium``'s by more than two
standard errors and the points per game they would save under this model, next to how many such finds
chance alone would give if no option were ever better (about 2.3% of the options compared). If the
finds are about as many as chance gives, one-ply search over ``medium`` rollouts has little to offer
``medium``, whatever its budget.

With ``--known-hands``, the worlds are the real deal with only the stock shuffled: every hand is known.
Comparing the two runs tells how much the search loses by not knowing what opponents hold, the part
that better sampling of worlds could win back.

    python -m liverpool.bots.probe --preset liverpool --seeds 2 --worlds 80 --jobs 2 [--known-hands]
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from rich.progress import track

from liverpool.engine import Action, GameState, Observation, UnknownPreset, find_preset

from .arena import deal_start, play_deal
from .easy import Choice
from .hard import HardBot
from .registry import make_bot
from .table import me
from .worlds import known_world, sample_world

CHANCE_SHARE = 0.0228  # P(mean + 2 SE < 0) for a difference that is really 0 (normal approximation)


@dataclass(frozen=True, slots=True)
class Option:
    """One option other than ``medium``'s first choice: its kind and its paired difference to the first."""

    kind: str
    mean: float
    stderr: float

    @property
    def better(self) -> bool:
        return self.mean + 2 * self.stderr < 0


@dataclass(frozen=True, slots=True)
class Decision:
    """One searched decision: the kind of ``medium``'s first choice and the other options."""

    kind: str
    options: tuple[Option, ...]


def kind(choice: Choice) -> str:
    return "Decline" if choice is None else type(choice).__name__


def evaluate(
    observation: Observation,
    shortlist: Sequence[Choice],
    worlds: int,
    rng: random.Random,
    sample: Callable[[random.Random], GameState] | None = None,
) -> Decision:
    """Every option of ``shortlist`` against the first over the same ``worlds`` worlds, drawn by ``sample``
    (default: :func:`~.worlds.sample_world` of the observation, as ``hard`` draws them)."""
    if worlds < 2:
        raise ValueError(f"a probe needs at least 2 worlds per decision, not {worlds}")
    bot = HardBot()
    seat = me(observation)
    diffs: list[list[float]] = [[] for _ in shortlist]
    for _ in range(worlds):
        world = sample_world(observation, rng) if sample is None else sample(rng)
        chance_seed = rng.getrandbits(64)
        first = bot.outcome(world.clone(), seat, shortlist[0], random.Random(chance_seed))
        for j in range(1, len(shortlist)):
            diffs[j].append(bot.outcome(world.clone(), seat, shortlist[j], random.Random(chance_seed)) - first)
    options = []
    for j in range(1, len(shortlist)):
        mean = sum(diffs[j]) / worlds
        stderr = math.sqrt(sum((d - mean) ** 2 for d in diffs[j]) / (worlds - 1) / worlds)
        options.append(Option(kind(shortlist[j]), mean, stderr))
    return Decision(kind(shortlist[0]), tuple(options))


class Probe:
    """A ``medium`` seat that evaluates each decision ``hard`` would search (see the module docstring).

    With ``truth`` (the live game state), worlds are :func:`~.worlds.known_world` of it instead of samples of
    the observation: what the search would find if it knew every hand.
    """

    def __init__(self, worlds: int, seed: int, truth: GameState | None = None) -> None:
        self.hard = HardBot()
        self.worlds = worlds
        self.rng = random.Random(seed)
        self.truth = truth
        self.decisions: list[Decision] = []

    def __call__(self, observation: Observation, options: list[Action], rng: random.Random) -> Action | None:
        ranked = self.hard.guide.rank(observation, options)
        if len(options) > 1:
            shortlist = self.hard.shortlist(observation, ranked)
            if len(shortlist) > 1:
                truth = self.truth
                sample = None if truth is None else (lambda rng: known_world(observation, truth, rng))
                self.decisions.append(evaluate(observation, shortlist, self.worlds, self.rng, sample))
        return ranked[0]


def probe_deal(preset: str, deal: int, seed: int, seats: int, worlds: int, known_hands: bool = False) -> list[Decision]:
    """The searched decisions of seat ``seed % seats`` in deal ``deal`` of the shuffle ``seed`` (played by
    :func:`~.arena.play_deal`); with ``known_hands``, evaluated in worlds that know every hand."""
    rules = find_preset(preset)
    seat = seed % seats
    state = deal_start(rules, seats, deal, seed)
    probe = Probe(worlds, seed, state if known_hands else None)
    play_deal(rules, [probe if s == seat else make_bot("medium") for s in range(seats)], deal, seed, state=state)
    return probe.decisions


def _job(args: tuple[str, int, int, int, int, bool]) -> list[Decision]:
    return probe_deal(*args)


@dataclass(frozen=True, slots=True)
class Row:
    """The summary of one kind of decision (``gain``: points per game saved by the options found better)."""

    kind: str
    decisions: int
    compared: int
    found: int
    by_chance: float
    gain: float


def summarize(decisions: Iterable[Decision], deals_probed: int, deals_per_game: int) -> list[Row]:
    """One row per kind of ``medium``'s first choice, and a last row ``all``."""
    by_kind: dict[str, list[Decision]] = {}
    for decision in decisions:
        by_kind.setdefault(decision.kind, []).append(decision)
    rows = []
    for name, group in [*sorted(by_kind.items()), ("all", [d for g in by_kind.values() for d in g])]:
        compared = sum(len(d.options) for d in group)
        better = [min((o for o in d.options if o.better), key=lambda o: o.mean, default=None) for d in group]
        gain = -sum(o.mean for o in better if o is not None) / max(deals_probed, 1) * deals_per_game
        found = sum(o is not None for o in better)
        rows.append(Row(name, len(group), compared, found, compared * CHANCE_SHARE, gain))
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    """Probe seeded deals of a preset and print the summary (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="liverpool")
    parser.add_argument("--seeds", type=int, default=2, help="shuffles; each is probed in every deal")
    parser.add_argument("--first-seed", type=int, default=3000)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--worlds", type=int, default=80, help="worlds per decision")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--known-hands", action="store_true", help="worlds know every hand (not the stock)")
    args = parser.parse_args(argv)
    if args.worlds < 2 or args.seeds < 1 or args.jobs < 1:
        parser.error("--worlds must be at least 2, --seeds and --jobs at least 1")
    try:
        rules = find_preset(args.preset)
    except UnknownPreset as error:
        parser.error(str(error))
    if not rules.min_players <= args.seats <= rules.max_players:
        parser.error(
            f"--seats must be from {rules.min_players} to {rules.max_players} for {args.preset}, not {args.seats}"
        )
    deals = len(rules.deals)
    work = [
        (args.preset, d, s, args.seats, args.worlds, args.known_hands)
        for s in range(args.first_seed, args.first_seed + args.seeds)
        for d in range(deals)
    ]
    found: list[Decision] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in track(pool.map(_job, work), total=len(work), description="deals probed", transient=True):
            found += part
    print(
        f"{args.preset}, {args.seats} seats, {args.seeds} shuffles x {deals} deals, {args.worlds} worlds per decision"
        + (", every hand known" if args.known_hands else "")
    )
    print(f"{'medium plays':<12} {'decisions':>9} {'options':>8} {'better':>7} {'by chance':>9} {'gain/game':>9}")
    for row in summarize(found, len(work), deals):
        print(
            f"{row.kind:<12} {row.decisions:>9} {row.compared:>8} {row.found:>7} {row.by_chance:>9.1f} {row.gain:>9.1f}"
        )


if __name__ == "__main__":
    main()
