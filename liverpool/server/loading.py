"""A table as stored, read back: its seats' names and its game rebuilt by replaying its log."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from liverpool.cli.narrate import describe_step
from liverpool.engine import GameRecord, GameState, Ruleset, action_from_dict, apply, replay

from .storage import WAITING, Storage, TableInfo
from .talk import REPLAYED

RESUME_EVENTS = 500


def bot_name(seat: int, difficulty: str) -> str:
    return f"bot {seat} ({difficulty})"


def display_name(seat: int, name: str | None, bot: str | None) -> str:
    if name is not None:
        return name
    return bot_name(seat, bot) if bot is not None else f"seat {seat}"


@dataclass
class Loaded:
    """A table as stored: its row, its game rebuilt by replaying the log, and the last events narrated."""

    info: TableInfo
    state: GameState | None
    backlog: list[dict[str, Any]]  # the last RESUME_EVENTS events (the last BACKLOG are sent on connect)
    chat: list[dict[str, Any]] = field(default_factory=list)  # the last lines of table talk


def load(storage: Storage, table_id: str) -> Loaded | None:
    """Read a table and replay its game (blocking: run it in a worker thread)."""
    info = storage.table(table_id)
    if info is None:
        return None
    chat = storage.chat(table_id, REPLAYED)
    if info.status == WAITING:
        return Loaded(info, None, [], chat)
    names = [display_name(s.seat, s.name, s.bot) for s in info.seats]
    actions = [action_from_dict(a) for a in storage.actions(table_id)]
    start = max(0, len(actions) - RESUME_EVENTS)
    state = replay(GameRecord(Ruleset.from_dict(info.ruleset), names, info.first_dealer, actions[:start]))
    backlog = []
    for seq, action in enumerate(actions[start:], start):
        before = state.clone()
        apply(state, action)
        backlog.append({"type": "event", "seq": seq, "text": describe_step(before, action, state, names)})
    return Loaded(info, state, backlog, chat)
