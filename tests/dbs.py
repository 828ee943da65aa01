"""Helpers for tests that run against SQLite and PostgreSQL alike: creating and dropping
test databases, reading a database's schema and results, loading an older schema; and
reading an event's state, its matches and the players as the commands read them (through
the library, not SQL: a test checks what a user is shown)."""

from __future__ import annotations

import sqlite3
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import BigInteger, MetaData, create_engine, inspect, make_url, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from c8league.errors import C8LeagueError
from c8league.events.status import EventStatus, event_status
from c8league.league.reading import list_players
from c8league.ratings.update import record_results
from c8league.reports.games import Game, read_game
from c8league.results import Forfeit, HandReport, Result
from c8league.storage import chain, open_database, postgres
from c8league.storage.database import SQLITE_HEADER
from c8league.storage.models import SCHEMA_VERSION

PG_ENV = "C8LEAGUE_TEST_PG_URL"

BOT_ENTRANTS = """
[[entrants]]
name = "G1"
bot = "greedy"
[[entrants]]
name = "G2"
bot = "greedy"
[[entrants]]
name = "R1"
bot = "random"
[[entrants]]
name = "R2"
bot = "random"
options = { playable_first = true }
[[entrants]]
name = "R3"
bot = "random"
"""
"""Five built-in bots (two greedy, three random) as league-file entrants."""


