"""Reading many rows fast, through the database driver."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler


def fetch_rows(connection: Connection, query: ClauseElement) -> list[Any]:
    """All rows of ``query`` as tuples of the database driver's own values.

    The statement is compiled for the connection's dialect; skipping SQLAlchemy's row
    processing matters when a league has hundreds of thousands of seats. Meant for
    queries of plain integers, floats and strings (a driver may return other types,
    such as SQLite's dates, in its own form).
    """
    statement, args = _compiled(connection, query)
    return list(connection.exec_driver_sql(statement, args).all())


def fetch_driver_rows(connection: Connection, query: ClauseElement) -> list[tuple[Any, ...]]:
    """:func:`fetch_rows` without even SQLAlchemy's row objects: the driver's own tuples,
    for the largest reads (every seat of a league's history). A driver's error is raised
    as SQLAlchemy raises it (a ``DBAPIError``)."""
    statement, args = _compiled(connection, query)
    result = connection.exec_driver_sql(statement, args)
    dbapi = connection.dialect.loaded_dbapi
    try:
        return cast(list[tuple[Any, ...]], result.cursor.fetchall())
    except dbapi.Error as exc:
        raise DBAPIError.instance(
            statement, args, exc, dbapi.Error, dialect=connection.dialect
        ) from exc
    finally:
        result.close()


def _compiled(connection: Connection, query: ClauseElement) -> tuple[str, Any]:
    """``query`` compiled for the connection's dialect: its text and its parameters."""
    compiled = cast(
        SQLCompiler,
        query.compile(dialect=connection.dialect, compile_kwargs={"render_postcompile": True}),
    )
    params = compiled.construct_params()
    args: Any = (
        tuple(params[name] for name in compiled.positiontup or ())
        if compiled.positional
        else params
    )
    return compiled.string, args
