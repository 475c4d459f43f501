"""Alembic's environment: runs the migrations on the connection that :func:`..storage.migrate` hands over.

Alembic executes this file; importing it as part of the package (pytest's doctest collection, type
checkers) does nothing.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection


def run_migrations(connection: Connection) -> None:
    context.configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


if __name__ != "liverpool.server.migrations.env":
    run_migrations(context.config.attributes["connection"])
