"""Opening databases: creation, schema versions, upgrades, concurrent processes."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import inspect

from c8league.errors import StorageError
from c8league.storage import open_database, resolve_url
from c8league.storage.models import SCHEMA_VERSION

FIXTURES = Path(__file__).parent / "fixtures"


def schema_of(path: Path) -> dict[str, object]:
    db = open_database(str(path))
    insp = inspect(db.engine)
    schema: dict[str, object] = {}
    for table in sorted(insp.get_table_names()):
        schema[table] = {
            "columns": [
                (c["name"], str(c["type"]), c["nullable"], c.get("primary_key"))
                for c in insp.get_columns(table)
            ],
            "indexes": sorted(
                (i["name"], tuple(i["column_names"]), bool(i["unique"]))
                for i in insp.get_indexes(table)
            ),
            "unique": sorted(
                (u["name"], tuple(u["column_names"])) for u in insp.get_unique_constraints(table)
            ),
            "foreign_keys": sorted(
                (tuple(f["constrained_columns"]), f["referred_table"])
                for f in insp.get_foreign_keys(table)
            ),
        }
    db.close()
    return schema


def test_fresh_database_is_stamped(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    open_database(str(path)).close()
    con = sqlite3.connect(path)
    (version,) = con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    assert int(version) == SCHEMA_VERSION
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("schema_v*.sql")))
def test_upgraded_schema_equals_fresh(tmp_path: Path, fixture: Path) -> None:
    old = tmp_path / "old.db"
    con = sqlite3.connect(old)
    con.executescript(fixture.read_text())
    con.commit()
    con.close()
    fresh = tmp_path / "fresh.db"
    assert schema_of(old) == schema_of(fresh)
    con = sqlite3.connect(old)
    (version,) = con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    assert int(version) == SCHEMA_VERSION


def test_newer_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    open_database(str(path)).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION + 1,))
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(StorageError, match="newer than this c8league understands"):
        open_database(str(path))
    assert path.read_bytes() == before


def test_foreign_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE things (x INTEGER)")
    con.commit()
    con.close()
    with pytest.raises(StorageError, match="not a c8league database"):
        open_database(str(path))


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


def test_two_processes_write_at_once(tmp_path: Path) -> None:
    path = tmp_path / "busy.db"
    open_database(str(path)).close()
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag, "150"])
        for tag in ("a", "b")
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    con = sqlite3.connect(path)
    assert con.execute("SELECT count(*) FROM entrant").fetchone()[0] == 300
