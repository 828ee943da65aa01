"""The event run lock on SQLite, within one process (the cross-process cases, on both
databases, are in test_postgres.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from c8league.errors import BusyError
from c8league.storage import open_database
from c8league.storage.runlock import event_run_lock

TRY = """
import sys
from c8league.errors import BusyError
from c8league.storage import open_database
from c8league.storage.runlock import event_run_lock
try:
    with event_run_lock(open_database(sys.argv[1]), int(sys.argv[2]), "e"):
        print("got it")
except BusyError:
    print("busy")
"""


def other_process_gets(url: str, event_id: int) -> bool:
    done = subprocess.run(
        [sys.executable, "-c", TRY, url, str(event_id)], capture_output=True, text=True, check=True
    )
    return done.stdout.strip() == "got it"


def test_a_held_event_stays_held_whatever_else_this_process_locks(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'league.db'}"
    db = open_database(url)
    try:
        with event_run_lock(db, 1, "a"):
            busy = pytest.raises(BusyError, match="event 'a' is being run by another process")
            with busy, event_run_lock(db, 1, "a"):
                pass
            with event_run_lock(db, 2, "b"):
                assert not other_process_gets(url, 2)
            # Releasing b closed nothing that a needs.
            assert not other_process_gets(url, 1)
            assert other_process_gets(url, 2)
        assert other_process_gets(url, 1)
    finally:
        db.close()


def test_an_in_memory_database_takes_no_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No other process can see an in-memory database: a second run of the same event
    # in this process is not refused, and no lock file is written anywhere.
    monkeypatch.chdir(tmp_path)
    db = open_database("sqlite://")
    try:
        with event_run_lock(db, 1, "a"), event_run_lock(db, 1, "a"):
            held = True
    finally:
        db.close()
    assert held
    assert list(tmp_path.iterdir()) == []


def test_a_stop_during_the_write_lock_goes_through_as_itself(tmp_path: Path) -> None:
    """Ctrl-C or SIGTERM (an exception raised in the middle of the statement that takes
    the write lock, as a signal handler raises it) reaches the caller as itself: the
    connection it leaves to be rolled back is not used again on the way out (that
    raised SQLAlchemy's PendingRollbackError in its place, a traceback)."""
    from sqlalchemy import event

    db = open_database(str(tmp_path / "lock.db"), create=True)

    def stop(conn: object, cursor: object, statement: str, *args: object) -> None:
        if statement.startswith("UPDATE meta"):
            raise KeyboardInterrupt

    event.listen(db.engine, "before_cursor_execute", stop)
    try:
        with pytest.raises(KeyboardInterrupt), db.writing(wait=None):
            pass
    finally:
        event.remove(db.engine, "before_cursor_execute", stop)
    with db.writing(wait=None):  # and the database takes writers as before
        pass
    db.close()
