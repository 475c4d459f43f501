"""Group commit: the actions of every table, written together in one transaction per short interval.

A table's actor hands its action to :meth:`GroupCommit.append` and waits: the action is written with
whatever other tables handed in during the same interval (``interval_s``, and the time the previous
write took), in one transaction on a worker thread, and ``append`` returns only once that transaction
is committed. The actor broadcasts the action after that, so nothing a client has seen can be lost by a
crash. When a batch fails (a database error), each of its actions is written again alone, so that one
table's bad row fails that table only.
"""

from __future__ import annotations

import asyncio
from typing import Any

from anyio import to_thread
from sqlalchemy.exc import SQLAlchemyError

from .storage import Storage, StoredAction

INTERVAL_S = 0.002


class GroupCommit:
    def __init__(self, storage: Storage, interval_s: float = INTERVAL_S) -> None:
        self.storage = storage
        self.interval_s = interval_s
        self._pending: list[tuple[StoredAction, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0

    async def append(self, table_id: str, seq: int, action: dict[str, Any], status: str | None = None) -> None:
        """Store action number ``seq`` of ``table_id`` (and the table's new status); returns once committed."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((StoredAction(table_id, seq, action, status), future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write(), name="group commit")
        await future

    async def _write(self) -> None:
        while self._pending:
            await asyncio.sleep(self.interval_s)
            batch, self._pending = self._pending, []
            try:
                await self._commit(batch)
            except asyncio.CancelledError:
                for _, future in batch + self._pending:
                    future.cancel()
                self._pending = []
                raise
            except Exception as exc:  # not ours to judge: each waiting actor fails with it, as if it had written
                for _, future in batch:
                    _settle(future, exc)

    async def _commit(self, batch: list[tuple[StoredAction, asyncio.Future[None]]]) -> None:
        try:
            await to_thread.run_sync(self.storage.append_many, [row for row, _ in batch])
        except SQLAlchemyError:
            if len(batch) == 1:
                raise
            for row, future in batch:
                try:
                    await to_thread.run_sync(self.storage.append_many, [row])
                except SQLAlchemyError as exc:
                    _settle(future, exc)
                else:
                    _settle(future, None)
            return
        self.batches += 1
        for _, future in batch:
            _settle(future, None)

    async def close(self) -> None:
        """Finish the batch being written (its actors are stopped by then)."""
        if self._writer is not None and not self._writer.done():
            self._writer.cancel()
            await asyncio.gather(self._writer, return_exceptions=True)


def _settle(future: asyncio.Future[None], exc: BaseException | None) -> None:
    """Answer a waiting actor (unless it was cancelled meanwhile)."""
    if future.done():
        return
    if exc is None:
        future.set_result(None)
    else:
        future.set_exception(exc)
