"""A bot seat's style and the version it played (issue 29, item 4): ``seats.bot_style`` is chosen when the
table is made (null: ``balanced``); ``seats.bot_version`` (``medium/1``) is stored when the game starts.
Tables made before this migration keep both null.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bot_style", sa.String(16), nullable=True))
        batch.add_column(sa.Column("bot_version", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot_version")
        batch.drop_column("bot_style")
