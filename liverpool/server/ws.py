"""Websockets: ``/ws/play/{seat_token}`` for a player, ``/ws/watch/{spectator_token}`` for a spectator.

A connection reads the client's messages, checks their size and shape (pydantic), and hands actions
to the table's actor; a writer task sends whatever the actor puts in the client's outbox. Refusals
go to this client only.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from anyio import to_thread
from fastapi import APIRouter, WebSocket
from pydantic import ValidationError

from .actor import Client, TableActor, error
from .api import Server
from .errors import Refused
from .schemas import MAX_MESSAGE_BYTES, ActionMessage, Ping, read_client_message

router = APIRouter()

UNKNOWN_TOKEN = 4404
UNAVAILABLE = 1013


@router.websocket("/ws/play/{token}")
async def play(websocket: WebSocket, token: str) -> None:
    server: Server = websocket.app.state.server
    found = await to_thread.run_sync(server.storage.seat_by_token, token)
    if found is None:
        await _refuse(websocket, "unknown_token", "this seat link does not exist")
        return
    info, seat = found
    await _serve(websocket, await server.hub.actor(info.id), seat)


@router.websocket("/ws/watch/{token}")
async def watch(websocket: WebSocket, token: str) -> None:
    server: Server = websocket.app.state.server
    info = await to_thread.run_sync(server.storage.table_by_spectator, token)
    if info is None:
        await _refuse(websocket, "unknown_token", "this spectator link does not exist")
        return
    await _serve(websocket, await server.hub.actor(info.id), None)


async def _refuse(websocket: WebSocket, reason: str, message: str, code: int = UNKNOWN_TOKEN) -> None:
    await websocket.accept()
    await websocket.send_json(error(reason, message))
    await websocket.close(code)


async def _serve(websocket: WebSocket, actor: TableActor | None, seat: int | None) -> None:
    if actor is None:
        await _refuse(websocket, "unknown_token", "this table no longer exists")
        return
    client = Client(seat)
    try:
        actor.attach(client)
    except Refused as exc:
        await _refuse(websocket, exc.reason, exc.message, UNAVAILABLE)
        return
    await websocket.accept()
    writer = asyncio.create_task(_write(websocket, client))
    try:
        await _read(websocket, actor, client)
    finally:
        actor.detach(client)
        writer.cancel()


async def _read(websocket: WebSocket, actor: TableActor, client: Client) -> None:
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        data: str | bytes = message.get("text") or message.get("bytes") or b""
        size = len(data.encode() if isinstance(data, str) else data)
        if size > MAX_MESSAGE_BYTES:
            client.send(error("too_large", f"a message may hold at most {MAX_MESSAGE_BYTES} bytes, not {size}"))
            continue
        try:
            parsed = read_client_message(data)
        except ValidationError as exc:
            client.send(error("malformed", _summary(exc)))
            continue
        match parsed:
            case Ping():
                client.send({"type": "pong"})
            case ActionMessage(action=action):
                try:
                    actor.submit(client, action)
                except Refused as exc:
                    client.send(error(exc.reason, exc.message))


async def _write(websocket: WebSocket, client: Client) -> None:
    while True:
        message = await client.outbox.get()
        if message is None:
            await websocket.close(client.close_code)
            return
        await websocket.send_text(json.dumps(message, separators=(",", ":")))


def _summary(exc: ValidationError) -> str:
    problems: list[Any] = exc.errors(include_url=False, include_input=False)
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}" for e in problems)
