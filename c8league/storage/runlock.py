"""One run of an event at a time, across processes.

``event run``/``event resume`` hold their event's run lock while they pair and play,
so a second run of the same event (a second terminal, a scheduled job) stops at once
with a one-line error instead of playing the same matches and storing them twice.
Runs of different events, of one league or not, go on side by side: their results
take sequence numbers in the order they are written (see ``storage.results``).

The lock belongs to the process and goes when it ends, however it ends (``kill -9``
included): on SQLite an operating-system lock (``flock`` on POSIX, ``LockFileEx`` on
Windows, through the filelock package) on the event's file in ``<database>.locks/``;
on PostgreSQL a session advisory lock on a connection of its own. An in-memory SQLite
database has no other process to fear and takes no lock.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import filelock
from sqlalchemy import make_url, text

from c8league.errors import BusyError
from c8league.storage.database import Database, safe_url

#: First key of the two-key advisory locks on PostgreSQL (the second is the event id),
#: by the kind of run: events and duels.
PG_LOCK_CLASS = 0x6338
PG_LOCK_CLASSES = {"event": PG_LOCK_CLASS, "duel": PG_LOCK_CLASS + 1}


@contextmanager
def event_run_lock(db: Database, event_id: int, event: str, kind: str = "event") -> Iterator[None]:
    """Hold ``event``'s run lock for the ``with`` block; raise :class:`BusyError` if
    another process (or another run in this one) holds it. ``kind`` ``duel`` locks a
    duel (by its id) instead."""
    if not db.is_sqlite:
        with _advisory_lock(db, event_id, event, kind):
            yield
        return
    path = _sqlite_file(db.url)
    if path is None:
        yield
        return
    with _file_lock(path, event_id, event, kind):
        yield


def _sqlite_file(url: str) -> Path | None:
    database = make_url(url).database
    if not database or database == ":memory:" or "mode=memory" in url:
        return None
    if database.startswith("file:"):  # a URI filename (``?uri=true``)
        database = database.removeprefix("file:").split("?", 1)[0]
    return Path(database)


def _busy(event: str, where: str, kind: str) -> BusyError:
    return BusyError(
        f"{kind} {event!r} is being run by another process ({where}): wait for it to "
        f"finish, or stop it (a stopped run goes on with `c8league {kind} resume`)"
    )


@contextmanager
def _file_lock(database: Path, event_id: int, event: str, kind: str) -> Iterator[None]:
    folder = database.with_name(database.name + ".locks")
    folder.mkdir(exist_ok=True)
    # A lock object of its own each time (no thread-local reuse), so a second run of the
    # same event in this process is refused like one in another process.
    lock = filelock.FileLock(folder / f"{kind}-{event_id}.lock", thread_local=False)
    try:
        lock.acquire(timeout=0)
    except filelock.Timeout:
        raise _busy(event, str(database), kind) from None
    try:
        yield
    finally:
        lock.release()


@contextmanager
def _advisory_lock(db: Database, event_id: int, event: str, kind: str) -> Iterator[None]:
    keys: dict[str, Any] = {"cls": PG_LOCK_CLASSES[kind], "event": event_id}
    conn = db.engine.connect()
    try:
        if not conn.execute(text("SELECT pg_try_advisory_lock(:cls, :event)"), keys).scalar():
            raise _busy(event, safe_url(db.url), kind)
        conn.commit()
        try:
            yield
        finally:
            try:
                conn.execute(text("SELECT pg_advisory_unlock(:cls, :event)"), keys)
                conn.commit()
            except Exception:
                conn.invalidate()  # closing the server session releases the lock
    finally:
        conn.close()
