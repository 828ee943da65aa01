"""Reading many rows fast, through the database driver."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Connection
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler


def fetch_rows(connection: Connection, query: ClauseElement) -> list[Any]:
    """All rows of ``query`` as tuples of the database driver's own values.

    The statement is compiled for the connection's dialect; skipping SQLAlchemy's row
    processing matters when a league has hundreds of thousands of seats. Meant for
    queries of plain integers, floats and strings (a driver may return other types,
    such as SQLite's dates, in its own form).
    """
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
    return list(connection.exec_driver_sql(compiled.string, args).all())
