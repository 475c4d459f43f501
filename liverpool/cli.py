"""The ``liverpool`` command. Each command group lives in its own ``cli_*`` module and is added here."""

from __future__ import annotations

from typing import Annotated

import typer

from .buildinfo import describe_build
from .cli_play import replay_command, watch
from .cli_review import review
from .cli_rules import rules_app
from .cli_serve import serve
from .cli_tournament import tournament
from .cli_tui import play

app = typer.Typer(name="liverpool", help="Liverpool Rummy: rulesets, games and tools.", no_args_is_help=True)


def _version(value: bool) -> None:
    if value:
        typer.echo(describe_build())
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and which build runs, then exit."
        ),
    ] = False,
) -> None:
    """Liverpool Rummy: rulesets, games and tools."""


app.add_typer(rules_app, name="rules")
app.command("play")(play)
app.command("replay")(replay_command)
app.command("review")(review)
app.command("watch")(watch)
app.command("serve")(serve)
app.command("tournament")(tournament)


def main() -> None:
    app()
