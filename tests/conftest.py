"""Shared fixtures: the table server's are in ``server_fixtures``, the tournaments' in ``tournament_fixtures``."""

from server_fixtures import db_url, lobby_server, pg_url, sqlite_url, start_server
from tournament_fixtures import short_rules

__all__ = ["db_url", "lobby_server", "pg_url", "short_rules", "sqlite_url", "start_server"]
