"""Storage: tables, seats, every action of every game, and saved rulesets, through SQLAlchemy.

SQLite (the default, a file in the working directory, in WAL mode) or PostgreSQL (psycopg 3). The
schema is made and kept up to date by the Alembic migrations in ``migrations/``, run at startup.
Every method here blocks: the server calls them from a worker thread, never on the event loop.

>>> database_url('postgresql://liverpool:secret@127.0.0.1:5432/games')
'postgresql+psycopg://liverpool:secret@127.0.0.1:5432/games'
>>> database_url(None, {})
'sqlite:///liverpool.db'
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, delete, event, insert, select, text, update
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

from .models import ActionRow, ChatRow, NoteRow, ReviewRow, SavedRuleset, SeatRow, TableRow
from .settings import MIGRATE_WAIT_ENV, MIGRATE_WAIT_S
from .talk import line_message

log = logging.getLogger(__name__)

DEFAULT_DB = "sqlite:///liverpool.db"
DB_ENV = "LIVERPOOL_DB"
MIGRATIONS = Path(__file__).parent / "migrations"

WAITING = "waiting"
PLAYING = "playing"
OVER = "over"


class Conflict(ValueError):
    """A write that would break what is already stored (a taken seat, a name in use)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def database_url(given: str | None, env: Mapping[str, str] = os.environ) -> str:
    """The database to use: ``given``, else ``$LIVERPOOL_DB``, else ``liverpool.db`` here; plain
    ``postgresql://`` (or ``postgres://``) URLs are rewritten to use psycopg 3."""
    url = given or env.get(DB_ENV) or DEFAULT_DB
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str) -> Engine:
    engine = create_engine(url, pool_pre_ping=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.close()


# -- migrations -------------------------------------------------------------------------------------

BUSY_TIMEOUT_MS = 5000  # how long SQLite waits for another writer, as a rule
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE when lock_timeout runs out


class MigrationWait(RuntimeError):
    """Another process held the migration lock for longer than this one was to wait."""


def migrate(engine: Engine, wait_s: int = MIGRATE_WAIT_S) -> None:
    """Bring the schema up to the newest migration, under the database's migration lock: a process that
    starts while another migrates waits (up to ``wait_s`` seconds, 0 for no limit), then finds the schema
    as the other left it, at head, and has nothing to do."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as connection:
        lock_for_migration(connection, wait_s)
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
        connection.commit()


def lock_for_migration(connection: Connection, wait_s: int) -> None:
    """Begin ``connection``'s transaction by taking the migration lock, held until the transaction ends.

    On PostgreSQL, an advisory lock named after the schema; on SQLite, the database's write lock
    (``BEGIN EXCLUSIVE``, which also puts the DDL of the migrations inside the transaction). When another
    process holds it, a warning says so and this one waits, up to ``wait_s`` seconds (0: no limit), then
    :class:`MigrationWait`.
    """
    match connection.dialect.name:
        case "postgresql":
            _lock_postgresql(connection, wait_s)
        case "sqlite":
            _lock_sqlite(connection, wait_s)


def _lock_postgresql(connection: Connection, wait_s: int) -> None:
    schema = connection.execute(text("SELECT current_schema()")).scalar_one()
    key = int.from_bytes(hashlib.sha256(f"liverpool migrations {schema}".encode()).digest()[:8], signed=True)
    if connection.execute(text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": key}).scalar_one():
        return
    _waiting("another process is migrating the schema", wait_s)
    previous = connection.execute(text("SELECT current_setting('lock_timeout')")).scalar_one()
    connection.execute(text("SELECT set_config('lock_timeout', :ms, true)"), {"ms": str(wait_s * 1000)})
    try:
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
    except OperationalError as exc:
        if getattr(exc.orig, "sqlstate", None) == LOCK_NOT_AVAILABLE:
            raise _waited(wait_s) from exc
        raise
    connection.execute(text("SELECT set_config('lock_timeout', :was, true)"), {"was": previous})


def _lock_sqlite(connection: Connection, wait_s: int) -> None:
    for busy_ms in (0, wait_s * 1000 if wait_s else 2**31 - 1):
        connection.exec_driver_sql(f"PRAGMA busy_timeout={busy_ms}")
        try:
            connection.exec_driver_sql("BEGIN EXCLUSIVE")
            return
        except OperationalError as exc:
            if getattr(exc.orig, "sqlite_errorname", None) != "SQLITE_BUSY":
                raise
            if busy_ms:
                raise _waited(wait_s) from exc
            _waiting("another process is writing to the database (migrating its schema?)", wait_s)
        finally:
            connection.exec_driver_sql(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")


def _waiting(why: str, wait_s: int) -> None:
    log.warning("%s: waiting %s for it to finish", why, f"up to {wait_s} s" if wait_s else "with no limit")


def _waited(wait_s: int) -> MigrationWait:
    return MigrationWait(
        f"waited {wait_s} s for another process to finish migrating the database schema; "
        f"start this one again once it has, or give it longer with ${MIGRATE_WAIT_ENV}"
    )


TOKEN_BYTES = 32


def new_token() -> str:
    """A fresh secret for a link: 32 bytes from :mod:`secrets`, URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What is stored of a seat token: its SHA-256, in hex (the token itself is never stored).

    >>> token_hash('abc')[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(token.encode()).hexdigest()


def rematch_token(token: str, table_id: str) -> str:
    """The seat token of a player's seat at the rematch ``table_id``, derived from their old seat token
    (an HMAC): only its holder can work it out, and asking twice gives the same link.

    >>> rematch_token('old', 't1') == rematch_token('old', 't1') != rematch_token('old', 't2')
    True
    """
    digest = hmac.new(token.encode(), f"rematch:{table_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


# -- what the server reads back ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str | None
    bot: str | None
    token_hash: str | None
    away_at: datetime | None = None
    style: str | None = None  # a bot's style (None: balanced)
    version: str | None = None  # the bot's version (``medium/1``), stored when the game starts

    @property
    def free(self) -> bool:
        return self.name is None and self.bot is None

    @property
    def human(self) -> bool:
        return self.bot is None and self.name is not None


@dataclass(frozen=True, slots=True)
class TableInfo:
    id: str
    ruleset: dict[str, Any]
    seat_count: int
    first_dealer: int
    options: dict[str, Any]
    invite: str
    spectator: str
    status: str
    created: datetime
    rematch_of: str | None
    rematch_id: str | None
    seats: tuple[SeatInfo, ...]
    position: dict[str, Any] | None = None  # where the game starts, if not at a first deal (the tutorial's)


@dataclass(frozen=True, slots=True)
class StoredAction:
    """Action number ``seq`` of a table, as stored, and the table's new status if it changes with it."""

    table_id: str
    seq: int
    action: dict[str, Any]
    status: str | None = None


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A seat of a new table: a bot, a seat reserved for a named player (rematch), or free."""

    name: str | None = None
    bot: str | None = None
    style: str | None = None


def _aware(when: datetime | None) -> datetime | None:
    """A stored time as UTC (SQLite gives it back without its zone)."""
    return when if when is None or when.tzinfo is not None else when.replace(tzinfo=UTC)


# -- the store ----------------------------------------------------------------------------------------


class Storage:
    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def migrate(self, wait_s: int = MIGRATE_WAIT_S) -> None:
        migrate(self.engine, wait_s)

    def close(self) -> None:
        self.engine.dispose()

    # tables and seats

    def create_table(
        self,
        ruleset: dict[str, Any],
        first_dealer: int,
        options: dict[str, Any],
        seats: list[NewSeat],
        rematch_of: str | None = None,
        position: dict[str, Any] | None = None,
    ) -> TableInfo:
        with self._sessions.begin() as session:
            table = TableRow(
                id=secrets.token_urlsafe(9),
                ruleset=ruleset,
                seat_count=len(seats),
                first_dealer=first_dealer,
                options=options,
                invite_token=new_token(),
                spectator_token=new_token(),
                status=WAITING,
                created=datetime.now(UTC),
                rematch_of=rematch_of,
                position=position,
            )
            session.add(table)
            session.flush()
            for number, seat in enumerate(seats):
                session.add(SeatRow(table_id=table.id, seat=number, name=seat.name, bot=seat.bot, bot_style=seat.style))
            if rematch_of is not None:
                session.execute(update(TableRow).where(TableRow.id == rematch_of).values(rematch_id=table.id))
            session.flush()
            return self._info(session, table)

    def table(self, table_id: str) -> TableInfo | None:
        return self._find(TableRow.id == table_id)

    def table_by_invite(self, invite: str) -> TableInfo | None:
        return self._find(TableRow.invite_token == invite)

    def table_by_spectator(self, token: str) -> TableInfo | None:
        return self._find(TableRow.spectator_token == token)

    def seat_by_token(self, token: str) -> tuple[TableInfo, int] | None:
        """The table and seat of a seat token: looked up by its hash, which is then compared in constant time."""
        digest = token_hash(token)
        with self._sessions() as session:
            row = session.scalars(select(SeatRow).where(SeatRow.token_hash == digest)).first()
            if row is None or row.token_hash is None or not hmac.compare_digest(row.token_hash, digest):
                return None
            table = session.get_one(TableRow, row.table_id)
            return self._info(session, table), row.seat

    def seats_by_tokens(self, tokens: Iterable[str]) -> list[tuple[TableInfo, int, str]]:
        """The table and seat of each known token among ``tokens``, with the token, in the order given."""
        wanted = {token_hash(t): t for t in dict.fromkeys(tokens)}
        with self._sessions() as session:
            rows = session.scalars(select(SeatRow).where(SeatRow.token_hash.in_(list(wanted)))).all()
            by_hash = {row.token_hash: row for row in rows}
            out = []
            for digest, token in wanted.items():
                row = by_hash.get(digest)
                if row is not None and row.token_hash is not None and hmac.compare_digest(row.token_hash, digest):
                    out.append((self._info(session, session.get_one(TableRow, row.table_id)), row.seat, token))
            return out

    def table_ids(self, status: str) -> list[str]:
        with self._sessions() as session:
            return list(
                session.scalars(select(TableRow.id).where(TableRow.status == status).order_by(TableRow.created))
            )

    def tables_to_resume(self) -> list[str]:
        """The tables in play that go on without anyone connected: those with a bot, and those whose
        players are replaced by a bot when away (``away_timeout_s`` above 0). The others wait, in the
        database only, for a player to come back."""
        with self._sessions() as session:
            rows = session.execute(
                select(TableRow.id, TableRow.options).where(TableRow.status == PLAYING).order_by(TableRow.created)
            ).all()
            with_bots = set(
                session.scalars(
                    select(SeatRow.table_id)
                    .join(TableRow, TableRow.id == SeatRow.table_id)
                    .where(TableRow.status == PLAYING, SeatRow.bot.is_not(None))
                )
            )
        return [i for i, options in rows if i in with_bots or options.get("away_timeout_s", 1) > 0]

    def claim_seat(self, table_id: str, seat: int, name: str) -> str:
        """Give a free seat to ``name``; returns the new seat token. :class:`Conflict` if it is not free."""
        token = new_token()
        with self._sessions.begin() as session:
            done = session.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.name.is_(None), SeatRow.bot.is_(None)
                )
                .values(name=name, token_hash=token_hash(token))
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]  # a CursorResult for UPDATE
                raise Conflict("seat_taken", f"seat {seat} is taken")
        return token

    def claim_reserved(self, table_id: str, seat: int, token: str) -> None:
        """Give a seat reserved for a rematch player the seat token ``token`` (see :func:`rematch_token`);
        claiming it again with the same token does nothing, with another is a :class:`Conflict`."""
        digest = token_hash(token)
        with self._sessions.begin() as session:
            row = session.get_one(SeatRow, (table_id, seat))
            if row.bot is not None or row.name is None:
                raise Conflict("seat_taken", f"seat {seat} is not reserved for you")
            if row.token_hash is None:
                row.token_hash = digest
            elif not hmac.compare_digest(row.token_hash, digest):
                raise Conflict("seat_taken", f"seat {seat} was already claimed with another link")

    def set_away_at(self, table_id: str, seat: int, when: datetime | None) -> None:
        """Store when a bot starts playing for an away player (None: the player is back)."""
        with self._sessions.begin() as session:
            session.execute(
                update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat).values(away_at=when)
            )

    def start(self, table_id: str, status: str, versions: dict[int, str]) -> None:
        """The game starts: the table's new status and the version of each bot seat, in one transaction."""
        with self._sessions.begin() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(status=status))
            for seat, version in versions.items():
                session.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(bot_version=version)
                )

    def set_status(self, table_id: str, status: str) -> None:
        with self._sessions.begin() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(status=status))

    # the game log

    def actions(self, table_id: str) -> list[dict[str, Any]]:
        """Every stored action of a table, in order; their sequence numbers must run 0, 1, 2, ..."""
        with self._sessions() as session:
            rows = session.execute(
                select(ActionRow.seq, ActionRow.action).where(ActionRow.table_id == table_id).order_by(ActionRow.seq)
            ).all()
        for expected, (seq, _) in enumerate(rows):
            if seq != expected:
                raise RuntimeError(f"table {table_id}: the stored log skips from action {expected - 1} to {seq}")
        return [action for _, action in rows]

    def append(self, table_id: str, seq: int, action: dict[str, Any], status: str | None = None) -> None:
        """Store action number ``seq`` (and the table's new status, in the same transaction)."""
        self.append_many([StoredAction(table_id, seq, action, status)])

    def append_many(self, rows: Sequence[StoredAction]) -> None:
        """Store actions of any tables, and their tables' new statuses, in one transaction.

        On a connection, not an ORM session: the same statements, for about half the CPU a batch (a
        session's setup and its ORM insert path cost some 300 µs a batch of the 550 on SQLite, and the
        group commit writes a batch every few milliseconds; docs/performance.md, "Session 48")."""
        with self.engine.begin() as connection:
            connection.execute(
                insert(ActionRow), [{"table_id": r.table_id, "seq": r.seq, "action": r.action} for r in rows]
            )
            for row in rows:
                if row.status is not None:
                    connection.execute(update(TableRow).where(TableRow.id == row.table_id).values(status=row.status))

    def take_back(self, table_id: str, at: int, data: dict[str, Any]) -> None:
        """Remove actions ``at`` and after from the log and keep them in an ``undo`` note (``data``), in one
        transaction."""
        with self._sessions.begin() as session:
            session.execute(delete(ActionRow).where(ActionRow.table_id == table_id, ActionRow.seq >= at))
            session.add(NoteRow(table_id=table_id, seq=at, kind="undo", data=data, created=datetime.now(UTC)))

    # notes and reviews

    def add_note(self, table_id: str, seq: int, kind: str, data: dict[str, Any]) -> None:
        with self._sessions.begin() as session:
            session.add(NoteRow(table_id=table_id, seq=seq, kind=kind, data=data, created=datetime.now(UTC)))

    def notes(self, table_id: str, kind: str | None = None) -> list[tuple[int, str, dict[str, Any]]]:
        """A table's notes in order, as ``(seq, kind, data)`` (only those of ``kind`` when given)."""
        query = select(NoteRow.seq, NoteRow.kind, NoteRow.data).where(NoteRow.table_id == table_id)
        if kind is not None:
            query = query.where(NoteRow.kind == kind)
        with self._sessions() as session:
            return [(seq, k, data) for seq, k, data in session.execute(query.order_by(NoteRow.id)).all()]

    def review(self, table_id: str, seat: int, coach: str) -> dict[str, Any] | None:
        with self._sessions() as session:
            row = session.get(ReviewRow, (table_id, seat, coach))
            return None if row is None else row.review

    def save_review(self, table_id: str, seat: int, coach: str, review: dict[str, Any]) -> dict[str, Any]:
        """Store a review unless one is stored already under the same coach; returns the one stored."""
        try:
            with self._sessions.begin() as session:
                session.add(
                    ReviewRow(table_id=table_id, seat=seat, coach=coach, review=review, created=datetime.now(UTC))
                )
        except IntegrityError:
            stored = self.review(table_id, seat, coach)
            if stored is None:
                raise
            return stored
        return review

    # table talk (never part of the game's log)

    def add_chat(
        self, table_id: str, seat: int | None, name: str, text: str | None, reaction: str | None
    ) -> tuple[int, datetime]:
        """Store a line of table talk; returns its id and time."""
        at = datetime.now(UTC)
        with self._sessions.begin() as session:
            row = ChatRow(table_id=table_id, at=at, seat=seat, name=name, text=text, reaction=reaction)
            session.add(row)
            session.flush()
            return row.id, at

    def chat(self, table_id: str, last: int) -> list[dict[str, Any]]:
        """The ``last`` lines of a table's talk, oldest first, as ``chat`` messages."""
        with self._sessions() as session:
            rows = session.scalars(
                select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id.desc()).limit(last)
            ).all()
            return [
                line_message(
                    r.id,
                    r.at if r.at.tzinfo is not None else r.at.replace(tzinfo=UTC),
                    r.seat,
                    r.name,
                    r.text,
                    r.reaction,
                )
                for r in reversed(rows)
            ]

    # saved rulesets

    def rulesets(self) -> list[tuple[str, dict[str, Any], datetime]]:
        with self._sessions() as session:
            rows = session.scalars(select(SavedRuleset).order_by(SavedRuleset.name)).all()
            return [(row.name, row.rules, row.created) for row in rows]

    def save_ruleset(self, name: str, rules: dict[str, Any]) -> None:
        try:
            with self._sessions.begin() as session:
                session.add(SavedRuleset(name=name, rules=rules, created=datetime.now(UTC)))
        except IntegrityError as exc:
            raise Conflict("name_taken", f"a ruleset named {name!r} is already saved") from exc

    # helpers

    def _find(self, condition: Any) -> TableInfo | None:
        with self._sessions() as session:
            table = session.scalars(select(TableRow).where(condition)).first()
            return None if table is None else self._info(session, table)

    @staticmethod
    def _info(session: Session, table: TableRow) -> TableInfo:
        seats = session.scalars(select(SeatRow).where(SeatRow.table_id == table.id).order_by(SeatRow.seat)).all()
        return TableInfo(
            id=table.id,
            ruleset=table.ruleset,
            seat_count=table.seat_count,
            first_dealer=table.first_dealer,
            options=table.options,
            invite=table.invite_token,
            spectator=table.spectator_token,
            status=table.status,
            created=table.created if table.created.tzinfo is not None else table.created.replace(tzinfo=UTC),
            rematch_of=table.rematch_of,
            rematch_id=table.rematch_id,
            seats=tuple(
                SeatInfo(s.seat, s.name, s.bot, s.token_hash, _aware(s.away_at), s.bot_style, s.bot_version)
                for s in seats
            ),
            position=table.position,
        )
