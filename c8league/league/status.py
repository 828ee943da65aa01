"""A league member's status, and the round it started: active (from the first round, or
from a later one for a late entry), withdrawn (not paired from a round on; results
stay) or retired (removed with results).

The round is read from the pairings of an event: a withdrawal starts in the round after
the last one the member was paired in (seated or given a bye), a late entry in the
first one. An event is the league's latest event that has rounds, unless one is named.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from c8league.storage import Session
from c8league.storage import leagues as stored_leagues
from c8league.storage import rounds as stored_rounds
from c8league.storage.models import Entrant, Event, League

__all__ = ["ACTIVE", "MemberStatus", "member_statuses"]


@dataclass(frozen=True, slots=True)
class MemberStatus:
    """``status``: ``active``, ``withdrawn`` or ``retired``; ``round``: the round of
    ``event`` it started in (None: from the start, or no round paired yet)."""

    status: str
    event: str | None = None
    round: int | None = None

    @property
    def active(self) -> bool:
        return self.status == "active"

    def text(self, *, event: bool = False) -> str:
        """``withdrawn from round 3`` (``… of thursday`` with ``event``), ``active``,
        ``active from round 2``, ``retired``."""
        if self.round is None:
            return self.status
        where = f" of {self.event}" if event and self.event else ""
        return f"{self.status} from round {self.round}{where}"

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "since_round": self.round, "since_event": self.event}


ACTIVE = MemberStatus("active")
"""An active member, from the start."""


def _current_event(session: Session, league_id: int) -> Event | None:
    """The league's latest event with a round paired."""
    for event in reversed(stored_leagues.league_events(session, league_id)):
        assert event.id is not None
        if stored_rounds.event_rounds(session, event.id):
            return event
    return None


def member_statuses(
    session: Session, league: League, event: Event | None = None, *, late: bool = True
) -> dict[int, MemberStatus]:
    """Every member's status in ``league`` (by entrant id), its round read from
    ``event`` (default: the league's latest event with rounds). Without ``late``, the
    first round of a late entry is not looked up (nor any round, when nobody has
    withdrawn)."""
    assert league.id is not None
    members = stored_leagues.league_members(session, league.id)
    withdrawn = stored_leagues.inactive_entrants(session, league.id)
    if event is None:
        event = _current_event(session, league.id)
    needed = late or any(e.id in withdrawn and not e.retired for e in members)
    rounds = [] if event is None or event.id is None or not needed else _paired(session, event.id)
    result: dict[int, MemberStatus] = {}
    for entrant in members:
        assert entrant.id is not None
        if entrant.retired:
            result[entrant.id] = MemberStatus("retired")
            continue
        status = "withdrawn" if entrant.id in withdrawn else "active"
        since = _since(entrant, status, rounds) if late or status != "active" else None
        name = event.name if event is not None and since is not None else None
        result[entrant.id] = MemberStatus(status, name, since)
    return result


def _paired(session: Session, event_id: int) -> list[tuple[int, float, set[int]]]:
    """The event's rounds in order: (number, creation time, entrants paired)."""
    stored = stored_rounds.stored_rounds(session, event_id)
    rows = stored_rounds.event_rounds(session, event_id)
    return [
        (row.number, _utc(row.created_at), {e for t in tables for e in t} | set(byes))
        for row, (tables, byes) in zip(rows, stored, strict=True)
    ]


def _utc(when: datetime) -> float:
    """A stored time (UTC, read back without its offset) as a timestamp."""
    return (when if when.tzinfo is not None else when.replace(tzinfo=UTC)).timestamp()


def _since(entrant: Entrant, status: str, rounds: list[tuple[int, float, set[int]]]) -> int | None:
    """The round a status started in (None: from the start, or before any round)."""
    if not rounds:
        return None
    entrant_id = entrant.id
    present = [number for number, _, paired in rounds if entrant_id in paired]
    if status == "active":
        if present:
            return present[0] if present[0] > 1 else None
        return rounds[-1][0] + 1  # a late entry, paired from the next round
    if present:
        return present[-1] + 1
    # Never paired: withdrawn before the first round after the entrant registered.
    registered = _utc(entrant.created_at)
    return 1 + sum(1 for _, created, _ in rounds if created < registered)
