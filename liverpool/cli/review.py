"""``liverpool review RECORD --seat N``: the coach's verdict on every decision of one seat in a game record.

The text (or ``--json``) gives each decision's expected points and judgement, each deal's luck from the
stock, and the decisions where the best option was better by more than ``--threshold`` points. ``--save``
keeps the verdicts in a file with the coach's version and budget: run again with the same file, record,
seat and settings, the stored verdicts are shown as they were, not measured again.
Bad input (an unreadable or malformed record, a seat out of range) is one line on stderr and exit status 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from liverpool.cli.rules import fail
from liverpool.coach import THRESHOLDS, Coach, review_record
from liverpool.coach.advice import CANDIDATES, WORLDS
from liverpool.coach.review import record_digest
from liverpool.engine import GameRecord, IllegalAction, RecordError, ReplayError, replay

console = Console(highlight=False)


def review(
    file: Annotated[Path, typer.Argument(help="A game record (JSON), as `liverpool watch --record` writes it.")],
    seat: Annotated[int, typer.Option("--seat", "-s", help="The seat to review (0-based, as in the record).")],
    worlds: Annotated[
        int, typer.Option("--worlds", "-w", min=2, help="Sampled worlds per decision (the budget).")
    ] = WORLDS,
    candidates: Annotated[int, typer.Option("--candidates", min=1, help="Options measured per decision.")] = CANDIDATES,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the coach's worlds: the same seed, the same review.")
    ] = 0,
    deal: Annotated[
        list[int] | None, typer.Option("--deal", "-d", min=1, help="Review only this deal (1-based); may repeat.")
    ] = None,
    threshold: Annotated[
        float,
        typer.Option(
            "--threshold", "-t", min=0.0, help="List decisions that lost more points than this (beyond the error)."
        ),
    ] = THRESHOLDS.inaccuracy,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    save: Annotated[
        Path | None, typer.Option("--save", help="Store the verdicts in this file, or show those stored there.")
    ] = None,
) -> None:
    """Review one seat's decisions with the coach: expected points, judgements, luck, and what was better."""
    try:
        record = GameRecord.from_json(file.read_text(encoding="utf-8"))
        replay(record)
    except OSError as exc:
        fail(f"{file}: cannot read: {exc.strerror}")
    except (RecordError, ReplayError, IllegalAction) as exc:
        fail(f"{file}: {exc}")
    if not 0 <= seat < len(record.seats):
        fail(f"--seat {seat}: this game has seats 0..{len(record.seats) - 1}")
    coach = Coach(worlds=worlds, candidates=candidates)
    deals = None if deal is None else sorted({d - 1 for d in deal})
    key = {"coach": coach.settings, "seat": seat, "seed": seed, "record_sha256": record_digest(record), "deals": deals}
    data = _stored(save, key)
    if data is None:
        data = _measure(record, seat, coach, seed, deals)
        data["deals"] = deals
        if save is not None:
            save.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if as_json:
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        return
    for line in text_lines(data, record.seats, threshold):
        console.print(line, markup=False, soft_wrap=True)


def _stored(save: Path | None, key: dict[str, Any]) -> dict[str, Any] | None:
    """The review stored in ``save`` when it is of this record, seat, seed, deals and coach; else None."""
    if save is None or not save.exists():
        return None
    try:
        data = json.loads(save.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        fail(f"--save {save}: not a stored review ({exc})")
    if not isinstance(data, dict) or any(data.get(k) != v for k, v in key.items()):
        return None
    data["stored"] = True
    return data


def _measure(record: GameRecord, seat: int, coach: Coach, seed: int, deals: list[int] | None) -> dict[str, Any]:
    columns = (
        TextColumn("reviewing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("decisions"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    errors = Console(stderr=True)
    # Off when stderr is no terminal: rich would still end a non-interactive bar with an empty line.
    with Progress(*columns, console=errors, transient=True, disable=not errors.is_terminal) as bar:
        task = bar.add_task("review", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = review_record(record, seat, coach, seed=seed, deals=deals, progress=advance)
    return result.to_dict()


def _signed(points: float) -> str:
    return f"{points:+.1f}"


def text_lines(data: dict[str, Any], names: list[str], threshold: float) -> list[str]:
    """The review as text lines, from its JSON form (fresh or stored alike)."""
    seat = data["seat"]
    coach = data["coach"]
    stored = " (stored)" if data.get("stored") else ""
    name = "" if names[seat] == f"seat {seat}" else f" ({names[seat]})"
    lines = [
        f"Review of seat {seat}{name}{stored}: {coach['version']}, {coach['worlds']} worlds, "
        f"{coach['candidates']} options per decision, seed {data['seed']}",
        "expected points: the seat's deal points minus its opponents' mean, at the end of the deal (lower is better)",
    ]
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for d in data["decisions"]:
        by_deal.setdefault(d["deal"], []).append(d)
    for deal, decisions in sorted(by_deal.items()):
        draws = [d for d in data["draws"] if d["deal"] == deal]
        luck = sum(d["luck"] for d in draws)
        counts = ", ".join(
            f"{sum(1 for d in decisions if d['judgement'] == j)} {j}"
            for j in ("best", "good", "inaccuracy", "mistake", "blunder")
        )
        lines.append("")
        lines.append(
            f"Deal {deal}: {len(decisions)} decisions ({counts}); luck of {len(draws)} stock draws {_signed(luck)} points"
        )
        luck_at = {d["index"]: d for d in draws}
        for d in decisions:
            line = f"  #{d['index']:<5} {d['played_text']:<44} {d['expected']:7.1f} ±{d['se']:5.1f}  {d['judgement']}"
            drew = luck_at.get(d["index"])
            if drew is not None:
                line += f"  (drew {drew['card']}: luck {_signed(drew['luck'])} ±{drew['se']:.1f})"
            lines.append(line)
    worse = [d for d in data["decisions"] if d["loss"] - d["loss_se"] > threshold]
    lines.append("")
    if not worse:
        lines.append(f"No decision lost more than {threshold:g} points beyond its error.")
        return lines
    lines.append(f"Decisions where the best option was better by more than {threshold:g} points:")
    for d in worse:
        best = d["advice"]["options"][0]
        lines.append(
            f"  deal {d['deal']}, #{d['index']}: {d['played_text']} lost {d['loss']:.1f} ±{d['loss_se']:.1f} points "
            f"({d['judgement']}); better: {best['text']}: {best['reason']}"
        )
    return lines
