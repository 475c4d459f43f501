"""Shared fixtures: the table server's are in ``server_fixtures``."""

from server_fixtures import db_url, lobby_server, pg_url, sqlite_url, start_server

__all__ = ["db_url", "lobby_server", "pg_url", "sqlite_url", "start_server"]
