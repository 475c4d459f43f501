"""Group commit (issue 27, item 4): the actions of many tables in one transaction, a bad row failing alone.

On a real SQLite file through :class:`~liverpool.server.storage.Storage`. That nothing broadcast is lost
when the server is killed is checked by ``test_server_crash.py`` on SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from liverpool.engine import find_preset
from liverpool.server.commits import GroupCommit
from liverpool.server.storage import OVER, NewSeat, Storage

DRAW = {"type": "draw_stock", "seat": 0}


def storage_with_tables(path: Path, count: int) -> tuple[Storage, list[str]]:
    storage = Storage(f"sqlite:///{path / 'tables.db'}")
    storage.migrate()
    rules = find_preset("liverpool").to_dict()
    ids = [storage.create_table(rules, 0, {}, [NewSeat(bot="random")] * 4).id for _ in range(count)]
    return storage, ids


def test_actions_of_many_tables_go_in_one_transaction(tmp_path: Path) -> None:
    storage, ids = storage_with_tables(tmp_path, 10)
    commits = GroupCommit(storage)

    async def play() -> None:
        await asyncio.gather(*(commits.append(t, 0, {**DRAW, "n": i}) for i, t in enumerate(ids)))
        await commits.append(ids[0], 1, DRAW, OVER)

    try:
        asyncio.run(play())
        assert commits.batches == 2, "the ten tables' first actions in one transaction, the last action in another"
        assert storage.actions(ids[0]) == [{**DRAW, "n": 0}, DRAW]
        assert all(storage.actions(t) == [{**DRAW, "n": i}] for i, t in enumerate(ids) if i > 0)
        info = storage.table(ids[0])
        assert info is not None and info.status == OVER
    finally:
        storage.close()


def test_a_row_that_cannot_be_stored_fails_its_table_only(tmp_path: Path) -> None:
    storage, ids = storage_with_tables(tmp_path, 3)
    storage.append(ids[1], 0, DRAW)
    commits = GroupCommit(storage)

    async def play() -> list[BaseException | None]:
        return await asyncio.gather(*(commits.append(t, 0, {**DRAW, "n": 1}) for t in ids), return_exceptions=True)

    try:
        first, taken, third = asyncio.run(play())
        assert first is None and third is None
        assert isinstance(taken, IntegrityError), "seq 0 of that table was already stored"
        assert storage.actions(ids[0]) == storage.actions(ids[2]) == [{**DRAW, "n": 1}]
        assert storage.actions(ids[1]) == [DRAW]
    finally:
        storage.close()


@pytest.mark.parametrize("interval_s", [0.0, 0.02])
def test_append_returns_only_once_the_action_is_stored(tmp_path: Path, interval_s: float) -> None:
    storage, ids = storage_with_tables(tmp_path, 1)
    commits = GroupCommit(storage, interval_s)

    async def play() -> list[int]:
        stored = []
        for seq in range(3):
            await commits.append(ids[0], seq, DRAW)
            stored.append(len(storage.actions(ids[0])))
        return stored

    try:
        assert asyncio.run(play()) == [1, 2, 3]
    finally:
        storage.close()
