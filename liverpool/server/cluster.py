"""Several ``liverpool serve`` processes on one PostgreSQL (issue 26, item 14): leases and LISTEN/NOTIFY.

Off by default; ``LIVERPOOL_CLUSTER_LEASE_S=N`` (N seconds, PostgreSQL only) turns it on. Then:

- **A table has one owner.** A process runs a table's actor only while it holds the table's row in
  ``table_leases`` (``owner``, ``expires``; made by migration ``0007`` like the rest of the schema), taken when the table is loaded, renewed every N/3 seconds
  and deleted when the actor is unloaded. A lease that is not renewed (its process was killed) expires
  after N seconds and the next process that needs the table takes it, rebuilding the table from the
  stored log: every action was stored before it was broadcast, so nothing is lost.
- **The others relay.** A websocket that reaches a process which does not own its table is served by
  a :class:`RemoteTable`: the connection's messages (attach, actions, Next deal, resync, detach) go to the owner
  as notifications on the owner's channel, and the owner's actor sees a client like any other whose
  messages are sent back on the relaying process's channel. Lobby requests that need the actor (join,
  rematch) are asked of the owner the same way and wait for its answer.
- **Failover.** Every N/3 seconds each process takes over the tables whose lease has expired; a relay
  whose owner has changed or gone moves its connections to the new owner (or to itself) with the
  ``seq`` each connection last saw, so each gets exactly the updates it missed (as a reconnect with
  ``?since=`` would).
- **A lost connection to PostgreSQL.** Notifications sent to a process while it is not listening are
  lost. A process that listens again drops the connections it served for others, tells every process
  (on the shared channel ``liverpool_all``) to attach its relays again, and attaches its own relays
  again: each under a new id, from the seq it last saw, so that nothing the gap lost, and nothing the
  old attachment still sends, reaches a client.

Notifications are JSON, compressed and cut into parts of at most 7,000 characters (PostgreSQL's limit
is 8,000 bytes); the parts of one message come in order, as they were sent on one connection.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import secrets
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import psycopg
from anyio import to_thread
from sqlalchemy.engine import make_url

from liverpool.engine import GameState

from .actor import TableActor
from .errors import Refused
from .loading import load
from .messages import Client

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger(__name__)

CHANNEL = "liverpool_"
EVERYONE = "all"  # the channel every process listens on besides its own (node names are hex)
NODE = "node:"  # the lease row of a process itself (its table_id), renewed while it lives
PART_CHARS = 7_000
CALL_TIMEOUT_S = 15.0
MOVED = 1013  # "try again later": the table moved to another process and the connection could not follow
ACQUIRE = (
    "INSERT INTO table_leases (table_id, owner, expires) VALUES (%s, %s, now() + make_interval(secs => %s))"
    " ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires = EXCLUDED.expires"
    " WHERE table_leases.expires < now() OR table_leases.owner = EXCLUDED.owner RETURNING owner"
)


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as psycopg takes it (``postgresql+psycopg://`` -> ``postgresql://``).

    >>> libpq_url('postgresql+psycopg://u:p@h:5432/db?options=-csearch_path%3Ds')
    'postgresql://u:p@h:5432/db?options=-csearch_path%3Ds'
    """
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def encode(message: dict[str, Any]) -> list[str]:
    """``message`` as notification payloads: ``<id> <part> <parts> <data>``, data being compressed JSON.

    >>> parts = encode({"op": "x", "pad": "y" * 50_000})
    >>> len(parts), decode_parts([p.split(' ', 3)[3] for p in parts])["op"]
    (1, 'x')
    """
    data = base64.b85encode(zlib.compress(json.dumps(message, separators=(",", ":")).encode())).decode()
    pieces = [data[i : i + PART_CHARS] for i in range(0, len(data), PART_CHARS)] or [""]
    ident = secrets.token_hex(6)
    return [f"{ident} {i} {len(pieces)} {piece}" for i, piece in enumerate(pieces)]


def decode_parts(pieces: list[str]) -> dict[str, Any]:
    decoded: dict[str, Any] = json.loads(zlib.decompress(base64.b85decode("".join(pieces))))
    return decoded


