"""A whole database copied into another, of either kind: a SQLite file into a
PostgreSQL database and back. The target's schema is made (or upgraded) as opening
any database makes it; then every row of every table, the record's chain included, is
written in one transaction, read from one consistent view of the source. Before that
transaction commits, the target is read back and compared with the source, table by
table: the count of rows and a digest of them.

The rows are copied as they are, ids and times included, and nothing is added: the
record's chain of the copy is the source's, with the same head (``c8league verify``).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Table, create_engine, func, inspect, text
from sqlalchemy import select as sa_select
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlmodel import SQLModel

from c8league.errors import StorageError, UsageError
from c8league.storage import postgres
from c8league.storage.database import (
    Database,
    describe_url,
    is_in_memory,
    open_database,
    resolve_url,
    safe_url,
    sqlite_path,
)

BATCH = 2_000
"""Rows read and written at a time."""

_MODULUS = 2**256


@dataclass(frozen=True)
class TableCopied:
    """One table of a copy: its rows, and their digest (the same on either database:
    see :func:`row_digest`)."""

    name: str
    rows: int
    digest: str


@dataclass(frozen=True)
class Copied:
    """What :func:`copy_database` did: where from and to (as messages name them), what
    the copy holds (leagues, events and results done), each table's rows, and the
    digest of the whole copy, the same for the source and the target."""

    source: str
    target: str
    leagues: int
    events: int
    results: int
    tables: tuple[TableCopied, ...]
    digest: str
    replaced: bool
    """Whether the target held a database that the copy replaced."""

    @property
    def rows(self) -> int:
        return sum(table.rows for table in self.tables)


@dataclass(frozen=True)
class Held:
    """What a target holds before a copy: its rows (outside ``meta``), and how many
    leagues, events and results done of them."""

    rows: int
    leagues: int
    events: int
    results: int


def copy_database(source: Database, target_url: str, *, force: bool = False) -> Copied:
    """Copy every row of ``source`` into the database at ``target_url`` (a SQLite file
    or any SQLAlchemy URL, as ``--db`` takes), made if need be.

    A target that holds rows already (a c8league database with anything in it) is
    refused unless ``force``, before anything is written; with ``force`` its rows are
    replaced, in the same transaction. A target that is not a c8league database, or one
    from a newer c8league, is refused as opening it refuses it. The copy is one
    transaction, compared with the source before it commits: on any difference, or any
    error, the target is left as it was."""
    target_url = resolve_url(target_url)
    if is_in_memory(target_url):
        raise UsageError(
            f"{target_url} is a database in memory, gone when the command ends: name a file "
            "or a server"
        )
    if _same(source.url, target_url):
        raise UsageError(f"{describe_url(target_url)} is the database copied itself")
    held = holds(target_url)
    if held is not None and held.rows and not force:
        raise UsageError(
            f"{describe_url(target_url)} holds a c8league database already ({held.leagues} "
            f"league{_s(held.leagues)}, {held.events} event{_s(held.events)}, {held.results} "
            f"result{_s(held.results)}): copying replaces everything in it; add `force` to do "
            "so (nothing was changed)",
            params=["force"],
        )
    target = open_database(target_url, create=True)
    try:
        with _snapshot(source) as reading:
            copied = _copy(
                reading, source.url, target, replacing=held is not None and held.rows > 0
            )
    finally:
        target.close()
    return copied


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def _same(one: str, other: str) -> bool:
    first, second = sqlite_path(one), sqlite_path(other)
    if first is not None and second is not None:
        return first.absolute() == second.absolute() or (
            first.exists() and second.exists() and first.samefile(second)
        )
    return safe_url(postgres.engine_url(one)) == safe_url(postgres.engine_url(other))


def holds(url: str) -> Held | None:
    """What the database at ``url`` holds, read without writing to it: None when there
    is nothing to read (no file, an empty one, a server database without c8league's
    tables) or when it is not a database this can read (opening it then says why)."""
    path = sqlite_path(url)
    if path is not None:
        return _sqlite_holds(path)
    try:
        postgres.require_driver(postgres.engine_url(url))
        engine = create_engine(postgres.engine_url(url))
    except (ArgumentError, ModuleNotFoundError) as exc:
        raise StorageError(f"cannot open database {safe_url(url)}: {exc}") from None
    try:
        with engine.connect() as conn:
            tables = set(inspect(conn).get_table_names())
            return _held(tables, lambda sql: int(conn.execute(text(sql)).scalar_one()))
    except SQLAlchemyError as exc:
        raise StorageError(
            f"cannot open database {safe_url(url)}: {exc.__class__.__name__}: "
            f"{str(exc).splitlines()[0]}"
        ) from None
    finally:
        engine.dispose()


def _sqlite_holds(path: Path) -> Held | None:
    try:
        if not path.is_file() or path.stat().st_size == 0:
            return None
        con = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    except (OSError, sqlite3.Error):
        return None
    try:
        tables = {
            str(name)
            for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        return _held(tables, lambda sql: int(con.execute(sql).fetchone()[0]))
    except sqlite3.Error:
        return None
    finally:
        con.close()


def _held(tables: set[str], count: Any) -> Held | None:
    ours = [name for name in SQLModel.metadata.tables if name in tables and name != "meta"]
    if not ours:
        return None
    rows = sum(count(f'SELECT COUNT(*) FROM "{name}"') for name in ours)

    def of(name: str, where: str = "") -> int:
        return int(count(f'SELECT COUNT(*) FROM "{name}"{where}')) if name in tables else 0

    return Held(rows, of("league"), of("event"), of("match", " WHERE status = 'done'"))


@contextmanager
def _snapshot(db: Database) -> Iterator[Connection]:
    """A connection to ``db`` that reads one consistent state of it, whatever other
    processes write meanwhile."""
    with db.engine.connect() as conn:
        if db.is_sqlite:
            conn.exec_driver_sql("BEGIN")
        elif conn.dialect.name == "postgresql":
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        try:
            yield conn
        finally:
            conn.rollback()


def _copy(reading: Connection, source_url: str, target: Database, *, replacing: bool) -> Copied:
    tables = SQLModel.metadata.sorted_tables
    try:
        with target.engine.begin() as writing:
            if target.is_sqlite:
                writing.exec_driver_sql("BEGIN IMMEDIATE")
            for table in reversed(tables):
                writing.execute(table.delete())
            copied: list[TableCopied] = []
            for table in tables:
                rows, digest = _copy_table(reading, writing, table)
                copied.append(TableCopied(table.name, rows, digest))
            if writing.dialect.name == "postgresql":
                _advance_sequences(writing, tables)
            found = tuple(_table_digest(writing, table) for table in tables)
            if found != tuple(copied):
                differing = next(
                    mine.name for mine, theirs in zip(copied, found, strict=True) if mine != theirs
                )
                raise StorageError(
                    f"the copy in {describe_url(target.url)} differs from its source in the "
                    f"table {differing}: nothing was changed"
                )
            counts = {
                name: int(writing.execute(sa_select(func.count()).select_from(table)).scalar_one())
                for name, table in (
                    ("league", _table("league")),
                    ("event", _table("event")),
                )
            }
            match = _table("match")
            results = int(
                writing.execute(
                    sa_select(func.count()).select_from(match).where(match.c.status == "done")
                ).scalar_one()
            )
    except SQLAlchemyError as exc:
        raise StorageError(
            f"cannot copy into {describe_url(target.url)}: {exc.__class__.__name__}: "
            f"{str(exc).splitlines()[0]} (nothing was changed)"
        ) from None
    return Copied(
        source=describe_url(source_url),
        target=describe_url(target.url),
        leagues=counts["league"],
        events=counts["event"],
        results=results,
        tables=tuple(copied),
        digest=_whole(copied),
        replaced=replacing,
    )


def _table(name: str) -> Table:
    return SQLModel.metadata.tables[name]


def _ordered(table: Table) -> Any:
    return table.select().order_by(*table.primary_key.columns)


def _copy_table(reading: Connection, writing: Connection, table: Table) -> tuple[int, str]:
    result = reading.execution_options(yield_per=BATCH).execute(_ordered(table))
    count, total = 0, 0
    for part in result.mappings().partitions():
        rows = [dict(row) for row in part]
        writing.execute(table.insert(), rows)
        count += len(rows)
        total = (total + sum(row_digest(table, row) for row in rows)) % _MODULUS
    return count, f"{total:064x}"


def _table_digest(conn: Connection, table: Table) -> TableCopied:
    result = conn.execution_options(yield_per=BATCH).execute(_ordered(table))
    count, total = 0, 0
    for part in result.mappings().partitions():
        count += len(part)
        total = (total + sum(row_digest(table, dict(row)) for row in part)) % _MODULUS
    return TableCopied(table.name, count, f"{total:064x}")


def row_digest(table: Table, row: Mapping[str, Any]) -> int:
    """A row's SHA-256 (as a number) over its values as either database reads them
    back: a time in UTC to the microsecond, a flag as 0 or 1, binary data as its hex. A
    table's digest is the sum of its rows' (whatever order they are read in)."""
    values = [_plain(row[column.name]) for column in table.columns]
    data = json.dumps([table.name, values], separators=(",", ":"), ensure_ascii=False)
    return int.from_bytes(hashlib.sha256(data.encode()).digest(), "big")


def _plain(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(UTC).replace(tzinfo=None)
        return value.isoformat(sep=" ", timespec="microseconds")
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    if isinstance(value, float):
        return repr(value)
    return value


def _whole(tables: list[TableCopied]) -> str:
    lines = "".join(f"{t.name} {t.rows} {t.digest}\n" for t in tables)
    return hashlib.sha256(lines.encode()).hexdigest()


def _advance_sequences(conn: Connection, tables: list[Table]) -> None:
    """Set each id sequence past the ids copied, so that the next row written gets the
    next id, as on the source."""
    for table in tables:
        column = table.c.get("id")
        if column is None or not column.primary_key or column.autoincrement is False:
            continue
        sequence = conn.execute(
            text("SELECT pg_get_serial_sequence(:table, 'id')"), {"table": f'"{table.name}"'}
        ).scalar()
        if sequence is None:
            continue
        highest = conn.execute(sa_select(func.max(column))).scalar()
        conn.execute(
            text("SELECT setval(:sequence, :value, :called)"),
            {"sequence": sequence, "value": highest or 1, "called": highest is not None},
        )
