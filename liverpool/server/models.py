"""The database tables (SQLAlchemy 2.0 declarative). The schema itself is made by the migrations."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

TOKEN_LENGTH = 64


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    """A table: its ruleset (every field), seats, options, public tokens and how far it has got."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(TOKEN_LENGTH), primary_key=True)
    ruleset: Mapped[dict[str, Any]] = mapped_column(JSON)
    seat_count: Mapped[int] = mapped_column(Integer)
    first_dealer: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    invite_token: Mapped[str] = mapped_column(String(TOKEN_LENGTH), unique=True)
    spectator_token: Mapped[str] = mapped_column(String(TOKEN_LENGTH), unique=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    rematch_of: Mapped[str | None] = mapped_column(ForeignKey("tables.id"), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(ForeignKey("tables.id"), nullable=True)
    position: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # Position.to_dict(), or None


class SeatRow(Base):
    """One seat: a bot (``bot`` is its difficulty), a human (``token_hash`` is the SHA-256 of the
        secret seat token, which is never stored), a seat reserved for a rematch (a name, no token yet),
        or a free seat (no name). The column keeps its first name, ``token``. ``away_at``: while a human
    is away, the time at which a bot starts playing for them (it survives a restart). A bot seat's
    ``bot_style`` is chosen with the table, its ``bot_version`` stored when the game starts."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    token_hash: Mapped[str | None] = mapped_column("token", String(TOKEN_LENGTH), unique=True, nullable=True)
    away_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    bot_style: Mapped[str | None] = mapped_column(String(16), nullable=True)  # a bot's style; None: balanced
    bot_version: Mapped[str | None] = mapped_column(String(32), nullable=True)  # ``medium/1``, once the game starts


class ActionRow(Base):
    """One action of a table's game, in the record's notation; ``seq`` counts from 0 per table and
    (table_id, seq) is the primary key, so no table has two actions at one place in its log."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)


class ChatRow(Base):
    """A line of table talk or a quick reaction (``text`` or ``reaction``), kept apart from the game's log:
    ``seat`` is None for a spectator; ``name`` is who said it, as shown then."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str | None] = mapped_column(String(400), nullable=True)
    reaction: Mapped[str | None] = mapped_column(String(32), nullable=True)


class SavedRuleset(Base):
    """House rules saved under a name, as a full ruleset dict."""

    __tablename__ = "rulesets"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class NoteRow(Base):
    """Something that happened at a table besides an action, in order (``id``): a hint taken (``kind``
    ``hint``) or decisions taken back (``undo``, whose ``data`` keeps the actions taken back). ``seq`` is the
    table's seq when it happened."""

    __tablename__ = "notes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReviewRow(Base):
    """The coach's review of one seat of a finished table (``Review.to_dict()``), stored under the coach's
    settings (``coach``: version, worlds, options) so that it never changes under its reader."""

    __tablename__ = "reviews"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    coach: Mapped[str] = mapped_column(String(64), primary_key=True)
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
