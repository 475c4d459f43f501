"""``liverpool play``: a game against bots on a terminal screen (the textual app in ``liverpool.tui``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from liverpool.bots.registry import FACTORIES, UnknownBot, UnknownStyle, parse_spec
from liverpool.cli.rulesfile import load_ruleset
from liverpool.engine import GameRecord, IllegalAction, RecordError, ReplayError
from liverpool.phrases import YOU

err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str) -> typer.Exit:
    err.print(f"error: {message}", markup=False)
    return typer.Exit(2)


def play(
    preset: Annotated[
        str, typer.Option("--preset", "-p", help="Preset name or alias, or a ruleset file (.toml/.json).")
    ] = "liverpool",
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help="The other seats' bots, in seat order after yours: random, easy, medium, hard; "
            "LEVEL:STYLE picks a style, e.g. medium:aggressive (cautious, balanced, aggressive).",
        ),
    ] = "medium,medium,medium",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Random seed: the same seed deals the same cards.")] = 1,
    name: Annotated[
        str,
        typer.Option(
            "--name", help='Your name at the table; by default "you", and the log speaks to you ("you discard 7♥").'
        ),
    ] = YOU,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Carry on a game saved with ctrl+s (a game record).")
    ] = None,
    save: Annotated[Path, typer.Option("--save", help="Where ctrl+s saves the game.")] = Path("liverpool-save.json"),
    delay: Annotated[float, typer.Option("--delay", help="Seconds between the bots' moves.")] = 0.4,
    four_colour: Annotated[
        bool, typer.Option("--four-colour", help="A four-colour deck: diamonds blue, clubs green.")
    ] = False,
    join: Annotated[
        str | None,
        typer.Option(
            "--join",
            help="Take a seat at a server table: an invite link (http://HOST/join/INVITE) or your seat link (http://HOST/play/TOKEN).",
        ),
    ] = None,
) -> None:
    """Play a game against bots in the terminal (you hold seat 0), or at a server table with --join (type ? in the game for the commands)."""
    from liverpool.tui.app import LiverpoolApp
    from liverpool.tui.session import Session

    if join is not None:
        from liverpool.tui.remote import LinkError, RemoteSession, seat_link

        try:
            link = seat_link(join, name)
        except LinkError as exc:
            raise _fail(str(exc)) from exc
        LiverpoolApp(RemoteSession(link), four_colour=four_colour).run()
        return
    if resume is not None:
        try:
            record = GameRecord.from_json(resume.read_text(encoding="utf-8"))
            session = Session.resume(record)
        except OSError as exc:
            raise _fail(f"{resume}: cannot read: {exc.strerror}") from exc
        except (RecordError, ReplayError, IllegalAction, ValueError) as exc:
            raise _fail(f"{resume}: {exc}") from exc
        save = resume
    else:
        try:
            rules = load_ruleset(preset)
        except ValueError as exc:
            raise _fail(str(exc)) from exc
        names = [b.strip().lower() for b in bots.split(",") if b.strip()]
        if not names:
            raise _fail(f"no bots in {bots!r}; bots: {', '.join(FACTORIES)}")
        for spec in names:
            try:
                parse_spec(spec)
            except (UnknownBot, UnknownStyle) as exc:
                raise _fail(str(exc)) from exc
        try:
            session = Session(rules, names, seed=seed, name=name)
        except ValueError as exc:
            raise _fail(str(exc)) from exc
    LiverpoolApp(session, delay=delay, save_path=save, four_colour=four_colour).run()
