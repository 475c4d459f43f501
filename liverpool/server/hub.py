"""The running tables: one :class:`~.actor.TableActor` per table, loaded from storage when first needed.

At startup every table in play with a bot or an away timer is loaded, so its bots carry on. A table nobody is connected to and
with no timer pending (no bot to move, no buy window or away deadline running) is unloaded: its actor
ends and leaves :attr:`Hub.actors`, so an idle or finished table costs no memory; the next request
loads it again from the database. An actor that fails (a storage
error, a bug) is dropped and its clients are disconnected; the next request loads the table again
from what was stored, which is exactly what had been broadcast.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import TYPE_CHECKING

from anyio import to_thread

from .actor import TableActor, load
from .coaching import Coaching
from .commits import GroupCommit
from .storage import Storage

if TYPE_CHECKING:
    from .cluster import Cluster, Table

log = logging.getLogger(__name__)


class Hub:
    def __init__(self, storage: Storage, coaching: Coaching | None = None, cluster: Cluster | None = None) -> None:
        self.storage = storage
        self.coaching = coaching
        self.commits = GroupCommit(storage)
        self.cluster = cluster
        self.actors: dict[str, TableActor] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    async def resume(self) -> None:
        """Load every table in play that goes on without its players (a bot's or an away timer's)."""
        for table_id in await to_thread.run_sync(self.storage.tables_to_resume):
            await self.actor(table_id)

    async def actor(self, table_id: str) -> Table | None:
        """The actor of ``table_id`` (started if needed), or None when there is no such table. With a
        cluster (``cluster.py``), a table another process holds the lease of is a ``RemoteTable``."""
        actor = self.actors.get(table_id)
        if actor is not None:
            return actor
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                actor = self.actors.get(table_id)
                if actor is not None:
                    return actor
                if self.cluster is not None:
                    owner = await self.cluster.acquire(table_id)
                    if owner != self.cluster.node:
                        return self.cluster.remote(table_id, owner)
                loaded = await to_thread.run_sync(load, self.storage, table_id)
                if loaded is None:
                    if self.cluster is not None:
                        await self.cluster.release(table_id)
                    return None
                actor = TableActor(self.storage, loaded, self._unload, self.coaching, self.commits)
                self.actors[table_id] = actor
                actor.start().add_done_callback(partial(self._ended, actor))
                return actor
        finally:
            if not lock.locked() and self._loading.get(table_id) is lock:
                del self._loading[table_id]

    def _unload(self, actor: TableActor) -> None:
        """Called by an idle actor as its task ends (in the same step: no request can slip in between)."""
        if self.actors.get(actor.id) is actor:
            del self.actors[actor.id]
            if self.cluster is not None:
                self.cluster.released(actor.id)
        log.debug("table %s unloaded", actor.id)

    def drop(self, table_id: str) -> None:
        """Stop the actor of ``table_id`` (its lease was lost: another process has the table)."""
        actor = self.actors.get(table_id)
        if actor is not None and actor.task is not None:
            actor.task.cancel()

    def _ended(self, actor: TableActor, task: asyncio.Task[None]) -> None:
        if self.actors.get(actor.id) is actor:
            del self.actors[actor.id]
            if self.cluster is not None:
                self.cluster.released(actor.id)
        if task.cancelled():
            actor.stop()
            return
        exc = task.exception()
        if exc is None:  # unloaded while idle
            return
        log.error("table %s stopped", actor.id, exc_info=exc)
        actor.stop(close_code=1011, reason=exc)

    async def close(self) -> None:
        tasks = [a.task for a in self.actors.values() if a.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.actors.clear()
        await self.commits.close()
