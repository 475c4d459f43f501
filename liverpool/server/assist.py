"""What a table's actor does for a player besides playing: a hint from the coach, and undo against bots.

A hint is measured by the coach in the worker pool (:mod:`.coaching`) from the seat's observation only; the
actor goes on with its table (and every other table with its own) while it is measured, and the answer
comes back to the actor's queue as a :class:`~.messages.HintReady`. The hint goes to the seat that asked;
that a hint was taken goes to everyone at the table as a ``note`` (and is stored).

Undo asks the engine (:func:`liverpool.engine.undo_point`) what the seat's last decision is and whether
taking it back would hide a card the seat has already seen; the server only checks that every other seat is
a bot. The actions taken back leave the table's log and are kept in a stored ``undo`` note, which the
record's ``meta`` and the replay show.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING, Any

from anyio import to_thread

from liverpool.cli.narrate import describe, describe_words, took_back, took_hint
from liverpool.engine import GameRecord, UndoRefused, action_to_dict, apply, observe, replay, undo_point
from liverpool.phrases import english

from .loading import note_event, table_position
from .messages import Client, HintReady

if TYPE_CHECKING:
    from .actor import TableActor


def hint(actor: TableActor, client: Client) -> None:
    """Start measuring a hint for ``client``'s seat, or say why not."""
    seat = client.seat
    if seat is None:
        client.refuse("spectator", "spectators watch; hints are for the players")
        return
    if not actor.options.hints:
        client.refuse("hints_off", "hints are turned off at this table (it was created with hints off)")
        return
    if actor.coaching is None:
        client.refuse("no_coach", "this server has no coach to give hints")
        return
    state = actor.state
    if actor.final is not None:
        client.refuse("game_over", "the game is over: there is no move left to hint")
        return
    if state is None:
        client.refuse("not_started", "the game starts when every seat is filled")
        return
    options = actor.options_of(seat)
    if not options:
        client.refuse("not_your_move", "a hint is for your move: there is nothing for you to choose now")
        return
    if seat in actor.hinting:
        client.refuse("hint_pending", "the coach is still measuring your last hint")
        return
    actor.hinting.add(seat)
    seq = len(state.history)
    seed = actor.hint_seed(seq, seat)
    task = asyncio.create_task(_measure(actor, client, seq, observe(state, seat), options, seed))
    actor.background.add(task)
    task.add_done_callback(actor.background.discard)


async def _measure(actor: TableActor, client: Client, seq: int, *args: Any) -> None:
    assert actor.coaching is not None
    try:
        answer = HintReady(client, seq, await actor.coaching.hint(*args))
    except Exception as exc:  # a worker that failed: the seat hears why, the table goes on
        answer = HintReady(client, seq, None, f"{type(exc).__name__}: {exc}")
    actor.deliver(answer)


async def hint_ready(actor: TableActor, ready: HintReady) -> None:
    """Send the hint to its seat and tell the table that the seat took one."""
    client, seat = ready.client, ready.client.seat
    assert seat is not None
    actor.hinting.discard(seat)
    if ready.hint is None:
        client.refuse("hint_failed", f"the coach could not measure this hint ({ready.failed})")
        return
    client.send({"type": "hint", "seq": ready.seq, **ready.hint})
    phrase = took_hint(seat)
    data = {"seat": seat, "text": english(phrase, actor.display_names()), "words": [phrase.to_dict()]}
    await to_thread.run_sync(actor.storage.add_note, actor.id, ready.seq, "hint", data)
    actor.note(note_event(ready.seq, "hint", data))


async def undo(actor: TableActor, client: Client) -> None:
    """Take back the seat's last decision and the bots' moves after it, or say why not."""
    seat = client.seat
    if seat is None:
        client.refuse("spectator", "spectators watch; they have nothing to take back")
        return
    names = actor.display_names()
    people = [names[s] for s, bot in enumerate(actor.bots) if s != seat and bot is None]
    if people:
        client.refuse(
            "not_against_bots", f"undo is only for a game against bots, and {', '.join(people)} also play at this table"
        )
        return
    state = actor.state
    if actor.final is not None:
        client.refuse("game_over", "the game is over: nothing can be taken back")
        return
    if state is None:
        client.refuse("not_started", "the game starts when every seat is filled")
        return
    try:
        back = undo_point(state, seat, table_position(actor.info))
    except UndoRefused as exc:
        client.refuse(exc.reason, _refusal(exc, GameRecord.of(state, position=table_position(actor.info)), names))
        return
    walk = back.state.clone()
    moves = []
    for action in back.actions:
        moves.append(describe_words(walk, action))
        apply(walk, action)
    phrase = took_back(seat, moves)
    data = {
        "seat": seat,
        "at": back.at,
        "actions": [action_to_dict(a) for a in back.actions],
        "text": english(phrase, names),
        "words": [phrase.to_dict()],
    }
    await to_thread.run_sync(partial(actor.storage.take_back, actor.id, back.at, data))
    actor.rewind(back.state)
    actor.note(note_event(back.at, "undo", data))
    actor.broadcast()


def _refusal(exc: UndoRefused, record: GameRecord, names: list[str]) -> str:
    if exc.index is None:
        return "nothing to take back: you have not made a decision yet"
    before = replay(record, exc.index)
    cards = " ".join(c.pretty() for c in exc.cards)
    return f"cannot take back: {cards} shown to you since ({describe(before, record.actions[exc.index], names)})"
