"""PostgreSQL: the driver behind ``postgresql://`` URLs, 64-bit seed columns, and the
locks that make concurrent processes behave as they do on SQLite: one process at a
time creates or upgrades the schema, and one transaction at a time writes.

``postgresql://user:password@host/db`` (or ``postgres://``) is opened with psycopg 3
(``pip install 'c8league[postgres]'``); a URL naming its driver
(``postgresql+psycopg2://``) is used as given.
"""

from __future__ import annotations

import importlib.util
import re
from typing import Any

from sqlalchemy import BigInteger, Integer, MetaData, event, text
from sqlalchemy.engine import Engine

from c8league.errors import StorageError

SCHEMES = ("postgresql", "postgres")
DRIVER = "psycopg"

SCHEMA_LOCK = 0x6338_6C65_6167_7565
"""The advisory lock held while a process checks, creates or upgrades the schema."""
WRITE_LOCK = SCHEMA_LOCK + 1
"""The advisory lock a transaction holds from its first write to its end."""
_WRITES = re.compile(r"\s*(INSERT|UPDATE|DELETE|CREATE|ALTER|DROP)\b", re.IGNORECASE)
_HOLDS_WRITE_LOCK = "c8league_write_lock"

WIDE_COLUMNS = (("event", "seed"), ("match", "seed"), ("duel", "seed"))
"""Columns holding 63-bit values: BIGINT on PostgreSQL (SQLite's INTEGER is 64-bit)."""


def is_postgres(url: str) -> bool:
    scheme = url.split("://", 1)[0]
    return scheme.split("+", 1)[0] in SCHEMES


def engine_url(url: str) -> str:
    """The SQLAlchemy URL for ``url``: plain ``postgresql://`` and ``postgres://`` get the
    psycopg 3 driver; any other URL is returned unchanged."""
    scheme, sep, rest = url.partition("://")
    if sep and scheme in SCHEMES:
        return f"postgresql+{DRIVER}://{rest}"
    return url


def require_driver(url: str) -> None:
    """Raise a one-line :class:`StorageError` when the driver ``url`` needs is missing."""
    scheme = url.split("://", 1)[0]
    if scheme == f"postgresql+{DRIVER}" and importlib.util.find_spec(DRIVER) is None:
        raise StorageError("PostgreSQL needs the psycopg driver: pip install 'c8league[postgres]'")


def widen_columns(metadata: MetaData) -> None:
    """Make :data:`WIDE_COLUMNS` BIGINT on PostgreSQL; other dialects keep their type, so
    a SQLite schema is unchanged. Idempotent."""
    from sqlalchemy.dialects import postgresql  # only where PostgreSQL is used

    for table_name, column_name in WIDE_COLUMNS:
        column = metadata.tables[table_name].c[column_name]
        dialect = postgresql.dialect()  # type: ignore[no-untyped-call]
        if isinstance(column.type.dialect_impl(dialect), BigInteger):
            continue
        column.type = Integer().with_variant(BigInteger(), "postgresql")


def utc_sessions(engine: Engine) -> None:
    """Make ``engine``'s sessions keep time in UTC, as c8league does: a time it writes
    is stored as written whatever the server's time zone (a ``timestamp`` column keeps
    no zone), and reads back the same (the record's chain hashes times)."""

    @event.listens_for(engine, "connect")
    def _utc(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        try:
            cursor.execute("SET TIME ZONE 'UTC'")
        finally:
            cursor.close()
        dbapi_conn.commit()


def lock_schema(conn: Any) -> None:
    """Hold :data:`SCHEMA_LOCK` until the end of ``conn``'s transaction, so that two
    processes opening a new or older database do not both create or upgrade it."""
    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})


def one_writer_at_a_time(engine: Engine) -> None:
    """Make ``engine``'s transactions write one at a time, as on SQLite: the first
    writing statement of a transaction waits for :data:`WRITE_LOCK`, held until commit
    or rollback. Reading never waits. A writer therefore reads what the writer before
    it committed (a rating updated by two event runs at once is updated twice, never
    overwritten), and two writers cannot deadlock on each other's rows."""

    @event.listens_for(engine, "before_cursor_execute")
    def _lock(
        conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool
    ) -> None:
        if conn.info.get(_HOLDS_WRITE_LOCK) or not _WRITES.match(statement):
            return
        with cursor.connection.cursor() as lock:
            lock.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
        conn.info[_HOLDS_WRITE_LOCK] = True

    @event.listens_for(engine, "commit")
    @event.listens_for(engine, "rollback")
    def _released(conn: Any) -> None:
        conn.info.pop(_HOLDS_WRITE_LOCK, None)

    @event.listens_for(engine, "checkin")
    def _returned(dbapi_conn: Any, record: Any) -> None:
        record.info.pop(_HOLDS_WRITE_LOCK, None)


def try_write_lock(conn: Any) -> bool:
    """Take :data:`WRITE_LOCK` for ``conn``'s transaction if no other transaction holds
    it; return whether it was taken (without waiting)."""
    if conn.info.get(_HOLDS_WRITE_LOCK):
        return True
    taken = bool(
        conn.execute(text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": WRITE_LOCK}).scalar()
    )
    if taken:
        conn.info[_HOLDS_WRITE_LOCK] = True
    return taken
