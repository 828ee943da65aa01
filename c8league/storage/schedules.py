"""A round-robin's schedule, as stored: computed once, when the event's first round is
paired, and read by every pairing after it. Nothing here commits: the caller's
transaction does."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import delete, insert
from sqlmodel import Session, SQLModel, col, func, select

from c8league.storage.models import ScheduleRound

PlannedRound = tuple[list[list[int]], list[int]]
"""A planned round: its tables (entrant ids in seat order, in table order), and byes."""


def round_count(session: Session, event_id: int) -> int:
    """How many rounds the event's stored schedule has (0: none stored)."""
    return int(
        session.exec(
            select(func.count())
            .select_from(ScheduleRound)
            .where(ScheduleRound.event_id == event_id)
        ).one()
    )


def planned_rounds(
    session: Session, event_id: int, first: int = 1, last: int | None = None
) -> list[PlannedRound]:
    """The stored rounds numbered ``first`` to ``last`` (to the end when None), in order."""
    query = select(ScheduleRound).where(
        ScheduleRound.event_id == event_id, col(ScheduleRound.number) >= first
    )
    if last is not None:
        query = query.where(col(ScheduleRound.number) <= last)
    rows = session.exec(query.order_by(col(ScheduleRound.number))).all()
    return [(json.loads(row.tables), json.loads(row.byes)) for row in rows]


def store(session: Session, event_id: int, rounds: Sequence[PlannedRound]) -> None:
    """Store the event's whole schedule (it has none yet), in one statement."""
    if not rounds:
        return
    session.flush()  # the caller's pending changes first
    session.connection().execute(
        insert(SQLModel.metadata.tables[str(ScheduleRound.__tablename__)]),
        [
            {"event_id": event_id, "number": number, "tables": _json(tables), "byes": _json(byes)}
            for number, (tables, byes) in enumerate(rounds, start=1)
        ],
    )


def forget(session: Session, event_id: int) -> None:
    """Delete the event's schedule (its first round was discarded: it is paired anew)."""
    session.execute(delete(ScheduleRound).where(col(ScheduleRound.event_id) == event_id))


def reseat(session: Session, old: int, new: int) -> None:
    """Give entrant ``old``'s places in every stored schedule to entrant ``new`` (two
    entrants found to be one person; never two entrants of one schedule, who were both
    paired in its first round)."""
    for row in session.exec(select(ScheduleRound)).all():
        tables, byes = json.loads(row.tables), json.loads(row.byes)
        if old in byes or any(old in table for table in tables):
            row.tables = _json([[new if e == old else e for e in table] for table in tables])
            row.byes = _json([new if e == old else e for e in byes])
            session.add(row)


def _json(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))
