"""Options shared by every command (the database URL), set by the root callback."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from c8league.cli.output import err
from c8league.errors import UsageError
from c8league.interrupts import deferred_interrupts
from c8league.storage import open_database
from c8league.storage.database import is_in_memory, resolve_url

if TYPE_CHECKING:
    from c8league.storage import Database

db_option: str | None = None
opened: list[Database] = []
"""The databases this command opened, closed by :func:`close_all` however it ends."""


def database(*, create: bool = False) -> Database:
    """The database named by ``--db``, ``$C8LEAGUE_DB`` or ``c8league.db``. Only the
    commands that make a database (``init``, ``league import``) pass ``create``; any
    other, given a database that does not exist, stops with a line naming where it
    looked."""

    if is_in_memory(resolve_url(db_option)):
        raise UsageError(
            f"--db {db_option or resolve_url(None)} is a database in memory, gone when the "
            "command ends: name a file (--db league.db) or a server"
        )
    # Libraries' own log records (SQLAlchemy logs a cursor it could not close after an
    # interrupt, with its traceback) are not for the user: errors reach the user as
    # exceptions, turned into one line by c8league.cli.main.
    logging.getLogger("sqlalchemy").addHandler(logging.NullHandler())
    db = open_database(db_option, create=create)
    db.on_wait = _say_waiting
    opened.append(db)
    return db


def close_all() -> None:
    """Close the databases the command opened: every connection, and on SQLite the
    write-ahead log folded into the database file, so that the file alone is whole
    between commands. Ctrl-C meanwhile waits until this is done."""

    with deferred_interrupts():
        while opened:
            opened.pop().close()


def _say_waiting(message: str) -> None:
    err.print(f"{message}…", style="yellow", highlight=False, markup=False)
