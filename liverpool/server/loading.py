"""A table as stored, read back: its seats' names and its game rebuilt by replaying its log."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from liverpool.cli.narrate import step_words
from liverpool.engine import Action, GameRecord, GameState, Position, Ruleset, action_from_dict, apply, replay
from liverpool.phrases import english

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
    rules = Ruleset.from_dict(info.ruleset)
    state = replay(GameRecord(rules, names, info.first_dealer, actions[:start], position=table_position(info)))
    backlog = []
    for seq, action in enumerate(actions[start:], start):
        before = state.clone()
        apply(state, action)
        backlog.append(step_event(seq, before, action, state, names))
    backlog += [note_event(seq, kind, data) for seq, kind, data in storage.notes(table_id) if seq >= start]
    backlog.sort(key=lambda e: (e["seq"], e["type"] == "event"))  # a note comes before the action of its seq
    return Loaded(info, state, backlog[-RESUME_EVENTS:], chat)


def step_event(seq: int, before: GameState, action: Action, after: GameState, names: list[str]) -> dict[str, Any]:
    """The ``event`` message of one action: its table log line in English (``text``) and as phrases that
    each browser says in its language (``words``, docs/protocol.md)."""
    words = step_words(before, action, after)
    text = " ".join(english(phrase, names) for phrase in words)
    return {"type": "event", "seq": seq, "text": text, "words": [phrase.to_dict() for phrase in words]}


def table_position(info: TableInfo) -> Position | None:
    """The position a table's game starts from, if it does not start at a first deal."""
    return None if info.position is None else Position.from_dict(info.position)


def note_event(seq: int, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """A stored note as the ``note`` message the table's log shows."""
    event = {"type": "note", "kind": kind, "seq": seq, "seat": data["seat"], "text": data["text"]}
    if "words" in data:  # (notes stored before they had phrases have only their English text)
        event["words"] = data["words"]
    return {**event, "at": data["at"]} if kind == "undo" else event
