"""Who is absent from which rounds of an event (check-in). Nothing here commits: the
caller's transaction does."""

from __future__ import annotations

from sqlmodel import Session, col, select

from c8league.storage.models import Absence


def absences(session: Session, event_id: int) -> list[Absence]:
    """The event's absences, in the order they were said."""
    query = select(Absence).where(Absence.event_id == event_id).order_by(col(Absence.id))
    return list(session.exec(query).all())


def absent_in(session: Session, event_id: int, number: int) -> set[int]:
    """The entrants absent from round ``number`` of the event."""
    return {a.entrant_id for a in absences(session, event_id) if covers(a, number)}


def covers(absence: Absence, number: int) -> bool:
    """Whether ``absence`` keeps its member out of round ``number``."""
    until = absence.until_round
    return absence.from_round <= number and (until is None or number <= until)


def add(session: Session, event_id: int, entrant_id: int, first: int, last: int | None) -> None:
    """Keep the entrant out of rounds ``first`` to ``last`` (None: until back)."""
    session.add(
        Absence(event_id=event_id, entrant_id=entrant_id, from_round=first, until_round=last)
    )


def end(session: Session, event_id: int, entrant_id: int, number: int) -> bool:
    """The entrant is back from round ``number`` on: every absence of theirs that would
    cover it or a later round ends before it (one that had not started goes). Whether
    there was any."""
    changed = False
    for absence in absences(session, event_id):
        if absence.entrant_id != entrant_id:
            continue
        if absence.until_round is not None and absence.until_round < number:
            continue
        changed = True
        if absence.from_round >= number:
            session.delete(absence)
        else:
            absence.until_round = number - 1
            session.add(absence)
    return changed
