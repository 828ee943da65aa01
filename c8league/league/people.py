"""People's names after the fact: renaming a member, and merging two entrants who turn
out to be one person. Each public function is one transaction, kept in the audit
trail: it changes everything it says, or nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from c8league.errors import UsageError
from c8league.league.players import check_new_name
from c8league.names import check_name, printable
from c8league.ratings.update import rebuild_ratings
from c8league.storage import Session, audit
from c8league.storage import leagues as stored_leagues
from c8league.storage import membership as stored_membership
from c8league.storage import results as stored_results
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.models import Entrant, League, LeagueEntrant


def rename(db: Database, old: str, new: str) -> tuple[str, str]:
    """Give a player another name, everywhere: standings, sheets and reports of every
    event, past ones included, show the new name (the audit trail keeps what was
    recorded under the old one, and the rename). Returns (old name, new name)."""
    try:
        new = check_name(new)
    except ValueError as exc:
        raise UsageError(f"player name {printable(repr(new))}: {exc}") from None
    with db.writing() as session:
        entrant = stored_leagues.get_entrant(session, old)
        was = entrant.name
        if new == was:
            raise UsageError(f"nothing to change: the player is called {was!r} already")
        check_new_name(session, new, entrant.id)
        stored_leagues.rename_entrant(session, entrant, new)
        _audit(
            session,
            entrant,
            action="rename",
            subject=f"{was} → {new}",
            before={"name": was},
            after={"name": new},
        )
        return was, new


@dataclass(frozen=True)
class Merged:
    """What :func:`merge` did: the name kept, the name gone, and the results moved."""

    keep: str
    other: str
    results: int


def merge(db: Database, keep: str, other: str) -> Merged:
    """Make ``other`` and ``keep`` one person called ``keep``: every result, seat and bye
    of ``other`` becomes ``keep``'s, its memberships too (where ``keep`` is not a member
    already), and the ratings are computed again from ``other``'s first result on.
    Refused, with the reason, for two entrants who sat at one table or were paired in
    the same round (they are two people), for bots, and for one entrant twice."""
    with db.writing() as session:
        kept = stored_leagues.get_entrant(session, keep)
        gone = stored_leagues.get_entrant(session, other)
        assert kept.id is not None and gone.id is not None
        if kept.id == gone.id:
            raise UsageError(f"{kept.name!r} and {other!r} are the same player")
        for entrant in (kept, gone):
            if entrant.kind != "person":
                raise UsageError(
                    f"{entrant.name} is a bot: only people are merged (a changed bot is "
                    "a new entrant, rated apart)"
                )
        met, same_round = stored_rounds.shared_places(session, kept.id, gone.id)
        if met:
            place = met[0]
            raise UsageError(
                f"{kept.name} and {gone.name} sat at table {place.table} of round "
                f"{place.round} of {place.event}: they are two people"
            )
        if same_round:
            place = same_round[0]
            raise UsageError(
                f"{kept.name} and {gone.name} were both paired in round {place.round} of "
                f"{place.event}: they are two people"
            )
        firsts = stored_results.first_sequences(session, gone.id)
        results = stored_leagues.results_of(session, gone.id)
        stored_rounds.reseat(session, gone.id, kept.id)
        leagues = stored_leagues.entrant_leagues(session, gone.id)
        for league in leagues:
            assert league.id is not None
            _one_membership(session, league.id, kept.id, gone.id)
        for league_id, sequence in sorted(firsts.items()):
            rebuild_ratings(session, league_id, from_sequence=sequence)
        if gone.retired is False and kept.retired and results:
            kept.retired = False
            session.add(kept)
        _audit(
            session,
            kept,
            action="merge",
            subject=f"{gone.name} → {kept.name}",
            before={"names": [kept.name, gone.name]},
            after={"name": kept.name, "results_moved": results},
            leagues=leagues,
        )
        stored_leagues.delete_entrant(session, gone)
        return Merged(kept.name, gone.name, results)


_JOINS = ("joined", "withdrew", "returned")
"""The changes of membership that make one history (check-in is of one event)."""


def _one_membership(session: Session, league_id: int, kept: int, gone: int) -> None:
    """Make the league membership and history of ``gone`` part of ``kept``'s: one
    history in the order things happened, where a join while already a member is
    dropped and a join after a withdrawal is a return; the member is withdrawn now
    when that history ends with a withdrawal."""
    theirs = stored_leagues.membership(session, league_id, gone)
    if theirs is None:
        return
    mine = stored_leagues.membership(session, league_id, kept)
    if mine is None:
        mine = LeagueEntrant(league_id=league_id, entrant_id=kept, withdrawn=theirs.withdrawn)
    stored_membership.move_history(session, league_id, gone, kept)
    state = None
    for change in stored_membership.of_entrant(session, kept):
        if change.league_id != league_id or change.action not in _JOINS:
            continue
        if change.action == "joined" and state == "active":
            session.delete(change)
            continue
        if change.action == "joined" and state == "withdrawn":
            change.action = "returned"
            session.add(change)
        state = "withdrawn" if change.action == "withdrew" else "active"
    if state is not None:
        mine.withdrawn = state == "withdrawn"
    session.add(mine)
    session.delete(theirs)
    session.flush()


def _audit(
    session: Session,
    entrant: Entrant,
    *,
    action: str,
    subject: str,
    before: dict[str, object],
    after: dict[str, object],
    leagues: Sequence[League] = (),
) -> None:
    """One entry in the trail of each league the player is in (or one of no league)."""
    assert entrant.id is not None
    found = stored_leagues.entrant_leagues(session, entrant.id)
    ids = {lg.id for lg in found} | {lg.id for lg in leagues}
    league_ids: list[int | None] = [i for i in sorted(i for i in ids if i is not None)]
    for league_id in league_ids or [None]:
        where = None if league_id is None else stored_membership.position(session, league_id)
        event = None if where is None else where[0]
        audit.record(
            session,
            action,
            league_id=league_id,
            event=event,
            round_number=None if where is None or event is None else where[1],
            subject=subject,
            before=before,
            after=after,
        )
