"""Carrying on a tournament from its JSON report: the games it already holds are kept, not replayed.

Every game is a pure function of (setup, group, rotation), so a report of the same setup (the same
rules, bots in the same order, and seed) holds exactly the games a new run would play. Resuming reads
those games back and plays only the missing (group, rotation) pairs; the result is the same as one
uninterrupted run. Anything that does not match, or does not read, is a :class:`ResumeError` naming the
file and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .games import GameResult, Setup, TournamentError, entrant_at
from .report import FORMAT


class ResumeError(TournamentError):
    """A report that cannot be resumed from: unreadable, of another setup, or inconsistent."""


def load_finished(path: Path, setup: Setup, groups: int) -> tuple[GameResult, ...]:
    """The games of ``setup`` already in the report at ``path``, in (group, rotation) order."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ResumeError(f"--resume {path}: cannot read it: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ResumeError(f"--resume {path}: not a JSON file ({exc})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ResumeError(f"--resume {path}: not a tournament report (format {FORMAT!r})")
    _check_setup(path, document.get("setup"), setup)
    games = document.get("games")
    if not isinstance(games, list):
        raise ResumeError(f"--resume {path}: 'games' is not a list")
    results: dict[tuple[int, int], GameResult] = {}
    for index, game in enumerate(games):
        try:
            result = _game(game, setup)
        except (KeyError, TypeError, ValueError) as exc:
            raise ResumeError(f"--resume {path}: game {index} is malformed ({exc})") from None
        if result.group >= groups:
            raise ResumeError(
                f"--resume {path}: it holds group {result.group}, beyond the {groups} groups asked for; "
                f"ask for --games {result.group + 1} or more"
            )
        if result.key in results:
            raise ResumeError(f"--resume {path}: game {index} repeats group {result.group} rotation {result.rotation}")
        results[result.key] = result
    return tuple(results[key] for key in sorted(results))


def _check_setup(path: Path, found: Any, setup: Setup) -> None:
    if not isinstance(found, dict):
        raise ResumeError(f"--resume {path}: no 'setup' object")
    rules = json.loads(json.dumps(setup.rules.to_dict()))
    checks = (("bots", list(setup.bots)), ("versions", list(setup.versions)), ("seed", setup.seed), ("rules", rules))
    for field, want in checks:
        if field == "versions" and field not in found:
            raise ResumeError(
                f"--resume {path}: it does not say which versions it was played with (a report older than bot "
                "versions); start a new run instead"
            )
        if found.get(field) != want:
            shown = setup.rules.name if field == "rules" else want
            had = found.get("preset") if field == "rules" else found.get(field)
            raise ResumeError(
                f"--resume {path}: it was played with other {field} ({had!r}, not {shown!r}); "
                "a run can only carry on with the same rules, bots (and their versions) and seed"
            )


def _game(game: dict[str, Any], setup: Setup) -> GameResult:
    labels = setup.labels
    n = setup.seats
    index = {label: entrant for entrant, label in enumerate(labels)}
    group, rotation = _count(game["group"]), _count(game["rotation"])
    if rotation >= n:
        raise ValueError(f"rotation {rotation} with {n} seats")
    if list(game["seats"]) != [labels[entrant_at(seat, rotation, n)] for seat in range(n)]:
        raise ValueError(f"its seats {game['seats']!r} do not match rotation {rotation}")
    deal_scores = tuple(_per_entrant(scores, n, _points) for scores in game["deal_scores"])
    totals = _per_entrant(game["totals"], n, _points)
    went_out = game["went_out"]
    if len(went_out) != len(deal_scores):
        raise ValueError(f"{len(went_out)} went_out entries for {len(deal_scores)} deals")
    if tuple(map(sum, zip(*deal_scores, strict=True))) != totals:
        raise ValueError("its totals are not the sum of its deal scores")
    return GameResult(
        group=group,
        rotation=rotation,
        totals=totals,
        deal_scores=deal_scores,
        went_out=tuple(None if label is None else index[label] for label in went_out),
        buys=_per_entrant(game["buys"], n, _count),
        winners=tuple(sorted(index[label] for label in game["winners"])),
    )


def _count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{value!r} is not a count")
    return value


def _points(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{value!r} is not a number of points")
    return value


def _per_entrant(values: Sequence[Any], n: int, read: Callable[[Any], int]) -> tuple[int, ...]:
    if len(values) != n:
        raise ValueError(f"{len(values)} values for {n} entrants")
    return tuple(read(value) for value in values)
