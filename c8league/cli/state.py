"""Options shared by every command (the database URL), set by the root callback."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from c8league.storage import Database

db_option: str | None = None


def database(*, create: bool = True) -> Database:
    """The database named by ``--db``, ``$C8LEAGUE_DB`` or ``c8league.db``."""
    from c8league.storage import open_database

    return open_database(db_option, create=create)