def safe_url(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def engine(url: str) -> Engine:
    """A plain SQLAlchemy engine on ``url`` (psycopg 3 for ``postgresql://``)."""
    return create_engine(postgres.engine_url(url))


def create_pg_database(server: str) -> str:
    """Create an empty database on the server and return its URL."""
    name = f"c8test_{uuid.uuid4().hex[:16]}"
    admin = create_engine(postgres.engine_url(server), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return make_url(server).set(database=name).render_as_string(hide_password=False)


def drop_pg_database(server: str, url: str) -> None:
    """Drop the test database ``url``: no new connection is let in, the test's own are
    ended, then the database is dropped. The server may still count a session on it
    for a while (an autovacuum worker told to stop, a backend still ending on a loaded
    machine: "being accessed by other users"), so the drop is tried again until it
    succeeds, for up to a minute."""
    name = make_url(url).database
    admin = create_engine(postgres.engine_url(server), isolation_level="AUTOCOMMIT")
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                with admin.connect() as conn:
                    conn.execute(text(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false'))
                    conn.execute(
                        text(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            "WHERE datname = :name AND pid <> pg_backend_pid() "
                            "AND usename = current_user"
                        ),
                        {"name": name},
                    )
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
                return
            except DBAPIError as exc:
                if "does not exist" in str(exc.orig):
                    return
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
    finally:
        admin.dispose()


def event_state(url: str, event: str = "ev") -> EventStatus:
    """The event as ``event status`` reads it: rounds, matches done, void, forfeits."""
    database = open_database(url, create=False)
    try:
        return event_status(database, event)
    finally:
        database.close()


def matches_done(url: str, event: str = "ev") -> int:
    """The matches of ``event`` stored done."""
    return event_state(url, event).matches_done


def games(url: str, event: str = "ev") -> list[Game]:
    """Every match of ``event``, the one event of the database, as ``match show`` reads
    it, in the order stored (for a duplicate event, each table's deals in turn)."""
    total = event_state(url, event).matches_total
    database = open_database(url, create=False)
    try:
        return [read_game(database, str(number)) for number in range(1, total + 1)]
    finally:
        database.close()


def players(url: str) -> dict[str, dict[str, Any]]:
    """The players registered, by name, as ``players list --json`` shows them."""
    database = open_database(url, create=False)
    try:
        return {player["name"]: player for player in list_players(database)}
    finally:
        database.close()


def player_names(url: str) -> list[str]:
    """The players registered, as ``players list`` names them."""
    return list(players(url))


def matches_done_meanwhile(url: str, event: str = "ev") -> int:
    """The matches of ``event`` stored done so far by a run in another process: 0 while
    the database cannot be read (the run is making it, or holds it a moment)."""
    try:
        return matches_done(url, event)
    except (C8LeagueError, DBAPIError):
        return 0


def query(url: str, sql: str, **params: object) -> list[tuple[object, ...]]:
    eng = engine(url)
    try:
        with eng.connect() as conn:
            return [tuple(row) for row in conn.execute(text(sql), params)]
    finally:
        eng.dispose()


def execute(url: str, *statements: str) -> None:
    eng = engine(url)
    try:
        with eng.begin() as conn:
            for sql in statements:
                conn.execute(text(sql))
    finally:
        eng.dispose()


def schema_of(url: str) -> dict[str, object]:
    """Tables, columns (with types and autoincrement), indexes, unique constraints and
    foreign keys, in a comparable form."""
    eng = engine(url)
    insp = inspect(eng)
    schema: dict[str, object] = {}
    for table in sorted(insp.get_table_names()):
        schema[table] = {
            "columns": [
                (
                    c["name"],
                    str(c["type"]),
                    c["nullable"],
                    c.get("primary_key"),
                    c.get("autoincrement"),
                )
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
    eng.dispose()
    return schema


def load_old_schema(url: str, fixture: Path, tmp_path: Path) -> None:
    """Make ``url`` (empty) a database of the fixture's older schema version, as
    c8league of that version created it: on SQLite, the fixture's own SQL; on
    PostgreSQL, the same tables translated to it (generic types, serial ids, BIGINT
    seeds) with the fixture's rows."""
    if url.startswith("sqlite:///"):
        con = sqlite3.connect(url.removeprefix("sqlite:///"))
        con.executescript(fixture.read_text())
        con.commit()
        con.close()
        return
    source_path = tmp_path / f"{fixture.stem}.db"
    con = sqlite3.connect(source_path)
    con.executescript(fixture.read_text())
    con.commit()
    con.close()
    source = create_engine(f"sqlite:///{source_path}")
    meta = MetaData()
    meta.reflect(source)
    for table in meta.tables.values():
        for column in table.columns:
            column.type = column.type.as_generic()
    for table_name, column_name in postgres.WIDE_COLUMNS:
        if table_name in meta.tables:  # (a table of a later version is not there yet)
            meta.tables[table_name].c[column_name].type = BigInteger()
    target = engine(url)
    with source.connect() as src, target.begin() as dst:
        meta.create_all(dst)
        for table in meta.sorted_tables:
            rows = [dict(r._mapping) for r in src.execute(table.select())]
            if rows:
                dst.execute(table.insert(), rows)
            if "id" in table.c and rows:
                dst.execute(
                    text(f"SELECT setval(pg_get_serial_sequence('\"{table.name}\"', 'id'), :n)"),
                    {"n": max(int(r["id"]) for r in rows)},
                )
    source.dispose()
    target.dispose()


def results(url: str) -> list[tuple[object, ...]]:
    """Everything an event run produces, in a comparable form (no times)."""
    rows: list[tuple[object, ...]] = []
    rows += query(
        url,
        "SELECT m.id, m.round_id, m.table_no, m.deal, m.seed, m.status, m.ended, m.hands, "
        "m.sequence, m.forfeit_seat, m.forfeit_reason, m.forfeit_move FROM match m ORDER BY m.id",
    )
    rows += query(
        url, "SELECT match_id, seat, entrant_id, place, score FROM match_seat ORDER BY 1, 2"
    )
    rows += query(
        url, "SELECT match_id, number, kind, winners, points, record FROM hand ORDER BY 1, 2"
    )
    rows += query(
        url,
        "SELECT entrant_id, match_id, sequence, mu_before, sigma_before, mu_after, sigma_after "
        "FROM rating_history ORDER BY sequence, entrant_id",
    )
    rows += query(url, "SELECT entrant_id, mu, sigma, matches FROM rating ORDER BY 1")
    return rows


def record_placed(
    session: Any,
    league: Any,
    match: Any,
    places: list[int],
    hands: Sequence[HandReport],
    forfeit: Forfeit | None,
    model: Any,
) -> None:
    """Store a result of ``places`` (scores 100 − 10 × place) and rate it, as the
    runner's results are stored."""
    result = Result(
        tuple(places),
        tuple(100 - 10 * p for p in places),
        "forfeit" if forfeit else "target",
        tuple(hands),
        forfeit=forfeit,
    )
    record_results(session, league, [(match, result)], model=model)


def record_findings(url: str) -> list[chain.Finding]:
    """What ``c8league verify`` finds in the database ``url`` (nothing for a database
    that is not c8league's of this version: an older one a test left, another file)."""
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        try:
            with open(path, "rb") as file:
                if file.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                    return []
        except OSError:
            return []
    eng = engine(url)
    try:
        with eng.connect() as conn:
            tables = set(inspect(conn).get_table_names())
            if not {"meta", "chain"} <= tables:
                return []
            version = conn.execute(
                text("SELECT value FROM meta WHERE key = 'schema_version'")
            ).scalar()
            if str(version) != str(SCHEMA_VERSION):
                return []
            return list(chain.verify(conn).findings)
    except DBAPIError:
        return []  # not a database (a file that only starts like one), or damaged on purpose
    finally:
        eng.dispose()


def sqlite_files(folder: Path, depth: int = 3) -> list[Path]:
    """The SQLite databases (``*.db``) in ``folder`` and its folders, ``depth`` deep."""
    found: list[Path] = []
    if depth < 0 or not folder.is_dir():
        return found
    for entry in sorted(folder.iterdir()):
        if entry.is_dir() and not entry.is_symlink() and "venv" not in entry.name:
            found += sqlite_files(entry, depth - 1)
        elif entry.suffix == ".db" and entry.is_file():
            found.append(entry)
    return found
