"""Copies of a database: a consistent copy of a SQLite file while others may be
writing to it (SQLite's online backup API), and putting such a copy back. A PostgreSQL
database is copied with its own tools (``pg_dump``, ``pg_restore``)."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import URL, inspect, make_url
from sqlmodel import SQLModel

from c8league.errors import C8LeagueError, StorageError, UsageError
from c8league.findings import CopyRefused
from c8league.storage import chain, postgres
from c8league.storage.database import (
    SQLITE_HEADER,
    Database,
    describe_url,
    open_database,
    safe_url,
    sqlite_path,
)
from c8league.storage.models import SCHEMA_VERSION

PG_DUMP = "pg_dump --format=custom --file {file} {url}"
PG_RESTORE = "pg_restore --clean --if-exists --dbname {url} {file}"
PG_PASSWORD = "{tool} asks for the password, or takes it from $PGPASSWORD or ~/.pgpass"


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


def check_sqlite(url: str, what: str, file: Path | None = None) -> Path:
    """The file of a SQLite database; for any other, a :class:`UsageError` saying to use
    the server's own tools (``what``: the command refused; ``file``: the copy it was
    given). On PostgreSQL that is the ``pg_dump`` (or ``pg_restore``) line to run as it
    stands: the URL without its password, which libpq takes from ``$PGPASSWORD`` or
    ``~/.pgpass`` (or asks for)."""
    path = sqlite_path(url)
    if path is None:
        where = f"{what} copies a SQLite file; the database {safe_url(url)} is on a server"
        if not postgres.is_postgres(url):
            raise UsageError(f"{where}: copy it with the server's own tools")
        name = shlex.quote(str(file) if file is not None else "FILE")
        target = shlex.quote(libpq_url(url))
        dump = PG_DUMP.format(file=name, url=target)
        back = PG_RESTORE.format(file=name, url=target)
        raise UsageError(
            f"{where}: use {dump} (restore it with {back}); " + PG_PASSWORD.format(tool="pg_dump")
            if what != "restore"
            else f"{where}: restore a copy made by pg_dump with {back}; "
            + PG_PASSWORD.format(tool="pg_restore")
        )
    return path


def libpq_url(url: str) -> str:
    """``url`` as PostgreSQL's own tools take it: ``postgresql://`` without a driver
    name, and without the password."""
    given = make_url(url)
    return URL.create(
        "postgresql",
        username=given.username,
        host=given.host,
        port=given.port,
        database=given.database,
        query=given.query,
    ).render_as_string(hide_password=False)


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


@dataclass(frozen=True)
class Restored:
    """What :func:`restore` did: what the copy held (its schema as it was), the schema
    version of the database now, and where the database it replaced is kept (None:
    there was none)."""

    contents: Contents
    schema: int
    kept: Path | None


KEPT = "{name}.before-restore-{time}"
"""The name the database a restore replaces is kept under, beside it (``time`` in UTC,
``20250107T183305Z``)."""


def restore(url: str, source: Path, *, force: bool, now: datetime | None = None) -> Restored:
    """Put the copy ``source`` in place of the SQLite database at ``url``.

    The copy is checked whole before the database is touched: SQLite's integrity
    check, its schema version (a newer one is refused), every table and column
    c8league needs (an older copy is upgraded first, in a file of its own), and its
    record's chain (:class:`CopyRefused` says what is wrong). The database it replaces
    (refused when it exists and ``force`` is not given) is kept beside it, named by
    :data:`KEPT`. Other processes see the old database or the copy, never a mix."""
    path = check_sqlite(url, "restore", source)
    if not source.is_file():
        raise UsageError(f"{source}: no such file")
    if path.exists() and path.resolve() == source.resolve():
        raise UsageError(f"{source} is the database itself")
    replacing = path.exists() and path.stat().st_size > 0
    if not path.parent.is_dir():
        raise UsageError(f"{path.parent} is not a folder (nothing was changed)")
    # The copy is checked (and upgraded) as a copy of its own beside the database: the
    # file given is only read, byte for byte.
    with tempfile.TemporaryDirectory(prefix=".c8league-restore-", dir=path.parent) as folder:
        staged = Path(folder) / "copy.db"
        try:
            shutil.copyfile(source, staged)
            if Path(f"{source}-wal").is_file():
                shutil.copyfile(f"{source}-wal", f"{staged}-wal")
        except OSError as exc:
            raise StorageError(f"cannot read {source}: {exc.strerror or exc}") from None
        contents = _examine(staged, source)
        if replacing and not force:
            raise UsageError(
                f"{describe_url(url)} exists: restoring replaces everything in it (it is "
                "kept beside it); add `force` to do so (nothing was changed)",
                params=["force"],
            )
        schema = _check_staged(source, staged)
        kept, readable = _keep(path, now or datetime.now(UTC)) if replacing else (None, True)
        if readable:
            try:
                _install(staged, path)
            except sqlite3.Error as exc:
                raise StorageError(f"cannot restore {source}: {exc}") from None
        else:
            # The database replaced is none SQLite can read (kept byte for byte): the copy
            # takes the place of its file.
            for suffix in ("-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            os.replace(staged, path)
    return Restored(contents, schema, kept)


def _install(staged: Path, path: Path) -> None:
    """Write the database ``staged`` into the one at ``path`` (made if need be) with
    SQLite's backup: another process sees the old database or the new, never a mix."""
    copy = sqlite3.connect(staged)
    try:
        target = sqlite3.connect(path, timeout=30)
        try:
            target.execute("PRAGMA journal_mode=WAL")
            copy.backup(target)
            target.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            target.close()
    finally:
        copy.close()


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """Copy the open database ``source`` to the new file ``target``, whole in one file."""
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
    finally:
        source.close()


