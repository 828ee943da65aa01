"""The audit trail of results entered by hand: every add, edit and void, with the
values before and after. Nothing here commits: the caller's transaction does."""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Session, col, select

from c8league.storage.models import Match, ResultAudit, Round


def record(
    session: Session,
    match_id: int,
    action: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    note: str,
) -> None:
    """Keep one change of a match's result (``add``, ``edit`` or ``void``)."""
    session.add(
        ResultAudit(
            match_id=match_id,
            action=action,
            before=None if before is None else json.dumps(before, sort_keys=True),
            after=None if after is None else json.dumps(after, sort_keys=True),
            note=note[:500],
        )
    )


def trail(session: Session, event_id: int) -> list[dict[str, Any]]:
    """Every add, edit and void of the event's results, oldest first."""
    rows = session.exec(
        select(ResultAudit, Match.table_no, Round.number)
        .join(Match, col(Match.id) == col(ResultAudit.match_id))
        .join(Round, col(Round.id) == col(Match.round_id))
        .where(Match.event_id == event_id)
        .order_by(col(ResultAudit.id))
    ).all()
    return [
        {
            "at": audit.at.isoformat(timespec="seconds"),
            "round": number,
            "table": table_no,
            "action": audit.action,
            "before": None if audit.before is None else json.loads(audit.before),
            "after": None if audit.after is None else json.loads(audit.after),
            "note": audit.note,
        }
        for audit, table_no, number in rows
    ]
