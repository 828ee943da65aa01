"""What a ladder's matchmaking reads (``c8league.events.ladder``): how much each entrant
has played in the ladder, and the version each last played as."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select as sa_select
from sqlmodel import Session, col, func

from c8league.storage.fetch import fetch_rows
from c8league.storage.models import BotVersion, Match, MatchSeat, Round


def done(session: Session, event_id: int) -> int:
    """The matches of the event stored done."""
    session.flush()
    rows = fetch_rows(
        session.connection(),
        sa_select(func.count())
        .select_from(Match)
        .where(col(Match.event_id) == event_id, col(Match.status) == "done"),
    )
    return int(rows[0][0])


def played(session: Session, event_id: int) -> dict[int, tuple[int, int]]:
    """Each entrant's matches in the event (done, stored) and the last round it played."""
    session.flush()
    rows = fetch_rows(
        session.connection(),
        sa_select(col(MatchSeat.entrant_id), func.count(), func.max(col(Round.number)))
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .join(Round, col(Round.id) == col(Match.round_id))
        .where(col(Match.event_id) == event_id, col(Match.status) == "done")
        .group_by(col(MatchSeat.entrant_id)),
    )
    return {int(entrant): (int(count), int(last)) for entrant, count, last in rows}


def last_versions(session: Session, entrant_ids: Iterable[int]) -> dict[int, str]:
    """The digest of the version each entrant played its latest stored match as (those
    with one)."""
    ids = sorted(set(entrant_ids))
    if not ids:
        return {}
    latest = (
        sa_select(col(MatchSeat.entrant_id), func.max(col(Match.sequence)).label("sequence"))
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .where(
            col(MatchSeat.entrant_id).in_(ids),
            col(MatchSeat.version_id).is_not(None),
            col(Match.status) == "done",
        )
        .group_by(col(MatchSeat.entrant_id))
        .subquery()
    )
    rows = fetch_rows(
        session.connection(),
        sa_select(col(MatchSeat.entrant_id), col(BotVersion.digest))
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .join(BotVersion, col(BotVersion.id) == col(MatchSeat.version_id))
        .join(
            latest,
            (latest.c.entrant_id == col(MatchSeat.entrant_id))
            & (latest.c.sequence == col(Match.sequence)),
        ),
    )
    return {int(entrant): str(digest) for entrant, digest in rows}


def last_labels(session: Session, entrant_ids: Iterable[int]) -> dict[int, str]:
    """The label of the version each entrant played its latest stored match as."""
    digests = last_versions(session, entrant_ids)
    if not digests:
        return {}
    rows = fetch_rows(
        session.connection(),
        sa_select(col(BotVersion.digest), col(BotVersion.label)).where(
            col(BotVersion.digest).in_(sorted(set(digests.values())))
        ),
    )
    labels = {str(digest): str(label) for digest, label in rows}
    return {entrant: labels.get(digest, "") for entrant, digest in digests.items()}
