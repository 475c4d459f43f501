"""``liverpool rules``: list the presets and show a preset or a house-rules file.

Errors (an unknown preset, a bad file) are one line on stderr and exit status 2.
"""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from liverpool.cli.rulesfile import (
    describe_contract,
    describe_decks,
    dump_ruleset,
    format_value,
    load_ruleset,
    min_cards,
)
from liverpool.engine import ALIASES, PRESETS, FieldKind, Ruleset, RulesetError, UnknownPreset, grouped_fields

USAGE_ERROR = 2

rules_app = typer.Typer(help="Rulesets: the presets and house-rules files.", no_args_is_help=True)


def fail(message: str) -> NoReturn:
    """Print ``message`` as one line on stderr and exit with status 2."""
    typer.echo(f"liverpool: {' '.join(message.split())}", err=True)
    raise typer.Exit(USAGE_ERROR)


def load_or_fail(spec: str) -> Ruleset:
    """The ruleset ``spec`` names (a preset or a file), or exit with a one-line error."""
    try:
        return load_ruleset(spec)
    except (RulesetError, UnknownPreset) as exc:
        fail(str(exc))


@rules_app.command("list")
def list_presets() -> None:
    """List the presets the engine ships."""
    table = Table(title="Presets", show_lines=True)
    for column in ("Name", "Aliases", "Title", "Players", "Decks", "Deals"):
        table.add_column(column, no_wrap=column in ("Name", "Aliases", "Players"))
    for ruleset in PRESETS.values():
        aliases = "\n".join(alias for alias, name in ALIASES.items() if name == ruleset.name)
        hands = sorted({deal.hand_size for deal in ruleset.deals})
        cards = f"{hands[0]}" if len(hands) == 1 else f"{hands[0]}-{hands[-1]}"
        table.add_row(
            ruleset.name,
            aliases,
            ruleset.title,
            f"{ruleset.min_players}-{ruleset.max_players}",
            describe_decks(ruleset, seats="").replace("; ", "\n"),
            f"{len(ruleset.deals)} ({cards} cards)",
        )
    Console().print(table)


@rules_app.command("show")
def show(
    spec: Annotated[
        str, typer.Argument(metavar="NAME_OR_FILE", help="A preset name or alias, or a .json/.toml ruleset file.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the ruleset as JSON, and nothing else.")] = False,
    as_toml: Annotated[
        bool, typer.Option("--toml", help="Print the ruleset as TOML (a house-rules file), and nothing else.")
    ] = False,
) -> None:
    """Show every rule of a preset or a house-rules file."""
    if as_json and as_toml:
        fail("choose one of --json and --toml")
    ruleset = load_or_fail(spec)
    if as_json or as_toml:
        typer.echo(dump_ruleset(ruleset, "json" if as_json else "toml"), nl=False)
        return
    print_ruleset(Console(), ruleset)


def print_ruleset(console: Console, ruleset: Ruleset) -> None:
    """The readable form of ``ruleset``: contracts, every field of the field registry by group with its value,
    doc and rules-matrix row, and the notes."""
    console.print(f"[bold]{ruleset.name}[/bold]: {ruleset.title}", markup=True, highlight=False)
    for group, infos in grouped_fields():
        console.print()
        if all(info.kind is FieldKind.LINES for info in infos):
            for info in infos:
                console.print(f"[bold]{group}[/bold] ([italic]{info.name}[/italic]: {info.doc})", highlight=False)
                notes = Table.grid(padding=(0, 1))
                notes.add_column(width=1)
                notes.add_column()
                for note in getattr(ruleset, info.name) or ("(none)",):
                    notes.add_row("•", note)
                console.print(notes, highlight=False)
            continue
        for info in infos:
            if info.kind is FieldKind.DEALS:
                console.print(contract_table(ruleset, info.doc))
        table = Table(title=group.value, title_justify="left", title_style="bold", expand=True)
        table.add_column("field", no_wrap=True)
        table.add_column("value", max_width=36)
        table.add_column("doc", ratio=1)
        table.add_column("RULES.md")
        for info in infos:
            value = (
                f"{len(ruleset.deals)} deals (see Contracts)"
                if info.kind is FieldKind.DEALS
                else format_value(ruleset, info.name)
            )
            table.add_row(info.name, value, info.doc, info.row)
        console.print(table)


def contract_table(ruleset: Ruleset, caption: str) -> Table:
    table = Table(title="Contracts", title_justify="left", title_style="bold", caption=caption, caption_justify="left")
    for column in ("deal", "contract", "melds", "min cards", "hand size", "out"):
        table.add_column(column, justify="right" if column in ("deal", "min cards", "hand size") else "left")
    for i, deal in enumerate(ruleset.deals):
        melds = ", ".join(str(meld) for meld in deal.contract)
        final = " (final)" if ruleset.is_final(i) else ""
        table.add_row(
            f"{i + 1}{final}",
            describe_contract(deal.contract),
            melds,
            str(min_cards(deal)),
            str(deal.hand_size),
            ruleset.deal_out(i).value,
        )
    return table
