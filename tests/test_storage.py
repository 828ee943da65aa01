"""Opening databases: creation, schema versions, upgrades, concurrent processes.

Each test runs against SQLite and against PostgreSQL (when ``C8LEAGUE_TEST_PG_URL``
names a server, see ``conftest.py``).
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from dbs import execute, load_old_schema, player_names, query, schema_of

from c8league.errors import StorageError
from c8league.storage import open_database, resolve_url
from c8league.storage.models import SCHEMA_VERSION

FIXTURES = Path(__file__).parent / "fixtures"


def version_of(url: str) -> int:
    (row,) = query(url, "SELECT value FROM meta WHERE key = 'schema_version'")
    return int(str(row[0]))


def test_fresh_database_is_stamped(db_url: str) -> None:
    open_database(db_url).close()
    assert version_of(db_url) == SCHEMA_VERSION
    if db_url.startswith("sqlite"):
        con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("schema_v*.sql")), ids=lambda p: p.stem)
def test_upgraded_schema_equals_fresh(
    db_kind: str, new_database: Callable[[str], str], tmp_path: Path, fixture: Path
) -> None:
    old, fresh = new_database(db_kind), new_database(db_kind)
    load_old_schema(old, fixture, tmp_path)
    open_database(old).close()
    open_database(fresh).close()
    assert schema_of(old) == schema_of(fresh)
    assert version_of(old) == SCHEMA_VERSION


def test_newer_database_is_refused_untouched(db_url: str) -> None:
    open_database(db_url).close()
    execute(db_url, f"UPDATE meta SET value = '{SCHEMA_VERSION + 1}' WHERE key = 'schema_version'")
    path = Path(db_url.removeprefix("sqlite:///"))
    before = (schema_of(db_url), query(db_url, "SELECT * FROM meta ORDER BY 1"))
    raw = path.read_bytes() if db_url.startswith("sqlite") else b""
    with pytest.raises(StorageError, match="newer than this c8league understands"):
        open_database(db_url)
    assert (schema_of(db_url), query(db_url, "SELECT * FROM meta ORDER BY 1")) == before
    if db_url.startswith("sqlite"):
        assert path.read_bytes() == raw


def test_foreign_database_is_refused(db_url: str) -> None:
    execute(db_url, "CREATE TABLE things (x INTEGER)")
    with pytest.raises(StorageError, match="not a c8league database"):
        open_database(db_url)


def test_bad_url_is_a_storage_error() -> None:
    with pytest.raises(StorageError, match="cannot open database"):
        open_database("nosuchdialect://x/y")


def test_resolve_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("C8LEAGUE_DB", raising=False)
    assert resolve_url(None) == "sqlite:///c8league.db"
    assert resolve_url("x.db") == "sqlite:///x.db"
    monkeypatch.setenv("C8LEAGUE_DB", "postgresql://u@h/db")
    assert resolve_url(None) == "postgresql://u@h/db"
    assert resolve_url("sqlite:///y.db") == "sqlite:///y.db"


WRITER = """
import sys
from c8league.storage import open_database
from c8league.storage.models import Entrant
db = open_database(sys.argv[1])
for i in range(int(sys.argv[3])):
    with db.session() as s:
        s.add(Entrant(name=f"{sys.argv[2]}-{i}", kind="person"))
        s.commit()
"""


def test_two_processes_write_at_once(db_url: str) -> None:
    open_database(db_url).close()
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, db_url, tag, "150"]) for tag in ("a", "b")
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    assert len(player_names(db_url)) == 300
