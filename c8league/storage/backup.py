"""Copies of a database: a consistent copy of a SQLite file while others may be
writing to it (SQLite's online backup API), and putting such a copy back. A PostgreSQL
database is copied with its own tools (``pg_dump``, ``pg_restore``)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from c8league.errors import StorageError, UsageError
from c8league.storage.database import Database, describe_url, safe_url, sqlite_path
from c8league.storage.models import SCHEMA_VERSION

PG_DUMP = (
    "pg_dump --format=custom --file {file} '{url}' (restore it with pg_restore --clean "
    "--if-exists --dbname '{url}' {file})"
)


@dataclass(frozen=True)
class Contents:
    """What a copy holds: its schema version and how many leagues, events and results."""

    schema: int
    leagues: int
    events: int
    matches: int

    def text(self) -> str:
        def count(n: int, what: str) -> str:
            return f"{n} {what}" + ("" if n == 1 else "s")

        return (
            f"{count(self.leagues, 'league')}, {count(self.events, 'event')}, "
            f"{count(self.matches, 'result')} (schema version {self.schema})"
        )


def check_sqlite(url: str, what: str) -> Path:
    """The file of a SQLite database; for any other, a :class:`UsageError` saying to use
    the server's own tools (``what``: the command refused)."""
    path = sqlite_path(url)
    if path is None:
        raise UsageError(
            f"{what} copies a SQLite file; the database {safe_url(url)} is on a server: use "
            + PG_DUMP.format(file="FILE", url=safe_url(url))
        )
    return path


def backup(db: Database, target: Path) -> Contents:
    """Copy the SQLite database ``db`` to the new file ``target``: consistent, whatever
    other processes write meanwhile, and whole in one file. Refuses an existing
    ``target`` and a PostgreSQL database (saying how to use ``pg_dump``)."""
    check_sqlite(db.url, "backup")
    if target.exists():
        raise UsageError(f"{target} exists already: name a new file (nothing was written)")
    if not target.parent.is_dir():
        raise UsageError(f"{target.parent} is not a folder (nothing was written)")
    partial = target.with_name(f".{target.name}.partial")
    try:
        source = db.engine.raw_connection()
        try:
            copy = sqlite3.connect(partial)
            try:
                source.driver_connection.backup(copy)  # type: ignore[union-attr]
                copy.execute("PRAGMA journal_mode=DELETE")
                contents = _contents(copy, str(target))
            finally:
                copy.close()
        finally:
            source.close()
        if target.exists():  # made by someone else meanwhile
            raise UsageError(f"{target} exists already: name a new file (nothing was written)")
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise StorageError(f"cannot back up to {target}: {exc}") from None
    except OSError as exc:
        raise StorageError(f"cannot write {target}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            partial.unlink()
    return contents


def restore(url: str, source: Path, *, force: bool) -> Contents:
    """Put the copy ``source`` in place of the SQLite database at ``url``: refused when
    the database exists and ``force`` is not given, when ``source`` is not a whole
    c8league database, or when its schema is newer than this c8league's (an older one
    is upgraded when next opened). Other processes see the old database or the copy,
    never a mix."""
    path = check_sqlite(url, "restore")
    if not source.is_file():
        raise UsageError(f"{source}: no such file")
    if path.resolve() == source.resolve():
        raise UsageError(f"{source} is the database itself")
    try:
        copy = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise StorageError(f"cannot read {source}: {exc}") from None
    try:
        contents = _contents(copy, str(source))
        if contents.schema > SCHEMA_VERSION:
            raise StorageError(
                f"{source} has schema version {contents.schema}, newer than this c8league "
                f"understands ({SCHEMA_VERSION}): upgrade c8league (nothing was changed)"
            )
        if path.exists() and path.stat().st_size > 0 and not force:
            raise UsageError(
                f"{describe_url(url)} exists: restoring replaces everything in it; add "
                "`force` to do so (nothing was changed)",
                params=["force"],
            )
        target = sqlite3.connect(path, timeout=30)
        try:
            target.execute("PRAGMA journal_mode=WAL")
            copy.backup(target)
            target.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            target.close()
    except sqlite3.Error as exc:
        raise StorageError(f"cannot restore {source}: {exc}") from None
    finally:
        copy.close()
    return contents


def _contents(con: sqlite3.Connection, where: str) -> Contents:
    """What a SQLite copy of a c8league database holds; raises for anything else."""
    try:
        check = con.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            raise StorageError(f"{where} is damaged ({check[0] if check else 'no answer'})")
        tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master")}
        if "meta" not in tables:
            raise StorageError(f"{where} is not a c8league database (no meta table)")
        row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"{where} is not a c8league database ({exc})") from None
    (value,) = row if row is not None else ("",)
    text = str(value).strip()
    if not text.isdigit():
        raise StorageError(f"{where} has no schema version: it is damaged")
    version = int(text)
    if version > SCHEMA_VERSION:
        return Contents(version, 0, 0, 0)

    def count(sql: str) -> int:
        return int(con.execute(sql).fetchone()[0])

    return Contents(
        version,
        count("SELECT COUNT(*) FROM league"),
        count("SELECT COUNT(*) FROM event"),
        count("SELECT COUNT(*) FROM match WHERE status = 'done'"),
    )
