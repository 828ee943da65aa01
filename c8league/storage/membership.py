"""The history of league membership: who joined, withdrew, came back, or was absent, and
where in the season (after which round of which event). Nothing here commits: the
caller's transaction does."""

from __future__ import annotations

from sqlmodel import Session, col, select

from c8league.storage.models import Event, MembershipChange, Round

Position = tuple[Event | None, int]
"""Where in a league's season a change happens: after round N of an event (None and 0:
before the league's first round)."""


def position(session: Session, league_id: int) -> Position:
    """Where the league's season is now: the latest published round (of the latest event
    that has one) — a draft round is not yet part of the season."""
    row = session.exec(
        select(Event, Round.number)
        .join(Round, col(Round.event_id) == col(Event.id))
        .where(Event.league_id == league_id, Round.published == True)  # noqa: E712
        .order_by(col(Event.id).desc(), col(Round.number).desc())
        .limit(1)
    ).first()
    if row is None:
        return None, 0
    event, number = row
    return event, number


def record(
    session: Session,
    league_id: int,
    entrant_id: int,
    *,
    action: str,
    where: Position,
    round_number: int | None = None,
) -> MembershipChange:
    """Keep one change (``joined``, ``withdrew``, ``returned``, ``absent``, ``present``)
    at ``where`` in the season."""
    event, after = where
    change = MembershipChange(
        league_id=league_id,
        entrant_id=entrant_id,
        action=action,
        event_id=None if event is None else event.id,
        after_round=after,
        round=round_number,
    )
    session.add(change)
    session.flush()
    return change


def changes(session: Session, league_id: int) -> list[MembershipChange]:
    """Every change of the league's membership, in the order they were made."""
    return list(
        session.exec(
            select(MembershipChange)
            .where(MembershipChange.league_id == league_id)
            .order_by(col(MembershipChange.id))
        ).all()
    )


def check_ins(session: Session, event_id: int) -> list[MembershipChange]:
    """The event's check-in (``absent`` and ``present``), in the order it was said."""
    return list(
        session.exec(
            select(MembershipChange)
            .where(
                MembershipChange.event_id == event_id,
                col(MembershipChange.action).in_(["absent", "present"]),
            )
            .order_by(col(MembershipChange.id))
        ).all()
    )


def of_entrant(session: Session, entrant_id: int) -> list[MembershipChange]:
    """Every change of the entrant's memberships, in every league, oldest first."""
    return list(
        session.exec(
            select(MembershipChange)
            .where(MembershipChange.entrant_id == entrant_id)
            .order_by(col(MembershipChange.id))
        ).all()
    )


def move_history(session: Session, league_id: int, old: int, new: int) -> None:
    """Make the league's membership history of entrant ``old`` that of entrant ``new``."""
    for change in of_entrant(session, old):
        if change.league_id == league_id:
            change.entrant_id = new
            session.add(change)
    session.flush()
