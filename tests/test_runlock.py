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