def _examine(staged: Path, source: Path) -> Contents:
    """What the copy ``source`` (staged in a file of its own) holds; :class:`CopyRefused`
    for a file that is not a whole c8league database of this version or an older one."""
    with open(staged, "rb") as file:
        if not file.read(len(SQLITE_HEADER)).startswith(SQLITE_HEADER):
            raise CopyRefused(source, "foreign", detail="not a SQLite file")
    try:
        con = sqlite3.connect(staged)
    except sqlite3.Error as exc:
        raise CopyRefused(source, "damaged", detail=str(exc)) from None
    try:
        check = con.execute("PRAGMA integrity_check").fetchall()
        if [row[0] for row in check] != ["ok"]:
            raise CopyRefused(source, "damaged", detail=str(check[0][0]) if check else "")
        tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master")}
        if "meta" not in tables:
            raise CopyRefused(source, "foreign", detail="no meta table")
        row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        text = "" if row is None else str(row[0]).strip()
        if not text.isdigit() or len(text) > 9:
            raise CopyRefused(source, "damaged", detail="no schema version")
        if int(text) > SCHEMA_VERSION:
            raise CopyRefused(source, "newer", versions=(int(text), SCHEMA_VERSION))
        if int(text) == SCHEMA_VERSION:
            present = {
                table: {str(c[1]) for c in con.execute(f'PRAGMA table_info("{table}")')}
                for table in tables
            }
            missing = _missing(present)
            if missing:
                raise CopyRefused(source, "incomplete", missing=missing)
        return _contents(con, str(source))
    except sqlite3.DatabaseError as exc:
        raise CopyRefused(source, "damaged", detail=str(exc)) from None
    finally:
        con.close()


def _check_staged(source: Path, staged: Path) -> int:
    """Open the copy of ``source`` staged in a file of its own as c8league does (which
    upgrades an older one), and check it: every table and column a fresh database has,
    and its record's chain. Returns its schema version now."""
    try:
        db = open_database(str(staged), create=False)
    except C8LeagueError as exc:
        detail = (
            str(exc).replace(str(staged.absolute()), str(source)).replace(str(staged), str(source))
        )
        raise CopyRefused(source, "unusable", detail=detail) from None
    try:
        found = inspect(db.engine)
        missing = _missing(
            {
                table: {str(column["name"]) for column in found.get_columns(table)}
                for table in found.get_table_names()
            }
        )
        if missing:
            raise CopyRefused(source, "incomplete", missing=missing)
        with db.session() as session:
            verification = chain.verify(session.connection())
        if not verification.whole:
            raise CopyRefused(source, "changed", finding=verification.findings[0])
    finally:
        db.close()
    return SCHEMA_VERSION


def _missing(present: dict[str, set[str]]) -> tuple[str, ...]:
    """The tables and columns a fresh database has that are not ``present`` (the columns
    of each table, by table)."""
    missing: list[str] = []
    for table in SQLModel.metadata.sorted_tables:
        if table.name not in present:
            missing.append(f"table {table.name}")
            continue
        columns = present[table.name]
        missing += [f"{table.name}.{c.name}" for c in table.columns if c.name not in columns]
    return tuple(missing)


def _keep(path: Path, now: datetime) -> tuple[Path, bool]:
    """Copy the database at ``path`` beside it, under a name of :data:`KEPT`; whether
    SQLite could read it (one it cannot is kept byte for byte)."""
    stamp = now.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    kept = path.with_name(KEPT.format(name=path.name, time=stamp))
    number = 1
    while kept.exists():
        number += 1
        kept = path.with_name(KEPT.format(name=path.name, time=f"{stamp}-{number}"))
    try:
        _copy(sqlite3.connect(path, timeout=30), kept)  # whole, whatever writes meanwhile
        return kept, True
    except sqlite3.OperationalError as exc:  # busy, or the folder read-only: try again later
        kept.unlink(missing_ok=True)
        raise StorageError(f"cannot keep {path} as {kept}: {exc} (nothing was changed)") from None
    except sqlite3.DatabaseError:
        kept.unlink(missing_ok=True)
    try:  # a database SQLite cannot read (damaged): kept byte for byte, with its log
        shutil.copyfile(path, kept)
        if Path(f"{path}-wal").is_file():
            shutil.copyfile(f"{path}-wal", f"{kept}-wal")
    except OSError as exc:
        kept.unlink(missing_ok=True)
        raise StorageError(f"cannot keep {path} as {kept}: {exc.strerror or exc}") from None
    return kept, False


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