@dataclass(eq=False)
class RemoteTable:
    """A table owned by another process, as the websockets and the lobby of this one use it."""

    cluster: Cluster
    id: str
    owner: str
    clients: dict[Client, str] = field(default_factory=dict)  # client -> its id on the owner
    moved_to: Table | None = None

    def attach(self, client: Client, since: int | None = None) -> None:
        if self.moved_to is not None:
            self.moved_to.attach(client, since)
            return
        cid = secrets.token_hex(8)
        self.clients[client] = cid
        self.cluster.relayed[cid] = Relayed(self, client, since)
        self.cluster.publish(
            self.owner, {"op": "attach", "table": self.id, "client": cid, "seat": client.seat, "since": since}
        )

    def reattach(self, client: Client, since: int | None) -> None:
        """Attach ``client`` again from ``since`` under a new id (after this process's LISTEN connection
        was lost): what the owner still sends under the old id (the updates after the gap, before it
        reads the new attach) is dropped here, so the client gets every update once and in order."""
        old = self.clients.pop(client, None)
        if old is not None:
            self.cluster.relayed.pop(old, None)
            self.cluster.publish(self.owner, {"op": "detach", "table": self.id, "client": old})
        self.attach(client, since)

    def detach(self, client: Client) -> None:
        if self.moved_to is not None:
            self.moved_to.detach(client)
            return
        cid = self.clients.pop(client, None)
        if cid is not None:
            self.cluster.relayed.pop(cid, None)
            self.cluster.publish(self.owner, {"op": "detach", "table": self.id, "client": cid})

    def submit(
        self, client: Client, action: dict[str, Any], seq: int | None = None, action_id: str | None = None
    ) -> None:
        if self.moved_to is not None:
            self.moved_to.submit(client, action, seq, action_id)
            return
        cid = self.clients[client]
        message = {"op": "submit", "table": self.id, "client": cid, "action": action, "seq": seq, "id": action_id}
        self.cluster.publish(self.owner, message)

    def resync(self, client: Client) -> None:
        if self.moved_to is not None:
            self.moved_to.resync(client)
            return
        self.cluster.publish(self.owner, {"op": "resync", "table": self.id, "client": self.clients[client]})

    def ready(self, client: Client) -> None:
        if self.moved_to is not None:
            self.moved_to.ready(client)
            return
        self.cluster.publish(self.owner, {"op": "ready", "table": self.id, "client": self.clients[client]})

    def say(self, client: Client, text: str | None = None, reaction: str | None = None) -> None:
        """A line of table talk or a reaction said here, relayed to the owner (which stores and sends it)."""
        if self.moved_to is not None:
            self.moved_to.say(client, text, reaction)
            return
        message = {"op": "say", "table": self.id, "client": self.clients[client], "text": text, "reaction": reaction}
        self.cluster.publish(self.owner, message)

    def ask(self, client: Client, what: str) -> None:
        """A hint or an undo asked for here, relayed to the owner (whose coach answers)."""
        if self.moved_to is not None:
            self.moved_to.ask(client, what)
            return
        message = {"op": "ask", "table": self.id, "client": self.clients[client], "what": what}
        self.cluster.publish(self.owner, message)

    async def join(self, seat: int, name: str) -> str:
        token: str = await self.cluster.call(self, "join", [seat, name])
        return token

    async def rematch(self) -> str:
        table_id: str = await self.cluster.call(self, "rematch", [])
        return table_id

    async def claim_reserved(self, seat: int, token: str) -> None:
        await self.cluster.call(self, "claim_reserved", [seat, token])

    async def current_state(self) -> GameState | None:
        """The game as stored (what the owner has broadcast), rebuilt here."""
        loaded = await to_thread.run_sync(load, self.cluster.hub_storage(), self.id)
        return None if loaded is None else loaded.state

    def move(self, target: Table) -> None:
        """Hand every connection to ``target`` (the new owner's table), each from the seq it last saw."""
        self.moved_to = target
        for client, cid in list(self.clients.items()):
            relayed = self.cluster.relayed.pop(cid, None)
            since = None if relayed is None else relayed.since
            try:
                target.attach(client, since)
            except Refused as exc:
                client.refuse(exc.reason, exc.message, close=MOVED, what="connection")
        self.clients.clear()


Table = TableActor | RemoteTable


@dataclass
class Relayed:
    """A connection of this process to a table another owns, and the seq of the last update it got."""

    table: RemoteTable
    client: Client
    since: int | None

    def deliver(self, text: str) -> None:
        """Hand the client a message the owner encoded (:func:`~liverpool.server.messages.encode`), noting
        the last ``seq`` it saw so that a failover resumes it where it was."""
        message = json.loads(text)
        if message.get("type") in ("state", "delta") and isinstance(message.get("seq"), int):
            self.since = max(self.since or 0, message["seq"])
        elif message.get("type") == "event" and isinstance(message.get("seq"), int):
            self.since = max(self.since or 0, message["seq"] + 1)
        self.client.send_text(text)


