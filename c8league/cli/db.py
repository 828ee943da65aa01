"""Opening the database a command works on: the one named by ``--db`` (``state``)."""

from __future__ import annotations

import logging

from rich.markup import escape

from c8league import integrity
from c8league.cli import record_words, state
from c8league.cli.output import err
from c8league.errors import UsageError
from c8league.storage.database import Database, is_in_memory, open_database, resolve_url


def database(*, create: bool = False, read_only: bool = False) -> Database:
    """The database named by ``--db``, ``$C8LEAGUE_DB`` or ``c8league.db``. Only the
    commands that make a database (``init``, ``league import``) pass ``create``; any
    other, given a database that does not exist, stops with a line naming where it
    looked. The commands that only read pass ``read_only``: a SQLite file is then
    opened for reading only, and left byte for byte as it was."""
    db_option = state.db_option
    if is_in_memory(resolve_url(db_option)):
        raise UsageError(
            f"--db {db_option or resolve_url(None)} is a database in memory, gone when the "
            "command ends: name a file (--db league.db) or a server"
        )
    # Libraries' own log records (SQLAlchemy logs a cursor it could not close after an
    # interrupt, with its traceback) are not for the user: errors reach the user as
    # exceptions, turned into one line by c8league.cli.main.
    logging.getLogger("sqlalchemy").addHandler(logging.NullHandler())
    db = open_database(db_option, create=create, read_only=read_only)
    db.on_wait = _say_waiting
    state.opened.append(db)
    return db


def _say_waiting(message: str) -> None:
    err.print(f"{message}…", style="yellow", highlight=False, markup=False)


def warn_if_changed(db: Database, *, league: str | None = None, event: str | None = None) -> None:
    """One line on stderr when the records of the league (named, that of ``event``, or
    the only one) are not as c8league wrote them (``c8league.integrity.check``)."""
    looked = integrity.check(db, league=league, event=event)
    if not looked.verification.whole:
        line = record_words.warning(looked.verification, looked.league)
        err.print(f"[yellow]warning:[/] {escape(line)}", highlight=False)
