"""The versions of bots (``bot_version``), and which played each seat of a match
(``match_seat.version_id``): kept once each, found by their digest."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Integer
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, func, select

from c8league.storage.models import BotVersion, Match, MatchSeat


@dataclass(frozen=True)
class VersionRecord:
    """A version as it is kept: its digest, label and details (JSON)."""

    digest: str
    label: str
    details: str


def keep(session: Session, versions: Iterable[VersionRecord]) -> dict[str, int]:
    """The id of each version, by digest, those not kept yet added. No commit here."""
    wanted = {v.digest: v for v in versions if v.digest}
    if not wanted:
        return {}
    ids = by_digest(session, wanted)
    for digest, version in wanted.items():
        if digest not in ids:
            row = BotVersion(digest=digest, label=version.label[:250], details=version.details)
            session.add(row)
            session.flush()
            assert row.id is not None
            ids[digest] = row.id
    return ids


def by_digest(session: Session, digests: Iterable[str]) -> dict[str, int]:
    """The ids of the versions kept with ``digests`` (those that are)."""
    wanted = sorted(set(digests))
    if not wanted:
        return {}
    rows = session.exec(
        select(BotVersion.digest, BotVersion.id).where(col(BotVersion.digest).in_(wanted))
    ).all()
    return {digest: int(version_id) for digest, version_id in rows if version_id is not None}


@dataclass(frozen=True)
class PlayedVersion:
    """One version of a player as its matches tell: the version, its first and last
    match (the order results count in: sequence), and its record over them."""

    version_id: int
    label: str
    details: dict[str, Any]
    created_at: datetime
    matches: int
    wins: int
    forfeits: int
    mean_place: float
    first_match: int
    last_match: int


def played(session: Session, entrant_id: int) -> list[PlayedVersion]:
    """The versions that played for ``entrant_id``, oldest first, with their results."""
    place, forfeit_seat = col(MatchSeat.place), col(Match.forfeit_seat)
    rows = session.execute(
        sa_select(
            col(BotVersion.id),
            col(BotVersion.label),
            col(BotVersion.details),
            col(BotVersion.created_at),
            func.count(),
            func.sum(func.coalesce((place == 1).cast(Integer), 0)),
            func.sum(func.coalesce((forfeit_seat == col(MatchSeat.seat)).cast(Integer), 0)),
            func.sum(place),
            func.min(col(Match.id)),
            func.max(col(Match.id)),
        )
        .join(MatchSeat, col(MatchSeat.version_id) == col(BotVersion.id))
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .where(col(MatchSeat.entrant_id) == entrant_id, col(Match.status) == "done")
        .group_by(
            col(BotVersion.id),
            col(BotVersion.label),
            col(BotVersion.details),
            col(BotVersion.created_at),
        )
        .order_by(func.min(col(Match.id)))
    ).all()
    return [
        PlayedVersion(
            version_id=int(row[0]),
            label=str(row[1]),
            details=json.loads(row[2]),
            created_at=row[3],
            matches=int(row[4]),
            wins=int(row[5] or 0),
            forfeits=int(row[6] or 0),
            mean_place=int(row[7] or 0) / int(row[4]),
            first_match=int(row[8]),
            last_match=int(row[9]),
        )
        for row in rows
    ]


def seat_versions(session: Session, match_ids: Sequence[int]) -> dict[tuple[int, int], str]:
    """The label of the version that played each seat of the matches (those known)."""
    if not match_ids:
        return {}
    rows = session.exec(
        select(MatchSeat.match_id, MatchSeat.seat, BotVersion.label)
        .join(BotVersion, col(BotVersion.id) == col(MatchSeat.version_id))
        .where(col(MatchSeat.match_id).in_(list(match_ids)))
    ).all()
    return {(int(m), int(s)): str(label) for m, s, label in rows}


@dataclass(frozen=True)
class KeptVersion:
    """A version as kept: its label, digest and details."""

    label: str
    digest: str
    details: dict[str, Any]


def kept(session: Session, ids: Iterable[int]) -> dict[int, KeptVersion]:
    """The versions kept under ``ids`` (those that are), by id."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = session.exec(
        select(BotVersion.id, BotVersion.label, BotVersion.digest, BotVersion.details).where(
            col(BotVersion.id).in_(wanted)
        )
    ).all()
    return {
        int(i): KeptVersion(str(label), str(digest), json.loads(details))
        for i, label, digest, details in rows
        if i is not None
    }
