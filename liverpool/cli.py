"""The ``liverpool`` command. Each command group lives in its own ``cli_*`` module and is added here."""

from __future__ import annotations

import typer

from .cli_play import replay_command, watch
from .cli_rules import rules_app
from .cli_serve import serve
from .cli_tournament import tournament
from .cli_tui import play

app = typer.Typer(name="liverpool", help="Liverpool Rummy: rulesets, games and tools.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")
app.command("play")(play)
app.command("replay")(replay_command)
app.command("watch")(watch)
app.command("serve")(serve)
app.command("tournament")(tournament)


def main() -> None:
    app()
