"""Copies of the database for ``c8league backup``, ``restore`` and ``copy``: a SQLite
file copied while other commands write to it, and a copy put back (upgraded by opening
it, as any older database is), checked whole before it replaces anything, and the
database it replaces kept beside it. A database on a server is backed up with the
server's own tools, which the refusal names; ``copy`` moves a whole database between
SQLite and a server, row by row.

The copying itself is storage's (``c8league.storage.backup``: it reads the file with
SQLite; ``c8league.storage.copying``: row by row); the command line calls these
functions, and reaches storage only through ``c8league.storage.database``.
"""

from __future__ import annotations

from pathlib import Path

from c8league.findings import CopyRefused
from c8league.storage import backup as copies
from c8league.storage import copying
from c8league.storage.backup import Contents, Restored
from c8league.storage.copying import Copied
from c8league.storage.database import Database

__all__ = [
    "Contents",
    "Copied",
    "CopyRefused",
    "Restored",
    "backup",
    "check_copyable",
    "copy",
    "restore",
]


def check_copyable(url: str, what: str, file: Path | None = None) -> None:
    """Refuse, before anything is opened, a database that is not a SQLite file, saying
    how to copy it (``what``: the command refused; ``file``: the copy it was given)."""
    copies.check_sqlite(url, what, file)


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


def copy(source: Database, target: str, *, force: bool) -> Copied:
    """Copy the whole database ``source`` into the database at ``target`` (a SQLite file
    or a server's URL), made if need be: every row, the record's chain included, in one
    transaction, compared with the source before it commits. A target holding a c8league
    database already is refused unless ``force`` (its rows are then replaced)."""
    return copying.copy_database(source, target, force=force)