@dataclass
class Proxy:
    """A connection of another process to a table this one owns: a client of the actor whose outbox is
    sent to that process."""

    actor: TableActor
    client: Client
    task: asyncio.Task[None]


class Cluster:
    """This process's part of the cluster: its leases, its channel, its relays and proxies."""

    def __init__(self, url: str, lease_s: float) -> None:
        self.node = secrets.token_hex(6)
        self.conninfo = libpq_url(url)
        self.lease_s = float(lease_s)
        self.relayed: dict[str, Relayed] = {}
        self._hub: Hub | None = None
        self._proxies: dict[tuple[str, str], Proxy] = {}
        self._calls: dict[str, asyncio.Future[Any]] = {}
        self._parts: dict[str, list[str]] = {}
        self._outgoing: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._talk: psycopg.AsyncConnection[Any] | None = None
        self._listen: psycopg.AsyncConnection[Any] | None = None
        self._lock = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def hub(self) -> Hub:
        assert self._hub is not None, "the cluster is not started"
        return self._hub

    def hub_storage(self) -> Any:
        return self.hub.storage

    # -- lifecycle -------------------------------------------------------------------------------

    async def start(self, hub: Hub) -> None:
        self._hub = hub
        self._talk = await self._connect()
        self._listen = await self._listening()
        await self.acquire(NODE + self.node)
        self._tasks = [
            asyncio.create_task(self._receive(), name="cluster receive"),
            asyncio.create_task(self._send(), name="cluster send"),
            asyncio.create_task(self._watch(), name="cluster leases"),
        ]
        log.info("cluster node %s: leases of %.0f s", self.node, self.lease_s)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._talk is not None:
            try:
                await self._talk.execute("DELETE FROM table_leases WHERE owner = %s", (self.node,))
            finally:
                await self._talk.close()
        if self._listen is not None:
            await self._listen.close()

    # -- leases ----------------------------------------------------------------------------------

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        return await psycopg.AsyncConnection.connect(
            self.conninfo, autocommit=True, application_name=f"liverpool-{self.node}"
        )

    async def _listening(self) -> psycopg.AsyncConnection[Any]:
        connection = await self._connect()
        await connection.execute(f"LISTEN {CHANNEL}{self.node}")
        await connection.execute(f"LISTEN {CHANNEL}{EVERYONE}")
        return connection

    async def _sql(self, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run ``query`` on this process's own connection (connected again once if it was lost)."""
        async with self._lock:
            for attempt in (1, 2):
                if self._talk is None or self._talk.closed:
                    self._talk = await self._connect()
                try:
                    cursor = await self._talk.execute(query, params)
                    return await cursor.fetchall() if cursor.description is not None else []
                except psycopg.OperationalError:
                    if attempt == 2:
                        raise
                    log.warning("cluster: the connection to PostgreSQL was lost; connecting again")
                    await self._talk.close()
            raise AssertionError("unreachable")

    async def acquire(self, table_id: str) -> str:
        """Take (or renew) ``table_id``'s lease if it is free, expired or ours; its owner afterwards."""
        rows = await self._sql(ACQUIRE, (table_id, self.node, self.lease_s))
        if rows:
            return str(rows[0][0])
        rows = await self._sql("SELECT owner FROM table_leases WHERE table_id = %s", (table_id,))
        return str(rows[0][0]) if rows else await self.acquire(table_id)

    async def release(self, table_id: str) -> None:
        """Give up ``table_id``'s lease, unless its actor was loaded here again meanwhile."""
        if table_id in self.hub.actors:
            return
        await self._sql("DELETE FROM table_leases WHERE table_id = %s AND owner = %s", (table_id, self.node))

    def released(self, table_id: str) -> None:
        """An actor of this process ended (called by the hub)."""
        for key, proxy in list(self._proxies.items()):
            if proxy.actor.id == table_id:
                proxy.task.cancel()
                del self._proxies[key]
        asyncio.get_running_loop().create_task(self.release(table_id))

    def remote(self, table_id: str, owner: str) -> RemoteTable:
        for relayed in self.relayed.values():
            if relayed.table.id == table_id and relayed.table.owner == owner and relayed.table.moved_to is None:
                return relayed.table
        return RemoteTable(self, table_id, owner)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.lease_s / 3)
            try:
                await self._tick()
            except Exception:  # a lost connection, a bug: log it and try again at the next tick
                log.exception("cluster: the lease round failed")

    async def _tick(self) -> None:
        """Renew our leases, drop the tables whose lease we lost, take over expired ones, move relays,
        and forget the connections relayed by processes that are gone."""
        await self.acquire(NODE + self.node)  # this process's own lease: it is alive
        owned = list(self.hub.actors)
        if owned:
            renew = (
                "UPDATE table_leases SET expires = now() + make_interval(secs => %s)"
                " WHERE owner = %s AND table_id = ANY(%s) RETURNING table_id"
            )
            kept = {row[0] for row in await self._sql(renew, (self.lease_s, self.node, owned))}
            for table_id in set(owned) - kept:
                log.warning("cluster: lost the lease of table %s", table_id)
                self.hub.drop(table_id)
        relays = {r.table.id: r.table for r in self.relayed.values()}
        rows = await self._sql(
            "SELECT table_id, owner, expires > now() FROM table_leases"
            " WHERE (expires < now() AND table_id NOT LIKE 'node:%%') OR table_id = ANY(%s)",
            (list(relays),),
        )
        live = {row[0]: row[1] for row in rows if row[2]}
        for table_id, _owner, alive in rows:
            if not alive and table_id not in relays:
                await self.hub.actor(table_id)  # a table whose owner died: its bots and timers go on here
        for table_id, table in relays.items():
            if live.get(table_id) != table.owner:
                target = await self.hub.actor(table_id)
                if target is not None and target is not table:
                    log.info("cluster: table %s moved from %s", table_id, table.owner)
                    table.move(target)
        await self._forget_the_gone()

    async def _forget_the_gone(self) -> None:
        """Detach the proxies of processes whose own lease has expired (they were killed)."""
        nodes = {node for node, _ in self._proxies}
        if not nodes:
            return
        rows = await self._sql(
            "SELECT owner FROM table_leases WHERE table_id = ANY(%s) AND expires > now()",
            ([NODE + n for n in nodes],),
        )
        for key, proxy in list(self._proxies.items()):
            if key[0] not in {row[0] for row in rows}:
                log.info("cluster: process %s is gone; its connection to table %s is dropped", key[0], proxy.actor.id)
                del self._proxies[key]
                proxy.task.cancel()
                proxy.actor.detach(proxy.client)

    # -- messages --------------------------------------------------------------------------------

    def publish(self, node: str, message: dict[str, Any]) -> None:
        """Send ``message`` to ``node`` (in order with everything else this process sends)."""
        for part in encode({**message, "from": self.node}):
            self._outgoing.put_nowait((CHANNEL + node, part))

    async def _send(self) -> None:
        while True:
            channel, payload = await self._outgoing.get()
            try:
                await self._sql("SELECT pg_notify(%s, %s)", (channel, payload))
            except Exception:
                log.exception("cluster: a notification to %s was lost", channel)

    async def _receive(self) -> None:
        """Handle the notifications to this process; when the LISTEN connection breaks, listen again and
        recover what either side may have lost meanwhile (:meth:`_listening_again`)."""
        while True:
            try:
                await self._handle_notifications()
            except psycopg.OperationalError:
                log.warning("cluster: the LISTEN connection was lost; listening again")
            while True:
                await asyncio.sleep(min(1.0, self.lease_s / 3))
                try:
                    if self._listen is not None:
                        await self._listen.close()
                    self._listen = await self._listening()
                    break
                except psycopg.OperationalError:
                    continue
            self._parts.clear()
            self._listening_again()

    def _listening_again(self) -> None:
        """After a gap in listening, what the others sent here may be lost both ways: the proxies this
        process served are dropped (their relays attach again), every process is told to attach its
        relays of this process's tables again, and this process's own relays attach again."""
        for key, proxy in list(self._proxies.items()):
            del self._proxies[key]
            proxy.task.cancel()
            proxy.actor.detach(proxy.client)
        self.publish(EVERYONE, {"op": "listening"})
        self._reattach(lambda table: True)

    def _reattach(self, which: Callable[[RemoteTable], bool]) -> None:
        for relayed in list(self.relayed.values()):
            if which(relayed.table):
                relayed.table.reattach(relayed.client, relayed.since)

    async def _handle_notifications(self) -> None:
        assert self._listen is not None
        async for notify in self._listen.notifies():
            ident, index, count, piece = notify.payload.split(" ", 3)
            parts = self._parts.setdefault(ident, [])
            parts.append(piece)
            if int(index) + 1 < int(count):
                continue
            del self._parts[ident]
            try:
                await self._dispatch(decode_parts(parts))
            except Exception:
                log.exception("cluster: a message could not be handled")

    async def call(self, table: RemoteTable, method: str, args: list[Any]) -> Any:
        """Ask the owner of ``table`` to run ``method`` of its actor; its answer, or its refusal raised."""
        ident = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[ident] = future
        self.publish(table.owner, {"op": "call", "table": table.id, "call": ident, "method": method, "args": args})
        try:
            return await asyncio.wait_for(future, CALL_TIMEOUT_S)
        except TimeoutError as exc:
            raise Refused(503, "table_restarting", f"table {table.id} is moving to another server; try again") from exc
        finally:
            self._calls.pop(ident, None)

    async def _dispatch(self, message: dict[str, Any]) -> None:
        sender = message["from"]
        match message["op"]:
            case "listening":
                if sender != self.node:  # it may have missed what was sent to it: attach again
                    self._reattach(lambda table: table.owner == sender)
            case "send":
                relayed = self.relayed.get(message["client"])
                if relayed is None:
                    return
                if message.get("close") is not None:
                    code, reason = message["close"]
                    relayed.client.close(code, reason)
                else:
                    relayed.deliver(message["text"])
            case "reply":
                future = self._calls.get(message["call"])
                if future is not None and not future.done():
                    if "error" in message:
                        e = message["error"]
                        future.set_exception(Refused(e["status"], e["reason"], e["message"], e.get("field")))
                    else:
                        future.set_result(message.get("result"))
            case "attach":
                await self._attach(sender, message)
            case "detach":
                proxy = self._proxies.pop((sender, message["client"]), None)
                if proxy is not None:
                    proxy.actor.detach(proxy.client)
            case "submit" | "ready" | "resync" | "ask" | "say":
                proxy = self._proxies.get((sender, message["client"]))
                if proxy is None:
                    return
                try:
                    if message["op"] == "ready":
                        proxy.actor.ready(proxy.client)
                    elif message["op"] == "resync":
                        proxy.actor.resync(proxy.client)
                    elif message["op"] == "say":
                        proxy.actor.say(proxy.client, message.get("text"), message.get("reaction"))
                    elif message["op"] == "ask":
                        proxy.actor.ask(proxy.client, "undo" if message.get("what") == "undo" else "hint")
                    else:
                        proxy.actor.submit(proxy.client, message["action"], message["seq"], message["id"])
                except Refused as exc:
                    proxy.client.refuse(exc.reason, exc.message)
            case "call":
                await self._answer(sender, message)

    async def _owned(self, table_id: str) -> TableActor | None:
        table = await self.hub.actor(table_id)
        return table if isinstance(table, TableActor) else None

    async def _attach(self, sender: str, message: dict[str, Any]) -> None:
        cid = message["client"]
        actor = await self._owned(message["table"])
        if actor is None:
            self.publish(sender, {"op": "send", "client": cid, "close": [MOVED, "table_moved"]})
            return
        client = Client(message["seat"], table=actor.id)
        task = asyncio.create_task(self._forward(sender, cid, client), name=f"proxy {cid}")
        self._proxies[(sender, cid)] = Proxy(actor, client, task)
        try:
            actor.attach(client, message["since"])
        except Refused as exc:
            client.refuse(exc.reason, exc.message, close=MOVED, what="connection")

    async def _forward(self, node: str, cid: str, client: Client) -> None:
        while True:
            message = await client.outbox.get()
            if message is None:
                self.publish(node, {"op": "send", "client": cid, "close": [client.close_code, client.close_reason]})
                self._proxies.pop((node, cid), None)
                return
            self.publish(node, {"op": "send", "client": cid, "text": message})

    async def _answer(self, sender: str, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"op": "reply", "call": message["call"]}
        calls: dict[str, Callable[..., Awaitable[Any]]] = {}
        actor = await self._owned(message["table"])
        if actor is not None:
            calls = {"join": actor.join, "rematch": actor.rematch, "claim_reserved": actor.claim_reserved}
        try:
            if message["method"] not in calls:
                raise Refused(503, "table_restarting", f"table {message['table']} is moving; try again")
            reply["result"] = await calls[message["method"]](*message["args"])
        except Refused as exc:
            reply["error"] = {"status": exc.status, **exc.to_dict()}
        except Exception:
            log.exception("cluster: %s failed", message["method"])
            reply["error"] = {"status": 500, "reason": "internal", "message": "the server failed to answer"}
        self.publish(sender, reply)
