"""The audit trail: every change an organiser makes after the fact (results added,
edited and voided; draft rounds swapped, moved, published and discarded; members who
withdraw, come back, join late, are renamed, merged or removed), with the values before
and after. Nothing here commits: the caller's transaction does."""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Session, col, or_, select

from c8league.names import name_key
from c8league.storage.models import Audit, Event


def record(
    session: Session,
    action: str,
    *,
    league_id: int | None = None,
    event: Event | None = None,
    match_id: int | None = None,
    round_number: int | None = None,
    table_no: int | None = None,
    subject: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    note: str = "",
) -> None:
    """Keep one change: ``action`` on ``subject`` (who or what, in words), in ``event``
    (its round and table) or the league, with the values before and after."""
    session.add(
        Audit(
            league_id=league_id if event is None else event.league_id,
            event_id=None if event is None else event.id,
            match_id=match_id,
            round=round_number,
            table_no=table_no,
            action=action,
            subject=subject[:250],
            before=None if before is None else json.dumps(before, sort_keys=True),
            after=None if after is None else json.dumps(after, sort_keys=True),
            note=note[:500],
        )
    )


def trail(
    session: Session, *, event_id: int | None = None, league_id: int | None = None
) -> list[dict[str, Any]]:
    """The changes of an event (``event_id``), or of a league (``league_id``: its events'
    and its members', and those of people in no league), oldest first."""
    query = select(Audit, Event.name).join(
        Event, col(Event.id) == col(Audit.event_id), isouter=True
    )
    if event_id is not None:
        query = query.where(Audit.event_id == event_id)
    elif league_id is not None:
        query = query.where(or_(Audit.league_id == league_id, col(Audit.league_id).is_(None)))
    rows = session.exec(query.order_by(col(Audit.id))).all()
    return [
        {
            "at": entry.at.isoformat(timespec="seconds"),
            "event": event_name,
            "round": entry.round,
            "table": entry.table_no,
            "action": entry.action,
            "subject": entry.subject,
            "before": None if entry.before is None else json.loads(entry.before),
            "after": None if entry.after is None else json.loads(entry.after),
            "note": entry.note,
        }
        for entry, event_name in rows
    ]


def renamed(session: Session, name: str) -> str | None:
    """The name now of a player once called ``name`` (renamed, or merged into another),
    following every later rename; None if no player was."""
    key, found = name_key(name), None
    rows = session.exec(
        select(Audit.action, Audit.before, Audit.after)
        .where(col(Audit.action).in_(["rename", "merge"]))
        .order_by(col(Audit.id))
    ).all()
    for action, before, after in rows:
        was = json.loads(before or "{}")
        now = json.loads(after or "{}").get("name")
        names = [was.get("name")] if action == "rename" else list(was.get("names", []))[1:]
        if now and any(isinstance(n, str) and name_key(n) == key for n in names):
            key, found = name_key(now), now
    return found
