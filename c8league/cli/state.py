"""Options shared by every command (the database URL), set by the root callback, and
the databases the command opened (``c8league.cli.db`` opens them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from c8league.interrupts import deferred_interrupts

if TYPE_CHECKING:
    from c8league.storage.database import Database

db_option: str | None = None
opened: list[Database] = []
"""The databases this command opened, closed by :func:`close_all` however it ends."""


def close_all() -> None:
    """Close the databases the command opened: every connection, and on SQLite the
    write-ahead log folded into the database file, so that the file alone is whole
    between commands. Ctrl-C meanwhile waits until this is done."""
    with deferred_interrupts():
        while opened:
            opened.pop().close()
