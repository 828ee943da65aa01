"""A round-robin's schedule, as stored: computed once, when the event's first round is
paired, and read by every pairing after it. Nothing here commits: the caller's
transaction does."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import delete
from sqlmodel import Session, col, func, select

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
    """Store the event's whole schedule (it has none yet)."""
    session.add_all(
        ScheduleRound(
            event_id=event_id,
            number=number,
            tables=json.dumps(tables, separators=(",", ":")),
            byes=json.dumps(byes, separators=(",", ":")),
        )
        for number, (tables, byes) in enumerate(rounds, start=1)
    )


def forget(session: Session, event_id: int) -> None:
    """Delete the event's schedule (its first round was discarded: it is paired anew)."""
    session.execute(delete(ScheduleRound).where(col(ScheduleRound.event_id) == event_id))
