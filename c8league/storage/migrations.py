"""Schema migrations: an ordered list of steps, each taking the schema up one version.

A fresh database is created from the models at the current version; an older one is
brought up to date by running, in order, every step above its version. Each step
uses portable SQLAlchemy operations so that it runs on SQLite and PostgreSQL. A test
loads a database of every older version, upgrades it and compares its schema with a
fresh one.

The record's chain (``c8league.storage.chain``) covers the rows c8league writes; a step
that changes what it covers (a new table or column of a chained record, rows rewritten)
is listed in :data:`RECHAIN`, and an upgrade through it chains every record anew once
all the steps have run, so that the chain holds the records as the schema now has them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    text,
)

from c8league.errors import StorageError
from c8league.storage import chain
from c8league.storage.models import SCHEMA_VERSION

Step = Callable[[Any], None]


def _v2_result_audit(conn: Any) -> None:
    """Version 2: the audit trail of results entered, corrected and voided by hand."""
    meta = MetaData()
    Table("match", meta, Column("id", Integer, primary_key=True))
    table = Table(
        "result_audit",
        meta,
        Column("id", Integer, primary_key=True),
        Column("match_id", Integer, ForeignKey("match.id"), nullable=False),
        Column("action", String(16), nullable=False),
        Column("before", Text, nullable=True),
        Column("after", Text, nullable=True),
        Column("note", String(512), nullable=False),
        Column("at", DateTime, nullable=False),
    )
    Index("ix_result_audit_match_id", table.c.match_id)
    table.create(conn)


def _v3_duels(conn: Any) -> None:
    """Version 3: duels (bot A against bot B until a test decides) and their pairs."""
    meta = MetaData()
    Table(
        "duel",
        meta,
        Column("id", Integer, primary_key=True),
        Column("name", String(128), nullable=False, unique=True),
        Column("players", Integer, nullable=False),
        Column("seed", Integer().with_variant(BigInteger(), "postgresql"), nullable=False),
        Column("settings", Text, nullable=False),
        Column("status", String(16), nullable=False),
        Column("created_at", DateTime, nullable=False),
        Column("finished_at", DateTime, nullable=True),
    )
    Table(
        "duel_pair",
        meta,
        Column("duel_id", Integer, ForeignKey("duel.id"), primary_key=True),
        Column("deal", Integer, primary_key=True),
        Column("seat", Integer, nullable=False),
        Column("share_a", Integer, nullable=False),
        Column("share_b", Integer, nullable=False),
        Column("match_a", Text, nullable=False),
        Column("match_b", Text, nullable=False),
        Column("seconds", Float, nullable=False),
    )
    meta.create_all(conn)


def _v4_season_record(conn: Any) -> None:
    """Version 4: membership kept as a history per event (``membership_change``), and one
    audit trail of every change (``audit``, which takes in ``result_audit``'s rows).

    Every member of a league joined before its first round; a member withdrawn now
    withdrew after the last round they were seated in (before the first, if none)."""
    meta = MetaData()
    for name in ("league", "entrant", "event", "match"):
        Table(name, meta, Column("id", Integer, primary_key=True))
    changes = Table(
        "membership_change",
        meta,
        Column("id", Integer, primary_key=True),
        Column("league_id", Integer, ForeignKey("league.id"), nullable=False),
        Column("entrant_id", Integer, ForeignKey("entrant.id"), nullable=False),
        Column("action", String(16), nullable=False),
        Column("event_id", Integer, ForeignKey("event.id"), nullable=True),
        Column("after_round", Integer, nullable=False),
        Column("round", Integer, nullable=True),
        Column("at", DateTime, nullable=False),
    )
    Index("ix_membership_change_league_entrant", changes.c.league_id, changes.c.entrant_id)
    trail = Table(
        "audit",
        meta,
        Column("id", Integer, primary_key=True),
        Column("league_id", Integer, ForeignKey("league.id"), nullable=True),
        Column("event_id", Integer, ForeignKey("event.id"), nullable=True),
        Column("match_id", Integer, ForeignKey("match.id"), nullable=True),
        Column("round", Integer, nullable=True),
        Column("table_no", Integer, nullable=True),
        Column("action", String(16), nullable=False),
        Column("subject", String(256), nullable=False),
        Column("before", Text, nullable=True),
        Column("after", Text, nullable=True),
        Column("note", String(512), nullable=False),
        Column("at", DateTime, nullable=False),
    )
    for column in ("league_id", "event_id", "match_id"):
        Index(f"ix_audit_{column}", trail.c[column])
    meta.create_all(conn, tables=[changes, trail])
    conn.execute(
        text(
            "INSERT INTO audit (id, league_id, event_id, match_id, round, table_no, action, "
            "subject, before, after, note, at) "
            "SELECT a.id, e.league_id, m.event_id, a.match_id, r.number, m.table_no, a.action, "
            "'', a.before, a.after, a.note, a.at FROM result_audit a "
            "JOIN match m ON m.id = a.match_id JOIN round r ON r.id = m.round_id "
            "JOIN event e ON e.id = m.event_id"
        )
    )
    conn.execute(text("DROP TABLE result_audit"))
    now = datetime.now(UTC)
    members = conn.execute(
        text("SELECT league_id, entrant_id, withdrawn FROM league_entrant ORDER BY 1, 2")
    ).all()
    rows: list[dict[str, Any]] = []
    for league_id, entrant_id, withdrawn in members:
        rows.append(_change(league_id, entrant_id, action="joined", event_id=None, after=0, at=now))
        if withdrawn:
            last = conn.execute(
                text(
                    "SELECT r.event_id, r.number FROM match_seat s "
                    "JOIN match m ON m.id = s.match_id JOIN round r ON r.id = m.round_id "
                    "JOIN event e ON e.id = r.event_id "
                    "WHERE s.entrant_id = :entrant AND e.league_id = :league "
                    "ORDER BY r.event_id DESC, r.number DESC LIMIT 1"
                ),
                {"entrant": entrant_id, "league": league_id},
            ).first()
            event_id, after = (last[0], last[1]) if last is not None else (None, 0)
            rows.append(
                _change(
                    league_id, entrant_id, action="withdrew", event_id=event_id, after=after, at=now
                )
            )
    if rows:
        conn.execute(changes.insert(), rows)
    if conn.dialect.name == "postgresql":
        for table in ("audit", "membership_change"):
            conn.execute(
                text(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                )
            )


def _change(
    league_id: int, entrant_id: int, *, action: str, event_id: int | None, after: int, at: Any
) -> dict[str, Any]:
    return {
        "league_id": league_id,
        "entrant_id": entrant_id,
        "action": action,
        "event_id": event_id,
        "after_round": after,
        "round": None,
        "at": at,
    }


def _v5_game_records(conn: Any) -> None:
    """Version 5: every game kept and shown. A match's unfinished hand (the moves before
    a forfeit), a duel's matches' moves, and why a duel stopped without a verdict."""
    for table, column in (
        ("match", Column("unfinished", Text, nullable=True)),
        ("duel", Column("stopped", Text, nullable=True)),
        ("duel_pair", Column("moves_a", LargeBinary, nullable=True)),
        ("duel_pair", Column("moves_b", LargeBinary, nullable=True)),
    ):
        kind = column.type.compile(dialect=conn.dialect)
        name = conn.dialect.identifier_preparer.quote(table)
        conn.execute(text(f"ALTER TABLE {name} ADD COLUMN {column.name} {kind}"))


def _v6_schedules(conn: Any) -> None:
    """Version 6: a round-robin's schedule, stored when its first round is paired (an
    event paired before has its schedule computed and stored at its next pairing)."""
    meta = MetaData()
    Table("event", meta, Column("id", Integer, primary_key=True))
    Table(
        "schedule_round",
        meta,
        Column("event_id", Integer, ForeignKey("event.id"), primary_key=True),
        Column("number", Integer, primary_key=True),
        Column("tables", Text, nullable=False),
        Column("byes", Text, nullable=False),
    ).create(conn)


LEGACY_STANDING = '{"tiebreaks": ["opponents-total", "game-points", "wins"]}'
"""The tie-breaks of the leagues of a database older than version 7, which stay theirs."""


def _v7_standing(conn: Any) -> None:
    """Version 7: how a league's standings are read, and by which pairing rules each
    event was paired. Existing leagues keep the tie-breaks they had; events that have
    rounds keep the pairing they had (round 1 in the order of entry). Check-in (who is
    absent from which rounds) is kept in ``membership_change``, as of version 4."""
    conn.execute(text("ALTER TABLE league ADD COLUMN standing TEXT NOT NULL DEFAULT '{}'"))
    conn.execute(text("UPDATE league SET standing = :s"), {"s": LEGACY_STANDING})
    conn.execute(text("ALTER TABLE event ADD COLUMN pairing INTEGER NOT NULL DEFAULT 2"))
    conn.execute(text("UPDATE event SET pairing = 1 WHERE id IN (SELECT event_id FROM round)"))


def _v8_schedule_search(conn: Any) -> None:
    """Version 8: the version of the search that computes each round-robin's schedule.
    Existing events keep the first (their schedule, stored or still to be computed, is
    the one they always had); new ones use the second."""
    conn.execute(text("ALTER TABLE event ADD COLUMN schedule INTEGER NOT NULL DEFAULT 1"))


def _v9_chain(conn: Any) -> None:
    """Version 9: the record's chain. What the database holds is chained once the upgrade
    has run every step (see :data:`RECHAIN`)."""
    meta = MetaData()
    table = Table(
        "chain",
        meta,
        Column("seq", Integer, primary_key=True, autoincrement=False),
        Column("kind", String(16), nullable=False),
        Column("key", String(64), nullable=False),
        Column("league_id", Integer, nullable=True),
        Column("digest", Text, nullable=True),
        Column("link", String(64), nullable=False),
    )
    Index("ix_chain_kind_key", table.c.kind, table.c.key)
    Index("ix_chain_league_id", table.c.league_id)
    table.create(conn)


def _v10_versions(conn: Any) -> None:
    """Version 10: the versions of bots (``bot_version``) and, for each seat of a match,
    the version that played it (None for the matches stored before). The chain hashes a
    seat's version only when it has one, so the matches chained before are as they were
    (nothing to chain anew)."""
    meta = MetaData()
    table = Table(
        "bot_version",
        meta,
        Column("id", Integer, primary_key=True),
        Column("digest", String(64), nullable=False, unique=True),
        Column("label", String(256), nullable=False),
        Column("details", Text, nullable=False),
        Column("created_at", DateTime, nullable=False),
    )
    table.create(conn)
    conn.execute(
        text("ALTER TABLE match_seat ADD COLUMN version_id INTEGER REFERENCES bot_version(id)")
    )


def _v11_forfeit_request(conn: Any) -> None:
    """Version 11: the move request a bot that c8league played forced moves for faulted
    at (``match.forfeit_request``; None for the forfeits stored before). Hashed only when
    set (``chain.LATE``): nothing is chained anew."""
    conn.execute(text("ALTER TABLE match ADD COLUMN forfeit_request INTEGER"))


def _v12_table_codes(conn: Any) -> None:
    """Version 12: the codes of the tables of published rounds and the results reported
    with them from the table (``table_code``). Not chained (codes are secrets; a report
    becomes the record only once accepted): nothing is chained anew."""
    meta = MetaData()
    Table("match", meta, Column("id", Integer, primary_key=True))
    table = Table(
        "table_code",
        meta,
        Column("id", Integer, primary_key=True),
        Column("match_id", Integer, ForeignKey("match.id"), nullable=False, unique=True),
        Column("code", String(16), nullable=False, unique=True),
        Column("report", Text, nullable=True),
        Column("reported_at", DateTime, nullable=True),
        Column("created_at", DateTime, nullable=False),
    )
    table.create(conn)


# version reached -> step from the version below. Version 1 is the first schema.
STEPS: dict[int, Step] = {
    2: _v2_result_audit,
    3: _v3_duels,
    4: _v4_season_record,
    5: _v5_game_records,
    6: _v6_schedules,
    7: _v7_standing,
    8: _v8_schedule_search,
    9: _v9_chain,
    10: _v10_versions,
    11: _v11_forfeit_request,
    12: _v12_table_codes,
}

RECHAIN = frozenset({9})
"""The versions whose step changes what the chain covers: an upgrade through one of them
ends by chaining every record that is not as its latest entry says."""


def upgrade(conn: Any, version: int) -> None:
    """Run every step above ``version`` and record the new version."""
    if version < 1:
        raise StorageError(f"database schema version {version} is not one c8league wrote")
    for target in range(version + 1, SCHEMA_VERSION + 1):
        step = STEPS.get(target)
        if step is None:
            raise StorageError(f"no migration to schema version {target}")
        step(conn)
        conn.execute(
            text("UPDATE meta SET value = :v WHERE key = 'schema_version'"), {"v": str(target)}
        )
    if RECHAIN.intersection(range(version + 1, SCHEMA_VERSION + 1)):
        chain.chain_existing(conn)
