"""The running tables: one :class:`~.actor.TableActor` per table, loaded from storage when first needed.

At startup every table in play is loaded, so its bots carry on. An actor that fails (a storage
error, a bug) is dropped and its clients are disconnected; the next request loads the table again
from what was stored, which is exactly what had been broadcast.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial

from anyio import to_thread

from .actor import TableActor, load
from .storage import PLAYING, Storage

log = logging.getLogger(__name__)


class Hub:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.actors: dict[str, TableActor] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    async def resume(self) -> None:
        """Load every table in play, so that its game goes on."""
        for table_id in await to_thread.run_sync(self.storage.table_ids, PLAYING):
            await self.actor(table_id)

    async def actor(self, table_id: str) -> TableActor | None:
        """The actor of ``table_id`` (started if needed), or None when there is no such table."""
        actor = self.actors.get(table_id)
        if actor is not None:
            return actor
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            actor = self.actors.get(table_id)
            if actor is not None:
                return actor
            loaded = await to_thread.run_sync(load, self.storage, table_id)
            if loaded is None:
                return None
            actor = TableActor(self.storage, loaded)
            self.actors[table_id] = actor
            actor.start().add_done_callback(partial(self._ended, actor))
        self._loading.pop(table_id, None)
        return actor

    def _ended(self, actor: TableActor, task: asyncio.Task[None]) -> None:
        if self.actors.get(actor.id) is actor:
            del self.actors[actor.id]
        if task.cancelled():
            actor.stop()
            return
        exc = task.exception()
        log.error("table %s stopped", actor.id, exc_info=exc)
        actor.stop(close_code=1011, reason=exc)

    async def close(self) -> None:
        tasks = [a.task for a in self.actors.values() if a.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.actors.clear()
