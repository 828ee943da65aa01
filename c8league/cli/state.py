"""Options shared by every command (the database URL), set by the root callback."""

from __future__ import annotations

from c8league.storage import Database, open_database

db_option: str | None = None


def database(*, create: bool = True) -> Database:
    """The database named by ``--db``, ``$C8LEAGUE_DB`` or ``c8league.db``."""
    return open_database(db_option, create=create)
