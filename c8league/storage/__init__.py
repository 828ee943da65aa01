"""Storage: SQLModel tables, opening a database (SQLite by default, any SQLAlchemy URL),
schema migrations, and one module per kind of record (leagues, rounds, results,
ratings, audit) that holds every query. Only the process that owns the database writes
to it; the rest of c8league calls these modules and never builds a query itself.

``Session`` is re-exported for the type of the functions that work inside a caller's
transaction (``with db.session() as s:`` or ``with db.writing() as s:``).
"""

from sqlmodel import Session

from c8league.storage.database import DEFAULT_URL, Database, open_database, resolve_url

__all__ = ["DEFAULT_URL", "Database", "Session", "open_database", "resolve_url"]
