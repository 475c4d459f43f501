"""Shared fixtures: the table server's are in ``server_fixtures``, the tournaments' in ``tournament_fixtures``."""

import pytest
from server_fixtures import db_url, lobby_server, pg_url, sqlite_url, start_server
from tournament_fixtures import short_rules

__all__ = ["db_url", "lobby_server", "pg_url", "short_rules", "sqlite_url", "start_server"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` run first, in their order. pytest-xdist hands tests to its processes in
    this order, so the long ones (the browser, the compiled build, 2,000 loaded tables) start early and
    the many short ones fill the end; in collection order the browser tests came last and one process
    could run a two-minute test alone while the other had nothing left."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
