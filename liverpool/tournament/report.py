"""A tournament's outputs: tables for the terminal, a JSON file, and a PNG chart.

The JSON file (``FORMAT``) is one object:

- ``format``: ``"liverpool-tournament/1"``.
- ``setup``: ``preset`` (the ruleset's name), ``rules`` (the whole ruleset as ``liverpool rules show
  --json`` writes it), ``bots`` and ``entrants`` (labels such as ``medium#2``) in entrant order,
  ``versions`` (each entrant's bot version, such as ``medium/1``: the level's number goes up whenever its
  play changes, so results of different versions are not mixed), ``seats``, ``seed``, ``groups``
  (duplicate groups asked for; each is played in every rotation).
- ``run``: ``backend`` (``local``, ``processes`` or ``ray``), ``workers`` (local processes; null on
  Ray), ``games_scheduled``, ``games_finished``, ``games_resumed`` (of those, how many were read back
  from an earlier report with ``--resume``), ``interrupted`` (true for a run stopped early, and for the
  checkpoints written while a run is going).
- ``summary``: null when no group was completed, else ``groups`` and ``games`` counted,
  ``dropped_groups`` and ``dropped_games`` (incomplete groups of an interrupted run), ``confidence``,
  ``resamples``, ``entrants`` (per entrant: ``label``, ``bot``, ``points`` and ``vs_field`` as
  ``{mean, low, high}``, ``win_share``, ``go_out_rate``, ``buys_per_game``, ``rating``
  ``{mu, sigma, ordinal}``) and ``pairs`` (``a``, ``b``, ``difference`` ``{mean, low, high}`` of a's
  points minus b's).
- ``games``: every finished game in (group, rotation) order: ``group``, ``rotation``, ``seats`` (entrant
  labels in seat order), ``totals``, ``deal_scores`` (one list per deal) and ``buys`` in entrant order,
  ``went_out`` (per deal, a label or null) and ``winners`` (labels).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.table import Table

from liverpool.cli.rulesfile import plural

from .games import GameResult, Setup, entrant_at
from .runner import Run
from .stats import Interval, Summary, summarize, summary_to_dict

FORMAT = "liverpool-tournament/1"
FEW_GROUPS = 20
"""Below this many groups a percentile bootstrap interval is too narrow to lean on."""


def backend_name(workers: int, ray_address: str | None) -> str:
    if ray_address is not None:
        return "ray"
    return "processes" if workers > 1 else "local"


def to_document(
    run: Run, summary: Summary | None, *, workers: int = 1, ray_address: str | None = None, resumed: int = 0
) -> dict[str, Any]:
    """The JSON object described in this module's doc."""
    setup, labels = run.setup, run.setup.labels
    n = setup.seats
    return {
        "format": FORMAT,
        "setup": {
            "preset": setup.rules.name,
            "rules": setup.rules.to_dict(),
            "bots": list(setup.bots),
            "entrants": list(labels),
            "versions": list(setup.versions),
            "seats": n,
            "seed": setup.seed,
            "groups": run.groups,
        },
        "run": {
            "backend": backend_name(workers, ray_address),
            "workers": None if ray_address is not None else workers,
            "games_scheduled": run.games,
            "games_finished": len(run.results),
            "games_resumed": resumed,
            "interrupted": run.interrupted,
        },
        "summary": None if summary is None else summary_to_dict(summary),
        "games": [
            {
                "group": game.group,
                "rotation": game.rotation,
                "seats": [labels[entrant_at(seat, game.rotation, n)] for seat in range(n)],
                "totals": list(game.totals),
                "deal_scores": [list(scores) for scores in game.deal_scores],
                "went_out": [None if e is None else labels[e] for e in game.went_out],
                "buys": list(game.buys),
                "winners": [labels[e] for e in game.winners],
            }
            for game in run.results
        ],
    }


