"""PostgreSQL: the driver behind ``postgresql://`` URLs, 64-bit seed columns, and a lock
that lets one process at a time create or upgrade the schema.

``postgresql://user:password@host/db`` (or ``postgres://``) is opened with psycopg 3
(``pip install 'c8league[postgres]'``); a URL naming its driver
(``postgresql+psycopg2://``) is used as given.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from sqlalchemy import BigInteger, Integer, MetaData, text
from sqlalchemy.dialects import postgresql

from c8league.errors import StorageError

SCHEMES = ("postgresql", "postgres")
DRIVER = "psycopg"

SCHEMA_LOCK = 0x6338_6C65_6167_7565
"""The advisory lock held while a process checks, creates or upgrades the schema."""

WIDE_COLUMNS = (("event", "seed"), ("match", "seed"))
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
        raise StorageError(
            "PostgreSQL needs the psycopg driver: pip install 'c8league[postgres]'"
        )


def widen_columns(metadata: MetaData) -> None:
    """Make :data:`WIDE_COLUMNS` BIGINT on PostgreSQL; other dialects keep their type, so
    a SQLite schema is unchanged. Idempotent."""
    for table_name, column_name in WIDE_COLUMNS:
        column = metadata.tables[table_name].c[column_name]
        if isinstance(column.type.dialect_impl(postgresql.dialect()), BigInteger):
            continue
        column.type = Integer().with_variant(BigInteger(), "postgresql")


def lock_schema(conn: Any) -> None:
    """Hold :data:`SCHEMA_LOCK` until the end of ``conn``'s transaction, so that two
    processes opening a new or older database do not both create or upgrade it."""
    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
