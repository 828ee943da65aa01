"""Schema migrations: an ordered list of steps, each taking the schema up one version.

A fresh database is created from the models at the current version; an older one is
brought up to date by running, in order, every step above its version. Each step
uses portable SQLAlchemy operations so that it runs on SQLite and PostgreSQL. A test
loads a database of every older version, upgrades it and compares its schema with a
fresh one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    text,
)

from c8league.errors import StorageError

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


LEGACY_STANDING = '{"tiebreaks": ["opponents-total", "game-points", "wins"]}'
"""The tie-breaks of the leagues of a database older than version 4, which stay theirs."""


def _v4_standing(conn: Any) -> None:
    """Version 4: how a league's standings are read, by which pairing rules each event
    was paired, and who is absent from which rounds. Existing leagues keep the
    tie-breaks they had; events that have rounds keep the pairing they had (round 1 in
    the order of entry)."""
    meta = MetaData()
    Table("event", meta, Column("id", Integer, primary_key=True))
    Table("entrant", meta, Column("id", Integer, primary_key=True))
    absence = Table(
        "absence",
        meta,
        Column("id", Integer, primary_key=True),
        Column("event_id", Integer, ForeignKey("event.id"), nullable=False),
        Column("entrant_id", Integer, ForeignKey("entrant.id"), nullable=False),
        Column("from_round", Integer, nullable=False),
        Column("until_round", Integer, nullable=True),
        Column("at", DateTime, nullable=False),
    )
    Index("ix_absence_event_id", absence.c.event_id)
    absence.create(conn)
    conn.execute(text("ALTER TABLE league ADD COLUMN standing TEXT NOT NULL DEFAULT '{}'"))
    conn.execute(text("UPDATE league SET standing = :s"), {"s": LEGACY_STANDING})
    conn.execute(text("ALTER TABLE event ADD COLUMN pairing INTEGER NOT NULL DEFAULT 2"))
    conn.execute(text("UPDATE event SET pairing = 1 WHERE id IN (SELECT event_id FROM round)"))


# version reached -> step from the version below. Version 1 is the first schema.
STEPS: dict[int, Step] = {2: _v2_result_audit, 3: _v3_duels, 4: _v4_standing}


def upgrade(conn: Any, version: int) -> None:
    """Run every step above ``version`` and record the new version."""
    from c8league.storage.models import SCHEMA_VERSION

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
