"""``liverpool tournament``: bots against each other over duplicate deals, with paired statistics.

Bad input (an unknown bot, a seat count the preset does not allow, fewer than 1 game) is one line on
stderr and exit status 2. Ctrl-C stops the run, reports the complete duplicate groups finished so
far, writes the outputs and exits with status 130.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from liverpool.cli.rules import fail, load_or_fail
from liverpool.tournament.games import GameResult, TournamentError, make_setup
from liverpool.tournament.report import (
    Checkpoint,
    entrant_table,
    pair_table,
    progress_note,
    to_document,
    write_chart,
    write_json,
)
from liverpool.tournament.resume import load_finished
from liverpool.tournament.runner import RayUnavailable, run_tournament
from liverpool.tournament.stats import summarize

INTERRUPTED = 130


class RateColumn(ProgressColumn):
    """Games per second."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if speed is None else f"{speed:.2f} games/s", style="progress.data.speed")


def _progress_line(task: Task, out: Path) -> str:
    """``saved 40 of 90 games to FILE; 0.52 games/s, about 0:01:36 left`` (the bar's figures, as text)."""
    line = f"saved {task.completed:.0f} of {task.total or 0:.0f} games to {out}"
    speed, left = task.speed, task.time_remaining
    if speed is not None and left is not None:
        minutes, seconds = divmod(round(left), 60)
        line += f"; {speed:.2f} games/s, about {minutes // 60}:{minutes % 60:02d}:{seconds:02d} left"
    return line


def tournament(
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help=(
                "Bots by name, comma-separated, one per seat (3-8); a name may repeat and may name a style, "
                "medium:aggressive (cautious, balanced, aggressive). Besides the bots of "
                "'liverpool play', 'cheat' (hard seeing every hand; measurement only) and 'infer' (hard "
                "searching worlds dealt by inferred odds; experimental), docs/bots.md."
            ),
        ),
    ],
    preset: Annotated[
        str, typer.Option("--preset", "-p", metavar="NAME_OR_FILE", help="Preset name or alias, or a ruleset file.")
    ] = "liverpool",
    games: Annotated[
        int,
        typer.Option(
            "--games", "-g", min=1, help="Duplicate groups: distinct shuffles, each played in every seat rotation."
        ),
    ] = 10,
    seed: Annotated[int, typer.Option("--seed", "-s", help="The same seed plays the same games.")] = 1,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local processes playing games.")] = 1,
    ray: Annotated[
        str | None,
        typer.Option("--ray", metavar="ADDRESS", help="Play games as Ray tasks: 'auto', 'local' or a cluster address."),
    ] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="JSON results file.")] = Path("tournament.json"),
    chart: Annotated[Path, typer.Option("--chart", help="PNG chart of points per game.")] = Path("tournament.png"),
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            "-r",
            metavar="FILE.json",
            help="Carry on from this report of the same rules, bots and seed: its games are kept, the rest played.",
        ),
    ] = None,
    save_every: Annotated[
        float,
        typer.Option("--save-every", min=0, metavar="SECONDS", help="Rewrite --out with the games so far this often."),
    ] = 60.0,
) -> None:
    """Play bots against each other over duplicate deals and report who scores fewest points.

    Each of the --games groups is one sequence of shuffles played once in every seat rotation, with fresh bots each game, so the luck of the deal cancels out. A seed gives the same results with any backend (--workers, --ray).

    While it runs, the --out file is rewritten with the games finished so far (every --save-every seconds), so a run that is stopped or killed can carry on with --resume.
    """
    if ray is not None and workers > 1:
        fail("choose one of --workers and --ray")
    for path in (out, chart):
        if not path.parent.is_dir():
            fail(f"{path}: no such directory {str(path.parent)!r}")
    rules = load_or_fail(preset)
    try:
        setup = make_setup(rules, bots.split(","), seed)
        done = () if resume is None else load_finished(resume, setup, games)
    except TournamentError as exc:
        fail(str(exc))
    console, errors = Console(), Console(stderr=True)
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=errors,
    ) as progress:
        task = progress.add_task("games", total=games * setup.seats, completed=len(done))
        checkpoint = Checkpoint(out, setup, games, done, seconds=save_every, workers=workers, ray_address=ray)

        def advance(result: GameResult) -> None:
            progress.advance(task)
            try:
                saved = checkpoint.add(result)
            except OSError as exc:  # the run goes on; the final write reports its own failure
                errors.print(f"cannot save the games so far to {out}: {exc}", markup=False, highlight=False)
                return
            if saved and not errors.is_terminal:  # a log file gets no live bar: a line per save instead
                errors.print(_progress_line(progress.tasks[task], out), markup=False, highlight=False, soft_wrap=True)

        try:
            run = run_tournament(setup, games, workers=workers, ray_address=ray, on_result=advance, done=done)
        except RayUnavailable as exc:
            fail(str(exc))
    summary = summarize(setup, run.results)
    if summary is not None:
        console.print(entrant_table(run, summary))
        console.print(pair_table(summary))
    note = progress_note(run, summary)
    if note is not None:
        errors.print(note, markup=False, highlight=False)
    try:
        write_json(out, to_document(run, summary, workers=workers, ray_address=ray, resumed=len(done)))
        if summary is not None:
            write_chart(chart, run, summary)
    except OSError as exc:
        fail(f"cannot write the results: {exc}")
    written = f"{out} and {chart}" if summary is not None else f"{out} (no chart: no complete group)"
    console.print(f"Results written to {written}", markup=False, highlight=False)
    if run.interrupted:
        raise typer.Exit(INTERRUPTED)
