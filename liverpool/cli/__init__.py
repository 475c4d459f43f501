"""The ``liverpool`` command. Each command group lives in its own ``cli_*`` module and is added here."""

from __future__ import annotations

from typing import Annotated

import typer

from liverpool.buildinfo import describe_build
from liverpool.cli.play import replay_command, watch
from liverpool.cli.review import review
from liverpool.cli.rules import rules_app
from liverpool.cli.serve import serve
from liverpool.cli.tournament import tournament
from liverpool.cli.tui import play

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
