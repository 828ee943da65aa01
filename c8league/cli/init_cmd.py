"""``c8league init``: create (or upgrade) the database."""

from __future__ import annotations

from c8league.cli.db import database
from c8league.cli.output import err
from c8league.storage.database import SCHEMA_VERSION, safe_url


def init() -> None:
    """Create the database (SQLite file c8league.db by default), or upgrade an older one."""
    db = database(create=True)
    err.print(f"database ready: {safe_url(db.url)} (schema version {SCHEMA_VERSION})")
