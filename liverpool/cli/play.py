"""``liverpool watch`` and ``liverpool replay``: whole games between bots printed as a log, and records
re-played. (``liverpool play``, a game against bots on a terminal screen, is in ``liverpool.cli.tui``.)"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from liverpool.bots.random_bot import random_bot
from liverpool.bots.registry import UnknownBot, UnknownStyle, make_spec, seat_entry
from liverpool.cli.narrate import bought, deal_end_lines, describe
from liverpool.cli.rulesfile import load_ruleset
from liverpool.engine import (
    Action,
    DealResult,
    GameRecord,
    GameState,
    IllegalAction,
    RecordError,
    ReplayError,
    Shuffle,
    replay,
    run_game,
)

console = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)  # a path in an error stays on one line


def _fail(message: str) -> typer.Exit:
    err.print(f"error: {message}", markup=False)
    return typer.Exit(2)


def watch(
    preset: Annotated[
        str, typer.Option("--preset", "-p", help="Preset name or alias, or a ruleset file (.toml/.json).")
    ] = "liverpool",
    seats: Annotated[
        int, typer.Option("--seats", "-n", help="Number of seats, all played by the random bot (without --bots).")
    ] = 4,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "-b",
            help="The bots, one per seat, e.g. medium,easy:aggressive,easy,medium (LEVEL or LEVEL:STYLE; "
            "the seat count follows).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Random seed: the same seed plays the same game.")] = 1,
    record: Annotated[
        Path | None, typer.Option("--record", "-o", help="Write the game record (JSON) to this file.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the scores, not every action.")] = False,
) -> None:
    """Play one whole seeded game between bots and print it as a readable log."""
    try:
        rules = load_ruleset(preset)
    except ValueError as exc:
        raise _fail(str(exc)) from exc
    try:
        specs = bots.split(",") if bots else []
        agents = [make_spec(b) for b in specs] if specs else [random_bot] * seats
        bot_versions = [seat_entry(s, b) for s, b in enumerate(specs or ["random"] * seats)]
    except (UnknownBot, UnknownStyle) as exc:
        raise _fail(str(exc)) from exc
    seats = len(agents)
    names = [f"seat {s}" for s in range(seats)]
    printed = [0]
    last: list[GameState] = []  # the state before the action printed last

    def outcome(state: GameState) -> None:
        """Who got a bought card with the last action (the engine grants a buy inside another move)."""
        if last and not quiet:
            for line in bought(last[0], state, names):
                console.print("  " + line, markup=False)

    def narrate(state: GameState, action: Action) -> None:
        outcome(state)
        _catch_up(state, names, printed)
        if not quiet:
            indent = "" if isinstance(action, Shuffle) else "  "
            console.print(indent + describe(state, action, names), markup=False)
            last[:] = [state.clone()]

    try:
        state = run_game(rules, agents, random.Random(seed), before=narrate)
    except ValueError as exc:
        raise _fail(str(exc)) from exc
    outcome(state)
    _catch_up(state, names, printed)
    _print_totals(state, names)
    if record is not None:
        record.write_text(
            GameRecord.of(state, names, {"seed": seed, "bot_versions": bot_versions}).to_json(), encoding="utf-8"
        )
        console.print(f"record written to {record}", markup=False)


def _catch_up(state: GameState, names: list[str], printed: list[int]) -> None:
    for result in state.results[printed[0] :]:
        _print_deal_end(result, names)
    printed[0] = len(state.results)


def _print_totals(state: GameState, names: list[str]) -> None:
    table = Table(title=f"{state.rules.title}: final scores")
    table.add_column("deal")
    for name in names:
        table.add_column(name, justify="right")
    for result in state.results:
        table.add_row(str(result.deal + 1), *(str(p) for p in result.scores))
    table.add_row("total", *(str(t) for t in state.totals), style="bold")
    console.print(table)
    winners = ", ".join(names[s] for s in state.winners)
    console.print(f"Winner: {winners}", markup=False)


def replay_command(
    file: Annotated[
        Path,
        typer.Argument(help="A game record (JSON) written by `liverpool watch --record` or saved by `liverpool play`."),
    ],
) -> None:
    """Re-play a record through the engine and print each deal's end (why, each hand laid down, the points)
    and the totals.

    Exits with status 2 on a malformed file or at the first illegal action, naming it.
    """
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise _fail(f"{file}: cannot read: {exc.strerror}") from exc
    try:
        record = GameRecord.from_json(text)
        state = replay(record)
    except ReplayError as exc:
        raise _fail(f"{file}: {exc}") from exc
    except (RecordError, IllegalAction) as exc:
        raise _fail(f"{file}: {exc}") from exc
    start = 0 if record.position is None else record.position.deal
    for result in state.results:
        if result.deal < start:  # points the record's starting position gives, not played here
            points = ", ".join(f"{record.seats[s]}: {p}" for s, p in enumerate(result.scores))
            console.print(f"Deal {result.deal + 1} (before the position): Points: {points}", markup=False)
            continue
        _print_deal_end(result, record.seats)
    _print_totals(state, record.seats)
    if not state.is_over:
        console.print(f"(the record stops before the end: {state.situation()})", markup=False)
    sys.stdout.flush()


def _print_deal_end(result: DealResult, names: list[str]) -> None:
    for line in deal_end_lines(result, names):
        console.print(line, markup=False)
