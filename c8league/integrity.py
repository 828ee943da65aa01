"""Is the record as c8league wrote it? ``c8league verify``, and the quick look of the
commands that show a league's results (``event status``, ``report``, ``event publish``).

Every record c8league writes carries a digest chained to the one before it
(``c8league.storage.chain``): :func:`verify` recomputes the digests of the records as
they are now and follows every link of the chain; :func:`check` only compares a league's
records with their latest entries, cheap enough for every command that shows them.
The chain has no secret: someone who can write the database can rebuild it whole.
What stops that is its head, published (a page, a message to the members): ``verify``
with ``head`` checks that a head published earlier is still an entry of the chain.

Ratings are not chained: they are computed from the results (``ratings rebuild``
computes them again), which are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from c8league.errors import UsageError
from c8league.findings import Finding, Place, RecordChanged, Verification
from c8league.storage import chain
from c8league.storage.database import Database
from c8league.storage.leagues import get_event, get_league, only_league

__all__ = [
    "Finding",
    "LeagueCheck",
    "Place",
    "RecordChanged",
    "Verification",
    "check",
    "verify",
]

_HEAD = re.compile(r"[0-9a-f]{64}")


def verify(db: Database, league: str | None = None, *, head: str | None = None) -> Verification:
    """Compare every record (of ``league`` and the players, or of the whole database)
    with its latest entry in the chain, and every entry of the chain with the one
    before it; with ``head`` (a head printed before, 64 hex digits), find the entry
    whose link it is. A SQLite file SQLite's quick check finds damaged is refused
    (:class:`~c8league.errors.DatabaseDamaged`)."""
    wanted = None if head is None else head.strip().lower()
    if wanted is not None and not _HEAD.fullmatch(wanted):
        raise UsageError(
            f"`head` must be a head as c8league verify prints it (64 hex digits), not {head!r}",
            params=["head"],
        )
    db.check_whole()
    with db.session() as session:
        conn = chain.reading(session)
        league_id = None if league is None else get_league(session, league).id
        return chain.verify(conn, league_id, head=wanted)


@dataclass(frozen=True)
class LeagueCheck:
    """What :func:`check` found in a league's records."""

    league: str
    verification: Verification


def check(db: Database, *, league: str | None = None, event: str | None = None) -> LeagueCheck:
    """The quick look: the records of a league (named, or the only one), or of one of
    its events (with its league's memberships and the players), compared with their
    latest entries without their hands, and without following the chain's links."""
    with db.session() as session:
        conn = chain.reading(session)
        event_id = None
        if event is not None:
            found, in_event = get_event(session, event, league)
            event_id = in_event.id
        else:
            found = only_league(session, league)
        verification = chain.verify(conn, found.id, links=False, event_id=event_id)
        return LeagueCheck(found.name, verification)
