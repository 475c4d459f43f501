"""Seat tokens are stored as their SHA-256: each stored plain token is replaced by its hash.

The links already handed out keep working: the server looks a token up by its hash. There is no
way back (a hash cannot be turned into its token), so the downgrade refuses.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

seats = sa.table(
    "seats", sa.column("table_id", sa.String), sa.column("seat", sa.Integer), sa.column("token", sa.String)
)


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(seats.c.table_id, seats.c.seat, seats.c.token).where(seats.c.token.is_not(None))
    ).all()
    for table_id, seat, token in rows:
        digest = hashlib.sha256(token.encode()).hexdigest()
        connection.execute(
            seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat).values(token=digest)
        )


def downgrade() -> None:
    raise NotImplementedError("seat tokens cannot be recovered from their hashes")
