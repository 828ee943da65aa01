"""Copies of the database for ``c8league backup`` and ``restore``: a SQLite file copied
while other commands write to it, and a copy put back (upgraded by opening it, as any
older database is), checked whole before it replaces anything, and the database it
replaces kept beside it. A database on a server is copied with the server's own tools,
which the refusal names.

The copying itself is storage's (``c8league.storage.backup``: it reads the file with
SQLite); the command line calls these functions, and reaches storage only through
``c8league.storage.database``.
"""

from __future__ import annotations

from pathlib import Path

from c8league.findings import CopyRefused
from c8league.storage import backup as copies
from c8league.storage.backup import Contents, Restored
from c8league.storage.database import Database

__all__ = ["Contents", "CopyRefused", "Restored", "backup", "check_copyable", "restore"]


def check_copyable(url: str, what: str) -> None:
    """Refuse, before anything is opened, a database that is not a SQLite file, saying
    how to copy it (``what``: the command refused)."""
    copies.check_sqlite(url, what)


def backup(db: Database, target: Path) -> Contents:
    """Copy the database ``db`` to the new file ``target``, consistent whatever other
    processes write meanwhile, and whole in one file."""
    return copies.backup(db, target)


def restore(url: str, source: Path, *, force: bool) -> Restored:
    """Put the copy ``source`` in place of the database at ``url`` (``force``: replace
    one that exists, which is kept beside it), once it is checked whole: a damaged copy,
    one from a newer c8league, one that lacks what c8league needs or whose record was
    changed outside c8league is refused (:class:`CopyRefused`), and the database is
    left as it was. An older copy is upgraded."""
    return copies.restore(url, source, force=force)
