"""Opening a database: SQLite file by default, any SQLAlchemy URL (PostgreSQL) by option.

SQLite runs in WAL mode with a busy timeout, so a second c8league process reading or
writing at the same time waits instead of failing. PostgreSQL (``postgresql://…``) is
opened with psycopg 3 and behaves the same way: advisory locks let one process at a
time create or upgrade the schema and one transaction at a time write (see
``c8league.storage.postgres``). The schema carries a version: an older database is
upgraded on open, a newer one is refused.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError, SQLAlchemyError
from sqlmodel import Session, SQLModel, create_engine, select

from c8league.errors import (
    BusyError,
    C8LeagueError,
    DatabaseDamaged,
    NoDatabase,
    StorageError,
)
from c8league.interrupts import deferred_interrupts
from c8league.storage import models, postgres
from c8league.storage.migrations import upgrade
from c8league.storage.models import SCHEMA_VERSION as SCHEMA_VERSION  # for the command line

DEFAULT_URL = "sqlite:///c8league.db"
ENV_VAR = "C8LEAGUE_DB"
SQLITE_BUSY_MS = 30_000
"""How long a statement waits for another process's write lock (a safety net: writers
take the lock through :meth:`Database.writing`, which waits in short steps)."""
LOCK_TRY_MS = 100
"""One attempt at the write lock in :meth:`Database.writing`."""
WRITE_WAIT_SECONDS = 120.0
"""How long :meth:`Database.writing` waits for the write lock by default (the
environment variable ``C8LEAGUE_LOCK_WAIT`` sets another number of seconds)."""
LOCK_WAIT_VAR = "C8LEAGUE_LOCK_WAIT"
CHECKPOINT_WAIT_MS = 2_000
"""How long closing a SQLite database waits to fold its write-ahead log in while another
process writes."""
QUICK_CHECK_BYTES = 64 * 2**20
"""A SQLite file up to this size opened for reading only is checked whole first
(SQLite's quick check reads it all, some hundreds of MB a second); a larger one when a
read fails."""
WAIT_NOTICE_SECONDS = 1.0
"""A wait for the write lock longer than this is announced through ``on_wait``."""

_LOCK_STATEMENT = text("UPDATE meta SET value = value WHERE key = 'schema_version'")


class Default:
    """The type of :data:`DEFAULT`: an argument left to its default."""


DEFAULT = Default()


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
    on_wait: Callable[[str], None] | None = None
    """Told, in words, when a write waits for another process (the CLI prints it)."""
    read_only: bool = False
    """Opened for reading only (a SQLite file then opened with ``mode=ro``)."""

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A short-lived session; commit explicitly, roll back on error. The database's
        own errors (locked, read-only, damaged) become one-line :class:`StorageError`.
        On SQLite, a block that fails with an error c8league did not raise on purpose
        (what rows a damaged page gives back can make) runs SQLite's quick check of the
        file: a damaged file raises :class:`~c8league.errors.DatabaseDamaged`."""
        with Session(self.engine, expire_on_commit=False) as session:
            try:
                yield session
            except DBAPIError as exc:
                _quietly(session.rollback)
                raise database_error(self.url, exc) from None
            except C8LeagueError:
                session.rollback()
                raise
            except Exception:
                _quietly(session.rollback)
                found = damage(self.url)
                if found is not None:
                    raise DatabaseDamaged(describe_url(self.url), found) from None
                raise
            except BaseException:
                session.rollback()
                raise

    @contextmanager
    def writing(self, *, wait: float | Default | None = DEFAULT) -> Iterator[Session]:
        """One write transaction: the block's changes are committed together when it
        ends, or rolled back together if it raises (whatever the signal or error).

        The database's write lock is taken first, so what the block reads stays true
        until it commits. While another process holds the lock this waits, in short
        steps that Ctrl-C can cut, saying so once through :attr:`on_wait` after
        :data:`WAIT_NOTICE_SECONDS`; after ``wait`` seconds (None: no limit; by default
        :func:`lock_wait_seconds`) it raises :class:`BusyError`. Ctrl-C during the
        block itself is held back until the transaction has ended (see
        ``c8league.interrupts``). Keep the block short: other writers wait for it.
        """
        limit = lock_wait_seconds() if isinstance(wait, Default) else wait
        with self.session() as session:
            self._take_write_lock(session, limit)
            with deferred_interrupts():
                yield session
                session.commit()

    def _take_write_lock(self, session: Session, wait: float | None) -> None:
        started = time.monotonic()
        told = False
        while not self._try_write_lock(session):
            session.rollback()
            waited = time.monotonic() - started
            if wait is not None and waited >= wait:
                raise BusyError(
                    f"the database {safe_url(self.url)} stayed busy for {waited:.0f} s "
                    "(another c8league process is writing to it); nothing was changed: "
                    "try again"
                )
            if not told and waited >= WAIT_NOTICE_SECONDS and self.on_wait is not None:
                self.on_wait(
                    f"waiting for the database {safe_url(self.url)}: another c8league "
                    "process is writing to it"
                )
                told = True
            if not self.is_sqlite:
                time.sleep(LOCK_TRY_MS / 1000)

    def _try_write_lock(self, session: Session) -> bool:
        connection = session.connection()
        if connection.dialect.name == "postgresql":
            return postgres.try_write_lock(connection)
        if not self.is_sqlite:
            session.execute(_LOCK_STATEMENT)
            return True
        connection.exec_driver_sql(f"PRAGMA busy_timeout={LOCK_TRY_MS}")
        try:
            session.execute(_LOCK_STATEMENT)
        except OperationalError as exc:
            if not _is_locked(exc):
                raise
            locked = False
        else:
            locked = True
        # Not in a `finally`: a signal that stops the statement (SIGTERM, Ctrl-C) leaves
        # the connection to be rolled back, and a statement there would raise in its place.
        connection.exec_driver_sql(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
        return locked

    def close(self) -> None:
        """Close every connection. On SQLite, the write-ahead log is then folded into the
        database file and emptied (``wal_checkpoint(TRUNCATE)``), so that the file alone
        holds everything: a plain copy of it is whole. Another process still using the
        database keeps its log; the last one to close folds it in."""
        self.engine.dispose()
        path = sqlite_path(self.url)
        if path is not None and self.is_sqlite and path.exists():
            if self.read_only:
                _tidy(path)
            else:
                checkpoint(path)

    def check_whole(self) -> None:
        """Run SQLite's quick check of the database file (nothing to do on a server):
        :class:`~c8league.errors.DatabaseDamaged` when it is damaged."""
        found = damage(self.url) if self.is_sqlite else None
        if found is not None:
            raise DatabaseDamaged(describe_url(self.url), found)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"


def checkpoint(path: Path) -> None:
    """Fold the SQLite database's write-ahead log into its file and empty it, waiting a
    moment for another process's write to end (then leaving it to that process)."""
    try:
        con = sqlite3.connect(path, timeout=CHECKPOINT_WAIT_MS / 1000)
    except sqlite3.Error:
        return
    try:
        con.execute(f"PRAGMA busy_timeout={CHECKPOINT_WAIT_MS}")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    except sqlite3.Error:
        pass  # busy or read-only: the log stays for the next writer to fold in
    finally:
        con.close()


def _tidy(path: Path) -> None:
    """After reading the SQLite database at ``path`` only: the write-ahead log a reader
    leaves behind, when it is empty, is removed as the last writer removes it (through
    a checkpoint, which has nothing to write); a log that holds another process's
    writes is left to that process."""
    log = Path(f"{path}-wal")
    try:
        empty = log.is_file() and log.stat().st_size == 0
    except OSError:
        return
    if empty:
        checkpoint(path)


def open_database(
    db: str | None = None, *, create: bool = True, read_only: bool = False
) -> Database:
    """Open (and create or upgrade) the database at ``db`` (see :func:`resolve_url`).

    With ``read_only``, a SQLite file that exists and is up to date is opened for
    reading only (``mode=ro``): the command cannot write to it, and its file is left
    byte for byte as it was (an older one is opened as usual, to be upgraded). A
    damaged file is refused in one line (:class:`~c8league.errors.DatabaseDamaged`).

    With ``create`` false, a database that does not exist yet (no SQLite file, or a
    server database without c8league's tables) is not made: :class:`~c8league.errors.NoDatabase`
    names where it was looked for."""
    url = resolve_url(db)
    path = sqlite_path(url)
    if path is not None:
        _check_file(url, path, create=create)
        if read_only and path.is_file() and path.stat().st_size > 0:
            reading = _open_read_only(url, path)
            if reading is not None:
                return reading
    try:
        engine = _engine(url)
        for attempt in range(3):
            try:
                with engine.begin() as conn:
                    _prepare(conn, url, create=create)
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
        found = damage(url) if isinstance(exc, DBAPIError) and _is_damage(exc) else None
        if found is not None:
            raise DatabaseDamaged(describe_url(url), found) from None
        raise StorageError(
            f"cannot open database {safe_url(url)}: {exc.__class__.__name__}: "
            f"{str(exc).splitlines()[0]}"
        ) from None
    return Database(url, engine)


def _open_read_only(url: str, path: Path) -> Database | None:
    """The SQLite file at ``path`` opened for reading only; None when it must be opened
    as usual (its schema is older: opening it upgrades it). A file of at most
    :data:`QUICK_CHECK_BYTES` is checked whole first."""
    if path.stat().st_size <= QUICK_CHECK_BYTES:
        found = damage(url)
        if found is not None:
            raise DatabaseDamaged(describe_url(url), found)
    engine = create_engine(
        f"sqlite:///{path.absolute().as_uri()}?mode=ro&uri=true",
        connect_args={"timeout": SQLITE_BUSY_MS / 1000},
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
        cur.execute("PRAGMA foreign_keys=ON")
        # Each page read is checked for cells that do not fit it: a damaged page then
        # fails the read (and the quick check says what is wrong) instead of giving
        # rows back.
        cur.execute("PRAGMA cell_size_check=ON")
        cur.close()

    try:
        with engine.connect() as conn:
            state = _schema_state(conn, url)
    except DBAPIError as exc:
        Database(url, engine, read_only=True).close()
        raise database_error(url, exc) from None
    except BaseException:
        Database(url, engine, read_only=True).close()
        raise
    if state != "current":
        Database(url, engine, read_only=True).close()
        return None
    return Database(url, engine, read_only=True)


def damage(url: str) -> str | None:
    """SQLite's quick check of the database file of ``url``, read-only: None when the
    file is whole (or is no SQLite file of this machine), else the check's first
    complaint."""
    path = sqlite_path(url)
    if path is None or not path.is_file():
        return None
    # With no write-ahead log beside it, no process has the file open for writing: it
    # is read as it is, without the log and index files a reader would leave.
    alone = "" if Path(f"{path}-wal").exists() else "&immutable=1"
    try:
        con = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro{alone}", uri=True)
    except sqlite3.Error:
        return None
    try:
        rows = con.execute("PRAGMA quick_check").fetchmany(1)
    except sqlite3.DatabaseError as exc:
        return str(exc)
    finally:
        con.close()
    first = str(rows[0][0]) if rows else "no answer"
    if first == "ok":
        return None
    lines = [line for line in first.splitlines() if line and not line.startswith("***")]
    return lines[0] if lines else first


def _is_damage(exc: DBAPIError) -> bool:
    text = str(exc.orig or exc)
    return "malformed" in text or "not a database" in text or "disk I/O error" in text


def _quietly(action: Callable[[], object]) -> None:
    """Run ``action`` (a rollback after an error), leaving its own error aside: the
    first error is the one to report."""
    with contextlib.suppress(Exception):
        action()


SQLITE_HEADER = b"SQLite format 3\x00"


def _check_file(url: str, path: Path, *, create: bool) -> None:
    """Look at a SQLite database's file before SQLite opens it (opening it for writing
    sets it to WAL mode, which writes to it and makes ``-wal`` and ``-shm`` files beside
    it): a file that is not a c8league database (an empty one when none is to be made,
    one that is not SQLite, another program's database) is refused and left byte for
    byte as it was; a path the system refuses (too long, say) gets one line."""
    try:
        if not path.exists():
            if not create:
                raise no_database(url)
            return
        if path.stat().st_size == 0:
            if not create:
                raise no_database(url)
            return  # an empty file: the database is made in it
        with open(path, "rb") as file:
            head = file.read(100)
    except OSError as exc:
        raise StorageError(
            f"cannot open database {describe_url(url)}: {exc.strerror or exc}"
        ) from None
    if not head.startswith(SQLITE_HEADER):
        raise StorageError(
            f"{describe_url(url)} is not a c8league database (not a SQLite file): left as it was"
        )
    if head[18:20] != b"\x02\x02":  # not in WAL mode, as c8league's databases are: look
        _check_foreign(url, path)


def _check_foreign(url: str, path: Path) -> None:
    """Refuse a SQLite file that holds another program's tables, looked at read-only."""
    try:
        con = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return  # the open that follows says what is wrong
    try:
        tables = {
            name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if not tables or "meta" in tables:
            return
        ours = set(SQLModel.metadata.tables)
        if tables <= ours and all(
            con.execute(f'SELECT 1 FROM "{table}" LIMIT 1').fetchone() is None for table in tables
        ):
            return  # what a creation killed half-way leaves: finished on open
    except sqlite3.Error:
        return
    finally:
        con.close()
    raise StorageError(
        f"{describe_url(url)} is not a c8league database (no meta table): left as it was"
    )


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
        postgres.utc_sessions(engine)
        postgres.one_writer_at_a_time(engine)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _prepare(conn: Any, url: str, *, create: bool = True) -> None:
    """Create a fresh schema, finish a half-made one, upgrade an older one, refuse a newer
    or a damaged one.

    Creating or upgrading happens in one transaction that holds the database's write
    lock (on SQLite ``BEGIN IMMEDIATE``; on PostgreSQL an advisory lock), so a process
    killed half-way leaves the database as it was, and two processes opening a new
    database do not both create it. Opening an up-to-date database takes no lock.
    """
    if conn.dialect.name == "postgresql":
        postgres.lock_schema(conn)
    state = _schema_state(conn, url)
    if state == "current":
        return
    if state == "empty" and not create:
        raise no_database(url)
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        state = _schema_state(conn, url)  # as it is now that no one else may change it
    if state == "empty":
        SQLModel.metadata.create_all(conn)
        conn.execute(
            models.Meta.__table__.insert().values(  # type: ignore[attr-defined]
                key="schema_version", value=str(models.SCHEMA_VERSION)
            )
        )
    elif state == "older":
        version = _schema_version(conn, url)
        assert version is not None
        upgrade(conn, version)


def _schema_state(conn: Any, url: str) -> str:
    """``empty`` (nothing of c8league's, or only the empty tables a creation killed half-way
    left), ``older`` or ``current``; raises :class:`StorageError` for a database that is
    newer, damaged or not c8league's."""
    tables = set(inspect(conn).get_table_names())
    ours = set(SQLModel.metadata.tables)
    if not tables:
        return "empty"
    version = _schema_version(conn, url) if "meta" in tables else None
    if version is None:
        if tables <= ours and all(_is_empty(conn, table) for table in tables):
            return "empty"
        if "meta" not in tables:
            raise StorageError(f"{safe_url(url)} is not a c8league database (no meta table)")
        raise StorageError(f"database {safe_url(url)} has no schema version: it is damaged")
    if version > models.SCHEMA_VERSION:
        raise StorageError(
            f"database {safe_url(url)} has schema version {version}, newer than this c8league "
            f"understands ({models.SCHEMA_VERSION}); upgrade c8league"
        )
    if version < models.SCHEMA_VERSION:
        return "older"
    missing = sorted(ours - tables)
    if missing:
        raise StorageError(
            f"database {safe_url(url)} lacks the table{'s' if len(missing) > 1 else ''} "
            f"{', '.join(missing)}: it is damaged (restore it from a copy)"
        )
    return "current"


def _schema_version(conn: Any, url: str) -> int | None:
    """The stored schema version (None when no version row exists)."""
    row = conn.execute(select(models.Meta.value).where(models.Meta.key == "schema_version")).first()
    if row is None:
        return None
    (value,) = row
    text = str(value).strip()
    if not text.isdigit() or len(text) > 9:
        raise StorageError(
            f"database {safe_url(url)} has schema version {value!r}, not one c8league wrote"
        )
    return int(text)


def _is_empty(conn: Any, table: str) -> bool:
    return conn.execute(SQLModel.metadata.tables[table].select().limit(1)).first() is None


def lock_wait_seconds() -> float:
    """How long a write waits for another process's write lock: ``$C8LEAGUE_LOCK_WAIT``
    seconds, or :data:`WRITE_WAIT_SECONDS`."""
    value = os.environ.get(LOCK_WAIT_VAR, "").strip()
    if not value:
        return WRITE_WAIT_SECONDS
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 86_400:
        raise StorageError(
            f"${LOCK_WAIT_VAR} must be a number of seconds from 0 to 86400, not {value!r}"
        )
    return seconds


def is_in_memory(url: str) -> bool:
    """Whether ``url`` is a SQLite database in memory (gone when the process ends)."""
    if not url.startswith("sqlite"):
        return False
    database = url.split("://", 1)[1].removeprefix("/").split("?", 1)[0]
    return database in ("", ":memory:") or "mode=memory" in url


def database_error(url: str, exc: DBAPIError) -> C8LeagueError:
    """The database driver's error ``exc`` as one line naming the database."""
    where = safe_url(url)
    detail = str(exc.orig).splitlines()[0] if exc.orig is not None else str(exc)
    if _is_damage(exc):
        found = damage(url)
        if found is not None:
            return DatabaseDamaged(describe_url(url), found)
    if _is_locked(exc):
        return BusyError(
            f"the database {where} stayed busy (another c8league process is writing to it); "
            "nothing was changed: try again"
        )
    if "readonly" in detail or "read-only" in detail:
        return StorageError(f"the database {where} is read-only: {detail}")
    if "no such table" in detail or "no such column" in detail or "does not exist" in detail:
        return StorageError(f"the database {where} is damaged ({detail}): restore it from a copy")
    return StorageError(f"database {where}: {type(exc.orig or exc).__name__}: {detail}")


def _is_locked(exc: BaseException) -> bool:
    text = str(exc)
    return "database is locked" in text or "database table is locked" in text


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite database URL (also given as a URI filename,
    ``sqlite:///file:PATH?mode=ro&uri=true``); None for any other database."""
    if not url.startswith("sqlite:///"):
        return None
    path = url.removeprefix("sqlite:///").split("?", 1)[0]
    if path.startswith("file%3A"):  # (as SQLAlchemy renders a URI filename)
        path = unquote(path)
    if path.startswith("file:") and "uri=true" in url:
        path = unquote(path.removeprefix("file:"))
        if path.startswith("//"):  # file:///PATH
            path = "/" + path.lstrip("/")
    if not path or path == ":memory:":
        return None
    return Path(path)


def describe_url(url: str) -> str:
    """Where a database is, for a message: a SQLite file's absolute path, otherwise the
    URL without its password."""
    path = sqlite_path(url)
    return str(path.absolute()) if path is not None else safe_url(url)


def session_database(session: Session) -> str:
    """Where the database of ``session`` is (see :func:`describe_url`)."""
    bind = session.get_bind()
    engine = bind if isinstance(bind, Engine) else bind.engine
    return describe_url(engine.url.render_as_string(hide_password=False))


def no_database(url: str) -> NoDatabase:
    """The error for a database that does not exist (and is not to be created)."""
    where = describe_url(url)
    return NoDatabase(f"no c8league database at {where}", where=where)


def safe_url(url: str) -> str:
    """The URL without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url
