"""Websockets: ``/ws/play/{seat_token}`` for a player, ``/ws/watch/{spectator_token}`` for a spectator.

A connection reads the client's messages, checks their size, rate and shape (pydantic), and hands
actions to the table's actor; a writer task sends whatever the actor puts in the client's outbox.
Refusals go to this client only, and each is logged once (its table, seat and reason code). A
message over the size limit closes the connection (1009), and so does sending faster than the rate
limit (1008), each after an ``error`` message saying why.
"""

from __future__ import annotations

import asyncio
import math
import time
from typing import Any

from anyio import to_thread
from fastapi import APIRouter, WebSocket
from pydantic import ValidationError

from .api import Server
from .cluster import Table
from .errors import Refused, validation_sentence
from .messages import Client, error, log_refusal
from .schemas import (
    MAX_DEPTH,
    ActionMessage,
    Chat,
    HintAsk,
    NextDeal,
    Ping,
    React,
    ResyncAsk,
    UndoAsk,
    json_depth_over,
    read_client_message,
)
from .settings import Settings
from .talk import ChatWindow

router = APIRouter()

UNKNOWN_TOKEN = 4404
UNAVAILABLE = 1013
POLICY = 1008
TOO_BIG = 1009
RATE_WINDOW_S = 10.0
CLOSE_WAIT_S = 5.0


@router.websocket("/ws/play/{token}")
async def play(websocket: WebSocket, token: str) -> None:
    server: Server = websocket.app.state.server
    found = await to_thread.run_sync(server.storage.seat_by_token, token)
    if found is None:
        await _refuse(websocket, "unknown_token", "this seat link does not exist", who="unknown seat link")
        return
    info, seat = found
    await _serve(websocket, info.id, await server.hub.actor(info.id), seat)


@router.websocket("/ws/watch/{token}")
async def watch(websocket: WebSocket, token: str) -> None:
    server: Server = websocket.app.state.server
    info = await to_thread.run_sync(server.storage.table_by_spectator, token)
    if info is None:
        await _refuse(websocket, "unknown_token", "this spectator link does not exist", who="unknown spectator link")
        return
    await _serve(websocket, info.id, await server.hub.actor(info.id), None)


async def _refuse(
    websocket: WebSocket, reason: str, message: str, code: int = UNKNOWN_TOKEN, table: str = "", who: str = ""
) -> None:
    """Refuse a connection before it reaches a table: say why, close it, and log it once."""
    log_refusal("connection", table, who, reason, code)
    await websocket.accept()
    await websocket.send_json(error(reason, message))
    await websocket.close(code)


async def _serve(websocket: WebSocket, table_id: str, actor: Table | None, seat: int | None) -> None:
    client = Client(seat, table=table_id)
    if actor is None:
        await _refuse(websocket, "unknown_token", "this table no longer exists", table=table_id, who=client.who)
        return
    since, problem = _since(websocket.query_params.get("since"))
    try:
        actor.attach(client, since)
    except Refused as exc:
        await _refuse(websocket, exc.reason, exc.message, UNAVAILABLE, table_id, client.who)
        return
    await websocket.accept()
    if problem is not None:
        log_refusal("?since", table_id, client.who, "malformed")
        await websocket.send_json(error("malformed", problem))
    writer = asyncio.create_task(_write(websocket, client))
    try:
        if await _read(websocket, actor, client, websocket.app.state.settings):
            await asyncio.wait([writer], timeout=CLOSE_WAIT_S)
    finally:
        actor.detach(client)
        writer.cancel()


async def _read(websocket: WebSocket, actor: Table, client: Client, settings: Settings) -> bool:
    """Read until the client leaves (False) or breaks a limit and is being closed (True)."""
    sent: list[float] = []
    talk = ChatWindow(settings.chat_per_10s)
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return False
        data: str | bytes = message.get("text") or message.get("bytes") or b""
        size = len(data.encode() if isinstance(data, str) else data)
        limit = settings.ws_max_bytes
        if limit > 0 and size > limit:
            client.refuse("too_large", f"a message may hold at most {limit} bytes", close=TOO_BIG, limit=limit)
            return True
        rate = settings.ws_messages_per_10s
        if rate > 0:
            now = time.monotonic()
            sent = [t for t in sent if t > now - RATE_WINDOW_S]
            sent.append(now)
            if len(sent) > rate:
                client.refuse("too_many_messages", f"at most {rate} messages in 10 seconds", close=POLICY, limit=rate)
                return True
        if json_depth_over(data):
            client.refuse("too_deep", f"a message may nest lists and objects at most {MAX_DEPTH} deep")
            continue
        try:
            parsed = read_client_message(data)
        except ValidationError as exc:
            client.refuse("malformed", _summary(exc))
            continue
        match parsed:
            case Ping():
                client.send({"type": "pong"})
            case ActionMessage(action=action, seq=seq, id=action_id):
                try:
                    actor.submit(client, action, seq, action_id)
                except Refused as exc:
                    client.refuse(exc.reason, exc.message)
            case ResyncAsk():
                try:
                    actor.resync(client)
                except Refused as exc:
                    client.refuse(exc.reason, exc.message)
            case NextDeal():
                try:
                    actor.ready(client)
                except Refused as exc:
                    client.refuse(exc.reason, exc.message)
            case HintAsk() | UndoAsk():
                try:
                    actor.ask(client, "hint" if isinstance(parsed, HintAsk) else "undo")
                except Refused as exc:
                    client.refuse(exc.reason, exc.message)
            case Chat() | React():
                now = time.monotonic()
                wait = talk.wait(now)
                if wait > 0:
                    client.refuse(
                        "too_much_talk", _too_much_talk(talk.limit, wait), limit=talk.limit, wait_s=math.ceil(wait)
                    )
                    continue
                talk.add(now)
                try:
                    if isinstance(parsed, Chat):
                        actor.say(client, text=parsed.text)
                    else:
                        actor.say(client, reaction=parsed.reaction)
                except Refused as exc:
                    client.refuse(exc.reason, exc.message)


def _too_much_talk(limit: int, wait: float) -> str:
    return f"at most {limit} chat lines and reactions in 10 seconds: wait {math.ceil(wait)} s and say it again"


def _since(raw: str | None) -> tuple[int | None, str | None]:
    """The ``?since=N`` of a reconnecting client (the ``seq`` of the last state it saw), or why it is not
    one (the client then gets a full state, as on a first connection)."""
    if raw is None:
        return None, None
    if raw.isascii() and raw.isdigit() and len(raw) <= 18:
        return int(raw), None
    return None, f"since must be the seq of the last state seen (a whole number >= 0), not {raw[:20]!r}"


async def _write(websocket: WebSocket, client: Client) -> None:
    while True:
        message = await client.outbox.get()
        if message is None:
            await websocket.close(client.close_code, client.close_reason)
            return
        await websocket.send_text(message)


def _summary(exc: ValidationError) -> str:
    problems: list[Any] = exc.errors(include_url=False, include_input=False)
    return " ".join(
        validation_sentence(".".join(str(p) for p in e["loc"]), e["type"], e["msg"], e.get("ctx")) for e in problems
    )