def write_json(path: Path, document: dict[str, Any]) -> None:
    """Write ``document`` whole or not at all: a crash mid-write leaves the previous file in place."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, path)


class Checkpoint:
    """Rewrites a run's report with the games finished so far, at most once every ``seconds``.

    Each checkpoint reads as an interrupted run, so if the process dies the file is what ``--resume``
    carries on from. Timing decides only when the file is written, never what the games are.
    """

    def __init__(
        self,
        path: Path,
        setup: Setup,
        groups: int,
        done: Sequence[GameResult] = (),
        *,
        seconds: float = 60.0,
        workers: int = 1,
        ray_address: str | None = None,
    ) -> None:
        self.path, self.setup, self.groups, self.seconds = path, setup, groups, seconds
        self.workers, self.ray_address, self.resumed = workers, ray_address, len(done)
        self.results = list(done)
        self.written = time.monotonic()

    def add(self, result: GameResult) -> bool:
        """Count ``result``; True when that wrote the file."""
        self.results.append(result)
        if time.monotonic() - self.written < self.seconds:
            return False
        self.write()
        return True

    def write(self) -> None:
        run = Run(self.setup, self.groups, tuple(sorted(self.results, key=lambda r: r.key)), interrupted=True)
        summary = summarize(self.setup, run.results)
        document = to_document(run, summary, workers=self.workers, ray_address=self.ray_address, resumed=self.resumed)
        write_json(self.path, document)
        self.written = time.monotonic()


def _interval(interval: Interval, signed: bool = False) -> str:
    sign = "+" if signed else ""
    return f"{interval.mean:{sign}.1f} [{interval.low:{sign}.1f}, {interval.high:{sign}.1f}]"


def entrant_table(run: Run, summary: Summary) -> Table:
    """One row per entrant, fewest points first."""
    level = f"{summary.confidence:.0%}"
    table = Table(
        title=f"{run.setup.rules.title}: {plural(summary.groups, 'duplicate group')} x {run.setup.seats} rotations "
        f"= {summary.games} games (seed {run.setup.seed})",
        caption="points: penalty points per game (fewer is better); vs field: minus the group's mean; "
        f"[{level} bootstrap interval over groups]",
    )
    for column in ("entrant", f"points [{level}]", f"vs field [{level}]", "wins", "out/deal", "buys/game", "rating"):
        table.add_column(column, justify="left" if column == "entrant" else "right", no_wrap=column == "entrant")
    for e in sorted(summary.entrants, key=lambda e: e.points.mean):
        table.add_row(
            e.label,
            _interval(e.points),
            _interval(e.vs_field, signed=True),
            f"{e.win_share:.1%}",
            f"{e.go_out_rate:.1%}",
            f"{e.buys_per_game:.2f}",
            f"{e.rating.mu:.1f} ± {e.rating.sigma:.1f}",
        )
    return table


def pair_table(summary: Summary) -> Table:
    """Each pair's difference in points per game, and who is ahead where the interval excludes 0."""
    level = f"{summary.confidence:.0%}"
    few = (
        f"; with only {plural(summary.groups, 'group')} the intervals are rough" if summary.groups < FEW_GROUPS else ""
    )
    table = Table(
        title="Pairwise: a's points per game minus b's (paired within groups)",
        caption=f"ahead: the entrant with fewer points where the interval excludes 0{few}",
    )
    for column in ("a", "b", f"a - b [{level}]", "ahead"):
        table.add_column(column, justify="right" if column.startswith("a -") else "left", no_wrap=column != "ahead")
    for pair in summary.pairs:
        d = pair.difference
        ahead = pair.a if d.high < 0 else pair.b if d.low > 0 else "-"
        table.add_row(pair.a, pair.b, _interval(d, signed=True), ahead)
    return table


def progress_note(run: Run, summary: Summary | None) -> str | None:
    """What an interrupted run counted and dropped; None for a run that finished."""
    if not run.interrupted:
        return None
    if summary is None:
        counted, dropped = "no complete group", len(run.results)
    else:
        counted = f"{plural(summary.groups, 'complete group')} ({plural(summary.games, 'game')})"
        dropped = summary.dropped_games
    return (
        f"Interrupted: {len(run.results)} of {run.games} games finished; counted {counted}; "
        f"dropped {plural(dropped, 'game')} of incomplete groups."
    )


def write_chart(path: Path, run: Run, summary: Summary) -> None:
    """Mean points and points against the field per entrant, with their intervals, as a PNG (Agg)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # slow to import: only when charting
    from matplotlib.figure import Figure

    entrants = sorted(summary.entrants, key=lambda e: e.points.mean, reverse=True)
    labels = [e.label for e in entrants]
    rows = list(range(len(entrants)))
    figure = Figure(figsize=(10, 1.2 + 0.5 * len(entrants)), layout="constrained")
    FigureCanvasAgg(figure)
    level = f"{summary.confidence:.0%}"
    panels = (
        ("penalty points per game", [e.points for e in entrants], False),
        ("points vs field (group mean = 0)", [e.vs_field for e in entrants], True),
    )
    for column, (name, intervals, zero_line) in enumerate(panels, start=1):
        ax = figure.add_subplot(1, 2, column)
        means = [i.mean for i in intervals]
        errors = [[i.mean - i.low for i in intervals], [i.high - i.mean for i in intervals]]
        ax.errorbar(means, rows, xerr=errors, fmt="o", capsize=4)
        ax.set_yticks(rows, labels)
        ax.set_xlabel(f"{name}, {level} CI")
        ax.grid(axis="x", alpha=0.3)
        if zero_line:
            ax.axvline(0, color="grey", linewidth=1)
    figure.suptitle(f"{run.setup.rules.title}: {summary.games} games in {plural(summary.groups, 'duplicate group')}")
    figure.savefig(path, dpi=100)
