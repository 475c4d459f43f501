"""One tournament game: who sits where, and what the game yields per entrant.

A tournament plays duplicate groups. Group ``g`` is one sequence of shuffles (chance from
``SeededChance(f"{seed}:{g}")``, which depends only on the seed, the deal and the reshuffle count),
played once in every seat rotation: rotation ``r`` puts entrant ``i`` at seat ``(i + r) % n``. Bots are
made fresh for each game and draw from ``random.Random(f"{seed}:{g}:{r}")``, so every game is a pure
function of (setup, group, rotation), whichever process or machine plays it.

Besides the bots of :mod:`liverpool.bots.registry`, a tournament seats ``cheat``
(:mod:`liverpool.bots.cheat`, ``hard`` seeing every hand): for measurement only, it is seated here and
nowhere else, reading the game's state through the driver's ``before`` hook; and ``infer``
(``hard``'s search over worlds dealt by :mod:`liverpool.bots.infer`'s odds instead of uniformly), which
cheats in nothing but is seated only here until tournaments show it stronger than ``hard``.

>>> [seat_of(entrant, rotation=1, seats=3) for entrant in range(3)]
[1, 2, 0]
>>> [entrant_at(seat, rotation=1, seats=3) for seat in range(3)]
[2, 0, 1]
>>> entrant_labels(['medium', 'hard', 'medium'])
('medium#1', 'hard', 'medium#2')
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from liverpool.bots import cheat
from liverpool.bots.hard import HardBot
from liverpool.bots.infer import inferred_world
from liverpool.bots.registry import UnknownBot, UnknownStyle, make_spec, parse_spec, version_of
from liverpool.engine import Action, GameState, Ruleset, RulesetError, SeededChance, Shuffle, run_game

MIN_SEATS = 3
MAX_SEATS = 8


class TournamentError(ValueError):
    """A tournament that cannot be played as asked (bots, seats or games)."""


@dataclass(frozen=True, slots=True)
class Setup:
    """What every game of a tournament shares: the rules, the bots in entrant order, and the seed."""

    rules: Ruleset
    bots: tuple[str, ...]
    seed: int

    @property
    def seats(self) -> int:
        return len(self.bots)

    @property
    def labels(self) -> tuple[str, ...]:
        return entrant_labels(self.bots)

    @property
    def versions(self) -> tuple[str, ...]:
        """Each entrant's bot version (:func:`bot_version`), in entrant order."""
        return tuple(bot_version(spec) for spec in self.bots)


INFER = "infer"
# The entrants only a tournament seats (see the module docstring); each plays ``hard``'s search, so it
# carries ``hard``'s version.
MEASURED = (cheat.NAME, INFER)


def bot_version(spec: str) -> str:
    """The version of the bot a spec seats, as a tournament's report stores it: the level's version from
    :data:`~liverpool.bots.registry.VERSIONS`; ``cheat`` plays ``hard``'s search, so it carries ``hard``'s.

    >>> bot_version('medium:aggressive'), bot_version('cheat')
    ('medium/1', 'cheat/hard/1')
    """
    if spec in MEASURED:
        return f"{spec}/{version_of('hard')}"
    name, _style = parse_spec(spec)
    return version_of(name)


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game of a tournament; every per-entrant tuple is in entrant order, not seat order.

    ``deal_scores[d][i]`` is entrant ``i``'s points in deal ``d`` (a replayed final deal included);
    ``went_out[d]`` is the entrant who went out in deal ``d``, or None.
    """

    group: int
    rotation: int
    totals: tuple[int, ...]
    deal_scores: tuple[tuple[int, ...], ...]
    went_out: tuple[int | None, ...]
    buys: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def key(self) -> tuple[int, int]:
        return self.group, self.rotation


def seat_of(entrant: int, rotation: int, seats: int) -> int:
    """The seat of ``entrant`` in ``rotation``."""
    return (entrant + rotation) % seats


def entrant_at(seat: int, rotation: int, seats: int) -> int:
    """The entrant in ``seat`` in ``rotation``."""
    return (seat - rotation) % seats


def entrant_labels(bots: Sequence[str]) -> tuple[str, ...]:
    """Each bot's name, numbered ``name#1``, ``name#2``, ... where the same bot enters more than once."""
    counts = Counter(bots)
    seen: Counter[str] = Counter()
    labels = []
    for bot in bots:
        seen[bot] += 1
        labels.append(f"{bot}#{seen[bot]}" if counts[bot] > 1 else bot)
    return tuple(labels)


