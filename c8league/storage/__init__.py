"""Storage: SQLModel tables, opening a database (SQLite by default, any SQLAlchemy URL),
and schema migrations. Only the process that owns the database writes to it."""

from c8league.storage.database import DEFAULT_URL, Database, open_database, resolve_url

__all__ = ["DEFAULT_URL", "Database", "open_database", "resolve_url"]
