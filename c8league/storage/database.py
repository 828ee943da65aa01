"""Opening a database: SQLite file by default, any SQLAlchemy URL (PostgreSQL) by option.

SQLite runs in WAL mode with a busy timeout, so a second c8league process reading or
writing at the same time waits instead of failing. PostgreSQL (``postgresql://…``) is
opened with psycopg 3 and behaves the same way: advisory locks let one process at a
time create or upgrade the schema and one transaction at a time write (see
``c8league.storage.postgres``). The schema carries a version: an older database is
upgraded on open, a newer one is refused.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import event, inspect
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, OperationalError, SQLAlchemyError
from sqlmodel import Session, SQLModel, create_engine, select

from c8league.errors import StorageError
from c8league.storage import models, postgres
from c8league.storage.migrations import upgrade

DEFAULT_URL = "sqlite:///c8league.db"
ENV_VAR = "C8LEAGUE_DB"
SQLITE_BUSY_MS = 30_000


def resolve_url(db: str | None) -> str:
    """``--db`` wins, then ``$C8LEAGUE_DB``, then ``c8league.db`` in the working directory.
    A plain path is taken as a SQLite file."""
    value = db or os.environ.get(ENV_VAR) or DEFAULT_URL
    if "://" not in value:
        value = f"sqlite:///{value}"
    return value


@dataclass
class Database:
    """An open, up-to-date database."""

    url: str
    engine: Engine

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A short-lived session; commit explicitly, roll back on error."""
        with Session(self.engine, expire_on_commit=False) as session:
            try:
                yield session
            except BaseException:
                session.rollback()
                raise

    def close(self) -> None:
        self.engine.dispose()

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"


def open_database(db: str | None = None, *, create: bool = True) -> Database:
    """Open (and create or upgrade) the database at ``db`` (see :func:`resolve_url`)."""
    url = resolve_url(db)
    if url.startswith("sqlite:///") and not create:
        path = Path(url.removeprefix("sqlite:///"))
        if not path.exists():
            raise StorageError(f"no database at {path} (run: c8league init)")
    try:
        engine = _engine(url)
        for attempt in range(3):
            try:
                with engine.begin() as conn:
                    _prepare(conn, url)
                break
            except OperationalError as exc:
                # Two processes creating the same new SQLite file: the loser finds the
                # tables made by the winner on its next look.
                if "already exists" not in str(exc) or attempt == 2:
                    raise
    except StorageError:
        raise
    except (ArgumentError, ModuleNotFoundError) as exc:
        raise StorageError(f"cannot open database {safe_url(url)}: {exc}") from None
    except (OperationalError, SQLAlchemyError) as exc:
        raise StorageError(
            f"cannot open database {safe_url(url)}: {exc.__class__.__name__}: "
            f"{str(exc).splitlines()[0]}"
        ) from None
    return Database(url, engine)


def _engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_MS / 1000})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    if postgres.is_postgres(url):
        url = postgres.engine_url(url)
        postgres.require_driver(url)
        postgres.widen_columns(SQLModel.metadata)
        engine = create_engine(url, pool_pre_ping=True)
        postgres.one_writer_at_a_time(engine)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _prepare(conn: Any, url: str) -> None:
    """Create a fresh schema, upgrade an older one, refuse a newer one."""
    if conn.dialect.name == "postgresql":
        postgres.lock_schema(conn)
    tables = set(inspect(conn).get_table_names())
    if not tables:
        SQLModel.metadata.create_all(conn)
        conn.execute(
            models.Meta.__table__.insert().values(  # type: ignore[attr-defined]
                key="schema_version", value=str(models.SCHEMA_VERSION)
            )
        )
        return
    if "meta" not in tables:
        raise StorageError(f"{safe_url(url)} is not a c8league database (no meta table)")
    row = conn.execute(select(models.Meta.value).where(models.Meta.key == "schema_version")).first()
    version = int(row[0]) if row else 0
    if version > models.SCHEMA_VERSION:
        raise StorageError(
            f"database {safe_url(url)} has schema version {version}, newer than this c8league "
            f"understands ({models.SCHEMA_VERSION}); upgrade c8league"
        )
    if version < models.SCHEMA_VERSION:
        upgrade(conn, version)


def safe_url(url: str) -> str:
    """The URL without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url