def make_setup(rules: Ruleset, bots: Sequence[str], seed: int) -> Setup:
    """A checked :class:`Setup`; :class:`TournamentError` names what is wrong.

    >>> from liverpool.engine.rules.presets import find_preset
    >>> make_setup(find_preset('contract'), ['random'] * 6, seed=1)
    Traceback (most recent call last):
    ...
    liverpool.tournament.games.TournamentError: 6 bots but contract is for 3 to 5 players
    """
    names = tuple(name.strip().lower() for name in bots)
    if any(not name for name in names):
        raise TournamentError(f"empty bot name in {','.join(bots)!r}")
    if not MIN_SEATS <= len(names) <= MAX_SEATS:
        raise TournamentError(f"a tournament seats {MIN_SEATS} to {MAX_SEATS} bots, not {len(names)}")
    for name in dict.fromkeys(names):
        if name in MEASURED:
            continue
        try:
            make_spec(name)
        except (UnknownBot, UnknownStyle) as exc:
            raise TournamentError(f"{exc} (and, in a tournament only, {', '.join(MEASURED)})") from None
    try:
        rules.deck_for(len(names))
    except RulesetError:
        raise TournamentError(
            f"{len(names)} bots but {rules.name} is for {rules.min_players} to {rules.max_players} players"
        ) from None
    if rules.partnerships and len(names) != 4:
        raise TournamentError(f"{rules.name} plays in partnerships and needs 4 bots, not {len(names)}")
    return Setup(rules, names, seed)


def play_game(setup: Setup, group: int, rotation: int) -> GameResult:
    """Play the game of ``group`` in ``rotation`` with fresh bots."""
    n = setup.seats
    seated = [entrant_at(seat, rotation, n) for seat in range(n)]
    truth = cheat.Truth()
    agents = [
        cheat.make_cheat(truth)
        if setup.bots[entrant] == cheat.NAME
        else HardBot(sample=inferred_world)
        if setup.bots[entrant] == INFER
        else make_spec(setup.bots[entrant])
        for entrant in seated
    ]
    seat_buys = [0] * n

    def count_buys(state: GameState, action: Action) -> None:
        truth.see(state, action)
        if isinstance(action, Shuffle):
            _add(seat_buys, state.buys)

    state = run_game(
        setup.rules,
        agents,
        random.Random(f"{setup.seed}:{group}:{rotation}"),
        before=count_buys,
        chance=SeededChance(f"{setup.seed}:{group}"),
    )
    _add(seat_buys, state.buys)

    def by_entrant(per_seat: Sequence[int]) -> tuple[int, ...]:
        return tuple(per_seat[seat_of(entrant, rotation, n)] for entrant in range(n))

    return GameResult(
        group=group,
        rotation=rotation,
        totals=by_entrant(state.totals),
        deal_scores=tuple(by_entrant(result.scores) for result in state.results),
        went_out=tuple(None if r.went_out is None else seated[r.went_out] for r in state.results),
        buys=by_entrant(seat_buys),
        winners=tuple(sorted(seated[seat] for seat in state.winners)),
    )


def _add(total: list[int], buys: Sequence[int]) -> None:
    """Add one deal's buys per seat (``GameState.buys`` holds the deal's until the next shuffle)."""
    for seat, count in enumerate(buys):
        total[seat] += count
