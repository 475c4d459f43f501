"""Cluster leases (issue 26, item 14): ``table_leases`` holds, per table, the process that runs it and
until when (``liverpool/server/cluster.py``); a process's own row is ``node:<id>``.

Used only with ``LIVERPOOL_CLUSTER_LEASE_S`` on PostgreSQL, but made on every database so that the
schema is one. Servers before this migration made the table themselves when started in cluster mode
(``CREATE TABLE IF NOT EXISTS``): a database that has it already keeps it, with its rows.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("table_leases"):
        return
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_leases")
